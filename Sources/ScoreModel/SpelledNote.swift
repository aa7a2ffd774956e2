/// A note with letter, accidental and octave, in scientific pitch notation (`C4` = middle C = MIDI 60).
///
/// The octave belongs to the letter: `B#3` and `C4` are both MIDI 60, `Cb4` is MIDI 59. To spell
/// a MIDI note, give a ``Key``: F♯ in D major, G♭ in D♭ major, G♯ in A harmonic minor. It encodes
/// in JSON as its name (`"C#4"`).
public struct SpelledNote: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// Letter and accidental.
  public var name: NoteName
  /// The octave of the letter, scientific numbering (C4 is middle C); −2...10 parse and print.
  public var octave: Int

  /// Creates a spelled note.
  ///
  /// - Parameters:
  ///   - name: Letter and accidental.
  ///   - octave: The octave of the letter (C4 is middle C).
  public init(_ name: NoteName, octave: Int) {
    self.name = name
    self.octave = octave
  }

  /// Creates a spelled note from letter, accidental and octave.
  ///
  /// - Parameters:
  ///   - letter: The letter.
  ///   - accidental: The accidental; natural by default.
  ///   - octave: The octave of the letter (C4 is middle C).
  public init(_ letter: Letter, _ accidental: Accidental = .natural, octave: Int) {
    self.init(NoteName(letter, accidental), octave: octave)
  }

  /// Spells a MIDI note as it belongs in `key` (see ``Key/spelling(of:)``).
  ///
  /// Scale notes take the key's spelling; the raised sixth and seventh of a minor key are sharped
  /// degrees (C♯ in D minor); other notes take the spelling nearest the key on the line of fifths,
  /// ties going to the key's side (in C major: C♯, E♭, F♯, G♯, B♭; in F major: F♯, A♭, B, D♭, E♭).
  ///
  /// - Parameters:
  ///   - midi: The note.
  ///   - key: The key; C major by default.
  public init(midi: MIDINote, in key: Key = .cMajor) {
    let name = key.spelling(of: midi.pitchClass)
    // The letter's octave: C♭ sits in the octave above its sounding pitch, B♯ in the one below.
    // `midi − natural` is a multiple of 12, so the division is exact.
    let natural = name.letter.naturalPitchClass + name.accidental.semitones
    self.init(name, octave: (midi.rawValue - natural) / 12 - 1)
  }

  /// The letter.
  public var letter: Letter { name.letter }

  /// The accidental.
  public var accidental: Accidental { name.accidental }

  /// The pitch class this note sounds as.
  public var pitchClass: PitchClass { name.pitchClass }

  /// The MIDI number, which may fall outside `0...127` for extreme octaves (`Cb-1` is −1).
  public var midiNumber: Int { (octave + 1) * 12 + name.letter.naturalPitchClass + name.accidental.semitones }

  /// The MIDI note, or `nil` outside `0...127`.
  public var midiNote: MIDINote? { MIDINote(rawValue: midiNumber) }

  /// The staff position in letter steps from C0 (C4 = 28, D4 = 29, B3 = 27).
  public var diatonicNumber: Int { name.letter.rawValue + 7 * octave }

  /// Parses names such as `C4`, `F#3`, `Bb-1`, `E##5`, `Cb4`, `F♯3`, `Cx4`.
  ///
  /// - Parameter text: The name: letter, accidentals, octave −2...10.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` when it is not a spelled note.
  public init(parsing text: String) throws(ScoreModelError) {
    let (name, used) = try NoteName.parsePrefix(Substring(text), whole: text)
    let rest = text.dropFirst(used)
    guard !rest.isEmpty, let octave = Int(rest), octave >= -2, octave <= 10 else {
      throw .parse(text: text, offset: used, expected: "an octave number from -2 to 10")
    }
    self.init(name, octave: octave)
  }

  /// Parses a spelled note such as `C#4`, or returns `nil`.
  ///
  /// - Parameter description: The name.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  /// Decodes a spelled note from a string such as `"C#4"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a spelled note.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(parsing: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the note as a string such as `"C#4"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The name with octave, such as `F#4`.
  public var description: String { "\(name)\(octave)" }

  /// The note `interval` higher, spelled by letter distance (C4 + M3 = E4, B3 + m2 = C4).
  ///
  /// - Parameter interval: The interval up.
  /// - Returns: The note, or `nil` when the spelling would need more than three sharps or flats.
  public func transposed(up interval: Interval) -> SpelledNote? {
    shifted(letters: interval.number - 1, semitones: interval.semitones)
  }

  /// The note `interval` lower, spelled by letter distance (E4 − M3 = C4).
  ///
  /// - Parameter interval: The interval down.
  /// - Returns: The note, or `nil` when the spelling would need more than three sharps or flats.
  public func transposed(down interval: Interval) -> SpelledNote? {
    shifted(letters: -(interval.number - 1), semitones: -interval.semitones)
  }

  /// The note `letters` letter steps and `semitones` semitones away (both signed), or `nil`
  /// beyond three sharps or flats.
  func shifted(letters: Int, semitones: Int) -> SpelledNote? {
    let index = diatonicNumber + letters
    let octave = index >= 0 ? index / 7 : -((-index + 6) / 7)
    let letter = Letter.c.advanced(by: index - 7 * octave)
    let natural = (octave + 1) * 12 + letter.naturalPitchClass
    return Accidental(semitones: midiNumber + semitones - natural).map {
      SpelledNote(letter, $0, octave: octave)
    }
  }
}
