import Foundation
import PitchDSP
import ScoreModel
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct HarmonizerEngineTests {
  static let rate = 44_100.0

  /// `signal` through `engine` in blocks of `block` frames: the left and right channels.
  static func run(_ engine: HarmonizerEngine, _ signal: [Float], block: Int = 256) -> (
    left: [Float], right: [Float]
  ) {
    var left = [Float](repeating: .nan, count: signal.count)
    var right = [Float](repeating: .nan, count: signal.count)
    var start = 0
    while start < signal.count {
      let end = min(signal.count, start + block)
      signal[start..<end].withUnsafeBufferPointer { input in
        left[start..<end].withUnsafeMutableBufferPointer { l in
          right[start..<end].withUnsafeMutableBufferPointer { r in engine.process(input, left: l, right: r) }
        }
      }
      start = end
    }
    return (left, right)
  }

  static func hz(_ midi: Double) -> Double { 440 * pow(2, (midi - 69) / 12) }

  /// The pitch of a single voice (live voice muted) sung at `sung`, in cents from `expected`.
  static func voiceError(_ settings: HarmonizerSettings, sung: Double, expected: Double) throws -> Double {
    var settings = settings
    settings.liveLevel = 0
    let engine = try HarmonizerEngine(sampleRate: rate, settings: settings)
    let out = run(engine, ShiftMeasurement.harmonicTone(hz(sung), sampleRate: rate, seconds: 1.2))
    let pitch = try ShiftMeasurement.medianPitch(out.left, sampleRate: rate, from: 0.4, to: 1.1)
    return ShiftMeasurement.cents(pitch, from: hz(expected))
  }

  @Test func aDiatonicVoiceSingsTheKeysThird() throws {
    // E4 in C major: a third above is G4.
    #expect(abs(try Self.voiceError(.diatonic([3], in: .cMajor), sung: 64, expected: 67)) < 5)
    // D4 in C major: a third above is F4.
    #expect(abs(try Self.voiceError(.diatonic([3], in: .cMajor), sung: 62, expected: 65)) < 5)
  }

  @Test func aChordVoiceIsInTuneWhenTheSingerIsNot() throws {
    // D4 sung 25 cents sharp, C major chord: the voice sings E4 in tune.
    let settings = HarmonizerSettings.chord(try Chord(harte: "C:maj"), voices: 1)
    #expect(abs(try Self.voiceError(settings, sung: 62.25, expected: 64)) < 5)
  }

  @Test func theKeyboardsNotesReplaceTheIntervals() throws {
    var settings = HarmonizerSettings.diatonic([3], in: .cMajor)
    settings.liveLevel = 0
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings)
    engine.hold([55])  // G3, whatever is sung
    let out = Self.run(
      engine, ShiftMeasurement.harmonicTone(Self.hz(60), sampleRate: Self.rate, seconds: 1.2))
    let pitch = try ShiftMeasurement.medianPitch(out.left, sampleRate: Self.rate, from: 0.4, to: 1.1)
    #expect(abs(ShiftMeasurement.cents(pitch, from: Self.hz(55))) < 5)
    // An empty chord silences the voices.
    engine.hold([])
    let silent = Self.run(
      engine, ShiftMeasurement.harmonicTone(Self.hz(60), sampleRate: Self.rate, seconds: 0.5))
    #expect(Signal.peak(silent.left[11_025...]) < 1e-4)
  }

  @Test func theAutoTunerSnapsTheLiveVoiceToTheScale() throws {
    // A4 sung 35 cents sharp, auto-tune to A minor at once: out comes A4.
    let settings = HarmonizerSettings(
      key: Key(.a, .naturalMinor),
      autoTune: .init(isEnabled: true, key: Key(.a, .naturalMinor), retuneSeconds: 0))
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings)
    let out = Self.run(
      engine, ShiftMeasurement.harmonicTone(Self.hz(69.35), sampleRate: Self.rate, seconds: 1.2))
    let pitch = try ShiftMeasurement.medianPitch(out.left, sampleRate: Self.rate, from: 0.4, to: 1.1)
    #expect(abs(ShiftMeasurement.cents(pitch, from: 440)) < 3)
  }

  @Test func aVoicePannedLeftIsSilentOnTheRight() throws {
    let settings = HarmonizerSettings(voices: [HarmonyVoice(.semitones(7), level: 1, pan: -1)], liveLevel: 0)
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings)
    let out = Self.run(engine, ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.8))
    #expect(Signal.rms(out.left[22_050...]) > 0.05)
    #expect(Signal.peak(out.right) < 1e-6)
  }

  @Test func theLiveVoiceComesOutAfterTheLatencyUnchanged() throws {
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: HarmonizerSettings(liveLevel: 1))
    let tone = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.5)
    let out = Self.run(engine, tone, block: 100)
    let lag = engine.latencySamples
    // After the first block's level ramp, the output is the input delayed by the latency.
    for i in (lag + 200)..<tone.count { #expect(abs(out.left[i] - tone[i - lag]) < 1e-6) }
  }

  @Test func levelChangesRampWithoutClicksAndBadInputStaysFinite() throws {
    let settings = HarmonizerSettings.diatonic([3, 5], in: .cMajor)
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings)
    var tone = ShiftMeasurement.harmonicTone(Self.hz(60), sampleRate: Self.rate, seconds: 1)
    tone[20_000] = .nan
    tone[20_001] = .infinity
    let first = Self.run(engine, Array(tone[..<22_050]))
    var louder = settings
    louder.voices[0].level = 1
    louder.voices[1].level = 0
    try engine.update(louder)
    let second = Self.run(engine, Array(tone[22_050...]))
    let left = first.left + second.left
    #expect(left.allSatisfy { $0.isFinite })
    var jump: Float = 0
    for i in 22_000..<23_000 { jump = max(jump, abs(left[i] - left[i - 1])) }
    // The tone's own steepest step is about 0.1 per sample; a click would be far above.
    #expect(jump < 0.2)
  }

  /// A sung-like G3: eight harmonics under a 5.5 Hz vibrato of ±35 cents.
  static func vibratoTone(seconds: Double) -> [Float] {
    var phase = 0.0
    return (0..<Int(seconds * rate)).map { i in
      let f0 = 196 * pow(2, 0.35 / 12 * sin(2 * Double.pi * 5.5 * Double(i) / rate))
      phase += 2 * Double.pi * f0 / rate
      return Float((1...8).reduce(0.0) { $0 + 0.25 * pow(0.7, Double($1 - 1)) * sin(Double($1) * phase) })
    }
  }

  @Test func instantAutoTuneFlattensAVibrato() throws {
    let settings = HarmonizerSettings(
      key: .cMajor, autoTune: .init(isEnabled: true, key: .cMajor, retuneSeconds: 0))
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings)
    let input = Self.vibratoTone(seconds: 2)
    let out = Self.run(engine, input)
    func rmsCents(_ samples: [Float]) throws -> Double {
      let yin = try YINEstimator(
        configuration: PitchConfiguration(sampleRate: Self.rate, minimumFrequencyHz: 60))
      let cents = yin.estimates(for: samples).filter { $0.isVoiced && $0.time > 0.4 && $0.time < 1.9 }
        .map { 1200 * log2($0.frequencyHz / 196) }
      return (cents.map { $0 * $0 }.reduce(0, +) / Double(max(1, cents.count))).squareRoot()
    }
    #expect(try rmsCents(input) > 20)
    #expect(try rmsCents(out.left) < 4)
  }

  @Test func delayLineVoicesSingTheIntervalAtLowLatency() throws {
    var settings = HarmonizerSettings.diatonic([3], in: .cMajor)
    settings.liveLevel = 0
    let engine = try HarmonizerEngine(sampleRate: Self.rate, settings: settings, shifter: .delayLine)
    #expect(engine.latencySamples <= 1024)
    let out = Self.run(
      engine, ShiftMeasurement.harmonicTone(Self.hz(64), sampleRate: Self.rate, seconds: 1.2))
    let pitch = try ShiftMeasurement.medianPitch(out.left, sampleRate: Self.rate, from: 0.4, to: 1.1)
    #expect(abs(ShiftMeasurement.cents(pitch, from: Self.hz(67))) < 5)
    // The live voice comes out one (short) latency later, unchanged.
    let live = try HarmonizerEngine(
      sampleRate: Self.rate, settings: HarmonizerSettings(liveLevel: 1), shifter: .delayLine)
    let tone = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.3)
    let dry = Self.run(live, tone, block: 100)
    let lag = live.latencySamples
    for i in (lag + 200)..<tone.count { #expect(abs(dry.left[i] - tone[i - lag]) < 1e-6) }
  }

  /// The largest sample difference between two outputs (infinite when their lengths differ):
  /// a failed comparison reports one number, not two arrays.
  static func largestDifference(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return .infinity }
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
  }

  /// `input` through a new engine in blocks of 7, 37, 256 and 512 frames: the four outputs
  /// (left then right).
  static func outputsByBlockSize(
    _ input: [Float], rate: Double, settings: HarmonizerSettings, shifter: HarmonizerEngine.VoiceShifter
  ) throws -> [[Float]] {
    try [7, 37, 256, 512].map { block in
      let engine = try HarmonizerEngine(sampleRate: rate, settings: settings, shifter: shifter)
      let out = Self.run(engine, input, block: block)
      return out.left + out.right
    }
  }

  /// Four voices at fixed intervals on either shifter, at the rates a device runs at: however
  /// the stream is cut, the same samples come out (the PSOLA voices once depended on it at
  /// 48 kHz).
  @Test(arguments: [48_000.0, 16_000], [HarmonizerEngine.VoiceShifter.psola, .delayLine])
  func fixedIntervalsDoNotDependOnTheBlockSize(rate: Double, shifter: HarmonizerEngine.VoiceShifter) throws {
    let settings = HarmonizerSettings(voices: HarmonizerSettings.spread([.semitones(4), .semitones(7), .semitones(-5), .semitones(12)]))
    let input = ShiftMeasurement.vowel(180, sampleRate: rate, seconds: 0.25)
    let outputs = try Self.outputsByBlockSize(input, rate: rate, settings: settings, shifter: shifter)
    for other in outputs.dropFirst() { #expect(Self.largestDifference(other, outputs[0]) == 0) }
  }

  /// Voices that follow the sung pitch (diatonic and chord intervals) and the auto-tuned live
  /// voice, on a gliding, wavering voice: their shifts change on the engine's fixed control
  /// grid, not at the host's block boundaries, so the block size still changes nothing (it
  /// did when the shifts were updated once per block).
  @Test(arguments: [48_000.0, 16_000], [HarmonizerEngine.VoiceShifter.psola, .delayLine])
  func pitchFollowingVoicesDoNotDependOnTheBlockSize(rate: Double, shifter: HarmonizerEngine.VoiceShifter) throws {
    var settings = HarmonizerSettings.diatonic([3, 5], in: .cMajor)
    settings.voices.append(.init(.chordTone(1)))
    settings.chord = try Chord(harte: "A:min")
    settings.liveLevel = 0.8
    settings.autoTune = .init(isEnabled: true, key: .cMajor, retuneSeconds: 0.03)
    var phase = 0.0
    let input = (0..<Int(0.5 * rate)).map { i -> Float in
      let t = Double(i) / rate
      // From G3 up a whole tone over the half second, under a 6 Hz vibrato of ±40 cents.
      let f0 = 196 * pow(2, (2 * t / 0.5 + 0.4 * sin(2 * Double.pi * 6 * t)) / 12)
      phase += 2 * Double.pi * f0 / rate
      return Float((1...6).reduce(0.0) { $0 + 0.2 * pow(0.7, Double($1 - 1)) * sin(Double($1) * phase) })
    }
    let outputs = try Self.outputsByBlockSize(input, rate: rate, settings: settings, shifter: shifter)
    #expect(outputs[0].contains { abs($0) > 0.05 })
    for other in outputs.dropFirst() { #expect(Self.largestDifference(other, outputs[0]) == 0) }
  }
}
