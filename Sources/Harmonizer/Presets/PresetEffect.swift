/// One slot of a preset's effects rack: which effect, whether it is bypassed, and its
/// parameters.
///
/// Parameters are keyed by the effect's name and the parameter's, as the command line writes
/// them: `{"effect": "delay", "bypassed": false, "parameters": {"delay.time": 0.3,
/// "delay.feedback": 0.4}}`. A parameter not listed keeps the effect's default. The engine
/// applies the values through the effect's named parameters (clamped into their ranges there);
/// a preset only checks that the keys are well formed and the values finite.
public struct PresetEffect: Sendable, Hashable, Codable {
  /// The effect's name, lower camel case: `chorus`, `overdrive`, `delay`, `reverb`, `adsr`,
  /// `lowPass`, `volume`, or a user effect's.
  public var effect: String
  /// Whether the slot passes its input through untouched.
  public var isBypassed: Bool
  /// Parameter values keyed `effect.parameter` (such as `delay.time`), in the parameter's unit.
  public var parameters: [String: Double]

  /// Describes a rack slot.
  ///
  /// - Parameters:
  ///   - effect: The effect's name.
  ///   - isBypassed: Whether the slot is bypassed; `false` by default.
  ///   - parameters: Values keyed `effect.parameter`; none (all defaults) by default.
  public init(_ effect: String, isBypassed: Bool = false, parameters: [String: Double] = [:]) {
    self.effect = effect
    self.isBypassed = isBypassed
    self.parameters = parameters
  }

  /// The value of a parameter, by its short name (`time` for `delay.time`).
  ///
  /// - Parameter name: The parameter's name without the effect prefix.
  /// - Returns: The stored value, or `nil` when the preset leaves it at its default.
  public func value(of name: String) -> Double? { parameters["\(effect).\(name)"] }

  private enum CodingKeys: String, CodingKey {
    case effect
    case isBypassed = "bypassed"
    case parameters
  }

  /// Decodes a slot; `bypassed` defaults to `false` and `parameters` to none.
  ///
  /// - Throws: `DecodingError` when `effect` is missing or a field has the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    effect = try container.decode(String.self, forKey: .effect)
    isBypassed = try container.decodeIfPresent(Bool.self, forKey: .isBypassed) ?? false
    parameters = try container.decodeIfPresent([String: Double].self, forKey: .parameters) ?? [:]
  }
}
