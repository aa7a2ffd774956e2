import Foundation

/// The streaming front end every periodicity-based pitch estimator shares: resampling to the
/// analysis rate (``PitchConfiguration/analysisSampleRate``), framing at a fixed hop, and per
/// frame the YIN difference `d(τ)`, its cumulative mean normalized form `d′(τ)` and the
/// normalized square difference `n(τ)` (McLeod), all from one FFT correlation.
///
/// The difference function is centred: the window `a = x[c − W/2 ..< c + W/2)` around the frame's
/// centre `c` is compared with the signal `τ` later and `τ` earlier, and the two are averaged.
/// With `r(τ) = Σ_j a[j]·x[c − W/2 + j + τ]` and `E(τ)` the energy of that shifted window,
/// `d(τ) = E(0) + (E(τ) + E(−τ))/2 − (r(τ) + r(−τ))`, `d′(τ) = d(τ)·τ / Σ_{k=1…τ} d(k)` and
/// `n(τ) = (r(τ) + r(−τ)) / (E(0) + (E(τ) + E(−τ))/2)`. A one-sided difference (YIN's, aubio's)
/// looks at the window and the stretch after it, so its estimate belongs about half a period
/// plus half a window later than its frame's start suggests; the centred one belongs to `c`.
///
/// Steady noise adds to `d(τ)` at every lag and fills a note's dip. A ``NoiseFloor`` learns the
/// noise's spectrum from the frames with no period (no dip of `d′` under
/// ``noiseFrameDepth``), and ``PitchConfiguration/noiseCompensation`` of what that noise adds to
/// `d(τ)` is taken away before `d′` is formed; `n(τ) = 1 − d(τ)/m(τ)` takes the same share of the
/// noise's energy off `m(τ) = E(0) + (E(τ) + E(−τ))/2`. Where the noise is strong and steady,
/// it is subtracted from the frame's spectrum instead (``PitchConfiguration/subtractsNoise``).
///
/// Frame `k` is centred on input time `k · hop` (the stream counts as preceded by silence), so its
/// estimate is timed exactly on the hop grid. Memory is allocated in `init`; ``feed(_:from:)``
/// and ``analyzeNextFrame()`` allocate nothing and take no locks.
struct PeriodicityAnalysis: ~Copyable {
  let configuration: PitchConfiguration
  let plan: PeriodicityPlan

  // The decimator (nil without decimation), owned here and called without reference counting.
  private let resamplerOwner: Resampler?
  private let resampler: Unmanaged<Resampler>?
  private let fftOwner: SwiftFFTBackend
  let fft: Unmanaged<SwiftFFTBackend>

  /// Input frames fed per step, so that the ring never holds more than one frame plus a step.
  let inputStep: Int
  /// Input samples of delay the decimator adds.
  let decimatorDelay: Int
  /// The ring position where the first frame whose window lies wholly within the stream starts
  /// (the ring holds silence before the stream's first sample, at the first frame's centre).
  private let firstWholeFrameStart: Int

  /// What lies below the pitch range, taken out of the analysis samples as they come
  /// (``PitchConfiguration/removesRumble``).
  private var rumbleFilter: RumbleFilter

  let ringCapacity: Int
  /// The analysis samples, in ring coordinates: at least a frame, a step and the longest period.
  let ring: UnsafeMutableBufferPointer<Float>
  private let decimated: UnsafeMutableBufferPointer<Float>
  private let silence: UnsafeMutableBufferPointer<Float>
  /// The current frame, contiguous, zero-padded to the FFT size, its window's mean taken off.
  let frame: UnsafeMutableBufferPointer<Float>
  /// The analysis window's mean, taken off the current frame's samples (``removeMean()``); the
  /// ring keeps them as they came.
  private(set) var frameMean: Float = 0
  private let windowed: UnsafeMutableBufferPointer<Float>
  /// The window's spectrum `A`; once a frame is analyzed, its cross spectrum `conj(A)·B` with
  /// the frame's spectrum `B` (the spectrum of the correlation).
  let spectrumARe: UnsafeMutableBufferPointer<Float>
  let spectrumAIm: UnsafeMutableBufferPointer<Float>
  private let spectrumBRe: UnsafeMutableBufferPointer<Float>
  private let spectrumBIm: UnsafeMutableBufferPointer<Float>
  private let correlation: UnsafeMutableBufferPointer<Float>
  let prefixEnergy: UnsafeMutableBufferPointer<Double>
  /// The steady noise (see ``NoiseFloor``), what it adds to the window's correlation, the
  /// window's power spectrum (to learn from) and the frames since that correlation was computed.
  private(set) var noiseFloor: NoiseFloor
  private let noiseCorrelation: UnsafeMutableBufferPointer<Float>
  private let windowPower: UnsafeMutableBufferPointer<Float>
  private var noiseAge = 0

  /// `d′(τ)` and `n(τ)` of the last analyzed frame, for `τ` in `0...maximumLag + 1`; `n(τ)`
  /// only when asked for in `init` (McLeod's estimator), zeros otherwise.
  let normalizedDifference: UnsafeMutableBufferPointer<Float>
  let squareDifference: UnsafeMutableBufferPointer<Float>
  /// Whether ``squareDifference`` is computed.
  let computesSquareDifference: Bool
  /// `W / (W − τ)` per lag: the steady noise's correlation per sample scaled to the window.
  let noiseScale: UnsafeMutableBufferPointer<Double>
  /// Whether the learned steady noise was discounted from the last frame's `d(τ)` (and so is
  /// from its residual's, ``cancelPeriod(_:)``).
  private(set) var isCompensated = false
  /// The sum of `d(1…τ)`: over `τ`, the denominator of `d′(τ)` (``refinedDip(_:)`` divides the
  /// two it needs; the frame's loop divides no more than it must).
  private let cumulativeSum: UnsafeMutableBufferPointer<Double>
  /// ``refinedDip(_:)``'s work for the frame: the cross spectrum's real parts `Re(C_k)` in
  /// double precision and times `ω_k` and `ω_k²` (four bins a step from bin 1, as its sums run),
  /// prepared at the first refinement of a frame, and the dips already refined in it.
  private let refinement: RefinementScratch
  /// The energy of the quietest recent window (−1: none yet), allowed to rise by
  /// ``quietestRiseDecibelsPerSecond``, and that rise per hop as a factor.
  private var quietestEnergy = -1.0
  private let quietestGrowth: Double
  /// ``cancelPeriod(_:)``'s residual and its `d′`.
  let residual: ResidualPeriodicity

