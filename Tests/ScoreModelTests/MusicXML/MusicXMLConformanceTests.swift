import Foundation
import Testing

@testable import ScoreModel

/// The LilyPond MusicXML test suite fixtures with their expectations (made once by
/// `Evaluation/musicxml/make_expectations.py` with music21, hand-checked where music21 is wrong;
/// see the fixtures' README).
enum MusicXMLFixtures {
  static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/musicxml")

  /// The fixtures that have an expectation, by base name.
  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { $0.hasSuffix(".expected.json") }.map { String($0.dropLast(".expected.json".count)) }.sorted()
  }

  static func scoreFile(_ name: String) -> URL? {
    for ext in ["xml", "musicxml", "mxl"] {
      let url = folder.appendingPathComponent("\(name).\(ext)")
      if FileManager.default.fileExists(atPath: url.path) { return url }
    }
    return nil
  }
}

/// A note as compared: part, onset, duration, sounding and written pitch, rest and grace flags.
struct ComparedNote: Hashable, CustomStringConvertible {
  var part: String
  var onset: Rational
  var duration: Rational
  var sounding: Int?
  var written: Int?
  var isGrace: Bool
  var description: String {
    "\(part)@\(onset)+\(duration) \(sounding.map(String.init) ?? "rest")\(written.map { "/w\($0)" } ?? "")\(isGrace ? " grace" : "")"
  }
}

@Suite struct MusicXMLConformanceTests {
  /// Files with no `<divisions>` at all: the issue asks for a typed error there (music21 guesses 1).
  static let withoutDivisions: Set<String> = ["41g-PartNoId", "41h-TooManyParts"]

  @Test(arguments: MusicXMLFixtures.names)
  func fixtureReadsAsExpected(name: String) throws {
    let notationOrder = name.hasSuffix(".no-expand-repeats")
    let base = notationOrder ? String(name.dropLast(".no-expand-repeats".count)) : name
    let url = try #require(MusicXMLFixtures.scoreFile(base), "no score file for \(name)")
    let expectedData = try Data(contentsOf: MusicXMLFixtures.folder.appendingPathComponent("\(name).expected.json"))
    let expected = try #require(try JSONSerialization.jsonObject(with: expectedData) as? [String: Any])
    let meta = expected["_meta"] as? [String: Any] ?? [:]
    if Self.withoutDivisions.contains(base) {
      #expect(throws: ScoreModelError.self) { try Score(contentsOf: url) }
      return
    }
    let score = try Score(contentsOf: url, options: MusicXMLOptions(expandsRepeats: !notationOrder))
    if meta["confidence"] as? String == "ambiguous", !notationOrder {
      // Repeat structures with no single right performance: a consistent timeline is enough.
      #expect(zip(score.notes, score.notes.dropFirst()).allSatisfy { $0.onset <= $1.onset })
      #expect(zip(score.measures, score.measures.dropFirst()).allSatisfy { $0.onset + $0.duration == $1.onset })
      return
    }

    func rational(_ any: Any?) -> Rational {
      guard let text = any as? String else { return .zero }
      let parts = text.split(separator: "/").compactMap { Int($0) }
      return parts.count == 2 ? Rational(parts[0], parts[1]) : Rational(parts.first ?? 0)
    }
    let wanted = Dictionary(
      grouping: (expected["notes"] as? [[String: Any]] ?? []).map { n in
        ComparedNote(
          part: n["part"] as? String ?? "", onset: rational(n["onsetQuarters"]), duration: rational(n["durationQuarters"]),
          sounding: n["soundingPitch"] as? Int, written: n["writtenPitch"] as? Int, isGrace: n["isGrace"] as? Bool ?? false)
      }, by: { $0 }
    ).mapValues(\.count)
    let got = Dictionary(
      grouping: score.notes.map { n in
        ComparedNote(
          part: n.part, onset: n.onset, duration: n.duration, sounding: n.soundingPitch?.rawValue,
          written: n.writtenPitch?.rawValue, isGrace: n.isGrace)
      }, by: { $0 }
    ).mapValues(\.count)
    let missing = wanted.filter { got[$0.key, default: 0] < $0.value }.keys.sorted { $0.description < $1.description }
    let extra = got.filter { wanted[$0.key, default: 0] < $0.value }.keys.sorted { $0.description < $1.description }
    #expect(missing.isEmpty && extra.isEmpty, "\(name): missing \(missing.prefix(6)), extra \(extra.prefix(6))")

    // Tempos and parts.
    let tempos = (expected["tempos"] as? [[String: Any]] ?? []).map { (rational($0["quarters"]), $0["bpm"] as? Double ?? 0) }
    #expect(score.tempos.map { "\($0.quarters)@\($0.bpm)" } == tempos.map { "\($0.0)@\($0.1)" }, "\(name) tempos")
    let parts = (expected["parts"] as? [[String: Any]] ?? []).map { "\($0["id"] as? String ?? "")/\($0["transposeSemitones"] as? Int ?? 0)" }
    #expect(score.parts.map { "\($0.id)/\($0.transposeSemitones)" } == parts, "\(name) parts")
  }

  /// Every fixture, cut short or with bytes flipped, reads or throws a typed error.
  @Test func truncatedAndByteFlippedFixturesNeverCrash() throws {
    var seed: UInt64 = 42
    func next() -> UInt64 {
      seed &+= 0x9E37_79B9_7F4A_7C15
      var z = seed
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var read = 0
    var rejected = 0
    for name in MusicXMLFixtures.names {
      guard let url = MusicXMLFixtures.scoreFile(name) else { continue }
      let bytes = [UInt8](try Data(contentsOf: url))
      guard !bytes.isEmpty else { continue }
      var variants: [[UInt8]] = []
      for fraction in [0.1, 0.5, 0.9] { variants.append(Array(bytes.prefix(Int(Double(bytes.count) * fraction)))) }
      for _ in 0..<4 {
        var flipped = bytes
        for _ in 0..<8 {
          let i = Int(next() % UInt64(flipped.count))
          flipped[i] ^= UInt8(truncatingIfNeeded: next() | 1)
        }
        variants.append(flipped)
      }
      for variant in variants {
        do {
          _ = try Score(musicXML: Data(variant))
          read += 1
        } catch {
          rejected += 1
          #expect(!error.description.isEmpty)
        }
      }
    }
    #expect(read + rejected > 0)
  }
}
