import Foundation
import PitchDSP

/// The streaming front end shared by ``Chromagram`` and ``ChordRecognizer``: resampling to
/// 11 025 Hz, framing, one FFT per frame, tuning, the log-frequency spectrum (STFT-mapped or
/// constant-Q, at the current tuning), and the treble and bass chroma (approximate
/// transcription or Stark's chromagram).
///
/// Frame `n` is centred on resampled sample `n · hop` and spans `frameSize` samples around it;
/// the stream counts as preceded by silence, so frame 0 is centred on the first sample. Its
/// time is that centre, corrected for the resampler's delay. A frame is analyzed as soon as
/// its last sample arrives, so frames come out ``latencySeconds`` after their time. Memory is
/// allocated in `init`; ``advance(_:offset:)`` and ``advanceFinishing()`` allocate nothing.
struct ChromaAnalysis: ~Copyable {
  let frameSize: Int
  let hopSize: Int
  let inputRate: Double
  let analysisRate: Double
  /// The resampler's delay, in seconds: subtracted from frame times.
  let timeOffset: Double
  /// From a frame's time to the moment it is analyzed, in seconds.
  let latencySeconds: Double
  let binCount: Int
  let noteCount: Int
  let lowestNote: Int
  /// The MIDI note of log bin 0.
  private let lowestBinMIDI: Int

  private let resamplerOwner: Resampler
  private let resampler: Unmanaged<Resampler>
  private let fftOwner: SwiftFFTBackend
  private let fft: Unmanaged<SwiftFFTBackend>
  /// Input frames handed to the resampler per call.
  private let inputPiece = 512
  private let pending: UnsafeMutableBufferPointer<Float>
  private var pendingCount = 0
  private var pendingRead = 0
  private let ring: UnsafeMutableBufferPointer<Float>
  private let ringMask: Int
  /// Resampled samples written to the ring.
  private var written = 0
  /// Input frames consumed.
  private var inputCount = 0
  private var isFlushing = false
  private var isFlushDone = false
  /// The index of the next frame to analyze.
  private(set) var nextFrame = 0

  private let window: UnsafeMutableBufferPointer<Float>
  private let windowSum: Double
  private let frame: UnsafeMutableBufferPointer<Float>
  private let real: UnsafeMutableBufferPointer<Float>
  private let imaginary: UnsafeMutableBufferPointer<Float>
  private let magnitude: UnsafeMutableBufferPointer<Float>
  private let magnitudeLimit: Int
  private let binHz: Double

  private let usesConstantQ: Bool
  private let usesTranscription: Bool
  private let tuningSteps: Int
  private let stepCents: Double
  /// `tuningSteps × binCount` rows: the log-frequency kernels at each tuning step.
  private let kernels: SparseRows
  private let spectrum: UnsafeMutableBufferPointer<Float>
  private let whitened: UnsafeMutableBufferPointer<Float>
  private let prefix: UnsafeMutableBufferPointer<Double>
  private let prefixSquares: UnsafeMutableBufferPointer<Double>
  /// Per note: its activation as far as its fundamental is present (for the bass chroma).
  private let bassActivations: UnsafeMutableBufferPointer<Float>
  private let whitening: Double
  private let silenceDBFS: Double
  private var transcription: NoteTranscription
  private var tuning: TuningTracker

  /// The last analyzed frame.
  private(set) var result: ChromaFrame

  /// The half-width of the whitening window, in bins (one octave in all).
  private let whiteningHalfWidth = 18
  /// A note counts as fully present in the bass at this fraction of the strongest note.
  private let bassPresence: Float = 0.3
  /// The highest note that can be the bass, MIDI.
  private let highestBassNote = 84
  /// The lowest note that can be the bass, MIDI (C1): the notes below it are transcribed so
  /// that energy from below the range (an organ's 16' and 32' stops under a bass note, rumble)
  /// has notes to go to, but a 372 ms frame cannot tell their pitch to a semitone.
  private let lowestBassNote = 24
  /// Treble chroma values are note activations, relative to the frame's strongest, to this
  /// power: Stevens' exponent for loudness against amplitude (loudness ∝ intensity^0.3), so a
  /// quiet chord tone counts as a listener hears it rather than as its share of the energy.
  private let loudnessExponent: Float = 0.6

