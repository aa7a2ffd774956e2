import Foundation

extension SoundBoundaryRefiner {
  /// The frequency near a sound's pitch whose harmonics sound loudest over its held part: a
  /// pitch read from the spectrum, over one long window, rather than from the pitch track's
  /// frames.
  ///
  /// The candidates lie every `stepCents` within `searchCents` of the sound's frequency; each
  /// is scored by the summed amplitude of its harmonics (up to ``maximumHarmonics``, below
  /// ``maximumHarmonicHz`` and clear of the Nyquist frequency) under a triangular window over
  /// the sound's held part, from `attackSeconds` after its onset to 20 ms before its end (its
  /// middle `longestSeconds` when longer), and the best is refined on a parabola through its
  /// neighbours. Under a room's ring the frames' periodicity mixes the note with the notes
  /// before it (a flute's G5 under the ring of a B5 a third above read 80–120 cents sharp);
  /// their harmonics lie apart, and the note's own comb is the loudest.
  ///
  /// - Parameters:
  ///   - sound: The sound.
  ///   - searchCents: How far from the sound's frequency to look, in cents.
  ///   - stepCents: The spacing of the candidates, in cents.
  ///   - attackSeconds: The attack left out, in seconds.
  ///   - longestSeconds: The longest span read, in seconds.
  /// - Returns: The frequency, in Hz; `nil` for a sound too short to read (under 50 ms held)
  ///   or whose loudest candidate lies at the edge of the search (no peak within it).
  public func harmonicPitch(
    of sound: PerformanceSound, searchCents: Double = 150, stepCents: Double = 10, attackSeconds: Double = 0.06,
    longestSeconds: Double = 0.3
  ) -> Double? {
    let from = sound.onset + attackSeconds
    let to = sound.end - 0.02
    guard sound.frequencyHz > 0, to - from >= 0.05, stepCents > 0 else { return nil }
    let signal = envelopeSignal
    let centre = Int(((from + to) / 2 * signal.sampleRate).rounded())
    let span = min(to - from, longestSeconds)
    let steps = max(1, Int(searchCents / stepCents))
    let scores = (-steps...steps).map { k in
      let candidate = sound.frequencyHz * pow(2, Double(k) * stepCents / 1200)
      return HarmonicEnvelope.amplitudes(
        of: signal.samples, sampleRate: signal.sampleRate,
        frequenciesHz: harmonics(of: candidate, clearOf: nil, window: span),
        start: centre, count: 1, hop: 1, windowSeconds: span)[0]
    }
    guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), best > 0, best < scores.count - 1,
      scores[best] > 0
    else { return nil }
    let (before, peak, after) = (scores[best - 1], scores[best], scores[best + 1])
    let curvature = before - 2 * peak + after
    let offset = curvature < 0 ? 0.5 * (before - after) / curvature : 0
    return sound.frequencyHz * pow(2, (Double(best - steps) + offset) * stepCents / 1200)
  }
}
