import Foundation
import ScoreModel
import Testing

@testable import PerformanceAnalysis

/// The brass partial tables: the trumpet's written notes per valve combination, natural tuning,
/// the other instruments' consistency, fingering lookup and JSON.
@Suite struct PartialTableTests {
  /// A written note's MIDI number from its name (`Bb3`, `F#4`).
  static func midi(_ name: String) -> Int { SpelledNote(name)!.midiNumber }

  @Test(arguments: [
    ("open", "C4 G4 C5 E5 G5 Bb5 C6"),
    ("2", "B3 F#4 B4 D#5 F#5 A5 B5"),
    ("1", "Bb3 F4 Bb4 D5 F5 Ab5 Bb5"),
    ("1+2", "A3 E4 A4 C#5 E5 G5 A5"),
    ("2+3", "Ab3 Eb4 Ab4 C5 Eb5 Gb5 Ab5"),
    ("1+3", "G3 D4 G4 B4 D5 F5 G5"),
    ("1+2+3", "F#3 C#4 F#4 Bb4 C#5 E5 F#5"),
  ])
  func trumpetPartialsTwoToEightPerValveCombination(name: String, notes: String) throws {
    let combination = try #require(PartialTable.trumpet.combinations.first { $0.name == name })
    let expected = Dictionary(
      uniqueKeysWithValues: notes.split(separator: " ").enumerated().map {
        ($0.offset + 2, Self.midi(String($0.element)))
      })
    #expect(combination.partials == expected)
  }

