/// A chord quality: the intervals above the root, with its Harte shorthand when it has one.
///
/// The vocabulary covers the Harte (2005) shorthands used by MIREX and mir_eval: `maj`, `min`,
/// `dim`, `aug`, `sus2`, `sus4`, `maj7`, `min7`, `7`, `dim7`, `hdim7`, `minmaj7`, `maj6`,
/// `min6`, `9`, `maj9`, `min9`, plus `5` (power chord) and `1` (root alone). Other interval sets
/// are kept as they are and print as interval lists, such as `(1,3,#5,b7)`. Prints, parses and
/// encodes in JSON as that Harte form (`"min7"`, `"(1,3,#5,b7)"`).
public struct ChordType: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The intervals above the root, root (`P1`) first, in ascending number.
  public let intervals: [Interval]
  /// The Harte shorthand, such as `min7`, or `nil` for an unnamed interval set.
  public let shorthand: String?

  /// Creates a chord type from intervals; when their pitch classes are those of a named type it
  /// is that type (`1, b3, 5` is `min`; so is `1, #2, 5`, spelled as `min` spells it).
  ///
  /// - Parameter intervals: The intervals above the root (the root is added if missing).
  public init(intervals: [Interval]) {
    var set = Set(intervals)
    set.insert(.perfectUnison)
    let pitchClasses = Set(set.map { PitchClass($0.semitones) })
    if let named = Self.all.first(where: { Set($0.pitchClasses) == pitchClasses }) {
      self = named
      return
    }
    self.intervals = set.sorted { ($0.number, $0.semitones) < ($1.number, $1.semitones) }
    shorthand = nil
  }

  private init(_ shorthand: String, _ degrees: [String]) {
    self.shorthand = shorthand
    // The degree strings below are literals that parse.
    intervals = degrees.map { Interval(harteDegree: Substring($0))! }
  }

  /// Major triad, `maj`: 1 3 5.
  public static let major = ChordType("maj", ["1", "3", "5"])
  /// Minor triad, `min`: 1 b3 5.
  public static let minor = ChordType("min", ["1", "b3", "5"])
  /// Diminished triad, `dim`: 1 b3 b5.
  public static let diminished = ChordType("dim", ["1", "b3", "b5"])
  /// Augmented triad, `aug`: 1 3 #5.
  public static let augmented = ChordType("aug", ["1", "3", "#5"])
  /// Suspended second, `sus2`: 1 2 5.
  public static let suspendedSecond = ChordType("sus2", ["1", "2", "5"])
  /// Suspended fourth, `sus4`: 1 4 5.
  public static let suspendedFourth = ChordType("sus4", ["1", "4", "5"])
  /// Major seventh, `maj7`: 1 3 5 7.
  public static let majorSeventh = ChordType("maj7", ["1", "3", "5", "7"])
  /// Minor seventh, `min7`: 1 b3 5 b7.
  public static let minorSeventh = ChordType("min7", ["1", "b3", "5", "b7"])
  /// Dominant seventh, `7`: 1 3 5 b7.
  public static let dominantSeventh = ChordType("7", ["1", "3", "5", "b7"])
  /// Diminished seventh, `dim7`: 1 b3 b5 bb7.
  public static let diminishedSeventh = ChordType("dim7", ["1", "b3", "b5", "bb7"])
  /// Half-diminished seventh, `hdim7`: 1 b3 b5 b7.
  public static let halfDiminishedSeventh = ChordType("hdim7", ["1", "b3", "b5", "b7"])
  /// Minor-major seventh, `minmaj7`: 1 b3 5 7.
  public static let minorMajorSeventh = ChordType("minmaj7", ["1", "b3", "5", "7"])
  /// Major sixth, `maj6` (also read as `6`): 1 3 5 6.
  public static let majorSixth = ChordType("maj6", ["1", "3", "5", "6"])
  /// Minor sixth, `min6`: 1 b3 5 6.
  public static let minorSixth = ChordType("min6", ["1", "b3", "5", "6"])
  /// Dominant ninth, `9`: 1 3 5 b7 9.
  public static let dominantNinth = ChordType("9", ["1", "3", "5", "b7", "9"])
  /// Major ninth, `maj9`: 1 3 5 7 9.
  public static let majorNinth = ChordType("maj9", ["1", "3", "5", "7", "9"])
  /// Minor ninth, `min9`: 1 b3 5 b7 9.
  public static let minorNinth = ChordType("min9", ["1", "b3", "5", "b7", "9"])
  /// Power chord, `5`: 1 5.
  public static let power = ChordType("5", ["1", "5"])
  /// The root alone, `1`.
  public static let rootOnly = ChordType("1", ["1"])

  /// Every named type, in the order above.
  public static let all: [ChordType] = [
    .major, .minor, .diminished, .augmented, .suspendedSecond, .suspendedFourth, .majorSeventh,
    .minorSeventh, .dominantSeventh, .diminishedSeventh, .halfDiminishedSeventh, .minorMajorSeventh,
    .majorSixth, .minorSixth, .dominantNinth, .majorNinth, .minorNinth, .power, .rootOnly,
  ]

  /// The named type with this Harte shorthand, or `nil` (`""` is `maj`, and `6` is read as `maj6`).
  ///
  /// - Parameter shorthand: The shorthand, such as `min7`.
  public init?(shorthand: String) {
    let name = shorthand.isEmpty ? "maj" : shorthand == "6" ? "maj6" : shorthand
    guard let type = Self.all.first(where: { $0.shorthand == name }) else { return nil }
    self = type
  }

  /// The pitch classes above a root on C, in ``intervals`` order (`min7`: 0, 3, 7, 10).
  public var pitchClasses: [PitchClass] { intervals.map { PitchClass($0.semitones) } }

  /// The pitch classes above the root, as semitones `0...11`, in ``intervals`` order.
  public var semitones: [Int] { pitchClasses.map(\.rawValue) }

  /// The Harte form: the shorthand, or the interval list such as `(1,3,#5,b7)`.
  public var description: String {
    shorthand ?? "(" + intervals.map(\.harteDegree).joined(separator: ",") + ")"
  }

  /// Parses the type part of a Harte label: `maj`, `min7`, `(1,b3,5)`, `maj(9)`, `min7(*b7)`.
  ///
  /// - Parameter text: The type, without root or bass.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(harte text: String) throws(ScoreModelError) {
    let characters = Array(text)
    var index = 0
    self = try Self.parseHarte(characters, at: &index, text: text)
    guard index == characters.count else {
      throw .parse(text: text, offset: index, expected: "the end of the chord type")
    }
  }

  /// Parses a chord type such as `min7`, or returns `nil`.
  ///
  /// - Parameter description: The type in Harte form.
  public init?(_ description: String) {
    do { try self.init(harte: description) } catch { return nil }
  }

  /// Decodes a chord type from its Harte form, such as `"min7"` or `"(1,3,#5)"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a chord type.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(harte: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the chord type as its Harte form, such as `"min7"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Parses a shorthand and an optional parenthesised list of degrees starting at `index`,
  /// stopping before a `/` or the end; `index` ends after what was read.
  ///
  /// - Parameters:
  ///   - characters: The whole label.
  ///   - index: Where the type starts; on return, the first character after it.
  ///   - text: The whole label, for error messages.
  static func parseHarte(_ characters: [Character], at index: inout Int, text: String) throws(ScoreModelError)
    -> ChordType
  {
    let start = index
    while index < characters.count, characters[index] != "(", characters[index] != "/" { index += 1 }
    let shorthand = String(characters[start..<index])
    let hasList = index < characters.count && characters[index] == "("
    var type = ChordType.major
    if shorthand.isEmpty && hasList {
      type = ChordType(intervals: [])
    } else if let named = ChordType(shorthand: shorthand), !shorthand.isEmpty {
      type = named
    } else {
      throw .parse(
        text: text, offset: start, expected: "a chord shorthand such as maj, min, 7, min7, hdim7, sus4")
    }
    guard hasList else { return type }
    index += 1
    var intervals = Set(shorthand.isEmpty ? [] : type.intervals)
    while true {
      let itemStart = index
      while index < characters.count, characters[index] != ",", characters[index] != ")" { index += 1 }
      guard index < characters.count else {
        throw .parse(text: text, offset: index, expected: "\")\" closing the interval list")
      }
      var item = Substring(String(characters[itemStart..<index]))
      let omit = item.first == "*"
      if omit { item = item.dropFirst() }
      guard let interval = Interval(harteDegree: item) else {
        throw .parse(text: text, offset: itemStart, expected: "a degree such as 3, b3, #5, b7 or 9")
      }
      if omit { intervals.remove(interval) } else { intervals.insert(interval) }
      let separator = characters[index]
      index += 1
      if separator == ")" { break }
    }
    return ChordType(intervals: Array(intervals))
  }
}
