/// Where to scroll a score view so that a note is in view near, not on, the edge, and where to
/// draw its highlight.
public struct ScoreNavigation: Sendable, Hashable, Codable {
  /// The size of the visible part of the score, in the score's layout units.
  public var viewportWidth: Double
  /// The height of the visible part.
  public var viewportHeight: Double
  /// The size of the whole score, in the same units (scrolling stops at its edges).
  public var contentWidth: Double
  /// The height of the whole score.
  public var contentHeight: Double
  /// How far in from the leading edge the note is put, as a fraction of the viewport (0.25:
  /// a quarter in, so the music before it is still in view).
  public var leadFraction: Double

  /// A note's target: its position and the scroll offset that shows it.
  public struct Target: Sendable, Hashable, Codable {
    /// The note's x, where the highlight goes.
    public var x: Double
    /// The note's y.
    public var y: Double
    /// The horizontal scroll offset (the viewport's leading edge).
    public var scrollX: Double
    /// The vertical scroll offset (the viewport's top edge).
    public var scrollY: Double
  }

  /// Creates a navigation for a viewport and a score.
  public init(
    viewportWidth: Double, viewportHeight: Double, contentWidth: Double, contentHeight: Double,
    leadFraction: Double = 0.25
  ) {
    self.viewportWidth = viewportWidth
    self.viewportHeight = viewportHeight
    self.contentWidth = contentWidth
    self.contentHeight = contentHeight
    self.leadFraction = min(0.5, max(0.05, leadFraction))
  }

  /// The target for a note drawn at (`x`, `y`): the note sits ``leadFraction`` of the viewport
  /// in from the left and a third of the way down, unless the score's edge stops the scroll.
  public func target(x: Double, y: Double) -> Target {
    let scrollX = Self.clamp(x - leadFraction * viewportWidth, 0, max(0, contentWidth - viewportWidth))
    let scrollY = Self.clamp(y - viewportHeight / 3, 0, max(0, contentHeight - viewportHeight))
    return Target(x: x, y: y, scrollX: scrollX, scrollY: scrollY)
  }

  /// The target for an issue, or `nil` when its note has no position.
  public func target(for issue: PerformanceIssue) -> Target? {
    guard let x = issue.x, let y = issue.y else { return nil }
    return target(x: x, y: y)
  }

  static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double { min(high, max(low, value)) }
}
