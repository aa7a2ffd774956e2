/// The errors PitchDSP throws: bad parameters, missing or unreadable files, malformed audio files.
///
/// PitchDSP has this one error enum; every throwing API in the module declares
/// `throws(PitchDSPError)`. Each case carries enough context to act on — the file, the byte
/// offset, what was expected and what was found — and ``description`` prints it as one sentence:
///
/// ```
/// truncated at byte 12: WAV chunk header needs 8 bytes, 3 available
/// invalid header at byte 22: channel count 0, expected 1...4096
/// unsupported sample encoding: format tag 0x2 with 4 bits per sample (supported: …)
/// ```
public enum PitchDSPError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A parameter is outside the values the API accepts.
  ///
  /// - Parameters:
  ///   - name: The parameter, in words (`"sample rate"`, `"FFT size"`).
  ///   - value: The value given, printed.
  ///   - expected: What would have been accepted (`"a power of two from 2 to 65536"`).
  case invalidParameter(name: String, value: String, expected: String)
  /// No file or directory exists at `path`.
  case fileNotFound(path: String)
  /// A file exists but could not be opened, read, written or moved into place.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - message: What failed, with the system's reason.
  case io(path: String, message: String)
  /// The data ended before a structure was complete.
  ///
  /// - Parameters:
  ///   - offset: The byte offset where the structure starts.
  ///   - needed: The bytes the structure takes.
  ///   - available: The bytes left from `offset` to the end of the data.
  ///   - context: The structure, in words (`"WAV fmt chunk"`).
  case truncated(offset: Int, needed: Int, available: Int, context: String)
  /// A header field holds a value that cannot be right.
  ///
  /// - Parameters:
  ///   - offset: The byte offset of the field.
  ///   - reason: The value found and what was expected.
  case invalidHeader(offset: Int, reason: String)
  /// The file is well formed but stores samples in an encoding PitchDSP does not decode.
  ///
  /// - Parameters:
  ///   - formatTag: The WAV format tag (for `WAVE_FORMAT_EXTENSIBLE`, the sub-format's tag, or
  ///     0xFFFE when the sub-format GUID is not PCM or IEEE float).
  ///   - bitsPerSample: The container size of one sample, in bits.
  case unsupportedEncoding(formatTag: Int, bitsPerSample: Int)

  /// A message a user can act on, naming the file or byte offset where it applies.
  public var description: String {
    switch self {
    case .invalidParameter(let name, let value, let expected):
      return "invalid \(name) \(value): expected \(expected)"
    case .fileNotFound(let path):
      return "\(path): no such file"
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
