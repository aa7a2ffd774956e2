/// How a ``ChordRecognizer`` scores the chords of its vocabulary against a frame's chroma.
public enum ChordDecision: String, Sendable, Hashable, Codable, CaseIterable {
  /// A likelihood: the treble chroma, scaled to sum 1, is read as draws from a distribution
  /// that puts 90 % evenly on the chord's pitch classes and 10 % evenly on the others
  /// (`Σ c[p]·log q[p]`, a cross-entropy, so a triad beats its seventh chord until the seventh
  /// carries about a tenth of the chroma, and more tones are not free); the bass chroma is read
  /// the same way for the chord's bass note; inversions cost a prior factor. No chord (`N`)
  /// reads the chroma as uniform, and wins on flat chroma, on inharmonic sound, and on
  /// silence. The default.
  case likelihood
  /// Stark's template distance: `√(Σ (1 − T[p])·c[p]²) / (12 − k)` for a chord's binary
  /// template `T` of `k` tones — the chroma energy outside the chord, per pitch class it leaves
  /// out. The nearest chord wins. Bass and inversions are scored as with ``likelihood``.
  case templateDistance = "distance"
}

/// How a ``ChordRecognizer`` turns frame-by-frame scores into chord changes.
public enum ChordSmoothing: Sendable, Hashable, Codable {
  /// None: each frame's best chord; changes can flicker.
  case none
  /// Chordabra's rule: a new chord is shown once it has been each frame's best `count` times in
  /// a row (Chordabra used 2).
  case repeated(count: Int)
  /// A hidden Markov model's forward filter (causal): the chord with the largest probability
  /// given everything heard so far. Chords last ``ChordRecognizer/Configuration/meanChordSeconds``
  /// on average; a change of bass under the same chord is as likely as a change of chord.
  /// The default for live use; files get Viterbi decoding (``ChordTranscriber``).
  case hiddenMarkov
}
