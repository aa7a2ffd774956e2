import Foundation
import Testing

@testable import PitchDSP

@Suite struct FXCommandTests {
  static let rate = 16_000.0

  /// A click at 0.05 s in 0.5 s of silence.
  static func click() -> [Float] {
    var samples = [Float](repeating: 0, count: Int(0.5 * rate))
    samples[800] = 0.5
    return samples
  }

  @Test func listNamesEveryEffectWithRangesAndDefaults() throws {
    let result = try runEtude(["fx", "--list"])
    #expect(result.status == 0, "\(result.err)")
    for effect in ["chorus:", "overdrive:", "delay:", "reverb:", "adsr:", "lowpass:", "volume:"] {
      #expect(result.out.contains(effect))
    }
    #expect(result.out.contains("time [0.001...4 s] default 0.35 s"))
    #expect(result.out.contains("cutoff [20...20000 Hz] default 2000 Hz"))
  }

  @Test func aWAVFileGoesThroughTheChainWithItsTail() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("click.wav")
    let output = directory.appendingPathComponent("echo.wav")
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, mono: Self.click()), to: input, encoding: .float32)
    let result = try runEtude([
      "fx", input.path, output.path, "--chain", "delay,volume", "--set", "delay.time=0.2", "--set",
      "delay.feedback=0.5", "--set", "delay.mix=1", "--set", "delay.damping=20000", "--set", "volume.gain=-6",
    ])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.contains("through delay > volume"))
    let reader = try WAVReader(url: output)
    #expect(reader.format.encoding == .float32)
    let samples = try #require(try reader.readMono(maxFrames: 1_000_000))
    // The tail: until the echoes fall 80 dB, 0.2 · (1 + ln 1e-4 / ln 0.5) ≈ 2.86 s.
    #expect(abs(Double(samples.count) / Self.rate - (0.5 + 0.2 * (1 + log(1e-4) / log(0.5)))) < 0.01)
    let loudest = samples.indices.max { abs(samples[$0]) < abs(samples[$1]) }!
    #expect(loudest == 800 + 3200)  // the first echo, 0.2 s later; −6 dB
    #expect(abs(samples[4000] - 0.25) < 0.01)
    #expect(abs(samples[800]) < 1e-6)  // mix 1: no dry click
    let second = samples[7190...7210].reduce(0, +)
    #expect(abs(second - 0.125) < 0.005)
  }

  @Test func rawPCMStreamsFromStandardInputToStandardOutput() throws {
    let click = Self.click()
    var bytes: [UInt8] = []
    RawPCMFormat.f32le.encoding.encode([click], frames: 0..<click.count, appendingTo: &bytes)
    let result = try Self.runEtudeBinary(
      [
        "fx", "-", "-", "--rate", "16000", "--format", "f32le", "--chain", "delay", "--set", "delay.time=0.1",
        "--set", "delay.mix=1", "--set", "delay.feedback=0", "--tail", "0.25",
      ], stdin: Data(bytes))
    #expect(result.status == 0)
    let samples = result.out.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    #expect(samples.count == click.count + 4000)
    #expect(samples.indices.max { abs(samples[$0]) < abs(samples[$1]) }! == 800 + 1600)
    #expect(abs(samples[2400] - 0.5) < 1e-5)
  }

  /// Runs the built `etude` with `arguments`, returning standard output as bytes.
  static func runEtudeBinary(_ arguments: [String], stdin: Data) throws -> (status: Int32, out: Data) {
    let products =
      Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
      ?? Bundle.main.bundleURL
    let process = Process()
    process.executableURL = products.appendingPathComponent("etude")
    process.arguments = arguments
    let out = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = input
    try process.run()
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data)
  }

  @Test func unknownNamesAreErrorsListingTheValidOnesAndWriteNothing() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("click.wav")
    let output = directory.appendingPathComponent("out.wav")
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, mono: Self.click()), to: input)
    let effect = try runEtude(["fx", input.path, output.path, "--chain", "chorus,flanger"])
    #expect(effect.status != 0)
    #expect(effect.err.contains("unknown effect 'flanger'"))
    #expect(effect.err.contains("chorus, overdrive, delay, reverb, adsr, lowpass, volume"))
    let parameter = try runEtude([
      "fx", input.path, output.path, "--chain", "reverb", "--set", "reverb.size=2",
    ])
    #expect(parameter.status != 0)
    #expect(parameter.err.contains("valid parameters: decay, damping, mix"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }
}
