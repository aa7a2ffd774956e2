import Benchmark
import Foundation
import PitchDSP

/// Resampler throughput: one second of input pushed through in 512-frame blocks per iteration.
func resamplerBenchmarks() {
  let pairs: [(Double, Double)] = [(44_100, 48_000), (48_000, 44_100), (44_100, 16_000)]
  for (from, to) in pairs {
    for quality in [Resampler.Quality.fast, .standard, .high] {
      Benchmark(
        "Resampler \(Int(from))->\(Int(to)) \(quality)",
        configuration: .init(
          metrics: realTimeMetrics, timeUnits: .microseconds, scalingFactor: .one,
          maxDuration: .seconds(2), maxIterations: 200, thresholds: noAllocations)
      ) { benchmark in
        let block = 512
        let resampler = try Resampler(
          inputRate: from, outputRate: to, quality: quality, maximumInputFrames: block)
        let frames = Int(from)
        let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
        for i in 0..<frames { input[i] = Float(sin(Double(i) * 0.05)) }
        let output = UnsafeMutableBufferPointer<Float>.allocate(
          capacity: resampler.maximumOutputFrames)
        blackHole(
          measureInBlocks(benchmark, input: input, block: block) {
            resampler.process(input: $0, output: output)
          })
        input.deallocate()
        output.deallocate()
      }
    }
  }
}
