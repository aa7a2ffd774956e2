/// A streaming onset detector: push frames of any count, receive each ``Onset`` as soon as it is
/// certain.
///
/// This is the seam where users swap onset detection: Etude ships ``AmplitudeOnsetDetector``
/// (level against a running noise floor; cheap, and blind to legato pitch changes by design) and
/// ``SpectralFluxOnsetDetector`` (SuperFlux; catches softer and legato onsets, ignores vibrato).
/// A researcher's own detector conforms the same way.
///
/// ```swift
/// let detector = try SpectralFluxOnsetDetector(configuration: .init(sampleRate: 48000))
/// var onsets = [Onset](repeating: Onset(time: 0, strength: 0),
///                      count: detector.maximumOnsets(forFrames: 512))
/// // In the audio callback, any block size:
/// let count = input.withUnsafeBufferPointer { frames in
///   onsets.withUnsafeMutableBufferPointer { detector.process(frames, into: $0) }
/// }
/// ```
///
/// An onset at time `t` comes out of the ``process(_:into:)`` call that pushes the frame at
/// `t + latencySeconds` at the latest. The output does not depend on how the stream is cut into
/// blocks. At the end of a stream, ``finish(into:)`` emits the onsets still pending.
///
/// A detector needs a moment to learn the background: a sound already present in the stream's
/// first analysis frame is the background, not an onset (see each detector).
public protocol OnsetDetector: AnyObject {
  /// The sample rate of the frames, in Hz.
  var sampleRate: Double { get }

  /// The longest delay, in seconds, between an onset's time and the moment
  /// ``process(_:into:)`` returns it. Fixed for a configuration.
  var latencySeconds: Double { get }

  /// The most onsets one ``process(_:into:)`` call on `count` frames (or one ``finish(into:)``
  /// call, for `count` 0) can write.
  ///
  /// - Parameter count: Frames in the call, ≥ 0.
  func maximumOnsets(forFrames count: Int) -> Int

  /// Consumes a block of mono frames and writes the onsets that became certain.
  ///
  /// - Parameters:
  ///   - frames: Mono samples, any count; NaN and ±∞ count as silence.
  ///   - onsets: Room for at least ``maximumOnsets(forFrames:)`` onsets.
  /// - Returns: The number of onsets written to the start of `onsets`, in time order.
  /// - Note: Real-time safe in Etude's detectors.
  func process(_ frames: UnsafeBufferPointer<Float>, into onsets: UnsafeMutableBufferPointer<Onset>) -> Int

  /// Ends the stream: writes the onsets still pending, as if silence followed the last frame.
  ///
  /// Call ``reset()`` before pushing an unrelated stream.
  ///
  /// - Parameter onsets: Room for at least `maximumOnsets(forFrames: 0)` onsets.
  /// - Returns: The number of onsets written.
  /// - Note: Real-time safe in Etude's detectors.
  func finish(into onsets: UnsafeMutableBufferPointer<Onset>) -> Int

  /// Forgets the stream, to start an unrelated one.
  func reset()
}

extension OnsetDetector {
  /// Every onset of a whole signal (offline convenience; allocates, not for the audio thread).
  /// Resets the detector first and finishes the stream.
  ///
  /// - Parameter samples: Mono samples at ``sampleRate``.
  /// - Returns: The onsets in time order.
  public func onsets(for samples: [Float]) -> [Onset] {
    reset()
    return collectStream(
      samples, placeholder: Onset(time: 0, strength: 0), maximumOutputs: maximumOnsets(forFrames:),
      process: process(_:into:), finish: finish(into:))
  }
}
