import Foundation

extension ZipArchive {
  /// The end records and central directory of an archive (APPNOTE.TXT 4.3.12-4.3.16), parsed and
  /// checked against the data.
  struct CentralDirectory {
    var entries: [Entry] = []
    var comment = ""

    private static let endSignature: UInt32 = 0x0605_4B50
    private static let zip64EndSignature: UInt32 = 0x0606_4B50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    private static let headerSignature: UInt32 = 0x0201_4B50
    /// The end of central directory record without its comment.
    private static let endSize = 22
    private static let zip64EndSize = 56
    private static let zip64LocatorSize = 20
    private static let headerSize = 46

    init(_ data: Data) throws(ScoreModelError) {
      let end = try Self.findEnd(in: data)
      comment = Self.decodeText(end.bytes(22..<end.size))
      guard end.uint16(4) == 0, end.uint16(6) == 0 else {
        throw .unsupportedArchiveEntry(
          path: "",
          reason:
            "an archive split over several files (this is disk \(end.uint16(4)), "
            + "the central directory starts on disk \(end.uint16(6)))")
      }

      var directorySize = UInt64(end.uint32(12))
      var directoryOffset = UInt64(end.uint32(16))
      // Where the records after the central directory begin.
      var directoryLimit = end.offset
      if let zip64End = try Self.findZIP64End(in: data, before: end) {
        directorySize = zip64End.uint64(40)
        directoryOffset = zip64End.uint64(48)
        directoryLimit = zip64End.offset
      }
      guard directorySize <= UInt64(directoryLimit) else {
        throw .invalidArchive(
          offset: end.offset,
          reason: "the central directory of \(directorySize) bytes would start before the archive")
      }
      let size = Int(directorySize)
      let recordedStart = directoryOffset <= UInt64(data.count) ? Int(directoryOffset) : -1
      // The end record gives the directory's offset from the archive's first byte; data before the
      // archive (a self-extracting stub, a prepended header) shifts every offset by the same amount.
      let start = directoryLimit - size
      let shift: Int
      if recordedStart >= 0 && recordedStart + size <= directoryLimit
        && (size == 0 || Self.signature(in: data, at: recordedStart) == Self.headerSignature)
      {
        shift = 0
      } else if recordedStart >= 0 && recordedStart < start
        && Self.signature(in: data, at: start) == Self.headerSignature
      {
        shift = start - recordedStart
      } else {
        throw .invalidArchive(
          offset: end.offset,
          reason:
            "the end record places the central directory at byte \(directoryOffset) (\(size) bytes), "
            + "but no central directory header (50 4B 01 02) is there")
      }

      var offset = recordedStart + shift
      let directoryEnd = offset + size
      while offset < directoryEnd {
        let (entry, next) = try Self.readHeader(in: data, at: offset, before: directoryEnd, shift: shift)
        entries.append(entry)
        offset = next
      }
    }

    /// The end of central directory record, searched for backwards from the end over the longest
    /// possible comment (65 535 bytes).
    ///
    /// An end record whose comment reaches exactly to the end of the data is taken first; if there
    /// is none (bytes appended after the archive), the last one whose comment fits.
    private static func findEnd(in data: Data) throws(ScoreModelError) -> LittleEndianRecord {
      let count = data.count
      guard count >= endSize else {
        throw .invalidArchive(
          offset: 0,
          reason:
            "the data has \(count) bytes; a ZIP archive has at least \(endSize) "
            + "(its end of central directory record)")
      }
      let lowest = max(0, count - endSize - 0xFFFF)
      var fitting: Int?
      var candidate = count - endSize
      while candidate >= lowest {
        if signature(in: data, at: candidate) == endSignature {
          let commentEnd = candidate + endSize + Int(uint16(in: data, at: candidate + 20))
          if commentEnd == count {
            fitting = candidate
            break
          }
          if commentEnd < count && fitting == nil { fitting = candidate }
        }
        candidate -= 1
      }
      guard let found = fitting else {
        let startsLikeZIP = count >= 4 && signature(in: data, at: 0) == 0x0403_4B50
        throw .invalidArchive(
          offset: count,
          reason: (startsLikeZIP ? "the archive is truncated: " : "")
            + "no end of central directory record (50 4B 05 06) in the last \(count - lowest) bytes")
      }
      let end = try LittleEndianRecord(data, at: found, size: endSize, what: "the end record")
      return try LittleEndianRecord(
        data, at: found, size: endSize + Int(end.uint16(20)), what: "the end record and its comment")
    }

