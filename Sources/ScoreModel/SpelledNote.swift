/// A note with letter, accidental and octave, in scientific pitch notation (`C4` = middle C = MIDI 60).
///
/// The octave belongs to the letter: `B#3` and `C4` are both MIDI 60, `Cb4` is MIDI 59. To spell
/// a MIDI note, give a ``Key``: F♯ in D major, G♭ in D♭ major, G♯ in A harmonic minor.
public struct SpelledNote: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// Letter and accidental.
  public var name: NoteName
  /// The octave of the letter, scientific numbering (C4 is middle C).
  public var octave: Int

  /// Creates a spelled note.
  public init(_ name: NoteName, octave: Int) {
    self.name = name
    self.octave = octave
  }

  /// Creates a spelled note from letter, accidental and octave.
  public init(_ letter: Letter, _ accidental: Accidental = .natural, octave: Int) {
    self.init(NoteName(letter, accidental), octave: octave)
  }

  /// Spells a MIDI note as it belongs in `key`.
  ///
  /// Scale notes take the key's spelling; other notes follow the key's side of the circle of
  /// fifths (sharps in sharp keys, flats in flat keys; in C major and A minor: C♯, E♭, F♯, G♯, B♭).
  ///
  /// - Parameters:
  ///   - midi: The note.
  ///   - key: The key; C major by default.
  public init(midi: MIDINote, in key: Key = .cMajor) {
    let name = key.spelling(of: midi.pitchClass)
    // The letter's octave: C♭ sits in the octave above its sounding pitch, B♯ in the one below.
    let natural = name.letter.naturalPitchClass + name.accidental.semitones
    let octave = (midi.rawValue - natural) / 12 - 1
    self.init(name, octave: octave)
  }

  /// The MIDI number, which may fall outside `0...127` for extreme octaves.
  public var midiNumber: Int { (octave + 1) * 12 + name.letter.naturalPitchClass + name.accidental.semitones }

  /// The MIDI note, or `nil` outside `0...127`.
  public var midiNote: MIDINote? { MIDINote(rawValue: midiNumber) }

  /// Parses names such as `C4`, `F#3`, `Bb-1`, `E##5`, `Cb4`.
  ///
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` when it is not a spelled note.
  public init(parsing text: String) throws(ScoreModelError) {
    let (name, used) = try NoteName.parsePrefix(Substring(text), whole: text)
    let rest = text.dropFirst(used)
    guard !rest.isEmpty, let octave = Int(rest), octave >= -2, octave <= 10 else {
      throw .parse(text: text, offset: used, expected: "an octave number from -2 to 10")
    }
    self.init(name, octave: octave)
  }

  /// Parses a spelled note, or `nil`.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(parsing: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The name with octave, such as `F#4`.
  public var description: String { "\(name)\(octave)" }

  /// The note `interval` higher, spelled by letter distance (C4 + M3 = E4, B3 + m2 = C4).
  ///
  /// - Returns: `nil` when the spelling would need more than three sharps or flats.
  public func transposed(up interval: Interval) -> SpelledNote? {
    guard let newName = name.transposed(up: interval) else { return nil }
    let letterIndex = name.letter.rawValue + octave * 7 + interval.number - 1
    return SpelledNote(newName, octave: Int((Double(letterIndex) / 7).rounded(.down)))
  }

  /// The note `interval` lower, spelled by letter distance (E4 − M3 = C4).
  ///
  /// - Returns: `nil` when the spelling would need more than three sharps or flats.
  public func transposed(down interval: Interval) -> SpelledNote? {
    let letterIndex = name.letter.rawValue + octave * 7 - (interval.number - 1)
    let letter = Letter(rawValue: ((letterIndex % 7) + 7) % 7)!
    let newOctave = Int((Double(letterIndex) / 7).rounded(.down))
    let target = midiNumber - interval.semitones
    let natural = (newOctave + 1) * 12 + letter.naturalPitchClass
    return Accidental(semitones: target - natural).map { SpelledNote(letter, $0, octave: newOctave) }
  }
}
