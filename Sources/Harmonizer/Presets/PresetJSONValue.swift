/// Any JSON value, kept as it was read: how a ``Preset`` carries top-level fields that this
/// version of Etude does not know, so that saving the preset again does not lose them.
public enum PresetJSONValue: Sendable, Hashable, Codable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([PresetJSONValue])
  /// An object.
  case object([String: PresetJSONValue])

  /// Decodes whatever JSON value is there.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for a value that is none of the JSON kinds.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Probes the kinds in turn (a failed probe only means "not this kind"); the last attempt,
    // an object, reports the error when the value is none of them.
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([PresetJSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: PresetJSONValue].self))
    }
  }

  /// Encodes the value as it was read.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite number.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
