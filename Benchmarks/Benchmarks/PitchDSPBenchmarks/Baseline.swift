import Benchmark

/// An empty measured loop: the harness's own allocations, for reading the others' malloc counts.
func baselineBenchmarks() {
  Benchmark(
    "Baseline empty loop",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, scalingFactor: .one,
      maxDuration: .seconds(1), maxIterations: 100)
  ) { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(1) }
    benchmark.stopMeasurement()
  }
}
