import Benchmark
import PitchDSP

/// Every benchmark records time and the number of mallocs; the audio-path ones must show 0.
/// (No CPU-time metric: sampling it allocates inside the measured region and would hide a real 0.)
var realTimeMetrics: [BenchmarkMetric] { [.wallClock, .mallocCountTotal, .throughput] }

/// Thresholds for audio-path benchmarks: any malloc is a regression.
var noAllocations: [BenchmarkMetric: BenchmarkThresholds] {
  [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])]
}

/// Feeds `input` to `process` in blocks of at most `block` frames, once per scaled iteration,
/// inside the measured region; returns the total `process` returned (to keep it alive).
func measureInBlocks(
  _ benchmark: Benchmark, input: UnsafeMutableBufferPointer<Float>, block: Int,
  _ process: (UnsafeBufferPointer<Float>) -> Int
) -> Int {
  benchmark.startMeasurement()
  var total = 0
  for _ in benchmark.scaledIterations {
    var offset = 0
    while offset < input.count {
      let n = min(block, input.count - offset)
      total += process(UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]))
      offset += n
    }
  }
  benchmark.stopMeasurement()
  return total
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
