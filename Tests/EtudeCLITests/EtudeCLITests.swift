import Foundation
import Testing

@testable import PitchDSP

/// Runs the built `etude` binary and returns its exit status, standard output and standard error.
func runEtude(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, out: String, err: String) {
  let products =
    Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent()
    ?? Bundle.main.bundleURL
  let process = Process()
  process.executableURL = products.appendingPathComponent("etude")
  process.arguments = arguments
  let out = Pipe(), err = Pipe(), input = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = input
  try process.run()
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}

func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("etude-cli-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite(.serialized) struct EtudeCLITests {
  @Test func infoReportsFormatDurationAndLevels() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("tone.wav")
    // 0.5 s of a half-scale 440 Hz sine in 24-bit stereo at 48 kHz: peak −6.02 dBFS, RMS −9.03 dBFS.
    let sine = (0..<24000).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48000)) }
    try WAVWriter.write(AudioBuffer(sampleRate: 48000, channels: [sine, sine]), to: url, encoding: .signed24)

    let text = try runEtude(["info", url.path])
    #expect(text.status == 0)
    #expect(text.out.contains("24-bit integer PCM (WAVE_FORMAT_EXTENSIBLE)"))
    #expect(text.out.contains("channels:   2") && text.out.contains("rate:       48000 Hz"))
    #expect(text.out.contains("duration:   0.500 s (24000 frames)"))
    #expect(text.out.contains("peak:       -6.02 dBFS") && text.out.contains("RMS:        -9.03 dBFS"))

    let json = try runEtude(["info", "--json", url.path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect(object["channels"] as? Int == 2)
    #expect(object["sampleRate"] as? Double == 48000)
    #expect(object["encoding"] as? String == "s24")
    #expect(abs((object["rmsDBFS"] as? Double ?? 0) + 9.03) < 0.01)
  }

  @Test func infoReadsRawPCMFromStandardInput() throws {
    // 8000 frames of s16le at full negative scale, then silence.
    var bytes: [UInt8] = []
    for i in 0..<16000 { bytes += i < 8000 ? [0x00, 0x80] : [0, 0] }
    let result = try runEtude(["info", "-", "--rate", "8000", "--format", "s16le"], stdin: Data(bytes))
    #expect(result.status == 0)
    #expect(result.out.contains("duration:   2.000 s (16000 frames)"))
    #expect(result.out.contains("peak:       0.00 dBFS"))
    #expect(result.out.contains("clipped:    8000 samples"))
  }

  @Test func infoOnABadFileFailsWithTheTypedError() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("bad.wav")
    try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8).write(to: url)
    let result = try runEtude(["info", url.path])
    #expect(result.status != 0)
    #expect(result.err.contains("truncated at byte 12"))
    let missing = try runEtude(["info", directory.appendingPathComponent("none.wav").path])
    #expect(missing.status != 0 && missing.err.contains("no such file"))
  }

  @Test func demoFindsEveryNoteOfItsMelody() throws {
    let object = try DemoRun.json()
    #expect(object["expectedNotes"] as? Int == 15)
    #expect(object["correctNotes"] as? Int == 15)
    #expect((object["meanAbsoluteCents"] as? Double ?? 99) < 5)
    let midi = try #require(object["midi"] as? [String: Any])
    #expect(midi["roundTripIdentical"] as? Bool == true)
    #expect(midi["quizSteps"] as? Int == 15 && midi["quizCorrectSteps"] as? Int == 15)
    #expect((midi["composition"] as? String ?? "").contains("[0, \"note\", 64, 100, 1]"))
  }
}
