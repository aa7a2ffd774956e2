/// Parses the RIFF/RF64/BW64 header of a WAV file up to the first sample.
///
/// The parser reads at most 4 KiB of any chunk into memory (`fmt `, `ds64`); every other chunk
/// before `data` is skipped by seeking. Each loop iteration consumes at least one 8-byte chunk
/// header, so it always ends: at the `data` chunk, or with a typed error.
enum WAVHeaderParser {
  /// What the header says.
  struct Header {
    var format: WAVFormat
    /// The byte offset of the first sample.
    var dataOffset: Int
    /// The data size the header declares, or `nil` when it is a placeholder (0 or 0xFFFFFFFF in
    /// a RIFF file; 0xFFFFFFFF without a usable `ds64` in an RF64/BW64 file).
    var declaredDataSize: Int?
  }

  /// The largest `fmt ` chunk accepted; real ones are 16, 18 or 40 bytes.
  static let maximumFormatChunkSize = 4096
  /// The most channels accepted.
  static let maximumChannelCount = 4096

  /// The last 14 bytes of `KSDATAFORMAT_SUBTYPE_PCM` / `_IEEE_FLOAT`
  /// (`0000000x-0000-0010-8000-00AA00389B71`), after the two-byte format tag.
  static let subFormatTail: [UInt8] = [
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
  ]
  /// The last 14 bytes of the Ambisonic B-format sub-formats (`0000000x-0721-11D3-8644-C8C1CA000000`),
  /// whose samples are PCM or IEEE float like the standard ones.
  static let ambisonicSubFormatTail: [UInt8] = [
    0x00, 0x00, 0x21, 0x07, 0xD3, 0x11, 0x86, 0x44, 0xC8, 0xC1, 0xCA, 0x00, 0x00, 0x00,
  ]

  /// Reads chunks from the start of `stream` until the `data` chunk, leaving `stream` at the
  /// first sample.
  ///
  /// - Throws: ``PitchDSPError/truncated(offset:needed:available:context:)`` when the header
  ///   ends early or a chunk before `data` runs past the end;
  ///   ``PitchDSPError/invalidHeader(offset:reason:)`` for an impossible field;
  ///   ``PitchDSPError/unsupportedEncoding(formatTag:bitsPerSample:)`` for samples it cannot decode.
  static func parse(_ stream: ByteStream) throws(PitchDSPError) -> Header {
    let riff = try readExactly(stream, 12, context: "WAV RIFF header")
    let riffID = fourCC(riff, 0)
    let isRF64 = riffID == "RF64" || riffID == "BW64"
    guard riffID == "RIFF" || isRF64 else {
      throw .invalidHeader(
        offset: 0, reason: "expected \"RIFF\", \"RF64\" or \"BW64\", found \(quoted(riff, 0))")
    }
    guard fourCC(riff, 8) == "WAVE" else {
      throw .invalidHeader(offset: 8, reason: "expected \"WAVE\", found \(quoted(riff, 8))")
    }
    var format: WAVFormat?
    var ds64DataSize: Int?
    while true {
      let chunkStart = stream.position
      let chunkHeader = try readExactly(stream, 8, context: "WAV chunk header (no data chunk found)")
      let id = fourCC(chunkHeader, 0)
      let size = Int(uint32(chunkHeader, 4))
      if id == "data" {
        guard let format else {
          throw .invalidHeader(offset: chunkStart, reason: "data chunk before the fmt chunk")
        }
        var declared: Int? = size
        if size == 0xFFFF_FFFF { declared = isRF64 ? ds64DataSize : nil }
        if size == 0 { declared = nil }
        return Header(format: format, dataOffset: chunkStart + 8, declaredDataSize: declared)
      }
      // Every chunk before the data must fit in the file, else the data chunk cannot follow.
      if let remaining = stream.remaining, size > remaining {
        throw .truncated(
          offset: chunkStart + 8, needed: size, available: remaining,
          context: "WAV \(quoted(chunkHeader, 0)) chunk (declared at byte \(chunkStart + 4))")
      }
      switch id {
      case "fmt ":
        guard size >= 16 else {
          throw .invalidHeader(
            offset: chunkStart + 4, reason: "fmt chunk of \(size) bytes, expected at least 16")
        }
        guard size <= maximumFormatChunkSize else {
          throw .invalidHeader(
            offset: chunkStart + 4,
            reason: "fmt chunk of \(size) bytes, expected at most \(maximumFormatChunkSize)")
        }
        let body = try readExactly(stream, size, context: "WAV fmt chunk", offset: chunkStart + 8)
        format = try parseFormat(body, at: chunkStart + 8)
        try stream.skip(size & 1)
      case "ds64" where isRF64:
        guard size >= 24 else {
          throw .invalidHeader(
            offset: chunkStart + 4, reason: "ds64 chunk of \(size) bytes, expected at least 24")
        }
        let body = try readExactly(stream, 24, context: "WAV ds64 chunk", offset: chunkStart + 8)
        // RIFF size (8 bytes), data size (8 bytes), sample count (8 bytes).
        let dataSize = UInt64(uint32(body, 8)) | UInt64(uint32(body, 12)) << 32
        ds64DataSize = dataSize > UInt64(Int.max) ? nil : Int(dataSize)
        try stream.skip(size - 24 + (size & 1))
      default:
        try stream.skip(size + (size & 1))
      }
    }
  }

