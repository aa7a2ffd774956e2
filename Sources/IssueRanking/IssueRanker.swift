import PerformanceAnalysis

/// Turns a graded take into issues, one per note, sorted worst first under a criterion; a
/// stable sort, so equal scores keep the score's order.
///
/// ```swift
/// var catalog = try HelpVideoCatalog(json: data)
/// let issues = IssueRanker(criterion: OverallCriterion()).rank(grades, catalog: &catalog)
/// // issues[0] is the note to work on first.
/// ```
public struct IssueRanker: Sendable {
  /// The criterion.
  public var criterion: any IssueCriterion

  /// Creates a ranker.
  ///
  /// - Parameter criterion: How to judge each note (default: the sum of its severities).
  public init(criterion: any IssueCriterion = OverallCriterion()) {
    self.criterion = criterion
  }

  /// The issues of a take, worst first.
  ///
  /// - Parameters:
  ///   - grades: The graded take.
  ///   - catalog: The help videos, rotated as they are handed out (pass `nil` for none).
  ///   - includesCorrect: Whether notes without a problem under the criterion are listed
  ///     (after every real issue) — one issue per note, as the original app had.
  /// - Returns: The issues, worst first.
  public func rank(
    _ grades: PerformanceGrades, catalog: inout HelpVideoCatalog?, includesCorrect: Bool = false
  ) -> [PerformanceIssue] {
    var issues: [(order: Int, issue: PerformanceIssue)] = []
    for (order, graded) in grades.notes.enumerated() {
      let judged = criterion.judge(graded)
      guard includesCorrect || judged.score > 0 else { continue }
      issues.append(
        (
          order,
          PerformanceIssue(
            index: graded.note.index, measure: graded.note.measure, criterion: criterion.name,
            category: judged.category, rating: judged.rating, score: judged.score, x: graded.note.x,
            y: graded.note.y)
        ))
    }
    // Stable: ties keep score order.
    issues.sort { $0.issue.score != $1.issue.score ? $0.issue.score > $1.issue.score : $0.order < $1.order }
    var result = issues.map(\.issue)
    for k in result.indices where result[k].score > 0 {
      result[k].videoID = catalog?.nextVideo(for: result[k].rating)
      if result[k].videoID == nil {
        result[k].alert = catalog?.alert(for: result[k].rating) ?? HelpVideoCatalog.defaultAlert(for: result[k].rating)
      }
    }
    return result
  }

  /// The issues of a take, worst first, without help videos.
  public func rank(_ grades: PerformanceGrades, includesCorrect: Bool = false) -> [PerformanceIssue] {
    var none: HelpVideoCatalog? = nil
    return rank(grades, catalog: &none, includesCorrect: includesCorrect)
  }
}
