/// The errors MIDIJSON throws: unreadable MIDI files, malformed JSON compositions.
///
/// Each case says where (byte offset or JSON path) and what was expected there.
public enum MIDIJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The data is not a Standard MIDI File (no `MThd` chunk, nor a RIFF RMID wrapper around one).
  case notMIDI(found: String)
  /// The data ended before a structure was complete: at byte `offset`, `context` needs `needed`
  /// bytes and `available` remain.
  case truncated(offset: Int, needed: Int, available: Int, context: String)
  /// A header field holds a value that cannot be right.
  case invalidHeader(offset: Int, reason: String)
  /// An event breaks the format where strict reading was asked for (lenient reading repairs it
  /// and warns instead).
  case invalidEvent(offset: Int, track: Int, reason: String)
  /// The text is not JSON: at `line` and `column` (both from 1), `reason`.
  case malformedJSON(line: Int, column: Int, reason: String)
  /// A JSON document does not have the expected shape at `path` (such as `events[3][2]`).
  case invalidJSON(path: String, reason: String)
  /// A file could not be read or written.
  case io(path: String, message: String)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .notMIDI(let found):
      return "not a Standard MIDI File: expected \"MThd\" (or a RIFF RMID file), found \(found)"
    case .truncated(let offset, let needed, let available, let context):
      return "truncated at byte \(offset): \(context) needs \(needed) bytes, \(available) available"
    case .invalidHeader(let offset, let reason):
      return "invalid MIDI header at byte \(offset): \(reason)"
    case .invalidEvent(let offset, let track, let reason):
      return "invalid event in track \(track) at byte \(offset): \(reason)"
    case .malformedJSON(let line, let column, let reason):
      return "not valid JSON at line \(line), column \(column): \(reason)"
    case .invalidJSON(let path, let reason):
      return "invalid JSON at \(path.isEmpty ? "the top level" : path): \(reason)"
    case .io(let path, let message):
      return "\(path): \(message)"
    }
  }
}

/// Something a lenient read repaired or skipped, with where it happened.
public struct MIDIWarning: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The byte offset in the file, when the warning is about bytes.
  public var offset: Int?
  /// The track index, when the warning is about one track.
  public var track: Int?
  /// What was wrong and what the reader did.
  public var message: String

  /// Creates a warning.
  public init(offset: Int? = nil, track: Int? = nil, message: String) {
    self.offset = offset
    self.track = track
    self.message = message
  }

  /// The warning as one line, such as `track 1, byte 112: running status after a meta event`.
  public var description: String {
    let place = [track.map { "track \($0)" }, offset.map { "byte \($0)" }].compactMap { $0 }.joined(separator: ", ")
    return place.isEmpty ? message : "\(place): \(message)"
  }
}
