import Foundation

/// Sequential bytes from memory, a file or a pipe: the one source every audio-file reader parses.
///
/// Reading past the end returns fewer bytes, never throws; only I/O failures throw. Every read
/// and skip is bounded by the count asked for, so a lying header cannot make the stream allocate
/// more than the caller's block size.
final class ByteStream {
  private enum Source {
    case memory(Data)
    case file(FileHandle, path: String, ownsHandle: Bool)
  }

  private let source: Source
  /// The offset of the next byte to read.
  private(set) var position = 0
  /// The total length, when known (always for memory and regular files; `nil` for pipes).
  let length: Int?
  /// The name used in error messages: the path, or a description such as "standard input".
  let name: String
  /// The largest block a skip on an unseekable source reads at once.
  private static let skipBlock = 1 << 16

  /// Streams the bytes of `data`.
  init(data: Data) {
    source = .memory(data)
    length = data.count
    name = "data"
  }

  /// Streams the bytes of the file at `url`.
  ///
  /// - Throws: ``PitchDSPError/fileNotFound(path:)`` or ``PitchDSPError/io(path:message:)`` when it
  ///   cannot be opened.
  init(url: URL) throws(PitchDSPError) {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .fileNotFound(path: path)
    }
    guard !isDirectory.boolValue else { throw .io(path: path, message: "is a directory") }
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw .io(path: path, message: "cannot open: \(error.localizedDescription)")
    }
    name = path
    length = Self.seekableLength(handle)
    source = .file(handle, path: path, ownsHandle: true)
  }

  /// Streams from an open handle, from its current position; the handle is not closed.
  ///
  /// A regular file's length is measured; a pipe's is unknown (`length` is `nil`).
  init(handle: FileHandle, name: String) {
    self.name = name
    length = Self.seekableLength(handle)
    source = .file(handle, path: name, ownsHandle: false)
  }

  deinit {
    // Closing a read-only handle cannot lose data; a failure here has no one to report to.
    if case .file(let handle, _, true) = source { handle.closeFile() }
  }

  /// The bytes from the handle's current offset to its end, restoring the offset; `nil` when the
  /// handle cannot seek (a pipe or terminal).
  private static func seekableLength(_ handle: FileHandle) -> Int? {
    do {
      let start = try handle.offset()
      let end = try handle.seekToEnd()
      try handle.seek(toOffset: start)
      guard end >= start, end - start <= UInt64(Int.max) else { return nil }
      return Int(end - start)
    } catch {
      // A failed seek is the expected answer for a pipe, not an error: the length is unknown.
      return nil
    }
  }

  /// Bytes left from ``position`` to the end, when the length is known.
  var remaining: Int? { length.map { max(0, $0 - position) } }

  /// Reads up to `count` bytes; fewer only at the end of the data.
  ///
  /// From memory the result shares the storage (no copy); its indices start where the bytes
  /// were in the source, so use `withUnsafeBytes` or `startIndex`.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  func read(_ count: Int) throws(PitchDSPError) -> Data {
    guard count > 0 else { return Data() }
    switch source {
    case .memory(let data):
      let skipped = min(position, data.count)
      let start = data.startIndex + skipped
      let end = start + min(count, data.count - skipped)
      position = skipped + (end - start)
      return data[start..<end]
    case .file(let handle, let path, _):
      // Cap a single request at what a known length allows, so a lying size cannot allocate.
      let want = remaining.map { min($0, count) } ?? count
      guard want > 0 else { return Data() }
      do {
        var chunk = try handle.read(upToCount: want) ?? Data()
        // A pipe may deliver less than asked before its end: keep reading until full or EOF.
        while chunk.count < want, let more = try handle.read(upToCount: want - chunk.count), !more.isEmpty {
          chunk.append(more)
        }
        position += chunk.count
        return chunk
      } catch {
        throw .io(path: path, message: "read failed at byte \(position): \(error.localizedDescription)")
      }
    }
  }

  /// Reads up to `count` bytes into an array (for small header structures).
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  func readBytes(_ count: Int) throws(PitchDSPError) -> [UInt8] {
    [UInt8](try read(count))
  }

  /// Skips `count` bytes, or to the end.
  ///
  /// Seeks where it can; on a pipe it reads and discards in blocks of 64 KiB.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a seek or read failure.
  func skip(_ count: Int) throws(PitchDSPError) {
    guard count > 0 else { return }
    switch source {
    case .memory:
      position = min(position + min(count, remaining ?? 0), length ?? 0)
    case .file(let handle, let path, _):
      if let remaining {
        let target = position + min(count, remaining)
        do {
          try handle.seek(toOffset: handle.offset() + UInt64(target - position))
          position = target
        } catch {
          throw .io(path: path, message: "seek to byte \(target) failed: \(error.localizedDescription)")
        }
      } else {
        var left = count
        while left > 0 {
          let chunk = try read(min(left, Self.skipBlock))
          if chunk.isEmpty { return }
          left -= chunk.count
        }
      }
    }
  }
}
