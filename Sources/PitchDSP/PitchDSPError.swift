/// Errors thrown by PitchDSP (provisional: the I/O work replaces this file with the full enum).
public enum PitchDSPError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A parameter is outside the values the API accepts.
  case invalidParameter(name: String, value: String, expected: String)

  public var description: String {
    switch self {
    case .invalidParameter(let name, let value, let expected):
      return "invalid \(name) \(value): expected \(expected)"
    }
  }
}
