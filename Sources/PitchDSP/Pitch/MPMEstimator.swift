/// The McLeod pitch method (McLeod and Wyvill, 2005): key maxima of the normalized square
/// difference function `n(τ) = 2r(τ) / m(τ)`.
///
/// Per frame: the highest value of `n` in each positive region after its first negative-going
/// zero crossing (a key maximum); the first key maximum at least ``cutoff`` times the highest
/// one; parabolic interpolation around it. The frame is voiced when that maximum reaches
/// ``clarityThreshold`` and the frame is within the voicing gate
/// (``PitchConfiguration/voicingRangeDecibels``); the confidence is the maximum's value (its
/// clarity). Key maxima are compared at the vertex of their parabola, not at their samples, so
/// that a period between samples does not lose to the octave below.
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class MPMEstimator: PitchEstimator {
  public let configuration: PitchConfiguration
  /// The fraction of the highest key maximum the chosen one must reach (McLeod: 0.8...1).
  public let cutoff: Double
  /// The smallest clarity accepted as voiced, 0...1.
  public let clarityThreshold: Double
  private var analysis: PeriodicityAnalysis
  private let decider: MPMDecider

  /// Creates an estimator; allocates all its memory.
  ///
  /// - Parameters:
  ///   - configuration: Sample rate, range, hop and window.
  ///   - cutoff: The fraction of the highest key maximum the chosen one must reach (default 0.93).
  ///   - clarityThreshold: The smallest clarity accepted as voiced (default 0.7).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   that cannot be analyzed.
  public init(configuration: PitchConfiguration, cutoff: Double = 0.93, clarityThreshold: Double = 0.7) throws(PitchDSPError) {
    guard cutoff > 0, cutoff <= 1 else {
      throw .invalidParameter(name: "MPM cutoff", value: "\(cutoff)", expected: "0 < cutoff <= 1")
    }
    guard clarityThreshold >= 0, clarityThreshold < 1 else {
      throw .invalidParameter(name: "MPM clarity threshold", value: "\(clarityThreshold)", expected: "0...1")
    }
    self.configuration = configuration
    self.cutoff = cutoff
    self.clarityThreshold = clarityThreshold
    analysis = try PeriodicityAnalysis(configuration: configuration, computesSquareDifference: true)
    decider = MPMDecider(cutoff: Float(cutoff), clarityThreshold: Float(clarityThreshold))
  }

  public var latencySeconds: Double { analysis.latencySeconds }

  public func maximumEstimates(forFrames count: Int) -> Int {
    analysis.maximumFrames(forInputFrames: count)
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    analysis.run(frames, into: estimates, deciding: .mpm(decider))
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int {
    analysis.finish(into: estimates, deciding: .mpm(decider))
  }

  public func reset() {
    analysis.reset()
  }
}

/// MPM's per-frame decision.
struct MPMDecider {
  let cutoff: Float
  let clarityThreshold: Float

  @_noLocks
  func decide(_ analysis: borrowing PeriodicityAnalysis) -> PitchEstimate {
    let n = analysis.squareDifference
    let plan = analysis.plan
    var estimate = PitchEstimate(time: analysis.frameTime, frequencyHz: 0, confidence: 0, levelDBFS: analysis.levelDBFS)
    guard analysis.voicingGate >= 0.5 else { return estimate }
    // Pass 1: the highest key maximum. Pass 2: the first key maximum above cutoff × highest.
    var highest: Float = 0
    var chosen = -1
    for pass in 0..<2 {
      var tau = 1
      // Skip the lobe around τ = 0: wait for n to go negative.
      while tau <= plan.maximumLag, n[tau] > 0 { tau += 1 }
      var lobeMaximum: Float = 0
      var lobeIndex = -1
      while tau <= plan.maximumLag {
        if n[tau] > 0 {
          if n[tau] > n[tau - 1], n[tau] >= n[tau + 1], tau >= plan.minimumLag {
            // The peak between samples: at a period that is not a whole number of samples the
            // sampled value reads low, which would favour the octave below.
            let peak = parabolicExtremum(n, at: tau)
            if peak > lobeMaximum {
              lobeMaximum = peak
              lobeIndex = tau
            }
          }
        } else if lobeIndex >= 0 {
          if pass == 0 {
            highest = max(highest, lobeMaximum)
          } else if lobeMaximum >= cutoff * highest {
            chosen = lobeIndex
            break
          }
          lobeMaximum = 0
          lobeIndex = -1
        }
        tau += 1
      }
      if pass == 0, lobeIndex >= 0 { highest = max(highest, lobeMaximum) }
      if pass == 1, chosen < 0, lobeIndex >= 0, lobeMaximum >= cutoff * highest { chosen = lobeIndex }
    }
    guard chosen > 0, chosen < plan.maximumLag else { return estimate }
    let clarity = min(1, parabolicExtremum(n, at: chosen))
    estimate.confidence = Double(max(0, min(1, clarity)))
    guard clarity >= clarityThreshold else { return estimate }
    // The key maximum of n and the minimum of d share their lag; check for a weak fundamental
    // and refine on d.
    let period = analysis.refinedLag(analysis.periodLag(startingAt: chosen))
    guard !analysis.background.holds(period: period, levelDBFS: analysis.levelDBFS) else { return estimate }
    estimate.frequencyHz = plan.analysisRate / period
    return estimate
  }

}
