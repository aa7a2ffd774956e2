import PitchDSP
import ScoreModel
import Synchronization

/// A streaming chord recognizer: push mono frames of any count, receive time-stamped
/// ``ChordChange``s as they are decided.
///
/// Each 46 ms hop, a ``Chromagram`` frame (tuned log-frequency spectrum, approximate note
/// transcription, treble and bass chroma) is scored against every enabled chord — each root,
/// type and bass (``ChordDecision``) — and the scores are smoothed causally
/// (``ChordSmoothing``; by default a hidden Markov model's forward filter). When the decided
/// chord differs from the last one, a change comes out, timed at the centre of the frame that
/// decided it. For a whole file, ``ChordTranscriber`` decodes the best path (Viterbi) instead.
///
/// ```swift
/// let recognizer = try ChordRecognizer(configuration: .init(sampleRate: 48_000))
/// var changes = [ChordChange](repeating: .init(time: 0, root: -1, typeIndex: -1,
///   bassSemitones: 0, confidence: 0), count: recognizer.maximumChanges(forFrames: 512))
/// // In the audio callback, any block size:
/// let count = input.withUnsafeBufferPointer { block in
///   changes.withUnsafeMutableBufferPointer { recognizer.process(block, into: $0) }
/// }
/// // Elsewhere (allocates): recognizer.label(for: changes[0]).description  →  "A:min7"
/// ```
///
/// **Vocabulary**: ``Configuration/types`` lists what can be reported (by default `maj`,
/// `min`, `dim`, `aug`, `sus2`, `sus4`, `maj7`, `min7`, `7`, `dim7`, `hdim7`, `minmaj7`,
/// `maj6`, `min6`, `9`, `5`), and ``setEnabledTypes(_:)`` turns types on and off while audio
/// runs (thread-safe; the nine triads and sevenths are on at first). No chord, `N`, is always
/// possible: on silence, on noise, and when nothing enabled fits. Chords are reported over a
/// bass (`G:7/3`) from the bass chroma, which also picks the root of symmetric and ambiguous
/// chords: `C:aug`, `E:aug` and `G#:aug` have the same notes, and so do `C:sus4` and `F:sus2`;
/// the one whose root is in the bass wins, because an inversion costs a prior factor of 0.5.
///
/// **Latency** (``latencySeconds``, exact): a change timed `t` comes out of the
/// ``process(_:into:)`` call that pushes the input at `t + latencySeconds` — half an analysis
/// frame plus the resampler's delay, 189 ms at 44.1 kHz with the defaults. The smoothing adds
/// its own delay before a new chord wins (a frame or two for a clear change with the hidden
/// Markov model); that delay is not fixed, since it depends on how different the chords are.
/// The output does not depend on how the stream is cut into blocks.
///
/// - Note: ``process(_:into:)`` and ``finish(into:)`` are real-time safe.
public final class ChordRecognizer {
  /// The configuration.
  public let configuration: Configuration
  /// The delay, in seconds, between a change's time and the call that returns it.
  public let latencySeconds: Double

  private var analysis: ChromaAnalysis
  private var model: ChordModel
  private var smoother: ChordSmoother
  private let enabledMask: Atomic<UInt32>
  private var lastState = -1
  private var lastFrame: ChromaFrame

  /// Creates a recognizer; allocates all its memory.
  ///
  /// - Parameter configuration: The chromagram, vocabulary, decision and smoothing.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` for a configuration
  ///   out of range.
  public init(configuration: Configuration) throws(PitchDSPError) {
    try configuration.validate()
    self.configuration = configuration
    analysis = try ChromaAnalysis(configuration: configuration.chroma)
    latencySeconds = analysis.latencySeconds
    model = ChordModel(
      types: configuration.types, allowsInversions: configuration.allowsInversions,
      decision: configuration.decision)
    smoother = ChordSmoother(
      smoothing: configuration.smoothing, stateCount: model.stateCount, groupCount: model.groupCount,
      hopSeconds: configuration.chroma.hopSeconds, meanChordSeconds: configuration.meanChordSeconds)
    enabledMask = Atomic(Self.mask(of: configuration.enabledTypes, in: configuration.types))
    lastFrame = ChromaFrame(
      time: 0, treble: Chroma(), bass: Chroma(), tuningCents: 0, levelDBFS: -.infinity, harmonicity: 0)
  }

  /// The sample rate of the input, in Hz.
  public var sampleRate: Double { configuration.chroma.sampleRate }

  /// Every type the recognizer can report; ``ChordChange/typeIndex`` indexes it.
  public var types: [ChordType] { configuration.types }

  /// The current tuning estimate, in cents from the reference pitch.
  public var tuningCents: Double { Double(analysis.result.tuningCents) }

