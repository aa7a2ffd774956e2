import Foundation
import Testing

@testable import Harmonizer

@Suite struct PresetSampleReferenceTests {
  @Test func aReferenceLoadsTheTrimmedLoopedSampleFromTheStore() throws {
    let store = PresetStore(
      directory: FileManager.default.temporaryDirectory.appendingPathComponent("etude-ref-\(UUID())"))
    defer { try? FileManager.default.removeItem(at: store.directory) }
    try FileManager.default.createDirectory(
      at: store.directory.appendingPathComponent("samples"), withIntermediateDirectories: true)
    var sample = try Sample(name: "ramp", sampleRate: 1000, frames: (0..<2000).map { Float($0) / 2000 })
    try sample.trim(startSeconds: 0.5, endSeconds: 1.5)
    try sample.setLoop(isEnabled: true, startSeconds: 0.25, endSeconds: 0.75, crossfadeSeconds: 0.005)
    try sample.write(to: store.directory.appendingPathComponent("samples/ramp.wav"))

    // The file holds only the trimmed part, so the preset's trim is relative to that file.
    let reference = PresetSampleReference(
      file: "samples/ramp.wav", trimStartSeconds: 0.1,
      loop: .init(isEnabled: true, startSeconds: 0.2, endSeconds: 0.6, crossfadeSeconds: 0.005))
    let loaded = try reference.load(from: store)
    #expect(loaded.trimmedRange == 100..<1000)
    #expect(loaded.loopRegion == 200..<600 && loaded.isLooping)
    #expect(loaded.trimmedFrames.first == Float(600) / 2000)

    let described = PresetSampleReference(sample: sample, file: "samples/ramp.wav")
    #expect(described.trimStartSeconds == 0.5 && described.trimEndSeconds == 1.5)
    #expect(
      described.loop == .init(isEnabled: true, startSeconds: 0.25, endSeconds: 0.75, crossfadeSeconds: 0.005))

    #expect(throws: SampleError.self) { try PresetSampleReference(file: "../ramp.wav").load(from: store) }
    #expect(throws: SampleError.fileNotFound(path: store.directory.appendingPathComponent("none.wav").path)) {
      try PresetSampleReference(file: "none.wav").load(from: store)
    }
  }
}
