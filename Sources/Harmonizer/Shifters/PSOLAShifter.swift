/// A pitch shifter for voice: pitch-synchronous overlap-add (TD-PSOLA) driven by PitchDSP's
/// pitch tracker, which moves the pitch and keeps the formants.
///
/// A ``PitchMarkAnalyzer`` tracks the pitch (streaming YIN) and marks every period of the input
/// at the same epoch; a ``PSOLASynthesizer`` re-spaces two-period grains cut around those marks
/// at the shifted period. The grains are not resampled, so the spectral envelope (the vowel, the
/// singer's timbre) stays put while the pitch moves; on unvoiced input (consonants, breath, noise)
/// the shifter crossfades to the unshifted input. See <doc:PitchShifting>.
///
/// **Latency** is fixed by the pitch range: ``latencySamples`` is the analyzer's
/// ``PitchMarkAnalyzer/synthesisLatencySamples``, the tracker's look-ahead plus about two and a
/// half of the longest periods: 2479 samples (56 ms) at 44.1 kHz and 2709 at 48 kHz for the
/// default 75...1100 Hz range; a higher lowest pitch shortens it.
///
/// Several voices off one input (a harmonizer) should share the analysis: one
/// ``PitchMarkAnalyzer`` and one ``PSOLASynthesizer`` per voice, rather than one shifter each.
///
/// A class because it owns preallocated memory; `Sendable` so that it can be handed to the audio
/// thread, but used from one thread at a time.
///
/// ```swift
/// let shifter = try PSOLAShifter(sampleRate: 48000, semitones: -5)
/// // In the audio callback, any block size:
/// shifter.process(input, into: output)
/// ```
public final class PSOLAShifter: PitchShifter, @unchecked Sendable {
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The analysis and synthesis settings.
  public let configuration: Configuration
  /// The output's lag behind the input, in samples (fixed for the configuration).
  public let latencySamples: Int

  private let analyzerOwner: PitchMarkAnalyzer
  // Views of the owners above, used on the audio path without reference counting.
  private let analyzer: Unmanaged<PitchMarkAnalyzer>
  private let synthesizerOwner: PSOLASynthesizer
  private let synthesizer: Unmanaged<PSOLASynthesizer>
  private let chunk: Int

  /// Creates a shifter and allocates all its memory.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - semitones: The starting shift (reached at once).
  ///   - configuration: Pitch range, tracker and synthesis settings.
  /// - Throws: ``HarmonizerError/invalidParameter(name:value:expected:)`` for values out of range.
  public init(sampleRate: Double, semitones: Double = 0, configuration: Configuration = .init()) throws(HarmonizerError) {
    self.sampleRate = sampleRate
    self.configuration = configuration
    let analyzer = try PitchMarkAnalyzer(sampleRate: sampleRate, maximumFrames: 256, configuration: configuration.analysis)
    let synthesizer = try PSOLASynthesizer(analyzer: analyzer, semitones: semitones, configuration: configuration.synthesis)
    analyzerOwner = analyzer
    synthesizerOwner = synthesizer
    self.analyzer = .passUnretained(analyzer)
    self.synthesizer = .passUnretained(synthesizer)
    chunk = analyzer.maximumFrames
    latencySamples = synthesizer.latencySamples
  }

  /// The shift in semitones (positive up; clamped to ±24 by default; a non-finite value is
  /// ignored). A change glides in over the synthesis configuration's glide time.
  public var semitones: Double {
    get { synthesizerOwner.semitones }
    set { synthesizerOwner.semitones = newValue }
  }

  /// Shifts a block of samples.
  ///
  /// - Parameters:
  ///   - input: Mono samples, any count; NaN and ±∞ are treated as 0.
  ///   - output: Room for `input.count` samples (extra room is left untouched).
  /// - Note: Real-time safe: no allocation, no locks. The output does not depend on how the
  ///   stream is cut into blocks.
  @_noLocks
  public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
    let count = min(input.count, output.count)
    var start = 0
    while start < count {
      let end = min(count, start + chunk)
      let frames = UnsafeBufferPointer(rebasing: input[start..<end])
      let out = UnsafeMutableBufferPointer(rebasing: output[start..<end])
      let view = analyzer._withUnsafeGuaranteedRef { analysis in
        analysis.analyze(frames)
        return analysis.view()
      }
      synthesizer._withUnsafeGuaranteedRef { $0.render(from: view, into: out) }
      start = end
    }
  }

  /// Forgets the signal (the shift stays, reached at once).
  public func reset() {
    analyzerOwner.reset()
    synthesizerOwner.reset()
  }
}
