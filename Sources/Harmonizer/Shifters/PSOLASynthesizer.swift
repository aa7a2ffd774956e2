/// The synthesis half of pitch-synchronous overlap-add: one shifted voice rendered from a
/// ``PitchMarkAnalyzer``'s marks.
///
/// For each output period it takes the analysis mark nearest the matching input instant, cuts a
/// grain of two of its periods around it (a Hann window, not resampled) and adds it to the output
/// centred on the next synthesis mark; synthesis marks are spaced by the analysis period divided
/// by the ratio `2^(semitones / 12)`. The pitch follows the mark spacing while each grain keeps
/// the spectral envelope of the input (the formants stay where the voice put them). Grains are
/// scaled by `1/r` when they overlap more than in the input (upwards) and by `1/√r` downwards, so
/// the level stays about the same.
///
/// Where the analysis marks are unvoiced the synthesizer crossfades (over
/// ``Configuration/voicingFadeSeconds``) to the unshifted input delayed by the same latency, so
/// consonants, breath and noise pass through unchanged rather than being buzzed at a pitch.
///
/// Several synthesizers can share one analyzer (one per harmonizer voice): after each
/// ``PitchMarkAnalyzer/analyze(_:)`` of `n` frames, call ``render(from:into:)`` with `n` frames
/// on each. A class because it owns preallocated memory; used from one thread at a time.
public final class PSOLASynthesizer: @unchecked Sendable {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The glide, voicing fade and shift range.
  public let configuration: Configuration
  /// ``Configuration/maximumSemitones``, kept apart so the audio path reads a plain value.
  private let maximumSemitones: Double
  /// The output's lag behind the analyzer's input, in samples (the analyzer's
  /// ``PitchMarkAnalyzer/synthesisLatencySamples``).
  public let latencySamples: Int

  private let maximumPeriod: Int
  private let accumulator: SampleRing
  private let window: RaisedCosine
  private var glide: SemitoneGlide
  private let mixStep: Float
  /// Output samples rendered so far.
  private var rendered = 0
  private var nextSynthesisMark = 0.0
  private var grainMark = 0
  private var voicingMark = 0
  private var mix: Float = 0

  /// Creates a synthesizer for the marks of `analyzer`, and allocates its memory.
  ///
  /// - Parameters:
  ///   - analyzer: The analyzer it will render from (for its sample rate and period range).
  ///   - semitones: The starting shift (reached at once).
  ///   - configuration: Glide, voicing fade and shift range.
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for values out of range.
  public init(analyzer: PitchMarkAnalyzer, semitones: Double = 0, configuration: Configuration = .init()) throws(HarmonizerError) {
    try configuration.validate()
    sampleRate = analyzer.sampleRate
    self.configuration = configuration
    latencySamples = analyzer.synthesisLatencySamples
    maximumPeriod = analyzer.maximumPeriodSamples
    accumulator = .allocate(minimumCapacity: 4 * maximumPeriod + 64)
    window = .allocate()
    mixStep = Float(1 / max(1, configuration.voicingFadeSeconds * analyzer.sampleRate))
    glide = SemitoneGlide(semitones: 0, timeConstantSeconds: configuration.glideSeconds, sampleRate: analyzer.sampleRate)
    maximumSemitones = configuration.maximumSemitones
    glide.setTarget(semitones, limit: configuration.maximumSemitones)
    glide.settle()
  }

  deinit {
    accumulator.deallocate()
    window.deallocate()
  }

  /// The shift in semitones (positive up; clamped to ±``Configuration/maximumSemitones``; a
  /// non-finite value is ignored). A change glides in over ``Configuration/glideSeconds``.
  public var semitones: Double {
    get { glide.target }
    @_noLocks set { glide.setTarget(newValue, limit: maximumSemitones) }
  }

