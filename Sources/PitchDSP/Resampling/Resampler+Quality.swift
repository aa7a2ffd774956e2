extension Resampler {
  /// How hard the anti-aliasing / anti-imaging filter of a ``Resampler`` works.
  ///
  /// All presets put the stop-band edge at the lower of the two Nyquist frequencies, so nothing
  /// above the output Nyquist aliases back when downsampling and no image of the input spectrum
  /// survives when upsampling. They differ in where the passband ends (the transition band is
  /// between ``passbandEdge`` and 1.0 × the lower Nyquist), in the designed stop-band
  /// attenuation, and therefore in the filter length and cost.
  ///
  /// | preset | flat passband (× lower Nyquist) | −3 dB point | designed stop band | measured worst stop band / image | taps when upsampling |
  /// |---|---|---|---|---|---|
  /// | ``fast`` | 0 – 0.80 | 0.88 | 90 dB | −92 dB | 64 |
  /// | ``standard`` | 0 – 0.90 | 0.94 | 100 dB | −101 dB | 136 |
  /// | ``high`` | 0 – 0.95 | 0.97 | 120 dB | −122 dB | 320 |
  ///
  /// The transition band runs from ``passbandEdge`` to 1.0 × the lower Nyquist; everything at or
  /// above the lower Nyquist is attenuated by at least the designed amount (measured over
  /// 48→16, 44.1→48, 8→96 kHz and two non-rational ratios). Passband ripple measured below
  /// 0.001 dB for every preset (a Kaiser design's ripple is about its stop-band level).
  ///
  /// The filter has a fixed duration at the lower rate, so when downsampling by `r` it has `r`
  /// times more taps at the input rate (48→16 kHz: 176 / 392 / 944 taps) and ``Resampler``'s
  /// latency (half the taps, in input frames) grows accordingly: 32 / 68 / 160 input frames
  /// when upsampling.
  public enum Quality: Sendable, Hashable, Codable, CaseIterable {
    /// Short filter, for previews and analysis front-ends that only look below 0.8 × Nyquist.
    case fast
    /// The default: flat to 0.9 × the lower Nyquist, ≥ 80 dB stop-band (measured ≈ 100 dB).
    case standard
    /// Long filter: flat to 0.95 × the lower Nyquist, designed for 120 dB.
    case high

    /// The end of the flat passband, as a fraction of the lower Nyquist frequency.
    public var passbandEdge: Double {
      switch self {
      case .fast: 0.80
      case .standard: 0.90
      case .high: 0.95
      }
    }

    /// The start of the stop band, as a fraction of the lower Nyquist frequency (always 1).
    public var stopbandEdge: Double { 1.0 }

    /// The stop-band attenuation the Kaiser design targets, in dB (positive).
    public var designAttenuationDB: Double {
      switch self {
      case .fast: 90
      case .standard: 100
      case .high: 120
      }
    }
  }
}
