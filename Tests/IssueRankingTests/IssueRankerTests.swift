import Foundation
import PerformanceAnalysis
import PerformanceTracking
import Testing

@testable import IssueRanking

/// Issues worst first under a criterion, a stable sort, and the help videos and alerts handed
/// out with them.
@Suite struct IssueRankerTests {
  @Test func issuesComeWorstFirstAndCleanNotesAreLeftOut() {
    let grades = IssueFixture.grades([
      IssueFixture.late(0, 3), IssueFixture.late(1, 0), IssueFixture.graded(2, status: .missed),
      IssueFixture.late(3, 6, rating: .veryLate), IssueFixture.late(4, 0),
    ])
    let issues = IssueRanker().rank(grades)
    #expect(issues.map(\.index) == [2, 3, 0])
    #expect(issues.map(\.score) == [10, 6, 3])
    #expect(issues.map(\.rating) == [.missed, .veryLate, .aBitLate])
    #expect(issues.map(\.category) == ["missed", "timing", "timing"])
    #expect(issues.allSatisfy { $0.criterion == "overall" })
  }

  @Test(arguments: [0 as UInt64, 1, 2, 3])
  func equalScoresKeepTheScoresOrder(seed: UInt64) {
    // Sixty notes with scores drawn from only four values: many ties.
    var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
    let scores: [Double] = (0..<60).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return [0, 1, 3, 6][Int(state >> 62)]
    }
    let grades = IssueFixture.grades(scores.indices.map { IssueFixture.late($0, scores[$0]) })
    for includesCorrect in [false, true] {
      let issues = IssueRanker().rank(grades, includesCorrect: includesCorrect)
      let expected = scores.indices.filter { includesCorrect || scores[$0] > 0 }
        .sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
      #expect(issues.map(\.index) == expected)
    }
  }

  @Test func includesCorrectListsEveryNoteWithTheCleanOnesLast() {
    let grades = IssueFixture.grades([
      IssueFixture.late(0, 0), IssueFixture.late(1, 3), IssueFixture.late(2, 0),
      IssueFixture.graded(3, [(.rest, .correct, 0)], status: .rest),
    ])
    let issues = IssueRanker().rank(grades, includesCorrect: true)
    #expect(issues.map(\.index) == [1, 0, 2, 3])
    #expect(issues.dropFirst().allSatisfy { $0.score == 0 && $0.rating == .correct })
    // Notes without a problem get neither a video nor an alert.
    #expect(issues.dropFirst().allSatisfy { $0.videoID == nil && $0.alert == nil })
  }

  @Test func theCriterionDecidesTheOrder() {
    let grades = IssueFixture.grades([
      IssueFixture.graded(0, [(.timing, .veryLate, 6), (.pitch, .aBitSharp, 1)]),
      IssueFixture.graded(1, [(.timing, .aBitLate, 3), (.pitch, .wrongNote, 5)]),
      IssueFixture.graded(2, [(.timing, .aBitLate, 3), (.pitch, .verySharp, 3), (.duration, .tooShort, 3)]),
    ])
    #expect(IssueRanker(criterion: CategoryCriterion(.pitch)).rank(grades).map(\.index) == [1, 2, 0])
    #expect(IssueRanker(criterion: CategoryCriterion(.timing)).rank(grades).map(\.index) == [0, 1, 2])
    #expect(IssueRanker(criterion: CategoryCriterion(.duration)).rank(grades).map(\.index) == [2])
    #expect(IssueRanker(criterion: WorstCategoryCriterion()).rank(grades).map(\.index) == [0, 1, 2])
    #expect(IssueRanker(criterion: OverallCriterion()).rank(grades).map(\.index) == [2, 1, 0])
    #expect(IssueRanker(criterion: CategoryCriterion(.pitch)).rank(grades).first?.criterion == "pitch")
  }

  @Test func anIssueCarriesItsNotesPlace() {
    let grades = IssueFixture.grades([
      IssueFixture.graded(7, [(.pitch, .octave, 5)], measure: 3, x: 412, y: 96)
    ])
    let issue = IssueRanker().rank(grades)[0]
    #expect(issue.index == 7 && issue.measure == 3 && issue.x == 412 && issue.y == 96)
  }

  @Test func videosRotateAndAlertsFillIn() throws {
    let grades = IssueFixture.grades([
      IssueFixture.late(0, 3), IssueFixture.late(1, 3), IssueFixture.late(2, 3),
      IssueFixture.graded(3, [(.pitch, .aBitFlat, 1)]), IssueFixture.graded(4, [(.pitch, .wavering, 2)]),
    ])
    var catalog: HelpVideoCatalog? = HelpVideoCatalog(
      videos: ["aBitLate": ["late-1", "late-2"]], alerts: ["aBitFlat": "Lift it."])
    let issues = IssueRanker().rank(grades, catalog: &catalog)
    #expect(issues.map(\.index) == [0, 1, 2, 4, 3])
    #expect(issues.prefix(3).map(\.videoID) == ["late-1", "late-2", "late-1"])
    #expect(issues.prefix(3).allSatisfy { $0.alert == nil })
    // No video: the catalog's alert, else the built-in one.
    #expect(issues[4].videoID == nil && issues[4].alert == "Lift it.")
    #expect(issues[3].alert == HelpVideoCatalog.defaultAlert(for: .wavering))
    // The rotation goes on in the next ranking.
    let again = IssueRanker().rank(grades, catalog: &catalog)
    #expect(again.prefix(3).map(\.videoID) == ["late-2", "late-1", "late-2"])
  }

  @Test func withoutACatalogEveryIssueHasTheBuiltInAlert() {
    let grades = IssueFixture.grades([
      IssueFixture.graded(0, status: .missed), IssueFixture.late(1, 6, rating: .veryLate),
    ])
    let issues = IssueRanker().rank(grades)
    #expect(
      issues.map(\.alert) == [
        HelpVideoCatalog.defaultAlert(for: .missed), HelpVideoCatalog.defaultAlert(for: .veryLate),
      ])
    #expect(issues.allSatisfy { $0.videoID == nil })
  }

  @Test func aGradedTakeRanksEndToEnd() {
    // A real grader's output: the missed note first, then the late one; the pitch criterion
    // does not call the missed note correct.
    let notes = (0..<6).map {
      PerformanceNote(
        index: $0, expectedStart: 0.5 * Double($0), expectedDuration: 0.5,
        writtenPitch: .init(rawValue: 64 + $0))
    }
    let sounds = notes.enumerated().compactMap { i, note -> PerformanceSound? in
      guard i != 2 else { return nil }
      let start = note.expectedStart + (i == 4 ? 0.08 : 0)
      let hz = 440 * pow(2, Double(note.soundingPitch!.rawValue - 69) / 12)
      return PerformanceSound(start: start, end: start + 0.46, frequencyHz: hz, peakLevelDBFS: -10)
    }
    let alignment = PerformanceAlignment(
      notes: notes, sounds: sounds, latencySeconds: 0, soundIndices: [0, 1, nil, 2, 3, 4])
    let grades = PerformanceGrader().grade(alignment)
    #expect(IssueRanker().rank(grades).map(\.index) == [2, 4])
    let byPitch = IssueRanker(criterion: CategoryCriterion(.pitch)).rank(grades)
    #expect(byPitch.map(\.index) == [2])
    #expect(byPitch.first?.rating == .missed)
  }
}
