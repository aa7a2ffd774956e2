import Foundation

extension SoundBoundaryRefiner {
  /// The harmonics of `frequency` to follow separated from a harmonic of `other` of the same
  /// number beside them: each with that harmonic.
  ///
  /// A pair qualifies when the two lie between ``separableHz(window:)`` and 4 / window apart,
  /// and no other harmonic of `other` lies within 2 / window (the triangle's first null) of the
  /// harmonic. Under 1.5 / window the window cannot tell the two apart at all
  /// (``harmonics(of:clearOf:window:)`` leaves them out); further, the old partial still leaks
  /// through the triangle's sidelobes, 30–45 dB down, which hides a new partial swelling in
  /// under a loud old one. Only partials of the same number are paired: a fourth's or a
  /// third's near-coincident high harmonics, paired, timed trumpet leaps 9 ms earlier.
  func separablePairs(of frequency: Double, from other: Double, window: Double) -> [(harmonic: Double, other: Double)] {
    guard frequency > 0, other > 0 else { return [] }
    let limit = min(maximumHarmonicHz, sampleRate / 2 - 200)
    let bandHz = envelopeSignal.bandHz
    let farthest = 4 / window
    let null = 2 / window
    var result: [(harmonic: Double, other: Double)] = []
    for k in stride(from: 1, through: maximumHarmonics, by: 1) {
      let f = Double(k) * frequency
      guard f < limit else { break }
      let nearest = Double(k) * other
      // (The other partial must lie in the signal its envelope is read from.)
      guard nearest <= bandHz else { continue }
      let distance = abs(f - nearest)
      guard distance >= separableHz(window: window), distance < farthest,
        k == 1 || abs(f - Double(k - 1) * other) >= null, abs(f - Double(k + 1) * other) >= null
      else { continue }
      result.append((f, nearest))
    }
    return result
  }

  /// The least distance, in Hz, at which two steady partials are separated under `window`
  /// (half the triangle's first null: the two partials' leakage into each other is then 0.81,
  /// and the separation amplifies what the model leaves out about three times).
  func separableHz(window: Double) -> Double { 0.5 / window }

  /// The summed amplitude of the harmonics in `pairs`, each separated from the partial beside
  /// it, on the steps of ``amplitudes(_:from:to:window:in:)``.
  ///
  /// Under one window, a partial at `g` leaks into the demodulated value at `f` by the
  /// triangle's response at `f − g`, turned by the difference of their phasors. With `X_f`,
  /// `X_g` the demodulated values, `X′_g` the change of `X_g` per sample, `e = exp(i·ω·n)`
  /// (`ω = 2π(g − f) / rate`, `n` the window's centre), `ρ = Σ w_r cos(ω r)` and
  /// `σ = i Σ w_r r sin(ω r)` over the triangle's weights `w_r`:
  /// `X_f = A_f + e·(ρ·X_g + σ·X′_g)`, `X_g = A_g + ρ·ē·A_f`, so
  /// `A_f = (X_f − e·(ρ·X_g + σ·X′_g)) / (1 − ρ²)`. The `σ` term takes the partial's own change
  /// within the window: a release, or a frequency a little off its note's (without it, the old
  /// note's release left a "new note" rising at its end, 20–30 ms early after a gap). A new note
  /// a semitone from the previous one, whose fundamental the window cannot resolve from the old
  /// fundamental, so shows from its first trace on that fundamental (a flute's semitone steps,
  /// timed on their upper harmonics only, which come in after the fundamental, started
  /// 15–30 ms late); so does a new partial swelling in under a loud old one's sidelobes (a
  /// flute's tone steps, 25–40 ms late on a few).
  func separatedAmplitudes(
    _ pairs: [(harmonic: Double, other: Double)], from: Double, to: Double, window: Double
  ) -> [Double] {
    let signal = envelopeSignal
    let rate = signal.sampleRate
    let (start, count, hop) = signal.steps(from: from, to: to, stepSeconds: stepSeconds)
    var result = [Double](repeating: 0, count: count)
    guard !pairs.isEmpty, count > 2 else { return result }
    let frequencies = pairs.flatMap { [$0.harmonic, $0.other] }
    let values = phasors(frequencies, from: from, to: to, window: window)
    let half = max(1, Int((window * rate / 2).rounded()))
    let weightScale = 1 / (Double(half) * Double(half))
    for (p, pair) in pairs.enumerated() {
      let (fRe, fIm) = (values.real[2 * p], values.imaginary[2 * p])
      let (gRe, gIm) = (values.real[2 * p + 1], values.imaginary[2 * p + 1])
      guard fRe.count >= count, gRe.count >= count else { continue }
      let turn = 2 * Double.pi * (pair.other - pair.harmonic) / rate
      var rho = 0.0
      var sigma = 0.0  // σ = i·sigma
      for r in -half...half {
        let w = Double(half - abs(r)) * weightScale
        rho += w * cos(turn * Double(r))
        sigma += w * Double(r) * sin(turn * Double(r))
      }
      let gain = 1 / max(1 - rho * rho, 1e-3)
      for k in 0..<count {
        // The other partial's change per sample, from its neighbouring steps.
        let (a, b) = (max(0, k - 1), min(count - 1, k + 1))
        let span = Double((b - a) * hop)
        let dRe = (gRe[b] - gRe[a]) / span
        let dIm = (gIm[b] - gIm[a]) / span
        // ρ·X_g + σ·X′_g, with σ = i·sigma.
        let modelRe = rho * gRe[k] - sigma * dIm
        let modelIm = rho * gIm[k] + sigma * dRe
        let angle = turn * Double(start + k * hop)
        let (c, s) = (cos(angle), sin(angle))
        let re = fRe[k] - (c * modelRe - s * modelIm)
        let im = fIm[k] - (c * modelIm + s * modelRe)
        result[k] += gain * (re * re + im * im).squareRoot()
      }
    }
    return result
  }
}
