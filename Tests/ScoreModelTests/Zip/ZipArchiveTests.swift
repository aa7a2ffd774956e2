import Foundation
import Testing

@testable import ScoreModel

/// The ZIP reader on archives written by Info-ZIP zip 3.0 and Python's zipfile, and by hand for
/// what neither writes (`Fixtures/zip/make-fixtures.py`, described in its README.md).
///
/// The other ZIP and DEFLATE suites are nested in this one, so `swift test --filter ZipArchiveTests`
/// runs them all.
@Suite struct ZipArchiveTests {
  static let mxlPaths = ["mimetype", "META-INF/", "META-INF/container.xml", "score.musicxml"]

  /// Compressed MusicXML laid out as .mxl files are, stored and at deflate levels 1, 6 and 9.
  @Test(arguments: ["mxl-stored.zip", "mxl-deflate-1.zip", "mxl-deflate-6.zip", "mxl-deflate-9.zip"])
  func mxlArchivesGiveTheirFiles(name: String) throws {
    let archive = try ZipArchive(data: try zipFixture(name))
    #expect(archive.paths == Self.mxlPaths)
    #expect(archive.comment == "")
    #expect(try archive.data(for: "mimetype") == Data("application/vnd.recordare.musicxml".utf8))
    #expect(try archive.data(for: "META-INF/container.xml") == containerXML)

    let score = try archive.data(for: "score.musicxml")
    let text = String(decoding: score, as: UTF8.self)
    #expect(score.count == 6372)
    #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<score-partwise"))
    #expect(text.hasSuffix("</score-partwise>\n"))
    #expect(CRC32.checksum(of: score) == archive.entry(for: "score.musicxml")?.crc32)

    let directory = try #require(archive.entry(for: "META-INF/"))
    #expect(directory.isDirectory)
    #expect(try archive.data(for: directory).isEmpty)
    let expectedMethod: ZipArchive.CompressionMethod = name == "mxl-stored.zip" ? .stored : .deflated
    #expect(archive.entry(for: "score.musicxml")?.compressionMethod == expectedMethod)
    #expect(archive.entry(for: "mimetype")?.compressionMethod == .stored)
  }

  @Test func theFourArchivesHoldTheSameScore() throws {
    let scores = try ["mxl-stored.zip", "mxl-deflate-1.zip", "mxl-deflate-6.zip", "mxl-deflate-9.zip"].map {
      try ZipArchive(data: try zipFixture($0)).data(for: "score.musicxml")
    }
    #expect(Set(scores).count == 1)
    // Level 9 compresses better than level 1: the streams really differ.
    let sizes = try ["mxl-deflate-1.zip", "mxl-deflate-9.zip"].map {
      try ZipArchive(data: try zipFixture($0)).entry(for: "score.musicxml")!.compressedSize
    }
    #expect(sizes[0] > sizes[1])
  }