  /// The chroma frame analyzed last (for displays; read it on the audio thread, or copy it
  /// from there).
  public var lastChromaFrame: ChromaFrame { lastFrame }

  /// The types enabled now.
  public var enabledTypes: [ChordType] {
    let mask = enabledMask.load(ordering: .relaxed)
    return types.enumerated().filter { mask & (1 << UInt32($0.offset)) != 0 }.map(\.element)
  }

  /// Enables exactly `enabled` among ``types``; safe to call from any thread while audio runs.
  /// The next analysis frame uses the new set.
  ///
  /// - Parameter enabled: Types from ``types``; others are an error.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` naming a type the
  ///   recognizer was not configured with.
  public func setEnabledTypes(_ enabled: [ChordType]) throws(PitchDSPError) {
    for type in enabled where !types.contains(type) {
      throw .invalidParameter(
        name: "enabled chord type", value: type.description,
        expected: "one of " + types.map(\.description).joined(separator: ","))
    }
    enabledMask.store(Self.mask(of: enabled, in: types), ordering: .relaxed)
  }

  /// The most changes one ``process(_:into:)`` call on `count` frames (or one
  /// ``finish(into:)`` call, for `count` 0) can write: one per analysis frame.
  ///
  /// - Parameter count: Input frames in the call, ≥ 0.
  public func maximumChanges(forFrames count: Int) -> Int {
    analysis.maximumFrames(forInputFrames: count)
  }

  /// Consumes a block of mono frames and writes the chord changes decided meanwhile. The first
  /// analysis frame of a stream always gives a change (often to `N`).
  ///
  /// - Parameters:
  ///   - frames: Mono samples at ``sampleRate``, any count; NaN and ±∞ count as silence.
  ///   - changes: Room for at least ``maximumChanges(forFrames:)`` changes.
  /// - Returns: The number of changes written to the start of `changes`, in time order.
  /// - Note: Real-time safe.
  @_noLocks
  public func process(
    _ frames: UnsafeBufferPointer<Float>, into changes: UnsafeMutableBufferPointer<ChordChange>
  )
    -> Int
  {
    var offset = 0
    var produced = 0
    while analysis.advance(frames, offset: &offset) {
      produced += decide(into: changes, at: produced)
    }
    return produced
  }

  /// Ends the stream: analyzes the frames still pending, as if silence followed, and writes
  /// their changes. Call ``reset()`` before pushing an unrelated stream.
  ///
  /// - Parameter changes: Room for at least `maximumChanges(forFrames: 0)` changes.
  /// - Returns: The number of changes written.
  /// - Note: Real-time safe.
  @_noLocks
  public func finish(into changes: UnsafeMutableBufferPointer<ChordChange>) -> Int {
    var produced = 0
    while analysis.advanceFinishing() {
      produced += decide(into: changes, at: produced)
    }
    return produced
  }

  /// Forgets the stream (and the tuning estimate), to start an unrelated one; allocates nothing.
  public func reset() {
    analysis.reset()
    smoother.reset()
    lastState = -1
  }

  /// The Harte label of a change (allocates: not for the audio thread).
  ///
  /// - Parameter change: A change from this recognizer.
  /// - Returns: `N`, or the chord such as `G:7/3`.
  public func label(for change: ChordChange) -> ChordLabel {
    ChordLabels.label(
      root: change.root, typeIndex: change.typeIndex, bassSemitones: change.bassSemitones, types: types)
  }

  /// Scores and smooths the frame just analyzed; writes a change at `changes[index]` if the
  /// decision moved and returns 1, else 0.
  @_noLocks
  private func decide(into changes: UnsafeMutableBufferPointer<ChordChange>, at index: Int) -> Int {
    let frame = analysis.result
    lastFrame = frame
    let mask = enabledMask.load(ordering: .relaxed)
    model.score(frame, enabledMask: mask)
    let state = smoother.step(model, enabledMask: mask)
    guard state != lastState else { return 0 }
    lastState = state
    // Programmer error: `changes` smaller than `maximumChanges(forFrames:)`.
    guard index < changes.count else { fatalError() }
    changes[index] = ChordChange(
      time: frame.time, root: model.stateRoot[state], typeIndex: model.stateType[state],
      bassSemitones: model.stateBassInterval[state], confidence: smoother.confidence)
    return 1
  }

  /// Bit `t` set for each type of `enabled` at index `t` of `types`.
  static func mask(of enabled: [ChordType], in types: [ChordType]) -> UInt32 {
    var mask: UInt32 = 0
    for (t, type) in types.enumerated() where enabled.contains(type) { mask |= 1 << UInt32(t) }
    return mask
  }
}
