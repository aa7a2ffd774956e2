import Foundation

/// Follows the tuning of the input: the circular mean of the deviations of spectral peaks from
/// the nearest equal-tempered pitch, weighted by their magnitudes.
///
/// Each peak between 150 Hz and 2.5 kHz at least a tenth of the frame's largest is located to
/// a fraction of a bin (a parabola through the log magnitudes of three bins), its deviation
/// `d` from the nearest semitone (`-50...50` cents) becomes the angle `2π·d/100`, and the
/// weighted unit vectors are summed with an exponential memory. The tuning is the angle of the
/// sum: deviations of +49 and −49 cents average to ±50, not 0. Phase-based tuning in the same
/// spirit: Mauch's NNLS chroma and "Phase-change based tuning for automatic chord recognition"
/// (Peeters 2009, cited by Chordabra). Harmonics that are not equal-tempered (the 5th partial
/// is 14 cents flat, the 7th 31) pull the estimate a few cents at most: they are weaker than
/// the fundamentals and octaves.
struct TuningTracker {
  let isFixed: Bool
  let fixedCents: Double
  /// The memory factor per frame.
  let decay: Double
  let referenceHz: Double
  private var sumCos = 0.0
  private var sumSin = 0.0
  /// The current estimate, in cents.
  private(set) var cents: Double

  init(mode: TuningMode, hopSeconds: Double, referenceHz: Double) {
    self.referenceHz = referenceHz
    switch mode {
    case .fixed(let value):
      isFixed = true
      fixedCents = value
      decay = 1
      cents = value
    case .estimated(let seconds):
      isFixed = false
      fixedCents = 0
      decay = exp(-hopSeconds / seconds)
      cents = 0
    }
  }

  mutating func reset() {
    sumCos = 0
    sumSin = 0
    cents = isFixed ? fixedCents : 0
  }

  /// Adds the peaks of one frame's magnitude spectrum and updates ``cents``.
  ///
  /// - Parameters:
  ///   - magnitudes: Hann-windowed magnitudes, valid in `1..<limit`.
  ///   - limit: One past the last valid bin.
  ///   - binHz: Hz per bin.
  @_noLocks
  mutating func update(_ magnitudes: UnsafeMutableBufferPointer<Float>, limit: Int, binHz: Double) {
    guard !isFixed else { return }
    let low = max(2, Int(150 / binHz))
    let high = min(limit - 2, Int(2500 / binHz))
    guard low < high else { return }
    var largest: Float = 0
    for k in low...high where magnitudes[k] > largest { largest = magnitudes[k] }
    guard largest > 0 else { return }
    let threshold = 0.1 * largest
    let reference = referenceHz
    // RT-audited: libm's log, log2, cos and sin are pure functions; they neither allocate nor lock.
    let (c, s) = _unsafePerformance { () -> (Double, Double) in
      var c = 0.0
      var s = 0.0
      for k in low...high {
        let m = magnitudes[k]
        guard m >= threshold, m > magnitudes[k - 1], m >= magnitudes[k + 1] else { continue }
        let a = Double(log(magnitudes[k - 1] + 1e-20))
        let b = Double(log(m))
        let d = Double(log(magnitudes[k + 1] + 1e-20))
        let curvature = a - 2 * b + d
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (a - d) / curvature)) : 0
        let frequency = (Double(k) + offset) * binHz
        let semitones = 12 * log2(frequency / reference)
        // The nearest semitone, by integer conversion (semitones > −1000 here).
        let deviation = semitones - (Double(Int(semitones + 1000.5)) - 1000)
        let angle = 2 * Double.pi * deviation
        c += Double(m) * cos(angle)
        s += Double(m) * sin(angle)
      }
      return (c, s)
    }
    sumCos = sumCos * decay + c
    sumSin = sumSin * decay + s
    guard sumCos != 0 || sumSin != 0 else { return }
    let (x, y) = (sumCos, sumSin)
    // RT-audited: libm's atan2 is a pure function; it neither allocates nor locks.
    cents = _unsafePerformance { atan2(y, x) } * 100 / (2 * Double.pi)
  }
}
