import Testing

@testable import ScoreModel

@Suite struct KeyTests {
  @Test(arguments: Key.standardKeys)
  func eachScaleUsesEveryLetterOnce(key: Key) {
    let degrees = key.degrees
    #expect(Set(degrees.map(\.letter)).count == 7)
    #expect(degrees[0] == key.tonic)
    #expect(
      degrees.map(\.pitchClass.rawValue)
        == key.scale.semitones.map { key.tonic.pitchClass.transposed(by: $0).rawValue })
    #expect(abs(key.signature) <= 7)
    // Every degree carries the signature's kind of accidental only.
    #expect(
      degrees.allSatisfy { key.signature >= 0 ? $0.accidental.semitones >= 0 : $0.accidental.semitones <= 0 })
  }

  @Test func signatures() {
    #expect(Key(.d, .major).signature == 2)
    #expect(Key(NoteName("Db")!, .major).signature == -5)
    #expect(Key(NoteName("C#")!, .major).signature == 7)
    #expect(Key(NoteName("Cb")!, .major).signature == -7)
    #expect(Key(.a, .naturalMinor).signature == 0)
    #expect(Key(.a, .harmonicMinor).signature == 0)
    #expect(Key(NoteName("F#")!, .naturalMinor).signature == 3)
    #expect(Key(.d, .dorian).signature == 0)
    #expect(Key(.g, .mixolydian).signature == 0)
    #expect(Key(.e, .major).relative == Key(NoteName("C#")!, .naturalMinor))
    #expect(Key(.g, .naturalMinor).relative == Key(NoteName("Bb")!, .major))
    #expect(Key(.c, .major).parallel == Key(.c, .naturalMinor))
  }

  @Test func keyAwareSpelling() {
    let fSharpOrGFlat = MIDINote(66)!
    #expect(SpelledNote(midi: fSharpOrGFlat, in: Key(.d, .major)).description == "F#4")
    #expect(SpelledNote(midi: fSharpOrGFlat, in: Key(NoteName("Db")!, .major)).description == "Gb4")
    #expect(SpelledNote(midi: MIDINote(68)!, in: Key(.a, .harmonicMinor)).description == "G#4")
    #expect(Key(.a, .harmonicMinor).degrees.map(\.description) == ["A", "B", "C", "D", "E", "F", "G#"])
    #expect(Key(.a, .melodicMinor).degrees.map(\.description) == ["A", "B", "C", "D", "E", "F#", "G#"])
    // Chromatic notes follow the key's side.
    #expect(SpelledNote(midi: MIDINote(63)!, in: Key(.e, .major)).description == "D#4")
    #expect(SpelledNote(midi: MIDINote(61)!, in: Key(.f, .major)).description == "Db4")
    #expect(SpelledNote(midi: MIDINote(70)!).description == "Bb4")
    #expect(SpelledNote(midi: MIDINote(61)!).description == "C#4")
    // The octave follows the letter: B# and Cb cross the octave line.
    #expect(SpelledNote(midi: MIDINote(60)!, in: Key(NoteName("C#")!, .major)).description == "B#3")
    #expect(SpelledNote(midi: MIDINote(59)!, in: Key(NoteName("Gb")!, .major)).description == "Cb4")
    #expect(Key(.c, .major).contains(PitchClass(4)) && !Key(.c, .major).contains(PitchClass(6)))
  }
}
