import ScoreModel

/// The auto-tuner: the live voice snapped to the nearest note of a key's scale.
public struct AutoTuneSettings: Sendable, Hashable, Codable {
  /// Whether the live voice is tuned (off: it passes as sung).
  public var isEnabled: Bool
  /// The key whose scale the voice is snapped to; `nil` snaps to the nearest semitone.
  public var key: Key?
  /// How long a correction takes to settle, in seconds (the time constant of its glide): 0 snaps
  /// at once (the robotic effect), 0.05–0.2 sounds natural.
  public var retuneSeconds: Double

  /// Settings; the retune time is clamped to 0...2 s.
  public init(isEnabled: Bool = false, key: Key? = nil, retuneSeconds: Double = 0.05) {
    self.isEnabled = isEnabled
    self.key = key
    self.retuneSeconds = retuneSeconds.isFinite ? min(2, max(0, retuneSeconds)) : 0.05
  }
}
