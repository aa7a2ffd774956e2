import Benchmark
import Foundation
import PerformanceTracking
import ScoreModel

/// Live performance tracking on the audio path: one second of a melody (four harmonic tones of
/// 250 ms each, a brass-like spectrum with an attack and a release) pushed through the live
/// tracker (live pYIN, the note segmenter, the score follower) in 512-frame blocks per
/// iteration, with a malloc threshold of 0.
let benchmarks: @Sendable () -> Void = {
  for rate in [44_100.0, 48_000.0] {
    Benchmark(
      "Performance live tracker \(Int(rate))",
      configuration: .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .microseconds, scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 200,
        thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    ) { benchmark in
      // A score long enough for every iteration: the one-second melody over and over.
      let pitches = [60, 64, 67, 72]
      let notes = (0..<4000).map { i in
        PerformanceNote(
          index: i, expectedStart: Double(i) * 0.25, expectedDuration: 0.25,
          writtenPitch: MIDINote(rawValue: pitches[i % 4]))
      }
      let tracker = try LivePerformanceTracker(notes: notes, sampleRate: rate, maximumFrames: 512)
      let input = melodySecond(sampleRate: rate, pitches: pitches.map(Double.init))
      defer { input.deallocate() }
      func pushSecond() {
        var offset = 0
        while offset < input.count {
          let n = min(512, input.count - offset)
          tracker.process(UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]))
          offset += n
        }
      }
      // Warm up: the first second runs the analysis in from silence.
      pushSecond()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { pushSecond() }
      benchmark.stopMeasurement()
      blackHole(tracker.state.linkedNotes)
    }
  }
}

/// One second of four 250 ms tones at `sampleRate`: eight harmonics falling 3 dB each, a 10 ms
/// attack and a 30 ms release.
func melodySecond(sampleRate rate: Double, pitches: [Double]) -> UnsafeMutableBufferPointer<Float> {
  let frames = Int(rate)
  let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
  let noteFrames = frames / pitches.count
  for i in 0..<frames {
    let f0 = 440 * pow(2, (pitches[min(pitches.count - 1, i / noteFrames)] - 69) / 12)
    let t = Double(i % noteFrames) / rate
    let left = Double(noteFrames) / rate - t
    var x = 0.0
    for h in 1...8 { x += pow(0.7, Double(h - 1)) * sin(2 * Double.pi * Double(h) * f0 * t) }
    input[i] = Float(0.1 * min(1, t / 0.01) * min(1, left / 0.03) * x)
  }
  return input
}
