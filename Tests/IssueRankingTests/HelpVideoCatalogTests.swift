import Foundation
import PerformanceAnalysis
import Testing

@testable import IssueRanking

/// The help-video catalog: its JSON, the rotation, and the alert texts.
@Suite struct HelpVideoCatalogTests {
  static func load(_ json: String) throws(PerformanceAnalysisError) -> HelpVideoCatalog {
    try HelpVideoCatalog(json: Data(json.utf8))
  }

  @Test func bothFieldsLoad() throws {
    let catalog = try Self.load(
      #"{"videos": {"aBitSharp": ["sharp-1", "sharp-2"]}, "alerts": {"missed": "Play every note."}}"#)
    #expect(catalog.videos == ["aBitSharp": ["sharp-1", "sharp-2"]])
    #expect(catalog.alerts == ["missed": "Play every note."])
  }

  @Test(arguments: [
    (#"{"videos": {"wavering": ["steady"]}}"#, 1, 0), (#"{"alerts": {"wavering": "Steady air."}}"#, 0, 1),
    ("{}", 0, 0),
    (#"{"videos": {}, "alerts": {}}"#, 0, 0), (#"{"videos": null}"#, 0, 0),
  ])
  func eitherFieldMayBeLeftOut(json: String, videos: Int, alerts: Int) throws {
    let catalog = try Self.load(json)
    #expect(catalog.videos.count == videos && catalog.alerts.count == alerts)
  }

  @Test func otherFieldsAreIgnored() throws {
    let catalog = try Self.load(#"{"version": 2, "alerts": {"missed": "Play it."}}"#)
    #expect(catalog.alerts["missed"] == "Play it.")
  }

  @Test(arguments: [
    "", "[", "[]", "3", #"{"videos": 3}"#, #"{"videos": {"aBitSharp": "sharp-1"}}"#,
    #"{"videos": {"aBitSharp": [1, 2]}}"#,
    #"{"alerts": {"missed": 1}}"#, #"{"alerts": ["missed"]}"#, "{\"videos\": {", "\u{FF}",
  ])
  func malformedCatalogsGiveTheTypedError(json: String) {
    do {
      _ = try Self.load(json)
      Issue.record("\(json) loaded")
    } catch {
      guard case .invalidJSON(let reason) = error else {
        Issue.record("expected invalidJSON, got \(error)")
        return
      }
      #expect(reason.hasPrefix("help-video catalog"))
    }
  }

  @Test func theCatalogSurvivesItsEncodingWithoutItsRotation() throws {
    var catalog = HelpVideoCatalog(
      videos: ["octave": ["o-1", "o-2"]], alerts: ["octave": "Check the octave."])
    _ = catalog.nextVideo(for: .octave)
    let data = try JSONEncoder().encode(catalog)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(Set(object.keys) == ["videos", "alerts"])
    let reloaded = try HelpVideoCatalog(json: data)
    #expect(reloaded.videos == catalog.videos && reloaded.alerts == catalog.alerts)
    #expect(reloaded.lastGiven.isEmpty)
  }

  @Test(arguments: 2...5)
  func theRotationNeverGivesTheSameVideoTwiceInARow(count: Int) {
    let list = (1...count).map { "late-\($0)" }
    var catalog = HelpVideoCatalog(videos: ["aBitLate": list])
    let given = (0..<(3 * count)).compactMap { _ in catalog.nextVideo(for: .aBitLate) }
    #expect(given.count == 3 * count)
    #expect(zip(given, given.dropFirst()).allSatisfy { $0 != $1 })
    // It goes round the list in order.
    #expect(Array(given.prefix(count)) == list)
    #expect(Set(given) == Set(list))
  }

  @Test(arguments: [["a", "b", "a"], ["a", "a", "b"], ["x", "y", "y", "x", "z"], ["a", "a"]])
  func aVideoListedTwiceNeverComesTwiceInARow(list: [String]) {
    var catalog = HelpVideoCatalog(videos: ["missed": list])
    let given = (0..<12).compactMap { _ in catalog.nextVideo(for: .missed) }
    #expect(given.count == 12)
    #expect(Set(given) == Set(list))
    // With a single video, listed twice, it can only repeat.
    if Set(list).count >= 2 {
      #expect(zip(given, given.dropFirst()).allSatisfy { $0 != $1 }, "\(given)")
    }
  }

  /// The fuzzer's find (`Fuzz/run.sh grading`): `miss-1` listed first and last came twice in a
  /// row when the rotation wrapped round.
  @Test func fuzzRegressionTheRotationWrappingOntoTheSameVideo() throws {
    let json = #"{"videos": {"missed": ["miss-1", "mis{-2", "miss-1"], "octave": ["oct"]}}"#
    var catalog = try Self.load(json)
    let given = (0..<7).compactMap { _ in catalog.nextVideo(for: .missed) }
    #expect(zip(given, given.dropFirst()).allSatisfy { $0 != $1 }, "\(given)")
  }

  @Test func aListShortenedAfterARotationStillRotates() {
    var catalog = HelpVideoCatalog(videos: ["octave": ["o1", "o2", "o3", "o4"]])
    for _ in 0..<4 { _ = catalog.nextVideo(for: .octave) }
    catalog.videos["octave"] = ["o1", "o2"]
    let given = (0..<4).compactMap { _ in catalog.nextVideo(for: .octave) }
    #expect(given.count == 4)
    #expect(zip(given, given.dropFirst()).allSatisfy { $0 != $1 })
  }

  @Test func eachRatingRotatesOnItsOwn() {
    var catalog = HelpVideoCatalog(videos: ["aBitLate": ["l1", "l2"], "aBitEarly": ["e1", "e2"]])
    #expect(catalog.nextVideo(for: .aBitLate) == "l1")
    #expect(catalog.nextVideo(for: .aBitEarly) == "e1")
    #expect(catalog.nextVideo(for: .aBitLate) == "l2")
    #expect(catalog.nextVideo(for: .aBitEarly) == "e2")
  }

  @Test func oneVideoRepeatsAndNoneGivesNothing() {
    var catalog = HelpVideoCatalog(videos: ["octave": ["only"], "wavering": []])
    #expect(catalog.nextVideo(for: .octave) == "only")
    #expect(catalog.nextVideo(for: .octave) == "only")
    #expect(catalog.nextVideo(for: .wavering) == nil)
    #expect(catalog.nextVideo(for: .missed) == nil)
  }

  @Test func alertsComeFromTheCatalogThenTheBuiltInText() {
    let catalog = HelpVideoCatalog(alerts: ["missed": "Every note counts.", "breathy": "Firmer lips."])
    #expect(catalog.alert(for: .missed) == "Every note counts.")
    #expect(catalog.alert(for: "breathy") == "Firmer lips.")
    #expect(catalog.alert(for: .aBitLate) == HelpVideoCatalog.defaultAlert(for: .aBitLate))
  }

  @Test func everyBuiltInRatingHasItsOwnBuiltInSentence() {
    for rating in Rating.builtIn {
      let text = HelpVideoCatalog.defaultAlert(for: rating)
      #expect(!text.isEmpty)
      #expect(!text.hasPrefix("Look at this note again"), "\(rating)")
    }
    #expect(
      HelpVideoCatalog.defaultAlert(for: .upperPartial) != HelpVideoCatalog.defaultAlert(for: .lowerPartial))
    // A rating of a researcher's own still gets a sentence that names it.
    #expect(HelpVideoCatalog.defaultAlert(for: "breathy").contains("breathy"))
  }
}
