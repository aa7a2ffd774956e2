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

  /// Every pitch class in every standard key: the spelling sounds right, scale notes keep the
  /// scale's spelling, and chromatic notes use one accidental at most, except the raised sixth
  /// and seventh of minor keys (F## in G# minor).
  @Test(arguments: Key.standardKeys)
  func everyPitchClassIsSpelledSensibly(key: Key) {
    var names: Set<NoteName> = []
    let raised = Key(key.tonic, .melodicMinor).degrees
    for pitchClass in PitchClass.all {
      let name = key.spelling(of: pitchClass)
      #expect(name.pitchClass == pitchClass, "\(pitchClass) in \(key)")
      #expect(
        abs(name.accidental.semitones) <= 1 || (key.scale.isMinor && raised.contains(name)),
        "\(name) in \(key)")
      if key.contains(pitchClass) { #expect(key.degrees.contains(name)) }
      names.insert(name)
    }
    #expect(names.count == 12)
  }

  @Test func chromaticSpellingFollowsTheKey() throws {
    func spell(_ key: String) throws -> String {
      let key = try Key(parsing: key)
      return PitchClass.all.filter { !key.contains($0) }.map { key.spelling(of: $0).description }.joined(
        separator: " ")
    }
    #expect(try spell("C major") == "C# Eb F# G# Bb")
    #expect(try spell("G major") == "C# D# F G# Bb")
    #expect(try spell("F major") == "Db Eb F# Ab B")
    #expect(try spell("Eb major") == "Db E Gb A Cb")
    // Minor keys: the raised sixth and seventh are sharped degrees (C# and B in D minor).
    #expect(try spell("A minor") == "C# D# F# G# Bb")
    #expect(try spell("D minor") == "C# Eb F# Ab B")
    #expect(try spell("G# minor") == "B# D E# F## A")
    #expect(try spell("C minor") == "Db E Gb A B")
    #expect(SpelledNote(midi: MIDINote(61)!, in: Key(.d, .naturalMinor)).description == "C#4")
    #expect(SpelledNote(midi: MIDINote(71)!, in: try Key(parsing: "C minor")).description == "B4")
  }

  @Test(arguments: Key.standardKeys)
  func relativeAndParallelKeys(key: Key) {
    #expect(key.relative.signature == key.signature)
    #expect(key.relative.relative == key)
    #expect(key.relative.scale != key.scale)
    #expect(key.parallel.tonic == key.tonic && key.parallel.parallel == key)
    #expect(Key(signature: key.signature, minor: key.scale.isMinor) == key)
    #expect(Key(key.description) == key)
  }

  @Test func modesAndParsing() throws {
    #expect(Key(.d, .dorian).relative == .cMajor && Key(.f, .lydian).relative == .cMajor)
    #expect(Key(.e, .phrygian).degrees.map(\.description) == ["E", "F", "G", "A", "B", "C", "D"])
    #expect(Key(.b, .locrian).signature == 0 && Key(.e, .mixolydian).signature == 3)
    #expect(try Key(parsing: "F# harmonic minor") == Key(NoteName("F#")!, .harmonicMinor))
    #expect(try Key(parsing: "Bb") == Key(NoteName("Bb")!, .major))
    #expect(try Key(parsing: "c aeolian") == Key(.c, .naturalMinor))
    #expect(throws: ScoreModelError.self) { try Key(parsing: "C mjor") }
    #expect(throws: ScoreModelError.parse(text: "Q major", offset: 0, expected: "a note letter A-G")) {
      try Key(parsing: "Q major")
    }
    #expect(Key(signature: 8) == Key(NoteName("G#")!, .major))
    #expect(Key(NoteName("G#")!, .major).degrees.map(\.description).last == "F##")
  }
}
