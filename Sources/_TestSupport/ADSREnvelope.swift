/// A linear attack–decay–sustain–release envelope, for shaping test notes.
///
/// The note is held for the whole signal except the last `releaseSeconds`: gain rises linearly
/// from 0 to 1 over `attackSeconds`, falls linearly to `sustainLevel` over `decaySeconds`, stays
/// there, and falls linearly from wherever it is to 0 over the final `releaseSeconds`. Segments
/// that do not fit are cut short.
public struct ADSREnvelope: Sendable, Hashable {
  /// Attack duration, in seconds (≥ 0).
  public var attackSeconds: Double
  /// Decay duration, in seconds (≥ 0).
  public var decaySeconds: Double
  /// Sustain gain, `0...1`.
  public var sustainLevel: Double
  /// Release duration at the end of the signal, in seconds (≥ 0).
  public var releaseSeconds: Double

  /// Creates an envelope.
  ///
  /// - Parameters:
  ///   - attackSeconds: Attack time, seconds.
  ///   - decaySeconds: Decay time, seconds.
  ///   - sustainLevel: Sustain gain, `0...1`.
  ///   - releaseSeconds: Release time, seconds.
  public init(
    attackSeconds: Double, decaySeconds: Double, sustainLevel: Double, releaseSeconds: Double
  ) {
    self.attackSeconds = max(0, attackSeconds)
    self.decaySeconds = max(0, decaySeconds)
    self.sustainLevel = min(max(sustainLevel, 0), 1)
    self.releaseSeconds = max(0, releaseSeconds)
  }

  /// The held-note gain (no release) at time `t` seconds after the onset.
  func heldGain(at t: Double) -> Double {
    if t < attackSeconds { return t / attackSeconds }
    let d = t - attackSeconds
    if d < decaySeconds { return 1 - (1 - sustainLevel) * d / decaySeconds }
    return sustainLevel
  }

  /// The gain of every frame of a note `frameCount` frames long.
  ///
  /// - Parameters:
  ///   - frameCount: The note length in frames.
  ///   - sampleRate: Frames per second, in Hz.
  /// - Returns: `frameCount` gains in `0...1`.
  public func gains(frameCount: Int, sampleRate: Double) -> [Float] {
    let releaseFrames = min(frameCount, Int((releaseSeconds * sampleRate).rounded()))
    let releaseStart = frameCount - releaseFrames
    let releaseFrom = heldGain(at: Double(releaseStart) / sampleRate)
    return (0..<frameCount).map { n in
      if n < releaseStart { return Float(heldGain(at: Double(n) / sampleRate)) }
      let progress = Double(n - releaseStart + 1) / Double(releaseFrames)
      return Float(releaseFrom * (1 - progress))
    }
  }
}