  /// Renders the output for the frames the analyzer analyzed last.
  ///
  /// - Parameters:
  ///   - analyzer: The analyzer, just after ``PitchMarkAnalyzer/analyze(_:)`` of
  ///     `output.count` frames (the synthesizer renders the output up to the analyzer's input).
  ///   - output: The shifted samples, lagging the input by ``latencySamples``.
  /// - Note: Real-time safe.
  @_noLocks
  public func render(from analyzer: PitchMarkAnalyzer, into output: UnsafeMutableBufferPointer<Float>) {
    render(from: analyzer.view(), into: output)
  }

  /// Renders from a view of the analyzer (what ``render(from:into:)`` does).
  @_noLocks
  func render(from analyzer: AnalysisView, into output: UnsafeMutableBufferPointer<Float>) {
    if rendered + output.count > analyzer.framesAnalyzed {
      preconditionFailure("PSOLASynthesizer.render: more frames than the analyzer has analyzed")
    }
    let markCount = analyzer.markCount
    for i in 0..<output.count {
      let n = rendered
      let ratio = glide.step()
      while nextSynthesisMark <= Double(n + maximumPeriod) {
        synthesize(from: analyzer, markCount: markCount, ratio: ratio, from: n)
      }
      let t = Double(n - latencySamples)
      while voicingMark + 1 < markCount, analyzer.mark(voicingMark + 1).position <= t { voicingMark += 1 }
      var voiced = false
      if markCount > 0 { voiced = analyzer.mark(voicingMark).isVoiced }
      mix = voiced ? min(1, mix + mixStep) : max(0, mix - mixStep)
      let wet = accumulator[n]
      accumulator[n] = 0
      let dry = analyzer.ring[n - latencySamples]
      output[i] = mix == 0 ? dry : mix * wet + (1 - mix) * dry
      rendered += 1
    }
  }

  /// Forgets the stream (call with the analyzer's ``PitchMarkAnalyzer/reset()``); the glide
  /// settles on the current target.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func reset() {
    accumulator.clear()
    rendered = 0
    nextSynthesisMark = 0
    grainMark = 0
    voicingMark = 0
    mix = 0
    glide.settle()
  }

  /// Adds the grain for the next synthesis mark (if its analysis mark is voiced) and moves on.
  @_noLocks
  private func synthesize(from analyzer: AnalysisView, markCount: Int, ratio: Double, from first: Int) {
    let s = nextSynthesisMark
    // Before the first mark, step as an unvoiced mark would: the first mark's arrival then moves
    // nothing, so the schedule does not depend on whether a block already holds it.
    guard markCount > 0 else {
      nextSynthesisMark = s + analyzer.unvoicedStep
      return
    }
    let t = s - Double(latencySamples)
    while grainMark + 1 < markCount, analyzer.mark(grainMark + 1).position <= t { grainMark += 1 }
    var mark = analyzer.mark(grainMark)
    if grainMark + 1 < markCount {
      let following = analyzer.mark(grainMark + 1)
      if following.position - t < t - mark.position { mark = following }
    }
    guard mark.isVoiced else {
      nextSynthesisMark = s + mark.periodSamples
      return
    }
    let period = mark.periodSamples
    let gain = Float(ratio >= 1 ? 1 / ratio : 1 / _unsafePerformance { ratio.squareRoot() })  // RT-audited: sqrt
    let ring = analyzer.ring
    let lo = max(first, floorInt(s - period) + 1)
    let hi = floorInt(s + period)
    if lo <= hi {
      let scale = 1 / period
      for o in lo...hi {
        let offset = Double(o) - s
        let w = window.hann(offset * scale)
        accumulator[o] += gain * w * ring.interpolated(at: mark.position + offset)
      }
    }
    nextSynthesisMark = s + period / ratio
  }
}

/// `⌊x⌋` as an integer, also below 0.
@inline(__always)
func floorInt(_ x: Double) -> Int {
  let i = Int(x)
  return Double(i) > x ? i - 1 : i
}
