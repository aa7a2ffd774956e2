import Foundation

/// The pure-Swift FFT: a radix-4 Stockham autosort transform on split complex data.
///
/// Each stage reads one buffer and writes the other, so no bit-reversal pass is needed and every
/// inner loop walks memory contiguously in blocks of four (`SIMD4<Float>`). Sizes with an odd
/// power of two end with one radix-2 stage. Twiddle factors are computed in `Double` once, in
/// `init`, and rounded to `Float`. The real transform packs `N` samples into `N/2` complex values
/// and untangles the result with one extra pass.
///
/// Transforms allocate nothing, take no locks and are checked by the compiler (`@_noLocks`).
/// One instance must not be used from two threads at once.
///
/// - Complexity: O(N log N) per transform; `init` allocates about `10·N` floats.
public final class SwiftFFTBackend: FFTBackend {
  /// The backend's name in reports: `"swift"`.
  public static let name = "swift"

  /// The largest supported size.
  public static let maximumSize = 1 << 24

  /// The number of points, `N`.
  public let size: Int

  /// The complex transform used by ``forward(real:imaginary:)``, of `size` points.
  let complexPlan: StockhamPlan
  /// The complex transform of `size / 2` points used by the real transforms.
  let halfPlan: StockhamPlan
  /// `e^(−2πi·k/N)` for `k` in `0..<N/2`, for untangling real transforms.
  let realTwiddleRe: UnsafeMutablePointer<Float>
  let realTwiddleIm: UnsafeMutablePointer<Float>
  /// Scratch for the real transforms: `N/2` real and `N/2` imaginary values.
  let packRe: UnsafeMutablePointer<Float>
  let packIm: UnsafeMutablePointer<Float>

  /// Creates a transform of `size` points.
  ///
  /// - Parameter size: A power of two from 2 to ``maximumSize``.
  /// - Throws: ``PitchDSPError/invalidParameter(name:value:expected:)`` otherwise.
  public init(size: Int) throws(PitchDSPError) {
    try Self.validateSize(size, in: 2...Self.maximumSize)
    self.size = size
    complexPlan = StockhamPlan(size: size)
    halfPlan = StockhamPlan(size: size / 2)
    let half = size / 2
    realTwiddleRe = .allocate(capacity: half)
    realTwiddleIm = .allocate(capacity: half)
    for k in 0..<half {
      let angle = -2 * Double.pi * Double(k) / Double(size)
      realTwiddleRe[k] = Float(cos(angle))
      realTwiddleIm[k] = Float(sin(angle))
    }
    packRe = .allocate(capacity: half)
    packIm = .allocate(capacity: half)
    packRe.initialize(repeating: 0, count: half)
    packIm.initialize(repeating: 0, count: half)
  }

  deinit {
    complexPlan.deallocate()
    halfPlan.deallocate()
    realTwiddleRe.deallocate()
    realTwiddleIm.deallocate()
    packRe.deallocate()
    packIm.deallocate()
  }

  /// Transforms `N` complex values in place, forward (unscaled).
  ///
  /// - Parameters:
  ///   - real: The real parts, exactly `size` values.
  ///   - imaginary: The imaginary parts, exactly `size` values.
  /// - Note: Real-time safe.
  @_noLocks
  public func forward(
    real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>
  ) {
    // Precondition, a programmer error: buffers hold size values (no message: building one would allocate).
    guard real.count == size, imaginary.count == size else { fatalError() }
    guard let re = real.baseAddress, let im = imaginary.baseAddress else { return }
    complexPlan.transformInPlace(re: re, im: im)
  }

  /// Transforms `N` complex values in place, inverse (scaled by `1/N`).
  ///
  /// - Parameters:
  ///   - real: The real parts, exactly `size` values.
  ///   - imaginary: The imaginary parts, exactly `size` values.
  /// - Note: Real-time safe.
  @_noLocks
  public func inverse(
    real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>
  ) {
    // Precondition, a programmer error: buffers hold size values (no message: building one would allocate).
    guard real.count == size, imaginary.count == size else { fatalError() }
    guard let re = real.baseAddress, let im = imaginary.baseAddress else { return }
    // Swapping real and imaginary parts on the way in and out turns the forward
    // transform into the unscaled inverse.
    complexPlan.transformInPlace(re: im, im: re)
    scale(re, count: size, by: 1 / Float(size))
    scale(im, count: size, by: 1 / Float(size))
  }

