import PitchDSP

/// A streaming chromagram: push mono frames of any count, receive a ``ChromaFrame`` (treble
/// chroma, bass chroma, tuning, level) every hop.
///
/// The input is resampled to 11 025 Hz and cut into Hann-windowed frames of 4096 samples
/// (372 ms) every 512 (46 ms). Each frame's FFT gives a log-frequency spectrum with three bins
/// per semitone from E♭1 to B7, either mapped from the STFT or computed as a constant-Q
/// transform (``SpectrumMethod``), at the current tuning estimate: the kernels are tabulated
/// every 5 cents from −50 to +50, so an instrument 30 cents flat is analyzed on its own grid.
/// Pitch-class content then comes from approximate note transcription (the default) or Stark's
/// chromagram (``ChromaMethod``); both give a separate bass chroma for inversions.
///
/// ```swift
/// let chromagram = try Chromagram(configuration: .init(sampleRate: 48_000))
/// var frames = [ChromaFrame](repeating: .init(time: 0, treble: .init(), bass: .init(),
///   tuningCents: 0, levelDBFS: 0, harmonicity: 0), count: chromagram.maximumFrames(forFrames: 512))
/// // In the audio callback, any block size:
/// let count = input.withUnsafeBufferPointer { block in
///   frames.withUnsafeMutableBufferPointer { chromagram.process(block, into: $0) }
/// }
/// ```
///
/// **Timing**: a frame's ``ChromaFrame/time`` is the centre of its window; the frame comes out
/// of the ``process(_:into:)`` call that pushes the input at `time +` ``latencySeconds``
/// (half a frame plus the resampler's delay: 189 ms at 44.1 kHz with the defaults). The output
/// does not depend on how the stream is cut into blocks. The stream counts as preceded by
/// silence; ``finish(into:)`` pads it with silence so that every frame centred before the end
/// of the input comes out.
///
/// NaN and ±∞ samples count as silence.
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class Chromagram {
  /// The configuration.
  public let configuration: Configuration
  /// The delay, in seconds, between a frame's time and the call that returns it.
  public let latencySeconds: Double
  private var analysis: ChromaAnalysis

  /// Creates a chromagram; allocates all its memory (about 1 MB; the constant-Q kernels take
  /// about 2 MB more).
  ///
  /// - Parameter configuration: The sample rate and analysis parameters.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public init(configuration: Configuration) throws(PitchDSPError) {
    self.configuration = configuration
    analysis = try ChromaAnalysis(configuration: configuration)
    latencySeconds = analysis.latencySeconds
  }

  /// The sample rate of the input, in Hz.
  public var sampleRate: Double { configuration.sampleRate }

  /// The current tuning estimate, in cents from the reference pitch.
  public var tuningCents: Double { Double(analysis.result.tuningCents) }

  /// The most frames one ``process(_:into:)`` call on `count` input frames (or one
  /// ``finish(into:)`` call, for `count` 0) can write.
  ///
  /// - Parameter count: Input frames in the call, ≥ 0.
  public func maximumFrames(forFrames count: Int) -> Int {
    analysis.maximumFrames(forInputFrames: count)
  }

  /// Consumes a block of mono frames and writes the chroma frames it completes.
  ///
  /// - Parameters:
  ///   - frames: Mono samples at ``sampleRate``, any count.
  ///   - output: Room for at least ``maximumFrames(forFrames:)`` chroma frames.
  /// - Returns: The number of chroma frames written to the start of `output`, in time order.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(
    _ frames: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<ChromaFrame>
  )
    -> Int
  {
    var offset = 0
    var produced = 0
    while analysis.advance(frames, offset: &offset) {
      // Programmer error: `output` smaller than `maximumFrames(forFrames:)`.
      guard produced < output.count else { fatalError() }
      output[produced] = analysis.result
      produced += 1
    }
    return produced
  }

  /// Ends the stream: writes the chroma frames still pending, as if silence followed.
  ///
  /// Call ``reset()`` before pushing an unrelated stream.
  ///
  /// - Parameter output: Room for at least `maximumFrames(forFrames: 0)` chroma frames.
  /// - Returns: The number of chroma frames written.
  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into output: UnsafeMutableBufferPointer<ChromaFrame>) -> Int {
    var produced = 0
    while analysis.advanceFinishing() {
      // Programmer error: `output` smaller than `maximumFrames(forFrames: 0)`.
      guard produced < output.count else { fatalError() }
      output[produced] = analysis.result
      produced += 1
    }
    return produced
  }

  /// Forgets the stream (and the tuning estimate), to start an unrelated one; allocates nothing.
  public func reset() {
    analysis.reset()
  }

  /// Every chroma frame of a whole signal (offline convenience; allocates, not for the audio
  /// thread). Resets the chromagram first and finishes the stream.
  ///
  /// - Parameter samples: Mono samples at ``sampleRate``.
  /// - Returns: The frames in time order, one per hop from time 0 to the end of the signal.
  public func frames(for samples: [Float]) -> [ChromaFrame] {
    reset()
    let placeholder = ChromaFrame(
      time: 0, treble: Chroma(), bass: Chroma(), tuningCents: 0, levelDBFS: 0, harmonicity: 0)
    return runStream(
      samples, placeholder: placeholder, maximumOutputs: maximumFrames(forFrames:), process: process(_:into:),
      finish: finish(into:))
  }
}