  /// Analysis samples written to the ring, counting the leading silence before the first centre.
  private var written: Int
  /// Input frames fed (silence fed by ``feedSilence()`` not counted).
  private(set) var inputFrames = 0
  /// The first sample (ring coordinates) of the last analyzed frame.
  private(set) var lastFrameStart = 0
  /// The index of the next frame to analyze.
  private(set) var nextFrame = 0
  /// The time (s), RMS level (dBFS) and silence of the last analyzed frame.
  private(set) var frameTime = 0.0
  private(set) var levelDBFS = -Double.infinity
  private(set) var isSilent = true
  /// How far the last frame is inside the voicing gate, 0 (closed: too quiet beside the recent
  /// peak, or silent) ... 1 (open), with a 6 dB ramp below the gate's level.
  private(set) var voicingGate = 0.0
  /// The learned steady noise's energy over the last frame's window as a share of the window's
  /// energy (0 while no noise is learned).
  private(set) var noiseShare = 0.0
  /// How much the last frame's periods count, by how far it rises over the steady noise it was
  /// denoised of (``PitchConfiguration/subtractsNoise``): fully while the noise is at most
  /// ``heldNoiseShare`` of its energy, falling to ``noiseOnlyWeight`` at ``noiseOnlyShare``; 1 for
  /// a frame not denoised.
  private(set) var noiseWeight = 1.0
  /// The recent peak level, in dBFS.
  private var peakLevel = -Double.infinity
  /// The last frame's mean square (0 before the first frame), for ``backgroundLevel(meanSquare:)``.
  private var previousMeanSquare = 0.0
  /// A steady periodic sound under the music (mains hum), learned from the quietest frames; the
  /// estimators ask it how much a candidate period counts (``PeriodicBackground/weight(period:levelDBFS:)``).
  private(set) var background: PeriodicBackground

  /// - Parameters:
  ///   - configuration: Sample rate, range, hop and window.
  ///   - computesSquareDifference: Whether to compute `n(τ)` (``squareDifference``) too.
  init(configuration: PitchConfiguration, computesSquareDifference: Bool = false) throws(PitchDSPError) {
    try configuration.validate()
    let plan = PeriodicityPlan(configuration)
    // Everything that can throw comes first: a noncopyable value is initialized all at once.
    let decimator =
      plan.decimation > 1 || plan.interpolation > 1
      ? try Resampler(
        inputRate: configuration.sampleRate, outputRate: plan.analysisRate, quality: configuration.decimatorQuality,
        maximumInputFrames: max(configuration.hopSize, 64), compensatesLatency: false,
        bandRate: plan.bandRate)
      : nil
    let fft = try SwiftFFTBackend(size: plan.fftSize)
    self.configuration = configuration
    self.plan = plan
    resamplerOwner = decimator
    resampler = decimator.map { Unmanaged.passUnretained($0) }
    decimatorDelay = decimator?.latencyFrames ?? 0
    firstWholeFrameStart = plan.windowLength / 2 + decimatorDelay * plan.interpolation / plan.decimation
    fftOwner = fft
    self.fft = Unmanaged.passUnretained(fft)
    inputStep = max(configuration.hopSize, 64)
    let maximumStepOutput = decimator?.maximumOutputFrames(forInputFrames: inputStep) ?? inputStep
    var capacity = 1
    // A frame, a step and the longest period before the frame (for ``cancelPeriod(_:)``).
    let needed =
      plan.frameLength + maximumStepOutput + plan.decimation + plan.interpolation + plan.maximumLag + 6
    while capacity < needed { capacity <<= 1 }
    ringCapacity = capacity
    rumbleFilter = RumbleFilter(
      cutoffHz: RumbleFilter.cutoffShare * configuration.minimumFrequencyHz, sampleRate: plan.analysisRate)
    ring = .zeroed(capacity)
    decimated = .zeroed(maximumStepOutput)
    silence = .zeroed(inputStep)
    frame = .zeroed(plan.fftSize)
    windowed = .zeroed(plan.fftSize)
    let bins = plan.fftSize / 2 + 1
    spectrumARe = .zeroed(bins)
    spectrumAIm = .zeroed(bins)
    spectrumBRe = .zeroed(bins)
    spectrumBIm = .zeroed(bins)
    correlation = .zeroed(plan.fftSize)
    prefixEnergy = .zeroed(plan.fftSize + 1)
    noiseFloor = NoiseFloor(bins: bins)
    noiseCorrelation = .zeroed(plan.fftSize)
    windowPower = .zeroed(bins)
    normalizedDifference = .zeroed(plan.maximumLag + 2)
    self.computesSquareDifference = computesSquareDifference
    noiseScale = .zeroed(plan.maximumLag + 2)
    for tau in 0..<noiseScale.count {
      noiseScale[tau] = Double(plan.windowLength) / Double(max(1, plan.windowLength - tau))
    }
    squareDifference = .zeroed(plan.maximumLag + 2)
    cumulativeSum = .zeroed(plan.maximumLag + 2)
    refinement = RefinementScratch(bins: plan.fftSize / 2)
    residual = ResidualPeriodicity(plan: plan)
    written = plan.centreOffset
    let hopSeconds = Double(configuration.hopSize) / configuration.sampleRate
    quietestGrowth = pow(10, Self.quietestRiseDecibelsPerSecond * hopSeconds / 10)
    background = PeriodicBackground(hopSeconds: hopSeconds, analysisRate: plan.analysisRate)
  }

  deinit {
    for b in [
      ring, decimated, silence, frame, windowed, spectrumARe, spectrumAIm, spectrumBRe, spectrumBIm, correlation,
      noiseCorrelation, windowPower,
    ] {
      b.deallocate()
    }
    noiseFloor.deallocate()
    prefixEnergy.deallocate()
    noiseScale.deallocate()
    normalizedDifference.deallocate()
    squareDifference.deallocate()
    cumulativeSum.deallocate()
    refinement.deallocate()
    residual.deallocate()
  }

  /// The seconds from a sample's arrival until the frame centred on it can be analyzed: half a
  /// frame, plus the decimator's delay.
  var latencySeconds: Double {
    Double(plan.frameLength - plan.centreOffset) / plan.analysisRate + Double(decimatorDelay) / configuration.sampleRate
  }

  /// The most frames `count` input frames can complete, or (for 0) the frames still pending at
  /// the end of a stream: for sizing output buffers.
  func maximumFrames(forInputFrames count: Int) -> Int {
    count / configuration.hopSize + Int(latencySeconds / configuration.hopSeconds) + 4
  }

  /// Runs a block through the analysis and `decision`, one estimate per frame.
  ///
  /// - Returns: The number of estimates written to the start of `estimates`.
  @_noLocks
  mutating func run(
    _ frames: UnsafeBufferPointer<Float>, into estimates: UnsafeMutableBufferPointer<PitchEstimate>,
    deciding decision: FrameDecision
  ) -> Int {
    var offset = 0
    var produced = 0
    while advance(frames, offset: &offset) {
      // Programmer error: `estimates` smaller than `maximumEstimates(forFrames:)`.
      guard produced < estimates.count else { fatalError() }
      estimates[produced] = decision.decide(self)
      produced += 1
    }
    return produced
  }

  /// Ends the stream: the estimates of the frames still pending, as if silence followed.
  ///
  /// - Returns: The number of estimates written to the start of `estimates`.
  @_noLocks
  mutating func finish(into estimates: UnsafeMutableBufferPointer<PitchEstimate>, deciding decision: FrameDecision) -> Int {
    var produced = 0
    while advanceToEnd() {
      guard produced < estimates.count else { fatalError() }
      estimates[produced] = decision.decide(self)
      produced += 1
    }
    return produced
  }

  /// Starts a new stream: silence before it, nothing analyzed.
  mutating func reset() {
    ring.update(repeating: 0)
    written = plan.centreOffset
    inputFrames = 0
    nextFrame = 0
    frameTime = 0
    levelDBFS = -.infinity
    isSilent = true
    voicingGate = 0
    peakLevel = -.infinity
    previousMeanSquare = 0
    noiseFloor.reset()
    noiseAge = 0
    quietestEnergy = -1
    background.reset()
    rumbleFilter.reset()
    if let resampler { resampler._withUnsafeGuaranteedRef { $0.reset() } }
  }

