/// The shape of an ``Oscillator``'s cycle.
///
/// Every shape starts its cycle at 0 (phase 0), so a note that starts at phase 0 starts without a
/// step. The sawtooth, square and triangle are band-limited: they hold only harmonics below the
/// Nyquist frequency of the rate they are played at (see ``Oscillator``), with the Fourier
/// amplitudes of the ideal shape, so their peaks overshoot ±1 slightly (Gibbs ripple, at most
/// about 1.18 for the sawtooth and square).
public enum Waveform: String, Sendable, Hashable, Codable, CaseIterable {
  /// A pure sine, `sin(2π·phase)`.
  case sine
  /// A rising ramp, `(2/π)·Σ (−1)^(k+1)·sin(2πk·phase)/k`: 0 at phase 0, rising to +1 before
  /// phase ½, jumping to −1 and rising back to 0.
  case sawtooth
  /// A square wave, `(4/π)·Σ_odd sin(2πk·phase)/k`: +1 for the first half cycle, −1 for the second.
  case square
  /// A triangle, `(8/π²)·Σ_odd (−1)^((k−1)/2)·sin(2πk·phase)/k²`: 0 at phase 0, +1 at ¼, −1 at ¾.
  case triangle

  /// The amplitude of harmonic `k` (1-based) in the ideal shape's sine series.
  func harmonicAmplitude(_ k: Int) -> Double {
    switch self {
    case .sine:
      return k == 1 ? 1 : 0
    case .sawtooth:
      return (k % 2 == 1 ? 2 : -2) / (Double.pi * Double(k))
    case .square:
      return k % 2 == 1 ? 4 / (Double.pi * Double(k)) : 0
    case .triangle:
      guard k % 2 == 1 else { return 0 }
      let sign: Double = (k / 2) % 2 == 0 ? 1 : -1
      return sign * 8 / (Double.pi * Double.pi * Double(k * k))
    }
  }
}
