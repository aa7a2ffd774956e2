/// The shape of a note's loudness over time: attack, decay, sustain level, release.
///
/// The attack rises from the level the voice is at (0 for a new note) to 1 in ``attackSeconds``;
/// the decay falls exponentially to ``sustainLevel`` in ``decaySeconds``; the level then holds
/// until the note is released; the release falls exponentially from whatever level it starts at
/// (any stage) and reaches silence within ``releaseSeconds``. ``EnvelopeGenerator`` runs it.
///
/// Every time is at least 1 ms (``minimumSeconds``) when the envelope runs, so no stage makes a
/// step (a click); NaN or infinite times and levels fall back to the defaults.
public struct ADSREnvelope: Sendable, Hashable, Codable {
  /// The shortest stage the generator runs, in seconds: 1 ms.
  public static let minimumSeconds = 0.001

  /// The rise from the current level to full level, in seconds.
  public var attackSeconds: Double
  /// The fall from full level to the sustain level, in seconds.
  public var decaySeconds: Double
  /// The level held while the note is down, in `0...1`.
  public var sustainLevel: Double
  /// The longest fall to silence once the note is released, in seconds.
  public var releaseSeconds: Double

  /// Creates an envelope.
  ///
  /// - Parameters:
  ///   - attackSeconds: The attack time, in seconds (default 5 ms).
  ///   - decaySeconds: The decay time, in seconds (default 100 ms).
  ///   - sustainLevel: The sustain level, `0...1` (default 0.7).
  ///   - releaseSeconds: The release time, in seconds (default 200 ms).
  public init(
    attackSeconds: Double = 0.005, decaySeconds: Double = 0.1, sustainLevel: Double = 0.7,
    releaseSeconds: Double = 0.2
  ) {
    self.attackSeconds = attackSeconds
    self.decaySeconds = decaySeconds
    self.sustainLevel = sustainLevel
    self.releaseSeconds = releaseSeconds
  }

  /// The envelope with every value made usable: times finite and at least ``minimumSeconds``,
  /// the sustain level in `0...1` (NaN and infinities take the defaults).
  public var clamped: ADSREnvelope {
    let defaults = ADSREnvelope()
    func time(_ value: Double, _ fallback: Double) -> Double {
      value.isFinite ? max(Self.minimumSeconds, value) : fallback
    }
    return ADSREnvelope(
      attackSeconds: time(attackSeconds, defaults.attackSeconds),
      decaySeconds: time(decaySeconds, defaults.decaySeconds),
      sustainLevel: sustainLevel.isFinite ? min(1, max(0, sustainLevel)) : defaults.sustainLevel,
      releaseSeconds: time(releaseSeconds, defaults.releaseSeconds))
  }
}
