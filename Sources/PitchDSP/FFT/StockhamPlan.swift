import Foundation

/// A forward complex FFT of one power-of-two size on split data: twiddle tables and ping-pong
/// scratch buffers for the radix-4 Stockham stages of ``SwiftFFTBackend``.
///
/// Stage `j` reads a sequence of length `len = N / 4^j` in blocks of stride `s = 4^j` and writes the
/// butterflies' outputs in sorted (autosort) order, so the result needs no bit reversal. When
/// `log2 N` is odd the last stage is radix 2.
///
/// A plan is a plain value over memory it allocates in `init`; its owner calls ``deallocate()``
/// exactly once (a struct of pointers, so using it on the audio path costs no reference counting).
struct StockhamPlan {
  /// The number of points.
  let size: Int
  /// The radix-4 twiddles of every stage, one after the other: for a stage of length `len` and
  /// `m = len / 4`, the six tables `W¹ᵖ.re, W¹ᵖ.im, W²ᵖ.re, W²ᵖ.im, W³ᵖ.re, W³ᵖ.im` for
  /// `p` in `0..<m`, with `W = e^(−2πi/len)`.
  let twiddles: UnsafeMutablePointer<Float>
  /// Ping-pong scratch, `size` values each.
  let workRe: UnsafeMutablePointer<Float>
  let workIm: UnsafeMutablePointer<Float>

  init(size: Int) {
    precondition(size >= 1 && size & (size - 1) == 0)
    self.size = size
    var count = 0
    var len = size
    while len >= 4 {
      count += 6 * (len / 4)
      len /= 4
    }
    twiddles = .allocate(capacity: max(count, 1))
    var offset = 0
    len = size
    while len >= 4 {
      let m = len / 4
      for p in 0..<m {
        for k in 1...3 {
          let angle = -2 * Double.pi * Double(k * p) / Double(len)
          twiddles[offset + (2 * (k - 1)) * m + p] = Float(cos(angle))
          twiddles[offset + (2 * (k - 1) + 1) * m + p] = Float(sin(angle))
        }
      }
      offset += 6 * m
      len /= 4
    }
    workRe = .allocate(capacity: size)
    workIm = .allocate(capacity: size)
    workRe.initialize(repeating: 0, count: size)
    workIm.initialize(repeating: 0, count: size)
  }

  /// Frees the plan's memory; call once, from the owner's `deinit`.
  func deallocate() {
    twiddles.deallocate()
    workRe.deallocate()
    workIm.deallocate()
  }

  /// Transforms the `size` values at `re`/`im` and leaves the result in place.
  @_noLocks
  func transformInPlace(re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
    let (outRe, outIm) = transform(re: re, im: im)
    if outRe != re {
      for i in 0..<size {
        re[i] = outRe[i]
        im[i] = outIm[i]
      }
    }
  }

  /// Transforms the `size` values at `re`/`im`, using them as scratch, and returns where the
  /// result is: either `re`/`im` themselves or the plan's work buffers.
  @_noLocks
  func transform(
    re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>
  ) -> (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) {
    var xr = re, xi = im
    var yr = workRe, yi = workIm
    var len = size
    var s = 1
    var tw = UnsafePointer(twiddles)
    while len >= 4 {
      let m = len / 4
      if s == 1 && m % 4 == 0 {
        radix4FirstStage(m: m, xr: xr, xi: xi, yr: yr, yi: yi, tw: tw)
      } else if s % 4 == 0 {
        radix4Stage(s: s, m: m, xr: xr, xi: xi, yr: yr, yi: yi, tw: tw)
      } else {
        radix4ScalarStage(s: s, m: m, xr: xr, xi: xi, yr: yr, yi: yi, tw: tw)
      }
      tw += 6 * m
      swap(&xr, &yr)
      swap(&xi, &yi)
      len = m
      s *= 4
    }
    if len == 2 {
      radix2LastStage(s: s, xr: xr, xi: xi, yr: yr, yi: yi)
      swap(&xr, &yr)
      swap(&xi, &yi)
    }
    return (xr, xi)
  }
}

// MARK: - Kernels

@inline(__always)
private func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
  UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
}

@inline(__always)
private func load4(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
  UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
}

@inline(__always)
private func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
  UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
}