  /// Feeds up to ``inputStep`` frames of `input` from `offset` and returns how many it took.
  /// Call ``analyzeNextFrame()`` until it returns `false` before feeding more.
  ///
  /// NaN and ±∞ samples count as silence.
  @_noLocks
  mutating func feed(_ input: UnsafeBufferPointer<Float>, from offset: Int) -> Int {
    let count = min(inputStep, input.count - offset)
    guard count > 0, let base = input.baseAddress else { return 0 }
    inputFrames += count
    let chunk = UnsafeBufferPointer(start: base + offset, count: count)
    if let resampler {
      let output = decimated
      let produced = resampler._withUnsafeGuaranteedRef { $0.process(input: chunk, output: output) }
      append(UnsafeBufferPointer(start: decimated.baseAddress, count: produced))
    } else {
      append(chunk)
    }
    return count
  }

  /// Feeds one step (``inputStep`` frames) of silence, to flush the last frames at the end of a
  /// stream; call ``analyzeNextFrame()`` until it returns `false` after each step.
  @_noLocks
  mutating func feedSilence() {
    let before = inputFrames
    _ = feed(UnsafeBufferPointer(silence), from: 0)
    inputFrames = before
  }

  /// Whether the frames covering every input frame fed so far have been analyzed.
  var hasAnalyzedAllInput: Bool {
    nextFrame * configuration.hopSize >= inputFrames
  }

  /// Analyzes the next frame, feeding `input` from `offset` as needed; returns `false` once
  /// `input` is used up and no frame is ready. Callers loop until `false`, reading each frame.
  @_noLocks
  mutating func advance(_ input: UnsafeBufferPointer<Float>, offset: inout Int) -> Bool {
    while !analyzeNextFrame() {
      guard offset < input.count else { return false }
      offset += feed(input, from: offset)
    }
    return true
  }

  /// At the end of a stream: analyzes the next frame that covers input fed so far, feeding
  /// silence as needed; returns `false` when every such frame is analyzed.
  @_noLocks
  mutating func advanceToEnd() -> Bool {
    while !hasAnalyzedAllInput {
      if analyzeNextFrame() { return true }
      feedSilence()
    }
    return false
  }

  @_noLocks
  private mutating func append(_ samples: UnsafeBufferPointer<Float>) {
    let mask = ringCapacity - 1
    if configuration.removesRumble {
      for x in samples {
        ring[written & mask] = rumbleFilter.process(x)
        written += 1
      }
    } else {
      for x in samples {
        ring[written & mask] = x.isFinite ? x : 0
        written += 1
      }
    }
  }

  /// The first analysis sample (ring coordinates) of frame `k`.
  private func frameStart(_ k: Int) -> Int {
    // The centre, in analysis samples, rounded down; ring coordinates already carry the leading
    // silence up to the first centre, so this is where the frame starts in the ring.
    (k * configuration.hopSize + decimatorDelay) * plan.interpolation / plan.decimation
  }

  /// Analyzes the next frame if the input for it has arrived; returns `false` otherwise.
  @_noLocks
  private mutating func analyzeNextFrame() -> Bool {
    let start = frameStart(nextFrame)
    let n = plan.frameLength
    guard start + n <= written else { return false }
    frameTime = Double(nextFrame) * Double(configuration.hopSize) / configuration.sampleRate
    lastFrameStart = start
    nextFrame += 1
    refinement.forgetFrame()
    let mask = ringCapacity - 1
    let size = plan.fftSize
    let w = plan.windowLength
    // The frame from the ring, two contiguous runs at most; its tail up to the FFT size stays
    // zero from `init`.
    let first = start & mask
    let head = min(n, ringCapacity - first)
    let floatSize = MemoryLayout<Float>.stride
    UnsafeMutableRawPointer(frame.baseAddress!).copyMemory(from: ring.baseAddress! + first, byteCount: head * floatSize)
    if head < n {
      UnsafeMutableRawPointer(frame.baseAddress! + head).copyMemory(from: ring.baseAddress!, byteCount: (n - head) * floatSize)
    }
    removeMean()

    computePrefixEnergy()
    let margin = plan.lagMargin
    let rawWindowEnergy = prefixEnergy[margin + w] - prefixEnergy[margin]
    // Digital silence counts as −120 dBFS, from where the quietest energy can rise again.
    let floored = max(rawWindowEnergy, 1e-12 * Double(w))
    quietestEnergy = quietestEnergy < 0 ? floored : min(floored, quietestEnergy * quietestGrowth)
    let meanSquare = rawWindowEnergy / Double(w)
    // RT-audited: libm's log10 is a pure function; it neither allocates nor locks.
    levelDBFS = meanSquare > 0 ? 10 * _unsafePerformance { log10(meanSquare) } : -.infinity
    let backgroundLevelDBFS = backgroundLevel(meanSquare: meanSquare)
    previousMeanSquare = meanSquare
    // Below −120 dBFS over the window there is nothing to analyze.
    isSilent = meanSquare <= 1e-12
    noiseShare = 0
    noiseWeight = 1
    let hopSeconds = Double(configuration.hopSize) / configuration.sampleRate
    peakLevel = max(levelDBFS, peakLevel - configuration.peakDecayDecibelsPerSecond * hopSeconds)
    let gateLevel = peakLevel - configuration.voicingRangeDecibels
    voicingGate = isSilent ? 0 : max(0, min(1, (levelDBFS - gateLevel) / 6 + 1))
    if isSilent {
      for tau in 0...margin {
        normalizedDifference[tau] = 1
        squareDifference[tau] = 0
      }
      return true
    }

    let fft = self.fft
    let compensation = configuration.noiseCompensation
    // The steady noise's share of d(τ), 2·W·(R(0) − R(τ)) with R its autocorrelation per sample
    // (C(τ) ≈ (W − τ)·R(τ) over the window), is taken away, but never more than that share of
    // d(τ) itself; the noise changes slowly, and its correlation is recomputed every eighth
    // frame if anything was learned since.
    var compensating = false
    if compensation > 0, noiseFloor.frames >= noiseFloor.framesNeeded {
      if noiseAge == 0, noiseFloor.hasChanged { noiseFloor.correlation(using: fft, into: noiseCorrelation) }
      noiseAge = (noiseAge + 1) % 8
      compensating = true
    }
    let noiseZero = Double(noiseCorrelation[0])
    noiseShare = compensating && rawWindowEnergy > 0 ? min(1, noiseZero / rawWindowEnergy) : 0
    // r(τ) = Σ_j a[j]·x[j+τ], with the window a kept where it is in the frame (from `margin`):
    // A = F(a), B = F(x), r = F⁻¹(conj(A)·B), with r(−τ) at index size − τ (no wrap-around:
    // every j + τ stays inside the frame). Keeping the window in place also leaves conj(A)·B
    // as the spectrum of r itself, which ``refinedLag(_:)`` interpolates.
    let (aRe, aIm, bRe, bIm) = (spectrumARe, spectrumAIm, spectrumBRe, spectrumBIm)
    let (input, whole, output) = (UnsafeBufferPointer(windowed), UnsafeBufferPointer(frame), correlation)
    // Only the window's span is ever written: the rest of `windowed` stays zero from `init`.
    for i in margin..<(margin + w) { windowed[i] = frame[i] }
    fft._withUnsafeGuaranteedRef { $0.forwardReal(input, real: aRe, imaginary: aIm) }
    if compensation > 0 {
      for k in 0...(size / 2) { windowPower[k] = aRe[k] * aRe[k] + aIm[k] * aIm[k] }
    }
    // Under strong steady noise, the noise is subtracted from the frame's spectrum instead of
    // discounted (the window's power above, which the noise floor learns from, stays the raw one).
    // `subtractNoise()` leaves the denoised frame's spectrum in B (before the frame is cut to
    // its length: the correlation at the lags used never reaches past it).
    if configuration.subtractsNoise, compensating, noiseShare > Self.subtractionNoiseShare,
      quietestEnergy >= Self.steadyNoiseRatio * noiseZero
    {
      subtractNoise()
      let aboveNoise = (Self.noiseOnlyShare - noiseShare) / (Self.noiseOnlyShare - Self.heldNoiseShare)
      noiseWeight = Self.noiseOnlyWeight + (1 - Self.noiseOnlyWeight) * max(0, min(1, aboveNoise))
      for i in margin..<(margin + w) { windowed[i] = frame[i] }
      fft._withUnsafeGuaranteedRef { $0.forwardReal(input, real: aRe, imaginary: aIm) }
      compensating = false
    } else {
      fft._withUnsafeGuaranteedRef { $0.forwardReal(whole, real: bRe, imaginary: bIm) }
    }
    isCompensated = compensating
    multiplyConjugate(aRe, aIm, by: bRe, bIm)
    fft._withUnsafeGuaranteedRef {
      $0.inverseReal(real: UnsafeBufferPointer(aRe), imaginary: UnsafeBufferPointer(aIm), output: output)
    }

    // The noise's energy in the window and its shifted copy, 2·C(0), to take off m(τ) likewise.
    let noiseEnergyShare = compensation * 2 * noiseZero
    let windowEnergy = prefixEnergy[margin + w] - prefixEnergy[margin]
    var cumulative = 0.0
    var plainCumulative = 0.0
    var plainDeepest = Double.infinity  // the uncompensated d′'s deepest point in the lag range
    let learning = compensation > 0
    normalizedDifference[0] = 1
    squareDifference[0] = 1
    for tau in 1...margin {
      let correlationSum = Double(correlation[tau]) + Double(correlation[size - tau])
      let m = windowEnergy + shiftedWindowEnergy(prefixEnergy, margin: margin, window: w, lag: tau)
      let plain = max(0, m - correlationSum)
      plainCumulative += plain
      if learning, tau >= plan.minimumLag, plainCumulative > 0 {
        plainDeepest = min(plainDeepest, plain * Double(tau) / plainCumulative)
      }
      var d = plain
      var energy = m
      if compensating {
        d = Self.discountingNoise(
          plain, zero: noiseZero, atLag: Double(noiseCorrelation[tau]), scale: noiseScale[tau],
          compensation: compensation)
        energy = max(m - noiseEnergyShare, (1 - compensation) * m)
      }
      cumulative += d
      cumulativeSum[tau] = cumulative
      normalizedDifference[tau] = cumulative > 0 ? Float(d * Double(tau) / cumulative) : 1
      // n(τ) = 2r(τ)/m(τ) = 1 − d(τ)/m(τ), from the compensated d and m.
      if computesSquareDifference {
        squareDifference[tau] = energy > 0 ? Float(max(-1, min(1, 1 - d / energy))) : 0
      }
    }
    // A frame without a period is noise to learn from.
    if learning, plainDeepest > Self.noiseFrameDepth { noiseFloor.learn(windowPower) }
    // One at the quietest level, well under the peak or at a mains period, may be a periodic
    // background's; not one whose window still reaches before the stream (the leading silence
    // would set the quietest level under a hum that starts with the stream).
    if configuration.ignoresPeriodicBackground, lastFrameStart >= firstWholeFrameStart,
      background.admits(levelDBFS: backgroundLevelDBFS, peakDBFS: peakLevel)
    {
      background.observe(levelDBFS: backgroundLevelDBFS, period: backgroundFramePeriod())
    }
    return true
  }

