/// Where a note is played on a guitar: a string and a fret.
public struct TabPosition: Sendable, Hashable, Codable {
  /// The string, 1 (the highest) to 6.
  public var string: Int
  /// The fret, 0 (open) upwards.
  public var fret: Int

  /// Creates a position.
  ///
  /// - Parameters:
  ///   - string: The string, 1 (the highest) upwards.
  ///   - fret: The fret, 0 (open) upwards.
  public init(string: Int, fret: Int) {
    self.string = string
    self.fret = fret
  }
}
