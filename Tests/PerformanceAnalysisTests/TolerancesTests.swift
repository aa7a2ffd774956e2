import PerformanceTracking
import Testing

@testable import PerformanceAnalysis

/// The built-in levels and the severity table.
@Suite struct TolerancesTests {
  @Test(arguments: Tolerances.builtInLevels)
  func everyBuiltInLevelValidatesAndIsFoundByName(level: Tolerances) throws {
    try level.validate()
    #expect(Tolerances.level(named: level.name) == level)
  }

  @Test func theLevelsAreBeginnerIntermediateAdvanced() {
    #expect(Tolerances.builtInLevels.map(\.name) == ["beginner", "intermediate", "advanced"])
    #expect(Tolerances.level(named: "virtuoso") == nil)
    #expect(Tolerances.level(named: "Beginner") == nil)
  }

  @Test func zonesNarrowFromBeginnerToAdvanced() {
    let (b, i, a) = (Tolerances.beginner, Tolerances.intermediate, Tolerances.advanced)
    #expect(b.pitch.correctCents > i.pitch.correctCents && i.pitch.correctCents > a.pitch.correctCents)
    #expect(b.timing.correctMs > i.timing.correctMs && i.timing.correctMs > a.timing.correctMs)
    #expect(b.timing.veryMs > i.timing.veryMs && i.timing.veryMs > a.timing.veryMs)
    #expect(b.duration.shortRatio < i.duration.shortRatio && i.duration.shortRatio < a.duration.shortRatio)
    #expect(b.duration.longRatio > i.duration.longRatio && i.duration.longRatio > a.duration.longRatio)
    // The nearest-semitone test is the same at every level.
    #expect(Tolerances.builtInLevels.allSatisfy { $0.pitch.wrongNoteCents == 50 && $0.pitch.a4Hz == 440 })
  }

  @Test func theDocumentedNumbersOfEachLevel() {
    #expect(Tolerances.beginner.pitch.correctCents == 30 && Tolerances.beginner.timing.correctMs == 70)
    #expect(
      Tolerances.intermediate.pitch.correctCents == 20 && Tolerances.intermediate.timing.correctMs == 40)
    #expect(Tolerances.advanced.pitch.correctCents == 12 && Tolerances.advanced.timing.correctMs == 25)
    #expect(
      Tolerances.intermediate.duration.shortRatio == 0.85
        && Tolerances.intermediate.duration.longRatio == 1.25)
  }

  @Test func severityScoresCorrectAsZeroAndUnlistedRatingsAsOne() {
    var tolerances = Tolerances.intermediate
    #expect(tolerances.score(for: .correct) == 0)
    #expect(tolerances.score(for: .missed) == 10)
    #expect(tolerances.score(for: .veryLate) == 6)
    #expect(tolerances.score(for: .upperPartial) == 6)
    #expect(tolerances.score(for: Rating("breathy")) == 1)
    // Even a table that lists correct cannot make it cost anything.
    tolerances.severity["correct"] = 5
    #expect(tolerances.score(for: .correct) == 0)
  }

  @Test func everyBuiltInRatingButCorrectHasADefaultSeverity() {
    for rating in Rating.builtIn where rating != .correct {
      #expect(Tolerances.defaultSeverity[rating.rawValue] != nil, "\(rating)")
    }
    #expect(Set(Tolerances.defaultSeverity.keys).isSubset(of: Set(Rating.builtIn.map(\.rawValue))))
  }

  @Test func aMissingArticulationExpectsTheFullValue() {
    var duration = Tolerances.intermediate.duration
    duration.expectedRatios = [:]
    #expect(PerformanceNote.Articulation.allCases.allSatisfy { duration.expectedRatio(for: $0) == 1 })
    #expect(Tolerances.intermediate.duration.expectedRatio(for: .staccato) == 0.5)
    #expect(Tolerances.intermediate.duration.expectedRatio(for: .staccatissimo) == 0.3)
  }
}
