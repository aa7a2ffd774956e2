import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// The largest error one quantization step allows for an encoding.
func tolerance(_ encoding: SampleEncoding) -> Float {
  switch encoding {
  case .unsigned8: 1 / 128
  case .signed16: 1 / 32768
  case .signed24: 1 / 8_388_608
  case .signed32: 1e-7
  case .float32, .float64: 0
  }
}

func testBuffer(channels: Int, rate: Double, frames: Int) -> AudioBuffer {
  let generator = SignalGenerator(sampleRate: rate)
  return AudioBuffer(
    sampleRate: rate,
    channels: (0..<channels).map { c in
      generator.sine(frequencyHz: 100 * Double(c + 1), amplitude: 0.9, length: .frames(frames))
    })
}

@Suite struct WAVRoundTripTests {
  @Test(arguments: SampleEncoding.allCases, [1, 2, 3, 8])
  func roundTripThroughData(encoding: SampleEncoding, channels: Int) throws {
    for rate in [8000.0, 44100, 192_000] {
      let original = testBuffer(channels: channels, rate: rate, frames: 257)
      let data = WAVWriter.encode(original, encoding: encoding)
      let reader = try WAVReader(data: data)
      #expect(reader.format.encoding == encoding)
      #expect(reader.format.channelCount == channels)
      #expect(reader.format.sampleRate == rate)
      #expect(reader.format.frameCount == 257)
      #expect(
        reader.format.isExtensible == (channels > 2 || (!encoding.isFloat && encoding.bitsPerSample > 16)))
      let decoded = try reader.readRemaining()
      for c in 0..<channels {
        let worst = zip(decoded.channels[c], original.channels[c]).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance(encoding) * 0.5 + 1e-7, "\(encoding) channel \(c)")
      }
    }
  }

  @Test(arguments: SampleEncoding.allCases)
  func roundTripThroughAFileWrittenInBlocks(encoding: SampleEncoding) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("etude-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("out.wav")
    let original = testBuffer(channels: 2, rate: 48000, frames: 1001)
    let writer = try WAVWriter(url: url, encoding: encoding, channelCount: 2, sampleRate: 48000)
    for range in [0..<1, 1..<500, 500..<1001] { try writer.write(original.frames(range)) }
    #expect(!FileManager.default.fileExists(atPath: url.path), "nothing at the destination before finish")
    try writer.finish()
    let decoded = try WAVReader.readAll(url: url)
    #expect(decoded.frameCount == 1001)
    let worst = zip(decoded.channels[1], original.channels[1]).map { abs($0 - $1) }.max() ?? 0
    #expect(worst <= tolerance(encoding) * 0.5 + 1e-7)
    // Only the destination remains: no temporary files.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.wav"])
  }

  @Test func anExistingFileSurvivesAnAbandonedWrite() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("etude-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("keep.wav")
    let first = testBuffer(channels: 1, rate: 8000, frames: 100)
    try WAVWriter.write(first, to: url)
    do {
      let writer = try WAVWriter(url: url, encoding: .signed16, channelCount: 1, sampleRate: 8000)
      try writer.write(testBuffer(channels: 1, rate: 8000, frames: 50))
      // A wrong channel count fails mid-write; the writer is then dropped without finish().
      #expect(throws: PitchDSPError.self) { try writer.write(testBuffer(channels: 2, rate: 8000, frames: 5)) }
    }
    #expect(try WAVReader.readAll(url: url).frameCount == 100)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["keep.wav"])
  }

  @Test func integersSaturateAndNaNBecomesZero() throws {
    let loud = AudioBuffer(sampleRate: 8000, mono: [2, -2, 1, -1, .nan, .infinity, -.infinity])
    let decoded = try WAVReader.readAll(data: WAVWriter.encode(loud, encoding: .signed16))
    let top: Float = 32767.0 / 32768
    let expected: [Float] = [top, -1, top, -1, 0, top, -1]
    #expect(decoded.mono == expected)
  }

  @Test func placeholderDataSizesAreRepairedToTheFramesPresent() throws {
    let original = testBuffer(channels: 1, rate: 8000, frames: 64)
    var bytes = [UInt8](WAVWriter.encode(original, encoding: .signed16))
    for placeholder: [UInt8] in [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x10, 0x00, 0x00]] {
      bytes.replaceSubrange(40..<44, with: placeholder)
      let reader = try WAVReader(data: Data(bytes))
      #expect(reader.dataSizeWasRepaired)
      #expect(reader.format.frameCount == 64)
      #expect(try reader.readRemaining().frameCount == 64)
    }
  }

  @Test func unknownChunksAreSkipped() throws {
    var bytes = [UInt8](WAVWriter.encode(testBuffer(channels: 1, rate: 8000, frames: 10)))
    // Insert an odd-sized LIST chunk (with its pad byte) between fmt and data.
    let list: [UInt8] = Array("LIST".utf8) + [3, 0, 0, 0, 1, 2, 3, 0]
    bytes.insert(contentsOf: list, at: 36)
    #expect(try WAVReader.readAll(data: Data(bytes)).frameCount == 10)
  }
}

