/// What a live take looks like at this moment: the pitch and level being played, the note the
/// score expects now and how far from it the pitch is, the note the follower expects next and
/// its last link, and running counts. A plain value: reading it allocates nothing.
public struct LivePerformanceState: Sendable, Hashable {
  /// The time of the latest pitch estimate, in seconds of audio.
  public var seconds: Double = 0
  /// The latest estimate's frequency, in Hz (0 when unvoiced).
  public var frequencyHz: Double = 0
  /// The latest estimate's level, in dBFS.
  public var levelDBFS: Double = -.infinity
  /// Whether a sound is in progress.
  public var isSounding = false
  /// The note the score expects now (its start passed, its end not yet), as a position in the
  /// tracker's notes; `nil` during rests and before the first note.
  public var dueNote: Int?
  /// How far the latest voiced pitch is from the due note, in cents (`nil` when there is no due
  /// note or no pitch).
  public var centsFromDueNote: Double?
  /// The note the follower expects next (the notes' count when the score is done).
  public var nextNote = 0
  /// The last sound linked to a note.
  public var lastLink: ScoreFollower.Link?
  /// Sounds finished so far (pitched and long enough to count).
  public var sounds = 0
  /// Notes linked to a sound so far.
  public var linkedNotes = 0
  /// Notes passed over by a later link (missed, as far as the follower can tell yet).
  public var missedNotes = 0
  /// Sounds linked to no note.
  public var extraSounds = 0

  /// An empty state.
  public init() {}
}
