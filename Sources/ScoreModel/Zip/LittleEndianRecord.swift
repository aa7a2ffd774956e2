import Foundation

/// A fixed-size record of little-endian fields at a known offset in a ZIP archive, checked to lie
/// inside the data when made, so reading its fields cannot go out of bounds.
struct LittleEndianRecord {
  private let data: Data
  /// The record's offset from the start of the archive.
  let offset: Int
  let size: Int

  /// The `size` bytes at `offset` of `data` (offsets count from `data.startIndex`).
  ///
  /// - Throws: ``ScoreModelError/invalidArchive(offset:reason:)`` when they do not all lie in `data`.
  init(_ data: Data, at offset: Int, size: Int, what: String) throws(ScoreModelError) {
    guard offset >= 0, offset <= data.count, size <= data.count - offset else {
      let available = max(0, data.count - max(0, offset))
      throw .invalidArchive(
        offset: offset,
        reason: "\(what) needs \(size) bytes, \(available) remain before the end of the archive")
    }
    self.data = data
    self.offset = offset
    self.size = size
  }

  /// The record's bytes, or a field of them.
  func bytes(_ range: Range<Int>) -> Data {
    precondition(range.lowerBound >= 0 && range.upperBound <= size)
    let start = data.startIndex + offset
    return data[(start + range.lowerBound)..<(start + range.upperBound)]
  }

  func uint8(_ field: Int) -> UInt8 {
    precondition(field >= 0 && field < size)
    return data[data.startIndex + offset + field]
  }

  func uint16(_ field: Int) -> UInt16 { UInt16(uint8(field)) | UInt16(uint8(field + 1)) << 8 }

  func uint32(_ field: Int) -> UInt32 { UInt32(uint16(field)) | UInt32(uint16(field + 2)) << 16 }

  func uint64(_ field: Int) -> UInt64 { UInt64(uint32(field)) | UInt64(uint32(field + 4)) << 32 }

  /// The first four bytes, for signatures.
  var signature: UInt32 { uint32(0) }

  /// The first four bytes in hex (`50 4B 03 04`), for error messages.
  var signatureText: String {
    (0..<min(4, size)).map { index in
      let hex = String(uint8(index), radix: 16, uppercase: true)
      return hex.count == 1 ? "0" + hex : hex
    }.joined(separator: " ")
  }
}
