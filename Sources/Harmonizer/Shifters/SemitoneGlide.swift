import Foundation

/// A shift in semitones that glides to its target with a one-pole filter, and the frequency
/// ratio `2^(semitones / 12)` that goes with it, updated per sample while it moves.
///
/// Gliding in semitones (not in ratio) makes an interval change sound even up and down. Once
/// within 10⁻⁶ semitone of the target the value snaps to it and the ratio stops being recomputed.
struct SemitoneGlide: Sendable {
  /// The value being approached.
  private(set) var target: Double
  /// The current, smoothed value.
  private(set) var current: Double
  /// The current frequency ratio, `2^(current / 12)`.
  private(set) var ratio: Double
  /// The one-pole coefficient per sample.
  let coefficient: Double

  /// Creates a glide at rest on `semitones`.
  ///
  /// - Parameters:
  ///   - semitones: The starting shift.
  ///   - timeConstantSeconds: The time to cover 63 % of a change (0 = jump at once).
  ///   - sampleRate: Samples per second.
  init(semitones: Double, timeConstantSeconds: Double, sampleRate: Double) {
    target = semitones
    current = semitones
    ratio = exp2(semitones / 12)
    coefficient = timeConstantSeconds > 0 ? exp(-1 / (timeConstantSeconds * sampleRate)) : 0
  }

  /// Sets the value to approach; a non-finite value is ignored, the range is clamped.
  @_noLocks
  mutating func setTarget(_ semitones: Double, limit: Double) {
    guard semitones.isFinite else { return }
    target = min(limit, max(-limit, semitones))
  }

  /// Jumps to the target at once.
  @_noLocks
  mutating func settle() {
    current = target
    ratio = _unsafePerformance { exp2(target / 12) }  // RT-audited: libm exp2, no allocation
  }

  /// Advances one sample and returns the ratio to use for it.
  @_noLocks
  @inline(__always)
  mutating func step() -> Double {
    if current != target {
      let next = target + coefficient * (current - target)
      current = abs(next - target) < 1e-6 ? target : next
      ratio = _unsafePerformance { exp2(current / 12) }  // RT-audited: libm exp2, no allocation
    }
    return ratio
  }
}
