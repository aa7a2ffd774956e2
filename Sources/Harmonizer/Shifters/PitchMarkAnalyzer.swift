import PitchDSP

/// The analysis half of pitch-synchronous overlap-add: keeps the recent input, tracks its pitch
/// with PitchDSP's streaming ``YINEstimator``, and places pitch marks on it, one per period,
/// each at the same place in its period.
///
/// **Marks.** Where the tracker first finds a pitch, the first mark goes on the largest peak
/// within half a period; every next mark is one period further, the period being measured at
/// each mark to a fraction of a sample (the lag, within a few percent of the tracker's, at which
/// the period before the mark best matches the one before that). Marks therefore stay on the
/// same epoch period after period, and their spacing follows the pitch exactly. Where the input
/// is unvoiced (the tracker finds no pitch, or the period found does not repeat), marks are
/// spaced 5 ms apart and flagged unvoiced.
///
/// **Timing.** A mark at input sample `m` is placed once the input up to
/// `m + analysisDelaySamples` has arrived (the tracker's look-ahead, half its hop, and half the
/// longest period). The output of a synthesizer driven by the marks lags the input by
/// ``synthesisLatencySamples``.
///
/// **One analysis, several voices.** The analyzer knows nothing of the shift: any number of
/// ``PSOLASynthesizer``s, each with its own shift, can render from one analyzer. Per block:
/// ``analyze(_:)`` once, then ``PSOLASynthesizer/render(from:into:)`` on each synthesizer with
/// an output of the same frame count. ``PSOLAShifter`` is one analyzer with one synthesizer.
///
/// A class because it owns preallocated memory and the pitch tracker; `Sendable` so that it can
/// be handed to the audio thread, but used from one thread at a time.
public final class PitchMarkAnalyzer: @unchecked Sendable {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The pitch range and the tracker's hop and window.
  public let configuration: Configuration
  /// The most frames one ``analyze(_:)`` call accepts.
  public let maximumFrames: Int
  /// The shortest and longest periods, in samples.
  public let minimumPeriodSamples: Int
  public let maximumPeriodSamples: Int
  /// How far behind the newest input the newest mark may be, in samples.
  public let analysisDelaySamples: Int
  /// The lag of a synthesizer's output behind the input, in samples: the analysis delay plus
  /// two of the longest periods (to find the mark after an output instant and read a whole
  /// grain around it), and at least three longest periods.
  public let synthesisLatencySamples: Int

  /// Input frames analyzed so far.
  public private(set) var framesAnalyzed = 0
  /// Marks placed so far; the most recent ``markCapacity`` can be read with ``mark(_:)``.
  public private(set) var markCount = 0

  let ring: SampleRing
  private let trackerOwner: YINEstimator
  private let tracker: Unmanaged<YINEstimator>
  private let hopSize: Int
  /// Input frames from an estimate's time until it is surely out of the tracker.
  private let trackerDelay: Int
  private let estimates: UnsafeMutableBufferPointer<PitchEstimate>
  /// The frequency (0 = unvoiced) of hop `k` in slot `k & estimateMask`, and the `k` held there.
  private let estimateFrequency: UnsafeMutablePointer<Double>
  private let estimateHop: UnsafeMutablePointer<Int>
  private let estimateMask: Int
  private let marks: UnsafeMutablePointer<PitchMark>
  private let markMask: Int
  /// The spacing of marks where the input is not voiced, in samples (5 ms, within the period
  /// range).
  let unvoicedStep: Double
  /// The next mark's position, and whether the last mark was voiced.
  private var nextMark = 0.0
  private var lastVoiced = false
  private var lastMarkPosition = -1.0

