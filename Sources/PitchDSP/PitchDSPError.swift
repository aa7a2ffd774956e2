/// The errors PitchDSP throws: bad parameters, unreadable or malformed audio files.
///
/// Every case carries enough context to act on: the file, the byte offset, what was expected and
/// what was found. ``description`` prints it as one sentence.
public enum PitchDSPError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A parameter is outside the values the API accepts.
  case invalidParameter(name: String, value: String, expected: String)
  /// The file could not be opened, read or written.
  case io(path: String, message: String)
  /// The data ended before a structure was complete.
  ///
  /// `offset` is where the structure starts, `needed` the bytes it takes, `available` the bytes
  /// left from `offset`.
  case truncated(offset: Int, needed: Int, available: Int, context: String)
  /// A header field holds a value that cannot be right.
  case invalidHeader(offset: Int, reason: String)
  /// The file is well formed but stores samples in an encoding PitchDSP does not decode.
  case unsupportedEncoding(formatTag: Int, bitsPerSample: Int)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .invalidParameter(let name, let value, let expected):
      return "invalid \(name) \(value): expected \(expected)"
    case .io(let path, let message):
      return "\(path): \(message)"
    case .truncated(let offset, let needed, let available, let context):
      return "truncated at byte \(offset): \(context) needs \(needed) bytes, \(available) available"
    case .invalidHeader(let offset, let reason):
      return "invalid header at byte \(offset): \(reason)"
    case .unsupportedEncoding(let formatTag, let bits):
      let tag = "0x" + String(formatTag, radix: 16, uppercase: true)
      return "unsupported sample encoding: format tag \(tag) with \(bits) bits per sample "
        + "(supported: integer PCM 8/16/24/32-bit, IEEE float 32/64-bit, and their EXTENSIBLE forms)"
    }
  }
}
