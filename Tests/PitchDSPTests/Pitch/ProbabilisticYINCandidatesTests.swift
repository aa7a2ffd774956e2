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
}
