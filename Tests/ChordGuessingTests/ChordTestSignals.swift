import Foundation
import _TestSupport

@testable import ChordGuessing

/// Synthetic chords for the tests: harmonic tones (partial `h` at `0.6^(h−1)`, eight partials,
/// a little inharmonicity) on MIDI notes, with a piano-like decay or held level.
enum ChordTestSignals {
  /// The stiff-string inharmonicity of every tone (piano-like).
  static let inharmonicity = 1e-4
  /// The frequency of MIDI note `note` at `cents` from A4 = 440 Hz.
  static func hz(_ note: Int, cents: Double = 0) -> Double {
    440 * pow(2, (Double(note) - 69) / 12 + cents / 1200)
  }

  /// The notes sounding together for `seconds`.
  static func chord(
    _ notes: [Int], seconds: Double, sampleRate: Double, cents: Double = 0, level: Double = 0.1,
    decaySeconds: Double = 3, partialDecay: Double = 0.6, partials: Int = 8
  ) -> [Float] {
    let count = Int(seconds * sampleRate)
    var out = [Float](repeating: 0, count: count)
    for (i, note) in notes.enumerated() {
      let f0 = hz(note, cents: cents)
      var amplitude = level
      for h in 1...partials {
        let f = Double(h) * f0 * (1 + ChordTestSignals.inharmonicity * Double(h * h)).squareRoot()
        guard f < sampleRate / 2 else { break }
        let omega = 2 * Double.pi * f / sampleRate
        let phase = Double(i * 7 + h)
        for n in 0..<count {
          let t = Double(n) / sampleRate
          let envelope = min(1, t / 0.005) * exp(-t / decaySeconds)
          out[n] += Float(amplitude * envelope * sin(omega * Double(n) + phase))
        }
        amplitude *= partialDecay
      }
    }
    return out
  }

  /// Chords one after another, each `seconds` long.
  static func progression(
    _ chords: [[Int]], seconds: Double, sampleRate: Double, cents: Double = 0
  ) -> [Float] {
    chords.flatMap { chord($0, seconds: seconds, sampleRate: sampleRate, cents: cents) }
  }
}
