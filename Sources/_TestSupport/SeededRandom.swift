import Foundation

/// A small, fast, seedable random number generator (SplitMix64) for reproducible test signals.
///
/// Never use the system generator in tests: a failure must reproduce. The same seed always gives
/// the same sequence, on every platform. SplitMix64 passes BigCrush and is more than adequate for
/// noise signals; it is not cryptographic.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let x = random.nextUniform()      // in -1 ..< 1
/// let n = Int.random(in: 0..<10, using: &random)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
  /// The generator's state; advancing it by the golden-ratio increment gives the next output.
  public private(set) var state: UInt64

  /// Creates a generator from a seed. Any value, zero included, is a good seed.
  ///
  /// - Parameter seed: The initial state.
  public init(seed: UInt64) {
    state = seed
  }

  /// Returns the next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a uniformly distributed `Double` in `0 ..< 1` (53 random bits).
  public mutating func nextUnitDouble() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// Returns a uniformly distributed `Float` in `-1 ..< 1`.
  public mutating func nextUniform() -> Float {
    Float(2 * nextUnitDouble() - 1)
  }

  /// Returns a normally distributed value with mean 0 and standard deviation 1 (Box–Muller).
  public mutating func nextGaussian() -> Double {
    // 1 − u is in (0, 1], so the logarithm is finite.
    let u1 = 1 - nextUnitDouble()
    let u2 = nextUnitDouble()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