  init(configuration: Chromagram.Configuration) throws(PitchDSPError) {
    try configuration.validate()
    // Everything that can throw comes first: a noncopyable value is initialized all at once.
    let analysisRate = Chromagram.Configuration.analysisRate
    let resampler = try Resampler(
      inputRate: configuration.sampleRate, outputRate: analysisRate, quality: .fast, maximumInputFrames: 512)
    let fft = try SwiftFFTBackend(size: configuration.frameSize)

    frameSize = configuration.frameSize
    hopSize = configuration.hopSize
    inputRate = configuration.sampleRate
    self.analysisRate = analysisRate
    timeOffset = resampler.latencySeconds
    latencySeconds = Double(configuration.frameSize / 2) / analysisRate + resampler.latencySeconds
    resamplerOwner = resampler
    self.resampler = Unmanaged.passUnretained(resampler)
    fftOwner = fft
    self.fft = Unmanaged.passUnretained(fft)
    let pendingCapacity = max(
      1, resampler.maximumOutputFrames(forInputFrames: inputPiece), resampler.maximumFlushFrames)
    pending = .allocate(capacity: pendingCapacity)
    pending.initialize(repeating: 0)
    ring = .allocate(capacity: 2 * frameSize)
    ring.initialize(repeating: 0)
    ringMask = 2 * frameSize - 1

    window = .allocate(capacity: frameSize)
    var sum = 0.0
    for i in 0..<frameSize {
      let w = WindowFunction.hann.value(at: i, count: frameSize)
      window.initializeElement(at: i, to: Float(w))
      sum += w
    }
    windowSum = sum
    frame = .allocate(capacity: frameSize)
    frame.initialize(repeating: 0)
    real = .allocate(capacity: frameSize / 2 + 1)
    real.initialize(repeating: 0)
    imaginary = .allocate(capacity: frameSize / 2 + 1)
    imaginary.initialize(repeating: 0)
    magnitude = .allocate(capacity: frameSize / 2 + 1)
    magnitude.initialize(repeating: 0)
    binHz = analysisRate / Double(frameSize)

    let layout = LogFrequencyLayout(
      analysisRate: analysisRate, frameSize: configuration.frameSize, referenceHz: configuration.referenceHz)
    binCount = layout.binCount
    tuningSteps = layout.tuningSteps
    stepCents = layout.stepCents
    usesConstantQ = configuration.spectrum == .constantQ
    usesTranscription = configuration.method == .approximateTranscription
    var rows: [[(column: Int, weight: Float)]] = []
    for step in 0..<layout.tuningSteps {
      let cents = layout.cents(ofStep: step)
      for bin in 0..<layout.binCount {
        rows.append(
          usesConstantQ ? layout.constantQRow(bin: bin, cents: cents) : layout.fftRow(bin: bin, cents: cents))
      }
    }
    var limit = Int(2600 / binHz) + 2
    for row in rows { for entry in row { limit = max(limit, entry.column + 2) } }
    magnitudeLimit = min(limit, frameSize / 2)
    kernels = SparseRows(rows: rows)
    spectrum = .allocate(capacity: layout.binCount)
    spectrum.initialize(repeating: 0)
    whitened = .allocate(capacity: layout.binCount)
    whitened.initialize(repeating: 0)
    prefix = .allocate(capacity: layout.binCount + 1)
    prefix.initialize(repeating: 0)
    prefixSquares = .allocate(capacity: layout.binCount + 1)
    prefixSquares.initialize(repeating: 0)
    bassActivations = .allocate(capacity: layout.highestNote - layout.lowestNote + 1)
    bassActivations.initialize(repeating: 0)
    whitening = configuration.whitening
    silenceDBFS = configuration.silenceDBFS

    // The dictionary, through the same kernels at tuning 0.
    let zeroStep = (layout.tuningSteps - 1) / 2
    let zeroRows = Array(rows[(zeroStep * layout.binCount)..<((zeroStep + 1) * layout.binCount)])
    let constantQ = usesConstantQ
    let topHz = layout.centreHz(ofBin: layout.binCount - 1, cents: 0) * pow(2, 1.0 / 36)
    let binRange = { (f: Double) -> ClosedRange<Int> in
      let spread = 0.06 * f + 5 * layout.binHz
      let low = f - spread > 1 ? 69 + 12 * log2((f - spread) / layout.referenceHz) : 0
      let high = 69 + 12 * log2((f + spread) / layout.referenceHz)
      let first = max(0, Int(((low - layout.lowestMIDI) * 3).rounded(.down)))
      let last = min(layout.binCount - 1, Int(((high - layout.lowestMIDI) * 3).rounded(.up)))
      return first...max(first, last)
    }
    transcription = NoteTranscription(
      lowestNote: layout.lowestNote, highestNote: layout.highestNote, binCount: layout.binCount,
      profiles: configuration.noteProfiles.map(\.partialAmplitudes),
      referenceHz: configuration.referenceHz, topFrequencyHz: topHz, binRange: binRange,
      response: { bin, f in
        constantQ
          ? layout.constantQResponse(bin: bin, frequencyHz: f)
          : layout.fftResponse(row: zeroRows[bin], frequencyHz: f)
      })
    noteCount = layout.highestNote - layout.lowestNote + 1
    lowestNote = layout.lowestNote
    lowestBinMIDI = Int(layout.lowestMIDI)
    tuning = TuningTracker(
      mode: configuration.tuning, hopSeconds: configuration.hopSeconds, referenceHz: configuration.referenceHz
    )
    result = ChromaFrame(
      time: 0, treble: Chroma(), bass: Chroma(), tuningCents: 0, levelDBFS: -.infinity, harmonicity: 0)
  }

