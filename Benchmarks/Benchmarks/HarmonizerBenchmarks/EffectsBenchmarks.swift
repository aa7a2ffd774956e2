import Benchmark
import Foundation
import Harmonizer

/// The effects rack on the audio path: one second of 48 kHz audio (a harmonic tone with vibrato)
/// through the five-effect chain chorus > overdrive > delay > reverb > low-pass per iteration, in
/// 64-, 128-, 256- and 512-frame blocks, with a malloc threshold of 0. The wall clock of one
/// iteration is the CPU seconds per audio second (target, with the harmonizer's four voices:
/// under 0.05). A parameter is changed every block so the smoothing runs too.
func effectsBenchmarks() {
  for block in [64, 128, 256, 512] {
    Benchmark(
      "Effects rack 5 effects 48000 block \(block)",
      configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds,
        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 100,
        thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    ) { benchmark in
      let rate = 48_000.0
      let rack = try EffectsRack(
        kinds: [.chorus, .overdrive, .delay, .reverb, .lowpass], sampleRate: rate, maximumFrames: block)
      let frames = Int(rate)
      let source = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
      let work = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
      defer {
        source.deallocate()
        work.deallocate()
      }
      for i in 0..<frames {
        let t = Double(i) / rate
        let phase = 2 * Double.pi * (220 * t + 0.5 * sin(2 * Double.pi * 5 * t))
        source[i] = Float(0.2 * sin(phase) + 0.1 * sin(2 * phase) + 0.05 * sin(3 * phase))
      }
      func pushSecond() {
        _ = work.update(fromContentsOf: source)
        var offset = 0
        var k = 0
        while offset < frames {
          let n = min(block, frames - offset)
          rack.setParameter(slot: 4, index: 0, to: 1500 + Float(k % 64) * 20)
          rack.process(UnsafeMutableBufferPointer(rebasing: work[offset..<(offset + n)]))
          offset += n
          k += 1
        }
      }
      pushSecond()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { pushSecond() }
      benchmark.stopMeasurement()
      blackHole(work[frames - 1])
    }
  }
}
