/// Grades a rest: `soundDuringRest` when a sound no note claimed overlaps it by at least
/// ``Tolerances/Rest/minimumSeconds``, `correct` otherwise.
///
/// Measurements: `soundSeconds` (how long unclaimed sound overlapped the rest).
public struct RestAnalyzer: NoteAnalyzer {
  public var category: GradeCategory { .rest }

  /// Creates the analyzer.
  public init() {}

  public func grade(note index: Int, in context: AnalysisContext) -> Grade? {
    let note = context.note(index)
    guard note.isRest else { return nil }
    let alignment = context.alignment
    var overlap = 0.0
    for j in alignment.extraSoundIndices {
      let start = max(note.expectedStart, alignment.onset(ofSound: j))
      let end = min(note.expectedEnd, alignment.offset(ofSound: j))
      overlap += max(0, end - start)
    }
    let rating: Rating = overlap >= context.tolerances.rest.minimumSeconds && overlap > 0 ? .soundDuringRest : .correct
    return Grade(
      category: .rest, rating: rating, score: context.tolerances.score(for: rating),
      measurements: ["soundSeconds": overlap])
  }
}
