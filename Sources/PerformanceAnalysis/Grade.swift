/// One analyzer's verdict on one aspect of a note: a rating, a severity score (0 best) and the
/// measurements behind it.
public struct Grade: Sendable, Hashable, Codable {
  /// The aspect graded.
  public var category: GradeCategory
  /// The rating.
  public var rating: Rating
  /// How bad it is: 0 for correct, higher for worse (weights from ``Tolerances/severity``).
  public var score: Double
  /// What was measured, by name (`offsetMs`, `ratio`, `cents`...), in the units the name says.
  public var measurements: [String: Double]
  /// Further named verdicts or labels (`localRating`, `playedPitch`...).
  public var labels: [String: String]

  /// Creates a grade.
  ///
  /// - Parameters:
  ///   - category: The aspect graded.
  ///   - rating: The rating.
  ///   - score: The severity, 0 best.
  ///   - measurements: What was measured.
  ///   - labels: Further verdicts or labels.
  public init(
    category: GradeCategory, rating: Rating, score: Double, measurements: [String: Double] = [:],
    labels: [String: String] = [:]
  ) {
    self.category = category
    self.rating = rating
    self.score = score
    self.measurements = measurements
    self.labels = labels
  }
}
