import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file so that a crash or an error at any moment leaves either the old file or the
/// new one, whole, never a mix.
///
/// The bytes go to a hidden temporary file in the destination's directory (same file system, so
/// the last step is a rename, not a copy), which is flushed to disk (`fsync`) and then moved into
/// place in one step: `rename(2)` over an existing file when replacing, or `link(2)`, which fails
/// if the destination appeared meanwhile, when creating. The directory is flushed afterwards so
/// the new name survives a power cut. On an error the temporary file is removed; after a crash a
/// stale `.NAME.*.tmp` file may remain, which ``PresetStore`` ignores.
enum AtomicFileWriter {
  /// Where a simulated crash stops a write (tests only).
  enum Interruption: Sendable {
    /// Stops after half the bytes reached the temporary file, leaving it behind as a crash would.
    case crashMidWrite
    /// Fails after the temporary file is complete, before it is moved into place (an ordinary
    /// error: the temporary file is removed).
    case failBeforeRename
  }

  /// Writes `data` to `url`.
  ///
  /// - Parameters:
  ///   - data: The file's new content.
  ///   - url: The destination.
  ///   - replacing: `true` to replace an existing file; `false` to fail if one exists.
  ///   - interruption: A simulated failure, for tests; `nil` otherwise.
  /// - Throws: ``PresetError/io(path:reason:)``; with `replacing == false` and an existing file,
  ///   ``PresetError/duplicateName(name:existing:)``.
  static func write(
    _ data: Data, to url: URL, replacing: Bool, interruption: Interruption? = nil
  ) throws(PresetError) {
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw io(temporary, "cannot create a temporary file", errno) }
    var keepTemporary = false
    var moved = false
    defer { if !moved && !keepTemporary { unlink(temporary.path) } }
    do {
      defer { close(descriptor) }
      let count = interruption == .crashMidWrite ? data.count / 2 : data.count
      let failure = writeAll(Array(data.prefix(count)), to: descriptor)
      if failure != 0 { throw io(temporary, "write failed", failure) }
      if interruption == .crashMidWrite {
        keepTemporary = true
        throw PresetError.io(path: url.path, reason: "simulated crash mid-write")
      }
      guard fsync(descriptor) == 0 else { throw io(temporary, "fsync failed", errno) }
    }
    if interruption == .failBeforeRename {
      throw PresetError.io(path: url.path, reason: "simulated failure before the rename")
    }
    if replacing {
      guard rename(temporary.path, url.path) == 0 else {
        throw io(url, "cannot move the new file into place", errno)
      }
    } else {
      guard link(temporary.path, url.path) == 0 else {
        let code = errno
        if code == EEXIST {
          throw PresetError.duplicateName(
            name: url.deletingPathExtension().lastPathComponent,
            existing: url.deletingPathExtension().lastPathComponent)
        }
        throw io(url, "cannot move the new file into place", code)
      }
      unlink(temporary.path)
    }
    moved = true
    let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      // Best effort: some file systems refuse fsync on a directory; the rename is done either way.
      _ = fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  private static func io(_ url: URL, _ what: String, _ code: Int32) -> PresetError {
    .io(path: url.path, reason: "\(what): \(String(cString: strerror(code)))")
  }
}

/// Writes all of `bytes` to a file descriptor, retrying after interruptions.
///
/// - Returns: 0, or the `errno` of the failure.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }
}
