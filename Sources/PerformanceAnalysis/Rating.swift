/// What an analyzer says about one aspect of a note: `correct`, `aBitLate`, `wrongNote`...
///
/// The built-in ratings are the static members; an analyzer of its own may rate with any other
/// name (`Rating("breathy")`). The raw value is what JSON output carries.
public struct Rating: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The rating's name, in lowerCamelCase.
  public var rawValue: String

  /// A rating by name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A rating by name.
  public init(_ name: String) { self.rawValue = name }

  /// A rating by name, from a string literal.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Reads the name from a single JSON string.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Writes the name as a single JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public var description: String { rawValue }

  /// As expected.
  public static let correct: Rating = "correct"
  /// Started a little early.
  public static let aBitEarly: Rating = "aBitEarly"
  /// Started much too early.
  public static let veryEarly: Rating = "veryEarly"
  /// Started a little late.
  public static let aBitLate: Rating = "aBitLate"
  /// Started much too late.
  public static let veryLate: Rating = "veryLate"
  /// Held a little short.
  public static let aBitShort: Rating = "aBitShort"
  /// Held much too short.
  public static let veryShort: Rating = "veryShort"
  /// Barely sounded.
  public static let tooShort: Rating = "tooShort"
  /// Held a little long.
  public static let aBitLong: Rating = "aBitLong"
  /// Held much too long.
  public static let veryLong: Rating = "veryLong"
  /// Held far past its value.
  public static let tooLong: Rating = "tooLong"
  /// A little flat.
  public static let aBitFlat: Rating = "aBitFlat"
  /// Very flat (but nearer this note than the next).
  public static let veryFlat: Rating = "veryFlat"
  /// A little sharp.
  public static let aBitSharp: Rating = "aBitSharp"
  /// Very sharp (but nearer this note than the next).
  public static let verySharp: Rating = "verySharp"
  /// Another note.
  public static let wrongNote: Rating = "wrongNote"
  /// The right note in another octave.
  public static let octave: Rating = "octave"
  /// A higher partial of the same fingering (brass).
  public static let upperPartial: Rating = "upperPartial"
  /// A lower partial of the same fingering (brass).
  public static let lowerPartial: Rating = "lowerPartial"
  /// The pitch wandered during the note.
  public static let wavering: Rating = "wavering"
  /// Not played.
  public static let missed: Rating = "missed"
  /// Something sounded where the score has a rest.
  public static let soundDuringRest: Rating = "soundDuringRest"

  /// Every built-in rating.
  public static let builtIn: [Rating] = [
    .correct, .aBitEarly, .veryEarly, .aBitLate, .veryLate, .aBitShort, .veryShort, .tooShort, .aBitLong,
    .veryLong, .tooLong, .aBitFlat, .veryFlat, .aBitSharp, .verySharp, .wrongNote, .octave, .upperPartial,
    .lowerPartial, .wavering, .missed, .soundDuringRest,
  ]
}