  /// The level (dBFS) at which a frame is offered to the ``background``: that of the mean of its
  /// mean square and the frame's before it. A hum whose period does not divide the window (50 Hz:
  /// 1.75 periods in 35 ms) reads louder and quieter on alternate frames (at a 10 ms hop it moves
  /// half a period a frame), by about 2 dB, as much as ``PeriodicBackground/levelMargin``; two
  /// frames together cover both phases and read it steady.
  @_noLocks
  private func backgroundLevel(meanSquare: Double) -> Double {
    let pair = previousMeanSquare > 0 ? (meanSquare + previousMeanSquare) / 2 : meanSquare
    // RT-audited: libm's log10 is a pure function; it neither allocates nor locks.
    return pair > 0 ? 10 * _unsafePerformance { log10(pair) } : -.infinity
  }

  /// YIN's rule: the first lag of the range where `d′` is below `depth`, and the bottom of the dip
  /// from there (at most the range's last lag); `nil` when `d′` is nowhere below it.
  @_noLocks
  func firstDip(below depth: Float) -> (start: Int, bottom: Int)? {
    let d = normalizedDifference
    var tau = plan.minimumLag
    while tau <= plan.maximumLag, d[tau] >= depth { tau += 1 }
    guard tau <= plan.maximumLag else { return nil }
    let start = tau
    while tau + 1 <= plan.maximumLag, d[tau + 1] < d[tau] { tau += 1 }
    return (start, tau)
  }

  /// The period a frame at the quietest level shows the periodic background: the first dip of `d′`
  /// below ``PeriodicBackground/periodicDepth``; without one, a trace of mains hum (`d′` below
  /// ``PeriodicBackground/heldDepth``): before anything louder was heard, the first such dip
  /// (``tracePeriod()``; only a mains period makes it a background frame then); later, the
  /// established mains background's own period, or the last one established
  /// (``PeriodicBackground/knownMainsPeriod``) once it was forgotten, if `d′` dips that low within
  /// ``PeriodicBackground/heldTolerance`` of it. Noise as loud as the hum keeps its dip near 0.5:
  /// without the trace such a hum was never established, or lost for good once forgotten (pYIN
  /// voiced 0.55–0.70 of the unvoiced frames with it). Not allowed: the trace of any period after
  /// something louder (a note's tail in noise became a background), nor the lowest point near each
  /// mains period instead of the first dip (a note's period has multiples near them: a 698 Hz tail
  /// set up 100 Hz). Around a known period, the trace's place is the noise's as much as the hum's:
  /// it confirms the period, never moves it.
  @_noLocks
  private func backgroundFramePeriod() -> Double? {
    if let period = firstPeriod(below: background.periodicDepth) { return period }
    guard background.isEstablished else {
      if !background.hasHeardLouder { return tracePeriod() }
      let known = background.knownMainsPeriod
      return known > 0 && showsTrace(of: known) ? known : nil
    }
    let held = background.period
    return held > 0 && background.isMains(period: held) && showsTrace(of: held) ? held : nil
  }

