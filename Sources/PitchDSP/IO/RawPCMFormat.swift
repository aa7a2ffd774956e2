/// The sample format of headerless PCM: what `sox … -t raw` or `ffmpeg -f s16le` writes.
///
/// Parse one from a command-line word with ``init(parsing:)`` (or `init(rawValue:)`).
public enum RawPCMFormat: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Signed 16-bit little-endian integers, scaled by 1/32768.
  case s16le
  /// 32-bit little-endian IEEE floats, used as they are.
  case f32le

  /// Parses a format name, ignoring case: `"s16le"` or `"f32le"`.
  ///
  /// - Parameter name: The name, as typed by a user.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for any other name.
  public init(parsing name: String) throws(PitchDSPError) {
    guard let format = RawPCMFormat(rawValue: name.lowercased()) else {
      throw .invalidParameter(
        name: "raw PCM format", value: "\"\(name)\"",
        expected: Self.allCases.map(\.rawValue).joined(separator: " or "))
    }
    self = format
  }

  /// The matching sample encoding.
  public var encoding: SampleEncoding { self == .s16le ? .signed16 : .float32 }

  /// Bytes per sample (one channel of one frame).
  public var bytesPerSample: Int { encoding.bytesPerSample }

  /// The format's name, such as `"s16le"`.
  public var description: String { rawValue }
}
