import PerformanceAnalysis

/// One note's problem under a sort criterion: the rating and score the criterion picked, the
/// help video chosen for it, and where the note is on the score.
public struct PerformanceIssue: Sendable, Hashable, Codable {
  /// The note's position in the score's note list.
  public var index: Int
  /// The measure number.
  public var measure: Int
  /// The criterion's name.
  public var criterion: String
  /// The category the rating came from (`timing`, `pitch`...; `missed` for a missed note,
  /// `overall` when the criterion sums every category).
  public var category: String
  /// The rating picked.
  public var rating: Rating
  /// The score it is sorted by, 0 best.
  public var score: Double
  /// The help video chosen (``HelpVideoCatalog``), if any.
  public var videoID: String?
  /// A text to show when there is no video.
  public var alert: String?
  /// The note's drawing position, when known.
  public var x: Double?
  /// The note's drawing position's y, when known.
  public var y: Double?

  /// Creates an issue.
  public init(
    index: Int, measure: Int, criterion: String, category: String, rating: Rating, score: Double,
    videoID: String? = nil, alert: String? = nil, x: Double? = nil, y: Double? = nil
  ) {
    self.index = index
    self.measure = measure
    self.criterion = criterion
    self.category = category
    self.rating = rating
    self.score = score
    self.videoID = videoID
    self.alert = alert
    self.x = x
    self.y = y
  }
}
