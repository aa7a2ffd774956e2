import Foundation
import Testing

@testable import PitchDSP

@Suite struct RawPCMReaderTests {
  @Test func s16leStereoMixesDownAndDropsATrailingPartialFrame() throws {
    // Frames: (16384, -16384), (32767, 32767); then one stray byte.
    let bytes: [UInt8] = [0x00, 0x40, 0x00, 0xC0, 0xFF, 0x7F, 0xFF, 0x7F, 0x12]
    let reader = try RawPCMReader(data: Data(bytes), format: .s16le, channelCount: 2, sampleRate: 8000)
    #expect(try reader.readMono(maxFrames: 10) == [0, 32767.0 / 32768])
    #expect(try reader.readMono(maxFrames: 10) == nil)
    #expect(try reader.readMono(maxFrames: 10) == nil)
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7])
  func f32leStereoDropsAnIncompleteLastFrame(trailingBytes: Int) throws {
    let samples: [Float] = [0.5, -0.25, 1, 0]
    var bytes = samples.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
    bytes += Array(repeating: 0x3F, count: trailingBytes)
    let reader = try RawPCMReader(data: Data(bytes), format: .f32le, channelCount: 2, sampleRate: 48000)
    var out: [Float] = []
    while let next = try reader.readMono(maxFrames: 1) { out += next }
    #expect(out == [0.125, 0.5])
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

  @Test func readsAPipeThatDeliversHalfFrames() throws {
    let pipe = Pipe()
    let reader = try RawPCMReader(
      handle: pipe.fileHandleForReading, format: .s16le, channelCount: 2, sampleRate: 8000, name: "pipe")
    // One and a half frames arrive; the whole frame is returned at once without waiting for more.
    try pipe.fileHandleForWriting.write(contentsOf: [0x00, 0x20, 0x00, 0x20, 0x00, 0x40])
    #expect(try reader.readMono(maxFrames: 4096) == [0.25])
    // The rest of the frame, and a stray byte before the end.
    try pipe.fileHandleForWriting.write(contentsOf: [0x00, 0x40, 0x01])
    try pipe.fileHandleForWriting.close()
    #expect(try reader.readMono(maxFrames: 4096) == [0.5])
    #expect(try reader.readMono(maxFrames: 4096) == nil)
  }

  @Test func formatsParseFromTheirNames() throws {
    #expect(try RawPCMFormat(parsing: "s16le") == .s16le)
    #expect(try RawPCMFormat(parsing: "F32LE") == .f32le)
    #expect(RawPCMReader.Format(rawValue: "f32le") == .f32le)
    #expect(throws: PitchDSPError.invalidParameter(name: "raw PCM format", value: "\"s24le\"", expected: "s16le or f32le")) {
      try RawPCMFormat(parsing: "s24le")
    }
    #expect(RawPCMFormat.s16le.bytesPerSample == 2 && RawPCMFormat.f32le.encoding == .float32)
  }

  @Test func badParametersAreTypedErrors() {
    #expect(throws: PitchDSPError.invalidParameter(name: "channel count", value: "0", expected: "1...4096")) {
      try RawPCMReader(data: Data(), format: .s16le, channelCount: 0, sampleRate: 8000)
    }
    for rate in [0, -1, Double.nan, .infinity] {
      #expect(throws: PitchDSPError.self) { try RawPCMReader(data: Data(), format: .s16le, sampleRate: rate) }
    }
  }
}
