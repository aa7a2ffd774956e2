import Foundation

/// A ZIP archive in memory, read through its central directory: the container of compressed
/// MusicXML (`.mxl`).
///
/// ```swift
/// let archive = try ZipArchive(data: Data(contentsOf: url))
/// let container = try archive.data(for: "META-INF/container.xml")
/// ```
///
/// The reader handles stored (method 0) and deflated (method 8) entries, entries written by
/// streaming writers (sizes in a data descriptor, flag bit 3), ZIP64 sizes and offsets, archive and
/// entry comments, and data before the archive (self-extracting archives). It checks every
/// extracted entry's size and CRC-32. It does not handle encrypted entries, other compression
/// methods or archives split over several files; those throw typed errors.
///
/// Any bytes give either an archive or a ``ScoreModelError``: every offset and length is checked
/// against the data, and extraction allocates at most the entry's recorded size, which must not
/// exceed the caller's limit (a guard against decompression bombs).
public struct ZipArchive: Sendable {
  /// The limit on one entry's extracted size unless a call gives another: 256 MiB.
  public static let defaultMaximumEntrySize = 256 * 1024 * 1024

  /// The entries in central directory order.
  public let entries: [Entry]
  /// The archive comment, empty if it has none.
  public let comment: String

  private let data: Data
  /// The index in `entries` of each path's first entry.
  private let indexByPath: [String: Int]

  /// Reads the central directory of a ZIP archive.
  ///
  /// The archive's bytes are kept; entries are extracted on demand with ``data(for:maximumSize:)``.
  ///
  /// - Parameter data: The whole archive.
  /// - Throws: ``ScoreModelError/invalidArchive(offset:reason:)`` when `data` is not a ZIP archive,
  ///   is truncated, or its end record or central directory is broken, with the byte offset where
  ///   reading failed; ``ScoreModelError/unsupportedArchiveEntry(path:reason:)`` (path `""`) for
  ///   an archive split over several files.
  /// - Complexity: O(n) in the size of the central directory, plus a search of at most the last
  ///   64 KiB for the end record.
  public init(data: Data) throws(ScoreModelError) {
    let directory = try CentralDirectory(data)
    self.data = data
    entries = directory.entries
    comment = directory.comment
    var indexByPath: [String: Int] = [:]
    for (index, entry) in entries.enumerated() where indexByPath[entry.path] == nil {
      indexByPath[entry.path] = index
    }
    self.indexByPath = indexByPath
  }

  /// The paths of all entries, in central directory order.
  public var paths: [String] { entries.map(\.path) }

  /// The entry at `path`, or `nil` if there is none.
  ///
  /// Paths compare as Swift strings (canonically equivalent Unicode matches); if an archive holds
  /// the same path twice, the first entry is found.
  ///
  /// - Parameter path: A path inside the archive, such as `META-INF/container.xml`.
  public func entry(for path: String) -> Entry? {
    indexByPath[path].map { entries[$0] }
  }

  /// Extracts the entry at `path`.
  ///
  /// - Parameters:
  ///   - path: A path inside the archive, such as `META-INF/container.xml`.
  ///   - maximumSize: The largest extracted size accepted, in bytes.
  /// - Returns: The entry's extracted bytes (empty for a directory).
  /// - Throws: ``ScoreModelError/archiveEntryNotFound(path:)`` when the archive has no such entry,
  ///   and the errors of extracting an ``Entry`` (see ``data(for:maximumSize:)``).
  public func data(for path: String, maximumSize: Int = defaultMaximumEntrySize) throws(ScoreModelError)
    -> Data
  {
    guard let entry = entry(for: path) else { throw .archiveEntryNotFound(path: path) }
    return try data(for: entry, maximumSize: maximumSize)
  }

