/// Chooses where a delay-line shifter's new read tap starts: the jump, within a range, at which
/// the signal best resembles the signal at the old tap (the highest normalized cross-correlation
/// over a stretch just behind the tap), so that the two taps are in phase while they are
/// crossfaded and the splice neither dips nor bends the pitch.
///
/// For a periodic signal the best jump is a whole number of periods; a coarse pass (every other
/// lag and sample) finds it, a fine pass (every lag) and a parabola through the three best lags
/// place it to a fraction of a sample. A slight preference for longer jumps keeps splices rare.
/// Works on a contiguous copy of the stretch; allocated once.
struct SpliceFinder {
  /// Samples compared at each lag.
  let length: Int
  let capacity: Int
  private let scratch: UnsafeMutablePointer<Float>

  /// Allocates room for jumps up to `maximumJump` compared over `length` samples.
  init(length: Int, maximumJump: Int) {
    self.length = length
    capacity = length + maximumJump + 8
    scratch = .allocate(capacity: capacity)
    scratch.initialize(repeating: 0, count: capacity)
  }

  func deallocate() { scratch.deallocate() }

  /// The jump in `minimumJump...maximumJump` (fractional) that best continues the signal.
  ///
  /// - Parameters:
  ///   - ring: The input.
  ///   - centre: The absolute index of the newest sample at the old tap.
  ///   - backward: `true` for a jump to an older position (a longer delay), `false` to a newer one
  ///     (then `centre + maximumJump` must already be in the ring).
  /// - Returns: The jump, in samples; `maximumJump` when the stretch is silent.
  @_noLocks
  func bestJump(in ring: SampleRing, centre: Int, backward: Bool, minimumJump: Int, maximumJump: Int) -> Double {
    let lo = max(1, minimumJump)
    let hi = min(maximumJump, capacity - length - 8)
    guard hi > lo else { return Double(max(1, hi)) }
    // Copy the stretch: older first. `a` is where the old tap's stretch starts in the copy.
    let first = backward ? centre - hi - length + 1 : centre - length + 1
    let count = hi + length
    for i in 0..<count { scratch[i] = ring[first + i] }
    let a = backward ? hi : 0
    let energyA = Self.dot(scratch + a, scratch + a, length, stride: 1)
    guard energyA > 1e-12 else { return Double(hi) }
    let span = Float(hi - lo)
    func score(_ jump: Int, stride: Int) -> Float {
      let b = backward ? a - jump : a + jump
      let ab = Self.dot(scratch + a, scratch + b, length, stride: stride)
      let bb = Self.dot(scratch + b, scratch + b, length, stride: stride)
      let aa = stride == 1 ? energyA : Self.dot(scratch + a, scratch + a, length, stride: stride)
      let normalized = ab / _unsafePerformance { (aa * bb + 1e-20).squareRoot() }  // RT-audited: sqrt instruction
      return normalized * (1 + 0.02 * Float(jump - lo) / span)
    }
    var best = lo
    var bestScore = -Float.infinity
    var jump = lo
    while jump <= hi {
      let s = score(jump, stride: 2)
      if s > bestScore { (best, bestScore) = (jump, s) }
      jump += 2
    }
    let coarse = best
    bestScore = -Float.infinity
    for j in max(lo, coarse - 2)...min(hi, coarse + 2) {
      let s = score(j, stride: 1)
      if s > bestScore { (best, bestScore) = (j, s) }
    }
    guard best > lo, best < hi else { return Double(best) }
    let left = score(best - 1, stride: 1), right = score(best + 1, stride: 1)
    let curvature = left - 2 * bestScore + right
    guard curvature < 0 else { return Double(best) }
    let offset = max(-0.5, min(0.5, 0.5 * (left - right) / curvature))
    return Double(best) + Double(offset)
  }

  /// `Σ p[i]·q[i]` over every `stride`-th of `count` samples, with four running sums.
  @_noLocks
  @inline(__always)
  static func dot(_ p: UnsafeMutablePointer<Float>, _ q: UnsafeMutablePointer<Float>, _ count: Int, stride: Int) -> Float {
    var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
    var i = 0
    let step = 4 * stride
    while i + step <= count {
      s0 += p[i] * q[i]
      s1 += p[i + stride] * q[i + stride]
      s2 += p[i + 2 * stride] * q[i + 2 * stride]
      s3 += p[i + 3 * stride] * q[i + 3 * stride]
      i += step
    }
    while i < count {
      s0 += p[i] * q[i]
      i += stride
    }
    return (s0 + s1) + (s2 + s3)
  }
}
