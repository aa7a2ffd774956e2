import Foundation
import PitchDSP
import Testing
import _TestSupport

@Suite struct SignalTests {
  @Test func seededRandomIsDeterministicSplitMix64() {
    var a = SeededRandom(seed: 0)
    var b = SeededRandom(seed: 0)
    // The reference SplitMix64 sequence for seed 0.
    #expect(a.next() == 0xE220_A839_7B1D_CDAF)
    #expect(a.next() == 0x6E78_9E6A_A1B9_65F4)
    _ = b.next()
    _ = b.next()
    #expect(a.next() == b.next())
    var c = SeededRandom(seed: 1)
    #expect(c.next() != SeededRandom(seed: 0).state)
    for _ in 0..<1000 {
      let u = c.nextUniform()
      #expect(u >= -1 && u < 1)
    }
  }

  @Test(arguments: [8_000.0, 44_100, 96_000])
  func sineHasRequestedAmplitudeFrequencyAndLength(sampleRate: Double) {
    let g = SignalGenerator(sampleRate: sampleRate)
    let x = g.sine(frequencyHz: 1000, amplitude: 0.5, length: .seconds(0.1))
    #expect(x.count == Int((0.1 * sampleRate).rounded()))
    #expect(abs(Signal.rms(x) - 0.5 / 2.0.squareRoot()) < 1e-4)
    #expect(abs(Signal.peak(x) - 0.5) < 1e-2)
    #expect(abs(Signal.goertzelAmplitude(x, frequencyHz: 1000, sampleRate: sampleRate) - 0.5) < 1e-4)
    #expect(Signal.goertzelAmplitude(x, frequencyHz: 2000, sampleRate: sampleRate) < 1e-4)
    let estimate = Signal.estimatedFrequency(
      x, sampleRate: sampleRate, nearHz: 1010, searchHz: 30)
    #expect(abs(estimate - 1000) < 0.05)
    let cosine = g.cosine(frequencyHz: 1000, length: .frames(3))
    #expect(cosine[0] == 1)
    #expect(g.sine(frequencyHz: 100, length: .frames(17)).count == 17)
  }

  @Test func harmonicToneHasChosenPartials() {
    let g = SignalGenerator(sampleRate: 16_000)
    let x = g.harmonicTone(
      fundamentalHz: 200, partialAmplitudes: [0, 1, 0.8, 0.5], length: .seconds(0.25))
    let amp = { (f: Double) in Signal.goertzelAmplitude(x, frequencyHz: f, sampleRate: 16_000) }
    #expect(amp(200) < 1e-4)  // missing fundamental
    #expect(abs(amp(400) - 1) < 1e-3)
    #expect(abs(amp(600) - 0.8) < 1e-3)
    #expect(abs(amp(800) - 0.5) < 1e-3)
    let stiff = g.harmonicTone(
      fundamentalHz: 200, partialAmplitudes: [1, 0, 0, 0, 0, 0, 0, 0, 0, 1], inharmonicity: 1e-3,
      length: .seconds(0.25))
    let expected = 10 * 200 * (1 + 1e-3 * 100).squareRoot()
    #expect(abs(Signal.goertzelAmplitude(stiff, frequencyHz: expected, sampleRate: 16_000) - 1) < 1e-3)
    // Partials above Nyquist are left out.
    let high = g.harmonicTone(fundamentalHz: 5000, partialAmplitudes: [1, 1], length: .frames(100))
    #expect(high == g.sine(frequencyHz: 5000, length: .frames(100)))
  }

