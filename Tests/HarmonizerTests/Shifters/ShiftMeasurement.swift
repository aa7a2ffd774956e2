import Foundation
import PitchDSP
import _TestSupport

@testable import Harmonizer

/// Runs shifters over test signals and measures what comes out: shared by the shifter suites.
enum ShiftMeasurement {
  /// `signal` through `shifter` in blocks of `block` frames.
  static func shifted(_ signal: [Float], by shifter: some PitchShifter, block: Int = 512) -> [Float] {
    var shifter = shifter
    var output = [Float](repeating: .nan, count: signal.count)
    var start = 0
    while start < signal.count {
      let end = min(signal.count, start + block)
      signal[start..<end].withUnsafeBufferPointer { chunk in
        output[start..<end].withUnsafeMutableBufferPointer { shifter.process(chunk, into: $0) }
      }
      start = end
    }
    return output
  }

  /// The median YIN pitch, in Hz, of the voiced frames between `from` and `to` seconds.
  static func medianPitch(_ samples: [Float], sampleRate: Double, from: Double, to: Double) throws -> Double {
    let estimator = try YINEstimator(configuration: PitchConfiguration(sampleRate: sampleRate, minimumFrequencyHz: 60))
    let voiced = estimator.estimates(for: samples).filter { $0.isVoiced && $0.time >= from && $0.time <= to }
      .map(\.frequencyHz).sorted()
    guard !voiced.isEmpty else { return 0 }
    return voiced[voiced.count / 2]
  }

  /// How far `measured` is from `expected`, in cents.
  static func cents(_ measured: Double, from expected: Double) -> Double {
    1200 * log2(measured / expected)
  }

  /// A harmonic tone: eight partials falling 3 dB each (a brass- or voice-like spectrum).
  static func harmonicTone(_ frequencyHz: Double, sampleRate: Double, seconds: Double) -> [Float] {
    SignalGenerator(sampleRate: sampleRate).harmonicTone(
      fundamentalHz: frequencyHz, partialAmplitudes: (0..<8).map { 0.25 * pow(0.7, Double($0)) },
      length: .seconds(seconds))
  }

  /// A vowel-like signal: a pulse train at `frequencyHz` through three formant resonances
  /// (700, 1800 and 2800 Hz, the first the strongest), built from its harmonics (each at the envelope's level).
  static func vowel(_ frequencyHz: Double, sampleRate: Double, seconds: Double) -> [Float] {
    let formants: [(Double, Double)] = [(700, 80), (1800, 100), (2800, 120)]
    var amplitudes: [Double] = []
    var k = 1.0
    while k * frequencyHz < min(5000, sampleRate / 2) {
      amplitudes.append(formantEnvelope(k * frequencyHz, formants: formants))
      k += 1
    }
    let peak = amplitudes.max() ?? 1
    return SignalGenerator(sampleRate: sampleRate).harmonicTone(
      fundamentalHz: frequencyHz, partialAmplitudes: amplitudes.map { 0.1 * $0 / peak }, length: .seconds(seconds))
  }

  /// The magnitude of a cascade of two-pole resonances at `f` Hz.
  static func formantEnvelope(_ f: Double, formants: [(centreHz: Double, bandwidthHz: Double)]) -> Double {
    formants.reduce(1.0) { product, formant in
      let (fc, bw) = formant
      // |H| of a resonance normalized to 1 at 0 Hz: fc² / |fc² − f² + j·f·bw|.
      return product * fc * fc / ((fc * fc - f * f) * (fc * fc - f * f) + f * f * bw * bw).squareRoot()
    }
  }

  /// The first formant as heard in `samples`: the harmonic (of `f0`) below 1.3 kHz with the most
  /// energy, refined by a parabola through the log amplitudes of it and its neighbours, in Hz.
  static func firstFormant(_ samples: [Float], f0: Double, sampleRate: Double) -> Double {
    let slice = Array(samples)
    var levels: [(Double, Double)] = []
    var k = 1.0
    while k * f0 < 1300 {
      let a = Signal.goertzelAmplitude(slice, frequencyHz: k * f0, sampleRate: sampleRate)
      levels.append((k * f0, log(max(a, 1e-9))))
      k += 1
    }
    guard let top = levels.indices.max(by: { levels[$0].1 < levels[$1].1 }) else { return 0 }
    guard top > 0, top + 1 < levels.count else { return levels[top].0 }
    let (l, c, r) = (levels[top - 1].1, levels[top].1, levels[top + 1].1)
    let curvature = l - 2 * c + r
    guard curvature < 0 else { return levels[top].0 }
    return levels[top].0 + f0 * 0.5 * (l - r) / curvature
  }

  /// The largest difference between neighbouring samples.
  static func largestStep(_ samples: ArraySlice<Float>) -> Float {
    zip(samples.dropFirst(), samples).map { abs($0 - $1) }.max() ?? 0
  }
}
