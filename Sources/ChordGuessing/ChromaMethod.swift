/// How a chromagram turns a log-frequency spectrum into pitch-class content.
public enum ChromaMethod: String, Sendable, Hashable, Codable, CaseIterable {
  /// Approximate note transcription (Mauch and Dixon, "Approximate note transcription for the
  /// improved identification of difficult chords", ISMIR 2010): the whitened log-frequency
  /// spectrum is explained as a non-negative sum of harmonic note profiles (non-negative least
  /// squares), and the notes, not the partials, are folded into pitch classes. A note's upper
  /// partials (its twelfth, its major seventeenth, its flat seventh) are accounted for by the
  /// note that made them instead of counting as chord tones. The default.
  case approximateTranscription = "nnls"
  /// Stark's chromagram (Stark and Plumbley, "Real-time chord recognition for live
  /// performance", ICMC 2009): per pitch class, the spectrum at its fundamental and, at half
  /// weight, its second harmonic, summed over the two octaves from C3. No harmonic model:
  /// upper partials count as pitch content. The baseline.
  case stark
}

/// How a chromagram computes its log-frequency spectrum (three bins per semitone).
public enum SpectrumMethod: String, Sendable, Hashable, Codable, CaseIterable {
  /// A short-time Fourier transform (Hann window) mapped to log-frequency bins: each bin a
  /// raised-cosine average of the magnitudes within a third of a semitone (at least one FFT bin)
  /// of its centre, as in Mauch's NNLS chroma. The default.
  case fft
  /// A constant-Q transform with 36 bins per octave (Q ≈ 51.4, as Chordabra used), each bin a
  /// Hann-windowed complex exponential of `Q` periods, at most one analysis frame long (so
  /// below about 138 Hz the resolution is that of the frame). Computed from the same FFT with
  /// spectral kernels (Brown and Puckette 1992).
  case constantQ = "cqt"
}

/// How a chromagram follows the tuning of the input.
public enum TuningMode: Sendable, Hashable, Codable {
  /// Estimated from the input: the circular mean, weighted by magnitude, of the deviations of
  /// spectral peaks (150 Hz – 2.5 kHz) from the nearest equal-tempered pitch, over the last
  /// `timeConstantSeconds` or so (an exponential average; the first frames count fully, so
  /// the estimate is usable after one frame with peaks). Range ±50 cents.
  case estimated(timeConstantSeconds: Double)
  /// A fixed deviation from the reference, in cents (`-50...50`).
  case fixed(cents: Double)

  /// Estimated, with a 10-second memory.
  public static let estimated = TuningMode.estimated(timeConstantSeconds: 10)
}
