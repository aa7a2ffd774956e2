import Foundation
import Testing
import _TestSupport

@testable import Synthesis

@Suite struct SimpleGuitarVoiceTests {
  @Test func theEnvelopeIsTheSeedsFormulaNonNegativeAndFinite() {
    #expect(abs(SimpleGuitarVoice.envelope(0) - 0.7) < 1e-12)
    let x = 1.3
    let formula = 0.7 - x / (10 * Double.pi) + 0.5 * (1 - x / (6 * Double.pi)) * sin(x) * exp(-x)
    #expect(abs(SimpleGuitarVoice.envelope(x) - formula) < 1e-12)
    for i in 0...10_000 {
      let value = SimpleGuitarVoice.envelope(Double(i) * 7 * Double.pi / 10_000)
      #expect(value >= 0 && value.isFinite)
    }
    #expect(SimpleGuitarVoice.envelope(7 * Double.pi) < 1e-6)
    #expect(SimpleGuitarVoice.envelope(.nan) == SimpleGuitarVoice.envelope(0))
    #expect(SimpleGuitarVoice.envelope(1e300) == SimpleGuitarVoice.envelope(7 * Double.pi))
  }

  @Test func aNoteRingsForRingSecondsInTune() {
    let rate = 44_100.0
    var voice = SimpleGuitarVoice(sampleRate: rate, ringSeconds: 0.5)
    voice.start(pitch: PitchMath.pitch(frequencyHz: 329.63), velocity: 127)
    var samples = [Float](repeating: 0, count: Int(0.6 * rate))
    samples.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    #expect(!voice.isActive)
    #expect(samples[Int(0.51 * rate)...].allSatisfy { $0 == 0 })
    let early = Signal.rms(samples[0..<2205])
    let late = Signal.rms(samples[Int(0.4 * rate)..<Int(0.45 * rate)])
    #expect(late < early / 3)
    let measured = FrequencyMeasurement.frequencyHz(samples, sampleRate: rate, nearHz: 329.63, start: 0, length: 8192)
    #expect(abs(FrequencyMeasurement.cents(measured, from: 329.63)) < 2)
  }

  @Test func releaseFadesQuickly() {
    var voice = SimpleGuitarVoice(sampleRate: 8000)
    voice.start(pitch: 60, velocity: 100)
    var block = [Float](repeating: 0, count: 80)
    block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    voice.release()
    var frames = 0
    while voice.isActive && frames < 8000 {
      block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
      frames += 80
    }
    #expect(frames <= 800)
  }

  @Test func aRestartWhileSoundingDoesNotStep() {
    var voice = SimpleGuitarVoice(sampleRate: 44_100)
    voice.start(pitch: 60, velocity: 127)
    var block = [Float](repeating: 0, count: 1003)  // ends away from a zero crossing
    block.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    let last = block.last!
    #expect(abs(last) > 0.05)
    voice.start(pitch: 72, velocity: 127)
    var next = [Float](repeating: 0, count: 1)
    next.withUnsafeMutableBufferPointer { voice.render(adding: $0) }
    #expect(abs(next[0] - last) < 0.05)
  }
}
