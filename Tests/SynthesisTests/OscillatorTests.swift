import Foundation
import Testing
import _TestSupport

@testable import Synthesis

@Suite struct OscillatorTests {
  static func render(_ oscillator: inout Oscillator, blockSizes: [Int], total: Int) -> [Float] {
    var samples = [Float](repeating: 0, count: total)
    samples.withUnsafeMutableBufferPointer { buffer in
      var offset = 0
      var k = 0
      while offset < total {
        let n = min(blockSizes[k % blockSizes.count], total - offset)
        oscillator.render(into: UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + n)]))
        offset += n
        k += 1
      }
    }
    return samples
  }

  @Test(arguments: Waveform.allCases)
  func blocksOfRandomSizesEqualOneBlock(waveform: Waveform) {
    var random = SeededRandom(seed: 9)
    let sizes = (0..<64).map { _ in 1 + Int(random.next() % 8192) }
    var a = Oscillator(waveform: waveform, frequencyHz: 329.6, sampleRate: 44_100)
    var b = a
    let total = 20_000
    let blocks = Self.render(&a, blockSizes: sizes, total: total)
    let whole = Self.render(&b, blockSizes: [total], total: total)
    #expect(blocks == whole)
    #expect(a.phase == b.phase)
  }

  @Test func theSineIsTheSeedsSineWithoutItsRounding() {
    // The seed: u = sin(a); a += 2π·f0/fs, wrapped. Ours matches to the table's precision.
    var oscillator = Oscillator(waveform: .sine, frequencyHz: 329.6, sampleRate: 44_100)
    let samples = Self.render(&oscillator, blockSizes: [512], total: 44_100)
    var worst = 0.0
    for (n, x) in samples.enumerated() {
      worst = max(worst, abs(Double(x) - sin(2 * Double.pi * 329.6 * Double(n) / 44_100)))
    }
    #expect(worst < 1e-5)
  }

  @Test func aFrequencyChangeGlidesWithoutAStep() {
    var oscillator = Oscillator(waveform: .sine, frequencyHz: 200, sampleRate: 48_000)
    var samples = Self.render(&oscillator, blockSizes: [256], total: 4800)
    oscillator.setFrequency(2000)
    samples += Self.render(&oscillator, blockSizes: [256], total: 4800)
    // The largest step between neighbours stays what a 2 kHz sine allows: 2π·2000/48000.
    var largest: Float = 0
    for i in 1..<samples.count { largest = max(largest, abs(samples[i] - samples[i - 1])) }
    #expect(largest <= Float(2 * Double.pi * 2000 / 48_000) * 1.01)
    #expect(oscillator.frequencyHz == 2000)
    let measured = Signal.estimatedFrequency(Array(samples.suffix(4096)), sampleRate: 48_000, nearHz: 2000, searchHz: 50)
    #expect(abs(measured - 2000) < 0.5)
  }

  @Test(arguments: [Waveform.sawtooth, .square, .triangle])
  func shapesHaveTheirFourierAmplitudes(waveform: Waveform) {
    var oscillator = Oscillator(waveform: waveform, frequencyHz: 220, sampleRate: 44_100)
    let samples = Self.render(&oscillator, blockSizes: [1024], total: 8820)
    for k in 1...5 {
      let measured = Signal.goertzelAmplitude(samples, frequencyHz: 220 * Double(k), sampleRate: 44_100)
      #expect(abs(measured - abs(waveform.harmonicAmplitude(k))) < 0.002, "\(waveform) harmonic \(k)")
    }
  }

  @Test func oddValuesAreClamped() {
    var oscillator = Oscillator(waveform: .square, frequencyHz: .nan, sampleRate: -1, phase: .infinity)
    #expect(oscillator.sampleRate == 44_100)
    #expect(oscillator.frequencyHz == 0)
    #expect(oscillator.phase == 0)
    oscillator.setFrequency(1e9)
    #expect(oscillator.frequencyHz == 22_050)
    let samples = Self.render(&oscillator, blockSizes: [100], total: 1000)
    #expect(samples.allSatisfy { $0.isFinite && abs($0) < 1.2 })
    oscillator.phase = -0.25
    #expect(oscillator.phase == 0.75)
  }
}
