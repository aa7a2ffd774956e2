/// A musical interval: a number of letter steps (unison = 1, third = 3, octave = 8, ninth = 9)
/// and a size in semitones, whose combination gives the quality (M3 = third of 4 semitones).
public struct Interval: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The interval number, 1 or more (1 unison, 2 second, …, 8 octave, 9 ninth, …).
  public let number: Int
  /// The size in semitones.
  public let semitones: Int

  /// The quality of an interval.
  public enum Quality: Sendable, Hashable, Codable {
    /// Diminished `n` times (1 = diminished, 2 = doubly diminished).
    case diminished(Int)
    case minor, perfect, major
    /// Augmented `n` times.
    case augmented(Int)
  }

  /// Creates an interval from its number and size in semitones.
  ///
  /// - Parameters:
  ///   - number: 1 or more.
  ///   - semitones: The size; within three semitones of the major or perfect size for the number.
  /// - Returns: `nil` when the combination has no name (for example a "third" of 9 semitones).
  public init?(number: Int, semitones: Int) {
    guard number >= 1 else { return nil }
    let offset = semitones - Self.referenceSemitones(number: number)
    guard (-4)...3 ~= offset else { return nil }
    self.number = number
    self.semitones = semitones
  }

  /// Creates an interval from quality and number.
  ///
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

  /// Whether unisons, fourths, fifths and octaves (and their compounds): perfect rather than major/minor.
  static func isPerfectType(_ number: Int) -> Bool { [1, 4, 5].contains((number - 1) % 7 + 1) }

  /// Semitones of the major or perfect interval with this number.
  static func referenceSemitones(number: Int) -> Int {
    let steps = number - 1
    return [0, 2, 4, 5, 7, 9, 11][steps % 7] + 12 * (steps / 7)
  }

  /// The interval from `lower` up to `upper` (if `upper` is written lower, the interval from
  /// `upper` up to `lower`).
  ///
  /// - Returns: `nil` when the two notes form no nameable interval.
  public static func between(_ lower: SpelledNote, _ upper: SpelledNote) -> Interval? {
    let a = lower.name.letter.rawValue + 7 * lower.octave
    let b = upper.name.letter.rawValue + 7 * upper.octave
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
  public init?(_ description: String) {
    guard let numberStart = description.firstIndex(where: \.isNumber),
      let number = Int(description[numberStart...])
    else { return nil }
    let prefix = description[..<numberStart]
    let quality: Quality
    switch prefix {
    case "P": quality = .perfect
    case "M": quality = .major
    case "m": quality = .minor
    case _ where !prefix.isEmpty && prefix.allSatisfy({ $0 == "A" }): quality = .augmented(prefix.count)
    case _ where !prefix.isEmpty && prefix.allSatisfy({ $0 == "d" }): quality = .diminished(prefix.count)
    default: return nil
    }
    self.init(quality, number)
  }

  public static let perfectUnison = Interval(.perfect, 1)!
  public static let minorSecond = Interval(.minor, 2)!
  public static let majorSecond = Interval(.major, 2)!
  public static let minorThird = Interval(.minor, 3)!
  public static let majorThird = Interval(.major, 3)!
  public static let perfectFourth = Interval(.perfect, 4)!
  public static let augmentedFourth = Interval(.augmented(1), 4)!
  public static let diminishedFifth = Interval(.diminished(1), 5)!
  public static let perfectFifth = Interval(.perfect, 5)!
  public static let minorSixth = Interval(.minor, 6)!
  public static let majorSixth = Interval(.major, 6)!
  public static let minorSeventh = Interval(.minor, 7)!
  public static let majorSeventh = Interval(.major, 7)!
  public static let perfectOctave = Interval(.perfect, 8)!
}
