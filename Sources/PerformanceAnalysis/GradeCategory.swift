/// An aspect of a note that an analyzer grades: timing, duration, pitch, rest, or one of a
/// researcher's own.
public struct GradeCategory: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The category's name, in lowerCamelCase.
  public var rawValue: String

  /// A category by name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A category by name, from a string literal.
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

  /// When the note started (the attack), against the score and against the local tempo.
  public static let timing: GradeCategory = "timing"
  /// How long it sounded, as a ratio of its written value.
  public static let duration: GradeCategory = "duration"
  /// Its pitch.
  public static let pitch: GradeCategory = "pitch"
  /// Silence where the score has a rest.
  public static let rest: GradeCategory = "rest"
}
