import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

@Suite struct ShiftCommandTests {
  static let rate = 44_100.0

  /// 0.6 s of a 220 Hz harmonic tone after 0.1 s of silence.
  static func tone() -> [Float] {
    [Float](repeating: 0, count: 4410)
      + SignalGenerator(sampleRate: rate).harmonicTone(
        fundamentalHz: 220, partialAmplitudes: [0.3, 0.2, 0.1, 0.05], length: .seconds(0.6))
  }

  static func medianPitch(_ samples: [Float]) throws -> Double {
    let yin = try YINEstimator(configuration: PitchConfiguration(sampleRate: rate))
    let voiced = yin.estimates(for: samples).filter { $0.isVoiced && $0.time > 0.25 && $0.time < 0.6 }.map(\.frequencyHz)
      .sorted()
    return voiced.isEmpty ? 0 : voiced[voiced.count / 2]
  }

  @Test(arguments: ["psola", "delay"])
  func writesAShiftedWAVAlignedWithTheInput(shifter: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.wav"), output = directory.appendingPathComponent("out.wav")
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, mono: Self.tone()), to: input, encoding: .float32)
    let result = try runEtude(["shift", input.path, output.path, "--semitones", "7", "--shifter", shifter, "--float"])
    #expect(result.status == 0, "\(result.err)")
    let shifted = try WAVReader.readAll(url: output).mono
    #expect(shifted.count == Self.tone().count)
    let pitch = try Self.medianPitch(shifted)
    #expect(abs(1200 * log2(pitch / (220 * exp2(7.0 / 12)))) < 3, "\(pitch) Hz")
    // Latency compensated: the tone starts within a few milliseconds of 0.1 s (the delay
    // shifter's lag sweeps by up to half its window around its latency).
    let onset = try #require(shifted.firstIndex { abs($0) > 0.05 })
    #expect(abs(onset - 4410) < (shifter == "psola" ? 100 : 900), "\(onset)")
  }

  @Test func streamsRawPCMThroughStandardInputAndOutput() throws {
    let floats = Self.tone()
    let result = try runEtudeBytes(
      ["shift", "-", "-", "--semitones", "-5", "--shifter", "delay", "--rate", "44100", "--format", "f32le"],
      stdin: floats.withUnsafeBytes { Data($0) })
    #expect(result.status == 0)
    #expect(result.out.count == floats.count * 4)
    let shifted = result.out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    let pitch = try Self.medianPitch(shifted)
    #expect(abs(1200 * log2(pitch / (220 * exp2(-5.0 / 12)))) < 3, "\(pitch) Hz")
  }

  @Test func rejectsDelayOptionsForPSOLA() throws {
    let result = try runEtude(["shift", "a.wav", "b.wav", "--semitones", "3", "--window", "30"])
    #expect(result.status != 0)
    #expect(result.err.contains("--shifter delay"))
  }
}

/// Runs `etude` and returns its standard output as bytes.
func runEtudeBytes(_ arguments: [String], stdin: Data) throws -> (status: Int32, out: Data) {
  let products =
    Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
    ?? Bundle.main.bundleURL
  signal(SIGPIPE, SIG_IGN)  // a failing command must fail the test, not kill the runner
  let process = Process()
  process.executableURL = products.appendingPathComponent("etude")
  process.arguments = arguments
  let out = Pipe(), input = Pipe()
  process.standardOutput = out
  process.standardError = FileHandle.nullDevice
  process.standardInput = input
  try process.run()
  let writer = Thread { input.fileHandleForWriting.write(stdin); try? input.fileHandleForWriting.close() }
  writer.start()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, data)
}