  @Test func chirpsArePhaseContinuousAndSweep() {
    let g = SignalGenerator(sampleRate: 8_000)
    for chirp in [
      g.linearChirp(fromHz: 100, toHz: 2000, length: .seconds(1)),
      g.exponentialChirp(fromHz: 100, toHz: 2000, length: .seconds(1)),
    ] {
      // The largest step between samples is bounded by 2π · f_max / fs (no phase jumps).
      let maxStep = zip(chirp, chirp.dropFirst()).map { abs($1 - $0) }.max()!
      #expect(maxStep <= Float(2 * Double.pi * 2000 / 8000) + 1e-3)
      let start = Array(chirp.prefix(1600))
      let end = Array(chirp.suffix(1600))
      #expect(Signal.rms(start) > 0.6 && Signal.rms(end) > 0.6)
    }
    // The exponential chirp's frequency at the midpoint is the geometric mean.
    let exponential = g.exponentialChirp(fromHz: 100, toHz: 1600, length: .seconds(2))
    let middle = Array(exponential[7800..<8200])
    let f = Signal.estimatedFrequency(middle, sampleRate: 8_000, nearHz: 400, searchHz: 60)
    #expect(abs(f - 400) < 10)
  }

  @Test func vibratoAndGlideFollowTheirTracks() {
    let g = SignalGenerator(sampleRate: 8_000)
    let glide = g.glide(
      fromHz: 220, toHz: 440, startSeconds: 0.5, glideSeconds: 0.25, length: .seconds(1.25))
    let before = Array(glide[0..<3200])
    let after = Array(glide[6400..<10_000])
    #expect(abs(Signal.estimatedFrequency(before, sampleRate: 8_000, nearHz: 220, searchHz: 10) - 220) < 0.5)
    #expect(abs(Signal.estimatedFrequency(after, sampleRate: 8_000, nearHz: 440, searchHz: 10) - 440) < 0.5)
    let maxStep = zip(glide, glide.dropFirst()).map { abs($1 - $0) }.max()!
    #expect(maxStep <= Float(2 * Double.pi * 440 / 8000) + 1e-3)

    let vibrato = g.vibrato(centerHz: 440, rateHz: 5, depthCents: 50, length: .seconds(1))
    // Around a crest of the vibrato (t = 0.05 s) the pitch is 50 cents sharp.
    let crest = Array(vibrato[300..<500])
    let sharp = 440 * pow(2, 50.0 / 1200)
    let estimate = Signal.estimatedFrequency(crest, sampleRate: 8_000, nearHz: sharp, searchHz: 20)
    #expect(abs(estimate - sharp) < 3)
    #expect(abs(Signal.rms(vibrato) - 1 / 2.0.squareRoot()) < 0.01)
  }

  @Test func noiseIsSeededAndHasTheRightStatistics() {
    let g = SignalGenerator(sampleRate: 48_000)
    let white = g.whiteNoise(amplitude: 0.5, length: .frames(20_000), seed: 1)
    #expect(white == g.whiteNoise(amplitude: 0.5, length: .frames(20_000), seed: 1))
    #expect(white != g.whiteNoise(amplitude: 0.5, length: .frames(20_000), seed: 2))
    #expect(Signal.peak(white) <= 0.5)
    #expect(abs(Signal.rms(white) - 0.5 / 3.0.squareRoot()) < 0.005)

    let gaussian = g.gaussianNoise(standardDeviation: 0.1, length: .frames(20_000), seed: 9)
    let mean = gaussian.reduce(0.0) { $0 + Double($1) } / Double(gaussian.count)
    #expect(abs(mean) < 0.003)
    #expect(abs(Signal.rms(gaussian) - 0.1) < 0.003)
    #expect(Signal.peak(gaussian) > 0.3)  // Gaussian tails, not uniform

    let pink = g.pinkNoise(rms: 0.2, length: .frames(48_000), seed: 4)
    #expect(abs(Signal.rms(pink) - 0.2) < 1e-4)
    // Roughly −3 dB per octave: the band around 500 Hz is stronger than around 8 kHz.
    let low = (480...520).map {
      Signal.goertzelAmplitude(Array(pink.prefix(12_000)), frequencyHz: Double($0) * 1, sampleRate: 48_000)
    }
    let high = (7980...8020).map {
      Signal.goertzelAmplitude(Array(pink.prefix(12_000)), frequencyHz: Double($0) * 1, sampleRate: 48_000)
    }
    let ratioDB = Signal.dBFS(Signal.rms(low.map(Float.init)) / Signal.rms(high.map(Float.init)))
    #expect(ratioDB > 8 && ratioDB < 16)  // 4 octaves × 3 dB = 12 dB
  }