  /// The period of the first dip of `d′` below ``PeriodicBackground/heldDepth``, past any ripple
  /// on its flank (``pastFlank(_:)``: noise as loud as a hum ripples the hum's broad dip,
  /// and the first trough read it 1–5 % sharp), from the parabola; `nil` without one. A note's
  /// period comes first where a note sounds, so a multiple of it near a mains period is no trace.
  @_noLocks
  private func tracePeriod() -> Double? {
    guard let dip = firstDip(below: background.heldDepth), dip.bottom < plan.maximumLag else { return nil }
    let bottom = pastFlank(dip.bottom)
    return Double(bottom) + parabolicOffset(normalizedDifference, at: bottom)
  }

  /// Whether `d′` dips below ``PeriodicBackground/heldDepth`` within
  /// ``PeriodicBackground/heldTolerance`` of `period` (its lowest point there inside the range).
  @_noLocks
  private func showsTrace(of period: Double) -> Bool {
    let low = max(plan.minimumLag, Int(period * (1 - background.heldTolerance)))
    let high = min(plan.maximumLag - 1, Int(period * (1 + background.heldTolerance)) + 1)
    guard low < high, let deepest = Self.interiorMinimum(of: normalizedDifference, from: low, through: high)
    else { return false }
    return normalizedDifference[deepest] < background.heldDepth
  }

  /// The period of the first dip of `d′` below `depth` (``firstDip(below:)``, after
  /// ``periodLag(startingAt:)``, from the parabola through its samples), in analysis samples; `nil`
  /// when `d′` dips below it nowhere or only at the end of the range.
  @_noLocks
  private func firstPeriod(below depth: Float) -> Double? {
    guard let dip = firstDip(below: depth), dip.bottom < plan.maximumLag else { return nil }
    let period = periodLag(startingAt: dip.bottom)
    return Double(period) + parabolicOffset(normalizedDifference, at: period)
  }
}

extension PeriodicityAnalysis {
  /// The noise is subtracted (``PitchConfiguration/subtractsNoise``) from frames whose learned
  /// steady noise holds more than this share of the window's energy...
  static let subtractionNoiseShare = 0.1
  /// ...when the quietest recent window holds at least this share of the noise's energy (steady
  /// noise is under every window; renders with digital silence between notes, whose "noise" is
  /// learned from attacks and release tails, are left alone)...
  static let steadyNoiseRatio = 0.5
  /// ...where the quietest window's energy may rise by this much per second (digital silence
  /// counting as −120 dBFS: after a lead-in of silence, noise at −60 dBFS counts as steady
  /// after about 10 s; 20 dB/s let the subtraction into clean renders, −8 and −6 frames).
  static let quietestRiseDecibelsPerSecond = 6.0
  /// A denoised frame's periods count fully while the steady noise holds at most this share of
  /// its energy (a note down to 15 dB under the noise)...
  static let heldNoiseShare = 0.965
  /// ...and only ``noiseOnlyWeight`` of it from this share on (23 dB under it, or the noise alone:
  /// the share of a noise-only window scatters around 1, capped there). Pink noise at 10 dB SNR
  /// had both decoders voice runs of a few frames at random pitches in the rests, in frames
  /// that do not rise over the noise and give little evidence of any pitch. Zero weight lost the
  /// tails a note still has under the noise (a piano's, a plucked synthesized tone's) too; a quarter
  /// keeps the path through a tail the frames before it started, where a run begun in the noise
  /// stays unvoiced. Measured on `Evaluation/pitch` (FluidR3 at 10 dB): false alarms 0.038 → 0.019,
  /// raw pitch accuracy 0.963 → 0.960 (the renders −0.001; decaying tails under the noise).
  static let noiseOnlyShare = 0.995
  /// See ``noiseOnlyShare``.
  static let noiseOnlyWeight = 0.25
  /// Power spectral subtraction's over-subtraction factor (Berouti et al. 1979) and floor: each
  /// bin is scaled by `max(floor, 1 − factor·N/|X|²)`.
  static let overSubtraction: Float = 1.5
  static let subtractionFloor: Float = 0.1

  /// Takes the learned steady noise out of the frame (``overSubtraction``, ``subtractionFloor``),
  /// recomputes its prefix energies and leaves the denoised spectrum in `spectrumB`.
  @_noLocks
  private mutating func subtractNoise() {
    let size = plan.fftSize
    let n = plan.frameLength
    let (bRe, bIm) = (spectrumBRe, spectrumBIm)
    let fft = self.fft
    let whole = UnsafeBufferPointer(frame)
    fft._withUnsafeGuaranteedRef { $0.forwardReal(whole, real: bRe, imaginary: bIm) }
    let noise = noiseFloor.power
    // The noise was learned over the window; the frame is longer.
    let scale = Self.overSubtraction * Float(n) / Float(plan.windowLength)
    let floorGain = Self.subtractionFloor
    for k in 0...(size / 2) {
      let p = bRe[k] * bRe[k] + bIm[k] * bIm[k]
      let g = p > 0 ? max(floorGain, 1 - scale * noise[k] / p) : floorGain
      bRe[k] *= g
      bIm[k] *= g
    }
    // The denoised frame, in `correlation` for now (its spectrum stays in B).
    let output = correlation
    fft._withUnsafeGuaranteedRef {
      $0.inverseReal(real: UnsafeBufferPointer(bRe), imaginary: UnsafeBufferPointer(bIm), output: output)
    }
    for i in 0..<n { frame[i] = output[i] }
    computePrefixEnergy()
  }