  /// Transforms `N` real samples to the `N/2 + 1` bins of their spectrum (unscaled).
  ///
  /// - Parameters:
  ///   - input: Exactly `size` samples.
  ///   - real: Receives `size/2 + 1` real parts.
  ///   - imaginary: Receives `size/2 + 1` imaginary parts.
  /// - Note: Real-time safe.
  @_noLocks
  public func forwardReal(
    _ input: UnsafeBufferPointer<Float>,
    real: UnsafeMutableBufferPointer<Float>,
    imaginary: UnsafeMutableBufferPointer<Float>
  ) {
    let half = size / 2
    // Precondition, a programmer error: input holds size samples (no message: building one would allocate).
    guard input.count == size else { fatalError() }
    // Precondition, a programmer error: outputs need size/2 + 1 bins (no message: building one would allocate).
    guard real.count >= half + 1, imaginary.count >= half + 1 else { fatalError() }
    guard let x = input.baseAddress, let outRe = real.baseAddress,
      let outIm = imaginary.baseAddress
    else { return }
    // Pack even samples as real parts and odd samples as imaginary parts.
    deinterleave(x, re: packRe, im: packIm, pairs: half)
    let (zr, zi) = halfPlan.transform(re: packRe, im: packIm)
    // Untangle: X[k] = E[k] + W^k·O[k], with E = (Z[k] + Z*[M−k]) / 2 and
    // O = (Z[k] − Z*[M−k]) / 2i.
    outRe[0] = zr[0] + zi[0]
    outIm[0] = 0
    outRe[half] = zr[0] - zi[0]
    outIm[half] = 0
    var k = 1
    while k < half {
      let ar = zr[k], ai = zi[k]
      let br = zr[half - k], bi = -zi[half - k]
      let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
      // (a − b) / 2i = (−i/2)(a − b)
      let or = 0.5 * (ai - bi), oi = -0.5 * (ar - br)
      let wr = realTwiddleRe[k], wi = realTwiddleIm[k]
      outRe[k] = er + wr * or - wi * oi
      outIm[k] = ei + wr * oi + wi * or
      k += 1
    }
  }

  /// Transforms the `N/2 + 1` bins of a real signal's spectrum back to `N` samples (scaled by `1/N`).
  ///
  /// - Parameters:
  ///   - real: `size/2 + 1` real parts.
  ///   - imaginary: `size/2 + 1` imaginary parts (those of bins 0 and `N/2` are ignored).
  ///   - output: Receives exactly `size` samples.
  /// - Note: Real-time safe.
  @_noLocks
  public func inverseReal(
    real: UnsafeBufferPointer<Float>,
    imaginary: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>
  ) {
    let half = size / 2
    // Precondition, a programmer error: inputs need size/2 + 1 bins (no message: building one would allocate).
    guard real.count >= half + 1, imaginary.count >= half + 1 else { fatalError() }
    // Precondition, a programmer error: output holds size samples (no message: building one would allocate).
    guard output.count == size else { fatalError() }
    guard let xr = real.baseAddress, let xi = imaginary.baseAddress, let y = output.baseAddress
    else { return }
    // Rebuild Z[k] = E[k] + i·O[k] with E = (X[k] + X*[M−k]) / 2 and
    // O = (X[k] − X*[M−k]) / 2 · W^−k, then invert the half-size transform.
    packRe[0] = 0.5 * (xr[0] + xr[half])
    packIm[0] = 0.5 * (xr[0] - xr[half])
    var k = 1
    while k < half {
      let ar = xr[k], ai = xi[k]
      let br = xr[half - k], bi = -xi[half - k]
      let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
      let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
      // W^−k = conj(W^k)
      let wr = realTwiddleRe[k], wi = -realTwiddleIm[k]
      let or = dr * wr - di * wi, oi = dr * wi + di * wr
      // Z = E + i·O
      packRe[k] = er - oi
      packIm[k] = ei + or
      k += 1
    }
    // Inverse by swapping real and imaginary parts around the forward transform.
    let (zi, zr) = halfPlan.transform(re: packIm, im: packRe)
    let scaleFactor = 1 / Float(half)
    for j in 0..<half {
      y[2 * j] = zr[j] * scaleFactor
      y[2 * j + 1] = zi[j] * scaleFactor
    }
  }
}

/// Multiplies `count` floats at `p` by `factor`.
@inline(__always)
func scale(_ p: UnsafeMutablePointer<Float>, count: Int, by factor: Float) {
  for i in 0..<count { p[i] *= factor }
}

/// Splits `pairs` interleaved pairs at `x` into `re` (even samples) and `im` (odd samples).
@inline(__always)
func deinterleave(
  _ x: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>,
  pairs: Int
) {
  for j in 0..<pairs {
    re[j] = x[2 * j]
    im[j] = x[2 * j + 1]
  }
}
