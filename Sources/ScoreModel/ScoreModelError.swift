/// The errors ScoreModel throws: text that does not parse, values out of range.
///
/// Cases carry the input and, for parse errors, the character offset and what was expected there.
public enum ScoreModelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `text` does not parse: at character `offset` (0-based), `expected` was expected.
  case parse(text: String, offset: Int, expected: String)
  /// A value is outside its valid range.
  case outOfRange(what: String, value: Int, range: ClosedRange<Int>)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .parse(let text, let offset, let expected):
      return "cannot parse \"\(text)\" at character \(offset): expected \(expected)"
    case .outOfRange(let what, let value, let range):
      return "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
    }
  }
}
