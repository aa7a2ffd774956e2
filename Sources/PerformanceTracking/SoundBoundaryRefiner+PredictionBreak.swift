import Foundation

extension SoundBoundaryRefiner {
  /// A note played again at the same pitch, found where the sound's harmonics stop turning as
  /// they did: every millisecond, each of the sound's first eight harmonics has its unwrapped
  /// phase fitted as a straight line over the previous 25 ms (a partial at a steady frequency),
  /// continued over the next 15 ms; how far the harmonics' phases land from that line, weighted
  /// by their amplitude and divided by it, is how far the sound departs from the note before it.
  /// A release keeps its phase and fades; a new note starts its partials at their own phases,
  /// before its level shows (a violin repeat after a short gap, whose slow bow start leaves the
  /// level falling for 40–60 ms after it). Unlike ``phaseBreak(in:near:within:)``, which predicts
  /// each value from the two before it, the fit rides over a bowed string's wobble.
  ///
  /// The break is the highest point of that function within `within` seconds of `time` when it
  /// stands more than ``predictionBreakRatio`` times over the function's median there; the time
  /// is where, walking back from it, the function falls to a tenth of the way from that median
  /// to the highest point.
  ///
  /// - Parameters:
  ///   - sound: The sound the new note hides in.
  ///   - time: When the note is due, in seconds.
  ///   - within: How far from `time` to look, in seconds.
  /// - Returns: The new note's start, in seconds, or `nil` when no break stands out.
  public func predictionBreak(in sound: PerformanceSound, near time: Double, within: Double) -> Double? {
    guard sound.frequencyHz > 0 else { return nil }
    let fitSteps = 25
    let gapSteps = 3
    let predictedSteps = 15
    let from = max(0, time - within - 0.06)
    let to = time + within + 0.03
    let harmonics = Array(
      self.harmonics(of: sound.frequencyHz, clearOf: nil, window: detachedWindowSeconds).prefix(8))
    guard !harmonics.isEmpty else { return nil }
    let turning = phasors(harmonics, from: from, to: to, window: detachedWindowSeconds)
    let count = turning.real.first?.count ?? 0
    guard count > fitSteps + gapSteps + predictedSteps else { return nil }
    let phases = harmonics.indices.map { turning.unwrappedPhases($0) }
    let sizes = harmonics.indices.map { turning.magnitudes($0) }
    // The departure from the fitted turn at each step.
    var departure = [Double](repeating: .nan, count: count)
    for c in (fitSteps + gapSteps)..<(count - predictedSteps) {
      let fit = (c - gapSteps - fitSteps)...(c - gapSteps - 1)
      var missed = 0.0
      var total = 0.0
      for h in harmonics.indices {
        guard let turn = Self.fitLine(phases[h], fit) else { continue }
        for k in c..<(c + predictedSteps) {
          let off = phases[h][k] - (turn.intercept + turn.slope * Double(k))
          // |e^{iφ} − e^{iφ̂}| = 2·|sin((φ − φ̂) / 2)|
          missed += sizes[h][k] * 2 * abs(sin(off / 2))
          total += sizes[h][k]
        }
      }
      if total > 0 { departure[c] = missed / total }
    }
    let signal = envelopeSignal
    let rate = signal.sampleRate
    let (first, _, hop) = signal.steps(from: from, to: to, stepSeconds: stepSeconds)
    func index(_ seconds: Double) -> Int { Int(((seconds * rate) - Double(first)) / Double(hop)) }
    let searchStart = max(fitSteps + gapSteps, index(time - within))
    let searchEnd = min(count - predictedSteps, index(time + within))
    guard searchStart < searchEnd else { return nil }
    var peak: Int?
    for c in searchStart..<searchEnd where departure[c].isFinite {
      if departure[c] > (peak.map { departure[$0] } ?? -1) { peak = c }
    }
    let searched = departure[searchStart..<searchEnd].filter(\.isFinite).sorted()
    guard let peak, !searched.isEmpty else { return nil }
    let baseline = searched[searched.count / 2]
    guard departure[peak] > predictionBreakRatio * baseline else { return nil }
    let level = baseline + 0.1 * (departure[peak] - baseline)
    var start = peak
    while start > searchStart, departure[start - 1].isFinite, departure[start - 1] >= level { start -= 1 }
    return (Double(first) + Double(start) * Double(hop)) / rate
  }
}
