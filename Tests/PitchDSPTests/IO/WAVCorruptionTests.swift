import Foundation
import Testing

@testable import PitchDSP

/// A WAV layout for the truncation sweep: the chunks before `data` as (start, size).
struct HeaderLayout: Sendable, CustomStringConvertible {
  var description: String
  var bytes: [UInt8]
  var chunks: [(id: String, start: Int, size: Int)]
  var dataStart: Int

  /// The error a cut at `cut` bytes must give (`nil`: the header is complete).
  func expectedError(cut: Int) -> PitchDSPError? {
    if cut < 12 { return .truncated(offset: 0, needed: 12, available: cut, context: "WAV RIFF header") }
    let headerContext = "WAV chunk header (no data chunk found)"
    for chunk in chunks {
      let body = chunk.start + 8
      if cut < body {
        return .truncated(offset: chunk.start, needed: 8, available: cut - chunk.start, context: headerContext)
      }
      if cut < body + chunk.size {
        return .truncated(
          offset: body, needed: chunk.size, available: cut - body,
          context: "WAV \"\(chunk.id)\" chunk (declared at byte \(chunk.start + 4))")
      }
      if chunk.size & 1 == 1 && cut == body + chunk.size {
        // The pad byte is missing: the next chunk header cannot start.
        return .truncated(offset: cut, needed: 8, available: 0, context: headerContext)
      }
    }
    if cut < dataStart + 8 {
      return .truncated(offset: dataStart, needed: 8, available: cut - dataStart, context: headerContext)
    }
    return nil
  }

  static let all: [HeaderLayout] = {
    // 16-bit stereo with an odd-sized LIST chunk: fmt 12 (16), LIST 36 (5 + pad), data 50.
    var plain = [UInt8](try! WAVWriter.encode(testBuffer(channels: 2, rate: 44100, frames: 20)))
    var list: [UInt8] = []
    list.fourCC("LIST")
    list.le32(5)
    list += [1, 2, 3, 4, 5, 0]
    plain.insert(contentsOf: list, at: 36)
    // Float mono: fmt 12 (18), fact 38 (4), data 50.
    let float = [UInt8](try! WAVWriter.encode(testBuffer(channels: 1, rate: 11025, frames: 20), encoding: .float32))
    // 24-bit 6-channel EXTENSIBLE: fmt 12 (40), data 60.
    let extensible = [UInt8](
      try! WAVWriter.encode(testBuffer(channels: 6, rate: 48000, frames: 20), encoding: .signed24))
    return [
      HeaderLayout(
        description: "s16 stereo + LIST", bytes: plain,
        chunks: [("fmt ", 12, 16), ("LIST", 36, 5)], dataStart: 50),
      HeaderLayout(
        description: "f32 mono + fact", bytes: float, chunks: [("fmt ", 12, 18), ("fact", 38, 4)], dataStart: 50),
      HeaderLayout(
        description: "s24 6ch EXTENSIBLE", bytes: extensible, chunks: [("fmt ", 12, 40)], dataStart: 60),
    ]
  }()
}

@Suite struct WAVCorruptionTests {
  @Test(arguments: HeaderLayout.all)
  func everyCutThroughTheHeaderIsATypedErrorAtTheRightOffset(layout: HeaderLayout) throws {
    let headerEnd = layout.dataStart + 8
    for cut in 0..<headerEnd {
      let expected = try #require(layout.expectedError(cut: cut))
      #expect(throws: expected, "cut at \(cut)") { try WAVReader(data: Data(layout.bytes[0..<cut])) }
    }
    // Cuts inside the samples: the whole frames present are read, and the repair is reported.
    let reader = try WAVReader(data: Data(layout.bytes))
    let bytesPerFrame = reader.format.bytesPerFrame
    let all = try reader.readRemaining()
    for cut in headerEnd..<layout.bytes.count {
      let cutReader = try WAVReader(data: Data(layout.bytes[0..<cut]))
      let frames = (cut - headerEnd) / bytesPerFrame
      #expect(cutReader.format.frameCount == frames, "cut at \(cut)")
      #expect(cutReader.dataSizeWasRepaired, "cut at \(cut)")
      #expect(try cutReader.readRemaining() == all.frames(0..<frames))
    }
  }

  @Test func truncationMessagesNameTheOffset() {
    let error = PitchDSPError.truncated(offset: 36, needed: 16, available: 8, context: "WAV fmt chunk")
    #expect(error.description == "truncated at byte 36: WAV fmt chunk needs 16 bytes, 8 available")
  }

  /// 24-bit stereo EXTENSIBLE, 20 frames: fmt body at 20 (tag 20, channels 22, rate 24, block
  /// align 32, bits 34, cbSize 36, valid bits 38, mask 40, GUID 44), data header at 60.
  static let valid = [UInt8](
    try! WAVWriter.encode(testBuffer(channels: 2, rate: 44100, frames: 20), encoding: .signed24))

