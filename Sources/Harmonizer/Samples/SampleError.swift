/// What went wrong loading, editing, recording or playing a ``Sample``.
///
/// Each case carries what a user needs to act on: the file, the frames or seconds asked for, and
/// the range that would have been accepted.
public enum SampleError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No file at `path`.
  case fileNotFound(path: String)
  /// The file exists but is not a WAV file this library reads (truncated, corrupt, an
  /// unsupported encoding, or a read error); `reason` is the WAV reader's message.
  case unreadable(path: String, reason: String)
  /// The file could not be written.
  case unwritable(path: String, reason: String)
  /// The file holds no audio frames.
  case empty(path: String)
  /// A trim that does not fit the recording: `start` and `end` in frames, against `frameCount`.
  case invalidTrim(start: Int, end: Int, frameCount: Int)
  /// A loop region that does not fit the trimmed sample: `start` and `end` in frames from the
  /// trim start, against the trimmed length `frameCount`.
  case invalidLoop(start: Int, end: Int, frameCount: Int)
  /// A parameter out of its range (a sample rate, a length, a time in seconds).
  case invalidParameter(name: String, value: String, expected: String)

  /// A message a user can act on.
  public var description: String {
    switch self {
    case .fileNotFound(let path): "sample: no such file: \(path)"
    case .unreadable(let path, let reason): "sample: cannot read \(path): \(reason)"
    case .unwritable(let path, let reason): "sample: cannot write \(path): \(reason)"
    case .empty(let path): "sample: \(path) holds no audio"
    case .invalidTrim(let start, let end, let frameCount):
      "sample: trim \(start)..<\(end) frames does not fit the \(frameCount) frames recorded "
        + "(need 0 <= start < end <= \(frameCount))"
    case .invalidLoop(let start, let end, let frameCount):
      "sample: loop \(start)..<\(end) frames does not fit the \(frameCount) trimmed frames "
        + "(need 0 <= start < end <= \(frameCount), at least 2 frames)"
    case .invalidParameter(let name, let value, let expected):
      "sample: \(name) is \(value); expected \(expected)"
    }
  }
}
