/// A chord quality: the intervals above the root, with its Harte shorthand when it has one.
///
/// The vocabulary covers the Harte (2005) shorthands used by MIREX and mir_eval: `maj`, `min`,
/// `dim`, `aug`, `sus2`, `sus4`, `maj7`, `min7`, `7`, `dim7`, `hdim7`, `minmaj7`, `maj6`,
/// `min6`, `9`, `maj9`, `min9`, plus `5` (power chord) and `1` (root alone). Other interval sets
/// are kept as they are and print as interval lists, such as `(1,3,#5,b7)`.
public struct ChordType: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The intervals above the root, root (`P1`) first, in ascending number.
  public let intervals: [Interval]
  /// The Harte shorthand, such as `min7`, or `nil` for an unnamed interval set.
  public let shorthand: String?

  /// Creates a chord type from intervals; it takes the shorthand of a known type with the same
  /// intervals.
  ///
  /// - Parameter intervals: The intervals above the root (the root is added if missing).
  public init(intervals: [Interval]) {
    var set = Set(intervals)
    set.insert(.perfectUnison)
    let sorted = set.sorted { ($0.number, $0.semitones) < ($1.number, $1.semitones) }
    self.intervals = sorted
    shorthand = Self.all.first { $0.intervals == sorted }?.shorthand
  }

  private init(_ shorthand: String, _ degrees: [String]) {
    self.shorthand = shorthand
    intervals = degrees.map { Interval(harteDegree: Substring($0))! }
  }

  public static let major = ChordType("maj", ["1", "3", "5"])
  public static let minor = ChordType("min", ["1", "b3", "5"])
  public static let diminished = ChordType("dim", ["1", "b3", "b5"])
  public static let augmented = ChordType("aug", ["1", "3", "#5"])
  public static let suspendedSecond = ChordType("sus2", ["1", "2", "5"])
  public static let suspendedFourth = ChordType("sus4", ["1", "4", "5"])
  public static let majorSeventh = ChordType("maj7", ["1", "3", "5", "7"])
  public static let minorSeventh = ChordType("min7", ["1", "b3", "5", "b7"])
  public static let dominantSeventh = ChordType("7", ["1", "3", "5", "b7"])
  public static let diminishedSeventh = ChordType("dim7", ["1", "b3", "b5", "bb7"])
  public static let halfDiminishedSeventh = ChordType("hdim7", ["1", "b3", "b5", "b7"])
  public static let minorMajorSeventh = ChordType("minmaj7", ["1", "b3", "5", "7"])
  public static let majorSixth = ChordType("maj6", ["1", "3", "5", "6"])
  public static let minorSixth = ChordType("min6", ["1", "b3", "5", "6"])
  public static let dominantNinth = ChordType("9", ["1", "3", "5", "b7", "9"])
  public static let majorNinth = ChordType("maj9", ["1", "3", "5", "7", "9"])
  public static let minorNinth = ChordType("min9", ["1", "b3", "5", "b7", "9"])
  public static let power = ChordType("5", ["1", "5"])
  public static let rootOnly = ChordType("1", ["1"])

  /// Every named type.
  public static let all: [ChordType] = [
    .major, .minor, .diminished, .augmented, .suspendedSecond, .suspendedFourth, .majorSeventh,
    .minorSeventh, .dominantSeventh, .diminishedSeventh, .halfDiminishedSeventh, .minorMajorSeventh,
    .majorSixth, .minorSixth, .dominantNinth, .majorNinth, .minorNinth, .power, .rootOnly,
  ]

  /// The named type with this Harte shorthand (`""` is `maj`, and `6` is accepted for `maj6`).
  public init?(shorthand: String) {
    let name = shorthand.isEmpty ? "maj" : shorthand == "6" ? "maj6" : shorthand
    guard let type = Self.all.first(where: { $0.shorthand == name }) else { return nil }
    self = type
  }

  /// The pitch classes above the root, as semitones `0...11`.
  public var semitones: [Int] { intervals.map { PitchClass($0.semitones).rawValue } }

  /// The Harte form: the shorthand, or the interval list such as `(1,3,#5,b7)`.
  public var description: String {
    shorthand ?? "(" + intervals.map(\.harteDegree).joined(separator: ",") + ")"
  }
}

extension Interval {
  /// The interval as a Harte degree: its number, with one `b` or `#` per semitone away from the
  /// major scale's degree (`3` major third, `b3` minor third, `b5` diminished fifth, `bb7`
  /// diminished seventh, `#9`).
  public var harteDegree: String {
    let alteration = semitones - Self.referenceSemitones(number: number)
    let modifier =
      alteration < 0 ? String(repeating: "b", count: -alteration) : String(repeating: "#", count: alteration)
    return modifier + String(number)
  }

  /// Parses a Harte degree such as `3`, `b3`, `#5`, `bb7`, `9`.
  public init?(harteDegree text: Substring) {
    let modifiers = text.prefix { $0 == "b" || $0 == "#" }
    guard let number = Int(text.dropFirst(modifiers.count)), (1...13).contains(number),
      modifiers.allSatisfy({ $0 == modifiers.first })
    else { return nil }
    let alteration = modifiers.first == "b" ? -modifiers.count : modifiers.count
    self.init(number: number, semitones: Self.referenceSemitones(number: number) + alteration)
  }
}
