/// One pitch estimate: the fundamental frequency of one analysis frame, how sure the estimator
/// is that the frame is voiced, and how loud it is.
public struct PitchEstimate: Sendable, Hashable, Codable {
  /// The time of the centre of the analysis frame, in seconds from the start of the stream.
  public var time: Double
  /// The fundamental frequency in Hz, or 0 when the frame is unvoiced.
  public var frequencyHz: Double
  /// How likely the frame is voiced, 0...1 (for pYIN, the probability mass of its pitch
  /// candidates; for YIN `1 − d′(τ)`; for MPM the normalized-square-difference peak).
  public var confidence: Double
  /// The frame's RMS level in dBFS (`-infinity` for digital silence).
  public var levelDBFS: Double

  /// Creates an estimate.
  @_noLocks
  public init(time: Double, frequencyHz: Double, confidence: Double, levelDBFS: Double) {
    self.time = time
    self.frequencyHz = frequencyHz
    self.confidence = confidence
    self.levelDBFS = levelDBFS
  }

  /// `true` when the frame has a pitch.
  public var isVoiced: Bool { frequencyHz > 0 }
}
