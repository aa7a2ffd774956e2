/// How a sample loops (the `sampleModes` generator, SoundFont 2.04 section 8.1.2 #54).
public enum SoundFontSampleMode: Int, Sendable, Hashable, Codable, CaseIterable {
  /// Plays from start to end once (also used for the specification's unused value 2).
  case noLoop = 0
  /// Loops between the loop points for as long as the voice sounds, release included.
  case loopContinuously = 1
  /// Loops while the key is held, then plays on from the loop to the sample's end on release.
  case loopUntilRelease = 3

  /// The mode a generator amount stands for: only the low two bits count; 2 means no loop.
  ///
  /// - Parameter amount: The `sampleModes` generator's amount.
  public init(amount: Int) {
    switch amount & 3 {
    case 1: self = .loopContinuously
    case 3: self = .loopUntilRelease
    default: self = .noLoop
    }
  }
}
