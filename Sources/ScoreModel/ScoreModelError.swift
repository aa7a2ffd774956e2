/// The errors ScoreModel throws: text that does not parse, values out of range or not valid.
///
/// Cases carry the input and, for parse errors, the character offset and what was expected there;
/// ``found`` names what stood there instead.
public enum ScoreModelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `text` does not parse: at character `offset` (0-based, counted in `Character`s), `expected`
  /// was expected.
  case parse(text: String, offset: Int, expected: String)
  /// An integer value is outside its valid range (a MIDI note of 200).
  case outOfRange(what: String, value: Int, range: ClosedRange<Int>)
  /// A value is not valid (a reference pitch of 0 Hz); `value` is its text, `expected` what is valid.
  case invalidValue(what: String, value: String, expected: String)

  /// For a parse error, the text from the offending character on, or `nil` at the end of the text
  /// and for other errors.
  public var found: String? {
    guard case .parse(let text, let offset, _) = self, offset >= 0, offset < text.count else { return nil }
    return String(text.dropFirst(offset))
  }

  /// A message a user can act on, such as
  /// `cannot parse "C:foo" at character 2: expected a chord shorthand …, found "foo"`.
  public var description: String {
    switch self {
    case .parse(let text, let offset, let expected):
      let found = found.map { "\"\($0)\"" } ?? "the end of the text"
      return "cannot parse \"\(text)\" at character \(offset): expected \(expected), found \(found)"
    case .outOfRange(let what, let value, let range):
      return "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
    case .invalidValue(let what, let value, let expected):
      return "\(what) \(value) is not valid: expected \(expected)"
    }
  }
}
