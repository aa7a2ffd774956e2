import PerformanceTracking
import Testing

@testable import PerformanceAnalysis

/// Silence where the score has a rest: only sounds no note claimed count.
@Suite struct RestAnalyzerTests {
  /// A4 (0–0.5 s), a rest (0.5–1.5 s), B4 (1.5–2 s), with the given extra sounds.
  static func take(
    extra: [PerformanceSound], firstLasts: Double = 0.46, latency: Double = 0
  ) -> PerformanceAlignment {
    let a = GradingFixture.note(0, 69, start: 0)
    let rest = GradingFixture.note(1, nil, start: 0.5, duration: 1)
    let b = GradingFixture.note(2, 71, start: 1.5)
    return GradingFixture.alignment(
      [
        (a, GradingFixture.sound(start: latency, seconds: firstLasts, midi: 69)), (rest, nil),
        (b, GradingFixture.played(b, latency: latency)),
      ], extra: extra, latency: latency)
  }

  @Test func silenceIsCorrect() throws {
    let grade = try #require(GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: [])))
    #expect(grade.category == .rest)
    #expect(grade.rating == .correct && grade.score == 0)
    #expect(grade.measurements["soundSeconds"] == 0)
  }

  @Test func anUnclaimedSoundDuringTheRestIsSoundDuringRest() throws {
    let extra = GradingFixture.sound(start: 0.8, seconds: 0.2, midi: 64)
    let grade = try #require(GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: [extra])))
    #expect(grade.rating == .soundDuringRest)
    #expect(grade.score == 4)
    #expect(abs(grade.measurements["soundSeconds"]! - 0.2) < 1e-12)
  }

  @Test func onlyTheOverlapCountsAndItMustReachTheMinimum() throws {
    // 50 ms inside the rest (intermediate asks for 80 ms), the rest of it before the rest.
    let brief = GradingFixture.sound(start: 0.35, seconds: 0.2, midi: 64)
    let grade = try #require(GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: [brief])))
    #expect(grade.rating == .correct)
    #expect(abs(grade.measurements["soundSeconds"]! - 0.05) < 1e-12)
    // Two short pieces add up.
    let pieces = [
      GradingFixture.sound(start: 0.7, seconds: 0.05, midi: 64),
      GradingFixture.sound(start: 1.0, seconds: 0.05, midi: 64),
    ]
    #expect(
      try #require(GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: pieces))).rating
        == .soundDuringRest)
  }

  @Test func aNoteHeldIntoTheRestIsTheNotesBusinessNotTheRests() throws {
    // A4 held for a whole second, half of it over the rest: its duration is graded, not the rest.
    let grade = try #require(GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: [], firstLasts: 1)))
    #expect(grade.rating == .correct)
  }

  @Test func overlapIsMeasuredOnTheScoresTimeLine() throws {
    // The audio runs 300 ms late: a sound at 1.3–1.5 s of audio is at 1.0–1.2 s of score.
    let extra = GradingFixture.sound(start: 1.3, seconds: 0.2, midi: 64)
    let grade = try #require(
      GradingFixture.grade(RestAnalyzer(), 1, in: Self.take(extra: [extra], latency: 0.3)))
    #expect(grade.rating == .soundDuringRest)
    #expect(abs(grade.measurements["soundSeconds"]! - 0.2) < 1e-9)
  }

  @Test func notesAreNotRests() {
    #expect(GradingFixture.grade(RestAnalyzer(), 0, in: Self.take(extra: [])) == nil)
  }
}
