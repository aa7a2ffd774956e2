import Foundation
import Testing

@testable import PitchDSP

@Suite struct OnsetsCommandTests {
  static let rate = 22050.0

  /// Three decaying notes at 0.2, 0.7 and 1.1 s, each fading out before the next (mono).
  static func notes() -> [Float] {
    var samples = [Float](repeating: 0, count: Int(1.6 * rate))
    for (start, frequency) in [(0.2, 330.0), (0.7, 440), (1.1, 262)] {
      let first = Int(start * rate)
      let count = Int(0.3 * rate)
      for j in 0..<count {
        let t = Double(j) / rate
        let envelope = min(1, t / 0.005) * exp(-t / 0.2) * min(1, (0.3 - t) / 0.05)
        samples[first + j] += Float(0.3 * envelope * sin(2 * Double.pi * frequency * t))
      }
    }
    return samples
  }

  static func times(_ text: String) -> [Double] {
    text.split(separator: "\n").compactMap { Double($0) }
  }

  @Test(arguments: ["superflux", "amplitude"])
  func printsOneOnsetTimePerLineForAWAVFile(method: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("notes.wav")
    let samples = Self.notes()
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, channels: [samples, samples]), to: url, encoding: .signed16)
    let result = try runEtude(["onsets", url.path, "--method", method])
    #expect(result.status == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count == 5 && $0.dropFirst().hasPrefix(".") }, "\(result.out)")
    let found = Self.times(result.out)
    #expect(found.count == 3, "\(result.out)")
    for (time, truth) in zip(found, [0.2, 0.7, 1.1]) { #expect(abs(time - truth) <= 0.02, "\(result.out)") }
  }

  @Test func superFluxNormalizesAQuietFile() throws {
    // The same notes at −50 dBFS: normalized to full scale, SuperFlux finds them; as recorded, the
    // paper's fixed threshold misses their soft spectra.
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("quiet.wav")
    let quiet = Self.notes().map { $0 * 0.01 }
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, mono: quiet), to: url, encoding: .float32)
    let normalized = try runEtude(["onsets", url.path])
    #expect(normalized.status == 0, "\(normalized.err)")
    let found = Self.times(normalized.out)
    #expect(
      found.count == 3 && zip(found, [0.2, 0.7, 1.1]).allSatisfy { abs($0 - $1) <= 0.02 }, "\(normalized.out)"
    )
    let raw = try runEtude(["onsets", url.path, "--no-normalize"])
    #expect(raw.status == 0 && Self.times(raw.out).count < 3, "\(raw.out)")
  }

  @Test func readsRawPCMFromStandardInput() throws {
    var bytes: [UInt8] = []
    for x in Self.notes() {
      let v = Int16(max(-32768, min(32767, (x * 32767).rounded())))
      bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
    }
    let result = try runEtude(
      ["onsets", "-", "--rate", "22050", "--format", "s16le", "--method", "amplitude"], stdin: Data(bytes))
    #expect(result.status == 0, "\(result.err)")
    let found = Self.times(result.out)
    #expect(
      found.count == 3 && zip(found, [0.2, 0.7, 1.1]).allSatisfy { abs($0 - $1) <= 0.01 }, "\(result.out)")
  }

  @Test func printsEachOnsetWhileTheAudioArrives() throws {
    // Only the first 0.5 s goes in; the first onset must come out before standard input ends.
    let floats = Self.notes()
    let head = floats[0..<Int(0.5 * Self.rate)].withUnsafeBytes { Data($0) }
    let tail = floats[Int(0.5 * Self.rate)...].withUnsafeBytes { Data($0) }
    let products =
      Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
      ?? Bundle.main.bundleURL
    let process = Process()
    process.executableURL = products.appendingPathComponent("etude")
    process.arguments = ["onsets", "-", "--rate", "22050", "--format", "f32le"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(head)
    let firstLine = LockedBox<String>()
    let arrived = DispatchSemaphore(value: 0)
    let reader = output.fileHandleForReading
    Thread.detachNewThread {
      firstLine.set(String(decoding: reader.availableData, as: UTF8.self))
      arrived.signal()
    }
    let inTime = arrived.wait(timeout: .now() + 20) == .success
    input.fileHandleForWriting.write(tail)
    try input.fileHandleForWriting.close()
    let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(inTime, "no onset printed before the end of the input")
    #expect(
      Self.times(firstLine.get() ?? "").first.map { abs($0 - 0.2) <= 0.02 } == true,
      "\(firstLine.get() ?? "")")
    #expect(Self.times((firstLine.get() ?? "") + rest).count == 3)
    #expect(process.terminationStatus == 0)
  }

  @Test func aBadFileIsACleanError() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("bad.wav")
    try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8).write(to: url)
    let result = try runEtude(["onsets", url.path])
    #expect(result.status != 0)
    #expect(result.err.hasPrefix("Error: ") && result.err.contains("truncated at byte 12"), "\(result.err)")
    #expect(result.out.isEmpty)
    let missing = try runEtude(["onsets", directory.appendingPathComponent("none.wav").path])
    #expect(missing.status != 0 && missing.err.hasPrefix("Error: ") && missing.err.contains("no such file"))
    let method = try runEtude(["onsets", url.path, "--method", "hfc"])
    #expect(method.status != 0 && method.err.contains("Error: ") && method.err.contains("superflux"))
  }
}

/// A value shared between a test and a thread it starts.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value?
  func set(_ newValue: Value) { lock.withLock { value = newValue } }
  func get() -> Value? { lock.withLock { value } }
}
