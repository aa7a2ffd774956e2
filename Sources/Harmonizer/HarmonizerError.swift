/// What can go wrong when setting up the harmonizer's processors.
public enum HarmonizerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A parameter is out of its range: its name, the value given and what is accepted.
  case invalidParameter(name: String, value: String, expected: String)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .invalidParameter(let name, let value, let expected):
      "invalid \(name): \(value) (expected \(expected))"
    }
  }
}
