/// Grades when a note started: early or late against the score (``Grade/rating``) and against
/// the student's local tempo (the label `localRating`), in the zones of ``Tolerances/Timing``.
///
/// Measurements: `offsetMs` (played − expected, on the score's time line, latency removed),
/// `localOffsetMs` (the same less the local tempo's offset, see
/// ``PerformanceTracking/TempoTrend``), `onsetSeconds`. The severity follows
/// ``Tolerances/Timing/severityReference``.
public struct TimingAnalyzer: NoteAnalyzer {
  public var category: GradeCategory { .timing }

  /// Creates the analyzer.
  public init() {}

  /// The rating of an offset in milliseconds.
  public static func rating(offsetMs: Double, _ tolerances: Tolerances.Timing) -> Rating {
    let size = abs(offsetMs)
    if size <= tolerances.correctMs { return .correct }
    if offsetMs < 0 { return size <= tolerances.veryMs ? .aBitEarly : .veryEarly }
    return size <= tolerances.veryMs ? .aBitLate : .veryLate
  }

  public func grade(note index: Int, in context: AnalysisContext) -> Grade? {
    let note = context.note(index)
    guard !note.isRest, let sound = context.alignment.soundIndices[index] else { return nil }
    let onset = context.alignment.onset(ofSound: sound)
    let offsetMs = (onset - note.expectedStart) * 1000
    let localOffsetMs = offsetMs - context.alignment.localOffsets[index] * 1000
    let tolerances = context.tolerances.timing
    let rating = Self.rating(offsetMs: offsetMs, tolerances)
    let localRating = Self.rating(offsetMs: localOffsetMs, tolerances)
    let judged: Rating
    switch tolerances.severityReference {
    case .absolute: judged = rating
    case .local: judged = localRating
    case .lesser: judged = abs(offsetMs) <= abs(localOffsetMs) ? rating : localRating
    }
    return Grade(
      category: .timing, rating: rating, score: context.tolerances.score(for: judged),
      measurements: ["offsetMs": offsetMs, "localOffsetMs": localOffsetMs, "onsetSeconds": onset],
      labels: ["localRating": localRating.rawValue])
  }
}
