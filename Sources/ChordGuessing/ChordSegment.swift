import ScoreModel

/// A stretch of time with one chord label: one line of `etude chords`' output.
public struct ChordSegment: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The start, in seconds.
  public var start: Double
  /// The end, in seconds (the next segment's start).
  public var end: Double
  /// The chord, in Harte syntax when printed (`C:maj`, `A:min7`, `G:7/3`, `N`).
  public var label: ChordLabel

  /// Creates a segment.
  ///
  /// - Parameters:
  ///   - start: The start, in seconds.
  ///   - end: The end, in seconds.
  ///   - label: The chord.
  public init(start: Double, end: Double, label: ChordLabel) {
    self.start = start
    self.end = end
    self.label = label
  }

  /// The segment as `etude chords` prints it: `start_s<TAB>end_s<TAB>label`, times with three
  /// decimals.
  public var description: String {
    "\(Self.format(start))\t\(Self.format(end))\t\(label)"
  }

  /// A time with three decimals, rounded to the millisecond.
  static func format(_ seconds: Double) -> String {
    let millis = Int((max(0, seconds) * 1000).rounded())
    let fraction = millis % 1000
    return "\(millis / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
  }
}
