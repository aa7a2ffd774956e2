import Benchmark
import Foundation
import PitchDSP

/// Onset detector throughput: one second of 44.1 kHz audio (four notes, so the peak picking
/// and onset output run too) pushed through in 512-frame blocks per iteration.
func onsetBenchmarks() {
  registerOnsetBenchmark("Onset amplitude 44100") {
    try AmplitudeOnsetDetector(configuration: .init(sampleRate: 44_100))
  }
  registerOnsetBenchmark("Onset superflux 44100") {
    try SpectralFluxOnsetDetector(configuration: .init(sampleRate: 44_100))
  }
}

func registerOnsetBenchmark<Detector: OnsetDetector>(_ name: String, make: @escaping () throws -> Detector) {
  Benchmark(
    name,
    configuration: .init(
      metrics: realTimeMetrics, timeUnits: .microseconds, scalingFactor: .one,
      maxDuration: .seconds(2), maxIterations: 200, thresholds: noAllocations)
  ) { benchmark in
    let block = 512
    let rate = 44_100.0
    let detector = try make()
    let frames = Int(rate)
    let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
    for i in 0..<frames {
      // A note every 250 ms: a 5 ms attack, then a decay.
      let t = Double(i % (frames / 4)) / rate
      let frequency = [220.0, 330, 262, 392][i / (frames / 4) % 4]
      let envelope = min(1, t / 0.005) * exp(-t / 0.1)
      input[i] = Float(0.3 * envelope * sin(2 * Double.pi * frequency * t))
    }
    let onsets = UnsafeMutableBufferPointer<Onset>.allocate(capacity: detector.maximumOnsets(forFrames: block))
    onsets.initialize(repeating: Onset(time: 0, strength: 0))
    blackHole(
      measureInBlocks(benchmark, input: input, block: block) { detector.process($0, into: onsets) })
    input.deallocate()
    onsets.deallocate()
  }
}