  @Test func theTrumpetsCombinationsGoFromFewestValvesToMost() {
    #expect(
      PartialTable.trumpet.combinations.map(\.name) == ["open", "2", "1", "1+2", "2+3", "1+3", "1+2+3"])
    #expect(PartialTable.trumpet.instrument == "trumpet")
    #expect(PartialTable.trumpet.avoidedPartials == [7])
  }

  @Test(arguments: [(2, 0.0), (3, 1.955), (4, 0), (5, -13.686), (6, 1.955), (7, -31.174), (8, 0)])
  func naturalTuningFromTheSecondPartial(partial: Int, cents: Double) throws {
    for combination in PartialTable.trumpet.combinations {
      let value = try #require(combination.naturalCents(ofPartial: partial))
      #expect(abs(value - cents) < 0.001, "\(combination.name) partial \(partial): \(value)")
    }
    #expect(PartialTable.trumpet.combinations[0].naturalCents(ofPartial: 9) == nil)
  }

  @Test func naturalTuningWithoutASecondPartialStartsFromTheLowest() {
    let combination = PartialTable.Combination(name: "high", partials: [4: 72, 5: 76, 6: 79])
    #expect(combination.naturalCents(ofPartial: 4) == 0)
    #expect(abs(combination.naturalCents(ofPartial: 5)! + 13.686) < 0.001)
  }

  @Test(arguments: [PartialTable.trombone, .horn, .tuba])
  func theOtherTablesAreSelfConsistent(table: PartialTable) throws {
    #expect(PartialTable.named(table.instrument) == table)
    let offsets = [2: 0, 3: 7, 4: 12, 5: 16, 6: 19, 7: 22, 8: 24, 9: 26, 10: 28, 11: 30, 12: 31]
    let lowest = try #require(table.combinations.first?.partials[2])
    for (k, combination) in table.combinations.enumerated() {
      // Each further combination or position lies a semitone lower, with the same partials.
      #expect(Set(combination.partials.keys) == Set(table.combinations[0].partials.keys))
      for (n, written) in combination.partials {
        #expect(written == lowest - k + offsets[n]!, "\(table.instrument) \(combination.name) partial \(n)")
      }
    }
    // Every note of the table has a fingering that contains it.
    for written in Set(table.combinations.flatMap(\.partials.values)) {
      let fingering = try #require(table.fingering(written: written))
      #expect(fingering.combination.partials[fingering.partial] == written)
    }
  }

  @Test func theDocumentedRangesOfTheOtherTables() {
    #expect(PartialTable.trombone.combinations.count == 7)
    #expect(PartialTable.trombone.combinations[0].name == "position 1")
    #expect(PartialTable.trombone.combinations[0].partials[2] == Self.midi("Bb2"))
    #expect(PartialTable.trombone.combinations[0].partials[8] == Self.midi("Bb4"))
    #expect(PartialTable.trombone.combinations[6].partials[2] == Self.midi("E2"))
    #expect(PartialTable.horn.combinations[0].partials[2] == Self.midi("C3"))
    #expect(PartialTable.horn.combinations[0].partials.keys.sorted() == Array(2...12))
    #expect(PartialTable.tuba.combinations[0].partials[2] == Self.midi("Bb1"))
    #expect(PartialTable.builtIn.map(\.instrument) == ["trumpet", "trombone", "horn", "tuba"])
    #expect(PartialTable.named("Trumpet") == .trumpet)
    #expect(PartialTable.named("kazoo") == nil)
  }

  @Test(arguments: [
    ("C5", "open", 4), ("E5", "open", 5), ("B4", "2", 4), ("D5", "1", 5), ("A4", "1+2", 4),
    ("F#3", "1+2+3", 2),
    ("Bb5", "1", 8), ("A5", "1+2", 8),
  ])
  func theStandardFingering(note: String, combination: String, partial: Int) throws {
    let fingering = try #require(PartialTable.trumpet.fingering(written: Self.midi(note)))
    #expect(fingering.combination.name == combination)
    #expect(fingering.partial == partial)
  }

  @Test func theSeventhPartialIsTheLastResort() throws {
    let table = PartialTable(
      instrument: "test",
      combinations: [
        .init(name: "a", partials: [6: 67, 7: 70, 8: 72]), .init(name: "b", partials: [6: 70, 7: 69]),
      ])
    // 70 is a's 7th and b's 6th: b wins although a comes first.
    #expect(table.fingering(written: 70)?.combination.name == "b")
    #expect(table.fingering(written: 70)?.partial == 6)
    #expect(table.fingering(written: 72)?.combination.name == "a")
    // 69 is only ever a 7th: that is the fingering, for lack of another.
    #expect(table.fingering(written: 69)?.combination.name == "b")
    #expect(table.fingering(written: 69)?.partial == 7)
    #expect(table.fingering(written: 50) == nil)
  }

  @Test func aPlayedPitchIsThePartialWhoseNaturalPitchIsNearest() throws {
    let table = PartialTable.trumpet
    let c5 = Self.midi("C5")
    // Natural E5 (14 cents low), G5, and G4 on the open fingering of written C5.
    #expect(table.partial(playedWrittenMIDI: 75.863, expectedWritten: c5, toleranceCents: 40)! == (5, 4))
    #expect(table.partial(playedWrittenMIDI: 79.02, expectedWritten: c5, toleranceCents: 40)! == (6, 4))
    #expect(table.partial(playedWrittenMIDI: 67.02, expectedWritten: c5, toleranceCents: 40)! == (3, 4))
    // The note's own partial is never reported, nor a pitch between partials.
    #expect(table.partial(playedWrittenMIDI: 72, expectedWritten: c5, toleranceCents: 40) == nil)
    #expect(table.partial(playedWrittenMIDI: 74, expectedWritten: c5, toleranceCents: 40) == nil)
    // An unknown note has no fingering.
    #expect(table.partial(playedWrittenMIDI: 76, expectedWritten: 20, toleranceCents: 40) == nil)
  }

  @Test(arguments: PartialTable.builtIn)
  func everyBuiltInTableSurvivesJSON(table: PartialTable) throws {
    let data = try JSONEncoder().encode(table)
    #expect(try JSONDecoder().decode(PartialTable.self, from: data) == table)
  }

  @Test func aTableWrittenByHandLoads() throws {
    let json = #"""
      {"instrument": "cornet", "avoidedPartials": [7],
       "combinations": [{"name": "open", "partials": {"2": 60, "3": 67, "4": 72}},
                        {"name": "2", "partials": {"2": 59, "3": 66, "4": 71}}]}
      """#
    let table = try JSONDecoder().decode(PartialTable.self, from: Data(json.utf8))
    #expect(table.instrument == "cornet")
    #expect(table.combinations[1].partials == [2: 59, 3: 66, 4: 71])
    #expect(table.fingering(written: 71)?.combination.name == "2")
  }

  /// Found by a hand-made input run through the grading fuzz target: the distance between two
  /// notes of a table read from JSON overflowed Int and trapped.
  @Test func fuzzRegressionExtremeNoteNumbersDoNotTrap() throws {
    let json = #"""
      {"instrument": "x", "avoidedPartials": [],
       "combinations": [{"name": "a", "partials": {"2": -9223372036854775808, "3": 9223372036854775807}}]}
      """#
    let table = try JSONDecoder().decode(PartialTable.self, from: Data(json.utf8))
    let cents = try #require(table.combinations[0].naturalCents(ofPartial: 3))
    #expect(cents.isFinite && cents < -1e20)
    #expect(table.fingering(written: Int.max)?.partial == 3)
    #expect(table.partial(playedWrittenMIDI: 72, expectedWritten: Int.max, toleranceCents: 40) == nil)
  }

  @Test(arguments: [
    #"{"instrument": "x", "combinations": [{"name": "a", "partials": {"two": 60}}], "avoidedPartials": []}"#,
    #"{"instrument": "x", "combinations": [{"name": "a", "partials": [60, 67]}], "avoidedPartials": []}"#,
    #"{"instrument": "x", "combinations": []}"#,
    #"{"instrument": 3, "combinations": [], "avoidedPartials": []}"#,
    "[",
  ])
  func malformedTablesThrowADecodingError(json: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PartialTable.self, from: Data(json.utf8)) }
  }
}