  @Test(arguments: [-10.0, 0, 20, 40])
  func mixingHitsTheTargetSNR(snr: Double) {
    let g = SignalGenerator(sampleRate: 16_000)
    let clean = g.sine(frequencyHz: 440, amplitude: 0.3, length: .seconds(0.5))
    let noise = g.gaussianNoise(length: .seconds(0.6), seed: 12)
    let noisy = Signal.mixed(clean, noise: noise, snrDB: snr)
    #expect(noisy.count == clean.count)
    #expect(abs(Signal.snrDB(noisy, reference: clean) - snr) < 1e-3)
    #expect(Signal.snrDB(clean, reference: clean) == .infinity)
  }

  @Test func clippingInjectionEnvelopeAndConcatenation() {
    let g = SignalGenerator(sampleRate: 1_000)
    let sine = g.sine(frequencyHz: 10, length: .seconds(1))
    let clipped = Signal.hardClipped(sine, level: 0.5)
    #expect(Signal.peak(clipped) == 0.5)
    #expect(clipped.filter { abs($0) == 0.5 }.count > 600)

    let broken = Signal.injecting(.nan, at: [3, 7], into: sine)
    #expect(broken[3].isNaN && broken[7].isNaN && !broken[4].isNaN)
    let burst = Signal.injecting(.infinity, in: 10..<20, into: sine)
    #expect(burst.filter { $0.isInfinite }.count == 10)

    let envelope = ADSREnvelope(
      attackSeconds: 0.1, decaySeconds: 0.1, sustainLevel: 0.5, releaseSeconds: 0.2)
    let gains = envelope.gains(frameCount: 1000, sampleRate: 1_000)
    #expect(gains[0] == 0)
    #expect(abs(gains[50] - 0.5) < 1e-6)
    #expect(abs(gains[100] - 1) < 1e-6)
    #expect(abs(gains[150] - 0.75) < 1e-6)
    #expect(gains[500] == 0.5)
    #expect(abs(gains[899] - 0.25) < 0.01)
    #expect(gains[999] == 0)
    let shaped = Signal.enveloped(
      g.cosine(frequencyHz: 0, length: .frames(1000)), by: envelope, sampleRate: 1_000)
    #expect(shaped == gains)

    let silence = g.silence(length: .frames(5))
    #expect(silence == [0, 0, 0, 0, 0])
    let joined = Signal.concatenated([[1, 2], silence, [3]])
    #expect(joined == [1, 2, 0, 0, 0, 0, 0, 3])
    #expect(Signal.delayed([1, 2], by: 2) == [0, 0, 1, 2])
    #expect(Signal.added([1, 2, 3], [1]) == [2, 2, 3])
    #expect(Signal.scaled([1, -2], by: 0.5) == [0.5, -1])
    #expect(g.impulse(at: 2, length: .frames(4)) == [0, 0, 1, 0])
    #expect(g.buffer(joined).sampleRate == 1_000)
  }

  @Test func levelsInDBFS() {
    #expect(Signal.dBFS(1) == 0)
    #expect(abs(Signal.dBFS(0.5) + 6.0206) < 1e-4)
    let g = SignalGenerator(sampleRate: 48_000)
    let fullScale = g.sine(frequencyHz: 1000, length: .seconds(0.1))
    #expect(abs(Signal.rmsDBFS(fullScale) + 3.0103) < 1e-3)
    #expect(Signal.rms([Float]()) == 0)
  }
}
