import PerformanceTracking

/// A graded take: every note, the extra sounds, a summary per bar, the intonation trend per
/// pitch class, the tempo and an overall score.
public struct PerformanceGrades: Sendable, Hashable {
  /// A summary of one bar.
  public struct BarSummary: Sendable, Hashable, Codable {
    /// The measure number.
    public var measure: Int
    /// Its pitched notes.
    public var notes: Int
    /// How many of them have a problem (missed included).
    public var notesWithProblems: Int
    /// The sum of their severities (rests' too).
    public var severity: Double
    /// The mean severity per note.
    public var meanSeverity: Double
  }

  /// How one pitch class ran, over the notes played on it.
  public struct IntonationTrend: Sendable, Hashable, Codable {
    /// The pitch class's written name (`F♯`).
    public var pitchClass: String
    /// Notes counted (played at the right note, within the very flat/sharp zone).
    public var notes: Int
    /// The mean deviation, in cents.
    public var meanCents: Double
    /// A sentence for the student when the mean is beyond the correct zone (`Your F♯s run
    /// 22 cents sharp.`), else `nil`.
    public var message: String?
  }

  /// Every note, in score order.
  public var notes: [GradedNote]
  /// The sounds no note claimed, on the score's time line.
  public var extraSounds: [PerformanceSound]
  /// The bars, in order.
  public var bars: [BarSummary]
  /// The pitch classes played, most out of tune first.
  public var intonation: [IntonationTrend]
  /// The alignment the grades came from.
  public var alignment: PerformanceAlignment
  /// The student's tempo against the score's at the end of the take, as a ratio minus one
  /// (+0.05: 5 % slower, the take ran long), from the local tempo trend.
  public var tempoDrift: Double
  /// 0...100: the mean over pitched notes of `max(0, 1 − severity / missed severity)`, in
  /// percent; 100 is a perfect take.
  public var overallScore: Double
}
