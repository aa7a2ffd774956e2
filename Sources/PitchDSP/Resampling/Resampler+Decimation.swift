extension Resampler {
  /// The most taps on either side of a decimating filter's centre (a transition band of about
  /// 0.003 % of the rate at 60 dB): a passband closer to the new Nyquist frequency is refused
  /// rather than tabulated.
  static let maximumDecimationHalfLength = 65_536

  /// Every `factor`-th sample of a signal, low-passed first so that the band below `passbandHz`
  /// keeps its level and nothing folds onto it: for analyses that only look at that band (the
  /// envelopes of a note's harmonics up to 5 kHz read at a quarter of 44.1 kHz cost a quarter).
  ///
  /// The filter is a Kaiser-windowed sinc, symmetric and centred, so output `j` is the input at
  /// sample `j · factor` exactly (no delay), and the output has `⌈samples.count / factor⌉`
  /// samples. Its stop band starts at `sampleRate / factor − passbandHz`, where the first alias
  /// would reach the passband: what folds down lands between `passbandHz` and the new Nyquist
  /// frequency. Samples outside the signal count as silence; NaN and ±∞ become 0.
  ///
  /// - Parameters:
  ///   - samples: The signal.
  ///   - sampleRate: Its sample rate, in Hz; finite and positive.
  ///   - factor: How many input samples to one output, at least 1 (1 returns the signal
  ///     unchanged, non-finite samples included).
  ///   - passbandHz: The highest frequency to keep, below half the output rate, far enough
  ///     below it for a filter of at most 131,073 taps.
  ///   - attenuationDB: The stop-band attenuation to design for, in dB (at least 21); the
  ///     passband ripple is about as small.
  /// - Returns: The decimated signal, at `sampleRate / factor`.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a bad rate, factor,
  ///   band or attenuation.
  /// - Complexity: O(samples.count / factor · taps), taps ≈ (attenuationDB − 8) /
  ///   (14.4 · transition / sampleRate), the transition running from `passbandHz` to
  ///   `sampleRate / factor − passbandHz`: 159 taps for 44.1 kHz by 4 at 5 kHz and 60 dB
  ///   (``halved(_:sampleRate:keeping:)`` gets there in shorter stages).
  public static func decimate(
    _ samples: [Float], sampleRate: Double, by factor: Int, passbandHz: Double, attenuationDB: Double = 60
  ) throws(PitchDSPError) -> [Float] {
    guard sampleRate.isFinite, sampleRate > 0 else {
      throw invalid("sampleRate", sampleRate, "a finite sample rate > 0 Hz")
    }
    guard factor >= 1 else { throw invalid("factor", factor, "at least 1") }
    if factor == 1 { return samples }
    let outputRate = sampleRate / Double(factor)
    guard passbandHz.isFinite, passbandHz > 0, passbandHz < outputRate / 2 else {
      throw invalid("passbandHz", passbandHz, "above 0 and below half the output rate \(outputRate) Hz")
    }
    guard attenuationDB.isFinite, attenuationDB >= 21 else {
      throw invalid("attenuationDB", attenuationDB, "at least 21 dB")
    }
    let design = KaiserSincDesign(
      pass: passbandHz / sampleRate, stop: (outputRate - passbandHz) / sampleRate, attenuationDB: attenuationDB)
    guard design.halfLength <= Self.maximumDecimationHalfLength else {
      throw invalid(
        "passbandHz", passbandHz,
        "far enough below half the output rate \(outputRate) Hz for at most \(2 * Self.maximumDecimationHalfLength + 1) taps")
    }
    return decimated(samples, by: factor, design: design)
  }

  /// `samples` decimated so that the band under `bandHz` keeps its level: halved as often as that
  /// band still fits under the new Nyquist frequency with a transition band of at least 1 % of
  /// the rate (twice at 44.1 and 48 kHz for 5.2 kHz, three times at 96 kHz), each halving with
  /// ``decimate(_:sampleRate:by:passbandHz:attenuationDB:)``'s filter at 60 dB. Halving in
  /// stages keeps the filters short: the first ones have wide transitions (17 and then 131 taps
  /// from 44.1 kHz for 5.2 kHz, where one filter by 4 takes 159 for 5 kHz).
  ///
  /// - Parameters:
  ///   - samples: The signal.
  ///   - sampleRate: Its sample rate, in Hz.
  ///   - bandHz: The highest frequency to keep, in Hz.
  /// - Returns: The decimated signal and its rate; the signal and rate unchanged when not even
  ///   one halving keeps the band (also for a rate or band that is not finite and positive).
  ///   NaN and ±∞ become 0 when it is decimated.
  public static func halved(
    _ samples: [Float], sampleRate: Double, keeping bandHz: Double
  ) -> (samples: [Float], sampleRate: Double) {
    var (samples, rate) = (samples, sampleRate)
    guard sampleRate.isFinite, sampleRate > 0, bandHz.isFinite, bandHz > 0 else { return (samples, rate) }
    // (These halvings are all valid decimations: the band lies under a quarter of the rate, and
    // the transition of 1 % or more takes a few hundred taps at most.)
    while rate / 2 >= 2 * bandHz + 0.01 * rate {
      let design = KaiserSincDesign(pass: bandHz / rate, stop: (rate / 2 - bandHz) / rate, attenuationDB: 60)
      (samples, rate) = (decimated(samples, by: 2, design: design), rate / 2)
    }
    return (samples, rate)
  }

  /// Every `factor`-th sample of `samples` through the centred filter `design` (taps normalized
  /// to sum to 1); NaN and ±∞ read as 0.
  private static func decimated(_ samples: [Float], by factor: Int, design: KaiserSincDesign) -> [Float] {
    let half = design.halfLength
    // Taps for t = −half … half, padded with zeros to whole SIMD vectors, summing to 1.
    let width = (2 * half + 1 + 7) / 8 * 8
    var taps = [Float](repeating: 0, count: width)
    let weights = (-half...half).map { design.impulse(at: Double($0)) }
    let total = weights.reduce(0, +)
    for (n, weight) in weights.enumerated() { taps[n] = Float(weight / total) }
    // The input with `half` zeros before and enough after for the last output's padded taps.
    let count = (samples.count + factor - 1) / factor
    var padded = [Float](repeating: 0, count: max(0, half + (count - 1) * factor + width))
    padded.withUnsafeMutableBufferPointer { padded in
      samples.withUnsafeBufferPointer { samples in
        for i in samples.indices { padded[half + i] = samples[i].isFinite ? samples[i] : 0 }
      }
    }
    return [Float](unsafeUninitializedCapacity: count) { output, initialized in
      padded.withUnsafeBufferPointer { input in
        taps.withUnsafeBufferPointer { kernel in
          for j in 0..<count {
            output[j] = dot(input.baseAddress! + j * factor, kernel.baseAddress!, width)
          }
        }
      }
      initialized = count
    }
  }
}
