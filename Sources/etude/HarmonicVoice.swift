import Foundation

/// The additive synthesizer behind the demo's built-in audio: a harmonic tone (partials at whole
/// multiples of the fundamental) under an attack, an exponential decay and a release, played in
/// phrases whose notes change pitch without a new attack, as a slur is played.
///
/// The phase runs on from note to note inside a phrase, so a pitch change is a clean step (or a
/// glide of ``glideSeconds``), not a click; the envelope spans the whole phrase. Deterministic:
/// the same phrase always gives the same samples.
struct HarmonicVoice {
  /// One note of a phrase.
  struct Note {
    /// The fundamental, in Hz.
    var frequencyHz: Double
    /// How long it sounds before the next note of the phrase (or the release), in seconds.
    var seconds: Double
  }

  /// Relative amplitudes of partials 1, 2, 3, …; partials at or above Nyquist are left out.
  var partials: [Double]
  /// The linear rise from silence, in seconds.
  var attackSeconds: Double
  /// The exponential decay after the attack, per second (0: a sustained tone).
  var decayPerSecond: Double
  /// The linear fall to silence at the phrase's end, in seconds.
  var releaseSeconds: Double
  /// How long a pitch change inside a phrase takes (log-linear glide), in seconds.
  var glideSeconds: Double = 0
  /// The peak amplitude of a phrase at `amplitude` 1 (partials in phase), full scale 1.
  var peak: Double

  /// Mixes a phrase into `samples`.
  ///
  /// - Parameters:
  ///   - phrase: The notes, played without a break; an empty phrase adds nothing.
  ///   - startSeconds: When the first note starts; what falls outside `samples` is left out.
  ///   - amplitude: A gain on ``peak``.
  ///   - samples: The audio to add to.
  ///   - sampleRate: Its sample rate, in Hz.
  func add(
    _ phrase: [Note], at startSeconds: Double, amplitude: Double = 1, to samples: inout [Float],
    sampleRate: Double
  ) {
    guard let first = phrase.first else { return }
    let start = Int((startSeconds * sampleRate).rounded())
    let ends = phrase.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1.seconds) }
      .map { Int(($0 * sampleRate).rounded()) }
    let length = ends[ends.count - 1]
    let attack = max(1, attackSeconds * sampleRate)
    let release = max(1, releaseSeconds * sampleRate)
    let gain = peak * amplitude / max(partials.reduce(0, +), .leastNonzeroMagnitude)
    let nyquist = sampleRate / 2
    var phase = 0.0
    var note = 0
    var noteStart = 0
    var previousHz = first.frequencyHz
    partials.withUnsafeBufferPointer { amplitudes in
      samples.withUnsafeMutableBufferPointer { out in
        for i in 0..<length {
          while i >= ends[note], note + 1 < phrase.count {
            previousHz = phrase[note].frequencyHz
            noteStart = ends[note]
            note += 1
          }
          var frequencyHz = phrase[note].frequencyHz
          let sinceChange = Double(i - noteStart) / sampleRate
          if note > 0, sinceChange < glideSeconds {
            frequencyHz = previousHz * pow(frequencyHz / previousHz, sinceChange / glideSeconds)
          }
          let index = start + i
          if index >= 0, index < out.count {
            let t = Double(i) / sampleRate
            let envelope =
              min(1, Double(i) / attack) * min(1, Double(length - i) / release)
              * exp(-decayPerSecond * max(0, t - attackSeconds))
            // sin(kφ) by the recurrence sin(kφ) = 2 cos φ sin((k−1)φ) − sin((k−2)φ): two libm
            // calls a sample instead of one per partial.
            let sine = sin(phase)
            let twiceCosine = 2 * cos(phase)
            var previous = 0.0
            var current = sine
            var sample = 0.0
            var k = 0
            while k < amplitudes.count, Double(k + 1) * frequencyHz < nyquist {
              sample += amplitudes[k] * current
              (previous, current) = (current, twiceCosine * current - previous)
              k += 1
            }
            out[index] += Float(sample * gain * envelope)
          }
          phase += 2 * Double.pi * frequencyHz / sampleRate
          if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
        }
      }
    }
  }
}