  /// Takes the analysis window's mean off the frame's samples (the padding past the frame stays
  /// zero), into ``frameMean``, when the mean is more than ``offsetFloor`` and holds more than
  /// ``offsetShare`` of the window's energy: a constant shift of the whole frame, which leaves
  /// `d(τ)` as it is and the window's energy its own without the offset (the frame's mean instead
  /// would turn a silent window beside a click into a constant, no longer silent). A constant
  /// offset in the input (a microphone's or an interface's DC) leaves `d(τ)` as it is too, but it
  /// dominates the energies and the correlation `d(τ)` is computed from, whose difference then
  /// drowns in their single-precision rounding: with 0.05 of offset, pYIN voiced 0.90 of the
  /// unvoiced frames of `Evaluation/pitch`'s clean files (FluidR3) and MPM read 0.71 of the
  /// renders right. Frame by frame, unlike a high-pass filter, nothing of a note (its waveform's
  /// own offset) rings on into the rest after it (a 10 Hz one-pole DC blocker before the analysis
  /// added false alarms there, pYIN's on the clean files 0.0152 → 0.0156; a 0.5 Hz one many more,
  /// the French horn's 8 → 115 frames).
  @_noLocks
  private mutating func removeMean() {
    let (n, start, w) = (plan.frameLength, plan.lagMargin, plan.windowLength)
    let samples = UnsafeRawPointer(frame.baseAddress! + start)
    let lanes = SIMD8<Float>.scalarCount
    var sums = SIMD8<Float>.zero
    var squares = SIMD8<Float>.zero
    var i = 0
    while i + lanes <= w {
      let x = samples.loadUnaligned(fromByteOffset: i &* MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
      sums += x
      squares += x * x
      i += lanes
    }
    var total = Double(sums.sum())
    var energy = Double(squares.sum())
    while i < w {
      let x = Double(frame[start + i])
      total += x
      energy += x * x
      i += 1
    }
    let mean = total / Double(w)
    let isOffset = abs(mean) > Self.offsetFloor && mean * mean > Self.offsetShare * energy / Double(w)
    frameMean = isOffset ? Float(mean) : 0
    guard frameMean != 0 else { return }
    for k in 0..<n { frame[k] -= frameMean }
  }

  /// The share of the window's energy its mean must hold to be taken off (``removeMean()``),
  /// −7 dB. A low note's window holds less than two of its periods, whose mean can hold a tenth
  /// of the energy; taking the mean off such frames too lowers their level and raises the
  /// noise's share, and moved the figures under noise (at a twentieth, YIN and pYIN at 0 dB SNR
  /// by −0.005).
  static let offsetShare = 0.2
  /// The least mean taken off (``removeMean()``), −60 dBFS: a near-silent stretch's own tiny
  /// offset (the onset evaluation's 16-bit renders carry 5·10⁻⁵ in their lead-ins) holds most of
  /// its energy, and taking it off in some frames and not in others made the level jump by tens
  /// of dB there; `etude notes`, which segments by that level, found note starts in it (note-start
  /// F1 0.969 → 0.927 on the piano renders without this floor).
  static let offsetFloor = 1e-3

  /// The frame's energies: prefix sums of its squares, in double precision.
  @_noLocks
  private func computePrefixEnergy() {
    var sum = 0.0
    prefixEnergy[0] = 0
    for i in 0..<plan.frameLength {
      let x = Double(frame[i])
      sum += x * x
      prefixEnergy[i + 1] = sum
    }
  }

  /// `d(τ)` less `compensation` of what steady noise adds to it, `2·(C(0) − C(τ))` with `C` the
  /// noise's correlation over the window (`zero` = `C(0)`; `atLag`, the correlation at `τ`, scaled
  /// to the window by `scale`), but never more than that share of `d(τ)` itself: for the frame's
  /// `d(τ)` and its residual's (``cancelPeriod(_:)``) alike.
  @_noLocks
  static func discountingNoise(_ d: Double, zero: Double, atLag: Double, scale: Double, compensation: Double)
    -> Double
  {
    let noise = 2 * (zero - atLag * scale)
    return max(d - compensation * noise, (1 - compensation) * d)
  }

  /// A frame whose (uncompensated) `d′` dips nowhere below this is noise, for ``NoiseFloor``
  /// to learn from.
  static let noiseFrameDepth = 0.5

  /// A dip of `d′` whose value is at least this far from zero may hand over to its double.
  static let subharmonicFloor: Float = 0.02
  /// The double's dip must be at most this fraction of the dip's own value.
  static let subharmonicRatio: Float = 0.25
  /// The triple's dip must be at most this fraction of the dip's own value: stricter, because two
  /// notes a fourth or a fifth apart (the room's ring of the previous note under the next) share
  /// a period near three times the higher one's, where they mostly dip to 0.06–0.2 of its own
  /// dip in the project's reverberant renders (one oboe note's first 100 ms to 0.02: the live
  /// decoder reads them a twelfth low); a weak fundamental under a strong third harmonic (a
  /// rendered bassoon) dips to 0.005–0.04 of it.
  static let subtripleRatio: Float = 0.05
  /// A dip may hand over to its triple only when its own value is at least this: under a strong
  /// third harmonic the fundamental's other partials keep the dip at a third of the period
  /// shallow for the whole note, while a note under the ring of the previous one dips deeper
  /// at its own period as it takes over.
  static let subtripleFloor: Float = 0.15
  /// A dip may hand over to its triple only when `d′` stays at least this high around 1.5 times
  /// its lag: a weak fundamental under a strong third harmonic leaves it there at 1.5 or more
  /// (the third harmonic does not repeat at twice the fundamental's period); a note a fifth
  /// below still sounding dips it (0.01–0.95 over a violin's legato attack).
  static let subtripleFifthFloor: Float = 1

  /// The lag of the true period when the dip of `d′` at `tau` is a half or a third of it: when
  /// the dip near `2·tau` is at most a quarter as deep (compared at their parabolas' vertices)
  /// while `tau`'s own dip is clearly above zero (``subharmonicRatio``, ``subharmonicFloor``),
  /// or else the dip near `3·tau` at most a twentieth as deep while `tau`'s own dip is shallow
  /// and `d′` has no dip at `1.5·tau` (``subtripleRatio``, ``subtripleFloor``,
  /// ``subtripleFifthFloor``), the signal repeats far better every `2·tau`
  /// (`3·tau`) than every `tau`, which happens when a weak fundamental sits under a strong second
  /// or third harmonic (a bassoon's or a contrabass's low notes, whose formant lifts one harmonic
  /// 10–30 dB over the others): then the period is that multiple. Returns `tau` otherwise.
  ///
  /// A clean tone (both dips near zero) and a noisy one (both raised alike) are left alone.
  @_noLocks
  func periodLag(startingAt tau: Int) -> Int {
    let d = normalizedDifference
    let depth = parabolicExtremum(d, at: tau)
    if depth > Self.subharmonicFloor, let double = multipleDip(of: tau, times: 2),
      parabolicExtremum(d, at: double) < Self.subharmonicRatio * depth
    {
      // A cheap look at the parabolas first; then the exact dips (a period between samples reads
      // too shallow at its samples, even at the vertex).
      let own = refinedDip(tau).depth
      if own > Self.subharmonicFloor, refinedDip(double).depth < Self.subharmonicRatio * own { return double }
    }
    // The triple's test is coarse enough for the parabolas (its own dip is shallow). The note a
    // fifth below (period 1.5·tau) shares the period 3·tau too: when it still sounds (a legato
    // step up a fifth, its attack under the old note), `d′` dips at 1.5·tau; under a strong
    // third harmonic it cannot (that harmonic is odd to the period 1.5·tau).
    if depth > Self.subtripleFloor, let triple = multipleDip(of: tau, times: 3),
      parabolicExtremum(d, at: triple) < Self.subtripleRatio * depth,
      lowest(from: (3 * tau) / 2 - (3 * tau) / 40, to: (3 * tau) / 2 + (3 * tau) / 40) >= Self.subtripleFifthFloor
    {
      return triple
    }
    return tau
  }

  /// The lowest `d′` over `from...to` (lags from 1 on).
  @_noLocks
  private func lowest(from: Int, to: Int) -> Float {
    let first = max(1, from)
    var value = Float.infinity
    for lag in first...max(first, to) { value = min(value, normalizedDifference[lag]) }
    return value
  }

  /// The lag of the dip of `d′` near `multiple · tau`, or `nil` when there is no dip there or it
  /// lies past the lag range. The search reaches 2.5 % either way round the double; round the
  /// triple, 5 % plus three times `tau`'s rounding to a whole lag, because the shallow dip at a
  /// third of the period sits between the strong partial's and its neighbours' and reads up to a
  /// quarter tone off. (So wide a search round the double finds other dips: a piano's stretched
  /// partials.)
  @_noLocks
  private func multipleDip(of tau: Int, times multiple: Int) -> Int? {
    Self.multipleDip(in: normalizedDifference, of: tau, times: multiple, maximumLag: plan.maximumLag)
  }

  /// ``multipleDip(of:times:)`` in any difference function `d` whose lags run to `maximumLag`
  /// (a residual's too: ``NewestNoteFinder/residualPeriod(_:plan:referenceLag:)``).
  @_noLocks
  static func multipleDip(
    in d: UnsafeMutableBufferPointer<Float>, of tau: Int, times multiple: Int, maximumLag: Int
  ) -> Int? {
    let target = multiple * tau
    let reach = multipleReach(of: tau, times: multiple)
    guard target - reach > tau, target + reach < maximumLag else { return nil }
    return interiorMinimum(of: d, from: target - reach, through: target + reach)
  }

  /// The lag of the lowest `d` in `low...high` (the first, if several) when it lies inside the
  /// range: a dip's bottom, not the range's edge on a slope; `nil` otherwise.
  @_noLocks
  static func interiorMinimum(
    of d: UnsafeMutableBufferPointer<Float>, from low: Int, through high: Int
  ) -> Int? {
    var best = low
    for lag in low...high where d[lag] < d[best] { best = lag }
    return best > low && best < high ? best : nil
  }

  /// The bottom of the deepest trough of `d′` within an eighth of `lag` past it, followed while
  /// there is a deeper one (lags below the range's longest); `lag` itself when none is deeper. A dip
  /// just before a deeper one is a ripple on its flank, not a period (the stretched partials of
  /// a piano's or a bass string's low notes, beating): taken as the first dip, it read a piano's
  /// E2 a semitone sharp for most of the note. Multiples of one period lie at least 9/8 apart up
  /// to the eighth, so this never leaves the period for its octave (as in
  /// ``ProbabilisticYINCandidates``'s side troughs). YIN's period and the periodic background's
  /// trace start from it.
  @_noLocks
  func pastFlank(_ lag: Int) -> Int {
    let (d, maximumLag) = (normalizedDifference, plan.maximumLag)
    var bottom = lag
    var searched = lag
    while true {
      var deeper = bottom
      let end = min(maximumLag - 1, bottom + bottom / 8)
      var tau = searched + 1
      while tau <= end {
        if d[tau] < d[deeper], d[tau] < d[tau - 1], d[tau] <= d[tau + 1] { deeper = tau }
        tau += 1
      }
      guard deeper != bottom else { return bottom }
      searched = end
      bottom = deeper
    }
  }

  /// How far ``multipleDip(of:times:)`` searches either way round `multiple · tau`.
  @_noLocks
  static func multipleReach(of tau: Int, times multiple: Int) -> Int {
    multiple == 2 ? max(2, multiple * tau / 40) : multiple + multiple * tau / 20
  }

  /// Lags (samples per period) below which ``refinedLag(_:)`` refines the parabola's estimate.
  static let refinementMaximumLag = 256

  /// The period near integer lag `tau` to a small fraction of a sample: the lag that minimizes
  /// `d(τ)` between `tau − 1` and `tau + 1`, found by Newton's method on the correlation
  /// interpolated exactly from the frame's cross spectrum (band-limited interpolation), starting
  /// from the parabola through `d′`.
  ///
  /// Parabolic interpolation alone is biased when a period spans few samples (11 cents at 2 kHz
  /// and 22 kHz); this refinement is exact for a stationary band-limited signal, up to the
  /// window's edges. Periods of ``refinementMaximumLag`` samples or more (below 86 Hz at
  /// 22.05 kHz) keep the parabola's estimate, biased there by at most about 0.3 cents (measured
  /// on tones of 200 harmonics).
  ///
  /// - Complexity: O(FFT size) per Newton step (at most three steps).
  @_noLocks
  func refinedLag(_ tau: Int) -> Double { refinedDip(tau).lag }

  /// The dip of `d′` near integer lag `tau`: its lag to a fraction of a sample and its depth
  /// there, both from ``refinedLag(_:)``'s Newton iteration (the parabola's vertex for lags of
  /// ``refinementMaximumLag`` or more).
  @_noLocks
  func refinedDip(_ tau: Int) -> (lag: Double, depth: Float) {
    let start = Double(tau) + parabolicOffset(normalizedDifference, at: tau)
    let vertex = (lag: start, depth: parabolicExtremum(normalizedDifference, at: tau))
    let margin = plan.lagMargin
    // From this many samples per period on, the parabola's bias is a fraction of a cent.
    guard tau > 1, tau + 1 < margin, tau < Self.refinementMaximumLag else { return vertex }
    if let known = refinement.dip(at: tau) { return known }
    let half = plan.fftSize / 2
    let theta = 2 * Double.pi / Double(plan.fftSize)
    if !refinement.isPrepared { prepareRefinement(half: half, theta: theta) }
    let (spectrum, spectrumOmega, spectrumOmega2) = (refinement.real, refinement.realOmega, refinement.realOmega2)
    let w = plan.windowLength
    let windowEnergy = prefixEnergy[margin + w] - prefixEnergy[margin]
    func shiftedEnergy(_ t: Int) -> Double { shiftedWindowEnergy(prefixEnergy, margin: margin, window: w, lag: t) }
    var lag = start
    var depth = vertex.depth
    for _ in 0..<3 {
      // r(τ) + r(−τ) = (2·C₀ + 4·Σ_k Re(C_k)·cos(kθτ)) / M over bins 1..<half; the Nyquist bin
      // is empty after decimation's low-pass, or negligible. Its value and two derivatives:
      let angle = theta * lag
      // RT-audited: libm's cos and sin are pure functions; they neither allocate nor lock.
      let (stepCos, stepSin) = _unsafePerformance { (cos(angle), sin(angle)) }
      // Four bins at a time: the phasors of bins k...k + 3 in the lanes, turned by 4·angle a step.
      let (cos2, sin2) = (stepCos * stepCos - stepSin * stepSin, 2 * stepSin * stepCos)
      let (cos3, sin3) = (cos2 * stepCos - sin2 * stepSin, sin2 * stepCos + cos2 * stepSin)
      let (cos4, sin4) = (cos3 * stepCos - sin3 * stepSin, sin3 * stepCos + cos3 * stepSin)
      var laneCos = SIMD4<Double>(stepCos, cos2, cos3, cos4)
      var laneSin = SIMD4<Double>(stepSin, sin2, sin3, sin4)
      var values = SIMD4<Double>.zero
      var firsts = SIMD4<Double>.zero
      var seconds = SIMD4<Double>.zero
      var k = 1
      var step = 0
      while k + 3 < half {
        values += spectrum[step] * laneCos
        firsts -= spectrumOmega[step] * laneSin
        seconds -= spectrumOmega2[step] * laneCos
        let nextCos = laneCos * cos4 - laneSin * sin4
        laneSin = laneSin * cos4 + laneCos * sin4
        laneCos = nextCos
        k += 4
        step += 1
      }
      var value = values.sum()
      var first = firsts.sum()
      var second = seconds.sum()
      // The last few bins one at a time, from lane 0's phasor (bin k's).
      var c = laneCos[0]
      var s = laneSin[0]
      while k < half {
        let re = Double(spectrumARe[k])
        let omega = Double(k) * theta
        value += re * c
        first -= re * omega * s
        second -= re * omega * omega * c
        let nextC = c * stepCos - s * stepSin
        s = s * stepCos + c * stepSin
        c = nextC
        k += 1
      }
      let scale = 4 / Double(plan.fftSize)
      let correlationSum = 2 * Double(spectrumARe[0]) / Double(plan.fftSize) + value * scale
      first *= scale
      second *= scale
      // The shifted windows' mean energy, linear between integer lags.
      let base = Int(lag)
      guard base >= 1, base + 1 < margin else { return vertex }
      let slope = shiftedEnergy(base + 1) - shiftedEnergy(base)
      let energy = shiftedEnergy(base) + (lag - Double(base)) * slope
      // d′ at `lag`: d over the mean of d(1…τ), interpolated.
      let below = Float(cumulativeSum[base] / Double(base))
      let above = Float(cumulativeSum[base + 1] / Double(base + 1))
      let mean = Double(below) + (lag - Double(base)) * Double(above - below)
      if mean > 0 { depth = Float(max(0, windowEnergy + energy - correlationSum) / mean) }
      // Maximize g(τ) = r(τ) + r(−τ) − shifted energy, that is, minimize d(τ).
      let gradient = first - slope
      let curvature = second
      guard curvature < 0 else { return vertex }
      let next = lag - gradient / curvature
      guard next.isFinite, abs(next - Double(tau)) <= 1 else { return vertex }
      // A ten-thousandth of a sample is a hundredth of a cent even at 2 kHz.
      let converged = abs(next - lag) < 1e-4
      lag = next
      if converged { break }
    }
    refinement.remember(tau: tau, dip: (lag, depth))
    return (lag, depth)
  }

  /// Fills ``refinement``'s spectra for the frame: `Re(C_k)`, `Re(C_k)·ω_k` and `Re(C_k)·ω_k²`
  /// over bins 1, 2, … four at a time, `ω_k` accumulated as the sums once did (so the refined
  /// dips are the same to the last bit).
  @_noLocks
  private func prepareRefinement(half: Int, theta: Double) {
    var laneOmega = SIMD4<Double>(1, 2, 3, 4) * theta
    let omegaStep = 4 * theta
    var k = 1
    var step = 0
    while k + 3 < half {
      let re = SIMD4<Double>(
        Double(spectrumARe[k]), Double(spectrumARe[k + 1]), Double(spectrumARe[k + 2]), Double(spectrumARe[k + 3]))
      let reOmega = re * laneOmega
      refinement.real[step] = re
      refinement.realOmega[step] = reOmega
      refinement.realOmega2[step] = reOmega * laneOmega
      laneOmega += omegaStep
      k += 4
      step += 1
    }
    refinement.isPrepared = true
  }
}

/// The per-frame scratch of ``PeriodicityAnalysis/refinedDip(_:)``: allocated once, written
/// through pointers from the analysis's non-mutating queries (a plain struct of pointers).
/// It lives in this file because the `@_noLocks` check of a debug (per-file) build needs the
/// bodies of the methods the analysis calls.
struct RefinementScratch {
  /// Dips remembered per frame; a frame refines its likeliest candidate and, when a dip may be
  /// half the period, that dip and its double.
  static let capacity = 8
  let real: UnsafeMutableBufferPointer<SIMD4<Double>>
  let realOmega: UnsafeMutableBufferPointer<SIMD4<Double>>
  let realOmega2: UnsafeMutableBufferPointer<SIMD4<Double>>
  private let state: UnsafeMutablePointer<Int>  // [prepared, count]
  private let taus: UnsafeMutableBufferPointer<Int>
  private let lags: UnsafeMutableBufferPointer<Double>
  private let depths: UnsafeMutableBufferPointer<Float>

