import PerformanceAnalysis

/// How to judge how bad a note is, for sorting: by one category, by the worst single one, or
/// by the sum of all (the seam for an app's own criterion).
public protocol IssueCriterion: Sendable {
  /// The criterion's name (`pitch`, `overall`...).
  var name: String { get }

  /// The rating that stands for the note under this criterion, its category, and its score
  /// (0: no issue).
  ///
  /// - Parameter note: A graded note or rest.
  /// - Returns: The rating, category and score.
  func judge(_ note: GradedNote) -> (rating: Rating, category: String, score: Double)
}

/// The grade of one category (pitch, timing, duration, rest...).
public struct CategoryCriterion: IssueCriterion {
  /// The category sorted by.
  public var category: GradeCategory
  /// Whether a missed note counts (with its `missed` severity).
  public var countsMissed: Bool

  /// Creates the criterion.
  public init(_ category: GradeCategory, countsMissed: Bool = true) {
    self.category = category
    self.countsMissed = countsMissed
  }

  public var name: String { category.rawValue }

  public func judge(_ note: GradedNote) -> (rating: Rating, category: String, score: Double) {
    if note.status == .missed { return countsMissed ? (.missed, "missed", note.score) : (.correct, category.rawValue, 0) }
    if let grade = note.grade(category) { return (grade.rating, category.rawValue, grade.score) }
    // A rest under a category criterion still reports its own grade.
    if note.status == .rest, let grade = note.grade(.rest) { return (grade.rating, "rest", grade.score) }
    return (.correct, category.rawValue, 0)
  }
}

/// The worst single category of each note (the original app's "individual" criterion).
public struct WorstCategoryCriterion: IssueCriterion {
  /// Creates the criterion.
  public init() {}

  public var name: String { "worst" }

  public func judge(_ note: GradedNote) -> (rating: Rating, category: String, score: Double) {
    if note.status == .missed { return (.missed, "missed", note.score) }
    guard let worst = note.grades.max(by: { $0.score < $1.score }), worst.score > 0 else {
      return (.correct, "overall", 0)
    }
    return (worst.rating, worst.category.rawValue, worst.score)
  }
}

/// The sum of every category's score; the rating shown is the worst single one.
public struct OverallCriterion: IssueCriterion {
  /// Creates the criterion.
  public init() {}

  public var name: String { "overall" }

  public func judge(_ note: GradedNote) -> (rating: Rating, category: String, score: Double) {
    if note.status == .missed { return (.missed, "missed", note.score) }
    guard let worst = note.grades.max(by: { $0.score < $1.score }), worst.score > 0 else {
      return (.correct, "overall", 0)
    }
    return (worst.rating, worst.category.rawValue, note.score)
  }
}

/// The built-in criteria by name.
public enum IssueCriteria {
  /// `pitch`, `timing` (also `attack`), `duration`, `rest`, `worst` (also `individual`),
  /// `overall`.
  public static func named(_ name: String) -> (any IssueCriterion)? {
    switch name.lowercased() {
    case "pitch": CategoryCriterion(.pitch)
    case "timing", "attack", "rhythm": CategoryCriterion(.timing)
    case "duration": CategoryCriterion(.duration)
    case "rest": CategoryCriterion(.rest)
    case "worst", "individual": WorstCategoryCriterion()
    case "overall", "sum": OverallCriterion()
    default: nil
    }
  }

  /// The names ``named(_:)`` knows.
  public static let names = ["overall", "worst", "pitch", "timing", "duration", "rest"]
}
