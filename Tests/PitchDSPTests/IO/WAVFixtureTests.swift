import Foundation
import Testing

@testable import PitchDSP

/// A sox-written fixture and what its header says.
struct WAVFixture: Sendable, CustomStringConvertible {
  var name: String
  var encoding: SampleEncoding
  var channelCount: Int
  var sampleRate: Double
  var isExtensible: Bool
  var description: String { name }

  var url: URL { Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "wav")! }
  var twinURL: URL { Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "f32")! }

  static let all: [WAVFixture] = [
    .init(name: "u8-mono-8000", encoding: .unsigned8, channelCount: 1, sampleRate: 8000, isExtensible: false),
    .init(
      name: "s16-stereo-44100", encoding: .signed16, channelCount: 2, sampleRate: 44100, isExtensible: false),
    .init(name: "s16-3ch-8000", encoding: .signed16, channelCount: 3, sampleRate: 8000, isExtensible: true),
    .init(
      name: "s24-mono-48000", encoding: .signed24, channelCount: 1, sampleRate: 48000, isExtensible: true),
    .init(name: "s24-6ch-16000", encoding: .signed24, channelCount: 6, sampleRate: 16000, isExtensible: true),
    .init(
      name: "s32-stereo-22050", encoding: .signed32, channelCount: 2, sampleRate: 22050, isExtensible: true),
    .init(
      name: "f32-mono-11025", encoding: .float32, channelCount: 1, sampleRate: 11025, isExtensible: false),
    .init(
      name: "f64-mono-96000", encoding: .float64, channelCount: 1, sampleRate: 96000, isExtensible: false),
  ]
}

@Suite struct WAVFixtureTests {
  @Test(arguments: WAVFixture.all)
  func soxFixturesReadBackWithTheRightFormatAndSamples(fixture: WAVFixture) throws {
    let reader = try WAVReader(url: fixture.url)
    #expect(reader.format.encoding == fixture.encoding)
    #expect(reader.format.channelCount == fixture.channelCount)
    #expect(reader.format.sampleRate == fixture.sampleRate)
    #expect(reader.format.isExtensible == fixture.isExtensible)
    #expect(!reader.dataSizeWasRepaired)

    let buffer = try reader.readRemaining()
    let twin = try Data(contentsOf: fixture.twinURL)
    let expected = twin.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    #expect(buffer.frameCount * fixture.channelCount == expected.count)
    #expect(buffer.frameCount == reader.format.frameCount)
    var worst: Float = 0
    for frame in 0..<buffer.frameCount {
      for channel in 0..<fixture.channelCount {
        worst = max(
          worst, abs(buffer.channels[channel][frame] - expected[frame * fixture.channelCount + channel]))
      }
    }
    #expect(worst < 1e-6, "largest difference from sox's decoding: \(worst)")
    // The signal is really there: half-scale sines.
    let peak = buffer.channels.flatMap { $0 }.map(abs).max() ?? 0
    #expect(peak > 0.45 && peak < 0.51)
  }

  @Test(arguments: WAVFixture.all, [1, 7, 4096])
  func streamingInBlocksMatchesReadingAll(fixture: WAVFixture, block: Int) throws {
    let all = try WAVReader.readAll(url: fixture.url)
    let reader = try WAVReader(url: fixture.url)
    var streamed = AudioBuffer(sampleRate: all.sampleRate, channelCount: all.channelCount, frameCount: 0)
    var blocks = 0
    while let next = try reader.read(maxFrames: block) {
      #expect(next.frameCount >= 1 && next.frameCount <= block)
      streamed.append(next)
      blocks += 1
    }
    #expect(streamed == all)
    #expect(blocks == (all.frameCount + block - 1) / block)
    #expect(reader.remainingFrames == 0)
    #expect(try reader.read(maxFrames: block) == nil)
    // The same through memory, and mixed to mono.
    let fromData = try WAVReader(data: Data(contentsOf: fixture.url))
    var mono: [Float] = []
    while let next = try fromData.readMono(maxFrames: block) { mono += next }
    let expectedMono = all.mixedToMono().mono
    #expect(mono.count == expectedMono.count)
    #expect(zip(mono, expectedMono).allSatisfy { abs($0 - $1) <= 1e-6 })
  }

  @Test func monoMixdownAveragesChannels() throws {
    let fixture = WAVFixture.all[1]
    let all = try WAVReader.readAll(url: fixture.url)
    let mono = try #require(try WAVReader(url: fixture.url).readMono(maxFrames: 1 << 20))
    #expect(mono == all.mixedToMono().mono)
  }

  @Test func missingFileIsATypedError() {
    #expect(throws: PitchDSPError.fileNotFound(path: "/nonexistent/x.wav")) {
      try WAVReader(url: URL(fileURLWithPath: "/nonexistent/x.wav"))
    }
    let directory = FileManager.default.temporaryDirectory
    #expect(throws: PitchDSPError.io(path: directory.path, message: "is a directory")) {
      try WAVReader(url: directory)
    }
  }

  @Test func fixturesStayTiny() throws {
    let directory = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures"))
    let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey]))
    var total = 0
    for case let url as URL in enumerator {
      total += try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    }
    #expect(total > 0 && total < 150_000, "fixtures total \(total) bytes")
  }
}
