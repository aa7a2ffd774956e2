import PerformanceTracking
import Testing

@testable import PerformanceAnalysis

/// Attack zones against the score and against the student's local tempo, and which of the two
/// sets the severity.
@Suite struct TimingAnalyzerTests {
  static let timing = Tolerances.intermediate.timing

  @Test(arguments: [
    (0.0, Rating.correct), (40, .correct), (-40, .correct), (41, .aBitLate), (-41, .aBitEarly),
    (100, .aBitLate), (-100, .aBitEarly), (101, .veryLate), (-101, .veryEarly), (900, .veryLate),
  ])
  func zonesOfAnOffset(offsetMs: Double, rating: Rating) {
    #expect(TimingAnalyzer.rating(offsetMs: offsetMs, Self.timing) == rating)
  }

  /// Twelve notes half a second apart, each sound `offsets[i]` seconds off (nil: missed).
  static func take(offsets: [Double?], latency: Double = 0) -> PerformanceAlignment {
    let notes = offsets.indices.map {
      GradingFixture.note($0, 60 + $0 % 7, start: 0.5 * Double($0), duration: 0.4)
    }
    return GradingFixture.alignment(
      zip(notes, offsets).map { note, offset in
        (note, offset.map { GradingFixture.played(note, delay: $0, latency: latency) })
      }, latency: latency)
  }

  @Test func aLateNoteInASteadyTakeIsLateAgainstBothReferences() throws {
    var offsets: [Double?] = Array(repeating: 0, count: 12)
    offsets[6] = 0.07
    let grade = try #require(
      GradingFixture.grade(TimingAnalyzer(), 6, in: Self.take(offsets: offsets, latency: 0.15)))
    #expect(grade.category == .timing)
    #expect(grade.rating == .aBitLate)
    #expect(grade.labels["localRating"] == "aBitLate")
    #expect(grade.score == 3)
    // Measured on the score's time line: the latency is gone.
    #expect(abs(grade.measurements["offsetMs"]! - 70) < 1e-6)
    #expect(abs(grade.measurements["localOffsetMs"]! - 70) < 1e-6)
    #expect(abs(grade.measurements["onsetSeconds"]! - 3.07) < 1e-9)
  }

  /// A take 8 % slower than the score: by note 10 it runs 400 ms behind.
  static func drifting(reference: Tolerances.Timing.Reference) -> (Grade?, Tolerances) {
    let offsets: [Double?] = (0..<12).map { 0.08 * 0.5 * Double($0) }
    var tolerances = Tolerances.intermediate
    tolerances.timing.severityReference = reference
    return (
      GradingFixture.grade(TimingAnalyzer(), 10, in: take(offsets: offsets), tolerances: tolerances),
      tolerances
    )
  }

  @Test func underATempoTrendTheLocalRatingIsCorrect() throws {
    let grade = try #require(Self.drifting(reference: .lesser).0)
    #expect(grade.rating == .veryLate)
    #expect(grade.labels["localRating"] == "correct")
    #expect(abs(grade.measurements["offsetMs"]! - 400) < 1e-6)
    #expect(abs(grade.measurements["localOffsetMs"]!) < 1e-6)
  }

  @Test(arguments: [
    (Tolerances.Timing.Reference.lesser, 0.0), (.local, 0), (.absolute, 6),
  ])
  func theSeverityReferenceChoosesWhichOffsetCosts(reference: Tolerances.Timing.Reference, score: Double)
    throws
  {
    let grade = try #require(Self.drifting(reference: reference).0)
    #expect(grade.score == score)
    // The rating shown is always the absolute one.
    #expect(grade.rating == .veryLate)
  }

  @Test func aNoteOnTheScoresTimeAmongLateNeighboursIsEarlyOnlyLocally() throws {
    // Everyone else plays 120 ms late; note 6 is on the beat.
    var offsets: [Double?] = Array(repeating: 0.12, count: 12)
    offsets[6] = 0
    let alignment = Self.take(offsets: offsets)
    let lesser = try #require(GradingFixture.grade(TimingAnalyzer(), 6, in: alignment))
    #expect(lesser.rating == .correct)
    #expect(lesser.labels["localRating"] == "veryEarly")
    #expect(lesser.score == 0)
    var local = Tolerances.intermediate
    local.timing.severityReference = .local
    let byLocal = try #require(GradingFixture.grade(TimingAnalyzer(), 6, in: alignment, tolerances: local))
    #expect(byLocal.score == 6)
  }

  @Test func missedNotesAndRestsAreNotTimed() {
    var offsets: [Double?] = Array(repeating: 0, count: 12)
    offsets[3] = nil
    var alignment = Self.take(offsets: offsets)
    alignment.notes[5].writtenPitch = nil
    alignment.notes[5].soundingPitch = nil
    alignment.soundIndices[5] = nil
    #expect(GradingFixture.grade(TimingAnalyzer(), 3, in: alignment) == nil)
    #expect(GradingFixture.grade(TimingAnalyzer(), 5, in: alignment) == nil)
    #expect(GradingFixture.grade(TimingAnalyzer(), 4, in: alignment) != nil)
  }
}
