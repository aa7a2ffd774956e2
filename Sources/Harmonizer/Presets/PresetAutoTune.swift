import ScoreModel

/// A preset's auto-tune settings: on or off, the key and scale notes snap to, and how fast.
///
/// JSON: `{"enabled": true, "key": "A minor", "retuneMilliseconds": 20}` (the key is a
/// ScoreModel `Key` name: a tonic and a scale, `C major`, `F# minor`, `D dorian`).
public struct PresetAutoTune: Sendable, Hashable, Codable {
  /// Whether the auto-tuner runs.
  public var isEnabled: Bool
  /// The key whose scale notes the voice snaps to.
  public var key: Key
  /// How long a correction takes, in milliseconds (0 snaps at once, the robotic effect; up to
  /// 1000).
  public var retuneMilliseconds: Double

  /// Describes auto-tune settings.
  ///
  /// - Parameters:
  ///   - isEnabled: Whether it runs; off by default.
  ///   - key: The key; C major by default.
  ///   - retuneMilliseconds: The retune speed in ms, 0…1000; 50 by default.
  public init(isEnabled: Bool = false, key: Key = .cMajor, retuneMilliseconds: Double = 50) {
    self.isEnabled = isEnabled
    self.key = key
    self.retuneMilliseconds = retuneMilliseconds
  }

  private enum CodingKeys: String, CodingKey {
    case isEnabled = "enabled"
    case key
    case retuneMilliseconds
  }

  /// Decodes the settings; a missing field takes its default.
  ///
  /// - Throws: `DecodingError` for a field of the wrong type or a key that does not parse.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = PresetAutoTune()
    isEnabled = try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? defaults.isEnabled
    key = try container.decodeIfPresent(Key.self, forKey: .key) ?? defaults.key
    retuneMilliseconds =
      try container.decodeIfPresent(Double.self, forKey: .retuneMilliseconds) ?? defaults.retuneMilliseconds
  }
}
