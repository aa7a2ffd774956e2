import Benchmark
import PitchDSP

/// Every benchmark records time and the number of mallocs; the audio-path ones must show 0.
/// (No CPU-time metric: sampling it allocates inside the measured region and would hide a real 0.)
var realTimeMetrics: [BenchmarkMetric] { [.wallClock, .mallocCountTotal, .throughput] }

/// Thresholds for audio-path benchmarks: any malloc is a regression.
var noAllocations: [BenchmarkMetric: BenchmarkThresholds] {
  [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])]
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: realTimeMetrics,
    timeUnits: .nanoseconds,
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000
  )
  baselineBenchmarks()
  fftBenchmarks()
  resamplerBenchmarks()
  onsetBenchmarks()
  wavBenchmarks()
  pitchBenchmarks()
}
