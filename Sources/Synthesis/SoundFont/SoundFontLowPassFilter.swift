import Foundation

/// The resonant low-pass filter of one layer: a two-pole biquad (transposed direct form II) set
/// from `initialFilterFc` (absolute cents) and `initialFilterQ` (centibels of resonance).
///
/// As FluidSynth: the resonance in dB less 3.01 gives the quality factor, so Q = 0 cB is a
/// Butterworth response; cutoffs at or above 19 kHz, or above 0.45 of the sample rate, with
/// resonance under 1.2 dB leave the filter off (a no-op).
struct SoundFontLowPassFilter: Sendable {
  private var b0: Float = 1
  private var b1: Float = 0
  private var b2: Float = 0
  private var a1: Float = 0
  private var a2: Float = 0
  private var z1: Float = 0
  private var z2: Float = 0
  /// Whether the filter changes the signal.
  private(set) var isActive = false

  /// Sets the coefficients and clears the state.
  ///
  /// - Parameters:
  ///   - cutoffCents: The cutoff, absolute cents (Hz = 8.176 · 2^(cents/1200)).
  ///   - resonanceCentibels: The resonance peak, centibels, 0...960.
  ///   - sampleRate: The output rate, Hz.
  @_noLocks
  mutating func configure(cutoffCents: Double, resonanceCentibels: Double, sampleRate: Double) {
    z1 = 0
    z2 = 0
    let qDB = resonanceCentibels / 10
    // RT-audited: exp2/pow/sin/cos are pure libm calls without allocation or locks.
    let (hz, qLinear) = _unsafePerformance { (8.176 * exp2(cutoffCents / 1200), pow(10, (qDB - 3.01) / 20)) }
    let cutoff = min(hz, 0.45 * sampleRate)
    isActive = !(hz >= 19000 || hz > 0.45 * sampleRate) || qDB >= 1.2
    guard isActive else { return }
    let omega = 2 * Double.pi * cutoff / sampleRate
    let (sine, cosine) = _unsafePerformance { (sin(omega), cos(omega)) }
    let alpha = sine / (2 * qLinear)
    let a0 = 1 + alpha
    b1 = Float((1 - cosine) / a0)
    b0 = b1 / 2
    b2 = b0
    a1 = Float(-2 * cosine / a0)
    a2 = Float((1 - alpha) / a0)
  }

  /// Filters one sample.
  @_noLocks
  @inline(__always)
  mutating func process(_ x: Float) -> Float {
    let y = b0 * x + z1
    z1 = b1 * x - a1 * y + z2
    z2 = b2 * x - a2 * y
    return y
  }
}
