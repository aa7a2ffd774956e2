/// An instrument whose written notes sound at another pitch (a B♭ trumpet's written D4 sounds C4).
///
/// The transposition is stored as MusicXML's `<transpose>` does: the letter steps (`diatonic`)
/// and semitones (`chromatic`) to add to a written note to get the sounding note, with
/// `<octave-change>` folded in (a tenor saxophone is −14 semitones, −8 letters). Keeping the
/// letter steps spells the result correctly: written F♯4 on a B♭ trumpet sounds E4, not F♭4.
public struct TransposingInstrument: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The instrument's name.
  public var name: String
  /// Semitones from written to sounding (−2 for B♭ instruments, −14 for the tenor saxophone).
  public var chromatic: Int
  /// Letter steps from written to sounding (−1 for B♭ instruments, −8 for the tenor saxophone).
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

  /// The interval from written down to sounding pitch (M2 for B♭ trumpet, M9 for tenor
  /// saxophone), or up when ``soundsHigher`` (P8 for piccolo); `nil` when it has no name.
  public var interval: Interval? { Interval(number: abs(diatonic) + 1, semitones: abs(chromatic)) }

  /// Whether the instrument sounds above its written notes (piccolo, glockenspiel, E♭ clarinet).
  public var soundsHigher: Bool { chromatic > 0 }

  /// Concert pitch: sounds as written.
  public static let concert = TransposingInstrument(name: "C (concert pitch)", chromatic: 0, diatonic: 0)
  /// B♭ trumpet: sounds a major second below written.
  public static let bFlatTrumpet = TransposingInstrument(name: "B-flat trumpet", chromatic: -2, diatonic: -1)
  /// B♭ clarinet: sounds a major second below written.
  public static let bFlatClarinet = TransposingInstrument(
    name: "B-flat clarinet", chromatic: -2, diatonic: -1)
  /// A clarinet: sounds a minor third below written.
  public static let aClarinet = TransposingInstrument(name: "A clarinet", chromatic: -3, diatonic: -2)
  /// E♭ clarinet: sounds a minor third above written.
  public static let eFlatClarinet = TransposingInstrument(name: "E-flat clarinet", chromatic: 3, diatonic: 2)
  /// Soprano saxophone (B♭): sounds a major second below written.
  public static let sopranoSaxophone = TransposingInstrument(
    name: "soprano saxophone", chromatic: -2, diatonic: -1)
  /// Alto saxophone (E♭): sounds a major sixth below written.
  public static let altoSaxophone = TransposingInstrument(name: "alto saxophone", chromatic: -9, diatonic: -5)
  /// Tenor saxophone (B♭): sounds a major ninth below written.
  public static let tenorSaxophone = TransposingInstrument(
    name: "tenor saxophone", chromatic: -14, diatonic: -8)
  /// Baritone saxophone (E♭): sounds an octave and a major sixth below written.
  public static let baritoneSaxophone = TransposingInstrument(
    name: "baritone saxophone", chromatic: -21, diatonic: -12)
  /// Horn in F: sounds a perfect fifth below written.
  public static let frenchHorn = TransposingInstrument(name: "horn in F", chromatic: -7, diatonic: -4)
  /// English horn (in F): sounds a perfect fifth below written.
  public static let englishHorn = TransposingInstrument(name: "English horn", chromatic: -7, diatonic: -4)
  /// Guitar: sounds an octave below written.
  public static let guitar = TransposingInstrument(name: "guitar", chromatic: -12, diatonic: -7)
  /// Bass guitar: sounds an octave below written.
  public static let bassGuitar = TransposingInstrument(name: "bass guitar", chromatic: -12, diatonic: -7)
  /// Double bass: sounds an octave below written.
  public static let doubleBass = TransposingInstrument(name: "double bass", chromatic: -12, diatonic: -7)
  /// Piccolo: sounds an octave above written.
  public static let piccolo = TransposingInstrument(name: "piccolo", chromatic: 12, diatonic: 7)
  /// Glockenspiel: sounds two octaves above written.
  public static let glockenspiel = TransposingInstrument(name: "glockenspiel", chromatic: 24, diatonic: 14)

  /// Every instrument above, concert pitch first.
  public static let all: [TransposingInstrument] = [
    .concert, .bFlatTrumpet, .bFlatClarinet, .aClarinet, .eFlatClarinet, .sopranoSaxophone, .altoSaxophone,
    .tenorSaxophone, .baritoneSaxophone, .frenchHorn, .englishHorn, .guitar, .bassGuitar, .doubleBass,
    .piccolo, .glockenspiel,
  ]

  /// The sounding (concert) pitch of a written MIDI note.
  ///
  /// - Parameter written: The written note.
  /// - Returns: The sounding note, or `nil` outside `0...127`.
  public func concert(ofWritten written: MIDINote) -> MIDINote? { written.transposed(by: chromatic) }

  /// The written pitch of a sounding (concert) MIDI note.
  ///
  /// - Parameter concert: The sounding note.
  /// - Returns: The written note, or `nil` outside `0...127`.
  public func written(ofConcert concert: MIDINote) -> MIDINote? { concert.transposed(by: -chromatic) }

  /// The sounding note of a written note, spelled by letter steps (trumpet: written F♯4 → E4).
  ///
  /// - Parameter written: The written note.
  /// - Returns: The sounding note, or `nil` when the spelling would need more than three sharps
  ///   or flats.
  public func concert(ofWritten written: SpelledNote) -> SpelledNote? {
    written.shifted(letters: diatonic, semitones: chromatic)
  }

  /// The written note of a sounding note, spelled by letter steps (trumpet: concert B♭3 → C4).
  ///
  /// - Parameter concert: The sounding note.
  /// - Returns: The written note, or `nil` when the spelling would need more than three sharps
  ///   or flats.
  public func written(ofConcert concert: SpelledNote) -> SpelledNote? {
    concert.shifted(letters: -diatonic, semitones: -chromatic)
  }

  /// The key the part is written in for music sounding in `concert` (trumpet: concert E♭ major
  /// → F major).
  ///
  /// A written key beyond seven sharps or flats is replaced by its enharmonic twin, as parts
  /// are printed (alto saxophone: concert B major → A♭ major, not G♯ major).
  ///
  /// - Parameter concert: The sounding key.
  /// - Returns: The written key.
  public func writtenKey(ofConcert concert: Key) -> Key {
    Self.transposedKey(concert, letters: -diatonic, semitones: -chromatic)
  }

  /// The sounding key of a part written in `written` (horn: written C major → F major).
  ///
  /// A key beyond seven sharps or flats is replaced by its enharmonic twin.
  ///
  /// - Parameter written: The written key.
  /// - Returns: The sounding key.
  public func concertKey(ofWritten written: Key) -> Key {
    Self.transposedKey(written, letters: diatonic, semitones: chromatic)
  }

  static func transposedKey(_ key: Key, letters: Int, semitones: Int) -> Key {
    var fifths: Int
    if let tonic = key.tonic.shifted(letters: letters, semitones: semitones) {
      fifths = tonic.fifths
    } else {
      // Out of accidentals: keep the pitch class, spelled nearest C on the line of fifths.
      let pitchClass = PitchClass(key.tonic.pitchClass.rawValue + semitones)
      fifths = pitchClass.rawValue * 7 % 12
      if fifths > 6 { fifths -= 12 }
    }
    // Enharmonic twins lie 12 fifths apart; fold the signature into −7...7.
    let signature = fifths + key.scale.fifthsToParentMajor
    if signature > 7 { fifths -= 12 }
    if signature < -7 { fifths += 12 }
    // Within ±7 signature the tonic lies within −12...12 fifths, so it has a name.
    return Key(NoteName(fifths: fifths) ?? key.tonic, key.scale)
  }

  /// The instrument's name.
  public var description: String { name }
}
