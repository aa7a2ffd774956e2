/// The pitch estimators Etude ships, by name (as the command-line tool takes them).
public enum PitchMethod: String, Sendable, Hashable, Codable, CaseIterable {
  /// ``YINEstimator``: the cumulative mean normalized difference, first dip below a threshold.
  case yin
  /// ``MPMEstimator``: the McLeod pitch method, normalized square difference key maxima.
  case mpm
  /// ``ProbabilisticYINEstimator`` in offline mode: the best path over a whole file.
  case pyin
  /// ``ProbabilisticYINEstimator`` in live mode: a fixed-lag best path, causal.
  case pyinLive = "pyin-live"
}
