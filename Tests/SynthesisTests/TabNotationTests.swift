import Testing

@testable import Synthesis

@Suite struct TabNotationTests {
  @Test func readsTheSeedExampleExactly() throws {
    let tab = try Tab(parsing: Tab.seedExampleText)
    #expect(
      tab.events == [
        .notes([TabPosition(string: 1, fret: 3)], beats: 1.5, letRing: false),
        .notes([TabPosition(string: 1, fret: 2)], beats: 0.5, letRing: false),
        .notes([TabPosition(string: 1, fret: 3)], beats: 1, letRing: false),
        .notes([TabPosition(string: 1, fret: 3)], beats: 0.5, letRing: false),
        .notes([TabPosition(string: 1, fret: 7)], beats: 0.5, letRing: false),
      ])
    let notes = tab.notes()
    #expect(notes.map(\.startSeconds) == [0, 0.75, 1.0, 1.5, 1.75])
    #expect(notes.map(\.durationSeconds) == [0.75, 0.25, 0.5, 0.25, 0.25])
    // G4, F♯4, B4 from the tuning's E4 = 329.63 Hz.
    #expect(abs(notes[0].pitch - 67) < 0.01)
    #expect(abs(notes[1].pitch - 66) < 0.01)
    #expect(abs(notes[4].pitch - 71) < 0.01)
  }

  @Test func toleratesWhitespaceAndLineBreaks() throws {
    let spaced = try Tab(parsing: "  ( \"13\" , 1.5 )\n|\t(\"12\",0.5) |")
    #expect(spaced.events.count == 2)
    #expect(spaced.events[1] == .notes([TabPosition(string: 1, fret: 2)], beats: 0.5, letRing: false))
  }

  @Test func threeDigitsAreStringThenTwoFretDigitsAndTheExplicitFormsAgree() throws {
    let tab = try Tab(parsing: #"("112",1)|("1:12",1)|("1-12",1)|("6:0",1)"#)
    let expected = TabPosition(string: 1, fret: 12)
    #expect(tab.events[0] == .notes([expected], beats: 1, letRing: false))
    #expect(tab.events[1] == tab.events[0])
    #expect(tab.events[2] == tab.events[0])
    #expect(tab.events[3] == .notes([TabPosition(string: 6, fret: 0)], beats: 1, letRing: false))
  }

  @Test func chordsRestsFractionsTempoAndRing() throws {
    let tab = try Tab(parsing: #"tempo=60 | ("53+42+30",2,ring) | ("r",1) | ("10",1/3) | tempo = 120 | ("11",1)"#)
    #expect(tab.initialTempo == 60)
    #expect(tab.events.count == 6)
    let notes = tab.notes()
    #expect(notes.count == 5)
    // The chord's three notes start together and ring until the end (2 + 1 + 1/3 s at 60, then 0.5 s).
    #expect(notes[0..<3].allSatisfy { $0.startSeconds == 0 })
    #expect(notes[0..<3].allSatisfy { abs($0.durationSeconds - (3 + 1.0 / 3 + 0.5)) < 1e-9 })
    #expect(abs(notes[3].startSeconds - 3) < 1e-9)
    #expect(abs(notes[3].durationSeconds - 1.0 / 3) < 1e-9)
    #expect(abs(notes[4].startSeconds - (3 + 1.0 / 3)) < 1e-9)
    #expect(abs(notes[4].durationSeconds - 0.5) < 1e-9)
  }

  @Test func ringEndsWhenItsStringIsPlayedAgain() throws {
    let notes = try Tab(parsing: #"("10",1,ring)|("20",1)|("12",1)"#).notes()
    #expect(notes[0].durationSeconds == 1.0)  // cut at 1 s by the next note on string 1
    #expect(notes[1].durationSeconds == 0.5)
  }

  @Test func anExplicitTempoScalesTheTabsOwnTempi() throws {
    let tab = try Tab(parsing: #"tempo=60|("10",1)|tempo=120|("10",1)"#)
    let notes = tab.notes(tempo: 120)
    #expect(notes.map(\.startSeconds) == [0, 0.5])
    #expect(notes.map(\.durationSeconds) == [0.5, 0.25])
    #expect(try Tab(parsing: #"("10",1)"#).notes().first?.durationSeconds == 0.5)  // default 120
  }

  @Test(arguments: [
    (#"("13",1.5)|("1",1)"#, 15, "a fret digit"),
    (#"("13",1.5)x"#, 11, "\"(\" to start an item"),
    (#"("13" 1.5)"#, 7, "\",\" and a duration"),
    (#"("13",)"#, 7, "a duration"),
    (#"("13",1.5"#, 10, "\")\""),
    (#"(13,1)"#, 2, "a quoted string"),
    (#"("13",1.)"#, 9, "a digit after the decimal point"),
    (#"tempo:90"#, 6, "\"=\""),
    (#"("13+",1)"#, 6, "a string digit"),
  ])
  func syntaxErrorsNameTheColumnAndWhatWasExpected(text: String, column: Int, expected: String) {
    #expect {
      try Tab(parsing: text)
    } throws: { error in
      guard case .tabSyntax(let c, let e, _) = error as? SynthesisError else { return false }
      return c == column && e.contains(expected)
    }
  }

  @Test func theMessageShowsWhatWasFound() {
    do {
      _ = try Tab(parsing: #"("1x",1)"#)
      Issue.record("parsed")
    } catch {
      #expect(error.description == "tab, column 4: expected a fret digit, found \"x\"")
    }
  }

  @Test(arguments: [
    (#"("73",1)"#, 3), (#"("1:25",1)"#, 3), (#"("13",0)"#, 7), (#"("13",1/0)"#, 7), (#"tempo=0"#, 1),
    (#"("10+13",1)"#, 10),
  ])
  func unplayableItemsAreInvalid(text: String, column: Int) {
    #expect {
      try Tab(parsing: text)
    } throws: { error in
      guard case .invalidTab(let c, _) = error as? SynthesisError else { return false }
      return c == column
    }
  }

  @Test func formatRoundTrips() throws {
    let tab = try Tab(parsing: #"tempo=90|("13",1.5)|("1:12+30",0.25,ring)|("r",2)"#)
    let text = TabNotation.format(tab)
    #expect(text == #"tempo=90|("13",1.5)|("1:12+30",0.25,ring)|("r",2)"#)
    #expect(try Tab(parsing: text) == tab)
  }

  @Test func theDemoTuneParsesAndEndsOnAChord() throws {
    let tab = try Tab(parsing: Tab.demoTuneText)
    #expect(tab == Tab.demoTune)
    #expect(tab.initialTempo == 100)
    let notes = tab.notes()
    #expect(notes.count == 34)
    #expect(notes.suffix(5).allSatisfy { $0.startSeconds == notes.last!.startSeconds })
  }

  @Test func everyGarbageInputThrowsOrParsesWithoutTrapping() {
    var random = SplitMix(seed: 42)
    let alphabet = Array(#"()"|,.:+-/0123456789 rtempo=ring\#n"#.unicodeScalars)
    for _ in 0..<500 {
      var text = ""
      for _ in 0..<Int(random.next() % 24) { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
      do { _ = try Tab(parsing: text) } catch {}
    }
  }
}

/// A tiny deterministic generator for the fuzz test.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