@Suite struct WAVCorruptionTests {
  static let valid = [UInt8](
    WAVWriter.encode(testBuffer(channels: 2, rate: 44100, frames: 20), encoding: .signed24))

  @Test func everyTruncationOfTheHeaderIsATypedError() {
    let headerLength = 68  // RIFF(12) + fmt(8 + 40) + data header(8) for 24-bit EXTENSIBLE
    for cut in 0..<headerLength {
      #expect(throws: PitchDSPError.self, "cut at \(cut)") {
        try WAVReader(data: Data(Self.valid[0..<cut]))
      }
    }
    // Cut inside the samples: the whole frames present are read.
    let reader = try? WAVReader(data: Data(Self.valid[0..<(headerLength + 6 * 5 + 2)]))
    #expect(reader?.format.frameCount == 5)
    #expect(reader?.dataSizeWasRepaired == true)
  }

  @Test func truncationErrorsNameTheOffset() {
    #expect(throws: PitchDSPError.truncated(offset: 0, needed: 12, available: 5, context: "RIFF header")) {
      try WAVReader(data: Data(Self.valid[0..<5]))
    }
    #expect(throws: PitchDSPError.truncated(offset: 20, needed: 40, available: 10, context: "fmt chunk")) {
      try WAVReader(data: Data(Self.valid[0..<30]))
    }
  }

  static func corrupted(_ offset: Int, _ bytes: [UInt8]) -> Data {
    var copy = valid
    copy.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    return Data(copy)
  }

  @Test func corruptFieldsAreTypedErrorsAtTheirOffset() {
    #expect(
      throws: PitchDSPError.invalidHeader(offset: 0, reason: "expected \"RIFF\" or \"RF64\", found \"RIFX\"")
    ) {
      try WAVReader(data: Self.corrupted(0, Array("RIFX".utf8)))
    }
    #expect(throws: PitchDSPError.invalidHeader(offset: 8, reason: "expected \"WAVE\", found \"AVI \"")) {
      try WAVReader(data: Self.corrupted(8, Array("AVI ".utf8)))
    }
    #expect(
      throws: PitchDSPError.invalidHeader(offset: 16, reason: "fmt chunk of 8 bytes, expected at least 16")
    ) {
      try WAVReader(data: Self.corrupted(16, [8, 0, 0, 0]))
    }
    #expect(throws: PitchDSPError.invalidHeader(offset: 22, reason: "channel count 0, expected 1...4096")) {
      try WAVReader(data: Self.corrupted(22, [0, 0]))
    }
    #expect(throws: PitchDSPError.invalidHeader(offset: 24, reason: "sample rate 0")) {
      try WAVReader(data: Self.corrupted(24, [0, 0, 0, 0]))
    }
    // A block align that disagrees with channels × sample size.
    #expect(throws: PitchDSPError.self) { try WAVReader(data: Self.corrupted(32, [0xFF, 0x7F])) }
    #expect(throws: PitchDSPError.unsupportedEncoding(formatTag: 2, bitsPerSample: 24)) {
      try WAVReader(data: Self.corrupted(44, [2, 0]))  // ADPCM sub-format
    }
    // A chunk size pointing past the end: no data chunk is ever found.
    #expect(throws: PitchDSPError.self) { try WAVReader(data: Self.corrupted(16, [0xFF, 0xFF, 0xFF, 0x7F])) }
  }

  @Test func errorsPrintTheOffset() {
    let error = PitchDSPError.truncated(offset: 36, needed: 16, available: 8, context: "fmt chunk")
    #expect(error.description == "truncated at byte 36: fmt chunk needs 16 bytes, 8 available")
  }
}

@Suite struct RawPCMReaderTests {
  @Test func s16leStereoMixesDownAndDropsATrailingPartialFrame() throws {
    // Frames: (16384, -16384), (32767, 32767); then one stray byte.
    let bytes: [UInt8] = [0x00, 0x40, 0x00, 0xC0, 0xFF, 0x7F, 0xFF, 0x7F, 0x12]
    let reader = try RawPCMReader(data: Data(bytes), format: .s16le, channelCount: 2, sampleRate: 8000)
    #expect(try reader.readMono(maxFrames: 10) == [0, 32767.0 / 32768])
    #expect(try reader.readMono(maxFrames: 10) == nil)
  }

  @Test(arguments: [1, 3, 1000])
  func f32leInBlocks(block: Int) throws {
    let samples: [Float] = (0..<100).map { Float($0) / 100 }
    let data = samples.withUnsafeBytes { Data($0) }
    let reader = try RawPCMReader(data: data, format: .f32le, sampleRate: 44100)
    var out: [Float] = []
    while let next = try reader.readMono(maxFrames: block) {
      #expect(next.count <= block)
      out += next
    }
    #expect(out == samples)
  }

  @Test func badParametersAreTypedErrors() {
    #expect(throws: PitchDSPError.self) {
      try RawPCMReader(data: Data(), format: .s16le, channelCount: 0, sampleRate: 8000)
    }
    #expect(throws: PitchDSPError.self) { try RawPCMReader(data: Data(), format: .s16le, sampleRate: 0) }
  }
}
