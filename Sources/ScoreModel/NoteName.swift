/// A spelled pitch class: a letter and an accidental, without octave (`C`, `F#`, `Bb`).
///
/// Two note names can sound the same and still differ (`F#` and `Gb`): spelling carries the
/// harmonic meaning that a bare ``PitchClass`` loses. Keys, chord roots and scale degrees are
/// note names; a ``SpelledNote`` adds the octave. It encodes in JSON as its name (`"F#"`).
public struct NoteName: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The letter.
  public var letter: Letter
  /// The accidental.
  public var accidental: Accidental

  /// Creates a note name.
  ///
  /// - Parameters:
  ///   - letter: The letter.
  ///   - accidental: The accidental; natural by default.
  public init(_ letter: Letter, _ accidental: Accidental = .natural) {
    self.letter = letter
    self.accidental = accidental
  }

  /// The note name at a place on the line of fifths (0 = C, 1 = G, −1 = F, 7 = C♯, −7 = C♭), or
  /// `nil` beyond three sharps or flats (outside −22...26).
  ///
  /// - Parameter fifths: Perfect fifths up from C (negative: down).
  public init?(fifths: Int) {
    // F is −1, so shift by one to make F the first letter of each group of seven.
    let shifted = fifths + 1
    let group = shifted >= 0 ? shifted / 7 : -((-shifted + 6) / 7)
    let letter = [Letter.f, .c, .g, .d, .a, .e, .b][shifted - 7 * group]
    guard let accidental = Accidental(semitones: group) else { return nil }
    self.init(letter, accidental)
  }

  /// Parses names such as `C`, `F#`, `Bb`, `Ebb`, `Cx`, `F♯`.
  ///
  /// - Parameter text: The name.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` when it is not a note name.
  public init(parsing text: String) throws(ScoreModelError) {
    let (name, used) = try Self.parsePrefix(Substring(text), whole: text)
    guard used == text.count else {
      throw .parse(text: text, offset: used, expected: "the end of the note name")
    }
    self = name
  }

  /// Parses a note name such as `F#`, or returns `nil`.
  ///
  /// - Parameter description: The name.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  /// Decodes a note name from a string such as `"F#"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a note name.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(parsing: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the note name as a string such as `"F#"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Parses a letter and accidental at the start of `text`, returning the characters used.
  ///
  /// - Parameters:
  ///   - text: The text to parse, starting at the letter.
  ///   - whole: The whole input, for error messages.
  ///   - offset: The character offset of `text` in `whole`, for error messages.
  static func parsePrefix(_ text: Substring, whole: String, offset: Int = 0) throws(ScoreModelError) -> (
    NoteName, Int
  ) {
    guard let first = text.first, let letter = Letter(character: first) else {
      throw .parse(text: whole, offset: offset, expected: "a note letter A-G")
    }
    guard let (accidental, used) = Accidental.parsePrefix(text.dropFirst()) else {
      throw .parse(text: whole, offset: offset + 1, expected: "at most three sharps or flats")
    }
    return (NoteName(letter, accidental), 1 + used)
  }

  /// The pitch class this name sounds as.
  public var pitchClass: PitchClass { PitchClass(letter.naturalPitchClass + accidental.semitones) }

  /// The place on the line of fifths: C = 0, G = 1, F = −1, F♯ = 6, B♭ = −2, C♯ = 7.
  ///
  /// A major key's signature is its tonic's place (D major: 2 sharps); enharmonic names lie 12
  /// apart (F♯ = 6, G♭ = −6).
  public var fifths: Int { letter.fifths + 7 * accidental.semitones }

  /// The name in ASCII, such as `F#` or `Bb`.
  public var description: String { "\(letter)\(accidental)" }

  /// The name `interval` higher, spelled by the interval's letter distance (C + M3 = E; E + m3 = G).
  ///
  /// - Parameter interval: The interval up.
  /// - Returns: The name, or `nil` when the spelling would need more than three sharps or flats.
  public func transposed(up interval: Interval) -> NoteName? {
    shifted(letters: interval.number - 1, semitones: interval.semitones)
  }

  /// The name `interval` lower, spelled by the interval's letter distance (E − M3 = C).
  ///
  /// - Parameter interval: The interval down.
  /// - Returns: The name, or `nil` when the spelling would need more than three sharps or flats.
  public func transposed(down interval: Interval) -> NoteName? {
    shifted(letters: -(interval.number - 1), semitones: -interval.semitones)
  }

  /// The name `letters` letter steps and `semitones` semitones away, or `nil` beyond three
  /// sharps or flats.
  func shifted(letters: Int, semitones: Int) -> NoteName? {
    let letter = letter.advanced(by: letters)
    var alteration = PitchClass(pitchClass.rawValue + semitones - letter.naturalPitchClass).rawValue
    if alteration > 6 { alteration -= 12 }
    return Accidental(semitones: alteration).map { NoteName(letter, $0) }
  }
}

extension NoteName {
  /// C natural.
  public static let c = NoteName(.c)
  /// D natural.
  public static let d = NoteName(.d)
  /// E natural.
  public static let e = NoteName(.e)
  /// F natural.
  public static let f = NoteName(.f)
  /// G natural.
  public static let g = NoteName(.g)
  /// A natural.
  public static let a = NoteName(.a)
  /// B natural.
  public static let b = NoteName(.b)
}
