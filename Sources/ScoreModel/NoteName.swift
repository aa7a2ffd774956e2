/// A spelled pitch class: a letter and an accidental, without octave (`C`, `F#`, `Bb`).
///
/// Two note names can sound the same and still differ (`F#` and `Gb`): spelling carries the
/// harmonic meaning that a bare ``PitchClass`` loses.
public struct NoteName: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The letter.
  public var letter: Letter
  /// The accidental.
  public var accidental: Accidental

  /// Creates a note name.
  public init(_ letter: Letter, _ accidental: Accidental = .natural) {
    self.letter = letter
    self.accidental = accidental
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

  /// Parses a note name, or `nil`.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  /// Parses a letter and accidental at the start of `text`, returning the characters used.
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

  /// The name in ASCII, such as `F#` or `Bb`.
  public var description: String { "\(letter)\(accidental)" }

  /// The name `interval` higher, spelled by the interval's letter distance (C + M3 = E; E + m3 = G).
  ///
  /// - Returns: `nil` when the spelling would need more than three sharps or flats.
  public func transposed(up interval: Interval) -> NoteName? {
    let letter = letter.advanced(by: interval.number - 1)
    let target = pitchClass.rawValue + interval.semitones
    var alteration = PitchClass(target - letter.naturalPitchClass).rawValue
    if alteration > 6 { alteration -= 12 }
    return Accidental(semitones: alteration).map { NoteName(letter, $0) }
  }
}

extension NoteName {
  public static let c = NoteName(.c), d = NoteName(.d), e = NoteName(.e), f = NoteName(.f)
  public static let g = NoteName(.g), a = NoteName(.a), b = NoteName(.b)
}
