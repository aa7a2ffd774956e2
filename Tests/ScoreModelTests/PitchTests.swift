import Foundation
import Testing

@testable import ScoreModel

@Suite struct PitchTests {
  @Test func midiNoteIsChecked() throws {
    #expect(MIDINote(0) != nil && MIDINote(127) != nil)
    #expect(MIDINote(-1) == nil && MIDINote(128) == nil)
    #expect(throws: ScoreModelError.outOfRange(what: "MIDI note", value: 200, range: 0...127)) {
      try MIDINote(validating: 200)
    }
    let c4 = try MIDINote(validating: 60)
    #expect(c4.octave == 4 && c4.pitchClass == PitchClass(0))
    #expect(MIDINote(0)!.octave == -1)
    #expect(c4.transposed(by: 100) == nil)
    let json = try JSONEncoder().encode([c4])
    #expect(String(decoding: json, as: UTF8.self) == "[60]")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([MIDINote].self, from: Data("[128]".utf8))
    }
  }

  @Test(arguments: 0...127)
  func everyMIDINoteRoundTripsThroughSpellingAndFrequency(number: Int) throws {
    let note = try MIDINote(validating: number)
    for key in [Key.cMajor, Key(NoteName("Db")!, .major), Key(NoteName("F#")!, .major)] {
      let spelled = SpelledNote(midi: note, in: key)
      #expect(spelled.midiNote == note, "\(spelled) in \(key)")
      #expect(try SpelledNote(parsing: spelled.description) == spelled)
    }
    for a4 in [440.0, 442.0] {
      let tuning = Tuning(a4Hz: a4)
      let frequency = tuning.frequencyHz(of: note)
      let nearest = try #require(tuning.nearestNote(frequencyHz: frequency))
      #expect(nearest.note == note)
      #expect(abs(nearest.cents) < 1e-9)
    }
  }

  @Test func tuningConversions() throws {
    let tuning = Tuning.standard
    #expect(abs(tuning.frequencyHz(midi: 60) - 261.6255653) < 1e-6)
    #expect(abs(tuning.frequencyHz(midi: 69) - 440) < 1e-12)
    #expect(abs(Tuning(a4Hz: 442).frequencyHz(midi: 69) - 442) < 1e-12)
    #expect(abs(try #require(Tuning.cents(fromHz: 440, toHz: 880)) - 1200) < 1e-9)
    #expect(abs(try #require(Tuning.cents(fromHz: 440, toHz: 466.1637615)) - 100) < 1e-6)
    let sharp = try #require(tuning.nearestNote(frequencyHz: 445))
    #expect(sharp.note == MIDINote(69) && abs(sharp.cents - 19.56) < 0.01)
    #expect(tuning.midi(frequencyHz: 0) == nil && tuning.midi(frequencyHz: .nan) == nil)
    #expect(tuning.nearestNote(frequencyHz: 50_000) == nil)
  }

  @Test func spelledNotesParseAndPrint() throws {
    #expect(try SpelledNote(parsing: "C4").midiNumber == 60)
    #expect(try SpelledNote(parsing: "B#3").midiNumber == 60)
    #expect(try SpelledNote(parsing: "Cb4").midiNumber == 59)
    #expect(try SpelledNote(parsing: "E##5").midiNumber == 78)
    #expect(try SpelledNote(parsing: "Bb-1").midiNumber == 10)
    #expect(try SpelledNote(parsing: "F♯3").description == "F#3")
    #expect(try SpelledNote(parsing: "Cx4").description == "C##4")
    #expect(throws: ScoreModelError.parse(text: "H4", offset: 0, expected: "a note letter A-G")) {
      try SpelledNote(parsing: "H4")
    }
    #expect(throws: ScoreModelError.parse(text: "C#", offset: 2, expected: "an octave number from -2 to 10"))
    {
      try SpelledNote(parsing: "C#")
    }
    #expect(throws: ScoreModelError.self) { try SpelledNote(parsing: "C####4") }
  }
}
