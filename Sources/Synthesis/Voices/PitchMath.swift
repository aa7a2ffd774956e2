import Foundation

/// Conversions every voice shares: MIDI pitch to frequency, MIDI velocity to gain.
enum PitchMath {
  /// The frequency of a MIDI pitch with A4 (69) at 440 Hz: `440 · 2^((pitch − 69) / 12)`.
  /// NaN and infinite pitches give A4.
  @_noLocks
  static func frequencyHz(pitch: Double) -> Double {
    guard pitch.isFinite else { return 440 }
    let octaves = (min(200, max(-200, pitch)) - 69) / 12
    // RT-audited: exp2 is a pure libm function; it neither allocates nor locks.
    return 440 * _unsafePerformance { exp2(octaves) }
  }

  /// The MIDI pitch of a frequency (inverse of ``frequencyHz(pitch:)``).
  @_noLocks
  static func pitch(frequencyHz: Double) -> Double {
    // RT-audited: log2 is a pure libm function.
    69 + 12 * _unsafePerformance { log2(frequencyHz / 440) }
  }

  /// The linear gain of a MIDI velocity: `(velocity / 127)²` after clamping to `1...127` (127 is
  /// 0 dB, 64 about −12 dB, 1 about −84 dB).
  @_noLocks
  static func velocityGain(_ velocity: Int) -> Double {
    let v = Double(min(127, max(1, velocity))) / 127
    return v * v
  }
}
