import Foundation

/// The streaming front end of ``SpectralFluxOnsetDetector``: DC blocking, framing at a fixed hop,
/// the STFT, the logarithmic filterbank, `log₁₀(1 + λ·X)`, the maximum filter over bands and the
/// SuperFlux detection function.
///
/// Frame `n` is the Hann-windowed input ending just before frame `(n + 1) · hop` (the stream
/// counts as preceded by silence). Its flux is
/// `SF(n) = Σ_b max(0, S_n[b] − max(S_{n−μ}[b−w…b+w]))`; frames whose own window, or that of
/// frame `n − μ`, reaches before the stream's first frame have flux 0 (the warm-up: a sound
/// present from the first frame is background). Memory is allocated in `init`;
/// ``advance(_:offset:)`` allocates nothing and takes no locks.
struct SpectralFluxAnalysis: ~Copyable {
  let frameSize: Int
  let hopSize: Int
  let differenceFrames: Int
  let bandCount: Int
  /// The first frame whose flux is computed; earlier frames have flux 0.
  let firstFluxFrame: Int

  private let fftOwner: SwiftFFTBackend
  private let fft: Unmanaged<SwiftFFTBackend>
  private var dcBlocker: DCBlocker
  private let logScale: Float
  private let magnitudeScale: Float
  private let filterHalfWidth: Int
  private let ringMask: Int
  private let ring: UnsafeMutableBufferPointer<Float>
  private let window: UnsafeMutableBufferPointer<Float>
  private let frame: UnsafeMutableBufferPointer<Float>
  private let real: UnsafeMutableBufferPointer<Float>
  private let imaginary: UnsafeMutableBufferPointer<Float>
  private let magnitude: UnsafeMutableBufferPointer<Float>
  private let firstBins: UnsafeMutableBufferPointer<Int>
  private let binCounts: UnsafeMutableBufferPointer<Int>
  private let weightStarts: UnsafeMutableBufferPointer<Int>
  private let weights: UnsafeMutableBufferPointer<Float>
  /// The current frame's log band magnitudes `S_n`.
  private let bands: UnsafeMutableBufferPointer<Float>
  /// The maximum-filtered log bands of the last μ + 1 frames, row `n mod (μ + 1)`.
  private let filtered: UnsafeMutableBufferPointer<Float>
  private let lowestBin: Int
  private let highestBin: Int

  /// Input frames written to the ring.
  private var written = 0
  /// The index of the next frame to analyze.
  private(set) var nextFrame = 0
  /// The flux of the last analyzed frame.
  private(set) var flux: Float = 0

  init(configuration: SpectralFluxOnsetDetector.Configuration) throws(PitchDSPError) {
    try configuration.validate()
    // Everything that can throw comes first: a noncopyable value is initialized all at once.
    let fft = try SwiftFFTBackend(size: configuration.frameSize)
    let bank = LogFrequencyFilterbank(configuration: configuration)
    fftOwner = fft
    self.fft = Unmanaged.passUnretained(fft)
    frameSize = configuration.frameSize
    hopSize = configuration.hopSize
    differenceFrames = configuration.differenceFrames
    bandCount = bank.bandCount
    // Frame n is complete from the first frame when (n + 1)·hop ≥ frameSize; its flux needs
    // frame n − μ complete too.
    firstFluxFrame = (frameSize + hopSize - 1) / hopSize - 1 + differenceFrames
    dcBlocker = DCBlocker(sampleRate: configuration.sampleRate)
    logScale = Float(configuration.logScale)
    magnitudeScale = Float(2048) / Float(configuration.frameSize)
    filterHalfWidth = configuration.maximumFilterBands / 2
    var capacity = 1
    while capacity < frameSize { capacity <<= 1 }
    ringMask = capacity - 1
    ring = .allocate(capacity: capacity)
    ring.initialize(repeating: 0)
    window = .allocate(capacity: frameSize)
    for i in 0..<frameSize {
      window.initializeElement(at: i, to: Float(WindowFunction.hann.value(at: i, count: frameSize)))
    }
    frame = .allocate(capacity: frameSize)
    frame.initialize(repeating: 0)
    let bins = frameSize / 2 + 1
    real = .allocate(capacity: bins)
    real.initialize(repeating: 0)
    imaginary = .allocate(capacity: bins)
    imaginary.initialize(repeating: 0)
    magnitude = .allocate(capacity: bins)
    magnitude.initialize(repeating: 0)
    firstBins = .allocate(capacity: bank.bandCount)
    binCounts = .allocate(capacity: bank.bandCount)
    weightStarts = .allocate(capacity: bank.bandCount)
    let flat = bank.weights.flatMap { $0 }
    weights = .allocate(capacity: max(1, flat.count))
    weights.initialize(repeating: 0)
    var offset = 0
    for b in 0..<bank.bandCount {
      firstBins.initializeElement(at: b, to: bank.firstBins[b])
      binCounts.initializeElement(at: b, to: bank.weights[b].count)
      weightStarts.initializeElement(at: b, to: offset)
      offset += bank.weights[b].count
    }
    for (i, w) in flat.enumerated() { weights[i] = w }
    lowestBin = bank.firstBins.first ?? 0
    highestBin = zip(bank.firstBins, bank.weights).map { $0 + $1.count }.max() ?? 0
    bands = .allocate(capacity: bank.bandCount)
    bands.initialize(repeating: 0)
    filtered = .allocate(capacity: bank.bandCount * (differenceFrames + 1))
    filtered.initialize(repeating: 0)
  }