  /// Creates an analyzer and allocates all its memory.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - maximumFrames: The most frames one ``analyze(_:)`` call will get (default 512).
  ///   - configuration: The pitch range and tracker settings.
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for values out of range.
  public init(sampleRate: Double, maximumFrames: Int = 512, configuration: Configuration = .init()) throws(HarmonizerError) {
    try configuration.validate(sampleRate: sampleRate)
    guard (1...65536).contains(maximumFrames) else {
      throw .invalidParameter(name: "maximum frames", value: "\(maximumFrames)", expected: "1...65536")
    }
    self.sampleRate = sampleRate
    self.configuration = configuration
    self.maximumFrames = maximumFrames
    let tracker: YINEstimator
    do {
      tracker = try YINEstimator(configuration: configuration.pitchConfiguration(sampleRate: sampleRate))
    } catch {
      throw .invalidParameter(name: "pitch tracking", value: "\(error)", expected: "a configuration PitchDSP accepts")
    }
    trackerOwner = tracker
    self.tracker = Unmanaged.passUnretained(tracker)
    hopSize = tracker.hopSize
    trackerDelay = Int((tracker.latencySeconds * sampleRate).rounded(.up)) + 2
    minimumPeriodSamples = max(2, Int((sampleRate / configuration.maximumFrequencyHz).rounded(.down)))
    maximumPeriodSamples = Int((sampleRate / configuration.minimumFrequencyHz).rounded(.up))
    let maximumSearch = periodSearchRadius(Double(maximumPeriodSamples))
    analysisDelaySamples = max(trackerDelay + hopSize / 2 + 1, maximumPeriodSamples / 2 + maximumSearch + 4)
    synthesisLatencySamples = max(analysisDelaySamples + 2 * maximumPeriodSamples + 2, 3 * maximumPeriodSamples + 4)
    unvoicedStep = Double(min(maximumPeriodSamples, max(minimumPeriodSamples, Int(sampleRate * 0.005))))
    ring = .allocate(minimumCapacity: synthesisLatencySamples + 3 * maximumPeriodSamples + maximumFrames + 64)
    estimates = .allocate(capacity: tracker.maximumEstimates(forFrames: maximumFrames) + 1)
    estimates.initialize(repeating: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0))
    var slots = 64
    while slots < (ring.capacity / hopSize) + 4 { slots <<= 1 }
    estimateMask = slots - 1
    estimateFrequency = .allocate(capacity: slots)
    estimateFrequency.initialize(repeating: 0, count: slots)
    estimateHop = .allocate(capacity: slots)
    estimateHop.initialize(repeating: -1, count: slots)
    var markSlots = 64
    while markSlots < ring.capacity / Int(unvoicedStep.rounded(.down)) + ring.capacity / minimumPeriodSamples { markSlots <<= 1 }
    markMask = markSlots - 1
    marks = .allocate(capacity: markSlots)
    marks.initialize(repeating: PitchMark(position: 0, periodSamples: 1, isVoiced: false), count: markSlots)
  }

  deinit {
    ring.deallocate()
    estimates.deallocate()
    estimateFrequency.deallocate()
    estimateHop.deallocate()
    marks.deallocate()
  }

  /// What a synthesizer reads, as plain views (no reference counting on the audio path).
  @_noLocks
  func view() -> AnalysisView {
    AnalysisView(
      ring: ring, marks: marks, markMask: markMask, markCount: markCount, framesAnalyzed: framesAnalyzed,
      unvoicedStep: unvoicedStep)
  }

  /// How many of the latest marks ``mark(_:)`` can read.
  public var markCapacity: Int { markMask + 1 }

  /// Mark number `index` (0 is the first of the stream); valid for the latest ``markCapacity``.
  @_noLocks
  @inline(__always)
  public func mark(_ index: Int) -> PitchMark { marks[index & markMask] }

  /// The input sample at absolute index `index` (recent samples only; 0 before the stream).
  @_noLocks
  @inline(__always)
  public func sample(at index: Int) -> Float { ring[index] }

  /// Analyzes the next block of input.
  ///
  /// - Parameter input: Mono samples, at most ``maximumFrames``; NaN and ±∞ are treated as 0.
  /// - Note: Real-time safe.
  @_noLocks
  public func analyze(_ input: UnsafeBufferPointer<Float>) {
    if input.count > maximumFrames { preconditionFailure("PitchMarkAnalyzer.analyze: more frames than maximumFrames") }
    for i in 0..<input.count {
      let x = input[i]
      ring[framesAnalyzed + i] = x.isFinite ? x : 0
    }
    framesAnalyzed += input.count
    let output = estimates
    let produced = tracker._withUnsafeGuaranteedRef { $0.process(input, into: output) }
    for e in 0..<produced {
      let estimate = estimates[e]
      let hop = Int(estimate.time * sampleRate / Double(hopSize) + 0.5)
      estimateFrequency[hop & estimateMask] = estimate.frequencyHz
      estimateHop[hop & estimateMask] = hop
    }
    placeMarks()
  }

  /// Forgets the stream.
  ///
  /// - Note: Real-time safe, apart from the pitch tracker's reset (which clears its buffers).
  public func reset() {
    ring.clear()
    trackerOwner.reset()
    for i in 0...estimateMask { estimateHop[i] = -1 }
    framesAnalyzed = 0
    markCount = 0
    nextMark = 0
    lastVoiced = false
    lastMarkPosition = -1
  }

  /// Places every mark whose input is complete: all of them up to `framesAnalyzed − 1 − delay`.
  @_noLocks
  private func placeMarks() {
    let newest = Double(framesAnalyzed - 1 - analysisDelaySamples)
    while nextMark <= newest {
      var position = nextMark
      let hop = Int(position / Double(hopSize) + 0.5)
      let frequency = estimateHop[hop & estimateMask] == hop ? estimateFrequency[hop & estimateMask] : 0
      var period = 0.0
      if frequency > 0 {
        let coarse = min(Double(maximumPeriodSamples), max(Double(minimumPeriodSamples), sampleRate / frequency))
        if !lastVoiced { position = epoch(near: position, period: coarse) }
        period = refinedPeriod(at: Int(position + 0.5), coarse: coarse)
      }
      let voiced = period > 0
      let step = voiced ? period : unvoicedStep
      marks[markCount & markMask] = PitchMark(position: position, periodSamples: step, isVoiced: voiced)
      markCount += 1
      lastMarkPosition = position
      lastVoiced = voiced
      nextMark = position + step
    }
  }

  /// The largest sample within half a period either side of `position` (but after the last
  /// mark): where a voiced stretch's first mark goes.
  @_noLocks
  private func epoch(near position: Double, period: Double) -> Double {
    let first = max(Int(lastMarkPosition) + 1, Int(position - period / 2))
    let last = Int(position + period / 2)
    guard last > first else { return position }
    var best = first
    for i in first...last where ring[i] > ring[best] { best = i }
    return Double(best)
  }

  /// The lag, within 3 % (plus 2 samples) of `coarse`, at which the period before `centre` best
  /// matches the one before it (least squared difference, refined by a parabola), or 0 when no
  /// lag matches well (then the input is not periodic here).
  @_noLocks
  private func refinedPeriod(at centre: Int, coarse: Double) -> Double {
    let radius = periodSearchRadius(coarse)
    let lo = max(minimumPeriodSamples, Int(coarse) - radius)
    let hi = min(maximumPeriodSamples + 1, Int(coarse) + radius + 1)
    let length = max(8, Int(coarse))
    let start = centre - length / 2
    var bestLag = lo
    var best = Float.infinity, before = Float.infinity, after = Float.infinity, previous = Float.infinity
    var bestEnergy: Float = 0
    for lag in lo...hi {
      var difference: Float = 0, energy: Float = 0
      for j in start..<(start + length) {
        let a = ring[j], b = ring[j - lag]
        difference += (a - b) * (a - b)
        energy += a * a + b * b
      }
      if difference < best {
        (bestLag, best, before, bestEnergy) = (lag, difference, previous, energy)
        after = .infinity
      } else if lag == bestLag + 1 {
        after = difference
      }
      previous = difference
    }
    guard bestEnergy > 1e-9, best < 0.2 * bestEnergy else { return 0 }
    guard bestLag > lo, bestLag < hi, before.isFinite, after.isFinite else { return Double(bestLag) }
    let curvature = before - 2 * best + after
    guard curvature > 0 else { return Double(bestLag) }
    return Double(bestLag) + Double(max(-0.5, min(0.5, 0.5 * (before - after) / curvature)))
  }

}

/// How far, in samples, a mark's measured period may differ from the tracker's: 3 % and 2 samples.
@inline(__always)
func periodSearchRadius(_ period: Double) -> Int { Int(0.03 * period) + 2 }

/// A synthesizer's view of a ``PitchMarkAnalyzer`` after one analysis block: the input ring, the
/// marks and their counts, as trivial values.
struct AnalysisView {
  let ring: SampleRing
  let marks: UnsafeMutablePointer<PitchMark>
  let markMask: Int
  let markCount: Int
  let framesAnalyzed: Int
  let unvoicedStep: Double

  @_noLocks
  @inline(__always)
  func mark(_ index: Int) -> PitchMark { marks[index & markMask] }
}
