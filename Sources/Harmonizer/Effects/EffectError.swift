/// What can go wrong when naming effects and parameters or building an ``EffectsRack``.
public enum EffectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No built-in effect has this name; `valid` lists the names there are.
  case unknownEffect(name: String, valid: [String])
  /// The effect has no parameter of this name; `valid` lists its parameters.
  case unknownParameter(effect: String, name: String, valid: [String])
  /// A value or setting is out of what is accepted: its name, the value given and what is
  /// accepted.
  case invalidValue(name: String, value: String, expected: String)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .unknownEffect(let name, let valid):
      "unknown effect '\(name)' (valid effects: \(valid.joined(separator: ", ")))"
    case .unknownParameter(let effect, let name, let valid):
      "unknown parameter '\(name)' of \(effect) (valid parameters: \(valid.joined(separator: ", ")))"
    case .invalidValue(let name, let value, let expected):
      "invalid \(name): \(value) (expected \(expected))"
    }
  }
}
