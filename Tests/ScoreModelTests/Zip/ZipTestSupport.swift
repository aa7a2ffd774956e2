import Foundation
import Testing

@testable import ScoreModel

/// The bytes of `Fixtures/zip/<name>`.
func zipFixture(_ name: String) throws -> Data {
  let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/zip/\(name)"))
  return try Data(contentsOf: url)
}

/// `META-INF/container.xml` as the fixtures hold it (see `Fixtures/zip/make-fixtures.py`).
let containerXML = Data(
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <container>
    <rootfiles>
      <rootfile full-path="score.musicxml" media-type="application/vnd.recordare.musicxml+xml"/>
    </rootfiles>
  </container>

  """.utf8)

/// One raw DEFLATE stream of `deflate-corpus.bin`: zlib's output for an input of known size and CRC-32.
struct DeflateCorpusRecord: Sendable, CustomTestStringConvertible {
  let label: String
  let originalSize: Int
  let originalCRC: UInt32
  let stream: Data

  var testDescription: String { label }

  /// The records of `deflate-corpus.bin` (layout in `make-fixtures.py`), or none if it is missing.
  static let all: [DeflateCorpusRecord] = {
    guard let data = try? zipFixture("deflate-corpus.bin") else { return [] }
    var reader = FixtureReader(Array(data))
    guard reader.take(8) == Array("DEFLCRP1".utf8) else { return [] }
    var records: [DeflateCorpusRecord] = []
    while !reader.isAtEnd {
      let labelLength = Int(reader.uint8())
      let size = Int(reader.uint32())
      let crc = reader.uint32()
      let streamLength = Int(reader.uint32())
      let label = String(decoding: reader.take(labelLength), as: UTF8.self)
      records.append(
        DeflateCorpusRecord(
          label: label, originalSize: size, originalCRC: crc, stream: Data(reader.take(streamLength))))
    }
    return records
  }()
}

/// One edited corpus stream of `deflate-mutants.bin` and whether zlib inflates it.
struct DeflateMutant: Sendable {
  let description: String
  let stream: Data
  /// zlib's output size and CRC-32, or nil when zlib reports an error or a truncated stream.
  let zlibResult: (size: Int, crc: UInt32)?

  static let all: [DeflateMutant] = {
    guard let data = try? zipFixture("deflate-mutants.bin") else { return [] }
    let corpus = DeflateCorpusRecord.all
    var reader = FixtureReader(Array(data))
    guard reader.take(8) == Array("DEFLMUT1".utf8) else { return [] }
    var mutants: [DeflateMutant] = []
    while !reader.isAtEnd {
      let source = corpus[Int(reader.uint16())]
      var stream = [UInt8](source.stream)
      let description: String
      switch reader.uint8() {
      case 0:
        let offset = Int(reader.uint16())
        let bit = reader.uint8()
        stream[offset] ^= 1 << bit
        description = "\(source.label): bit \(bit) of byte \(offset) flipped"
      case 1:
        let count = Int(reader.uint8())
        for _ in 0..<count {
          let offset = Int(reader.uint16())
          stream[offset] = reader.uint8()
        }
        description = "\(source.label): \(count) bytes changed"
      case 2:
        let length = Int(reader.uint16())
        stream = Array(stream.prefix(length))
        description = "\(source.label): truncated to \(length) bytes"
      default:
        stream = reader.take(Int(reader.uint8()))
        description = "random bytes \(stream)"
      }
      let verdict = reader.uint8()
      let result = verdict == 1 ? (Int(reader.uint32()), reader.uint32()) : nil
      mutants.append(DeflateMutant(description: description, stream: Data(stream), zlibResult: result))
    }
    return mutants
  }()
}

/// Reads the little-endian fixture indexes; a malformed fixture traps the test, which is what it should do.
struct FixtureReader {
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position >= bytes.count }

  mutating func take(_ count: Int) -> [UInt8] {
    defer { position += count }
    return Array(bytes[position..<(position + count)])
  }

  mutating func uint8() -> UInt8 { take(1)[0] }

  mutating func uint16() -> UInt16 { take(2).reversed().reduce(0) { $0 << 8 | UInt16($1) } }

  mutating func uint32() -> UInt32 { take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
}

/// Writes DEFLATE bit streams by hand, for streams no compressor writes.
struct BitWriter {
  private(set) var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var count = 0

  /// Appends `value`'s low `bits` bits, least significant first (header fields and extra bits).
  mutating func write(_ value: Int, bits: Int) {
    buffer |= UInt64(value & ((1 << bits) - 1)) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// Appends a Huffman code, most significant bit first.
  mutating func write(code: Int, length: Int) {
    for bit in stride(from: length - 1, through: 0, by: -1) { write((code >> bit) & 1, bits: 1) }
  }

  /// Pads to a byte boundary with zero bits.
  mutating func align() {
    if count > 0 { write(0, bits: 8 - count) }
  }

  mutating func append(_ raw: [UInt8]) {
    precondition(count == 0)
    bytes += raw
  }

  var data: Data {
    var copy = self
    copy.align()
    return Data(copy.bytes)
  }
}

/// The canonical Huffman codes (RFC 1951 3.2.2) for code lengths; 0 for unused symbols.
func canonicalCodes(_ lengths: [Int]) -> [Int] {
  var counts = [Int](repeating: 0, count: 16)
  for length in lengths where length > 0 { counts[length] += 1 }
  var next = [Int](repeating: 0, count: 16)
  var code = 0
  for length in 1..<16 {
    code = (code + counts[length - 1]) << 1
    next[length] = code
  }
  return lengths.map { length in
    guard length > 0 else { return 0 }
    defer { next[length] += 1 }
    return next[length]
  }
}

/// The fixed literal/length code lengths (RFC 1951 3.2.6).
let fixedLiteralLengths: [Int] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
let fixedLiteralCodes = canonicalCodes(fixedLiteralLengths)

extension BitWriter {
  /// A fixed-code literal/length symbol.
  mutating func writeFixed(_ symbol: Int) {
    write(code: fixedLiteralCodes[symbol], length: fixedLiteralLengths[symbol])
  }

  /// A fixed-code distance symbol (5 bits) and its extra bits.
  mutating func writeFixedDistance(_ symbol: Int, extra: Int = 0, extraBits: Int = 0) {
    write(code: symbol, length: 5)
    write(extra, bits: extraBits)
  }

  /// A dynamic block header whose code length code gives every length 0...15 a 4-bit code (so
  /// the lengths are written one by one, no repeat codes), followed by the literal/length and
  /// distance code lengths.
  mutating func writeDynamicHeader(final: Bool = true, literalLengths: [Int], distanceLengths: [Int]) {
    write(final ? 1 : 0, bits: 1)
    write(2, bits: 2)
    write(literalLengths.count - 257, bits: 5)
    write(distanceLengths.count - 1, bits: 5)
    write(19 - 4, bits: 4)
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    for symbol in order { write(symbol < 16 ? 4 : 0, bits: 3) }
    // Sixteen 4-bit codes: symbol n has code n.
    for length in literalLengths + distanceLengths { write(code: length, length: 4) }
  }
}