  deinit {
    ring.deallocate()
    window.deallocate()
    frame.deallocate()
    real.deallocate()
    imaginary.deallocate()
    magnitude.deallocate()
    firstBins.deallocate()
    binCounts.deallocate()
    weightStarts.deallocate()
    weights.deallocate()
    bands.deallocate()
    filtered.deallocate()
  }

  /// Starts a new stream: silence before it, nothing analyzed.
  mutating func reset() {
    ring.update(repeating: 0)
    filtered.update(repeating: 0)
    dcBlocker.reset()
    written = 0
    nextFrame = 0
    flux = 0
  }

  /// Consumes `input` from `offset` until a frame is complete, analyzes it and returns `true`
  /// (read ``flux``); returns `false` once `input` is used up without completing a frame.
  @_noLocks
  mutating func advance(_ input: UnsafeBufferPointer<Float>, offset: inout Int) -> Bool {
    let mask = ringMask
    while offset < input.count {
      ring[written & mask] = Float(dcBlocker.process(input[offset]))
      written += 1
      offset += 1
      if written == (nextFrame + 1) * hopSize {
        analyzeFrame()
        return true
      }
    }
    return false
  }

  @_noLocks
  private mutating func analyzeFrame() {
    let n = nextFrame
    nextFrame += 1
    let mask = ringMask
    let start = written - frameSize
    for i in 0..<frameSize { frame[i] = ring[(start + i) & mask] * window[i] }
    let fft = self.fft
    let (input, re, im) = (UnsafeBufferPointer(frame), real, imaginary)
    fft._withUnsafeGuaranteedRef { $0.forwardReal(input, real: re, imaginary: im) }
    for k in lowestBin..<highestBin { magnitude[k] = real[k] * real[k] + imaginary[k] * imaginary[k] }
    let (magnitudes, bins, scale) = (magnitude, lowestBin..<highestBin, magnitudeScale)
    // RT-audited: a square root is one instruction; it neither allocates nor locks.
    _unsafePerformance {
      for k in bins { magnitudes[k] = magnitudes[k].squareRoot() * scale }
    }
    let lambda = logScale
    for b in 0..<bandCount {
      let first = firstBins[b]
      let w = weightStarts[b]
      var sum: Float = 0
      for i in 0..<binCounts[b] { sum += weights[w + i] * magnitude[first + i] }
      bands[b] = 1 + lambda * sum
    }
    let values = bands
    let count = bandCount
    // RT-audited: libm's log10f is a pure function; it neither allocates nor locks.
    _unsafePerformance {
      for b in 0..<count { values[b] = log10f(values[b]) }
    }
    // The flux against the maximum-filtered frame μ back (row (n − μ) mod (μ + 1)).
    let rows = differenceFrames + 1
    let previous = ((n - differenceFrames) % rows + rows) % rows * count
    var sum: Float = 0
    for b in 0..<count {
      let d = bands[b] - filtered[previous + b]
      if d > 0 { sum += d }
    }
    flux = n >= firstFluxFrame ? sum : 0
    // This frame, maximum-filtered over bands, for the frame μ ahead.
    let row = n % rows * count
    let half = filterHalfWidth
    for b in 0..<count {
      var m = bands[b]
      for j in max(0, b - half)...min(count - 1, b + half) where bands[j] > m { m = bands[j] }
      filtered[row + b] = m
    }
  }
}
