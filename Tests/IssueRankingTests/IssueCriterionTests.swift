import PerformanceAnalysis
import Testing

@testable import IssueRanking

/// What each criterion picks from a graded note: its rating, category and score.
@Suite struct IssueCriterionTests {
  /// Late (3), a bit short (1), a wrong note (5).
  static let troubled = IssueFixture.graded(
    0, [(.timing, .aBitLate, 3), (.duration, .aBitShort, 1), (.pitch, .wrongNote, 5)])
  static let clean = IssueFixture.graded(
    1, [(.timing, .correct, 0), (.duration, .correct, 0), (.pitch, .correct, 0)])
  static let missed = IssueFixture.graded(2, status: .missed)
  static let noisyRest = IssueFixture.graded(3, [(.rest, .soundDuringRest, 4)], status: .rest)

  static func judge(_ criterion: any IssueCriterion, _ note: GradedNote) -> (Rating, String, Double) {
    let judged = criterion.judge(note)
    return (judged.rating, judged.category, judged.score)
  }

  @Test(arguments: [
    (GradeCategory.timing, Rating.aBitLate, 3.0), (.duration, .aBitShort, 1), (.pitch, .wrongNote, 5),
  ])
  func aCategoryCriterionTakesThatCategorysGrade(category: GradeCategory, rating: Rating, score: Double) {
    #expect(Self.judge(CategoryCriterion(category), Self.troubled) == (rating, category.rawValue, score))
    #expect(Self.judge(CategoryCriterion(category), Self.clean) == (.correct, category.rawValue, 0))
    #expect(CategoryCriterion(category).name == category.rawValue)
  }

  @Test(arguments: [GradeCategory.pitch, .timing, .duration, .rest])
  func aMissedNoteIsMissedUnderEveryCategory(category: GradeCategory) {
    // Never "correct on pitch": the original app's bug.
    #expect(Self.judge(CategoryCriterion(category), Self.missed) == (.missed, "missed", 10))
    #expect(
      Self.judge(CategoryCriterion(category, countsMissed: false), Self.missed) == (
        .correct, category.rawValue, 0
      ))
  }

  @Test(arguments: [GradeCategory.pitch, .timing, .duration, .rest])
  func aRestReportsItsOwnGradeUnderAnyCategory(category: GradeCategory) {
    #expect(Self.judge(CategoryCriterion(category), Self.noisyRest) == (.soundDuringRest, "rest", 4))
  }

  @Test func aNoteWithoutTheCategoryHasNoIssueThere() {
    let unjudged = IssueFixture.graded(4, [(.timing, .veryLate, 6)])
    #expect(Self.judge(CategoryCriterion(.duration), unjudged) == (.correct, "duration", 0))
  }

  @Test func theWorstCriterionTakesTheWorstSingleGrade() {
    let worst = WorstCategoryCriterion()
    #expect(worst.name == "worst")
    #expect(Self.judge(worst, Self.troubled) == (.wrongNote, "pitch", 5))
    #expect(Self.judge(worst, Self.clean) == (.correct, "overall", 0))
    #expect(Self.judge(worst, Self.missed) == (.missed, "missed", 10))
    #expect(Self.judge(worst, Self.noisyRest) == (.soundDuringRest, "rest", 4))
  }

  @Test func theOverallCriterionSumsButShowsTheWorstRating() {
    let overall = OverallCriterion()
    #expect(overall.name == "overall")
    #expect(Self.judge(overall, Self.troubled) == (.wrongNote, "pitch", 9))
    #expect(Self.judge(overall, Self.clean) == (.correct, "overall", 0))
    #expect(Self.judge(overall, Self.missed) == (.missed, "missed", 10))
  }

  @Test(arguments: [
    ("pitch", "pitch"), ("timing", "timing"), ("attack", "timing"), ("rhythm", "timing"),
    ("duration", "duration"),
    ("rest", "rest"), ("worst", "worst"), ("individual", "worst"), ("overall", "overall"), ("sum", "overall"),
    ("PITCH", "pitch"), ("Overall", "overall"),
  ])
  func criteriaByNameAndAlias(name: String, canonical: String) throws {
    let criterion = try #require(IssueCriteria.named(name))
    #expect(criterion.name == canonical)
  }

  @Test func theListedNamesAreTheCanonicalOnesAndUnknownNamesGiveNothing() throws {
    for name in IssueCriteria.names {
      #expect(try #require(IssueCriteria.named(name)).name == name)
    }
    #expect(Set(IssueCriteria.names).count == 6)
    #expect(IssueCriteria.named("loudness") == nil)
    #expect(IssueCriteria.named("") == nil)
  }

  @Test func namedCriteriaJudgeLikeTheirTypes() throws {
    #expect(
      Self.judge(try #require(IssueCriteria.named("attack")), Self.troubled) == (.aBitLate, "timing", 3))
    #expect(
      Self.judge(try #require(IssueCriteria.named("individual")), Self.troubled) == (.wrongNote, "pitch", 5))
    #expect(Self.judge(try #require(IssueCriteria.named("sum")), Self.troubled) == (.wrongNote, "pitch", 9))
  }
}