  init(bins: Int) {
    let steps = max(1, bins / 4)
    real = .allocate(capacity: steps)
    real.initialize(repeating: .zero)
    realOmega = .allocate(capacity: steps)
    realOmega.initialize(repeating: .zero)
    realOmega2 = .allocate(capacity: steps)
    realOmega2.initialize(repeating: .zero)
    state = .allocate(capacity: 2)
    state.initialize(repeating: 0, count: 2)
    taus = .zeroed(Self.capacity)
    lags = .zeroed(Self.capacity)
    depths = .zeroed(Self.capacity)
  }

  func deallocate() {
    real.deallocate()
    realOmega.deallocate()
    realOmega2.deallocate()
    state.deallocate()
    taus.deallocate()
    lags.deallocate()
    depths.deallocate()
  }

  /// Whether the spectra hold this frame's.
  var isPrepared: Bool {
    get { state[0] != 0 }
    nonmutating set { state[0] = newValue ? 1 : 0 }
  }

  /// A new frame: nothing prepared or remembered.
  @_noLocks
  func forgetFrame() {
    state[0] = 0
    state[1] = 0
  }

  /// The dip refined at `tau` in this frame, if any.
  @_noLocks
  func dip(at tau: Int) -> (lag: Double, depth: Float)? {
    for i in 0..<state[1] where taus[i] == tau { return (lags[i], depths[i]) }
    return nil
  }

