/// How to read a MusicXML score.
public struct MusicXMLOptions: Sendable, Hashable, Codable {
  /// Expand repeats, endings and jumps (da capo, dal segno, to coda, fine) into the performance
  /// order (the default), or keep the notation order, each measure once.
  public var expandsRepeats: Bool
  /// The tempo before the score's first tempo mark, in quarter notes per minute (MusicXML's
  /// default, 120, when there is none).
  public var defaultTempo: Double

  /// Creates options.
  ///
  /// - Parameters:
  ///   - expandsRepeats: Expand repeats and jumps into the performance order.
  ///   - defaultTempo: The tempo before the first tempo mark, in BPM.
  public init(expandsRepeats: Bool = true, defaultTempo: Double = 120) {
    self.expandsRepeats = expandsRepeats
    self.defaultTempo = defaultTempo
  }
}