  deinit {
    pending.deallocate()
    ring.deallocate()
    window.deallocate()
    frame.deallocate()
    real.deallocate()
    imaginary.deallocate()
    magnitude.deallocate()
    spectrum.deallocate()
    whitened.deallocate()
    prefix.deallocate()
    prefixSquares.deallocate()
    bassActivations.deallocate()
  }

  /// The most frames one `advance` pass over `count` input frames (or the finishing pass, for
  /// `count` 0) can complete.
  func maximumFrames(forInputFrames count: Int) -> Int {
    let r = resamplerOwner
    if count == 0 {
      return (frameSize / 2 + 2 * pending.count + r.maximumFlushFrames) / hopSize + 2
    }
    let pieces = count / inputPiece + 1
    let resampled = r.maximumOutputFrames(forInputFrames: count) + 2 * pieces + pending.count
    return resampled / hopSize + 2
  }

  /// The time of frame `index`, in seconds.
  func time(ofFrame index: Int) -> Double {
    Double(index * hopSize) / analysisRate - timeOffset
  }

  /// The note activations of the last frame (approximate transcription only).
  var activations: UnsafeMutableBufferPointer<Float> { transcription.activations }

  /// Starts a new stream: silence before it, nothing analyzed, tuning forgotten.
  mutating func reset() {
    let r = resampler
    r._withUnsafeGuaranteedRef { $0.reset() }
    ring.update(repeating: 0)
    pendingCount = 0
    pendingRead = 0
    written = 0
    inputCount = 0
    isFlushing = false
    isFlushDone = false
    nextFrame = 0
    tuning.reset()
    result = ChromaFrame(
      time: 0, treble: Chroma(), bass: Chroma(), tuningCents: Float(tuning.cents), levelDBFS: -.infinity,
      harmonicity: 0)
  }

  /// Consumes `input` from `offset` until a frame is complete, analyzes it and returns `true`
  /// (read ``result``); returns `false` once `input` is used up without completing a frame.
  @_noLocks
  mutating func advance(_ input: UnsafeBufferPointer<Float>, offset: inout Int) -> Bool {
    while true {
      if drainPending() { return true }
      guard offset < input.count else { return false }
      let count = min(inputPiece, input.count - offset)
      let piece = UnsafeBufferPointer(rebasing: input[offset..<(offset + count)])
      let out = pending
      let r = resampler
      pendingCount = r._withUnsafeGuaranteedRef { $0.process(input: piece, output: out) }
      pendingRead = 0
      offset += count
      inputCount += count
    }
  }

  /// Ends the stream: drains the resampler, then pads with silence until every frame whose
  /// time is before the end of the input has been analyzed. Returns `true` for each analyzed
  /// frame (read ``result``), then `false`.
  @_noLocks
  mutating func advanceFinishing() -> Bool {
    isFlushing = true
    while true {
      if drainPending() { return true }
      if !isFlushDone {
        let out = pending
        let r = resampler
        let count = r._withUnsafeGuaranteedRef { $0.flush(output: out) }
        if count == 0 {
          isFlushDone = true
        } else {
          pendingCount = count
          pendingRead = 0
        }
        continue
      }
      let end = Double(inputCount) / inputRate
      guard time(ofFrame: nextFrame) < end else { return false }
      // Silence until the next frame is complete.
      let frameEnd = nextFrame * hopSize + frameSize / 2
      while written < frameEnd {
        ring[written & ringMask] = 0
        written += 1
      }
      analyzeFrame()
      return true
    }
  }

