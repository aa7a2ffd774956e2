import Foundation
import Testing

@testable import PitchDSP

/// One run of `etude demo --json` (with `--report` and `--save-audio` into a fresh folder),
/// shared by the tests that read it: a debug build takes seconds to run the demo.
enum DemoRun {
  static let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "etude-demo-\(UUID().uuidString)")
  static let report = directory.appendingPathComponent("report.html")
  static let melody = directory.appendingPathComponent("demo.wav")
  static let take = directory.appendingPathComponent("demo-take.wav")

  static let output: Result<(status: Int32, out: String, err: String), any Error> = Result {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try runEtude(["demo", "--json", "--report", report.path, "--save-audio", melody.path])
  }

  /// The demo's JSON.
  static func json() throws -> [String: Any] {
    let result = try output.get()
    #expect(result.status == 0, "\(result.err)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }
}

/// The demo's second part: the built-in trumpet étude, played with built-in mistakes, graded as
/// `etude grade` grades a take. The mistakes are listed here from the étude and the take as
/// written in the demo's sources, not read back from the demo's own account of them.
@Suite struct DemoGradingTests {
  /// A built-in mistake: the written note it was made on (nil for a rest), where the grader
  /// should see it, the ratings that count, and what it measures there.
  struct Injected {
    var measure: Int
    var writtenPitch: Int?
    var category: String
    var ratings: Set<String>
    /// The measurement the grader should report (`offsetMs` for timing, `cents` for pitch),
    /// with a tolerance.
    var measured: (value: Double, within: Double)?
  }

  static let injected: [Injected] = [
    // Bar 3, D5 (half note) started 120 ms late.
    Injected(
      measure: 3, writtenPitch: 74, category: "timing", ratings: ["aBitLate", "veryLate"], measured: (120, 20)
    ),
    // Bar 4, E5 (open, 5th partial) played as G5, the open 6th partial: +300 cents and 2 more
    // for natural tuning.
    Injected(measure: 4, writtenPitch: 76, category: "pitch", ratings: ["upperPartial"], measured: (302, 10)),
    // Bar 4, F♯5 played as F5.
    Injected(measure: 4, writtenPitch: 78, category: "pitch", ratings: ["wrongNote"], measured: (-100, 10)),
    // Bar 4, a 0.2 s sound in the quarter rest.
    Injected(measure: 4, writtenPitch: nil, category: "rest", ratings: ["soundDuringRest"], measured: nil),
    // Bar 5, D5 played 30 cents flat.
    Injected(
      measure: 5, writtenPitch: 74, category: "pitch", ratings: ["aBitFlat", "veryFlat"], measured: (-30, 5)),
    // Bar 6, A4 not played.
    Injected(measure: 6, writtenPitch: 69, category: "missed", ratings: ["missed"], measured: nil),
  ]