    /// The ZIP64 end of central directory record, if a ZIP64 locator stands right before the end
    /// record.
    private static func findZIP64End(in data: Data, before end: LittleEndianRecord) throws(ScoreModelError)
      -> LittleEndianRecord?
    {
      let locatorOffset = end.offset - zip64LocatorSize
      // Without a locator, fields at their maximum are read as they are (an archive can have
      // exactly 65 535 entries).
      guard locatorOffset >= 0, signature(in: data, at: locatorOffset) == zip64LocatorSignature else {
        return nil
      }
      let locator = try LittleEndianRecord(
        data, at: locatorOffset, size: zip64LocatorSize, what: "the ZIP64 locator")
      guard locator.uint32(4) == 0, locator.uint32(16) <= 1 else {
        throw .unsupportedArchiveEntry(
          path: "", reason: "an archive split over several files (\(locator.uint32(16)) disks)")
      }
      // The record's recorded offset, or (with data before the archive) right before the locator.
      let recorded = locator.uint64(8)
      var candidates: [Int] = []
      if recorded <= UInt64(locatorOffset) { candidates.append(Int(recorded)) }
      if locatorOffset >= zip64EndSize { candidates.append(locatorOffset - zip64EndSize) }
      for offset in candidates where signature(in: data, at: offset) == zip64EndSignature {
        let record = try LittleEndianRecord(
          data, at: offset, size: zip64EndSize, what: "the ZIP64 end record")
        guard record.uint32(16) == 0, record.uint32(20) == 0 else {
          throw .unsupportedArchiveEntry(
            path: "", reason: "an archive split over several files (this is disk \(record.uint32(16)))")
        }
        return record
      }
      throw .invalidArchive(
        offset: locatorOffset,
        reason: "the ZIP64 locator points to byte \(recorded), but no ZIP64 end record (50 4B 06 06) is there"
      )
    }