/// Stores the 4×4 matrix whose columns are `a`, `b`, `c`, `d` row by row from `p`: `p[4i + j]`
/// is lane `i` of the `j`th vector.
///
/// Half-vector moves and even/odd selections, which compile to four-lane shuffles. Not inlined on
/// purpose: inlined into ``radix4FirstStage(m:xr:xi:yr:yi:tw:)``, the lane-by-lane stores led
/// the optimizer to scalarize the whole butterfly (x86-64, Swift 6), and the first stage cost
/// more than the other four of a 1024-point transform together (callgrind: 55.6k instructions
/// per transform then, 37k with this call).
@inline(never)
private func storeTransposed(
  _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>, to p: UnsafeMutablePointer<Float>
) {
  let abLow = SIMD4(lowHalf: a.lowHalf, highHalf: b.lowHalf)
  let cdLow = SIMD4(lowHalf: c.lowHalf, highHalf: d.lowHalf)
  let abHigh = SIMD4(lowHalf: a.highHalf, highHalf: b.highHalf)
  let cdHigh = SIMD4(lowHalf: c.highHalf, highHalf: d.highHalf)
  store4(SIMD4(lowHalf: abLow.evenHalf, highHalf: cdLow.evenHalf), p)
  store4(SIMD4(lowHalf: abLow.oddHalf, highHalf: cdLow.oddHalf), p + 4)
  store4(SIMD4(lowHalf: abHigh.evenHalf, highHalf: cdHigh.evenHalf), p + 8)
  store4(SIMD4(lowHalf: abHigh.oddHalf, highHalf: cdHigh.oddHalf), p + 12)
}

/// The first radix-4 stage (`s == 1`), vectorized across `p` four at a time; needs `m % 4 == 0`.
/// Outputs `y[4p + k]` are transposed from the four result vectors as they are stored
/// (``storeTransposed(_:_:_:_:to:)``).
@inline(__always)
private func radix4FirstStage(
  m: Int,
  xr: UnsafeMutablePointer<Float>, xi: UnsafeMutablePointer<Float>,
  yr: UnsafeMutablePointer<Float>, yi: UnsafeMutablePointer<Float>,
  tw: UnsafePointer<Float>
) {
  var p = 0
  while p < m {
    let ar = load4(xr + p), ai = load4(xi + p)
    let br = load4(xr + p + m), bi = load4(xi + p + m)
    let cr = load4(xr + p + 2 * m), ci = load4(xi + p + 2 * m)
    let dr = load4(xr + p + 3 * m), di = load4(xi + p + 3 * m)
    let t0r = ar + cr, t0i = ai + ci
    let t1r = ar - cr, t1i = ai - ci
    let t2r = br + dr, t2i = bi + di
    let t3r = br - dr, t3i = bi - di
    let y0r = t0r + t2r, y0i = t0i + t2i
    let u2r = t0r - t2r, u2i = t0i - t2i
    let u1r = t1r + t3i, u1i = t1i - t3r
    let u3r = t1r - t3i, u3i = t1i + t3r
    let w1r = load4(tw + p), w1i = load4(tw + m + p)
    let w2r = load4(tw + 2 * m + p), w2i = load4(tw + 3 * m + p)
    let w3r = load4(tw + 4 * m + p), w3i = load4(tw + 5 * m + p)
    let y1r = u1r * w1r - u1i * w1i, y1i = u1r * w1i + u1i * w1r
    let y2r = u2r * w2r - u2i * w2i, y2i = u2r * w2i + u2i * w2r
    let y3r = u3r * w3r - u3i * w3i, y3i = u3r * w3i + u3i * w3r
    storeTransposed(y0r, y1r, y2r, y3r, to: yr + 4 * p)
    storeTransposed(y0i, y1i, y2i, y3i, to: yi + 4 * p)
    p += 4
  }
}