  @Test func emptyArchiveHasNoEntries() throws {
    let archive = try ZipArchive(data: try zipFixture("empty-archive.zip"))
    #expect(archive.entries.isEmpty)
    #expect(throws: ScoreModelError.archiveEntryNotFound(path: "score.musicxml")) {
      try archive.data(for: "score.musicxml")
    }
  }

  @Test func emptyFilesStoredAndDeflatedAndAFolder() throws {
    let archive = try ZipArchive(data: try zipFixture("empty-entries.zip"))
    #expect(archive.paths == ["empty-stored.txt", "empty-deflated.txt", "folder/"])
    #expect(archive.entry(for: "empty-deflated.txt")?.compressionMethod == .deflated)
    #expect(archive.entry(for: "empty-deflated.txt")?.compressedSize == 2)
    for path in archive.paths { #expect(try archive.data(for: path).isEmpty) }
    #expect(archive.entry(for: "folder/")?.isDirectory == true)
    #expect(archive.entry(for: "empty-stored.txt")?.isDirectory == false)

    let infoZIP = try ZipArchive(data: try zipFixture("empty-file.zip"))
    #expect(infoZIP.paths == ["empty.txt"])
    #expect(try infoZIP.data(for: "empty.txt").isEmpty)
  }

  @Test func archiveCommentFromInfoZIP() throws {
    let archive = try ZipArchive(data: try zipFixture("comment-infozip.zip"))
    #expect(archive.comment == "An archive comment written by zip -z")
    #expect(try archive.data(for: "META-INF/container.xml") == containerXML)
  }

  /// The archive comment holds a fake end-record signature; Python's zipfile finds that one and
  /// fails, unzip and this reader find the real one (whose comment reaches the end of the file).
  @Test func commentWithAFakeEndRecordAndAnEntryComment() throws {
    let archive = try ZipArchive(data: try zipFixture("comment-python.zip"))
    #expect(archive.comment == "archive comment with a fake end record PK\u{5}\u{6} inside")
    let entry = try #require(archive.entry(for: "score.musicxml"))
    #expect(entry.comment == "entry comment")
    let score = try archive.data(for: entry)
    #expect(score.count == 3000)
    #expect(String(decoding: score, as: UTF8.self).hasPrefix("<?xml"))
  }

  /// Writers that cannot seek put sizes and CRC after the data (flag bit 3): Python's zipfile on
  /// an unseekable stream, and `zip - -` between pipes (which also writes ZIP64 local fields and a
  /// ZIP64 end record).
  @Test func streamedArchivesWithDataDescriptors() throws {
    let python = try ZipArchive(data: try zipFixture("streamed-python.zip"))
    #expect(python.paths == ["META-INF/container.xml", "score.musicxml"])
    #expect(python.entries.allSatisfy { $0.hasDataDescriptor })
    #expect(try python.data(for: "META-INF/container.xml") == containerXML)
    #expect(try python.data(for: "score.musicxml").count == 6000)

    let infoZIP = try ZipArchive(data: try zipFixture("streamed-infozip.zip"))
    #expect(infoZIP.paths == ["-"])
    #expect(infoZIP.entries[0].hasDataDescriptor)
    #expect(infoZIP.entries[0].compressionMethod == .deflated)
    #expect(try infoZIP.data(for: "-") == containerXML)
  }

  /// `zip -fz` records the size in a ZIP64 extra field and the directory offset in a ZIP64 end record.
  @Test func zip64FromInfoZIP() throws {
    let archive = try ZipArchive(data: try zipFixture("zip64-infozip.zip"))
    let entry = try #require(archive.entry(for: "META-INF/container.xml"))
    #expect(entry.uncompressedSize == 188)
    #expect(try archive.data(for: entry) == containerXML)
  }

  /// Both sizes and the local header offset at 0xFFFFFFFF, their values in the ZIP64 extra field in
  /// the order APPNOTE gives, and entry count, size and offset of the directory in the ZIP64 end record.
  @Test func zip64WithEveryFieldInTheExtraField() throws {
    let archive = try ZipArchive(data: try zipFixture("zip64-all-fields.zip"))
    #expect(archive.paths == ["META-INF/container.xml", "score.musicxml"])
    let score = try #require(archive.entry(for: "score.musicxml"))
    #expect(score.uncompressedSize == 4000)
    #expect(score.compressedSize == 4000)
    #expect(score.localHeaderOffset > 0)
    #expect(try archive.data(for: "META-INF/container.xml") == containerXML)
    #expect(try archive.data(for: score).count == 4000)
  }

  /// UTF-8 flagged; UTF-8 unflagged (as macOS writes it); code page 437; a code page 437 name with
  /// an Info-ZIP Unicode path field giving the UTF-8 name.
  @Test func namesInUTF8AndCodePage437() throws {
    let archive = try ZipArchive(data: try zipFixture("names.zip"))
    #expect(
      archive.paths == ["Übung/Étude.musicxml", "Ständchen.xml", "Übung über öl.txt", "Étude.musicxml"])
    #expect(try archive.data(for: "Übung/Étude.musicxml") == Data("flagged".utf8))
    #expect(try archive.data(for: "Ständchen.xml") == Data("unflagged utf-8".utf8))
    #expect(try archive.data(for: "Übung über öl.txt") == Data("cp437".utf8))
    #expect(try archive.data(for: "Étude.musicxml") == Data("unicode path".utf8))
    // Lookup compares canonically equivalent strings: a decomposed É finds the composed one.
    #expect(archive.entry(for: "E\u{301}tude.musicxml") != nil)
  }

  @Test func codePage437DecodesEveryByte() {
    #expect(CodePage437.decode([0x41, 0x80, 0x9A, 0xE1, 0xFF]) == "AÇÜß\u{A0}")
    #expect(CodePage437.decode(Array(0...255)).count == 256)
  }

  /// A self-extracting stub before the archive shifts all offsets; bytes after it leave no comment
  /// that reaches the end.
  @Test(arguments: ["prepended.zip", "trailing-bytes.zip"])
  func extraBytesBeforeOrAfterTheArchive(name: String) throws {
    let archive = try ZipArchive(data: try zipFixture(name))
    #expect(archive.paths == ["META-INF/container.xml"])
    #expect(try archive.data(for: "META-INF/container.xml") == containerXML)
    if name == "prepended.zip" { #expect(archive.entries[0].localHeaderOffset == 45) }
  }

  @Test func slicesOfLargerDataRead() throws {
    let bytes = try zipFixture("mxl-deflate-6.zip")
    let padded = Data([1, 2, 3]) + bytes + Data([4])
    let slice = padded[3..<(3 + bytes.count)]
    let archive = try ZipArchive(data: slice)
    #expect(try archive.data(for: "META-INF/container.xml") == containerXML)
  }

  @Test func unsupportedMethodsAndEncryptionAreTypedErrors() throws {
    let bzip2 = try ZipArchive(data: try zipFixture("bzip2.zip"))
    #expect(bzip2.entries[0].compressionMethod == .other(12))
    #expect(
      throws: ScoreModelError.unsupportedArchiveEntry(
        path: "score.musicxml", reason: "compression method bzip2 (12)")
    ) { try bzip2.data(for: "score.musicxml") }

    #expect(ZipArchive.CompressionMethod(number: 77).description == "77")
    #expect(ZipArchive.CompressionMethod(number: 8) == .deflated)
    #expect(ZipArchive.CompressionMethod.other(14).description == "LZMA (14)")

    let encrypted = try ZipArchive(data: try zipFixture("encrypted.zip"))
    #expect(encrypted.entries[0].isEncrypted)
    #expect(
      throws: ScoreModelError.unsupportedArchiveEntry(path: "META-INF/container.xml", reason: "encryption")
    ) {
      try encrypted.data(for: "META-INF/container.xml")
    }
  }

  @Test func entriesOverTheSizeLimitAreRefused() throws {
    let archive = try ZipArchive(data: try zipFixture("mxl-deflate-9.zip"))
    #expect(
      throws: ScoreModelError.sizeLimitExceeded(
        what: "entry \"score.musicxml\" (6372 bytes extracted)", limit: 6371)
    ) {
      try archive.data(for: "score.musicxml", maximumSize: 6371)
    }
    #expect(try archive.data(for: "score.musicxml", maximumSize: 6372).count == 6372)
  }

  @Test func notAnArchive() {
    #expect(
      throws: ScoreModelError.invalidArchive(
        offset: 0,
        reason: "the data has 5 bytes; a ZIP archive has at least 22 (its end of central directory record)")
    ) { try ZipArchive(data: Data("hello".utf8)) }
    let text = Data(String(repeating: "not a zip file ", count: 10).utf8)
    #expect(
      throws: ScoreModelError.invalidArchive(
        offset: 150, reason: "no end of central directory record (50 4B 05 06) in the last 150 bytes")
    ) { try ZipArchive(data: text) }
    let message = ScoreModelError.invalidArchive(offset: 150, reason: "no end record").description
    #expect(message == "not a valid ZIP archive at byte 150: no end record")
  }

  @Test func damageIsReportedWithItsOffset() throws {
    var bytes = [UInt8](try zipFixture("zip64-infozip.zip"))
    let archive = try ZipArchive(data: Data(bytes))
    let entry = archive.entries[0]
    let dataOffset =
      entry.localHeaderOffset + 30 + Int(bytes[26]) + Int(bytes[27]) << 8 + Int(bytes[28])
      + Int(bytes[29]) << 8

    // A byte in the middle of the compressed data (the last byte may end in padding bits).
    var changed = bytes
    changed[dataOffset + entry.compressedSize / 2] ^= 0x40
    let broken = try ZipArchive(data: Data(changed))
    #expect(throws: ScoreModelError.self) { try broken.data(for: entry.path) }
    do {
      _ = try broken.data(for: entry.path)
    } catch {
      guard case .invalidArchiveEntry(let path, let offset, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == entry.path)
      #expect(offset >= dataOffset)
    }

    // The local header signature is gone.
    bytes[entry.localHeaderOffset] = 0
    #expect(
      throws: ScoreModelError.invalidArchiveEntry(
        path: entry.path, offset: 0, reason: "expected a local file header (50 4B 03 04), found 00 4B 03 04")
    ) { try ZipArchive(data: Data(bytes)).data(for: entry.path) }
  }

  /// Every prefix of an archive lacks its end record (or part of it): each must throw, none crash.
  @Test func truncatedAtEveryOffset() throws {
    let bytes = try zipFixture("mxl-deflate-6.zip")
    for length in 0..<bytes.count {
      #expect(throws: ScoreModelError.self, "prefix of \(length) bytes") {
        try ZipArchive(data: bytes.prefix(length))
      }
    }
  }

  /// Truncating the archive's file data but keeping its central directory and end record.
  @Test func missingFileDataAtEveryOffset() throws {
    let bytes = [UInt8](try zipFixture("zip64-infozip.zip"))
    let archive = try ZipArchive(data: Data(bytes))
    let tail = Array(bytes[(archive.entries[0].localHeaderOffset + 30)...])
    for dropped in 1..<tail.count {
      // Drop bytes from the front of the file data, keeping the end: offsets now point wrong.
      let damaged = Data(bytes.prefix(30) + tail.dropFirst(dropped))
      do {
        let reopened = try ZipArchive(data: damaged)
        for entry in reopened.entries { _ = try reopened.data(for: entry) }
        Issue.record("dropping \(dropped) bytes went unnoticed")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }

  /// Any single byte changed anywhere: the reader throws typed errors or succeeds, never crashes;
  /// a change inside an entry's compressed data is caught (by the DEFLATE decoder or the CRC-32).
  @Test(arguments: ["mxl-deflate-6.zip", "names.zip", "zip64-all-fields.zip"])
  func everyByteFlipped(name: String) throws {
    let original = [UInt8](try zipFixture(name))
    let archive = try ZipArchive(data: Data(original))
    var dataRanges: [String: Range<Int>] = [:]
    for entry in archive.entries {
      let header = entry.localHeaderOffset
      let start =
        header + 30 + Int(original[header + 26]) + Int(original[header + 27]) << 8
        + Int(original[header + 28]) + Int(original[header + 29]) << 8
      dataRanges[entry.path] = start..<(start + entry.compressedSize)
    }
    var caught = 0
    for offset in original.indices {
      var bytes = original
      bytes[offset] ^= 0xFF
      let damaged: ZipArchive
      do {
        damaged = try ZipArchive(data: Data(bytes))
      } catch {
        #expect(!error.description.isEmpty)
        continue
      }
      for entry in damaged.entries {
        do {
          _ = try damaged.data(for: entry, maximumSize: 1 << 20)
          if let range = dataRanges[entry.path], range.contains(offset) {
            Issue.record("\(name): byte \(offset) changed inside \(entry.path)'s data went unnoticed")
          }
        } catch {
          if let range = dataRanges[entry.path], range.contains(offset) { caught += 1 }
        }
      }
    }
    #expect(caught == dataRanges.values.map(\.count).reduce(0, +))
  }

  /// Every bit flipped in a small archive.
  @Test func everyBitFlipped() throws {
    let original = [UInt8](try zipFixture("comment-infozip.zip"))
    var opened = 0
    for offset in original.indices {
      for bit in 0..<8 {
        var bytes = original
        bytes[offset] ^= 1 << bit
        guard let archive = try? ZipArchive(data: Data(bytes)) else { continue }
        opened += 1
        for entry in archive.entries {
          do {
            let data = try archive.data(for: entry)
            #expect(data.count == entry.uncompressedSize)
          } catch {
            #expect(!error.description.isEmpty)
          }
        }
      }
    }
    // Flips in the comment, times, attributes and version fields leave a readable archive.
    #expect(opened > original.count)
  }
}
