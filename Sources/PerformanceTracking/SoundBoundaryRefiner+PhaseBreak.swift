import Foundation

extension SoundBoundaryRefiner {
  /// A note played again at the same pitch with no dip in level, found by its phase: inside a
  /// held note each harmonic turns at a steady rate, and a new attack breaks the turn (the new
  /// note's partials start at their own phases while the old ones fade). Every 3 ms, over the
  /// sound's first eight harmonics under a 24 ms window, the distance of each harmonic from
  /// where its last two values predict it (same amplitude, same turn) is summed and divided by
  /// the harmonics' amplitude: a complex-domain onset function (Bello et al., 2004), normalized.
  ///
  /// The break is the highest point of that function within `within` seconds of `time` when it
  /// stands at least ``phaseBreakRatio`` times over its median in the 100 ms before the search
  /// (the turn's own wobble: vibrato, noise) and at least ``phaseBreakMinimum``; the time is
  /// where it rose through half of that point. The median needs 30 ms at least: when the
  /// sound began too shortly before `time - within`, the search starts later.
  ///
  /// - Parameters:
  ///   - sound: The sound the new note hides in.
  ///   - time: When the note is due, in seconds.
  ///   - within: How far from `time` to look, in seconds.
  /// - Returns: The new note's start, in seconds, or `nil` when no break stands out.
  public func phaseBreak(in sound: PerformanceSound, near time: Double, within: Double) -> Double? {
    let f = sound.frequencyHz
    guard f > 0 else { return nil }
    let hopSeconds = 0.003
    let windowSeconds = 0.024
    let from = max(sound.start + 0.05, time - within - 0.1)
    let to = min(sound.end - 0.02, time + within)
    guard to - from > 0.1 else { return nil }
    let harmonics = Array(self.harmonics(of: f, clearOf: nil, window: windowSeconds).prefix(8))
    let signal = envelopeSignal
    let rate = signal.sampleRate
    let hop = max(1, Int((hopSeconds * rate).rounded()))
    let start = Int((from * rate).rounded())
    let count = Int((to - from) * rate) / hop + 1
    guard count >= 3 else { return nil }
    var deviation = [Double](repeating: 0, count: count)
    var magnitude = [Double](repeating: 0, count: count)
    let groups = HarmonicEnvelope.groupPhasors(
      of: signal.samples, sampleRate: rate, frequenciesHz: harmonics, start: start, count: count, hop: hop,
      windowSeconds: windowSeconds)
    for (re, im) in groups {
      for k in 2..<count {
        // The predicted value: the last one turned on by the last turn, z₁·(z₁·z̄₂)/|z₁·z̄₂|.
        let turnRe = re[k - 1] * re[k - 2] + im[k - 1] * im[k - 2]
        let turnIm = im[k - 1] * re[k - 2] - re[k - 1] * im[k - 2]
        let turnSize = (turnRe * turnRe + turnIm * turnIm).squareRoot()
        var unitRe = SIMD4<Double>.zero
        var unitIm = SIMD4<Double>.zero
        unitRe.replace(with: turnRe / turnSize, where: turnSize .> 0)
        unitIm.replace(with: turnIm / turnSize, where: turnSize .> 0)
        let predictedRe = re[k - 1] * unitRe - im[k - 1] * unitIm
        let predictedIm = re[k - 1] * unitIm + im[k - 1] * unitRe
        let dRe = re[k] - predictedRe
        let dIm = im[k] - predictedIm
        deviation[k] += (dRe * dRe + dIm * dIm).squareRoot().sum()
        magnitude[k] += (re[k] * re[k] + im[k] * im[k]).squareRoot().sum()
      }
    }
    let ratio = (0..<count).map { k in k >= 2 && magnitude[k] > 0 ? deviation[k] / magnitude[k] : 0 }
    // At least 10 steps of baseline: after a short note the search starts later instead of
    // not at all (a repeat 0.2 s into the sound leaves too little before `time - within`).
    let searchStart = max(2 + 10, Int(((time - within) - Double(start) / rate) * rate / Double(hop)))
    guard searchStart < count else { return nil }
    // (Non-finite samples make non-finite values: no baseline, or no break, is taken from them.)
    let before = ratio[2..<searchStart].filter(\.isFinite).sorted()
    guard !before.isEmpty else { return nil }
    let baseline = before[before.count / 2]
    var peak = searchStart
    for k in searchStart..<count where ratio[k] > ratio[peak] || !ratio[peak].isFinite { peak = k }
    guard ratio[peak] >= phaseBreakMinimum, ratio[peak] >= phaseBreakRatio * baseline else { return nil }
    var rise = peak
    while rise > 2, ratio[rise - 1] >= 0.5 * ratio[peak] { rise -= 1 }
    // Between the step below half and the one above it.
    let below = ratio[rise - 1]
    let above = ratio[rise]
    let fraction = above > below ? (0.5 * ratio[peak] - below) / (above - below) : 0
    return (Double(start) + (Double(rise - 1) + fraction) * Double(hop)) / rate
  }
}
