import Foundation
import ScoreModel

extension Preset {
  /// The largest preset file read: 1 MiB (a preset is a few kilobytes).
  public static let maximumFileBytes = 1 << 20

  /// Reads a preset from JSON and checks it (``validate()``).
  ///
  /// - Parameters:
  ///   - jsonData: The file's bytes.
  ///   - name: The name to report in errors (the file's); the document's own name when `nil`.
  /// - Throws: ``PresetError/unsupportedVersion(name:found:)`` for a schema this version does not
  ///   read; ``PresetError/corrupt(name:reason:)`` for anything else wrong (not JSON, a missing
  ///   or mistyped field, a value out of range, more than ``maximumFileBytes``), with the JSON
  ///   path at fault.
  public init(jsonData: Data, name: String? = nil) throws(PresetError) {
    let label = name ?? "(unnamed)"
    guard jsonData.count <= Self.maximumFileBytes else {
      throw .corrupt(
        name: label, reason: "\(jsonData.count) bytes, more than the \(Self.maximumFileBytes) allowed")
    }
    // The schema first, so a future version's preset is reported as such rather than as damage.
    let probe: SchemaProbe
    do {
      probe = try JSONDecoder().decode(SchemaProbe.self, from: jsonData)
    } catch {
      throw .corrupt(name: label, reason: Self.describe(error))
    }
    guard let schema = probe.schema else {
      throw .corrupt(name: label, reason: "no \"schema\" (expected \"\(Self.schema)\")")
    }
    guard Self.isSupported(schema: schema) else {
      throw .unsupportedVersion(name: name ?? probe.name ?? label, found: schema)
    }
    do {
      self = try JSONDecoder().decode(Preset.self, from: jsonData)
    } catch {
      throw .corrupt(name: name ?? probe.name ?? label, reason: Self.describe(error))
    }
    do {
      try validate()
    } catch {
      guard case .invalidValue(let field, let value, let expected) = error else {
        throw .corrupt(name: name ?? self.name, reason: error.description)
      }
      throw .corrupt(name: name ?? self.name, reason: "\(field) is \(value); expected \(expected)")
    }
  }

  /// The preset as pretty-printed JSON with sorted keys, as a ``PresetStore`` writes it.
  ///
  /// - Returns: UTF-8 JSON ending in a newline.
  /// - Throws: ``PresetError/invalidValue(field:value:expected:)`` when a value cannot be written
  ///   as JSON (a non-finite number).
  public func jsonData() throws(PresetError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return try encoder.encode(self) + Data("\n".utf8)
    } catch {
      throw .invalidValue(field: Self.describe(error), value: "not encodable", expected: "finite numbers")
    }
  }

  /// Just enough of a document to read its version first.
  struct SchemaProbe: Decodable {
    var schema: String?
    var name: String?

    private enum CodingKeys: String, CodingKey { case schema, name }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      // Any type other than a string counts as missing here; the full decode reports it.
      schema = (try? container.decodeIfPresent(String.self, forKey: .schema)) ?? nil
      name = (try? container.decodeIfPresent(String.self, forKey: .name)) ?? nil
    }
  }

  /// A decoding error as `path: what`, such as `voices[1].level: expected a number`.
  static func describe(_ error: any Error) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      codingPath.isEmpty ? "(document)" : codingPath.jsonPath
    }
    switch error {
    case DecodingError.typeMismatch(let type, let context):
      return "\(path(context.codingPath)): expected \(Self.jsonName(of: type))"
    case DecodingError.valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(Self.jsonName(of: type)), found null"
    case DecodingError.keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): missing"
    case DecodingError.dataCorrupted(let context):
      let underlying = context.underlyingError.map { " (\(String(describing: $0)))" } ?? ""
      return "\(path(context.codingPath)): \(context.debugDescription)\(underlying)"
    case EncodingError.invalidValue(_, let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    default:
      return String(describing: error)
    }
  }

  static func jsonName(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is Double.Type, is Float.Type: "a number"
    case is Int.Type: "an integer"
    case is [Any].Type: "an array"
    default:
      String(describing: type).hasPrefix("Array") ? "an array" : "an object"
    }
  }
}
