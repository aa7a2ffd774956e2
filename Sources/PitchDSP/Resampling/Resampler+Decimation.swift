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
  ///   `sampleRate / factor − passbandHz`: 159 taps for 44.1 kHz by 4 at 5 kHz and 60 dB; halving
  ///   twice instead takes 17 and then 131 (a wide transition first, a narrow one at half the
  ///   rate).
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
    let half = design.halfLength
    guard half <= Self.maximumDecimationHalfLength else {
      throw invalid(
        "passbandHz", passbandHz,
        "far enough below half the output rate \(outputRate) Hz for at most \(2 * Self.maximumDecimationHalfLength + 1) taps")
    }
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