  /// Extracts `entry`, checking its size and CRC-32.
  ///
  /// - Parameters:
  ///   - entry: One of ``entries``.
  ///   - maximumSize: The largest extracted size accepted, in bytes; an entry recording a larger
  ///     size is refused before anything is allocated.
  /// - Returns: The entry's extracted bytes (empty for a directory).
  /// - Throws: ``ScoreModelError/sizeLimitExceeded(what:limit:)`` when the entry's recorded size
  ///   is over `maximumSize`; ``ScoreModelError/unsupportedArchiveEntry(path:reason:)`` for an
  ///   encrypted entry or a compression method other than stored and deflated;
  ///   ``ScoreModelError/invalidArchiveEntry(path:offset:reason:)`` when the local header is
  ///   missing, the data runs past the end of the archive, the DEFLATE data is broken, or the
  ///   extracted size or CRC-32 differs from the recorded one.
  public func data(for entry: Entry, maximumSize: Int = defaultMaximumEntrySize) throws(ScoreModelError)
    -> Data
  {
    guard !entry.isEncrypted else {
      throw .unsupportedArchiveEntry(path: entry.path, reason: "encryption")
    }
    switch entry.compressionMethod {
    case .stored, .deflated: break
    case .other:
      throw .unsupportedArchiveEntry(
        path: entry.path, reason: "compression method \(entry.compressionMethod)")
    }
    guard entry.uncompressedSize <= maximumSize else {
      throw .sizeLimitExceeded(
        what: "entry \"\(entry.path)\" (\(entry.uncompressedSize) bytes extracted)", limit: maximumSize)
    }

    let dataOffset = try localDataOffset(of: entry)
    guard entry.compressedSize <= data.count - dataOffset else {
      throw .invalidArchiveEntry(
        path: entry.path, offset: dataOffset,
        reason:
          "its \(entry.compressedSize) bytes of data run past the end of the archive "
          + "(\(data.count - dataOffset) bytes remain)")
    }
    let start = data.startIndex + dataOffset
    let stored = data[start..<(start + entry.compressedSize)]

    let extracted: Data
    switch entry.compressionMethod {
    case .deflated:
      extracted = try inflate(stored, of: entry, at: dataOffset)
    default:
      guard entry.compressedSize == entry.uncompressedSize else {
        throw .invalidArchiveEntry(
          path: entry.path, offset: dataOffset,
          reason:
            "a stored entry's sizes must match, but it records \(entry.compressedSize) bytes "
            + "compressed and \(entry.uncompressedSize) extracted")
      }
      extracted = Data(stored)
    }

    let crc = CRC32.checksum(of: extracted)
    guard crc == entry.crc32 else {
      throw .invalidArchiveEntry(
        path: entry.path, offset: dataOffset,
        reason:
          "the extracted data's CRC-32 is \(Self.hex(crc)), the central directory records \(Self.hex(entry.crc32))"
      )
    }
    return extracted
  }

  /// The offset of `entry`'s data: after its local header, whose name and extra field lengths may
  /// differ from the central directory's.
  private func localDataOffset(of entry: Entry) throws(ScoreModelError) -> Int {
    let header: LittleEndianRecord
    do {
      header = try LittleEndianRecord(
        data, at: entry.localHeaderOffset, size: 30, what: "a local file header")
    } catch {
      throw .invalidArchiveEntry(
        path: entry.path, offset: entry.localHeaderOffset, reason: Self.reason(error))
    }
    guard header.signature == 0x0403_4B50 else {
      throw .invalidArchiveEntry(
        path: entry.path, offset: entry.localHeaderOffset,
        reason: "expected a local file header (50 4B 03 04), found \(header.signatureText)")
    }
    let offset = entry.localHeaderOffset + 30 + Int(header.uint16(26)) + Int(header.uint16(28))
    guard offset <= data.count else {
      throw .invalidArchiveEntry(
        path: entry.path, offset: entry.localHeaderOffset,
        reason: "the local file header's name and extra field run past the end of the archive")
    }
    return offset
  }

  private func inflate(_ stored: Data, of entry: Entry, at dataOffset: Int) throws(ScoreModelError) -> Data {
    let result: Result<Data, ScoreModelError> = stored.withUnsafeBytes { raw in
      Result { () throws(ScoreModelError) in
        try Inflater.inflate(
          raw, maximumOutputSize: entry.uncompressedSize, expectedOutputSize: entry.uncompressedSize
        ).data
      }
    }
    let extracted: Data
    do {
      extracted = try result.get()
    } catch {
      switch error {
      case .invalidDeflateData(let offset, let reason):
        throw .invalidArchiveEntry(
          path: entry.path, offset: dataOffset + offset, reason: "its DEFLATE data is broken: \(reason)")
      case .sizeLimitExceeded:
        throw .invalidArchiveEntry(
          path: entry.path, offset: dataOffset,
          reason: "it inflates to more than the \(entry.uncompressedSize) bytes the central directory records"
        )
      default:
        throw error
      }
    }
    guard extracted.count == entry.uncompressedSize else {
      throw .invalidArchiveEntry(
        path: entry.path, offset: dataOffset,
        reason:
          "it inflates to \(extracted.count) bytes, the central directory records \(entry.uncompressedSize)")
    }
    return extracted
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  private static func reason(_ error: ScoreModelError) -> String {
    if case .invalidArchive(_, let reason) = error { return reason }
    return error.description
  }
}
