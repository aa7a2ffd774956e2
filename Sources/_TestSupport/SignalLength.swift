/// The length of a generated signal: a duration in seconds or an exact number of frames.
public enum SignalLength: Sendable, Hashable {
  /// A duration in seconds; rounded to the nearest whole frame.
  case seconds(Double)
  /// An exact number of frames (samples of the mono signal).
  case frames(Int)

  /// The number of frames at `sampleRate`.
  ///
  /// - Parameter sampleRate: Frames per second, in Hz.
  /// - Returns: The frame count, at least 0.
  public func frameCount(sampleRate: Double) -> Int {
    switch self {
    case .seconds(let seconds): max(0, Int((seconds * sampleRate).rounded()))
    case .frames(let frames): max(0, frames)
    }
  }
}