  /// Keeps the dip refined at `tau` for the rest of the frame (while there is room).
  @_noLocks
  func remember(tau: Int, dip: (lag: Double, depth: Float)) {
    let count = state[1]
    guard count < Self.capacity else { return }
    taus[count] = tau
    lags[count] = dip.lag
    depths[count] = dip.depth
    state[1] = count + 1
  }
}

/// The per-frame decision of an estimator that decides each frame as soon as it is analyzed.
enum FrameDecision {
  case yin(YINDecider)
  case mpm(MPMDecider)

  @_noLocks
  func decide(_ analysis: borrowing PeriodicityAnalysis) -> PitchEstimate {
    switch self {
    case .yin(let decider): decider.decide(analysis)
    case .mpm(let decider): decider.decide(analysis)
    }
  }
}

/// The mean energy of the window shifted `lag` samples later and `lag` earlier, `(E(τ) + E(−τ))/2`,
/// from the prefix sums of squares of a frame whose window starts at `margin` and spans `window`
/// samples: the term of the centred difference function `d(τ)` that moves with the lag.
@_noLocks
@inline(__always)
func shiftedWindowEnergy(_ prefix: UnsafeMutableBufferPointer<Double>, margin: Int, window: Int, lag: Int) -> Double {
  0.5 * (prefix[margin + lag + window] - prefix[margin + lag] + prefix[margin - lag + window] - prefix[margin - lag])
}

/// Parabolic interpolation of a sampled function's extremum at `index`: the offset, within ±1,
/// of the vertex of the parabola through the three neighbouring values.
@_noLocks
func parabolicOffset(_ values: UnsafeMutableBufferPointer<Float>, at index: Int) -> Double {
  guard index > 0, index + 1 < values.count else { return 0 }
  let a = Double(values[index - 1])
  let b = Double(values[index])
  let c = Double(values[index + 1])
  let denominator = a - 2 * b + c
  guard denominator != 0 else { return 0 }
  return max(-1, min(1, 0.5 * (a - c) / denominator))
}

/// The value at the vertex of the parabola through the three values around `index`: a sampled
/// extremum's height between samples.
///
/// A dip of `d′(τ)` at a period that is not a whole number of samples reads too shallow at the
/// nearest sample (sharply so for high pitches with strong upper harmonics), while the dip at
/// twice the period, closer to a whole number, reads deep: comparing sampled values then prefers
/// the octave below. Comparing vertex values does not.
@_noLocks
func parabolicExtremum(_ values: UnsafeMutableBufferPointer<Float>, at index: Int) -> Float {
  guard index > 0, index + 1 < values.count else { return index < values.count ? values[index] : 0 }
  let a = values[index - 1]
  let b = values[index]
  let c = values[index + 1]
  let denominator = a - 2 * b + c
  guard denominator != 0 else { return b }
  let vertex = b - (a - c) * (a - c) / (8 * denominator)
  // A vertex further from the sample than its neighbours are means a poor fit: bound it.
  let span = max(abs(a - b), abs(c - b))
  return min(max(vertex, b - span), b + span)
}
