/// The YIN pitch estimator (de Cheveigné and Kawahara, 2002), with the difference function
/// computed through the FFT.
///
/// Per frame: the cumulative mean normalized difference `d′(τ)`; the first lag (from the
/// highest pitch down) where `d′` dips below ``threshold``, followed to its local minimum (and on
/// to a deeper trough within an eighth of its lag, of which it is a ripple); parabolic
/// interpolation of `d′` around it, refined to a fraction of a sample; when the dip at twice (or
/// three times) that lag is far deeper, the period is that multiple (a weak fundamental under a
/// strong second or third harmonic).
/// The frame is voiced when
/// such a dip exists and the frame is within the voicing gate
/// (``PitchConfiguration/voicingRangeDecibels``); the confidence is `1 − d′(τ)`.
///
/// Fast and exact on clean, steady tones; with noise, reverberation or weak fundamentals,
/// ``ProbabilisticYINEstimator`` is more robust.
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class YINEstimator: PitchEstimator {
  /// The default threshold on `d′`.
  public static let defaultThreshold = 0.15

  public let configuration: PitchConfiguration
  /// The largest `d′(τ)` accepted as a period, 0...1.
  public let threshold: Double
  private var analysis: PeriodicityAnalysis
  private let decider: YINDecider

  /// Creates an estimator; allocates all its memory.
  ///
  /// - Parameters:
  ///   - configuration: Sample rate, range, hop and window.
  ///   - threshold: The largest `d′(τ)` accepted as a period (default 0.15).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   that cannot be analyzed.
  public init(configuration: PitchConfiguration, threshold: Double = YINEstimator.defaultThreshold) throws(PitchDSPError) {
    guard threshold > 0, threshold < 1 else {
      throw .invalidParameter(name: "YIN threshold", value: "\(threshold)", expected: "0 < threshold < 1")
    }
    self.configuration = configuration
    self.threshold = threshold
    analysis = try PeriodicityAnalysis(configuration: configuration)
    decider = YINDecider(threshold: Float(threshold))
  }

  public var latencySeconds: Double { analysis.latencySeconds }

  public func maximumEstimates(forFrames count: Int) -> Int {
    analysis.maximumFrames(forInputFrames: count)
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    analysis.run(frames, into: estimates, deciding: .yin(decider))
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    analysis.finish(into: estimates, deciding: .yin(decider))
  }

  public func reset() {
    analysis.reset()
  }
}

/// YIN's per-frame decision.
struct YINDecider {
  let threshold: Float

  @_noLocks
  func decide(_ analysis: borrowing PeriodicityAnalysis) -> PitchEstimate {
    let d = analysis.normalizedDifference
    let plan = analysis.plan
    var unvoiced = PitchEstimate(time: analysis.frameTime, frequencyHz: 0, confidence: 0, levelDBFS: analysis.levelDBFS)
    guard analysis.voicingGate >= 0.5 else { return unvoiced }
    let dip = analysis.firstDip(below: threshold)
    guard let dip, dip.bottom < plan.maximumLag else {
      // No dip below the threshold (or only at the edge of the range): unvoiced, as confident as
      // the deepest point before it.
      var best = plan.minimumLag
      for tau in plan.minimumLag..<(dip?.start ?? plan.maximumLag + 1) where d[tau] < d[best] { best = tau }
      unvoiced.confidence = Double(max(0, 1 - d[best]))
      return unvoiced
    }
    // Past a ripple on the flank of a deeper dip; then a dip at a half or a third of the period
    // (a weak fundamental under a strong second or third harmonic) hands over.
    let tau = analysis.periodLag(startingAt: analysis.pastFlank(dip.bottom))
    let period = analysis.refinedLag(tau)
    guard !analysis.background.holds(period: period, levelDBFS: analysis.levelDBFS) else { return unvoiced }
    return PitchEstimate(
      time: analysis.frameTime, frequencyHz: plan.analysisRate / period, confidence: Double(max(0, min(1, 1 - d[tau]))),
      levelDBFS: analysis.levelDBFS)
  }
}
