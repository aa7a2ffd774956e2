/// Why a synthesis request could not be carried out.
///
/// Every parser in the module (tab text, SoundFont 2 files) reports malformed input with one of
/// these and never traps, whatever the bytes.
public enum SynthesisError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Tab text that does not follow the grammar: the 1-based `column` where reading stopped, what
  /// the grammar `expected` there and what was `found`.
  case tabSyntax(column: Int, expected: String, found: String)
  /// Tab text that parses but cannot be played (a string that does not exist, a fret too high, a
  /// duration that is not positive), at the 1-based `column` of the offending item.
  case invalidTab(column: Int, reason: String)
  /// A SoundFont 2 file that is not one, or is damaged: what was wrong and where.
  case malformedSoundFont(String)
  /// The SoundFont holds no preset for this bank and program.
  case presetNotFound(bank: Int, program: Int)
  /// A parameter out of its range: its name, the value given and the range or rule it breaks.
  case invalidParameter(name: String, value: String, reason: String)

  /// A one-line explanation for people.
  public var description: String {
    switch self {
    case .tabSyntax(let column, let expected, let found):
      return "tab, column \(column): expected \(expected), found \(found)"
    case .invalidTab(let column, let reason):
      return "tab, column \(column): \(reason)"
    case .malformedSoundFont(let reason):
      return "not a usable SoundFont 2 file: \(reason)"
    case .presetNotFound(let bank, let program):
      return "the SoundFont has no preset for bank \(bank), program \(program)"
    case .invalidParameter(let name, let value, let reason):
      return "\(name) = \(value): \(reason)"
    }
  }
}
