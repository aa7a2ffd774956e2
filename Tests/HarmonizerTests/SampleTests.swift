import Foundation
import PitchDSP
import Testing

@testable import Harmonizer

@Suite struct SampleTests {
  static func ramp(_ count: Int) -> [Float] { (0..<count).map { Float($0) } }

  @Test func trimAcceptsItsBoundariesAndRejectsPastThem() throws {
    var sample = try Sample(name: "r", sampleRate: 100, frames: Self.ramp(10))
    try sample.trim(startFrame: 0, endFrame: 10)
    #expect(sample.trimmedFrames.elementsEqual(Self.ramp(10)))
    try sample.trim(startFrame: 9, endFrame: 10)
    #expect(Array(sample.trimmedFrames) == [9])
    try sample.trim(startFrame: 2, endFrame: 5)
    #expect(Array(sample.trimmedFrames) == [2, 3, 4])
    #expect(sample.durationSeconds == 0.03)
    for (start, end) in [(-1, 5), (5, 5), (6, 5), (0, 11)] {
      #expect(throws: SampleError.invalidTrim(start: start, end: end, frameCount: 10)) {
        try sample.trim(startFrame: start, endFrame: end)
      }
    }
    // A failed trim leaves the previous one.
    #expect(sample.trimmedRange == 2..<5)
  }

  @Test func trimInSecondsRoundsToFramesAndValidates() throws {
    var sample = try Sample(name: "r", sampleRate: 1000, frames: Self.ramp(1000))
    try sample.trim(startSeconds: 0.25, endSeconds: 0.5004)
    #expect(sample.trimmedRange == 250..<500)
    try sample.trim(startSeconds: 0.9)
    #expect(sample.trimmedRange == 900..<1000)
    #expect(throws: SampleError.invalidTrim(start: 0, end: 1001, frameCount: 1000)) {
      try sample.trim(startSeconds: 0, endSeconds: 1.001)
    }
    #expect(throws: SampleError.self) { try sample.trim(startSeconds: -0.1) }
    #expect(throws: SampleError.self) { try sample.trim(startSeconds: .nan) }
    #expect(throws: SampleError.invalidTrim(start: 500, end: 500, frameCount: 1000)) {
      try sample.trim(startSeconds: 0.5, endSeconds: 0.5)
    }
  }

  @Test func loopRegionIsValidatedAgainstTheTrimAndResetByANarrowerTrim() throws {
    var sample = try Sample(name: "r", sampleRate: 100, frames: Self.ramp(100))
    try sample.trim(startFrame: 10, endFrame: 60)
    try sample.setLoop(SampleLoop(isEnabled: true, region: 20..<50))
    #expect(sample.loopRegion == 20..<50)
    #expect(throws: SampleError.invalidLoop(start: 20, end: 51, frameCount: 50)) {
      try sample.setLoop(SampleLoop(isEnabled: true, region: 20..<51))
    }
    #expect(throws: SampleError.invalidLoop(start: 3, end: 4, frameCount: 50)) {
      try sample.setLoop(SampleLoop(isEnabled: true, region: 3..<4))
    }
    try sample.trim(startFrame: 10, endFrame: 40)
    #expect(sample.loop.region == nil && sample.loopRegion == 0..<30 && sample.isLooping)
    try sample.setLoop(isEnabled: true, startSeconds: 0.05, endSeconds: 0.25)
    #expect(sample.loopRegion == 5..<25)
  }

  @Test func nonFiniteFramesAreStoredAsSilence() throws {
    let sample = try Sample(name: "n", sampleRate: 100, frames: [1, .nan, .infinity, -.infinity, 2])
    #expect(sample.frames == [1, 0, 0, 0, 2])
    #expect(throws: SampleError.self) { try Sample(name: "e", sampleRate: 100, frames: []) }
    #expect(throws: SampleError.self) { try Sample(name: "e", sampleRate: 0, frames: [1]) }
  }

  @Test func loadsAWAVFileMixedToMonoAndResampled() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("etude-sample-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("two.wav")
    let left = (0..<4410).map { Float(0.5 * sin(2 * Double.pi * 441 * Double($0) / 44100)) }
    try WAVWriter.write(
      AudioBuffer(sampleRate: 44100, channels: [left, left.map { -$0 * 0 }]), to: url, encoding: .float32)

    let native = try Sample(contentsOf: url)
    #expect(native.name == "two" && native.sampleRate == 44100 && native.frames.count == 4410)
    #expect(abs(native.frames[25] - left[25] / 2) < 1e-6)

    let resampled = try Sample(contentsOf: url, sampleRate: 48000)
    #expect(resampled.sampleRate == 48000)
    #expect(abs(resampled.frames.count - 4800) <= 1)
    #expect(abs((resampled.frames.map { abs($0) }.max() ?? 0) - 0.25) < 0.01)

    // Written back (trimmed) and read again.
    var trimmed = native
    try trimmed.trim(startFrame: 100, endFrame: 200)
    let out = directory.appendingPathComponent("trimmed.wav")
    try trimmed.write(to: out)
    let back = try Sample(contentsOf: out)
    #expect(back.frames == Array(trimmed.trimmedFrames))
  }

  @Test func aMissingOrCorruptFileIsATypedError() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("etude-sample-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("none.wav")
    #expect(throws: SampleError.fileNotFound(path: missing.path)) { try Sample(contentsOf: missing) }
    let bad = directory.appendingPathComponent("bad.wav")
    try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8).write(to: bad)
    do {
      _ = try Sample(contentsOf: bad)
      Issue.record("a corrupt file loaded")
    } catch {
      guard case .unreadable(let path, let reason) = error else {
        Issue.record("wrong error \(error)")
        return
      }
      #expect(path == bad.path && !reason.isEmpty)
    }
    let empty = directory.appendingPathComponent("empty.wav")
    try WAVWriter.write(AudioBuffer(sampleRate: 8000, channelCount: 1, frameCount: 0), to: empty)
    #expect(throws: SampleError.empty(path: empty.path)) { try Sample(contentsOf: empty) }
  }
}
