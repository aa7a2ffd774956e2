import Benchmark
import Foundation
import PitchDSP

/// Pitch estimators: one second of a 220 Hz harmonic tone at 44.1 kHz pushed through in 512-frame
/// blocks per iteration (100 estimates at the default 10 ms hop). Time per iteration is CPU time
/// per second of audio; allocations must be 0.
func pitchBenchmarks() {
  let makers: [(String, (PitchConfiguration) throws -> any PitchEstimator)] = [
    ("yin", { try YINEstimator(configuration: $0) }),
    ("mpm", { try MPMEstimator(configuration: $0) }),
    ("pyin-live", { try ProbabilisticYINEstimator(configuration: $0) }),
  ]
  for (name, make) in makers {
    Benchmark(
      "Pitch \(name) 1 s 44.1 kHz",
      configuration: .init(
        metrics: realTimeMetrics, timeUnits: .microseconds, scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 200, thresholds: noAllocations)
    ) { benchmark in
      let rate = 44_100.0
      let estimator = try make(PitchConfiguration(sampleRate: rate))
      let block = 512
      let frames = Int(rate)
      let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
      for i in 0..<frames {
        let t = Double(i) / rate
        input[i] = Float(0.3 * sin(2 * .pi * 220 * t) + 0.2 * sin(4 * .pi * 220 * t) + 0.1 * sin(6 * .pi * 220 * t))
      }
      let output = UnsafeMutableBufferPointer<PitchEstimate>.allocate(capacity: estimator.maximumEstimates(forFrames: block))
      output.initialize(repeating: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0))
      benchmark.startMeasurement()
      var produced = 0
      for _ in benchmark.scaledIterations {
        var offset = 0
        while offset < frames {
          let n = min(block, frames - offset)
          produced += estimator.process(UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]), into: output)
          offset += n
        }
      }
      benchmark.stopMeasurement()
      blackHole(produced)
      input.deallocate()
      output.deallocate()
    }
  }
}
