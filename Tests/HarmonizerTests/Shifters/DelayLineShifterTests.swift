import Foundation
import PitchDSP
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct DelayLineShifterTests {
  static let rate = 44_100.0

  @Test(arguments: [-12.0, -7, -3, 1, 4, 7, 12])
  func shiftsAHarmonicToneByTheInterval(semitones: Double) throws {
    let input = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.7)
    let shifter = try DelayLineShifter(sampleRate: Self.rate, semitones: semitones)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.1, to: 0.65)
    let error = ShiftMeasurement.cents(pitch, from: 220 * exp2(semitones / 12))
    #expect(abs(error) < 2, "\(semitones) st: \(pitch) Hz, \(error) cents")
  }

  @Test(arguments: [-5.0, 5])
  func shiftsAVowel(semitones: Double) throws {
    let input = ShiftMeasurement.vowel(150, sampleRate: Self.rate, seconds: 0.7)
    let shifter = try DelayLineShifter(sampleRate: Self.rate, semitones: semitones)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.1, to: 0.65)
    let error = ShiftMeasurement.cents(pitch, from: 150 * exp2(semitones / 12))
    #expect(abs(error) < 2, "\(semitones) st: \(pitch) Hz, \(error) cents")
  }

  @Test func anImpulseComesOutAfterTheDocumentedLatency() throws {
    for rate in [44_100.0, 48_000] {
      let shifter = try DelayLineShifter(sampleRate: rate)
      #expect(shifter.latencySamples <= 1024)
      var input = [Float](repeating: 0, count: 4096)
      input[100] = 1
      let output = ShiftMeasurement.shifted(input, by: shifter, block: 64)
      let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }
      #expect(peak == 100 + shifter.latencySamples)
      #expect(abs(output[100 + shifter.latencySamples] - 1) < 1e-6)
    }
  }

  @Test func aShiftedToneStartsAboutOneLatencyLater() throws {
    // With a shift the lag sweeps around the latency by up to half a window.
    let shifter = try DelayLineShifter(sampleRate: Self.rate, semitones: 5)
    let tone = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.3)
    let input = [Float](repeating: 0, count: 2000) + tone
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let onset = try #require(output.firstIndex { abs($0) > 0.05 })
    #expect(abs(onset - (2000 + shifter.latencySamples)) <= shifter.windowSamples / 2 + 10, "\(onset)")
  }

  @Test func theOutputDoesNotDependOnTheBlockSize() throws {
    let input = ShiftMeasurement.vowel(180, sampleRate: Self.rate, seconds: 0.3)
    var outputs: [[Float]] = []
    for block in [1, 37, 512] {
      outputs.append(ShiftMeasurement.shifted(input, by: try DelayLineShifter(sampleRate: Self.rate, semitones: 5), block: block))
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0] == outputs[2])
  }

  @Test func changingTheShiftMidStreamDoesNotClick() throws {
    // A 0.5-amplitude 220 Hz sine; the shift jumps 0 → +7 → −5 → +12 while it plays. The largest
    // sample-to-sample step stays near that of the sine at the highest pitch reached.
    let input = SignalGenerator(sampleRate: Self.rate).sine(frequencyHz: 220, amplitude: 0.5, length: .seconds(0.8))
    let shifter = try DelayLineShifter(sampleRate: Self.rate)
    var output = [Float](repeating: 0, count: input.count)
    let changes = [(8820, 7.0), (17640, -5), (26460, 12)]
    var start = 0
    for end in changes.map(\.0) + [input.count] {
      input[start..<end].withUnsafeBufferPointer { i in
        output[start..<end].withUnsafeMutableBufferPointer { shifter.process(i, into: $0) }
      }
      if let change = changes.first(where: { $0.0 == end }) { shifter.semitones = change.1 }
      start = end
    }
    let bound = Float(0.5 * 2 * Double.pi * 440 / Self.rate) * 1.3
    #expect(ShiftMeasurement.largestStep(output[...]) < bound, "\(ShiftMeasurement.largestStep(output[...])) vs \(bound)")
    #expect(shifter.semitones == 12)
  }

  @Test func silenceInIsSilenceOut() throws {
    let output = ShiftMeasurement.shifted(
      [Float](repeating: 0, count: 20000), by: try DelayLineShifter(sampleRate: Self.rate, semitones: 7))
    #expect(output.allSatisfy { $0 == 0 })
  }

  @Test func nonFiniteInputDoesNotPoisonTheState() throws {
    var input = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.8)
    for i in 4000..<4100 { input[i] = i.isMultiple(of: 2) ? .nan : .infinity }
    input[5000] = -.infinity
    let shifter = try DelayLineShifter(sampleRate: Self.rate, semitones: 3)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    #expect(output.allSatisfy { $0.isFinite })
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.3, to: 0.75)
    #expect(abs(ShiftMeasurement.cents(pitch, from: 220 * exp2(3 / 12))) < 2)
  }

  @Test func resetForgetsTheSignal() throws {
    let shifter = try DelayLineShifter(sampleRate: Self.rate, semitones: -4)
    _ = ShiftMeasurement.shifted(ShiftMeasurement.harmonicTone(300, sampleRate: Self.rate, seconds: 0.1), by: shifter)
    shifter.reset()
    let output = ShiftMeasurement.shifted([Float](repeating: 0, count: 3000), by: shifter)
    #expect(output.allSatisfy { $0 == 0 })
    #expect(shifter.semitones == -4)
  }

  @Test func rejectsAWindowOutOfRange() {
    #expect(throws: HarmonizerError.self) {
      try DelayLineShifter(sampleRate: Self.rate, configuration: .init(windowSeconds: 0.04, crossfadeSeconds: 0.03))
    }
    #expect(throws: HarmonizerError.self) { try DelayLineShifter(sampleRate: Self.rate, configuration: .init(windowSeconds: 2)) }
  }
}
