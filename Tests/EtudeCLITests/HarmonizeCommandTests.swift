import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// `etude harmonize` and `etude autotune`, run as a user runs them, measured back with YIN.
@Suite struct HarmonizeCommandTests {
  static let rate = 44_100.0

  /// 0.1 s of silence, then a harmonic tone at `hz` for `seconds`.
  static func tone(_ hz: Double, seconds: Double = 1) -> [Float] {
    [Float](repeating: 0, count: 4410)
      + SignalGenerator(sampleRate: rate).harmonicTone(
        fundamentalHz: hz, partialAmplitudes: [0.3, 0.2, 0.1, 0.05], length: .seconds(seconds))
  }

  static func medianPitch(_ samples: [Float], from: Double = 0.35, to: Double = 0.95) throws -> Double {
    let yin = try YINEstimator(configuration: PitchConfiguration(sampleRate: rate))
    let voiced = yin.estimates(for: samples).filter { $0.isVoiced && $0.time > from && $0.time < to }.map(
      \.frequencyHz
    )
    .sorted()
    return voiced.isEmpty ? 0 : voiced[voiced.count / 2]
  }

  static func cents(_ hz: Double, _ reference: Double) -> Double { 1200 * log2(hz / reference) }

  @Test func oneDiatonicVoiceWithoutTheLiveVoiceSingsTheThird() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.wav"),
      output = directory.appendingPathComponent("out.wav")
    // E4 sung in C major: a third above is G4.
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, mono: Self.tone(329.63)), to: input, encoding: .float32)
    let result = try runEtude([
      "harmonize", input.path, output.path, "--voices", "3", "--key", "C", "--live-level", "0", "--float",
    ])
    #expect(result.status == 0, "\(result.err)")
    let stereo = try WAVReader.readAll(url: output)
    #expect(stereo.channelCount == 2)
    #expect(stereo.frameCount == Self.tone(329.63).count)
    #expect(abs(Self.cents(try Self.medianPitch(stereo.channels[0]), 392.0)) < 5)
  }

  @Test func aProgressionAndEffectsRenderTheirTail() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.wav"),
      output = directory.appendingPathComponent("out.wav")
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, mono: Self.tone(261.63)), to: input, encoding: .float32)
    let result = try runEtude([
      "harmonize", input.path, output.path, "--progression", "G:maj 4", "--tempo", "120", "--live-level", "0",
      "--fx", "reverb", "--set", "reverb.decay=1",
    ])
    #expect(result.status == 0, "\(result.err)")
    let stereo = try WAVReader.readAll(url: output)
    #expect(stereo.frameCount > Self.tone(261.63).count)  // the reverb's tail
    #expect(
      Signal.rms(stereo.channels[0][(stereo.frameCount - 22_050)...])
        < Signal.rms(stereo.channels[0][8000..<30_000]))
  }

  @Test func autotuneSnapsASharpNoteToTheScale() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.wav"),
      output = directory.appendingPathComponent("out.wav")
    // A4 40 cents sharp, in A minor.
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, mono: Self.tone(440 * exp2(0.4 / 12))), to: input, encoding: .float32
    )
    let result = try runEtude([
      "autotune", input.path, output.path, "--key", "A", "--scale", "minor", "--retune-ms", "0", "--float",
    ])
    #expect(result.status == 0, "\(result.err)")
    let tuned = try WAVReader.readAll(url: output)
    #expect(tuned.channelCount == 1)
    #expect(abs(Self.cents(try Self.medianPitch(tuned.mono), 440)) < 3)
  }

  @Test func badChoicesAreClearErrors() throws {
    let none = try runEtude(["harmonize", "in.wav", "out.wav"])
    #expect(none.status != 0 && none.err.contains("exactly one of"))
    let chord = try runEtude(["harmonize", "in.wav", "out.wav", "--chord", "H:maj"])
    #expect(chord.status != 0 && chord.err.contains("--chord"))
    let effect = try runEtude(["harmonize", "-", "-", "--voices", "3", "--fx", "flanger"], stdin: Data())
    #expect(effect.status != 0 && effect.err.contains("valid effects"))
  }

  @Test func aSavedPresetDrivesTheChain() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.wav"),
      output = directory.appendingPathComponent("out.wav")
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, mono: Self.tone(329.63)), to: input, encoding: .float32)
    let document = directory.appendingPathComponent("third.json")
    try Data(
      #"""
      {"schema": "etude-preset/1", "name": "Third", "key": "C major",
       "voices": [{"degree": 3, "level": 1, "pan": 0}],
       "volumes": {"inputDB": 0, "outputDB": -6, "sampleDB": 0},
       "rack": [{"effect": "reverb", "parameters": {"reverb.decay": 0.8, "reverb.mix": 0.2}}]}
      """#.utf8
    ).write(to: document)
    let presets = directory.appendingPathComponent("presets").path
    let saved = try runEtude(["presets", "save", "Third", "--from", document.path, "--dir", presets])
    #expect(saved.status == 0, "\(saved.err)")
    let result = try runEtude([
      "harmonize", input.path, output.path, "--preset", "third", "--presets-dir", presets, "--float",
    ])
    #expect(result.status == 0, "\(result.err)")
    let stereo = try WAVReader.readAll(url: output)
    #expect(stereo.frameCount > Self.tone(329.63).count)  // the reverb's tail
    let missing = try runEtude([
      "harmonize", input.path, output.path, "--preset", "none", "--presets-dir", presets,
    ])
    #expect(missing.status != 0 && missing.err.contains("no preset named"))
  }

  @Test func aPresetsSamplePlaysThroughTheChainTrimmedAndLooped() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let presets = directory.appendingPathComponent("presets")
    try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
    try WAVWriter.write(
      AudioBuffer(sampleRate: Self.rate, mono: Self.tone(329.63, seconds: 1)),
      to: presets.appendingPathComponent("e4.wav"),
      encoding: .float32)
    let document = directory.appendingPathComponent("sampled.json")
    try Data(
      #"""
      {"schema": "etude-preset/1", "name": "Sampled", "key": "C major",
       "voices": [{"degree": 3, "level": 1, "pan": 0}],
       "sample": {"file": "e4.wav", "trimStartSeconds": 0.2, "trimEndSeconds": 0.9,
                  "loop": {"enabled": true, "crossfadeSeconds": 0.02}}}
      """#.utf8
    ).write(to: document)
    let saved = try runEtude(["presets", "save", "Sampled", "--from", document.path, "--dir", presets.path])
    #expect(saved.status == 0, "\(saved.err)")
    let output = directory.appendingPathComponent("out.wav")
    let result = try runEtude([
      "harmonize", "sample", output.path, "--preset", "Sampled", "--presets-dir", presets.path, "--seconds",
      "2",
      "--float",
    ])
    #expect(result.status == 0, "\(result.err)")
    let stereo = try WAVReader.readAll(url: output)
    #expect(stereo.frameCount == 2 * Int(Self.rate))
    // Looped past its 0.7 s: still sounding at the end, the live E4 and the voice's G4.
    #expect(Signal.rms(stereo.channels[0][Int(1.6 * Self.rate)..<Int(1.9 * Self.rate)]) > 0.05)
  }

  @Test func theDemoHarmonizesAndAutoTunesItsPhrase() throws {
    let object = try DemoRun.json()
    let report = try #require(object["harmonizer"] as? [String: Any])
    let thirds = try #require(report["thirds"] as? [[String: Any]])
    #expect(thirds.map { $0["expected"] as? String } == ["E4", "G4", "B4", "C5"])
    for third in thirds { #expect(abs(third["cents"] as? Double ?? 99) < 3) }
    let tuned = try #require(report["autoTunedCents"] as? [Double])
    #expect(tuned.count == 4)
    for cents in tuned { #expect(abs(cents) < 8) }
  }
}