  /// Decodes the body of a `fmt ` chunk that starts at byte `offset`.
  static func parseFormat(_ b: [UInt8], at offset: Int) throws(PitchDSPError) -> WAVFormat {
    var tag = Int(uint16(b, 0))
    let channels = Int(uint16(b, 2))
    let rate = uint32(b, 4)
    let blockAlign = Int(uint16(b, 12))
    let bits = Int(uint16(b, 14))
    guard channels >= 1, channels <= maximumChannelCount else {
      throw .invalidHeader(
        offset: offset + 2, reason: "channel count \(channels), expected 1...\(maximumChannelCount)")
    }
    guard rate >= 1 else {
      throw .invalidHeader(offset: offset + 4, reason: "sample rate 0 Hz, expected at least 1")
    }
    var isExtensible = false
    var channelMask: UInt32 = 0
    var validBits = bits
    if tag == 0xFFFE {
      guard b.count >= 40 else {
        throw .invalidHeader(
          offset: offset - 4, reason: "EXTENSIBLE fmt chunk of \(b.count) bytes, expected 40")
      }
      isExtensible = true
      validBits = Int(uint16(b, 18))
      channelMask = uint32(b, 20)
      let guidTail = Array(b[26..<40])
      guard guidTail == subFormatTail || guidTail == ambisonicSubFormatTail else {
        throw .unsupportedEncoding(formatTag: 0xFFFE, bitsPerSample: bits)
      }
      tag = Int(uint16(b, 24))  // The first two bytes of the sub-format GUID.
      if validBits == 0 { validBits = bits }
    }
    let encoding: SampleEncoding
    switch (tag, bits) {
    case (1, 8): encoding = .unsigned8
    case (1, 16): encoding = .signed16
    case (1, 24): encoding = .signed24
    case (1, 32): encoding = .signed32
    case (3, 32): encoding = .float32
    case (3, 64): encoding = .float64
    default: throw .unsupportedEncoding(formatTag: tag, bitsPerSample: bits)
    }
    guard blockAlign == channels * encoding.bytesPerSample else {
      throw .invalidHeader(
        offset: offset + 12,
        reason: "block align \(blockAlign), expected \(channels * encoding.bytesPerSample) "
          + "for \(channels) channels of \(bits) bits")
    }
    guard validBits >= 1, validBits <= bits else {
      throw .invalidHeader(offset: offset + 18, reason: "\(validBits) valid bits in a \(bits)-bit sample")
    }
    return WAVFormat(
      encoding: encoding, channelCount: channels, sampleRate: Double(rate),
      isExtensible: isExtensible, channelMask: channelMask, validBitsPerSample: validBits)
  }

  /// Reads exactly `count` bytes or throws ``PitchDSPError/truncated(offset:needed:available:context:)``.
  static func readExactly(
    _ stream: ByteStream, _ count: Int, context: String, offset: Int? = nil
  ) throws(PitchDSPError) -> [UInt8] {
    let start = offset ?? stream.position
    let bytes = try stream.readBytes(count)
    guard bytes.count == count else {
      throw .truncated(offset: start, needed: count, available: bytes.count, context: context)
    }
    return bytes
  }

  static func fourCC(_ b: [UInt8], _ i: Int) -> String {
    String(decoding: b[i..<(i + 4)], as: UTF8.self)
  }

  /// A four-character code in quotes, or its bytes in hex when it is not printable ASCII.
  static func quoted(_ b: [UInt8], _ i: Int) -> String {
    let printable = b[i..<(i + 4)].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    return printable
      ? "\"\(fourCC(b, i))\""
      : b[i..<(i + 4)].map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
  }

  static func uint16(_ b: [UInt8], _ i: Int) -> UInt16 {
    UInt16(b[i]) | UInt16(b[i + 1]) << 8
  }

  static func uint32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
  }
}
