import Foundation

/// Sequential bytes from memory or from a file, for the audio-file readers.
///
/// Reading past the end returns fewer bytes, never throws; only I/O failures throw.
final class ByteStream {
  private enum Source {
    case memory(Data)
    case file(FileHandle, path: String)
  }

  private let source: Source
  /// The offset of the next byte to read.
  private(set) var position = 0
  /// The total length, when known (always for memory and regular files).
  let length: Int?

  /// Streams the bytes of `data`.
  init(data: Data) {
    source = .memory(data)
    length = data.count
  }

  /// Streams the bytes of the file at `url`.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` when it cannot be opened.
  init(url: URL) throws(PitchDSPError) {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .io(path: path, message: "no such file")
    }
    guard !isDirectory.boolValue else { throw .io(path: path, message: "is a directory") }
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw .io(path: path, message: "cannot open: \(error.localizedDescription)")
    }
    do {
      length = Int(try handle.seekToEnd())
      try handle.seek(toOffset: 0)
    } catch {
      throw .io(path: path, message: "cannot seek: \(error.localizedDescription)")
    }
    source = .file(handle, path: path)
  }

  deinit {
    // Closing a read-only handle cannot lose data; a failure here has no one to report to.
    if case .file(let handle, _) = source { handle.closeFile() }
  }

  /// Bytes left from ``position`` to the end, when the length is known.
  var remaining: Int? { length.map { max(0, $0 - position) } }

  /// Reads up to `count` bytes; fewer at the end.
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a read failure.
  func read(_ count: Int) throws(PitchDSPError) -> [UInt8] {
    guard count > 0 else { return [] }
    switch source {
    case .memory(let data):
      let start = data.startIndex + min(position, data.count)
      let end = data.startIndex + min(position + count, data.count)
      position += end - start
      return [UInt8](data[start..<end])
    case .file(let handle, let path):
      do {
        let chunk = try handle.read(upToCount: count) ?? Data()
        position += chunk.count
        return [UInt8](chunk)
      } catch {
        throw .io(path: path, message: "read failed at byte \(position): \(error.localizedDescription)")
      }
    }
  }

  /// Skips `count` bytes (or to the end).
  ///
  /// - Throws: ``PitchDSPError/io(path:message:)`` on a seek failure.
  func skip(_ count: Int) throws(PitchDSPError) {
    guard count > 0 else { return }
    let target = length.map { min(position + count, $0) } ?? position + count
    switch source {
    case .memory:
      position = target
    case .file(let handle, let path):
      do {
        try handle.seek(toOffset: UInt64(target))
        position = target
      } catch {
        throw .io(path: path, message: "seek to byte \(target) failed: \(error.localizedDescription)")
      }
    }
  }
}
