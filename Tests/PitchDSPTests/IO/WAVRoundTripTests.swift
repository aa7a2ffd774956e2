import Foundation
import Testing

@testable import PitchDSP

@Suite struct WAVRoundTripTests {
  static let rates: [Double] = [8000, 11025, 22050, 44100, 48000, 96000, 192_000]

  @Test(arguments: SampleEncoding.allCases, [1, 2, 3, 6, 8])
  func roundTripThroughData(encoding: SampleEncoding, channels: Int) throws {
    for rate in Self.rates {
      let original = testBuffer(channels: channels, rate: rate, frames: 257)
      let data = try WAVWriter.encode(original, encoding: encoding)
      let reader = try WAVReader(data: data)
      #expect(reader.format.encoding == encoding)
      #expect(reader.format.bitsPerSample == encoding.bitsPerSample)
      #expect(reader.format.channelCount == channels)
      #expect(reader.format.sampleRate == rate)
      #expect(reader.format.frameCount == 257)
      #expect(reader.format.durationSeconds == 257 / rate)
      #expect(!reader.dataSizeWasRepaired)
      let extensible = channels > 2 || (!encoding.isFloat && encoding.bitsPerSample > 16)
      #expect(reader.format.isExtensible == extensible)
      #expect(reader.format.channelMask == (extensible ? WAVWriter.defaultChannelMask(channels) : 0))
      let decoded = try reader.readRemaining()
      #expect(
        largestDifference(decoded, original) <= roundTripTolerance(encoding), "\(encoding) \(channels) ch \(rate) Hz")
    }
  }

  @Test(arguments: SampleEncoding.allCases, [1, 3, 6])
  func roundTripThroughAFileWrittenInBlocks(encoding: SampleEncoding, channels: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    let url = directory.file("out.wav")
    let original = testBuffer(channels: channels, rate: 22050, frames: 1001)
    let writer = try WAVWriter(url: url, encoding: encoding, channelCount: channels, sampleRate: 22050)
    for range in [0..<1, 1..<1, 1..<500, 500..<1001] { try writer.write(original.frames(range)) }
    #expect(writer.format.frameCount == 1001)
    #expect(!FileManager.default.fileExists(atPath: url.path), "nothing at the destination before finish")
    try writer.finish()
    try writer.finish()  // A second finish does nothing.
    // The streamed file is byte for byte what encode() produces in one go.
    #expect(try Data(contentsOf: url) == WAVWriter.encode(original, encoding: encoding))
    let decoded = try WAVReader.readAll(url: url)
    #expect(largestDifference(decoded, original) <= roundTripTolerance(encoding))
    #expect(try directory.contents() == ["out.wav"], "no temporary file is left behind")
  }

  @Test(arguments: [true, false])
  func extensibleCanBeForcedOrForbidden(extensible: Bool) throws {
    for (encoding, channels) in [(SampleEncoding.signed16, 1), (.signed24, 6), (.float32, 2)] {
      let original = testBuffer(channels: channels, rate: 44100, frames: 10)
      let reader = try WAVReader(data: WAVWriter.encode(original, encoding: encoding, extensible: extensible))
      #expect(reader.format.isExtensible == extensible)
      #expect(largestDifference(try reader.readRemaining(), original) <= roundTripTolerance(encoding))
    }
  }

  @Test(arguments: SampleEncoding.allCases)
  func integersSaturateAndNaNBecomesSilence(encoding: SampleEncoding) throws {
    let loud = AudioBuffer(sampleRate: 8000, mono: [2, -2, 1, -1, .nan, .infinity, -.infinity, 0.5])
    let decoded = try WAVReader.readAll(data: WAVWriter.encode(loud, encoding: encoding)).mono
    switch encoding {
    case .float32, .float64:
      #expect(decoded[0] == 2 && decoded[1] == -2 && decoded[4].isNaN && decoded[5] == .infinity)
    default:
      let step = Float(1) / Float(1 << (encoding.bitsPerSample - 1))
      let top = 1 - step
      let expected: [Float] = [top, -1, top, -1, 0, top, -1, 0.5]
      #expect(decoded == expected)
    }
  }

  @Test func anOddNumberOfDataBytesGetsAPadByte() throws {
    let data = try WAVWriter.encode(AudioBuffer(sampleRate: 8000, mono: [0, 0.5, -0.5]), encoding: .unsigned8)
    #expect(data.count == 44 + 3 + 1)
    #expect(data[data.startIndex + 40] == 3, "the data size excludes the pad byte")
    #expect(try WAVReader.readAll(data: data).mono == [0, 0.5, -0.5])
  }

  @Test func placeholderAndOversizedDataSizesAreRepairedToTheFramesPresent() throws {
    let original = testBuffer(channels: 1, rate: 8000, frames: 64)
    let bytes = [UInt8](try WAVWriter.encode(original, encoding: .signed16))
    for placeholder: [UInt8] in [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x10, 0x00, 0x00]] {
      let reader = try WAVReader(data: Data(bytes.replacing(40, with: placeholder)))
      #expect(reader.dataSizeWasRepaired)
      #expect(reader.format.frameCount == 64)
      #expect(try reader.readRemaining() == WAVReader.readAll(data: Data(bytes)))
    }
    // A declared size smaller than the file is believed: trailing bytes are not samples.
    let short = try WAVReader(data: Data(bytes.replacing(40, with: [20, 0, 0, 0])))
    #expect(!short.dataSizeWasRepaired)
    #expect(short.format.frameCount == 10)
  }

  @Test func unknownChunksAndPadBytesAreSkipped() throws {
    let original = testBuffer(channels: 2, rate: 8000, frames: 10)
    var bytes = [UInt8](try WAVWriter.encode(original))
    // An odd-sized LIST chunk (with its pad byte), a bext and a JUNK chunk between fmt and data.
    var extra: [UInt8] = []
    extra.fourCC("LIST")
    extra.le32(3)
    extra += [1, 2, 3, 0]
    extra.fourCC("bext")
    extra.le32(0)
    extra.fourCC("JUNK")
    extra.le32(6)
    extra += [0, 0, 0, 0, 0, 0]
    bytes.insert(contentsOf: extra, at: 36)
    let reader = try WAVReader(data: Data(bytes))
    #expect(reader.dataOffset == 44 + extra.count)
    #expect(try reader.readRemaining() == WAVReader.readAll(data: WAVWriter.encode(original)))
  }

  /// Builds an RF64 (or BW64) file around `samples` with a ds64 chunk declaring `ds64DataSize`.
  static func rf64(_ id: String, samples: [Int16], ds64DataSize: Int) -> Data {
    var b: [UInt8] = []
    b.fourCC(id)
    b.le32(0xFFFF_FFFF)
    b.fourCC("WAVE")
    b.fourCC("ds64")
    b.le32(28)
    b.le64(4 + 36 + 24 + 8 + samples.count * 2)  // RIFF size
    b.le64(ds64DataSize)
    b.le64(samples.count)  // sample count
    b.le32(0)  // table length
    b.fourCC("fmt ")
    b.le32(16)
    b.le16(1)
    b.le16(1)
    b.le32(8000)
    b.le32(16000)
    b.le16(2)
    b.le16(16)
    b.fourCC("data")
    b.le32(0xFFFF_FFFF)
    for s in samples { b.le16(Int(UInt16(bitPattern: s))) }
    return Data(b)
  }

  @Test(arguments: ["RF64", "BW64"])
  func rf64TakesTheDataSizeFromDs64(id: String) throws {
    let samples: [Int16] = [0, 16384, -16384, 32767, -32768, 1]
    let whole = try WAVReader(data: Self.rf64(id, samples: samples, ds64DataSize: 12))
    #expect(!whole.dataSizeWasRepaired)
    #expect(try whole.readRemaining().mono == samples.map { Float($0) / 32768 })
    let part = try WAVReader(data: Self.rf64(id, samples: samples, ds64DataSize: 4))
    #expect(part.format.frameCount == 2)
    let beyond = try WAVReader(data: Self.rf64(id, samples: samples, ds64DataSize: 1 << 40))
    #expect(beyond.dataSizeWasRepaired && beyond.format.frameCount == 6)
  }

  @Test(arguments: [false, true])
  func readsFromAPipe(placeholderSize: Bool) throws {
    let original = testBuffer(channels: 2, rate: 16000, frames: 3000)
    var bytes = [UInt8](try WAVWriter.encode(original, encoding: .signed24))
    if placeholderSize { bytes = bytes.replacing(64, with: [0xFF, 0xFF, 0xFF, 0xFF]) }
    let pipe = Pipe()
    // 18 KB fits the pipe's buffer, so it can be written before reading starts.
    try pipe.fileHandleForWriting.write(contentsOf: bytes)
    try pipe.fileHandleForWriting.close()
    let reader = try WAVReader(handle: pipe.fileHandleForReading, name: "pipe")
    #expect(reader.format.frameCount == (placeholderSize ? nil : 3000))
    #expect(reader.remainingFrames == (placeholderSize ? nil : 3000))
    var decoded = AudioBuffer(sampleRate: 16000, channelCount: 2, frameCount: 0)
    while let block = try reader.read(maxFrames: 1000) { decoded.append(block) }
    #expect(reader.format.frameCount == 3000)
    #expect(reader.dataSizeWasRepaired == placeholderSize)
    #expect(largestDifference(decoded, original) <= roundTripTolerance(.signed24))
  }
}
