import Foundation
import ScoreModel

extension Preset {
  enum CodingKeys: String, CodingKey, CaseIterable {
    case schema, name, description, created, modified, key, chord, voices, autoTune, volumes, rack, sequencer,
      sample
  }

  /// Any key, for collecting the unknown ones.
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Decodes a preset. Only `schema` and `name` are required; every other field has a default
  /// (a missing `created` is `modified`, or the time of reading; a missing `modified` is
  /// `created`).
  /// Unknown top-level keys are kept in ``unknownFields``.
  ///
  /// Prefer ``init(jsonData:name:)``, which turns every failure into a ``PresetError``.
  ///
  /// - Throws: `DecodingError` for a missing or foreign schema, a missing name, a field of the
  ///   wrong type, or a date that is not ISO 8601.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let schema = try container.decode(String.self, forKey: .schema)
    guard Self.isSupported(schema: schema) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [CodingKeys.schema], debugDescription: "unsupported schema \"\(schema)\""))
    }
    name = try container.decode(String.self, forKey: .name)
    description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
    let modified = try Self.decodeDate(container, .modified)
    // A document without dates (written by hand) counts as made when it is read.
    let created = try Self.decodeDate(container, .created) ?? modified ?? Self.wholeSeconds(Date())
    self.created = created
    self.modified = modified ?? created
    key = try container.decodeIfPresent(Key.self, forKey: .key)
    chord = try container.decodeIfPresent(Chord.self, forKey: .chord)
    voices = try container.decodeIfPresent([PresetVoice].self, forKey: .voices) ?? []
    autoTune = try container.decodeIfPresent(PresetAutoTune.self, forKey: .autoTune) ?? PresetAutoTune()
    volumes = try container.decodeIfPresent(PresetVolumes.self, forKey: .volumes) ?? PresetVolumes()
    rack = try container.decodeIfPresent([PresetEffect].self, forKey: .rack) ?? []
    sequencer = try container.decodeIfPresent(PresetSequencer.self, forKey: .sequencer) ?? PresetSequencer()
    sample = try container.decodeIfPresent(PresetSampleReference.self, forKey: .sample)
    let all = try decoder.container(keyedBy: AnyKey.self)
    var unknown: [String: PresetJSONValue] = [:]
    for key in all.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
      unknown[key.stringValue] = try all.decode(PresetJSONValue.self, forKey: key)
    }
    unknownFields = unknown
  }

  /// Encodes the preset with ``schema``, dates as ISO 8601 (UTC, whole seconds), and the kept
  /// unknown fields.
  ///
  /// - Throws: `EncodingError` for a non-finite number (``validate()`` rejects those first).
  public func encode(to encoder: any Encoder) throws {
    var extra = encoder.container(keyedBy: AnyKey.self)
    for (key, value) in unknownFields where CodingKeys(stringValue: key) == nil {
      try extra.encode(value, forKey: AnyKey(stringValue: key))
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.schema, forKey: .schema)
    try container.encode(name, forKey: .name)
    try container.encode(description, forKey: .description)
    try container.encode(Self.format(created), forKey: .created)
    try container.encode(Self.format(modified), forKey: .modified)
    try container.encodeIfPresent(key, forKey: .key)
    try container.encodeIfPresent(chord, forKey: .chord)
    try container.encode(voices, forKey: .voices)
    try container.encode(autoTune, forKey: .autoTune)
    try container.encode(volumes, forKey: .volumes)
    try container.encode(rack, forKey: .rack)
    try container.encode(sequencer, forKey: .sequencer)
    try container.encodeIfPresent(sample, forKey: .sample)
  }

  /// Whether this version reads a schema: ``schema`` itself, or an additive revision of it
  /// (`etude-preset/1.N`, which may only add keys).
  ///
  /// - Parameter schema: The file's `schema` value.
  public static func isSupported(schema: String) -> Bool {
    if schema == Self.schema { return true }
    let prefix = Self.schema + "."
    guard schema.hasPrefix(prefix) else { return false }
    let revision = schema.dropFirst(prefix.count)
    return !revision.isEmpty && revision.count <= 9 && revision.allSatisfy { $0.isASCII && $0.isNumber }
  }

  static func format(_ date: Date) -> String {
    wholeSeconds(date).formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
  }

  static func decodeDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
    guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
    let plain = Date.ISO8601FormatStyle()
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    // Two accepted spellings: a failed parse only means "try the other".
    if let date = (try? plain.parse(text)) ?? (try? fractional.parse(text)) { return wholeSeconds(date) }
    throw DecodingError.dataCorruptedError(
      forKey: key, in: container,
      debugDescription: "\"\(text)\" is not an ISO 8601 date such as 2025-03-01T12:00:00Z")
  }
}
