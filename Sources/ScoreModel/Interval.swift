/// A musical interval: a number of letter steps (unison = 1, third = 3, octave = 8, ninth = 9)
/// and a size in semitones, whose combination gives the quality (M3 = third of 4 semitones).
///
/// Intervals are ascending and may be compound (``majorNinth``). Counting letters as well as
/// semitones keeps spelling right: C + M3 is E, but C + d4 is F♭. Short names print and parse as
/// `P1`, `m2`, `M3`, `P4`, `A4`, `d5`, `P8`, `M9`, `AA4`, `dd7`; that is also the JSON form (`"M3"`).
public struct Interval: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The interval number, 1 or more (1 unison, 2 second, …, 8 octave, 9 ninth, …).
  public let number: Int
  /// The size in semitones.
  public let semitones: Int

  /// The quality of an interval.
  public enum Quality: Sendable, Hashable, Codable {
    /// Diminished `n` times (1 = diminished, 2 = doubly diminished).
    case diminished(Int)
    /// Minor: a major interval less a semitone (seconds, thirds, sixths, sevenths).
    case minor
    /// Perfect (unisons, fourths, fifths, octaves).
    case perfect
    /// Major (seconds, thirds, sixths, sevenths).
    case major
    /// Augmented `n` times (1 = augmented, 2 = doubly augmented).
    case augmented(Int)
  }

  /// Creates an interval from its number and size in semitones.
  ///
  /// - Parameters:
  ///   - number: 1 or more.
  ///   - semitones: The size; from triply diminished to triply augmented for the number.
  /// - Returns: `nil` when the combination has no name (for example a "third" of 9 semitones).
  public init?(number: Int, semitones: Int) {
    guard number >= 1 else { return nil }
    let offset = semitones - Self.referenceSemitones(number: number)
    // Up to triply augmented or diminished (a triply diminished third is 4 below the major third).
    guard (Self.isPerfectType(number) ? -3 : -4)...3 ~= offset else { return nil }
    self.number = number
    self.semitones = semitones
  }

  /// Creates an interval from quality and number.
  ///
  /// - Parameters:
  ///   - quality: The quality.
  ///   - number: 1 or more.
  /// - Returns: `nil` for impossible combinations (a major fifth, a perfect third).
  public init?(_ quality: Quality, _ number: Int) {
    guard number >= 1 else { return nil }
    let perfectType = Self.isPerfectType(number)
    let offset: Int
    switch quality {
    case .perfect:
      guard perfectType else { return nil }
      offset = 0
    case .major:
      guard !perfectType else { return nil }
      offset = 0
    case .minor:
      guard !perfectType else { return nil }
      offset = -1
    case .augmented(let n):
      guard n >= 1 else { return nil }
      offset = n
    case .diminished(let n):
      guard n >= 1 else { return nil }
      offset = perfectType ? -n : -n - 1
    }
    self.init(number: number, semitones: Self.referenceSemitones(number: number) + offset)
  }

  /// The number reduced to within an octave (a ninth is a second; an octave stays 8).
  public var simpleNumber: Int { number == 1 ? 1 : (number - 2) % 7 + 2 }

  /// The quality.
  public var quality: Quality {
    let offset = semitones - Self.referenceSemitones(number: number)
    if Self.isPerfectType(number) {
      return offset == 0 ? .perfect : offset > 0 ? .augmented(offset) : .diminished(-offset)
    }
    switch offset {
    case 0: return .major
    case -1: return .minor
    case let n where n > 0: return .augmented(n)
    default: return .diminished(-offset - 1)
    }
  }

  /// The inversion within the octave: M3 ⇄ m6, P4 ⇄ P5, A4 ⇄ d5, P1 ⇄ P8. Compound intervals
  /// are reduced first (M9 inverts to m7).
  public var inverted: Interval {
    let octaves = (number - 1 - (simpleNumber - 1)) / 7
    let simpleSemitones = semitones - 12 * octaves
    // The offset from the reference size stays within the valid band after inversion.
    return Interval(number: 9 - simpleNumber, semitones: 12 - simpleSemitones)!
  }

  /// Whether unisons, fourths, fifths and octaves (and their compounds): perfect rather than major/minor.
  static func isPerfectType(_ number: Int) -> Bool { [1, 4, 5].contains((number - 1) % 7 + 1) }

  /// Semitones of the major or perfect interval with this number.
  static func referenceSemitones(number: Int) -> Int {
    let steps = number - 1
    return [0, 2, 4, 5, 7, 9, 11][steps % 7] + 12 * (steps / 7)
  }

  /// The interval between two notes, counted up from the lower-written one.
  ///
  /// C4–E4 is M3, B3–F4 d5, C4–D5 M9; G4–C4 is P5 (the order of the arguments does not matter;
  /// which note is lower is decided by letter and octave, not by sound).
  ///
  /// - Parameters:
  ///   - lower: One note.
  ///   - upper: The other note.
  /// - Returns: The interval, or `nil` when the two notes form no nameable interval (C4–C♭4).
  public static func between(_ lower: SpelledNote, _ upper: SpelledNote) -> Interval? {
    let a = lower.diatonicNumber
    let b = upper.diatonicNumber
    if b < a { return between(upper, lower) }
    return Interval(number: b - a + 1, semitones: upper.midiNumber - lower.midiNumber)
  }

  /// Short names: `P1`, `m2`, `M3`, `P4`, `A4`, `d5`, `P8`, `M9`, `AA4`, `dd7`.
  public var description: String {
    let prefix: String
    switch quality {
    case .perfect: prefix = "P"
    case .major: prefix = "M"
    case .minor: prefix = "m"
    case .augmented(let n): prefix = String(repeating: "A", count: n)
    case .diminished(let n): prefix = String(repeating: "d", count: n)
    }
    return "\(prefix)\(number)"
  }

  /// Parses a short name such as `M3`, `P5`, `m7`, `A4`, `d5`, `M9`.
  ///
  /// - Parameter text: The name: quality (`P`, `M`, `m`, `A`…, `d`…) then number.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(parsing text: String) throws(ScoreModelError) {
    let characters = Array(text)
    let numberStart = characters.firstIndex(where: \.isNumber) ?? characters.count
    let prefix = String(characters[..<numberStart])
    let quality: Quality
    switch prefix {
    case "P": quality = .perfect
    case "M": quality = .major
    case "m": quality = .minor
    case _ where !prefix.isEmpty && prefix.allSatisfy({ $0 == "A" }): quality = .augmented(prefix.count)
    case _ where !prefix.isEmpty && prefix.allSatisfy({ $0 == "d" }): quality = .diminished(prefix.count)
    default:
      throw .parse(text: text, offset: 0, expected: "an interval quality P, M, m, A or d")
    }
    guard numberStart < characters.count, let number = Int(String(characters[numberStart...])), number >= 1
    else {
      throw .parse(text: text, offset: numberStart, expected: "an interval number 1 or more")
    }
    guard let interval = Interval(quality, number) else {
      throw .parse(text: text, offset: 0, expected: "a quality that fits the number (P4, M3, not M4 or P3)")
    }
    self = interval
  }

  /// Parses a short name such as `M3`, or returns `nil`.
  ///
  /// - Parameter description: The name.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  /// Decodes an interval from its short name, such as `"M3"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not an interval name.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(parsing: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the interval as its short name, such as `"M3"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension Interval {
  /// Perfect unison, P1 (0 semitones).
  public static let perfectUnison = Interval(.perfect, 1)!
  /// Minor second, m2 (1 semitone).
  public static let minorSecond = Interval(.minor, 2)!
  /// Major second, M2 (2 semitones).
  public static let majorSecond = Interval(.major, 2)!
  /// Augmented second, A2 (3 semitones).
  public static let augmentedSecond = Interval(.augmented(1), 2)!
  /// Minor third, m3 (3 semitones).
  public static let minorThird = Interval(.minor, 3)!
  /// Major third, M3 (4 semitones).
  public static let majorThird = Interval(.major, 3)!
  /// Perfect fourth, P4 (5 semitones).
  public static let perfectFourth = Interval(.perfect, 4)!
  /// Augmented fourth (tritone), A4 (6 semitones).
  public static let augmentedFourth = Interval(.augmented(1), 4)!
  /// Diminished fifth (tritone), d5 (6 semitones).
  public static let diminishedFifth = Interval(.diminished(1), 5)!
  /// Perfect fifth, P5 (7 semitones).
  public static let perfectFifth = Interval(.perfect, 5)!
  /// Augmented fifth, A5 (8 semitones).
  public static let augmentedFifth = Interval(.augmented(1), 5)!
  /// Minor sixth, m6 (8 semitones).
  public static let minorSixth = Interval(.minor, 6)!
  /// Major sixth, M6 (9 semitones).
  public static let majorSixth = Interval(.major, 6)!
  /// Diminished seventh, d7 (9 semitones).
  public static let diminishedSeventh = Interval(.diminished(1), 7)!
  /// Minor seventh, m7 (10 semitones).
  public static let minorSeventh = Interval(.minor, 7)!
  /// Major seventh, M7 (11 semitones).
  public static let majorSeventh = Interval(.major, 7)!
  /// Perfect octave, P8 (12 semitones).
  public static let perfectOctave = Interval(.perfect, 8)!
  /// Minor ninth, m9 (13 semitones).
  public static let minorNinth = Interval(.minor, 9)!
  /// Major ninth, M9 (14 semitones).
  public static let majorNinth = Interval(.major, 9)!
  /// Perfect eleventh, P11 (17 semitones).
  public static let perfectEleventh = Interval(.perfect, 11)!
  /// Major thirteenth, M13 (21 semitones).
  public static let majorThirteenth = Interval(.major, 13)!
}
