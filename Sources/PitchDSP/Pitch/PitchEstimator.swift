/// A streaming pitch estimator: push frames of any count, receive one ``PitchEstimate`` per hop.
///
/// This is the seam where users swap pitch analysis: Etude ships ``YINEstimator``,
/// ``MPMEstimator`` and ``ProbabilisticYINEstimator``; a researcher's own estimator conforms the
/// same way and plugs into everything that tracks pitch.
///
/// ```swift
/// let estimator = try YINEstimator(configuration: .init(sampleRate: 44100))
/// var estimates = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0),
///                                  count: estimator.maximumEstimates(forFrames: 512))
/// // In the audio callback, any block size:
/// let count = input.withUnsafeBufferPointer { frames in
///   estimates.withUnsafeMutableBufferPointer { estimator.process(frames, into: $0) }
/// }
/// ```
///
/// Estimate `k` is timed at `k · hopSize / sampleRate` seconds (the centre of its analysis
/// frame); it comes out once the input up to `latencySeconds` later has been pushed. At the end
/// of a stream, ``finish(into:)`` emits the estimates still pending.
public protocol PitchEstimator: AnyObject {
  /// The configuration: sample rate, range, hop, window.
  var configuration: PitchConfiguration { get }

  /// The delay, in seconds, between an estimate's time and the moment ``process(_:into:)`` can
  /// return it: the input it needs beyond its own time. Fixed for a configuration.
  var latencySeconds: Double { get }

  /// The most estimates one ``process(_:into:)`` call on `count` frames (or one
  /// ``finish(into:)`` call, for `count` 0) can write.
  func maximumEstimates(forFrames count: Int) -> Int

  /// Consumes a block of mono frames and writes the estimates that became available.
  ///
  /// - Parameters:
  ///   - frames: Mono samples, any count; NaN and ±∞ count as silence.
  ///   - estimates: Room for at least ``maximumEstimates(forFrames:)`` estimates.
  /// - Returns: The number of estimates written to the start of `estimates`, in time order.
  func process(_ frames: UnsafeBufferPointer<Float>, into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int

  /// Ends the stream: writes the estimates still pending, up to the time of the last frame.
  ///
  /// - Parameter estimates: Room for at least `maximumEstimates(forFrames: 0)` estimates.
  /// - Returns: The number of estimates written.
  func finish(into estimates: UnsafeMutableBufferPointer<PitchEstimate>) -> Int

  /// Forgets the stream, to start an unrelated one.
  func reset()
}

extension PitchEstimator {
  /// The sample rate of the frames, in Hz.
  public var sampleRate: Double { configuration.sampleRate }

  /// Input frames between estimates.
  public var hopSize: Int { configuration.hopSize }

  /// Every estimate of a whole signal, from its first frame to its last (offline convenience;
  /// allocates, not for the audio thread). Resets the estimator first.
  ///
  /// - Parameter samples: Mono samples at ``sampleRate``.
  /// - Returns: One estimate per hop, `⌈count / hopSize⌉` in all.
  public func estimates(for samples: [Float]) -> [PitchEstimate] {
    reset()
    return collectStream(
      samples, placeholder: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0),
      maximumOutputs: maximumEstimates(forFrames:), process: process(_:into:), finish: finish(into:))
  }
}
