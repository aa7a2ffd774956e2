import Foundation
import Testing

@testable import PitchDSP

@Suite struct WAVWriterTests {
  @Test func anExistingFileSurvivesAnAbandonedWrite() throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    let url = directory.file("keep.wav")
    let first = testBuffer(channels: 1, rate: 8000, frames: 100)
    try WAVWriter.write(first, to: url)
    let before = try Data(contentsOf: url)
    do {
      let writer = try WAVWriter(url: url, encoding: .signed16, channelCount: 1, sampleRate: 8000)
      try writer.write(testBuffer(channels: 1, rate: 8000, frames: 50))
      #expect(try directory.contents().count == 2, "the new file is written beside the old one")
      // A wrong channel count fails mid-write; the writer is then dropped without finish().
      #expect(
        throws: PitchDSPError.invalidParameter(
          name: "channel count", value: "2", expected: "1, as the writer was created")
      ) { try writer.write(testBuffer(channels: 2, rate: 8000, frames: 5)) }
    }
    #expect(try Data(contentsOf: url) == before)
    #expect(try directory.contents() == ["keep.wav"], "the temporary file was removed")
  }

  @Test func theDestinationIsReplacedOnlyByFinish() throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    let url = directory.file("take.wav")
    try WAVWriter.write(testBuffer(channels: 1, rate: 8000, frames: 100), to: url)
    let writer = try WAVWriter(url: url, encoding: .float32, channelCount: 2, sampleRate: 44100)
    try writer.write(testBuffer(channels: 2, rate: 44100, frames: 300))
    #expect(try WAVReader(url: url).format.encoding == .signed16, "still the old file")
    try writer.finish()
    let reader = try WAVReader(url: url)
    #expect(reader.format.encoding == .float32 && reader.format.frameCount == 300)
  }

  @Test func aFailedRenameLeavesTheDestinationAndNoTemporaryFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    // The destination is a non-empty directory: rename(2) refuses to replace it.
    let url = directory.file("occupied.wav")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    try Data([1, 2, 3]).write(to: url.appendingPathComponent("inside"))
    let writer = try WAVWriter(url: url, encoding: .signed16, channelCount: 1, sampleRate: 8000)
    try writer.write(testBuffer(channels: 1, rate: 8000, frames: 10))
    #expect(throws: PitchDSPError.self) { try writer.finish() }
    #expect(try directory.contents() == ["occupied.wav"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: url.path) == ["inside"])
  }

  @Test func writingAfterFinishIsAnError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    let writer = try WAVWriter(url: directory.file("a.wav"), encoding: .signed16, channelCount: 1, sampleRate: 8000)
    try writer.finish()
    #expect(throws: PitchDSPError.self) { try writer.write(testBuffer(channels: 1, rate: 8000, frames: 1)) }
    #expect(try WAVReader.readAll(url: directory.file("a.wav")).frameCount == 0)
  }

  @Test func aMissingDirectoryIsFileNotFound() {
    let url = URL(fileURLWithPath: "/nonexistent-etude-dir/out.wav")
    #expect(throws: PitchDSPError.fileNotFound(path: "/nonexistent-etude-dir")) {
      try WAVWriter(url: url, encoding: .signed16, channelCount: 1, sampleRate: 8000)
    }
  }

  @Test func parametersAWAVHeaderCannotHoldAreTypedErrors() throws {
    let directory = try TemporaryDirectory()
    defer { directory.cleanup() }
    let url = directory.file("x.wav")
    #expect(
      throws: PitchDSPError.invalidParameter(name: "channel count", value: "0", expected: "1...4096")
    ) { try WAVWriter(url: url, encoding: .signed16, channelCount: 0, sampleRate: 8000) }
    for rate in [0.5, 44100.5, 5e9, .infinity] {
      #expect(throws: PitchDSPError.self, "\(rate)") {
        try WAVWriter(url: url, encoding: .signed16, channelCount: 1, sampleRate: rate)
      }
    }
    #expect(throws: PitchDSPError.self) {
      try WAVWriter.encode(AudioBuffer(sampleRate: 5e9, mono: [0]))
    }
    #expect(throws: PitchDSPError.self) {
      try WAVWriter.encode(AudioBuffer(sampleRate: 0.4, mono: [0]))
    }
    #expect(try directory.contents().isEmpty)
  }

  @Test func theByteRateSaturatesForHugeRates() throws {
    // 4 294 967 295 Hz × 8 bytes per frame does not fit the 32-bit byte-rate field.
    let buffer = AudioBuffer(sampleRate: 4_294_967_295, channels: [[0.25], [-0.25]])
    let data = try WAVWriter.encode(buffer, encoding: .float32)
    let reader = try WAVReader(data: data)
    #expect(reader.format.sampleRate == 4_294_967_295)
    #expect(try reader.readRemaining() == buffer)
  }
}
