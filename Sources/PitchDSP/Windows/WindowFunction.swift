import Foundation

/// A window function for spectral analysis and filter design.
///
/// Windows are generated in `Double` and stored as `Float`. ``Symmetry/periodic`` windows (the
/// default) are the right choice for overlapping FFT frames (a Hann window of length `N` sums to a
/// constant at hop `N/2`); ``Symmetry/symmetric`` windows are the right choice for FIR design.
public enum WindowFunction: Sendable, Hashable, Codable {
  /// All ones.
  case rectangular
  /// The raised cosine `0.5 − 0.5·cos(2πn/L)`; first side lobe −31 dB.
  case hann
  /// `0.54 − 0.46·cos(2πn/L)`; first side lobe −43 dB.
  case hamming
  /// The classic three-term Blackman window; side lobes below −58 dB.
  case blackman
  /// The four-term Blackman–Harris window; side lobes below −92 dB.
  case blackmanHarris
  /// The Kaiser window with shape parameter `beta` (0 = rectangular; 8.6 ≈ Blackman–Harris).
  case kaiser(beta: Double)
  /// A Gaussian window with standard deviation `sigma` as a fraction of half the length (0 < sigma ≤ 0.5 typical).
  case gaussian(sigma: Double)

  /// Whether the window is built for spectral frames or for filter design.
  public enum Symmetry: Sendable, Hashable, Codable {
    /// Periodic (DFT-even): the length-`N` window is the first `N` points of a length-`N+1`
    /// symmetric window. Use for FFT frames.
    case periodic
    /// Symmetric: `w[n] == w[N−1−n]`. Use for FIR filters.
    case symmetric
  }

  /// The value at position `n` of a window of `count` points.
  ///
  /// - Parameters:
  ///   - n: A position in `0..<count`.
  ///   - count: The window length, at least 1.
  ///   - symmetry: Periodic or symmetric.
  /// - Returns: The window value, in `0...1`.
  public func value(at n: Int, count: Int, symmetry: Symmetry = .periodic) -> Double {
    let length = Double(symmetry == .periodic ? count : count - 1)
    guard length > 0 else { return 1 }
    let x = Double(n) / length  // 0...1 across the window
    let twoPi = 2 * Double.pi
    switch self {
    case .rectangular:
      return 1
    case .hann:
      return 0.5 - 0.5 * cos(twoPi * x)
    case .hamming:
      return 0.54 - 0.46 * cos(twoPi * x)
    case .blackman:
      return 0.42 - 0.5 * cos(twoPi * x) + 0.08 * cos(2 * twoPi * x)
    case .blackmanHarris:
      return 0.35875 - 0.48829 * cos(twoPi * x) + 0.14128 * cos(2 * twoPi * x)
        - 0.01168 * cos(3 * twoPi * x)
    case .kaiser(let beta):
      let r = 2 * x - 1  // −1...1
      return besselI0(beta * max(0, 1 - r * r).squareRoot()) / besselI0(beta)
    case .gaussian(let sigma):
      let r = 2 * x - 1
      return exp(-0.5 * (r / sigma) * (r / sigma))
    }
  }

  /// Returns a window of `count` points.
  ///
  /// - Parameters:
  ///   - count: The window length, at least 1.
  ///   - symmetry: Periodic (FFT frames, the default) or symmetric (filters).
  /// - Returns: `count` window values.
  public func makeWindow(count: Int, symmetry: Symmetry = .periodic) -> [Float] {
    precondition(count >= 1, "a window has at least one point")
    return (0..<count).map { Float(value(at: $0, count: count, symmetry: symmetry)) }
  }

  /// The window's coherent gain: its mean value, the amplitude factor a windowed sine keeps.
  ///
  /// - Parameter count: The window length.
  public func coherentGain(count: Int) -> Double {
    (0..<count).reduce(0.0) { $0 + value(at: $1, count: count) } / Double(count)
  }

  /// The window's equivalent noise bandwidth in bins: `N·Σw² / (Σw)²` (1 for rectangular, 1.5 for Hann).
  ///
  /// - Parameter count: The window length.
  public func equivalentNoiseBandwidth(count: Int) -> Double {
    let values = (0..<count).map { value(at: $0, count: count) }
    let sum = values.reduce(0, +)
    let sumOfSquares = values.reduce(0) { $0 + $1 * $1 }
    return Double(count) * sumOfSquares / (sum * sum)
  }
}

/// The modified Bessel function of the first kind, order 0, by its power series.
///
/// Converges for all real `x`; accurate to about 1e-15 relative for `|x| < 50`.
///
/// - Parameter x: The argument.
/// - Returns: `I₀(x)`.
public func besselI0(_ x: Double) -> Double {
  var sum = 1.0
  var term = 1.0
  let quarterSquare = x * x / 4
  var k = 1.0
  while term > sum * 1e-17 {
    term *= quarterSquare / (k * k)
    sum += term
    k += 1
  }
  return sum
}