  /// Moves resampled samples into the ring until a frame is complete (then analyzes it and
  /// returns `true`) or none are left.
  @_noLocks
  private mutating func drainPending() -> Bool {
    while pendingRead < pendingCount {
      ring[written & ringMask] = pending[pendingRead]
      pendingRead += 1
      written += 1
      if written == nextFrame * hopSize + frameSize / 2 {
        analyzeFrame()
        return true
      }
    }
    return false
  }

  @_noLocks
  private mutating func analyzeFrame() {
    let index = nextFrame
    nextFrame += 1
    let start = written - frameSize
    var energy = 0.0
    for i in 0..<frameSize {
      let x = ring[(start + i) & ringMask]
      frame[i] = x
      energy += Double(x * x * window[i])
    }
    let meanSquare = energy / windowSum
    // RT-audited: libm's log10 is a pure function; it neither allocates nor locks.
    let level = meanSquare > 0 ? 10 * _unsafePerformance { log10(meanSquare) } : -Double.infinity
    var treble = Chroma()
    var bass = Chroma()
    var harmonicity: Float = 0
    if level >= silenceDBFS {
      transform()
      tuning.update(magnitude, limit: magnitudeLimit, binHz: binHz)
      logSpectrum()
      if usesTranscription {
        whiten()
        transcription.solve(whitened)
        harmonicity = transcription.explainedFraction
        noteChroma(treble: &treble, bass: &bass)
      } else {
        harmonicity = 1
        starkChroma(treble: &treble, bass: &bass)
      }
    }
    result = ChromaFrame(
      time: time(ofFrame: index), treble: treble, bass: bass, tuningCents: Float(tuning.cents),
      levelDBFS: Float(level), harmonicity: harmonicity)
  }

  /// The FFT of the unwindowed frame, and the Hann-windowed magnitudes derived from it
  /// (`0.5·X[k] − 0.25·(X[k−1] + X[k+1])` is the transform of the Hann-windowed frame).
  @_noLocks
  private func transform() {
    let f = fft
    let (input, re, im) = (UnsafeBufferPointer(frame), real, imaginary)
    f._withUnsafeGuaranteedRef { $0.forwardReal(input, real: re, imaginary: im) }
    let limit = magnitudeLimit
    let mags = magnitude
    for k in 1..<limit {
      let wr = 0.5 * re[k] - 0.25 * (re[k - 1] + re[k + 1])
      let wi = 0.5 * im[k] - 0.25 * (im[k - 1] + im[k + 1])
      mags[k] = wr * wr + wi * wi
    }
    // RT-audited: a square root is one instruction; it neither allocates nor locks.
    _unsafePerformance {
      for k in 1..<limit { mags[k] = mags[k].squareRoot() }
    }
  }

  /// The log-frequency spectrum at the current tuning step.
  @_noLocks
  private func logSpectrum() {
    var step = Int((tuning.cents + 50) / stepCents + 0.5)
    if step < 0 { step = 0 }
    if step > tuningSteps - 1 { step = tuningSteps - 1 }
    let base = step * binCount
    if usesConstantQ {
      let starts = kernels.starts
      let columns = kernels.columns
      let weights = kernels.weights
      for j in 0..<binCount {
        var sumRe: Float = 0
        var sumIm: Float = 0
        for e in starts[base + j]..<starts[base + j + 1] {
          let k = columns[e]
          sumRe += weights[e] * real[k]
          sumIm += weights[e] * imaginary[k]
        }
        spectrum[j] = sumRe * sumRe + sumIm * sumIm
      }
      let out = spectrum
      let count = binCount
      // RT-audited: a square root is one instruction; it neither allocates nor locks.
      _unsafePerformance {
        for j in 0..<count { out[j] = out[j].squareRoot() }
      }
    } else {
      for j in 0..<binCount { spectrum[j] = kernels.dot(row: base + j, magnitude) }
    }
  }

  /// Subtracts the running mean over an octave and divides by the running standard deviation
  /// to the power `whitening`; negative values become 0.
  @_noLocks
  private func whiten() {
    prefix[0] = 0
    prefixSquares[0] = 0
    for j in 0..<binCount {
      let v = Double(spectrum[j])
      prefix[j + 1] = prefix[j] + v
      prefixSquares[j + 1] = prefixSquares[j] + v * v
    }
    let half = whiteningHalfWidth
    let power = whitening
    let count = binCount
    let (p, q, s, out) = (prefix, prefixSquares, spectrum, whitened)
    // RT-audited: square roots, and libm's pow for a whitening other than 0 or 1, are pure
    // functions; they neither allocate nor lock.
    _unsafePerformance {
      for j in 0..<count {
        let low = max(0, j - half)
        let high = min(count, j + half + 1)
        let n = Double(high - low)
        let mean = (p[high] - p[low]) / n
        let variance = max(0, (q[high] - q[low]) / n - mean * mean)
        let deviation = variance.squareRoot()
        let v = Double(s[j])
        guard v > mean, deviation > 1e-12 else {
          out[j] = 0
          continue
        }
        let scale = power == 1 ? deviation : (power == 0 ? 1 : pow(deviation, power))
        out[j] = Float((v - mean) / scale)
      }
    }
  }

