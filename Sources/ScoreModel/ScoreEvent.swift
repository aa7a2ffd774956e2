/// Something that happens at a moment of a performance of a score: what a score player reports
/// to a grader (MusiKyoshi's SeeScore callbacks: a note starts, a note ends).
///
/// Notes and measures are named by their index in ``Score/notes`` and ``Score/measures``, so an
/// event is a plain value that crosses to the audio thread without allocating.
public enum ScoreEvent: Sendable, Hashable, Codable {
  /// A count-in beat before the score starts: `beat` of `of` (from 1).
  case countIn(beat: Int, of: Int)
  /// A measure starts.
  case barStart(measure: Int)
  /// A note (or rest) starts.
  case noteStart(note: Int)
  /// A note (or rest) ends.
  case noteEnd(note: Int)
}

/// A score event and its time on the clock that emitted it, in seconds from the clock's start
/// (the count-in included).
public struct TimedScoreEvent: Sendable, Hashable, Codable {
  /// Seconds from the clock's start.
  public var seconds: Double
  /// The event.
  public var event: ScoreEvent

  /// Creates a timed event.
  @_noLocks
  public init(seconds: Double, event: ScoreEvent) {
    self.seconds = seconds
    self.event = event
  }
}
