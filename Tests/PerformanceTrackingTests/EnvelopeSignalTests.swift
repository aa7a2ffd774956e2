import Foundation
import Testing
import _TestSupport

@testable import PerformanceTracking

/// The decimated signal the refiner reads its envelopes from.
@Suite struct EnvelopeSignalTests {
  @Test(arguments: [(44_100.0, 11_025.0), (48_000, 12_000), (22_050, 11_025), (96_000, 12_000)])
  func theRateIsHalvedWhileTheBandFits(rate: Double, decimated: Double) throws {
    let samples = [Float](repeating: 0, count: 1_000)
    let signal = try #require(
      EnvelopeSignal(decimating: EnvelopeSignal(samples: samples, sampleRate: rate), keeping: 5_200))
    #expect(signal.sampleRate == decimated)
    #expect(signal.samples.count == Int((Double(samples.count) * decimated / rate).rounded(.up)))
    #expect(signal.bandHz == 5_200)
  }

  @Test func aSignalTooSlowToDecimateIsLeftAlone() {
    let samples = [Float](repeating: 0, count: 1_000)
    #expect(EnvelopeSignal(decimating: EnvelopeSignal(samples: samples, sampleRate: 16_000), keeping: 5_200) == nil)
  }

  @Test func aNonFiniteSampleStaysNonFinite() throws {
    // (So the envelopes through it are NaN and no decision is taken on it.)
    var samples = SignalGenerator(sampleRate: 44_100).sine(frequencyHz: 440, amplitude: 0.5, length: .frames(4_000))
    samples[2_001] = .nan
    samples[3_999] = -.infinity
    let signal = try #require(
      EnvelopeSignal(decimating: EnvelopeSignal(samples: samples, sampleRate: 44_100), keeping: 5_200))
    #expect(signal.samples[500].isNaN)
    #expect(signal.samples[999] == -.infinity)
    #expect(signal.samples.enumerated().filter { !$0.element.isFinite }.map(\.offset) == [500, 999])
  }

  @Test func theRefinersEnvelopesAreTheSameOnBothSignals() {
    // A 440 Hz note with 12 harmonics (to 5.28 kHz, the top one just over the band) under noise:
    // its envelope on the decimated signal is the full-rate one within 0.1 dB.
    let g = SignalGenerator(sampleRate: 44_100)
    let tone = g.harmonicTone(
      fundamentalHz: 440, partialAmplitudes: (1...12).map { pow(0.8, Double($0 - 1)) }, length: .seconds(1))
    let noise = g.whiteNoise(amplitude: 0.01, length: .seconds(1), seed: 7)
    let samples = zip(tone, noise).map { n in n.0 * Float(0.5) + n.1 }
    let refiner = SoundBoundaryRefiner(samples: samples, sampleRate: 44_100)
    #expect(refiner.band.sampleRate == 11_025)
    let harmonics = refiner.harmonics(of: 440, clearOf: nil, window: 0.012)
    #expect(harmonics.count == 11)
    let (band, bandTime) = refiner.amplitudes(harmonics, from: 0.2, to: 0.8, window: 0.012)
    let full = EnvelopeSignal(samples: samples, sampleRate: 44_100)
    let (reference, referenceTime) = refiner.amplitudes(harmonics, from: 0.2, to: 0.8, window: 0.012, in: full)
    #expect(band.count == reference.count)
    for k in stride(from: 0, to: min(band.count, reference.count), by: 50) {
      #expect(abs(bandTime(Double(k)) - referenceTime(Double(k))) < 5e-5)
      #expect(abs(20 * log10(band[k] / reference[k])) < 0.1, "step \(k)")
    }
  }
}
