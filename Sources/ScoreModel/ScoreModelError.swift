/// The errors ScoreModel throws: text that does not parse, values out of range or not valid, ZIP
/// archives and DEFLATE data that are broken or too large, XML and MusicXML that cannot be read.
///
/// Cases carry the input and, for parse errors, the character offset and what was expected there;
/// ``found`` names what stood there instead. Archive and compressed-data errors carry the byte offset
/// (0-based) where the problem was found and what was expected there.
public enum ScoreModelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `text` does not parse: at character `offset` (0-based, counted in `Character`s), `expected`
  /// was expected.
  case parse(text: String, offset: Int, expected: String)
  /// An integer value is outside its valid range (a MIDI note of 200).
  case outOfRange(what: String, value: Int, range: ClosedRange<Int>)
  /// A value is not valid (a reference pitch of 0 Hz); `value` is its text, `expected` what is valid.
  case invalidValue(what: String, value: String, expected: String)
  /// The bytes are not a readable ZIP archive: at byte `offset` of the archive, `reason` says what
  /// was expected and what was found.
  case invalidArchive(offset: Int, reason: String)
  /// The archive entry `path` cannot be extracted: its local header, compressed data or checksum is
  /// broken at byte `offset` of the archive.
  case invalidArchiveEntry(path: String, offset: Int, reason: String)
  /// The archive entry `path` uses a feature this reader does not implement (encryption, a
  /// compression method other than stored and deflated); `path` is empty when the whole archive
  /// does (an archive split over several files).
  case unsupportedArchiveEntry(path: String, reason: String)
  /// The archive has no entry at `path`.
  case archiveEntryNotFound(path: String)
  /// DEFLATE (RFC 1951) data is broken: at byte `offset` of the compressed stream, `reason` says
  /// what was expected.
  case invalidDeflateData(offset: Int, reason: String)
  /// Decompressed data would be larger than `limit` bytes, the size the caller allowed (a guard
  /// against decompression bombs); `what` names the data.
  case sizeLimitExceeded(what: String, limit: Int)
  /// The text is not well-formed XML: at `line` and `column` (both from 1), `reason`.
  case invalidXML(line: Int, column: Int, reason: String)
  /// The XML is not a MusicXML score Etude can read: at the element `path` (such as
  /// `score-partwise/part[P1]/measure[3]/note[2]/duration`) on `line`, `reason`.
  case invalidMusicXML(path: String, line: Int, reason: String)
  /// A file could not be read or written.
  case io(path: String, message: String)

  /// For a parse error, the text from the offending character on, or `nil` at the end of the text
  /// and for other errors.
  public var found: String? {
    guard case .parse(let text, let offset, _) = self, offset >= 0, offset < text.count else { return nil }
    return String(text.dropFirst(offset))
  }

  /// A message a user can act on, such as
  /// `cannot parse "C:foo" at character 2: expected a chord shorthand …, found "foo"`.
  public var description: String {
    switch self {
    case .parse(let text, let offset, let expected):
      let found = found.map { "\"\($0)\"" } ?? "the end of the text"
      return "cannot parse \"\(text)\" at character \(offset): expected \(expected), found \(found)"
    case .outOfRange(let what, let value, let range):
      return "\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
    case .invalidValue(let what, let value, let expected):
      return "\(what) \(value) is not valid: expected \(expected)"
    case .invalidArchive(let offset, let reason):
      return "not a valid ZIP archive at byte \(offset): \(reason)"
    case .invalidArchiveEntry(let path, let offset, let reason):
      return "cannot extract \"\(path)\" from the ZIP archive at byte \(offset): \(reason)"
    case .unsupportedArchiveEntry(let path, let reason):
      if path.isEmpty { return "cannot read the ZIP archive: \(reason) is not supported" }
      return "cannot extract \"\(path)\" from the ZIP archive: \(reason) is not supported"
    case .archiveEntryNotFound(let path):
      return "the ZIP archive has no entry \"\(path)\""
    case .invalidDeflateData(let offset, let reason):
      return "invalid DEFLATE data at byte \(offset): \(reason)"
    case .sizeLimitExceeded(let what, let limit):
      return "\(what) is larger than the limit of \(limit) bytes"
    case .invalidXML(let line, let column, let reason):
      return "not well-formed XML at line \(line), column \(column): \(reason)"
    case .invalidMusicXML(let path, let line, let reason):
      return "invalid MusicXML at \(path) (line \(line)): \(reason)"
    case .io(let path, let message):
      return "\(path): \(message)"
    }
  }
}