  @Test func eachBuiltInMistakeIsFoundAtItsNoteAndNothingElseIsFlagged() throws {
    defer { try? FileManager.default.removeItem(at: DemoRun.directory) }
    let object = try DemoRun.json()
    let grading = try #require(object["grading"] as? [String: Any])
    let grades = try #require(grading["grades"] as? [String: Any])
    #expect(grades["schema"] as? String == "etude-grades/1")
    #expect(grades["instrument"] as? String == "trumpet")
    #expect(grades["title"] as? String == "Little Étude in G")
    let notes = try #require(grades["notes"] as? [[String: Any]])
    // A count-in rest, 17 notes and the rest in bar 4; B♭ trumpet: written a tone above sounding,
    // and every note placed on the page.
    #expect(notes.count == 19)
    #expect(notes.first?["status"] as? String == "rest" && notes.first?["measure"] as? Int == 1)
    for note in notes where note["status"] as? String != "rest" {
      #expect((note["writtenPitch"] as? Int).map { $0 - 2 } == note["soundingPitch"] as? Int, "\(note)")
      #expect(note["x"] is Double && note["y"] is Double, "\(note)")
    }
    #expect(notes.contains { $0["articulation"] as? String == "staccato" })
    // A4 and B4 slurred into the next note; C5, the slur's last, is released as usual.
    #expect(notes.count(where: { $0["articulation"] as? String == "legato" }) == 2)

    var mistakeIndices: Set<Int> = []
    for mistake in Self.injected {
      let matching = notes.filter {
        $0["measure"] as? Int == mistake.measure && $0["writtenPitch"] as? Int == mistake.writtenPitch
          && (mistake.writtenPitch != nil || $0["status"] as? String == "rest")
      }
      let note = try #require(matching.count == 1 ? matching.first : nil, "\(mistake)")
      let index = try #require(note["index"] as? Int)
      mistakeIndices.insert(index)
      switch mistake.category {
      case "missed":
        #expect(note["status"] as? String == "missed", "\(note)")
      case "rest":
        let rest = note["rest"] as? [String: Any]
        #expect(rest?["rating"] as? String == "soundDuringRest", "\(note)")
        // The extra sound is listed, inside the rest.
        let start = try #require(note["expectedOnsetSeconds"] as? Double)
        let end = start + (note["expectedDurationSeconds"] as? Double ?? 0)
        let extras = try #require(grades["extraSounds"] as? [[String: Any]])
        #expect(
          extras.contains { ($0["onsetSeconds"] as? Double).map { $0 > start && $0 < end } ?? false },
          "\(extras)")
      default:
        let grade = note[mistake.category] as? [String: Any]
        let rating = grade?["rating"] as? String ?? "none"
        #expect(mistake.ratings.contains(rating), "m. \(mistake.measure) \(mistake.category): \(note)")
        if let (value, within) = mistake.measured {
          let key = mistake.category == "timing" ? "offsetMs" : "cents"
          let measured = grade?[key] as? Double ?? .nan
          #expect(abs(measured - value) <= within, "m. \(mistake.measure) \(key) \(measured)")
        }
      }
    }
    #expect(mistakeIndices.count == Self.injected.count)

    // Every other note is played, on time, for its length, in tune; every other rest silent.
    for note in notes {
      let index = note["index"] as? Int ?? -1
      guard !mistakeIndices.contains(index) else { continue }
      #expect(note["severity"] as? Double == 0, "\(note)")
      if note["status"] as? String == "rest" {
        #expect((note["rest"] as? [String: Any])?["rating"] as? String == "correct", "\(note)")
      } else {
        #expect(note["status"] as? String == "played", "\(note)")
        for category in ["timing", "duration", "pitch"] {
          #expect(
            (note[category] as? [String: Any])?["rating"] as? String == "correct", "\(category): \(note)")
        }
      }
    }

    // The issues are the mistakes, worst first: a missed note (10) at the top.
    let issues = try #require(grades["issues"] as? [[String: Any]])
    #expect(Set(issues.compactMap { $0["index"] as? Int }) == mistakeIndices)
    let first = try #require(issues.first)
    #expect(mistakeIndices.contains(first["index"] as? Int ?? -1))
    #expect(first["rating"] as? String == "missed")
    let scores = issues.compactMap { $0["score"] as? Double }
    #expect(scores == scores.sorted(by: >))
    #expect(issues.allSatisfy { ($0["alert"] as? String ?? "").isEmpty == false })

    // The demo's own account agrees.
    #expect(grading["mistakesFound"] as? Int == Self.injected.count)
    #expect((grading["correctNotesFlagged"] as? [Int])?.isEmpty == true)
    let listed = try #require(grading["mistakes"] as? [[String: Any]])
    #expect(Set(listed.compactMap { $0["index"] as? Int }) == mistakeIndices)

    // The HTML report of the same grading, and both takes kept.
    let html = try String(contentsOf: DemoRun.report, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<h1>Little Étude in G</h1>"))
    let rows = try Regex(#"<tr data-rank="\d+" data-note="(\d+)""#)
    #expect(
      html.matches(of: rows).compactMap { Int($0.output[1].substring ?? "") }
        == issues.compactMap { $0["index"] as? Int })
    let take = try WAVReader(url: DemoRun.take)
    #expect(take.format.sampleRate == 44100)
    #expect(abs(Double(take.format.frameCount ?? 0) / 44100 - 15) < 0.01)
    #expect(FileManager.default.fileExists(atPath: DemoRun.melody.path))
    // The guitar tune, kept beside them (its measurements: SynthesisCommandTests).
    let tune = try WAVReader(url: DemoRun.directory.appendingPathComponent("demo-tab.wav"))
    #expect(Double(tune.format.frameCount ?? 0) / 44100 > 15)
  }
}