  /// Treble chroma: each pitch class's note activations, relative to the strongest note, to
  /// the power ``loudnessExponent``, weighted by register (``trebleWeight(note:)``), summed.
  /// Bass chroma: which pitch class is the lowest note clearly present — walking up from C1, a
  /// note counts as present in proportion to its activation, fully from ``bassPresence`` of
  /// the strongest note, and takes the share of the bass that lower notes left over.
  @_noLocks
  private func noteChroma(treble: inout Chroma, bass: inout Chroma) {
    let x = transcription.activations
    var largest: Float = 0
    for i in 0..<noteCount where x[i] > largest { largest = x[i] }
    guard largest > 0 else { return }
    let exponent = loudnessExponent
    for i in 0..<noteCount {
      let weight = trebleWeight(note: lowestNote + i)
      guard weight > 0, x[i] > 0 else { continue }
      let relative = x[i] / largest
      // RT-audited: libm's pow is a pure function; it neither allocates nor locks.
      treble[(lowestNote + i) % 12] += weight * _unsafePerformance { pow(relative, exponent) }
    }
    // The bass counts a note only as far as its fundamental is in the spectrum: a note found
    // through a weak-fundamental profile can be the sub-octave echo of real notes' partials
    // (a G2 explaining G3, D4 and G4), whose fundamental bin is empty.
    let expected = transcription.expectedFundamentals
    let fundamental = bassActivations
    var strongest: Float = 0
    for i in 0..<noteCount {
      var value = x[i]
      if expected[i] > 0 {
        let centre = 3 * (lowestNote + i - lowestBinMIDI)
        var observed: Float = 0
        for j in (centre - 1)...(centre + 1) where j >= 0 && j < binCount {
          if whitened[j] > observed { observed = whitened[j] }
        }
        value *= min(1, observed / expected[i])
      }
      fundamental[i] = value
      if value > strongest { strongest = value }
    }
    guard strongest > 0 else { return }
    var remaining: Float = 1
    let threshold = bassPresence * strongest
    for i in 0..<noteCount {
      if lowestNote + i < lowestBassNote { continue }
      if lowestNote + i > highestBassNote { break }
      let presence = min(1, fundamental[i] / threshold)
      guard presence > 0 else { continue }
      bass[(lowestNote + i) % 12] += remaining * presence
      remaining *= 1 - presence
      if remaining < 1e-4 { break }
    }
  }

  /// The weight of a note in the treble chroma: 1 up to C5, falling linearly to 0 at C7.
  /// Notes that high seldom carry the harmony, and upper partials of brighter tones than the
  /// note profiles assume are transcribed there.
  @_noLocks
  private func trebleWeight(note: Int) -> Float {
    if note < 40 { return max(0, Float(note - 28) / 12) }
    return note <= 72 ? 1 : Float(96 - note) / 24
  }

  /// Stark's chromagram on the log-frequency spectrum: per pitch class, the largest of the
  /// three bins around its fundamental, plus half that around its second harmonic, over the
  /// octaves from C3 and C4; the bass chroma sums the fundamentals from E1 to D♯3.
  @_noLocks
  private func starkChroma(treble: inout Chroma, bass: inout Chroma) {
    for pc in 0..<12 {
      var sum: Float = 0
      for octave in 0..<2 {
        let note = 48 + pc + 12 * octave
        sum += peak(note: note) + 0.5 * peak(note: note + 12)
      }
      treble[pc] = sum
    }
    for note in 28..<52 { bass[note % 12] += peak(note: note) }
  }

  /// The largest log-spectrum value within a third of a semitone of `note`.
  @_noLocks
  private func peak(note: Int) -> Float {
    let centre = 3 * (note - lowestBinMIDI)
    var best: Float = 0
    for j in (centre - 1)...(centre + 1) where j >= 0 && j < binCount {
      if spectrum[j] > best { best = spectrum[j] }
    }
    return best
  }
}
