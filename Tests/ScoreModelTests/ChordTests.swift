import Testing

@testable import ScoreModel

@Suite struct ChordTests {
  /// Every letter with flat, natural and sharp.
  static let roots = Letter.allCases.flatMap { letter in
    [Accidental.flat, .natural, .sharp].map { NoteName(letter, $0) }
  }

  @Test(arguments: ChordType.all)
  func harteRoundTripOverRootsAndInversions(type: ChordType) throws {
    for root in Self.roots {
      for bass in [nil] + type.intervals.dropFirst().map(Optional.some) {
        let chord = Chord(root, type, bass: bass)
        let parsed = try Chord(harte: chord.harte)
        #expect(parsed == chord, "\(chord.harte)")
        #expect(parsed.pitchClasses.count == type.intervals.count)
      }
    }
  }

  @Test func knownLabels() throws {
    let g7 = try Chord(harte: "G:7/3")
    #expect(g7.root == .g && g7.type == .dominantSeventh && g7.bassPitchClass == PitchClass(11))
    #expect(g7.inversion == 1)
    #expect(try Chord(harte: "A:min7").pitchClasses == [9, 0, 4, 7].map { PitchClass($0) })
    #expect(try Chord(harte: "C").type == .major)
    #expect(try Chord(harte: "C:(1,b3,5)").harte == "C:min")
    #expect(try Chord(harte: "C:maj(7)").harte == "C:maj7")
    #expect(try Chord(harte: "C:min7(*b7)").harte == "C:min")
    #expect(try Chord(harte: "C:(1,3,#5,b7)").harte == "C:(1,3,#5,b7)")
    #expect(try Chord(harte: "C:maj/b7").inversion == nil)
    #expect(try Chord(harte: "C:maj/5").inversion == 2)
    #expect(try Chord(harte: "Db:hdim7").noteNames.map(\.description) == ["Db", "Fb", "Abb", "Cb"])
    #expect(try Chord(harte: "C:min7").noteNames.map(\.description) == ["C", "Eb", "G", "Bb"])
    #expect(try ChordLabel(harte: "N") == .noChord)
    #expect(try ChordLabel(harte: "X") == .unknown)
    #expect(ChordLabel("F#:sus4")?.description == "F#:sus4")
  }

  @Test func parseErrorsNameTheCharacter() {
    #expect(throws: ScoreModelError.parse(text: "H:maj", offset: 0, expected: "a note letter A-G")) {
      try ChordLabel(harte: "H:maj")
    }
    #expect(
      throws: ScoreModelError.parse(
        text: "C:foo", offset: 2, expected: "a chord shorthand such as maj, min, 7, min7, hdim7, sus4")
    ) {
      try ChordLabel(harte: "C:foo")
    }
    #expect(
      throws: ScoreModelError.parse(
        text: "C:maj/9x", offset: 6, expected: "a bass degree such as 3, b3, 5 or b7")
    ) {
      try ChordLabel(harte: "C:maj/9x")
    }
    #expect(throws: ScoreModelError.self) { try ChordLabel(harte: "") }
    #expect(throws: ScoreModelError.self) { try ChordLabel(harte: "C:(1,3") }
    #expect(throws: ScoreModelError.self) { try ChordLabel(harte: "C:(1,q)") }
    #expect(throws: ScoreModelError.self) { try Chord(harte: "N") }
  }

  @Test func intervalListsMapByPitchClassSet() throws {
    #expect(try Chord(harte: "C:(1,#2,5)").type == .minor)
    #expect(try Chord(harte: "C:(3,5)").type == .major)
    #expect(try Chord(harte: "C:(1,5,b3,b7)").harte == "C:min7")
    #expect(try Chord(harte: "D:(1,3,5,13)").harte == "D:maj6")
    let added = try Chord(harte: "C:maj(9)")
    #expect(added.type.shorthand == nil && added.harte == "C:(1,3,5,9)")
    #expect(try Chord(harte: added.harte) == added)
    #expect(try ChordType(harte: "min7(*b7)") == .minor)
    #expect(try ChordType(harte: "(1,3,#5,b7)").description == "(1,3,#5,b7)")
    #expect(throws: ScoreModelError.self) { try ChordType(harte: "maj/3") }
    for type in ChordType.all {
      let explicit = "(" + type.intervals.map(\.harteDegree).joined(separator: ",") + ")"
      #expect(try ChordType(harte: explicit) == type, "\(type)")
      #expect(
        type.pitchClasses.first == PitchClass(0) && Set(type.pitchClasses).count == type.intervals.count)
    }
  }

  @Test func bassNotes() throws {
    let g7 = try Chord(harte: "G:7/3")
    #expect(g7.bassNote == .b)
    #expect(try Chord(.c, .major, bassNote: .e).harte == "C:maj/3")
    #expect(try Chord(.c, .major, bassNote: NoteName("Bb")!).harte == "C:maj/b7")
    #expect(try Chord(.c, .augmented, bassNote: NoteName("G#")!).harte == "C:aug/#5")
    #expect(try Chord(.c, .major, bassNote: .c).bass == nil)
    #expect(try Chord(NoteName("Eb")!, .minorSeventh, bassNote: NoteName("Db")!).inversion == 3)
    #expect(try Chord(harte: "C:maj/b7").pitchClasses == [0, 4, 7, 10].map { PitchClass($0) })
    #expect(try Chord(harte: "F#:sus4").noteNames.map(\.description) == ["F#", "B", "C#"])
  }

  @Test func errorMessagesNameWhatWasFound() {
    let error = ScoreModelError.parse(text: "C:foo", offset: 2, expected: "a chord shorthand")
    #expect(error.found == "foo")
    #expect(
      error.description == "cannot parse \"C:foo\" at character 2: expected a chord shorthand, found \"foo\"")
    let atEnd = ScoreModelError.parse(text: "C:(1,3", offset: 6, expected: "\")\"")
    #expect(atEnd.found == nil && atEnd.description.hasSuffix("found the end of the text"))
    #expect(
      ScoreModelError.outOfRange(what: "MIDI note", value: 128, range: 0...127).description
        == "MIDI note 128 is outside 0...127")
    #expect(throws: ScoreModelError.parse(text: "", offset: 0, expected: "a note letter A-G")) {
      try ChordLabel(harte: "")
    }
    #expect(
      throws: ScoreModelError.parse(
        text: "C:maj(9)x", offset: 8, expected: "\":\", \"/\" or the end of the label")
    ) {
      try ChordLabel(harte: "C:maj(9)x")
    }
    #expect(
      throws: ScoreModelError.parse(
        text: "C:maj/", offset: 6, expected: "a bass degree such as 3, b3, 5 or b7")
    ) {
      try ChordLabel(harte: "C:maj/")
    }
  }
}
