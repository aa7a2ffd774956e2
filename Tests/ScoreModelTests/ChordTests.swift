import Testing

@testable import ScoreModel

@Suite struct ChordTests {
  static let roots = ["C", "C#", "Db", "D", "Eb", "E", "F", "F#", "Gb", "G", "Ab", "A", "Bb", "B", "Cb"].map {
    NoteName($0)!
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
}

@Suite struct TranspositionTests {
  @Test func writtenAndConcertPitch() throws {
    let trumpet = TransposingInstrument.bFlatTrumpet
    #expect(trumpet.concert(ofWritten: try SpelledNote(parsing: "D4"))?.description == "C4")
    #expect(trumpet.concert(ofWritten: try SpelledNote(parsing: "F#4"))?.description == "E4")
    #expect(trumpet.written(ofConcert: try SpelledNote(parsing: "Bb3"))?.description == "C4")
    #expect(
      TransposingInstrument.altoSaxophone.concert(ofWritten: try SpelledNote(parsing: "A4"))?.description
        == "C4")
    #expect(
      TransposingInstrument.frenchHorn.concert(ofWritten: try SpelledNote(parsing: "G4"))?.description == "C4"
    )
    #expect(
      TransposingInstrument.guitar.concert(ofWritten: try SpelledNote(parsing: "E4"))?.description == "E3")
    #expect(
      TransposingInstrument.tenorSaxophone.concert(ofWritten: try SpelledNote(parsing: "D5"))?.description
        == "C4")
    #expect(
      TransposingInstrument.piccolo.concert(ofWritten: try SpelledNote(parsing: "C5"))?.description == "C6")
    #expect(trumpet.concert(ofWritten: MIDINote(62)!) == MIDINote(60))
    #expect(trumpet.written(ofConcert: MIDINote(60)!) == MIDINote(62))
    #expect(trumpet.concert(ofWritten: MIDINote(0)!) == nil)
    let fromMusicXML = TransposingInstrument(name: "tenor sax", chromatic: -2, diatonic: -1, octaveChange: -1)
    #expect(fromMusicXML.chromatic == -14 && fromMusicXML.diatonic == -8)
  }
}
