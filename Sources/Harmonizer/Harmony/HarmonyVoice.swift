/// One harmony voice: where it sings, how loud, and where it sits in the stereo field.
public struct HarmonyVoice: Sendable, Hashable, Codable {
  /// Where the voice sings relative to the live voice.
  public var interval: HarmonyInterval
  /// Its level, 0...1 (1 = the live voice's level).
  public var level: Double
  /// Its place, −1 (left) … 0 (centre) … 1 (right), panned at constant power.
  public var pan: Double

  /// A voice; level and pan are clamped to their ranges (a non-finite value becomes the default).
  public init(_ interval: HarmonyInterval, level: Double = 0.7, pan: Double = 0) {
    self.interval = interval
    self.level = level.isFinite ? min(1, max(0, level)) : 0.7
    self.pan = pan.isFinite ? min(1, max(-1, pan)) : 0
  }
}