  static let corruptions: [(String, Int, [UInt8], PitchDSPError)] = [
    ("RIFX", 0, Array("RIFX".utf8),
     .invalidHeader(offset: 0, reason: "expected \"RIFF\", \"RF64\" or \"BW64\", found \"RIFX\"")),
    ("binary id", 0, [0, 1, 0xFE, 0xFF],
     .invalidHeader(offset: 0, reason: "expected \"RIFF\", \"RF64\" or \"BW64\", found 0x0 0x1 0xFE 0xFF")),
    ("not WAVE", 8, Array("AVI ".utf8), .invalidHeader(offset: 8, reason: "expected \"WAVE\", found \"AVI \"")),
    ("fmt too short", 16, [8, 0, 0, 0], .invalidHeader(offset: 16, reason: "fmt chunk of 8 bytes, expected at least 16")),
    ("EXTENSIBLE fmt too short", 16, [20, 0, 0, 0],
     .invalidHeader(offset: 16, reason: "EXTENSIBLE fmt chunk of 20 bytes, expected 40")),
    ("fmt beyond EOF", 16, [0xFF, 0xFF, 0xFF, 0x7F],
     .truncated(offset: 20, needed: 0x7FFF_FFFF, available: 68 + 120 - 20, context: "WAV \"fmt \" chunk (declared at byte 16)")),
    ("zero channels", 22, [0, 0], .invalidHeader(offset: 22, reason: "channel count 0, expected 1...4096")),
    ("65535 channels", 22, [0xFF, 0xFF], .invalidHeader(offset: 22, reason: "channel count 65535, expected 1...4096")),
    ("zero sample rate", 24, [0, 0, 0, 0], .invalidHeader(offset: 24, reason: "sample rate 0 Hz, expected at least 1")),
    ("absurd block align", 32, [0xFF, 0x7F],
     .invalidHeader(offset: 32, reason: "block align 32767, expected 6 for 2 channels of 24 bits")),
    ("zero block align", 32, [0, 0],
     .invalidHeader(offset: 32, reason: "block align 0, expected 6 for 2 channels of 24 bits")),
    ("12 bits", 34, [12, 0], .unsupportedEncoding(formatTag: 1, bitsPerSample: 12)),
    ("valid bits beyond the container", 38, [48, 0],
     .invalidHeader(offset: 38, reason: "48 valid bits in a 24-bit sample")),
    ("ADPCM sub-format", 44, [2, 0], .unsupportedEncoding(formatTag: 2, bitsPerSample: 24)),
    ("float sub-format at 24 bits", 44, [3, 0], .unsupportedEncoding(formatTag: 3, bitsPerSample: 24)),
    ("foreign sub-format GUID", 50, [0x11], .unsupportedEncoding(formatTag: 0xFFFE, bitsPerSample: 24)),
    ("data chunk renamed", 60, Array("dat!".utf8),
     .truncated(offset: 188, needed: 8, available: 0, context: "WAV chunk header (no data chunk found)")),
  ]

  @Test(arguments: 0..<corruptions.count)
  func corruptFieldsAreTypedErrorsAtTheirOffset(index: Int) {
    let (name, offset, bytes, expected) = Self.corruptions[index]
    #expect(throws: expected, "\(name)") { try WAVReader(data: Data(Self.valid.replacing(offset, with: bytes))) }
  }

  @Test func aChunkRunningPastTheEndIsATruncationNamingItsSize() throws {
    var bytes = Self.valid
    var junk: [UInt8] = []
    junk.fourCC("JUNK")
    junk.le32(0x7FFF_FFF0)
    bytes.insert(contentsOf: junk, at: 60)
    #expect(
      throws: PitchDSPError.truncated(
        offset: 68, needed: 0x7FFF_FFF0, available: 128, context: "WAV \"JUNK\" chunk (declared at byte 64)")
    ) { try WAVReader(data: Data(bytes)) }
    let message = PitchDSPError.truncated(
      offset: 68, needed: 0x7FFF_FFF0, available: 128, context: "WAV \"JUNK\" chunk (declared at byte 64)"
    ).description
    #expect(message.hasPrefix("truncated at byte 68: WAV \"JUNK\" chunk"))
  }

  @Test func dataBeforeFmtIsAnError() {
    var bytes: [UInt8] = []
    bytes.fourCC("RIFF")
    bytes.le32(12)
    bytes.fourCC("WAVE")
    bytes.fourCC("data")
    bytes.le32(0)
    #expect(throws: PitchDSPError.invalidHeader(offset: 12, reason: "data chunk before the fmt chunk")) {
      try WAVReader(data: Data(bytes))
    }
  }

  @Test func everyErrorPrintsAnActionableMessage() {
    let messages = [
      PitchDSPError.invalidParameter(name: "FFT size", value: "1000", expected: "a power of two"),
      .fileNotFound(path: "/x.wav"), .io(path: "/x.wav", message: "is a directory"),
      .invalidHeader(offset: 22, reason: "channel count 0, expected 1...4096"),
      .unsupportedEncoding(formatTag: 2, bitsPerSample: 4),
    ].map(\.description)
    #expect(
      messages == [
        "invalid FFT size 1000: expected a power of two",
        "/x.wav: no such file",
        "/x.wav: is a directory",
        "invalid header at byte 22: channel count 0, expected 1...4096",
        "unsupported sample encoding: format tag 0x2 with 4 bits per sample (supported: integer PCM "
          + "8/16/24/32-bit, IEEE float 32/64-bit, and their EXTENSIBLE forms)",
      ])
  }
}
