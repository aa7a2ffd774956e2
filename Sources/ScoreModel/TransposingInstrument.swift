/// An instrument whose written notes sound at another pitch (a B♭ trumpet's written D4 sounds C4).
///
/// The transposition is stored as MusicXML's `<transpose>` does: the letter steps (`diatonic`)
/// and semitones (`chromatic`) to add to a written note to get the sounding note, octave changes
/// folded in. Keeping the letter steps spells the result correctly: written F♯4 on a B♭ trumpet
/// sounds E4, not F♭4.
public struct TransposingInstrument: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The instrument's name.
  public var name: String
  /// Semitones from written to sounding (−2 for B♭ instruments).
  public var chromatic: Int
  /// Letter steps from written to sounding (−1 for B♭ instruments).
  public var diatonic: Int

  /// Creates a transposition.
  ///
  /// - Parameters:
  ///   - name: The instrument's name.
  ///   - chromatic: Semitones to add to written pitch to get sounding pitch.
  ///   - diatonic: Letter steps to add to written pitch to get sounding pitch.
  public init(name: String, chromatic: Int, diatonic: Int) {
    self.name = name
    self.chromatic = chromatic
    self.diatonic = diatonic
  }

  /// Creates a transposition from MusicXML's `<transpose>` fields.
  ///
  /// - Parameters:
  ///   - name: The instrument's name.
  ///   - chromatic: `<chromatic>`, semitones.
  ///   - diatonic: `<diatonic>`, letter steps.
  ///   - octaveChange: `<octave-change>`, octaves.
  public init(name: String, chromatic: Int, diatonic: Int, octaveChange: Int) {
    self.init(name: name, chromatic: chromatic + 12 * octaveChange, diatonic: diatonic + 7 * octaveChange)
  }

  public static let concert = TransposingInstrument(name: "C (concert pitch)", chromatic: 0, diatonic: 0)
  public static let bFlatTrumpet = TransposingInstrument(name: "B-flat trumpet", chromatic: -2, diatonic: -1)
  public static let bFlatClarinet = TransposingInstrument(
    name: "B-flat clarinet", chromatic: -2, diatonic: -1)
  public static let aClarinet = TransposingInstrument(name: "A clarinet", chromatic: -3, diatonic: -2)
  public static let eFlatClarinet = TransposingInstrument(name: "E-flat clarinet", chromatic: 3, diatonic: 2)
  public static let sopranoSaxophone = TransposingInstrument(
    name: "soprano saxophone", chromatic: -2, diatonic: -1)
  public static let altoSaxophone = TransposingInstrument(name: "alto saxophone", chromatic: -9, diatonic: -5)
  public static let tenorSaxophone = TransposingInstrument(
    name: "tenor saxophone", chromatic: -14, diatonic: -8)
  public static let baritoneSaxophone = TransposingInstrument(
    name: "baritone saxophone", chromatic: -21, diatonic: -12)
  public static let frenchHorn = TransposingInstrument(name: "horn in F", chromatic: -7, diatonic: -4)
  public static let englishHorn = TransposingInstrument(name: "English horn", chromatic: -7, diatonic: -4)
  public static let guitar = TransposingInstrument(name: "guitar", chromatic: -12, diatonic: -7)
  public static let bassGuitar = TransposingInstrument(name: "bass guitar", chromatic: -12, diatonic: -7)
  public static let doubleBass = TransposingInstrument(name: "double bass", chromatic: -12, diatonic: -7)
  public static let piccolo = TransposingInstrument(name: "piccolo", chromatic: 12, diatonic: 7)
  public static let glockenspiel = TransposingInstrument(name: "glockenspiel", chromatic: 24, diatonic: 14)

  /// The sounding (concert) pitch of a written MIDI note, or `nil` out of range.
  public func concert(ofWritten written: MIDINote) -> MIDINote? { written.transposed(by: chromatic) }

  /// The written pitch of a sounding (concert) MIDI note, or `nil` out of range.
  public func written(ofConcert concert: MIDINote) -> MIDINote? { concert.transposed(by: -chromatic) }

  /// The sounding note of a written note, spelled by letter steps.
  ///
  /// - Returns: `nil` when the spelling would need more than three sharps or flats.
  public func concert(ofWritten written: SpelledNote) -> SpelledNote? {
    Self.shift(written, letters: diatonic, semitones: chromatic)
  }

  /// The written note of a sounding note, spelled by letter steps.
  ///
  /// - Returns: `nil` when the spelling would need more than three sharps or flats.
  public func written(ofConcert concert: SpelledNote) -> SpelledNote? {
    Self.shift(concert, letters: -diatonic, semitones: -chromatic)
  }

  static func shift(_ note: SpelledNote, letters: Int, semitones: Int) -> SpelledNote? {
    let letterIndex = note.name.letter.rawValue + 7 * note.octave + letters
    let octave = Int((Double(letterIndex) / 7).rounded(.down))
    let letter = Letter(rawValue: letterIndex - 7 * octave)!
    let natural = (octave + 1) * 12 + letter.naturalPitchClass
    return Accidental(semitones: note.midiNumber + semitones - natural).map {
      SpelledNote(letter, $0, octave: octave)
    }
  }

  /// The instrument's name.
  public var description: String { name }
}
