import Foundation

/// The pitch analysis's high-pass: a second-order Butterworth filter, in double precision, that
/// takes out what lies below the pitch range — a DC offset, the rumble of handling, wind or
/// traffic — before the difference function sees it (``PitchConfiguration/removesRumble``).
///
/// A strong component far below the range adds to `d(τ)` a term that grows with the lag, which
/// buries the dips of long periods and lifts the frame's level over the notes. A second order
/// rings least at a low note's attack: in `Evaluation/pitch` a fourth-order filter at the same
/// cutoff lost 5–34 frames of each set's clean renders, pYIN and live, where this one moves them
/// by −12 to +2, though it held more of pYIN's accuracy under rumble (`inputs.py`'s rumble:
/// 0.964 against this one's 0.898; 0.599 unfiltered).
///
/// The first finite sample seeds the state as if it had always been the input, so that an offset
/// present from the start is no step. Non-finite samples come out as 0 and leave the state as it
/// was (a burst of NaN is silence, and the signal after it continues without a transient).
struct RumbleFilter {
  /// The cutoff (−3 dB) as a share of the lowest pitch: 0.75 loses 1.2 dB at the lowest pitch
  /// and takes 16 dB off a component at 0.3 of it.
  static let cutoffShare = 0.75

  /// The cutoff, in Hz.
  let cutoffHz: Double
  // The Audio EQ Cookbook's high-pass with Q = 1/√2, normalized so that a0 = 1 (b2 = b0).
  private let b0: Double
  private let b1: Double
  private let a1: Double
  private let a2: Double
  /// Transposed direct form II state.
  private var s1 = 0.0
  private var s2 = 0.0
  private var seeded = false

  /// - Parameters:
  ///   - cutoffHz: The −3 dB frequency, in Hz (below half of `sampleRate`).
  ///   - sampleRate: The rate of the samples filtered, in Hz.
  init(cutoffHz: Double, sampleRate: Double) {
    self.cutoffHz = cutoffHz
    let w0 = 2 * Double.pi * cutoffHz / sampleRate
    let alpha = sin(w0) / 2.0.squareRoot()
    let a0 = 1 + alpha
    b0 = (1 + cos(w0)) / 2 / a0
    b1 = -(1 + cos(w0)) / a0
    a1 = -2 * cos(w0) / a0
    a2 = (1 - alpha) / a0
  }

  /// Filters one sample.
  @_noLocks
  mutating func process(_ x: Float) -> Float {
    guard x.isFinite else { return 0 }
    let value = Double(x)
    if !seeded { seed(value) }
    return Float(step(value))
  }

  /// The state of a filter whose input has always been `value` (its output is then 0).
  @_noLocks
  private mutating func seed(_ value: Double) {
    s2 = b0 * value
    s1 = b1 * value + s2
    seeded = true
  }

  @inline(__always)
  private mutating func step(_ value: Double) -> Double {
    let y = b0 * value + s1
    s1 = b1 * value - a1 * y + s2
    s2 = b0 * value - a2 * y
    return y
  }

  /// Forgets the stream.
  mutating func reset() {
    s1 = 0
    s2 = 0
    seeded = false
  }
}
