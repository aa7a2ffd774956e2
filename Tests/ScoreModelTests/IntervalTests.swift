import Testing

@testable import ScoreModel

@Suite struct IntervalTests {
  @Test func qualitiesAndSizes() {
    #expect(Interval.majorThird.semitones == 4 && Interval.majorThird.description == "M3")
    #expect(Interval.diminishedFifth.description == "d5" && Interval.diminishedFifth.semitones == 6)
    #expect(Interval.augmentedFourth.description == "A4")
    #expect(Interval(.major, 9)?.semitones == 14)
    #expect(Interval(.major, 5) == nil && Interval(.perfect, 3) == nil)
    #expect(Interval(.diminished(1), 7)?.semitones == 9)
    for name in [
      "P1", "m2", "M2", "m3", "M3", "P4", "A4", "d5", "P5", "m6", "M6", "m7", "M7", "P8", "M9", "AA4", "dd7",
    ] {
      #expect(Interval(name)?.description == name, "\(name)")
    }
    #expect(Interval("X3") == nil && Interval("M") == nil)
  }

  @Test func spelledTransposition() throws {
    let c4 = try SpelledNote(parsing: "C4")
    #expect(c4.transposed(up: .majorThird)?.description == "E4")
    #expect(try SpelledNote(parsing: "E4").transposed(up: .minorThird)?.description == "G4")
    #expect(try SpelledNote(parsing: "F#4").transposed(up: .majorThird)?.description == "A#4")
    #expect(try SpelledNote(parsing: "B3").transposed(up: .minorSecond)?.description == "C4")
    #expect(try SpelledNote(parsing: "E4").transposed(down: .majorThird)?.description == "C4")
    #expect(try SpelledNote(parsing: "C4").transposed(down: .minorSecond)?.description == "B3")
    #expect(c4.transposed(up: Interval(.major, 9)!)?.description == "D5")
    #expect(try SpelledNote(parsing: "C4").transposed(up: .augmentedFourth)?.description == "F#4")
  }

  @Test func intervalBetweenNotes() throws {
    let pairs: [(String, String, String)] = [
      ("C4", "E4", "M3"), ("E4", "G4", "m3"), ("C4", "G4", "P5"), ("B3", "F4", "d5"), ("F4", "B4", "A4"),
      ("C4", "C5", "P8"), ("C4", "D5", "M9"), ("G4", "C4", "P5"), ("C4", "Eb4", "m3"), ("C4", "D#4", "A2"),
    ]
    for (a, b, expected) in pairs {
      let interval = Interval.between(try SpelledNote(parsing: a), try SpelledNote(parsing: b))
      #expect(interval?.description == expected, "\(a)–\(b)")
    }
  }

  /// Every named interval from each of 21 spelled starting notes: transposing up then measuring
  /// gives the interval back, and down undoes up.
  @Test(arguments: [
    "P1", "m2", "M2", "A2", "m3", "M3", "P4", "A4", "d5", "P5", "A5", "m6", "M6", "d7", "m7", "M7", "P8",
    "m9",
    "M9", "P11", "M13",
  ])
  func transposeThenMeasure(name: String) throws {
    let interval = try Interval(parsing: name)
    var checked = 0
    for letter in Letter.allCases {
      for accidental in [Accidental.flat, .natural, .sharp] {
        let start = SpelledNote(letter, accidental, octave: 4)
        guard let up = start.transposed(up: interval) else { continue }
        #expect(up.midiNumber - start.midiNumber == interval.semitones, "\(start) + \(name)")
        #expect(up.diatonicNumber - start.diatonicNumber == interval.number - 1)
        #expect(Interval.between(start, up) == interval, "\(start)–\(up)")
        #expect(up.transposed(down: interval) == start)
        #expect(start.name.transposed(up: interval) == up.name)
        #expect(up.name.transposed(down: interval) == start.name)
        checked += 1
      }
    }
    // Only spellings past three sharps or flats may be skipped.
    #expect(checked >= 19)
  }

  @Test func inversionAndCompounds() throws {
    let pairs = [
      ("M3", "m6"), ("P4", "P5"), ("A4", "d5"), ("P1", "P8"), ("m2", "M7"), ("M9", "m7"), ("d7", "A2"),
    ]
    for (a, b) in pairs {
      #expect(try Interval(parsing: a).inverted.description == b, "\(a)")
      if a != "M9" { #expect(try Interval(parsing: b).inverted.description == a, "\(b)") }
    }
    #expect(Interval.majorNinth.simpleNumber == 2 && Interval.perfectOctave.simpleNumber == 8)
    #expect(Interval.majorThirteenth.semitones == 21 && Interval.perfectEleventh.semitones == 17)
    #expect(Interval.minorThird.quality == .minor && Interval(.augmented(2), 4)?.quality == .augmented(2))
    #expect(Interval(number: 3, semitones: 9) == nil && Interval(number: 0, semitones: 0) == nil)
  }

  @Test func parseErrorsSayWhere() {
    #expect(
      throws: ScoreModelError.parse(text: "X3", offset: 0, expected: "an interval quality P, M, m, A or d")
    ) {
      try Interval(parsing: "X3")
    }
    #expect(throws: ScoreModelError.parse(text: "M", offset: 1, expected: "an interval number 1 or more")) {
      try Interval(parsing: "M")
    }
    #expect(throws: ScoreModelError.self) { try Interval(parsing: "P3") }
    #expect(throws: ScoreModelError.self) { try Interval(parsing: "M3x") }
    #expect(Interval(harteDegree: "+3") == nil && Interval(harteDegree: "b#3") == nil)
    #expect(Interval(harteDegree: "14") == nil && Interval(harteDegree: "") == nil)
    #expect(
      Interval(harteDegree: "bb7") == .diminishedSeventh && Interval(harteDegree: "#9")?.semitones == 15)
  }
}