    /// Reads the central directory header at `offset`; returns the entry and the next header's offset.
    private static func readHeader(in data: Data, at offset: Int, before directoryEnd: Int, shift: Int)
      throws(ScoreModelError) -> (Entry, Int)
    {
      guard directoryEnd - offset >= headerSize else {
        throw .invalidArchive(
          offset: offset,
          reason:
            "a central directory header needs \(headerSize) bytes, "
            + "\(directoryEnd - offset) remain in the central directory")
      }
      let fixed = try LittleEndianRecord(
        data, at: offset, size: headerSize, what: "a central directory header")
      guard fixed.signature == headerSignature else {
        throw .invalidArchive(
          offset: offset,
          reason: "expected a central directory header (50 4B 01 02), found \(fixed.signatureText)")
      }
      let nameLength = Int(fixed.uint16(28))
      let extraLength = Int(fixed.uint16(30))
      let commentLength = Int(fixed.uint16(32))
      let total = headerSize + nameLength + extraLength + commentLength
      guard total <= directoryEnd - offset else {
        throw .invalidArchive(
          offset: offset,
          reason:
            "a central directory header with its name, extra field and comment needs \(total) bytes, "
            + "\(directoryEnd - offset) remain in the central directory")
      }
      let header = try LittleEndianRecord(data, at: offset, size: total, what: "a central directory header")
      let flags = header.uint16(8)
      let nameBytes = header.bytes(headerSize..<(headerSize + nameLength))
      let extraStart = headerSize + nameLength
      let extra = header.bytes(extraStart..<(extraStart + extraLength))
      let commentStart = extraStart + extraLength
      let isUTF8 = flags & 0x800 != 0

      var uncompressedSize = UInt64(header.uint32(24))
      var compressedSize = UInt64(header.uint32(20))
      var localOffset = UInt64(header.uint32(42))
      var path = decodeText(nameBytes)
      // ZIP64 extended information (0x0001) holds the fields that are at their 32-bit maximum, in
      // this order; the Info-ZIP Unicode path field (0x7075) a UTF-8 name.
      var needed: [String] = []
      if uncompressedSize == 0xFFFF_FFFF { needed.append("uncompressed size") }
      if compressedSize == 0xFFFF_FFFF { needed.append("compressed size") }
      if localOffset == 0xFFFF_FFFF { needed.append("local header offset") }
      var zip64Values: [UInt64]?
      for (id, field) in extraFields(extra) {
        switch id {
        case 0x0001 where zip64Values == nil:
          let fieldRecord = try LittleEndianRecord(
            Data(field), at: 0, size: field.count, what: "a ZIP64 field")
          zip64Values = (0..<min(needed.count, field.count / 8)).map { fieldRecord.uint64($0 * 8) }
        case 0x7075 where !isUTF8 && field.count >= 5 && field.first == 1:
          let unicode = Data(field)
          let crc =
            UInt32(unicode[1]) | UInt32(unicode[2]) << 8 | UInt32(unicode[3]) << 16 | UInt32(unicode[4]) << 24
          if crc == CRC32.checksum(of: nameBytes),
            let name = String(validating: unicode.dropFirst(5), as: UTF8.self)
          {
            path = name
          }
        default: break
        }
      }
      if !needed.isEmpty {
        let values = zip64Values ?? []
        guard values.count == needed.count else {
          throw .invalidArchive(
            offset: offset + extraStart,
            reason:
              "\"\(path)\" records its \(needed.joined(separator: ", ")) as 0xFFFFFFFF "
              + "but has no ZIP64 extra field holding \(needed.count == 1 ? "it" : "them")")
        }
        var next = values.makeIterator()
        if uncompressedSize == 0xFFFF_FFFF { uncompressedSize = next.next()! }
        if compressedSize == 0xFFFF_FFFF { compressedSize = next.next()! }
        if localOffset == 0xFFFF_FFFF { localOffset = next.next()! }
      }

      guard compressedSize <= UInt64(data.count), localOffset <= UInt64(data.count) else {
        throw .invalidArchive(
          offset: offset,
          reason:
            "\"\(path)\" records \(compressedSize) bytes of data at local header offset \(localOffset), "
            + "beyond the archive's \(data.count) bytes")
      }
      // Sizes this large cannot be extracted anyway; keeping them below Int.max / 2 keeps all
      // arithmetic on them safe.
      guard uncompressedSize <= UInt64(Int.max / 2) else {
        throw .invalidArchive(
          offset: offset, reason: "\"\(path)\" records an extracted size of \(uncompressedSize) bytes")
      }
      let entry = Entry(
        path: path,
        comment: decodeText(header.bytes(commentStart..<(commentStart + commentLength))),
        compressionMethod: CompressionMethod(number: header.uint16(10)),
        compressedSize: Int(compressedSize),
        uncompressedSize: Int(uncompressedSize),
        crc32: header.uint32(16),
        flags: flags,
        localHeaderOffset: Int(localOffset) + shift)
      return (entry, offset + total)
    }

    /// The (id, data) fields of an extra field block; a last field running past the block (padding
    /// some writers add) is ignored.
    private static func extraFields(_ extra: Data) -> [(UInt16, Data)] {
      var fields: [(UInt16, Data)] = []
      var index = extra.startIndex
      while extra.endIndex - index >= 4 {
        let id = UInt16(extra[index]) | UInt16(extra[index + 1]) << 8
        let size = Int(extra[index + 2]) | Int(extra[index + 3]) << 8
        guard extra.endIndex - (index + 4) >= size else { break }
        fields.append((id, extra[(index + 4)..<(index + 4 + size)]))
        index += 4 + size
      }
      return fields
    }

    /// Decodes a name or comment: UTF-8 when valid (whether or not flag bit 11 says so), else code
    /// page 437.
    static func decodeText(_ bytes: Data) -> String {
      if let text = String(validating: bytes, as: UTF8.self) { return text }
      return CodePage437.decode(bytes)
    }

    private static func signature(in data: Data, at offset: Int) -> UInt32? {
      guard offset >= 0, data.count - offset >= 4 else { return nil }
      let start = data.startIndex + offset
      return UInt32(data[start]) | UInt32(data[start + 1]) << 8 | UInt32(data[start + 2]) << 16
        | UInt32(data[start + 3]) << 24
    }

    private static func uint16(in data: Data, at offset: Int) -> UInt16 {
      let start = data.startIndex + offset
      return UInt16(data[start]) | UInt16(data[start + 1]) << 8
    }
  }
}
