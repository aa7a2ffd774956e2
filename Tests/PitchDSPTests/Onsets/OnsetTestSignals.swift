import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// How close a detected onset must be to the true one, in seconds: 10 ms for the amplitude
/// detector (its hop is 5 ms and it times an onset at the middle of the hop where the rise
/// starts), 20 ms for SuperFlux (it times an onset from the frame where the flux of a 46 ms
/// window peaks, which moves with the attack: a 1 ms attack peaks earlier than a 20 ms one).
func onsetTolerance(_ method: OnsetMethod) -> Double {
  method == .amplitude ? 0.010 : 0.020
}

/// Test signals for onset detection: harmonic notes with ADSR envelopes, placed at known times.
struct OnsetScene {
  let generator: SignalGenerator
  private(set) var samples: [Float] = []
  private(set) var onsets: [Double] = []

  init(sampleRate: Double) {
    generator = SignalGenerator(sampleRate: sampleRate)
  }

  var sampleRate: Double { generator.sampleRate }
  var seconds: Double { Double(samples.count) / sampleRate }

  /// A harmonic tone (five partials falling as 1/k) of `seconds`, peak partial amplitude `peak`.
  func tone(_ frequencyHz: Double, seconds: Double, peak: Double) -> [Float] {
    let tone = generator.harmonicTone(
      fundamentalHz: frequencyHz, partialAmplitudes: [1, 0.5, 0.33, 0.25, 0.2], length: .seconds(seconds))
    return Signal.scaled(tone, by: peak)
  }

  /// Appends silence.
  mutating func rest(_ seconds: Double) {
    samples += generator.silence(length: .seconds(seconds))
  }

  /// Appends a note (its onset is recorded): attack, a 100 ms decay to 60 %, release at the end.
  mutating func note(
    _ frequencyHz: Double, seconds: Double, peak: Double = 0.3, attack: Double = 0.005, release: Double = 0.06
  ) {
    let envelope = ADSREnvelope(
      attackSeconds: attack, decaySeconds: 0.1, sustainLevel: 0.6, releaseSeconds: release)
    append(
      Signal.enveloped(tone(frequencyHz, seconds: seconds, peak: peak), by: envelope, sampleRate: sampleRate))
  }

  /// Appends any sound whose first frame is an onset.
  mutating func append(_ sound: [Float]) {
    onsets.append(seconds)
    samples += sound
  }
}

/// Asserts that `found` holds exactly one onset within `tolerance` of each true onset and no
/// other (except in `allowed` time ranges); returns the timing errors.
@discardableResult
func expectOnsets(
  _ found: [Onset], match truth: [Double], tolerance: Double, allowing allowed: [ClosedRange<Double>] = [],
  _ context: String, sourceLocation: SourceLocation = #_sourceLocation
) -> [Double] {
  var errors: [Double] = []
  for t in truth {
    let near = found.filter { abs($0.time - t) <= tolerance }
    #expect(
      near.count == 1, "\(context): \(near.count) onsets near \(t) s; found \(times(found))",
      sourceLocation: sourceLocation)
    if let first = near.first { errors.append(first.time - t) }
  }
  let extra = found.filter { o in
    !truth.contains { abs($0 - o.time) <= tolerance } && !allowed.contains { $0.contains(o.time) }
  }
  #expect(
    extra.isEmpty, "\(context): extra onsets at \(times(extra)); truth \(truth)",
    sourceLocation: sourceLocation)
  for o in found {
    #expect(
      o.time.isFinite && o.strength.isFinite && o.strength >= 0, "\(context): \(o)",
      sourceLocation: sourceLocation)
  }
  return errors
}

func times(_ onsets: [Onset]) -> String {
  onsets.map { String(format: "%.4f", $0.time) }.joined(separator: ", ")
}

/// Pushes `samples` through `detector` in blocks of `block` frames, then finishes; returns the
/// onsets and, for each, the number of frames pushed when it came out (nil: from `finish`).
func stream(_ samples: [Float], through detector: any OnsetDetector, block: Int) -> [(
  onset: Onset, pushed: Int?
)] {
  detector.reset()
  var out: [(Onset, Int?)] = []
  var scratch = [Onset](
    repeating: Onset(time: 0, strength: 0), count: detector.maximumOnsets(forFrames: block))
  samples.withUnsafeBufferPointer { all in
    var start = 0
    while start < all.count {
      let end = min(all.count, start + block)
      let chunk = UnsafeBufferPointer(rebasing: all[start..<end])
      let n = scratch.withUnsafeMutableBufferPointer { detector.process(chunk, into: $0) }
      for o in scratch[0..<n] { out.append((o, end)) }
      start = end
    }
  }
  var tail = [Onset](repeating: Onset(time: 0, strength: 0), count: detector.maximumOnsets(forFrames: 0))
  let n = tail.withUnsafeMutableBufferPointer { detector.finish(into: $0) }
  for o in tail[0..<n] { out.append((o, nil)) }
  return out
}
