import Foundation
import Testing

@testable import PerformanceAnalysis

/// The tolerances JSON: one level or several, bases, partial overrides, and typed errors that
/// name the path of the bad value.
@Suite struct TolerancesJSONTests {
  static func load(_ json: String, level: String? = nil) throws(PerformanceAnalysisError) -> Tolerances {
    try Tolerances(json: Data(json.utf8), level: level)
  }

  @Test func aSingleLevelOverridesOnlyTheFieldsItGives() throws {
    let tolerances = try Self.load(
      #"{"name": "mine", "pitch": {"correctCents": 15}, "timing": {"veryMs": 90}}"#)
    #expect(tolerances.name == "mine")
    #expect(tolerances.pitch.correctCents == 15)
    #expect(tolerances.timing.veryMs == 90)
    // Everything else is intermediate's.
    var expected = Tolerances.intermediate
    expected.name = "mine"
    expected.pitch.correctCents = 15
    expected.timing.veryMs = 90
    #expect(tolerances == expected)
  }

  @Test func anEmptyObjectIsIntermediateNamedCustom() throws {
    var expected = Tolerances.intermediate
    expected.name = "custom"
    #expect(try Self.load("{}") == expected)
  }

  @Test func aSingleLevelTakesItsBaseOrTheBuiltInOfItsName() throws {
    let based = try Self.load(#"{"base": "beginner", "timing": {"correctMs": 50}}"#)
    #expect(based.name == "custom")
    #expect(based.timing.correctMs == 50 && based.timing.veryMs == Tolerances.beginner.timing.veryMs)
    #expect(based.pitch == Tolerances.beginner.pitch)
    let named = try Self.load(#"{"name": "advanced", "rest": {"minimumSeconds": 0.2}}"#)
    #expect(named.pitch == Tolerances.advanced.pitch && named.rest.minimumSeconds == 0.2)
  }

  @Test func nestedOpenObjectsMergeKeyByKey() throws {
    let tolerances = try Self.load(
      #"{"severity": {"missed": 20, "breathy": 2}, "duration": {"expectedRatios": {"staccato": 0.4}}}"#)
    #expect(tolerances.severity["missed"] == 20)
    #expect(tolerances.severity["breathy"] == 2)
    #expect(tolerances.severity["veryLate"] == 6)
    #expect(tolerances.score(for: Rating("breathy")) == 2)
    #expect(tolerances.duration.expectedRatio(for: .staccato) == 0.4)
    #expect(tolerances.duration.expectedRatio(for: .normal) == 0.92)
  }

  static let school = #"""
    {
      "default": "school",
      "levels": {
        "school": {"base": "beginner", "timing": {"correctMs": 60}},
        "exam": {"base": "school", "pitch": {"correctCents": 25}},
        "strict": {"base": "advanced", "name": "strict"}
      }
    }
    """#

  @Test func severalLevelsGiveTheDefaultOrTheOneAskedFor() throws {
    let school = try Self.load(Self.school)
    #expect(school.name == "school")
    #expect(school.timing.correctMs == 60 && school.timing.veryMs == 150)
    #expect(school.pitch == Tolerances.beginner.pitch)
    // A level based on another level of the same file inherits its overrides.
    let exam = try Self.load(Self.school, level: "exam")
    #expect(exam.name == "exam" && exam.timing.correctMs == 60 && exam.pitch.correctCents == 25)
    #expect(exam.pitch.veryCents == Tolerances.beginner.pitch.veryCents)
    #expect(try Self.load(Self.school, level: "strict").duration == Tolerances.advanced.duration)
    // A built-in level's name works too.
    #expect(try Self.load(Self.school, level: "advanced") == .advanced)
  }

  @Test func theOnlyLevelNeedsNoDefault() throws {
    let only = try Self.load(#"{"levels": {"band": {"timing": {"correctMs": 45}}}}"#)
    #expect(only.name == "band" && only.timing.correctMs == 45 && only.pitch == Tolerances.intermediate.pitch)
  }

  @Test func severalLevelsWithoutADefaultMustBeNamed() throws {
    let json = #"{"levels": {"a": {}, "b": {}}}"#
    #expect(GradingFixture.invalidPath(json) == "default")
    #expect(try Self.load(json, level: "b").name == "b")
  }

  @Test func howSureAMissedNoteIsIsATolerance() throws {
    let tolerances = try Self.load(#"{"missed": {"heardShare": 0.7}}"#)
    #expect(tolerances.missed.heardShare == 0.7 && tolerances.missed.heardSeverityFactor == 0.5)
    #expect(GradingFixture.invalidPath(#"{"missed": {"heardSeverityFactor": 2}}"#) == "missed.heardSeverityFactor")
    #expect(GradingFixture.invalidPath(#"{"missed": {"heardShare": -1}}"#) == "missed.heardShare")
  }

  @Test func anUnknownLevelListsTheAvailableOnes() {
    let error = GradingFixture.error(Self.school, level: "jazz")
    #expect(
      error
        == .unknownLevel(
          name: "jazz", available: ["advanced", "beginner", "exam", "intermediate", "school", "strict"]))
    #expect(error?.description.contains("jazz") == true)
    #expect(
      GradingFixture.error(#"{"levels": {"a": {"base": "nowhere"}}}"#)
        == .unknownLevel(
          name: "nowhere", available: ["a", "advanced", "beginner", "intermediate"]))
  }

  @Test(arguments: [
    (#"{"pitch": {"correctCent": 10}}"#, "pitch.correctCent"),
    (#"{"tempo": 3}"#, "tempo"),
    (#"{"levels": {"x": {"timing": {"correctMS": 10}}}}"#, "levels.x.timing.correctMS"),
    (#"{"levels": {"x": {}}, "colour": "red"}"#, "colour"),
    (#"{"levels": {"x": 3}}"#, "levels.x"),
    (#"{"levels": []}"#, "levels"),
    (#"{"pitch": 5}"#, "pitch"),
    (#"{"pitch": {"correctCents": "twenty"}}"#, "pitch.correctCents"),
    (#"{"pitch": {"correctCents": null}}"#, "pitch.correctCents"),
    (#"{"timing": {"severityReference": "sideways"}}"#, "timing.severityReference"),
    (#"{"severity": {"missed": "high"}}"#, "severity.missed"),
    (#"{"name": 7}"#, "name"),
  ])
  func unknownAndMistypedFieldsNameTheirPath(json: String, path: String) {
    #expect(GradingFixture.invalidPath(json) == path, "\(String(describing: GradingFixture.error(json)))")
  }

  @Test(arguments: [
    (#"{"pitch": {"correctCents": 0}}"#, "pitch.correctCents"),
    (#"{"pitch": {"correctCents": 40}}"#, "pitch.veryCents"),
    (#"{"pitch": {"wrongNoteCents": 120}}"#, "pitch.wrongNoteCents"),
    (#"{"pitch": {"wrongNoteCents": 30}}"#, "pitch.wrongNoteCents"),
    (#"{"pitch": {"partialCents": 0}}"#, "pitch.partialCents"),
    (#"{"pitch": {"waveringCents": -1}}"#, "pitch.waveringCents"),
    (#"{"pitch": {"waveringSmoothingSeconds": 2}}"#, "pitch.waveringSmoothingSeconds"),
    (#"{"pitch": {"a4Hz": 1000}}"#, "pitch.a4Hz"),
    (#"{"timing": {"correctMs": -5}}"#, "timing.correctMs"),
    (#"{"timing": {"veryMs": 10}}"#, "timing.veryMs"),
    (#"{"duration": {"shortRatio": 0.5}}"#, "duration.shortRatio"),
    (#"{"duration": {"longRatio": 0.9}}"#, "duration.longRatio"),
    (#"{"duration": {"tooLongRatio": 1.3}}"#, "duration.longRatio"),
    (#"{"duration": {"expectedRatios": {"marcato": 0.8}}}"#, "duration.expectedRatios.marcato"),
    (#"{"duration": {"expectedRatios": {"legato": 3}}}"#, "duration.expectedRatios.legato"),
    (#"{"duration": {"allowanceSeconds": -0.1}}"#, "duration.allowanceSeconds"),
    (#"{"rest": {"minimumSeconds": -1}}"#, "rest.minimumSeconds"),
    (#"{"severity": {"missed": -2}}"#, "severity.missed"),
  ])
  func outOfRangeValuesNameTheirPath(json: String, path: String) {
    #expect(GradingFixture.invalidPath(json) == path, "\(String(describing: GradingFixture.error(json)))")
    // The message a user sees names it too.
    #expect(GradingFixture.error(json)?.description.contains(path) == true)
  }

  @Test func aCycleOfBasesIsAnError() {
    let json = #"{"levels": {"a": {"base": "b"}, "b": {"base": "a"}}, "default": "a"}"#
    let path = GradingFixture.invalidPath(json)
    #expect(path == "levels.a.base" || path == "levels.b.base")
    #expect(GradingFixture.invalidPath(#"{"levels": {"me": {"base": "me"}}}"#) == "levels.me.base")
  }

  /// A file of `count` levels, each based on the next, the last on `advanced`.
  static func chain(_ count: Int) -> String {
    let levels = (0..<count).map { i in
      i == count - 1 ? #""l\#(i)": {"base": "advanced"}"# : #""l\#(i)": {"base": "l\#(i + 1)"}"#
    }
    return #"{"default": "l0", "levels": {\#(levels.joined(separator: ", "))}}"#
  }

  @Test func basesMayChainThroughSixtyFourLevels() throws {
    let tolerances = try Self.load(Self.chain(64))
    #expect(tolerances.name == "l0")
    #expect(tolerances.pitch == Tolerances.advanced.pitch && tolerances.timing == Tolerances.advanced.timing)
  }

  /// Found by a hand-made input run through the grading fuzz target: a chain of a few thousand
  /// bases overflowed the stack.
  @Test(arguments: [65, 3000])
  func fuzzRegressionALongerChainIsAnErrorNotAStackOverflow(count: Int) {
    #expect(GradingFixture.invalidPath(Self.chain(count)) == "levels.l64.base")
  }

  @Test(arguments: [
    "", "{", "[]", "3", #""levels""#, "nul", "{\"a\": }", "\u{FF}\u{FE}",
    "{\"pitch\": {\"correctCents\": 1e}}",
  ])
  func malformedJSONGivesTheTypedError(json: String) {
    guard case .invalidJSON = GradingFixture.error(json) else {
      Issue.record("expected invalidJSON, got \(String(describing: GradingFixture.error(json)))")
      return
    }
  }

  @Test(arguments: Tolerances.builtInLevels)
  func everyBuiltInLevelSurvivesItsOwnEncoding(level: Tolerances) throws {
    let data = try JSONEncoder().encode(level)
    #expect(try Tolerances(json: data) == level)
  }

  @Test func anEditedLevelSurvivesItsEncodingUnderLevels() throws {
    var edited = Tolerances.beginner
    edited.name = "edited"
    edited.pitch.a4Hz = 442
    edited.timing.severityReference = .local
    edited.severity["wavering"] = 0.5
    let level = try JSONSerialization.jsonObject(with: JSONEncoder().encode(edited))
    let file = try JSONSerialization.data(withJSONObject: ["levels": ["edited": level]])
    #expect(try Tolerances(json: file) == edited)
  }
}
