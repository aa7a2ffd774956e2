import Foundation
import Testing

@testable import ScoreModel

extension ZipArchiveTests {
  /// The DEFLATE decoder against zlib's output (`deflate-corpus.bin`), zlib's verdicts on broken
  /// streams (`deflate-mutants.bin`), and hand-written streams for what zlib never writes.
  @Suite struct InflaterTests {
    static let limit = 1 << 24

    @Test func corpusIsThere() {
      #expect(DeflateCorpusRecord.all.count == 97)
      #expect(DeflateMutant.all.count == 900)
    }

    /// Random bytes, text, runs, short periods, skewed byte frequencies (long codes), compressed by
    /// zlib at levels 0, 1, 6 and 9, with the fixed, Huffman-only, RLE and filtered strategies, a
    /// 512-byte window, one block per 128 symbols, and sync and full flushes between blocks.
    @Test(arguments: DeflateCorpusRecord.all)
    func inflatesWhatZlibDeflated(record: DeflateCorpusRecord) throws {
      let output = try Inflater.inflate(record.stream, maximumOutputSize: Self.limit)
      #expect(output.count == record.originalSize)
      #expect(CRC32.checksum(of: output) == record.originalCRC)
    }

    /// What follows the final block is not read; the stream's own length is reported.
    @Test func trailingBytesAreIgnoredAndConsumedBytesCounted() throws {
      for record in DeflateCorpusRecord.all.prefix(30) {
        let padded = record.stream + Data([0xFF, 0x00, 0x5A])
        let (output, consumed) = try padded.withUnsafeBytes { raw throws(ScoreModelError) in
          try Inflater.inflate(raw, maximumOutputSize: Self.limit)
        }
        #expect(consumed == record.stream.count, "\(record.label)")
        #expect(CRC32.checksum(of: output) == record.originalCRC, "\(record.label)")
      }
    }

    /// Every proper prefix of a stream lacks bits of its final block and must throw.
    @Test func everyPrefixIsTruncated() {
      for record in DeflateCorpusRecord.all where record.stream.count <= 400 {
        for length in 0..<record.stream.count {
          #expect(throws: ScoreModelError.self, "\(record.label) cut to \(length) bytes") {
            try Inflater.inflate(record.stream.prefix(length), maximumOutputSize: Self.limit)
          }
        }
      }
    }

    /// 900 edited streams (bit flips, changed bytes, truncations, random bytes): this decoder and
    /// zlib agree on each, succeeding with the same output or both failing.
    @Test func agreesWithZlibOnBrokenStreams() {
      var succeeded = 0
      for mutant in DeflateMutant.all {
        do {
          let output = try Inflater.inflate(mutant.stream, maximumOutputSize: (1 << 20) - 1)
          succeeded += 1
          guard let expected = mutant.zlibResult else {
            Issue.record("zlib rejects \(mutant.description), this decoder gave \(output.count) bytes")
            continue
          }
          #expect(output.count == expected.size, "\(mutant.description)")
          #expect(CRC32.checksum(of: output) == expected.crc, "\(mutant.description)")
        } catch {
          #expect(mutant.zlibResult == nil, "zlib inflates \(mutant.description), this decoder: \(error)")
        }
      }
      // Some edits leave valid streams (changed literals), most do not.
      #expect(succeeded > 100 && succeeded < 800)
    }

    // MARK: Hand-written streams

    @Test func storedBlocks() throws {
      var writer = BitWriter()
      writer.write(0, bits: 1)  // not final
      writer.write(0, bits: 2)  // stored
      writer.align()
      writer.append([5, 0, 0xFA, 0xFF] + Array("hello".utf8))
      writer.write(1, bits: 1)  // final, empty stored block
      writer.write(0, bits: 2)
      writer.align()
      writer.append([0, 0, 0xFF, 0xFF])
      #expect(try Inflater.inflate(writer.data, maximumOutputSize: 100) == Data("hello".utf8))
    }

