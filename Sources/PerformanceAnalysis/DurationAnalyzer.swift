/// Grades how long a note sounded, as a ratio of its written value, against the ratio its
/// articulation expects (about 0.92 for a normal note, 1 legato or tenuto, 0.5 staccato), in
/// the zones of ``Tolerances/Duration``.
///
/// Measurements: `ratio` (sounded / written), `expectedRatio`, `seconds` (sounded, from the sound's
/// ``PerformanceTracking/PerformanceSound/onset`` to its end). Notes
/// written shorter than ``Tolerances/Duration/shortestJudgedSeconds`` are not judged.
public struct DurationAnalyzer: NoteAnalyzer {
  public var category: GradeCategory { .duration }

  /// Creates the analyzer.
  public init() {}

  /// The rating of a sounded/written ratio divided by the expected one, with the zones
  /// widened by `allowance` (the allowance over the expected length).
  public static func rating(relativeRatio r: Double, allowance: Double = 0, _ tolerances: Tolerances.Duration) -> Rating {
    if r < tolerances.tooShortRatio - allowance { return .tooShort }
    if r < tolerances.veryShortRatio - allowance { return .veryShort }
    if r < tolerances.shortRatio - allowance { return .aBitShort }
    if r > tolerances.tooLongRatio + allowance { return .tooLong }
    if r > tolerances.veryLongRatio + allowance { return .veryLong }
    if r > tolerances.longRatio + allowance { return .aBitLong }
    return .correct
  }

  public func grade(note index: Int, in context: AnalysisContext) -> Grade? {
    let note = context.note(index)
    let tolerances = context.tolerances.duration
    guard !note.isRest, note.expectedDuration >= tolerances.shortestJudgedSeconds,
      let sound = context.sound(index)
    else { return nil }
    let seconds = sound.end - sound.onset
    let ratio = seconds / note.expectedDuration
    let expected = tolerances.expectedRatio(for: note.articulation)
    let allowance = tolerances.allowanceSeconds / (note.expectedDuration * expected)
    let rating = Self.rating(relativeRatio: ratio / expected, allowance: allowance, tolerances)
    return Grade(
      category: .duration, rating: rating, score: context.tolerances.score(for: rating),
      measurements: ["ratio": ratio, "expectedRatio": expected, "seconds": seconds])
  }
}
