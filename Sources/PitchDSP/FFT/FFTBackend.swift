/// A fast Fourier transform of one fixed power-of-two size: the seam where users swap FFT kernels.
///
/// Etude ships two backends: ``SwiftFFTBackend`` (pure Swift, always available) and
/// `KissFFTBackend` (the kiss_fft C library, with the package trait `KissFFT`). Both give the same
/// results to within Float rounding, so analyzers may use either.
///
/// ## Conventions
/// - Complex data is *split*: one buffer of real parts, one of imaginary parts.
/// - The forward transform is unscaled, `X[k] = Σ x[n]·e^(−2πi·kn/N)`; the inverse is scaled by
///   `1/N`, so `inverse(forward(x)) == x`.
/// - The real transform of `N` samples gives the `N/2 + 1` non-negative-frequency bins
///   `0...N/2`; the imaginary parts of bins `0` and `N/2` are zero.
///
/// An instance owns its scratch memory, so one instance must not be used from two threads at
/// once; create one per thread. Creating an instance allocates; transforming never does.
public protocol FFTBackend: AnyObject {
  /// A short name for reports and benchmarks, such as `"swift"` or `"kissfft"`.
  static var name: String { get }

  /// Creates a transform of `size` points.
  ///
  /// - Parameter size: A power of two from 2 to 65536 (backends may accept more).
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` when `size` is not a
  ///   supported power of two.
  init(size: Int) throws(PitchDSPError)

  /// The number of points, `N`.
  var size: Int { get }

  /// Transforms `N` complex values in place, forward (unscaled).
  ///
  /// - Parameters:
  ///   - real: The real parts, exactly `size` values; replaced by the spectrum's real parts.
  ///   - imaginary: The imaginary parts, exactly `size` values.
  /// - Note: Real-time safe.
  func forward(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>)

  /// Transforms `N` complex values in place, inverse (scaled by `1/N`).
  ///
  /// - Parameters:
  ///   - real: The real parts, exactly `size` values; replaced by the signal's real parts.
  ///   - imaginary: The imaginary parts, exactly `size` values.
  /// - Note: Real-time safe.
  func inverse(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>)

  /// Transforms `N` real samples to the `N/2 + 1` bins of their spectrum (unscaled).
  ///
  /// - Parameters:
  ///   - input: Exactly `size` real samples; not modified.
  ///   - real: Receives `size/2 + 1` real parts.
  ///   - imaginary: Receives `size/2 + 1` imaginary parts.
  /// - Note: Real-time safe.
  func forwardReal(
    _ input: UnsafeBufferPointer<Float>,
    real: UnsafeMutableBufferPointer<Float>,
    imaginary: UnsafeMutableBufferPointer<Float>)

  /// Transforms the `N/2 + 1` bins of a real signal's spectrum back to `N` samples (scaled by `1/N`).
  ///
  /// The imaginary parts of bins `0` and `N/2` are ignored.
  ///
  /// - Parameters:
  ///   - real: `size/2 + 1` real parts.
  ///   - imaginary: `size/2 + 1` imaginary parts.
  ///   - output: Receives exactly `size` samples.
  /// - Note: Real-time safe.
  func inverseReal(
    real: UnsafeBufferPointer<Float>,
    imaginary: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>)
}

extension FFTBackend {
  /// Checks that `size` is a power of two within `range`, for backends' initializers.
  ///
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` otherwise.
  static func validateSize(_ size: Int, in range: ClosedRange<Int>) throws(PitchDSPError) {
    guard range.contains(size), size & (size - 1) == 0 else {
      throw .invalidParameter(
        name: "FFT size", value: String(size),
        expected: "a power of two from \(range.lowerBound) to \(range.upperBound)")
    }
  }

  /// Returns the spectrum of `samples` (offline convenience; allocates).
  ///
  /// - Parameter samples: Exactly `size` real samples.
  /// - Returns: The `size/2 + 1` bins, split into real and imaginary parts.
  public func forwardReal(_ samples: [Float]) -> (real: [Float], imaginary: [Float]) {
    precondition(samples.count == size, "expected \(size) samples, got \(samples.count)")
    var re = [Float](repeating: 0, count: size / 2 + 1)
    var im = re
    samples.withUnsafeBufferPointer { input in
      re.withUnsafeMutableBufferPointer { r in
        im.withUnsafeMutableBufferPointer { i in forwardReal(input, real: r, imaginary: i) }
      }
    }
    return (re, im)
  }

  /// Returns the magnitudes `|X[k]|` of the `size/2 + 1` bins of `samples` (offline convenience).
  ///
  /// - Parameter samples: Exactly `size` real samples.
  public func magnitudes(_ samples: [Float]) -> [Float] {
    let (re, im) = forwardReal(samples)
    return zip(re, im).map { ($0 * $0 + $1 * $1).squareRoot() }
  }
}
