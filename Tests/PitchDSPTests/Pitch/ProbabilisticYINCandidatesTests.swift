import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// pYIN's first stage: which troughs of `d′` earn the probability.
@Suite struct ProbabilisticYINCandidatesTests {
  static let rate = 44100.0
  static let generator = SignalGenerator(sampleRate: rate)

  /// A harmonic tone whose energy sits in a narrow band of partials around `formantPartial`
  /// (a Gaussian of `width` partials), peak-normalized to 0.3.
  static func formantTone(fundamentalHz: Double, formantPartial: Double, width: Double, seconds: Double) -> [Float] {
    let amplitudes = (1...40).map { k in exp(-0.5 * pow((Double(k) - formantPartial) / width, 2)) }
    let tone = generator.harmonicTone(fundamentalHz: fundamentalHz, partialAmplitudes: amplitudes, length: .seconds(seconds))
    let peak = tone.map { abs($0) }.max() ?? 1
    return tone.map { 0.3 * $0 / peak }
  }

  /// With the energy around partial `K`, the partials near `K` line up again at `(1 − 1/K)` of
  /// the period: `d′` has a shallow ripple trough just before its deep dip at the period. The
  /// ripple comes first in lag order, so without the side-trough rule the Boltzmann prior gave it
  /// most of the probability and pYIN read the tone one to one and a half semitones sharp (a
  /// piano's low notes, a contrabass, in the project's evaluation).
  @Test(arguments: [PitchMethod.pyin, .pyinLive], [12.0, 16])
  func aRippleTroughBeforeTheDeepDipIsNotThePeriod(method: PitchMethod, formantPartial: Double) throws {
    let frequency = 196.0
    let tone = Self.formantTone(fundamentalHz: frequency, formantPartial: formantPartial, width: 1.5, seconds: 0.8)
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    let estimator: any PitchEstimator =
      method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: tone.count)
      : try ProbabilisticYINEstimator(configuration: configuration)
    let result = accuracy(estimator.estimates(for: tone), truth: { _ in frequency }, from: 0.15, to: 0.65)
    #expect(result.rawPitch >= 0.99, "\(method), formant at partial \(formantPartial): \(result)")
    #expect(result.medianCents < 5, "\(method), formant at partial \(formantPartial): \(result)")
  }

  /// pYIN's accuracy on a harmonic tone in Gaussian noise at `snr` dB, over all but its first
  /// and last 0.2–0.3 s.
  static func accuracyInNoise(
    method: PitchMethod, frequency: Double, partials: [Double], seconds: Double, snr: Double, seed: UInt64
  ) throws -> (medianCents: Double, rawPitch: Double) {
    let length = SignalLength.seconds(seconds)
    let tone = generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: partials, length: length)
    let noise = generator.gaussianNoise(length: length, seed: seed)
    let noisy = Signal.mixed(tone.map { 0.2 * $0 }, noise: noise, snrDB: snr)
    let configuration = PitchConfiguration(sampleRate: rate)
    let estimator: any PitchEstimator =
      method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: noisy.count)
      : try ProbabilisticYINEstimator(configuration: configuration)
    let margin = min(0.3, seconds / 5)
    return accuracy(estimator.estimates(for: noisy), truth: { _ in frequency }, from: margin, to: seconds - margin)
  }

  /// A low note in white noise (5 dB SNR): the noise makes `d′` ragged, with far more local
  /// minima at short lags than there is room for candidates. When the troughs were taken in lag
  /// order until the room was full, the dip at a 60–80 Hz period was never reached and pYIN
  /// called the note unvoiced (0 % of frames; a bass guitar's and a tuba's notes in the project's
  /// evaluation at 10 dB); the deepest troughs are kept now.
  @Test(arguments: [PitchMethod.pyin, .pyinLive], [60.0, 80])
  func aLowNoteInNoiseIsFoundPastTheRipples(method: PitchMethod, frequency: Double) throws {
    let result = try Self.accuracyInNoise(
      method: method, frequency: frequency, partials: (1...10).map { 1 / Double($0) }, seconds: 2, snr: 5, seed: 7)
    #expect(result.rawPitch >= 0.95, "\(method), \(frequency) Hz: \(result)")
  }

  /// A note near the top of the range in light noise: its period is about 11 lags, so its dip
  /// and its multiples fill the candidates' room, all deep. Only ripples give way to a later
  /// dip; when the deepest troughs were kept whatever their depth, a multiple sampled nearer a
  /// whole lag pushed the period out and a flute's 1.98 kHz note was read a twelfth low.
  @Test(arguments: [PitchMethod.pyin, .pyinLive], [1900.0, 1975])
  func aHighNotesPeriodIsNotCrowdedOutByItsMultiples(method: PitchMethod, frequency: Double) throws {
    let result = try Self.accuracyInNoise(
      method: method, frequency: frequency, partials: [1, 0.5, 0.33, 0.25], seconds: 1, snr: 25, seed: 11)
    #expect(result.rawPitch >= 0.95, "\(method), \(frequency) Hz: \(result)")
  }

  /// A steady tone whose first 50 ms carry a sub-harmonic (odd partials of half its frequency,
  /// faded out over the next 30 ms), as in the first cycles of a looped sample. In the attack,
  /// the dip at twice the period is far deeper, so the period hands over to it; when that took
  /// the period's trough out altogether, the decoder had no path at the true pitch through the
  /// attack and (pitch moves being bounded) read the whole note an octave low.
  @Test(arguments: [PitchMethod.pyin, .pyinLive], [130.8, 196, 262, 330])
  func aSubharmonicInTheAttackDoesNotLockTheNoteAnOctaveLow(method: PitchMethod, frequency: Double) throws {
    let length = SignalLength.seconds(0.6)
    let steady = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.5, 0.3, 0.2], length: length)
    let subharmonic = Self.generator.harmonicTone(
      fundamentalHz: frequency / 2, partialAmplitudes: [0.25, 0, 0.15, 0, 0.1], length: length)
    var tone = [Float](repeating: 0, count: steady.count)
    for i in tone.indices {
      let t = Double(i) / Self.rate
      let envelope = Float(max(0, min(1, (0.08 - t) / 0.03)))
      tone[i] = steady[i] + envelope * subharmonic[i]
    }
    let peak = tone.map { abs($0) }.max() ?? 1
    tone = tone.map { 0.3 * $0 / peak }
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    let estimator: any PitchEstimator =
      method == .pyin
      ? try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: tone.count)
      : try ProbabilisticYINEstimator(configuration: configuration)
    let result = accuracy(estimator.estimates(for: tone), truth: { _ in frequency }, from: 0.15, to: 0.5)
    #expect(result.rawPitch >= 0.99, "\(method) at \(frequency) Hz: \(result)")
  }
}
