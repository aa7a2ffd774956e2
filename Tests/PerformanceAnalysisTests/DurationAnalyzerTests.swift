import PerformanceTracking
import Testing

@testable import PerformanceAnalysis

/// Sounded length against the written value, relative to what each articulation expects.
@Suite struct DurationAnalyzerTests {
  /// The rating of a note written `written` seconds long with `articulation`, sounded `seconds`.
  static func rating(
    _ articulation: PerformanceNote.Articulation, written: Double = 1, seconds: Double, isTied: Bool = false,
    tolerances: Tolerances = .intermediate
  ) -> Rating? {
    let note = GradingFixture.note(
      0, 67, start: 0, duration: written, articulation: articulation, isTied: isTied)
    let sound = GradingFixture.sound(start: 0, seconds: seconds, midi: 67)
    return GradingFixture.grade(DurationAnalyzer(), note: note, sound: sound, tolerances: tolerances)?.rating
  }

  @Test(arguments: [
    (0.92, Rating.correct), (0.84, .correct), (1.1, .correct), (0.7, .aBitShort), (0.4, .veryShort),
    (0.2, .tooShort), (1.3, .aBitLong), (1.5, .veryLong), (2.0, .tooLong),
  ])
  func aNormalNoteExpectsAlmostItsFullValue(seconds: Double, rating: Rating) {
    #expect(Self.rating(.normal, seconds: seconds) == rating)
  }

  @Test(arguments: [
    (0.5, Rating.correct), (0.45, .correct), (0.25, .veryShort), (0.75, .aBitLong), (1.0, .veryLong),
  ])
  func aStaccatoNoteExpectsHalfItsValue(seconds: Double, rating: Rating) {
    #expect(Self.rating(.staccato, seconds: seconds) == rating)
  }

  @Test(arguments: [(0.3, Rating.correct), (0.6, .veryLong), (0.12, .veryShort)])
  func aStaccatissimoNoteExpectsAQuarterOrSo(seconds: Double, rating: Rating) {
    #expect(Self.rating(.staccatissimo, seconds: seconds) == rating)
  }

  @Test(arguments: [
    (1.0, Rating.correct), (0.92, .correct), (0.7, .aBitShort), (0.5, .veryShort), (1.4, .aBitLong),
  ])
  func aLegatoNoteExpectsItsFullValue(seconds: Double, rating: Rating) {
    #expect(Self.rating(.legato, seconds: seconds) == rating)
    #expect(Self.rating(.tenuto, seconds: seconds) == rating)
  }

  @Test func aTiedNoteIsHeldForItsWholeMergedValue() {
    // Two tied beats of 0.75 s: the written value is 1.5 s.
    #expect(Self.rating(.legato, written: 1.5, seconds: 1.5, isTied: true) == .correct)
    #expect(Self.rating(.legato, written: 1.5, seconds: 0.75, isTied: true) == .veryShort)
    #expect(Self.rating(.legato, written: 1.5, seconds: 1.1, isTied: true) == .aBitShort)
  }

  @Test func theAllowanceMattersMostForShortNotes() {
    // 0.2 s written, normal: 0.14 s is 0.76 of the expected 0.184 s, inside the correct zone
    // once 30 ms are allowed; on a two-second note the same ratio is a bit short.
    #expect(Self.rating(.normal, written: 0.2, seconds: 0.14) == .correct)
    #expect(Self.rating(.normal, written: 2, seconds: 1.4) == .aBitShort)
  }

  @Test func notesWrittenShorterThanTheShortestJudgedAreNotJudged() {
    #expect(Self.rating(.normal, written: 0.11, seconds: 0.01) == nil)
    // Judged from 0.12 s on, though so short a note can hardly be too short: the 30 ms
    // allowance is a quarter of its value and moves the too-short boundary down to 0.08.
    #expect(Self.rating(.normal, written: 0.12, seconds: 0.01) == .veryShort)
  }

  @Test func theGradeCarriesTheRatioAndTheSeverity() throws {
    let note = GradingFixture.note(0, 67, start: 0, duration: 0.8, articulation: .staccato)
    let grade = try #require(
      GradingFixture.grade(
        DurationAnalyzer(), note: note, sound: GradingFixture.sound(start: 0, seconds: 0.16, midi: 67)))
    #expect(grade.category == .duration)
    #expect(abs(grade.measurements["ratio"]! - 0.2) < 1e-12)
    #expect(grade.measurements["expectedRatio"] == 0.5)
    #expect(abs(grade.measurements["seconds"]! - 0.16) < 1e-12)
    #expect(grade.rating == .veryShort && grade.score == 2)
  }

  @Test func missedNotesAndRestsHaveNoDuration() {
    let note = GradingFixture.note(0, 67, start: 0, duration: 1)
    #expect(GradingFixture.grade(DurationAnalyzer(), note: note, sound: nil) == nil)
    let rest = GradingFixture.note(0, nil, start: 0, duration: 1)
    #expect(GradingFixture.grade(DurationAnalyzer(), note: rest, sound: nil) == nil)
  }

  @Test(arguments: [
    (0.3, Rating.tooShort), (0.34, .tooShort), (0.35, .veryShort), (0.59, .veryShort), (0.6, .aBitShort),
    (0.84, .aBitShort), (0.85, .correct), (1.25, .correct), (1.26, .aBitLong), (1.5, .aBitLong),
    (1.51, .veryLong),
    (2, .veryLong), (2.01, .tooLong),
  ])
  func theZonesWithoutAllowance(relativeRatio: Double, rating: Rating) {
    #expect(DurationAnalyzer.rating(relativeRatio: relativeRatio, Tolerances.intermediate.duration) == rating)
  }
}
