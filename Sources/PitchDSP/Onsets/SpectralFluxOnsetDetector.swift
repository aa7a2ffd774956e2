/// The SuperFlux onset detector (Böck and Widmer, "Maximum filter vibrato suppression for onset
/// detection", DAFx 2013): spectral flux on a logarithmic filterbank, against a maximum-filtered
/// earlier frame, so that vibrato does not count as new energy.
///
/// Per hop (5 ms): the magnitude spectrum of a Hann-windowed frame (2048 points at 44.1 kHz,
/// scaled with the rate), summed by triangular filters 24 to the octave from 30 Hz to 17 kHz;
/// `S[b] = log₁₀(1 + λ·X[b])`; the flux `Σ_b max(0, S_n[b] − max(S_{n−μ}[b−1…b+1]))` against the
/// frame μ hops back (2 at 44.1 kHz), maximum-filtered over 3 bands. A partial that moves by up
/// to a quarter tone between those frames — ±50 cents of vibrato at 6 Hz moves it under 20 cents
/// in 10 ms — finds its old energy within the filter and adds nothing. The peaks of the flux
/// are picked causally: the maximum of the last 10 ms and the next
/// ``Configuration/lookAheadSeconds``, δ = 1.1 above the mean of the last 150 ms, at least 30 ms
/// after the last onset. See ``Configuration`` for every parameter.
///
/// Unlike ``AmplitudeOnsetDetector``, it finds onsets without a rise in level: a legato change
/// of note, a plucked note over a held one. An abrupt end of a loud note (a release under about
/// 20 ms) can add a weak onset.
///
/// **Levels**: as in the paper, the sensitivity is not relative to the signal or its
/// background. `log₁₀(1 + λ·X)` compresses quiet spectra toward 0, so with λ = 1 soft attacks of
/// quiet sounds go unseen (a flute peaking at −23 dBFS is nearly invisible), while steady
/// broadband noise above about −35 dBFS RMS reaches the threshold now and then. The threshold
/// δ = 1.1 suits input near full scale: for a whole file, set ``Configuration/logScale`` to
/// `1 / peak` — the same as normalizing the file's peak to full scale, what the reference
/// implementation's `--norm` does and `etude onsets` does for files.
///
/// **Timing**: an onset is timed 3/8 of a frame before the end of the window of the frame where
/// the flux peaks: where attacks of 1–20 ms sit, on median, when a quarter-tone log spectrum's
/// flux peaks (measured on synthetic notes at 16–96 kHz; slower attacks come out later).
/// **Latency** (``latencySeconds``, exact): those 3/8 of a frame plus the look-ahead,
/// `(3·frameSize/8 + lookAhead·hop) / sampleRate`: 17.4 + 15.0 = 32.4 ms with the defaults at
/// 44.1 kHz (768 frames + 3 hops of 221).
///
/// **Start and end of the stream**: frames whose window, or that of the frame μ back, reaches
/// before the first sample have no flux (about 56 ms at 44.1 kHz), so a sound already playing
/// then is background, not an onset. ``finish(into:)`` decides the frames still waiting for
/// their look-ahead, as if the flux then fell to 0; a frame reaching past the last sample is not
/// analyzed, so an onset in the last 3/8 frame of a stream is not found.
///
/// NaN and ±∞ samples count as silence; a DC offset is removed before analysis (the same
/// seeded 10 Hz DC blocker as ``AmplitudeOnsetDetector``).
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class SpectralFluxOnsetDetector: OnsetDetector {
  /// The configuration.
  public let configuration: Configuration

  /// The sample rate of the frames, in Hz.
  public var sampleRate: Double { configuration.sampleRate }

  /// The delay, in seconds, between an onset's time and the call that returns it: 3/8 of a
  /// frame plus the look-ahead (32.4 ms with the defaults at 44.1 kHz).
  public let latencySeconds: Double

  /// The number of filterbank bands.
  public var bandCount: Int { analysis.bandCount }

  /// Frames from an onset's time to the end of its peak frame's window.
  let timingOffset: Int
  private var analysis: SpectralFluxAnalysis
  private var picker: OnsetPeakPicker

  /// Creates a detector; allocates all its memory.
  ///
  /// - Parameter configuration: The sample rate, STFT, filterbank and peak picking.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public init(configuration: Configuration) throws(PitchDSPError) {
    self.configuration = configuration
    analysis = try SpectralFluxAnalysis(configuration: configuration)
    let lookAhead = configuration.hops(configuration.lookAheadSeconds)
    picker = OnsetPeakPicker(
      lookAhead: lookAhead, preMaximum: configuration.hops(configuration.peakWindowSeconds),
      preAverage: configuration.hops(configuration.averageWindowSeconds),
      minimumInterval: max(1, configuration.hops(configuration.minimumIntervalSeconds)),
      threshold: Float(configuration.threshold), firstFrame: analysis.firstFluxFrame)
    timingOffset = configuration.frameSize * 3 / 8
    latencySeconds = Double(lookAhead * configuration.hopSize + timingOffset) / configuration.sampleRate
  }

  /// The most onsets one ``process(_:into:)`` call on `count` frames (or one ``finish(into:)``
  /// call, for `count` 0) can write: one per hop, plus the look-ahead.
  ///
  /// - Parameter count: Frames in the call, ≥ 0.
  public func maximumOnsets(forFrames count: Int) -> Int {
    max(0, count) / configuration.hopSize + picker.lookAhead + 2
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func process(_ frames: UnsafeBufferPointer<Float>, into onsets: UnsafeMutableBufferPointer<Onset>)
    -> Int
  {
    var offset = 0
    var produced = 0
    while analysis.advance(frames, offset: &offset) {
      produced += pick(flux: analysis.flux, into: onsets, at: produced)
    }
    return produced
  }

  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into onsets: UnsafeMutableBufferPointer<Onset>) -> Int {
    // Frames reaching past the end have no flux: decide the frames still waiting for their
    // look-ahead as if the flux then fell to 0.
    var produced = 0
    for _ in 0..<picker.lookAhead {
      produced += pick(flux: 0, into: onsets, at: produced)
    }
    return produced
  }

  /// Forgets the stream, to start an unrelated one (allocates nothing).
  public func reset() {
    analysis.reset()
    picker.reset()
  }

  /// Pushes the next frame's flux into the peak picker; writes the onset it decides, if any, at
  /// `onsets[index]` and returns 1, else 0.
  @_noLocks
  private func pick(flux: Float, into onsets: UnsafeMutableBufferPointer<Onset>, at index: Int) -> Int {
    let frame = picker.push(flux)
    guard frame >= 0 else { return 0 }
    // Programmer error: `onsets` smaller than `maximumOnsets(forFrames:)`.
    guard index < onsets.count else { fatalError() }
    let end = (frame + 1) * configuration.hopSize
    onsets[index] = Onset(
      time: Double(max(0, end - timingOffset)) / configuration.sampleRate, strength: picker.strength)
    return 1
  }
}
