/// One sound: a stretch of a pitch track loud enough above the noise floor, ending when it falls
/// back or when the pitch moves to a new note (legato).
public struct NoteSegment: Sendable, Hashable, Codable {
  /// How a segment began.
  public enum Boundary: String, Sendable, Hashable, Codable {
    /// The level rose above the noise floor: a new sound after quiet.
    case onset
    /// The pitch moved to a new note with no dip in level: a legato change.
    case pitchChange
  }

  /// The start, in seconds (the time of its first estimate).
  public var start: Double
  /// The end, in seconds (the time of the estimate that ended it).
  public var end: Double
  /// The stable pitch: the median frequency of the voiced estimates after the attack, in Hz;
  /// 0 when no estimate was voiced (an unpitched sound).
  public var frequencyHz: Double
  /// The highest level reached, in dBFS.
  public var peakLevelDBFS: Double
  /// The fraction of its estimates that were voiced, 0...1.
  public var voicedFraction: Double
  /// How it began.
  public var boundary: Boundary

  /// Creates a segment.
  @_noLocks
  public init(
    start: Double, end: Double, frequencyHz: Double, peakLevelDBFS: Double, voicedFraction: Double, boundary: Boundary
  ) {
    self.start = start
    self.end = end
    self.frequencyHz = frequencyHz
    self.peakLevelDBFS = peakLevelDBFS
    self.voicedFraction = voicedFraction
    self.boundary = boundary
  }

  /// The length in seconds.
  public var duration: Double { end - start }
}
