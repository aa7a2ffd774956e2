import PitchDSP

/// A signal that ``SoundBoundaryRefiner`` reads harmonic envelopes from, and the highest
/// frequency it holds unchanged: the take itself, or a copy decimated for the band a note's
/// harmonics lie in (a quarter of the samples at 44.1 or 48 kHz for harmonics up to 5 kHz, so a
/// quarter of the demodulation's work).
struct EnvelopeSignal: Sendable {
  /// The samples.
  let samples: [Float]
  /// Their sample rate, in Hz.
  let sampleRate: Double
  /// The highest frequency the samples hold unchanged, in Hz.
  let bandHz: Double

  /// The signal itself (it holds everything up to its Nyquist frequency).
  init(samples: [Float], sampleRate: Double) {
    self.samples = samples
    self.sampleRate = sampleRate
    bandHz = sampleRate / 2
  }

  /// `signal` decimated by the largest power of two that keeps everything up to `bandHz`
  /// (``Resampler/halved(_:sampleRate:keeping:)``: 4 at 44.1 and 48 kHz for 5.2 kHz); `nil` when
  /// not even a factor of 2 does.
  ///
  /// The decimating filters are centred, so a time in seconds is the same in both signals. A
  /// non-finite sample is kept, at the nearest decimated sample.
  init?(decimating signal: EnvelopeSignal, keeping bandHz: Double) {
    var (samples, rate) = Resampler.halved(signal.samples, sampleRate: signal.sampleRate, keeping: bandHz)
    guard rate < signal.sampleRate else { return nil }
    // The filters read non-finite samples as 0; the envelopes must not (a NaN or ±∞ sample makes
    // every envelope through it NaN, so no decision is taken on it): it stays where it was.
    let factor = Int((signal.sampleRate / rate).rounded())
    for (i, x) in signal.samples.enumerated() where !x.isFinite {
      samples[min(samples.count - 1, i / factor)] = x
    }
    self.samples = samples
    sampleRate = rate
    self.bandHz = bandHz
  }

  /// The steps from `from` to `to` seconds, `stepSeconds` apart (rounded to whole samples):
  /// the first, in samples, how many, and the samples between them.
  func steps(from: Double, to: Double, stepSeconds: Double) -> (start: Int, count: Int, hop: Int) {
    let hop = max(1, Int((stepSeconds * sampleRate).rounded()))
    let start = Int((from * sampleRate).rounded())
    return (start, max(1, Int((to * sampleRate - Double(start)) / Double(hop)) + 1), hop)
  }
}
