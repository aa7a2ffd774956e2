/// How to read a MusicXML score.
public struct MusicXMLOptions: Sendable, Hashable, Codable {
  /// Expand repeats, endings and jumps (da capo, dal segno, to coda, fine) into the performance
  /// order (the default), or keep the notation order, each measure once.
  public var expandsRepeats: Bool
  /// The tempo before the score's first tempo mark, in quarter notes per minute (MusicXML's
  /// default, 120, when there is none).
  public var defaultTempo: Double
  /// Take jumps from words as well as from `<sound>` (the default): "D.C. al Fine", "D.S.",
  /// "Fine", "To Coda", "Coda", "Segno" in a `<words>` direction act like the matching `<sound>`
  /// attribute or sign, as a player reads them (many files print them without the `<sound>`).
  /// When `false`, only `<sound>` attributes and the `<segno>`/`<coda>` signs make jumps.
  public var readsJumpWords: Bool

  /// Creates options.
  ///
  /// - Parameters:
  ///   - expandsRepeats: Expand repeats and jumps into the performance order.
  ///   - defaultTempo: The tempo before the first tempo mark, in BPM.
  ///   - readsJumpWords: Take jumps from words such as "D.C. al Fine" as well as from `<sound>`.
  public init(expandsRepeats: Bool = true, defaultTempo: Double = 120, readsJumpWords: Bool = true) {
    self.expandsRepeats = expandsRepeats
    self.defaultTempo = defaultTempo
    self.readsJumpWords = readsJumpWords
  }
}