/// A radix-4 stage with stride `s`, a multiple of 4: vectorized along `q`.
@inline(__always)
private func radix4Stage(
  s: Int, m: Int,
  xr: UnsafeMutablePointer<Float>, xi: UnsafeMutablePointer<Float>,
  yr: UnsafeMutablePointer<Float>, yi: UnsafeMutablePointer<Float>,
  tw: UnsafePointer<Float>
) {
  let sm = s * m
  for p in 0..<m {
    let w1r = SIMD4(repeating: tw[p]), w1i = SIMD4(repeating: tw[m + p])
    let w2r = SIMD4(repeating: tw[2 * m + p]), w2i = SIMD4(repeating: tw[3 * m + p])
    let w3r = SIMD4(repeating: tw[4 * m + p]), w3i = SIMD4(repeating: tw[5 * m + p])
    let inR = xr + s * p, inI = xi + s * p
    let outR = yr + 4 * s * p, outI = yi + 4 * s * p
    var q = 0
    while q < s {
      let ar = load4(inR + q), ai = load4(inI + q)
      let br = load4(inR + q + sm), bi = load4(inI + q + sm)
      let cr = load4(inR + q + 2 * sm), ci = load4(inI + q + 2 * sm)
      let dr = load4(inR + q + 3 * sm), di = load4(inI + q + 3 * sm)
      let t0r = ar + cr, t0i = ai + ci
      let t1r = ar - cr, t1i = ai - ci
      let t2r = br + dr, t2i = bi + di
      let t3r = br - dr, t3i = bi - di
      let u2r = t0r - t2r, u2i = t0i - t2i
      let u1r = t1r + t3i, u1i = t1i - t3r
      let u3r = t1r - t3i, u3i = t1i + t3r
      store4(t0r + t2r, outR + q)
      store4(t0i + t2i, outI + q)
      store4(u1r * w1r - u1i * w1i, outR + q + s)
      store4(u1r * w1i + u1i * w1r, outI + q + s)
      store4(u2r * w2r - u2i * w2i, outR + q + 2 * s)
      store4(u2r * w2i + u2i * w2r, outI + q + 2 * s)
      store4(u3r * w3r - u3i * w3i, outR + q + 3 * s)
      store4(u3r * w3i + u3i * w3r, outI + q + 3 * s)
      q += 4
    }
  }
}

/// A radix-4 stage for any stride and length (small sizes).
@inline(__always)
private func radix4ScalarStage(
  s: Int, m: Int,
  xr: UnsafeMutablePointer<Float>, xi: UnsafeMutablePointer<Float>,
  yr: UnsafeMutablePointer<Float>, yi: UnsafeMutablePointer<Float>,
  tw: UnsafePointer<Float>
) {
  let sm = s * m
  for p in 0..<m {
    let w1r = tw[p], w1i = tw[m + p]
    let w2r = tw[2 * m + p], w2i = tw[3 * m + p]
    let w3r = tw[4 * m + p], w3i = tw[5 * m + p]
    for q in 0..<s {
      let i0 = q + s * p
      let ar = xr[i0], ai = xi[i0]
      let br = xr[i0 + sm], bi = xi[i0 + sm]
      let cr = xr[i0 + 2 * sm], ci = xi[i0 + 2 * sm]
      let dr = xr[i0 + 3 * sm], di = xi[i0 + 3 * sm]
      let t0r = ar + cr, t0i = ai + ci
      let t1r = ar - cr, t1i = ai - ci
      let t2r = br + dr, t2i = bi + di
      let t3r = br - dr, t3i = bi - di
      let u2r = t0r - t2r, u2i = t0i - t2i
      let u1r = t1r + t3i, u1i = t1i - t3r
      let u3r = t1r - t3i, u3i = t1i + t3r
      let o = q + 4 * s * p
      yr[o] = t0r + t2r
      yi[o] = t0i + t2i
      yr[o + s] = u1r * w1r - u1i * w1i
      yi[o + s] = u1r * w1i + u1i * w1r
      yr[o + 2 * s] = u2r * w2r - u2i * w2i
      yi[o + 2 * s] = u2r * w2i + u2i * w2r
      yr[o + 3 * s] = u3r * w3r - u3i * w3i
      yi[o + 3 * s] = u3r * w3i + u3i * w3r
    }
  }
}

/// The final radix-2 stage (`len == 2`, twiddles all 1): `y[q] = a + b`, `y[q + s] = a − b`.
@inline(__always)
private func radix2LastStage(
  s: Int,
  xr: UnsafeMutablePointer<Float>, xi: UnsafeMutablePointer<Float>,
  yr: UnsafeMutablePointer<Float>, yi: UnsafeMutablePointer<Float>
) {
  if s % 4 == 0 {
    var q = 0
    while q < s {
      let ar = load4(xr + q), ai = load4(xi + q)
      let br = load4(xr + q + s), bi = load4(xi + q + s)
      store4(ar + br, yr + q)
      store4(ai + bi, yi + q)
      store4(ar - br, yr + q + s)
      store4(ai - bi, yi + q + s)
      q += 4
    }
  } else {
    for q in 0..<s {
      let ar = xr[q], ai = xi[q], br = xr[q + s], bi = xi[q + s]
      yr[q] = ar + br
      yi[q] = ai + bi
      yr[q + s] = ar - br
      yi[q + s] = ai - bi
    }
  }
}
