import PerformanceAnalysis
import Testing

@testable import IssueRanking

/// Where a score view scrolls to show a note: near the leading edge, not on it, and never past
/// the score's edges.
@Suite struct ScoreNavigationTests {
  static let navigation = ScoreNavigation(
    viewportWidth: 800, viewportHeight: 600, contentWidth: 4000, contentHeight: 3000)

  @Test func aNoteInTheMiddleSitsAQuarterInAndAThirdDown() {
    let target = Self.navigation.target(x: 2000, y: 1500)
    #expect(target.x == 2000 && target.y == 1500)
    #expect(target.scrollX == 1800 && target.scrollY == 1300)
    #expect(target.x - target.scrollX == 200)
    #expect(target.y - target.scrollY == 200)
  }

  @Test func scrollingStopsAtTheScoresEdges() {
    let start = Self.navigation.target(x: 50, y: 40)
    #expect(start.scrollX == 0 && start.scrollY == 0)
    let end = Self.navigation.target(x: 3990, y: 2990)
    #expect(end.scrollX == 3200 && end.scrollY == 2400)
  }

  @Test func aScoreSmallerThanTheViewNeverScrolls() {
    let small = ScoreNavigation(
      viewportWidth: 800, viewportHeight: 600, contentWidth: 500, contentHeight: 300)
    let target = small.target(x: 450, y: 250)
    #expect(target.scrollX == 0 && target.scrollY == 0)
  }

  @Test(arguments: [0.25, 0.1, 0.4])
  func theNoteIsAlwaysInViewAndAwayFromTheLeadingEdgeUnlessAtTheStart(lead: Double) {
    let navigation = ScoreNavigation(
      viewportWidth: 800, viewportHeight: 600, contentWidth: 4000, contentHeight: 3000, leadFraction: lead)
    for x in stride(from: 0.0, through: 4000, by: 25) {
      let target = navigation.target(x: x, y: 100)
      let inView = x - target.scrollX
      #expect(inView >= 0 && inView <= 800, "x \(x)")
      if target.scrollX > 0 && target.scrollX < 3200 {
        #expect(abs(inView - lead * 800) < 1e-9, "x \(x)")
      }
      if x >= lead * 800 && x <= 3200 + lead * 800 {
        // Room to scroll: the note is never on the leading edge.
        #expect(inView > 0, "x \(x)")
      }
    }
  }

  @Test func theLeadFractionStaysBetweenAtwentiethAndAHalf() {
    #expect(
      ScoreNavigation(viewportWidth: 1, viewportHeight: 1, contentWidth: 1, contentHeight: 1, leadFraction: 0)
        .leadFraction == 0.05)
    #expect(
      ScoreNavigation(
        viewportWidth: 1, viewportHeight: 1, contentWidth: 1, contentHeight: 1, leadFraction: 0.9
      ).leadFraction == 0.5)
    #expect(Self.navigation.leadFraction == 0.25)
  }

  @Test func anIssueWithAPositionHasATargetAndOneWithoutHasNone() throws {
    let placed = PerformanceIssue(
      index: 4, measure: 2, criterion: "overall", category: "pitch", rating: .wrongNote, score: 5, x: 1000,
      y: 700)
    let target = try #require(Self.navigation.target(for: placed))
    #expect(target == Self.navigation.target(x: 1000, y: 700))
    let unplaced = PerformanceIssue(
      index: 4, measure: 2, criterion: "overall", category: "pitch", rating: .wrongNote, score: 5)
    #expect(Self.navigation.target(for: unplaced) == nil)
    #expect(
      Self.navigation.target(
        for: PerformanceIssue(
          index: 0, measure: 1, criterion: "overall", category: "pitch", rating: .octave, score: 5, x: 10))
        == nil)
  }
}
