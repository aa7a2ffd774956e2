/// Something that tells, as a performance goes on, when each note of the score starts and ends:
/// the seam between a score player and whatever follows the performance.
///
/// ``ScoreClock`` is Etude's: it plays a ``Score`` against elapsed time or audio samples. An app
/// that has its own score player (a notation view with playback) conforms instead and feeds the
/// same grader.
public protocol ScoreEventSource: AnyObject {
  /// The time reached, in seconds from the start (the count-in included).
  var position: Double { get }

  /// Moves the clock forward and writes the events it passes, in time order.
  ///
  /// Events at exactly the new position are included. When `events` is full, the clock stops
  /// at the last event written; call again (with 0 seconds) for the rest.
  ///
  /// - Parameters:
  ///   - seconds: Elapsed time, in seconds (0 or more).
  ///   - events: Where to write.
  /// - Returns: The number of events written.
  func advance(bySeconds seconds: Double, into events: UnsafeMutableBufferPointer<TimedScoreEvent>) -> Int

  /// Goes back to the start.
  func reset()
}
