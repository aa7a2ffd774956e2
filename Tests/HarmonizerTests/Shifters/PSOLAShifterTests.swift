import Foundation
import PitchDSP
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct PSOLAShifterTests {
  static let rate = 44_100.0

  @Test(arguments: [-12.0, -7, -3, 1, 4, 7, 12])
  func shiftsAHarmonicToneByTheInterval(semitones: Double) throws {
    let input = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.7)
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: semitones)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.15, to: 0.65)
    let error = ShiftMeasurement.cents(pitch, from: 220 * exp2(semitones / 12))
    #expect(abs(error) < 2, "\(semitones) st: \(pitch) Hz, \(error) cents")
  }

  @Test(arguments: [-5.0, 5])
  func shiftsAVowel(semitones: Double) throws {
    let input = ShiftMeasurement.vowel(150, sampleRate: Self.rate, seconds: 0.7)
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: semitones)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.15, to: 0.65)
    let error = ShiftMeasurement.cents(pitch, from: 150 * exp2(semitones / 12))
    #expect(abs(error) < 2, "\(semitones) st: \(pitch) Hz, \(error) cents")
  }

  @Test(arguments: [-5.0, 5])
  func keepsTheFormants(semitones: Double) throws {
    // The vowel's first formant is at 700 Hz; PSOLA leaves it there (within 8 %), while the
    // delay-line shifter moves it with the pitch (by 2^(±5/12): 33 % up, 25 % down).
    let input = ShiftMeasurement.vowel(150, sampleRate: Self.rate, seconds: 0.7)
    let f0 = 150 * exp2(semitones / 12)
    let steady = { (samples: [Float]) in Array(samples[Int(0.2 * Self.rate)..<Int(0.65 * Self.rate)]) }
    let original = ShiftMeasurement.firstFormant(steady(input), f0: 150, sampleRate: Self.rate)
    let psola = ShiftMeasurement.shifted(input, by: try PSOLAShifter(sampleRate: Self.rate, semitones: semitones))
    let kept = ShiftMeasurement.firstFormant(steady(psola), f0: f0, sampleRate: Self.rate)
    let delay = ShiftMeasurement.shifted(input, by: try DelayLineShifter(sampleRate: Self.rate, semitones: semitones))
    let moved = ShiftMeasurement.firstFormant(steady(delay), f0: f0, sampleRate: Self.rate)
    #expect(abs(original / 700 - 1) < 0.05, "\(original)")
    #expect(abs(kept / original - 1) < 0.08, "PSOLA: \(kept) Hz vs \(original) Hz")
    #expect(abs(moved / original - exp2(semitones / 12)) < 0.08, "delay line: \(moved) Hz")
  }

  @Test func unvoicedInputComesOutUnchangedAfterTheLatency() throws {
    // An impulse and noise are not periodic: the shifter passes them through, delayed.
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: 7)
    var random = SeededRandom(seed: 8)
    var input = (0..<12000).map { _ in 0.2 * (random.nextUniform() - 0.5) }
    input += [Float](repeating: 0, count: 4000)
    input[13000] = 1
    let output = ShiftMeasurement.shifted(input, by: shifter, block: 100)
    let latency = shifter.latencySamples
    #expect(output[13000 + latency] == 1)
    #expect(zip(output[(latency + 4000)..<12000], input[4000..<(12000 - latency)]).allSatisfy { $0 == $1 })
  }

  @Test func aShiftedToneComesOutAboutOneLatencyLater() throws {
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: -3)
    let input = [Float](repeating: 0, count: 3000) + ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.4)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    let onset = try #require(output.firstIndex { abs($0) > 0.05 })
    #expect(abs(onset - (3000 + shifter.latencySamples)) <= 60, "\(onset) vs \(3000 + shifter.latencySamples)")
    #expect(shifter.latencySamples == 2479)
    let at48k = try PSOLAShifter(sampleRate: 48000).latencySamples
    #expect(at48k == 2709, "\(at48k)")
  }

  @Test(arguments: [44_100.0, 48_000, 32_000, 22_050, 16_000])
  func theOutputDoesNotDependOnTheBlockSize(rate: Double) throws {
    let input = ShiftMeasurement.vowel(180, sampleRate: rate, seconds: 0.3)
    var outputs: [[Float]] = []
    for block in [1, 37, 512] {
      outputs.append(ShiftMeasurement.shifted(input, by: try PSOLAShifter(sampleRate: rate, semitones: 5), block: block))
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0] == outputs[2])
  }

  @Test func changingTheShiftMidStreamDoesNotClick() throws {
    let input = SignalGenerator(sampleRate: Self.rate).sine(frequencyHz: 220, amplitude: 0.5, length: .seconds(0.8))
    let shifter = try PSOLAShifter(sampleRate: Self.rate)
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
    let bound = Float(0.5 * 2 * Double.pi * 440 / Self.rate) * 1.5
    #expect(ShiftMeasurement.largestStep(output[...]) < bound, "\(ShiftMeasurement.largestStep(output[...])) vs \(bound)")
  }

  @Test func silenceInIsSilenceOut() throws {
    let output = ShiftMeasurement.shifted(
      [Float](repeating: 0, count: 20000), by: try PSOLAShifter(sampleRate: Self.rate, semitones: 7))
    #expect(output.allSatisfy { $0 == 0 })
  }

  @Test func nonFiniteInputDoesNotPoisonTheState() throws {
    var input = ShiftMeasurement.harmonicTone(220, sampleRate: Self.rate, seconds: 0.9)
    for i in 4000..<4100 { input[i] = i.isMultiple(of: 2) ? .nan : .infinity }
    input[5000] = -.infinity
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: 3)
    let output = ShiftMeasurement.shifted(input, by: shifter)
    #expect(output.allSatisfy { $0.isFinite })
    let pitch = try ShiftMeasurement.medianPitch(output, sampleRate: Self.rate, from: 0.4, to: 0.85)
    #expect(abs(ShiftMeasurement.cents(pitch, from: 220 * exp2(3 / 12))) < 2)
  }

  @Test func resetForgetsTheSignal() throws {
    let shifter = try PSOLAShifter(sampleRate: Self.rate, semitones: -4)
    _ = ShiftMeasurement.shifted(ShiftMeasurement.harmonicTone(300, sampleRate: Self.rate, seconds: 0.1), by: shifter)
    shifter.reset()
    let output = ShiftMeasurement.shifted([Float](repeating: 0, count: 6000), by: shifter)
    #expect(output.allSatisfy { $0 == 0 })
    #expect(shifter.semitones == -4)
  }
}
