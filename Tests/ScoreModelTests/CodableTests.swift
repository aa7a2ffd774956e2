import Foundation
import Testing

@testable import ScoreModel

@Suite struct CodableTests {
  struct Bundle: Codable, Equatable {
    var note: SpelledNote
    var name: NoteName
    var midi: MIDINote
    var interval: Interval
    var key: Key
    var type: ChordType
    var chord: Chord
    var label: ChordLabel
    var accidental: Accidental
    var tuning: Tuning
  }

  @Test func stringFormsRoundTrip() throws {
    let bundle = Bundle(
      note: try SpelledNote(parsing: "C#4"), name: try NoteName(parsing: "Bb"),
      midi: try MIDINote(validating: 60),
      interval: .majorThird, key: try Key(parsing: "F# harmonic minor"), type: .halfDiminishedSeventh,
      chord: try Chord(harte: "G:7/3"), label: .noChord, accidental: .doubleFlat, tuning: Tuning(a4Hz: 442))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(bundle), as: UTF8.self)
    #expect(
      json
        == #"{"accidental":-2,"chord":"G:7\/3","interval":"M3","key":"F# harmonic minor","label":"N","midi":60,"name":"Bb","note":"C#4","tuning":{"a4Hz":442},"type":"hdim7"}"#
    )
    #expect(try JSONDecoder().decode(Bundle.self, from: Data(json.utf8)) == bundle)
  }

  @Test(arguments: [
    #"["H4"]"#, #"["C"]"#,
  ])
  func badSpelledNotesFailToDecode(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([SpelledNote].self, from: Data(json.utf8))
    }
  }

  @Test func badValuesFailToDecode() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Chord].self, from: Data(#"["C:foo"]"#.utf8))
    }
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Chord].self, from: Data(#"["N"]"#.utf8)) }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Interval].self, from: Data(#"["P3"]"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Accidental].self, from: Data("[4]".utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Key].self, from: Data(#"["C blues"]"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Tuning].self, from: Data(#"[{"a4Hz":0}]"#.utf8))
    }
    #expect(throws: ScoreModelError.self) { try Tuning(validatingA4Hz: -440) }
    #expect(throws: ScoreModelError.self) { try Tuning(validatingA4Hz: .infinity) }
  }
}
