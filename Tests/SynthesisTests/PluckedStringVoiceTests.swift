import Foundation
import PitchDSP
import Testing
import _TestSupport

@testable import Synthesis

@Suite struct PluckedStringVoiceTests {
  /// Renders one plucked note for `seconds` in 256-frame blocks.
  static func pluck(
    frequencyHz: Double, sampleRate: Double, seconds: Double, voice: PluckedStringVoice? = nil
  ) -> [Float] {
    var voice = voice ?? PluckedStringVoice(sampleRate: sampleRate)
    voice.start(pitch: PitchMath.pitch(frequencyHz: frequencyHz), velocity: 100)
    var samples = [Float](repeating: 0, count: Int(seconds * sampleRate))
    samples.withUnsafeMutableBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = min(256, buffer.count - offset)
        voice.render(adding: UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + n)]))
        offset += n
      }
    }
    return samples
  }

  static let positions: [(string: Int, fret: Int)] = (1...6).flatMap { s in [0, 5, 12, 17].map { (s, $0) } }

  @Test(arguments: [44_100.0, 48_000.0])
  func everyStringAndFretIsWithinTwoCents(sampleRate: Double) {
    var worst = 0.0
    for (string, fret) in Self.positions {
      let target = GuitarTuning.standard.frequencyHz(string: string, fret: fret)!
      let samples = Self.pluck(frequencyHz: target, sampleRate: sampleRate, seconds: 0.5)
      let measured = FrequencyMeasurement.frequencyHz(
        samples, sampleRate: sampleRate, nearHz: target, start: Int(0.1 * sampleRate))
      let error = FrequencyMeasurement.cents(measured, from: target)
      worst = max(worst, abs(error))
      #expect(abs(error) < 2, "string \(string) fret \(fret) at \(sampleRate) Hz: \(error) cents")
    }
    print(
      "plucked string pitch, \(Int(sampleRate)) Hz: worst error \(worst) cents over \(Self.positions.count) notes"
    )
  }

  @Test(arguments: [44_100.0, 48_000.0])
  func extremesE2AndE6AreWithinTwoCentsEvenWhenStiff(sampleRate: Double) {
    for pitch in [40.0, 52, 64, 76, 88] {
      for stiffness in [0.0, 1.0] {
        let target = PitchMath.frequencyHz(pitch: pitch)
        let voice = PluckedStringVoice(sampleRate: sampleRate, stiffness: stiffness, brightness: 0.9)
        let samples = Self.pluck(frequencyHz: target, sampleRate: sampleRate, seconds: 0.5, voice: voice)
        let measured = FrequencyMeasurement.frequencyHz(
          samples, sampleRate: sampleRate, nearHz: target, start: Int(0.1 * sampleRate))
        let error = FrequencyMeasurement.cents(measured, from: target)
        #expect(abs(error) < 2, "MIDI \(pitch), stiffness \(stiffness): \(error) cents")
      }
    }
  }

  @Test func yinAgreesOnTheOpenStrings() throws {
    let rate = 44_100.0
    let yin = try YINEstimator(configuration: PitchConfiguration(sampleRate: rate, minimumFrequencyHz: 60))
    for string in 1...6 {
      let target = GuitarTuning.standard.frequencyHz(string: string, fret: 0)!
      let samples = Self.pluck(frequencyHz: target, sampleRate: rate, seconds: 0.35)
      let voiced = yin.estimates(for: samples).filter { $0.isVoiced && $0.time > 0.1 && $0.time < 0.3 }
      let cents = voiced.map { FrequencyMeasurement.cents($0.frequencyHz, from: target) }.sorted()
      #expect(!cents.isEmpty)
      let median = cents.isEmpty ? .nan : cents[cents.count / 2]
      #expect(abs(median) < 5, "string \(string): YIN median \(median) cents")
    }
  }

  @Test func stiffnessMakesUpperPartialsSharp() {
    // With dispersion the 8th partial lies above 8·f0; without it, on it.
    let rate = 44_100.0
    let f0 = 110.0
    func eighthPartialCents(stiffness: Double) -> Double {
      let voice = PluckedStringVoice(
        sampleRate: rate, pickPosition: 0.31, stiffness: stiffness, brightness: 1)
      let samples = Self.pluck(frequencyHz: f0, sampleRate: rate, seconds: 0.6, voice: voice)
      let measured = FrequencyMeasurement.frequencyHz(
        samples, sampleRate: rate, nearHz: 8 * f0, start: 4410, length: 8192)
      return FrequencyMeasurement.cents(measured, from: 8 * f0)
    }
    #expect(abs(eighthPartialCents(stiffness: 0)) < 1)
    let stiff = eighthPartialCents(stiffness: 1)
    print("8th partial of a 110 Hz string at stiffness 1: +\(stiff) cents")
    #expect(stiff > 3)
  }

  @Test func releaseSilencesTheStringAndItFallsInactive() {
    let rate = 44_100.0
    var voice = PluckedStringVoice(sampleRate: rate)
    voice.start(pitch: 52, velocity: 100)
    var block = [Float](repeating: 0, count: 441)
    block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    #expect(voice.isActive)
    voice.release()
    #expect(voice.isReleased)
    var frames = 0
    while voice.isActive && frames < Int(rate) {
      for i in block.indices { block[i] = 0 }
      block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
      frames += block.count
    }
    #expect(!voice.isActive)
    #expect(frames < Int(0.3 * rate), "still sounding \(frames) frames after the release")
  }

  @Test func sameSeedSameSoundDifferentSeedDifferentSound() {
    let a = Self.pluck(frequencyHz: 196, sampleRate: 44_100, seconds: 0.05)
    let b = Self.pluck(frequencyHz: 196, sampleRate: 44_100, seconds: 0.05)
    let c = Self.pluck(
      frequencyHz: 196, sampleRate: 44_100, seconds: 0.05,
      voice: PluckedStringVoice(sampleRate: 44_100, seed: 7))
    #expect(a == b)
    #expect(a != c)
  }

  @Test func oddParametersAreClampedNotFatal() {
    let voice = PluckedStringVoice(
      sampleRate: .nan, pickPosition: .infinity, damping: -3, stiffness: .nan, brightness: 9, gain: .nan)
    #expect(voice.sampleRate == 44_100)
    #expect(voice.pickPosition == 0.5)
    #expect(voice.damping == 0)
    #expect(voice.stiffness == 0.15)
    #expect(voice.brightness == 1)
    for pitch in [Double.nan, -50, 0, 200, .infinity] {
      var v = voice
      v.start(pitch: pitch, velocity: 1000)
      var block = [Float](repeating: 0, count: 1024)
      block.withUnsafeMutableBufferPointer { v.render(adding: $0) }
      #expect(block.allSatisfy { $0.isFinite && abs($0) <= 1 }, "pitch \(pitch)")
    }
  }

  /// A copy of a sounding voice plays on by itself: the two never write each other's delay line.
  @Test func aCopiedVoiceRingsOnIndependently() {
    var voice = PluckedStringVoice(sampleRate: 44_100)
    voice.start(pitch: 52, velocity: 100)
    var warmup = [Float](repeating: 0, count: 300)
    warmup.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    var copy = voice
    var a = [Float](repeating: 0, count: 2000)
    var b = [Float](repeating: 0, count: 2000)
    // Interleaved renders: shared memory would make the second read what the first wrote.
    for block in 0..<20 {
      a.withUnsafeMutableBufferPointer {
        voice.render(adding: UnsafeMutableBufferPointer(rebasing: $0[block * 100..<(block + 1) * 100]))
      }
      b.withUnsafeMutableBufferPointer {
        copy.render(adding: UnsafeMutableBufferPointer(rebasing: $0[block * 100..<(block + 1) * 100]))
      }
    }
    #expect(a == b)
    #expect(a.contains { abs($0) > 0.01 })
  }
}