    @Test func storedBlockLengthsMustBeComplements() {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(0, bits: 2)
      writer.align()
      writer.append([5, 0, 0xFA, 0xFE] + Array("hello".utf8))
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 1, reason: "a stored block's LEN 5 and NLEN 65274 must be one's complements")
      ) { try Inflater.inflate(writer.data, maximumOutputSize: 100) }
    }

    @Test func storedBlockLongerThanTheData() {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(0, bits: 2)
      writer.align()
      writer.append([100, 0, 0x9B, 0xFF] + Array("hello".utf8))
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 10, reason: "the data ends inside a stored block of 100 bytes (5 available)")
      ) { try Inflater.inflate(writer.data, maximumOutputSize: 1000) }
    }

    @Test func blockTypeThreeIsReserved() {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(3, bits: 2)
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 0, reason: "block type 3 is reserved; expected 0 (stored), 1 (fixed) or 2 (dynamic)")
      ) { try Inflater.inflate(writer.data, maximumOutputSize: 100) }
    }

    @Test func emptyInputAndAMissingFinalBlock() {
      #expect(
        throws: ScoreModelError.invalidDeflateData(offset: 0, reason: "the data ends inside a block header")
      ) { try Inflater.inflate(Data(), maximumOutputSize: 100) }
      // A non-final empty fixed block (10 bits); the 6 padding bits then read as the header of a
      // non-final stored block, whose lengths are missing.
      var writer = BitWriter()
      writer.write(0, bits: 1)
      writer.write(1, bits: 2)
      writer.writeFixed(256)
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 2, reason: "the data ends inside a stored block's LEN and NLEN (4 bytes)")
      ) { try Inflater.inflate(writer.data, maximumOutputSize: 100) }
    }

    /// Fixed-code literals and an overlapping copy: "ab" then 258 bytes from 2 back.
    @Test func fixedBlockWithOverlappingCopy() throws {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(1, bits: 2)
      writer.writeFixed(Int(UInt8(ascii: "a")))
      writer.writeFixed(Int(UInt8(ascii: "b")))
      writer.writeFixed(285)  // length 258
      writer.writeFixedDistance(1)  // distance 2
      writer.writeFixed(256)
      let output = try Inflater.inflate(writer.data, maximumOutputSize: 1000)
      #expect(output == Data(String(repeating: "ab", count: 130).utf8))
    }

    /// The longest distance, 32 768 (code 29 with 13 extra bits all set), after a 32 768-byte stored block.
    @Test func longestDistance() throws {
      let stored = (0..<32768).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
      var writer = BitWriter()
      writer.write(0, bits: 1)
      writer.write(0, bits: 2)
      writer.align()
      writer.append([0x00, 0x80, 0xFF, 0x7F] + stored)
      writer.write(1, bits: 1)
      writer.write(1, bits: 2)
      writer.writeFixed(284)  // length 227 + 5 extra bits
      writer.write(30, bits: 5)  // 257
      writer.writeFixedDistance(29, extra: 8191, extraBits: 13)
      writer.writeFixed(256)
      let output = try Inflater.inflate(writer.data, maximumOutputSize: 1 << 20)
      #expect(output == Data(stored + stored.prefix(257)))
    }

    @Test func copyFromBeforeTheStartIsAnError() throws {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(1, bits: 2)
      writer.writeFixed(Int(UInt8(ascii: "a")))
      writer.writeFixed(Int(UInt8(ascii: "b")))
      writer.writeFixed(257)  // length 3
      writer.writeFixedDistance(2)  // distance 3
      writer.writeFixed(256)
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 3, reason: "a copy reaches 3 bytes back, but only 2 bytes have been decoded")
      ) { try Inflater.inflate(writer.data, maximumOutputSize: 1000) }

      // Exactly as far back as the output reaches is fine.
      var exact = BitWriter()
      exact.write(1, bits: 1)
      exact.write(1, bits: 2)
      exact.writeFixed(Int(UInt8(ascii: "a")))
      exact.writeFixed(Int(UInt8(ascii: "b")))
      exact.writeFixed(257)
      exact.writeFixedDistance(1)
      exact.writeFixed(256)
      #expect(try Inflater.inflate(exact.data, maximumOutputSize: 1000) == Data("ababa".utf8))
    }

    /// The fixed code has codes for literal/length symbols 286 and 287 and distance symbols 30 and
    /// 31, which mean nothing.
    @Test func fixedCodeSymbolsWithoutMeaning() {
      for symbol in [286, 287] {
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeFixed(symbol)
        #expect(
          throws: ScoreModelError.invalidDeflateData(
            offset: 1, reason: "literal/length symbol \(symbol) does not exist (at most 285)")
        ) { try Inflater.inflate(writer.data, maximumOutputSize: 100) }
      }
      for symbol in [30, 31] {
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeFixed(Int(UInt8(ascii: "a")))
        writer.writeFixed(257)
        writer.writeFixedDistance(symbol)
        #expect(
          throws: ScoreModelError.invalidDeflateData(
            offset: 2, reason: "distance symbol \(symbol) does not exist (at most 29)")
        ) { try Inflater.inflate(writer.data, maximumOutputSize: 100) }
      }
    }

    /// "a" then ten copies of 258 bytes: 2 581 bytes.
    static var run2581: Data {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(1, bits: 2)
      writer.writeFixed(Int(UInt8(ascii: "a")))
      for _ in 0..<10 {
        writer.writeFixed(285)
        writer.writeFixedDistance(0)
      }
      writer.writeFixed(256)
      return writer.data
    }

    @Test(arguments: [0, 1, 258, 2580, 2581, 1 << 20])
    func outputLimit(limit: Int) throws {
      if limit >= 2581 {
        #expect(
          try Inflater.inflate(Self.run2581, maximumOutputSize: limit) == Data(repeating: 0x61, count: 2581))
      } else {
        #expect(throws: ScoreModelError.sizeLimitExceeded(what: "the inflated data", limit: limit)) {
          try Inflater.inflate(Self.run2581, maximumOutputSize: limit)
        }
      }
    }

    /// A stored block larger than the limit is refused before it is copied.
    @Test func storedBlockOverTheLimit() {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(0, bits: 2)
      writer.align()
      writer.append([10, 0, 0xF5, 0xFF] + Array(repeating: 7, count: 10))
      #expect(throws: ScoreModelError.sizeLimitExceeded(what: "the inflated data", limit: 9)) {
        try Inflater.inflate(writer.data, maximumOutputSize: 9)
      }
    }

    // MARK: Dynamic blocks

    /// Literal/length lengths giving `lengths` to the listed symbols, 0 to the others (257 symbols).
    static func literalLengths(_ lengths: [Int: Int]) -> [Int] {
      (0..<257).map { lengths[$0] ?? 0 }
    }

    /// Lengths 1, 2, ..., 14 for "a" to "n", 15 for "z" and end-of-block: a complete code whose
    /// longest codes need the decoder's bit-by-bit path.
    static let skewed: [Int: Int] = {
      var lengths: [Int: Int] = [:]
      for (index, letter) in "abcdefghijklmn".utf8.enumerated() { lengths[Int(letter)] = index + 1 }
      lengths[Int(UInt8(ascii: "z"))] = 15
      lengths[256] = 15
      return lengths
    }()

    @Test func dynamicBlockWithFifteenBitCodes() throws {
      let lengths = Self.literalLengths(Self.skewed)
      let codes = canonicalCodes(lengths)
      var writer = BitWriter()
      writer.writeDynamicHeader(literalLengths: lengths, distanceLengths: [0])
      let text = "zabcdefghijklmnnz"
      for byte in text.utf8 { writer.write(code: codes[Int(byte)], length: lengths[Int(byte)]) }
      writer.write(code: codes[256], length: 15)
      #expect(try Inflater.inflate(writer.data, maximumOutputSize: 100) == Data(text.utf8))

      // The same stream cut inside its last (15-bit) code.
      let cut = writer.data.prefix(writer.data.count - 1)
      #expect(throws: ScoreModelError.self) { try Inflater.inflate(cut, maximumOutputSize: 100) }
    }

    /// A code of end-of-block alone, one bit long, leaves half the code space unused: allowed (zlib
    /// allows it), and decoding the unused bit pattern fails.
    @Test func singleOneBitCodeIsAllowed() throws {
      var writer = BitWriter()
      writer.writeDynamicHeader(literalLengths: Self.literalLengths([256: 1]), distanceLengths: [1])
      writer.write(code: 0, length: 1)
      #expect(try Inflater.inflate(writer.data, maximumOutputSize: 100).isEmpty)

      var unused = BitWriter()
      unused.writeDynamicHeader(literalLengths: Self.literalLengths([256: 1]), distanceLengths: [1])
      unused.write(code: 1, length: 1)
      #expect(throws: ScoreModelError.self) { try Inflater.inflate(unused.data, maximumOutputSize: 100) }
    }

    @Test(arguments: [
      ([97: 1, 98: 1, 256: 1], "over-subscribed (more codes than the code lengths allow)"),
      ([97: 1, 98: 2, 256: 3], "incomplete (its code lengths leave codes unused)"),
      ([97: 2, 256: 2], "incomplete (its code lengths leave codes unused)"),
    ])
    func literalCodeMustBeComplete(lengths: [Int: Int], problem: String) throws {
      var writer = BitWriter()
      writer.writeDynamicHeader(literalLengths: Self.literalLengths(lengths), distanceLengths: [0])
      let error = try #require(throws: ScoreModelError.self) {
        try Inflater.inflate(writer.data, maximumOutputSize: 100)
      }
      guard case .invalidDeflateData(_, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(reason == "the literal/length code is \(problem)")
    }

    @Test func distanceCodeMustBeComplete() throws {
      var writer = BitWriter()
      writer.writeDynamicHeader(
        literalLengths: Self.literalLengths([97: 1, 256: 1]), distanceLengths: [2, 2, 2])
      let error = try #require(throws: ScoreModelError.self) {
        try Inflater.inflate(writer.data, maximumOutputSize: 100)
      }
      #expect(
        error.description.hasSuffix("the distance code is incomplete (its code lengths leave codes unused)"))
    }

    @Test func endOfBlockNeedsACode() throws {
      var writer = BitWriter()
      writer.writeDynamicHeader(literalLengths: Self.literalLengths([97: 1, 98: 1]), distanceLengths: [0])
      let error = try #require(throws: ScoreModelError.self) {
        try Inflater.inflate(writer.data, maximumOutputSize: 100)
      }
      #expect(error.description.hasSuffix("a dynamic block has no code for end-of-block (symbol 256)"))
    }

    /// A dynamic block header with a code length code of two one-bit codes, for `first` and `second`.
    static func twoSymbolHeader(_ first: Int, _ second: Int) -> BitWriter {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(2, bits: 2)
      writer.write(0, bits: 5)  // 257 literal/length codes
      writer.write(0, bits: 5)  // 1 distance code
      writer.write(19 - 4, bits: 4)
      for symbol in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] {
        writer.write(symbol == first || symbol == second ? 1 : 0, bits: 3)
      }
      return writer
    }

    @Test func repeatCodesAreChecked() throws {
      // Code 0 is the lower symbol, code 1 the higher.
      var first = Self.twoSymbolHeader(1, 16)
      first.write(code: 1, length: 1)  // 16 first: nothing to repeat
      first.write(0, bits: 2)
      #expect(
        throws: ScoreModelError.invalidDeflateData(
          offset: 9, reason: "code length 16 (repeat the previous length) comes first")
      ) { try Inflater.inflate(first.data, maximumOutputSize: 100) }

      var past = Self.twoSymbolHeader(0, 18)
      past.write(code: 1, length: 1)
      past.write(127, bits: 7)  // 138 zeros
      past.write(code: 1, length: 1)
      past.write(127, bits: 7)  // 138 more: 276 > 258
      let error = try #require(throws: ScoreModelError.self) {
        try Inflater.inflate(past.data, maximumOutputSize: 100)
      }
      #expect(
        error.description.hasSuffix(
          "code length 18 repeats 138 times, past the 258 lengths the block declares"))
    }

    @Test func codeLengthCodeMustBeComplete() throws {
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(2, bits: 2)
      writer.write(0, bits: 5)
      writer.write(0, bits: 5)
      writer.write(0, bits: 4)  // 4 code length code lengths: for 16, 17, 18 and 0
      for length in [1, 2, 0, 0] { writer.write(length, bits: 3) }
      let error = try #require(throws: ScoreModelError.self) {
        try Inflater.inflate(writer.data, maximumOutputSize: 100)
      }
      #expect(
        error.description.hasSuffix(
          "the code length code is incomplete (its code lengths leave codes unused)"))
    }

    @Test(arguments: [
      (30, 0, "a dynamic block declares 287 literal/length codes; at most 286 exist"),
      (0, 30, "a dynamic block declares 31 distance codes; at most 30 exist"),
    ])
    func tooManyCodes(hlit: Int, hdist: Int, reason: String) {
      // HLIT is bits 3-7 (byte 0), HDIST bits 8-12 (byte 1).
      var writer = BitWriter()
      writer.write(1, bits: 1)
      writer.write(2, bits: 2)
      writer.write(hlit, bits: 5)
      writer.write(hdist, bits: 5)
      writer.write(0, bits: 4)
      writer.write(0, bits: 16)
      #expect(throws: ScoreModelError.invalidDeflateData(offset: hdist == 0 ? 0 : 1, reason: reason)) {
        try Inflater.inflate(writer.data, maximumOutputSize: 100)
      }
    }

    // MARK: CRC-32

    @Test func crc32KnownValues() {
      #expect(CRC32.checksum(of: Array("123456789".utf8)) == 0xCBF4_3926)
      #expect(CRC32.checksum(of: [UInt8]()) == 0)
      #expect(CRC32.checksum(of: Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
      let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
      var pieces = CRC32()
      for split in stride(from: 0, to: 1000, by: 37) { pieces.update(bytes[split..<min(split + 37, 1000)]) }
      #expect(pieces.value == CRC32.checksum(of: bytes))
    }
  }
}
