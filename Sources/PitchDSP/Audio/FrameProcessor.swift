/// Something that consumes mono audio frames as they arrive: the seam where audio enters every
/// Etude analyzer.
///
/// A conforming type accepts any number of frames per call, from 1 to its prepared maximum (and
/// usually any count at all, by working through its input in internal blocks), so callers never
/// need to match a fixed buffer size. Pitch trackers, onset detectors, chromagrams and
/// performance followers all conform; an app feeds them straight from its audio callback.
///
/// Conforming types document in their own `process(_:)` whether it is real-time safe: allocation
/// free and lock free, checked by the compiler with `@_noLocks` wherever they claim it.
public protocol FrameProcessor {
  /// The sample rate of the frames this processor expects, in Hz.
  var sampleRate: Double { get }

  /// Consumes a block of mono frames.
  ///
  /// - Parameter frames: Mono samples, any count (including zero).
  mutating func process(_ frames: UnsafeBufferPointer<Float>)
}

extension FrameProcessor {
  /// Consumes an array of mono frames; a convenience for offline use (not for the audio thread).
  ///
  /// - Parameter frames: Mono samples, any count.
  public mutating func process(_ frames: [Float]) {
    frames.withUnsafeBufferPointer { process($0) }
  }
}
