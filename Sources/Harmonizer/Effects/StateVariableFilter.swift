/// A second-order state-variable filter in the topology-preserving (trapezoidal) form: stable
/// for any cutoff and Q, also while they are modulated every sample, with low-pass, band-pass and
/// high-pass outputs from one state.
///
/// The cutoff is pre-warped, so the −3 dB point (Q = 1/√2) falls exactly on it.
struct StateVariableFilter: Sendable {
  private var a1: Float = 0
  private var a2: Float = 0
  private var a3: Float = 0
  /// 1/Q.
  private(set) var damping: Float = 1.414
  private var s1: Float = 0
  private var s2: Float = 0

  /// Sets the cutoff (clamped to 10 Hz ... 0.45 × `sampleRate`) and Q (clamped to 0.1 ... 40).
  @_noLocks
  mutating func setCutoff(_ cutoffHz: Float, q: Float, sampleRate: Double) {
    let fc = min(max(Double(cutoffHz), 10), 0.45 * sampleRate)
    let g = Float(EffectMath.tan(Double.pi * fc / sampleRate))
    let k = 1 / min(max(q, 0.1), 40)
    damping = k
    a1 = 1 / (1 + g * (g + k))
    a2 = g * a1
    a3 = g * a2
  }

  /// Filters one sample; returns the low-pass and band-pass outputs.
  @_noLocks
  @inline(__always)
  mutating func process(_ x: Float) -> (low: Float, band: Float) {
    let v3 = x - s2
    let v1 = a1 * s1 + a2 * v3
    let v2 = s2 + a2 * s1 + a3 * v3
    s1 = EffectMath.flushed(2 * v1 - s1)
    s2 = EffectMath.flushed(2 * v2 - s2)
    return (v2, v1)
  }

  /// Whether the state is finite (false after a blow-up; ``reset()`` recovers).
  var isFinite: Bool {
    @_noLocks get { s1.isFinite && s2.isFinite }
  }

  /// Clears the state.
  @_noLocks
  mutating func reset() {
    s1 = 0
    s2 = 0
  }
}
