import Foundation

/// The complex amplitudes of a note's harmonics over time (``HarmonicEnvelope``'s demodulated
/// values, one series per harmonic).
struct HarmonicPhasors: Sendable {
  /// The real parts, one array per harmonic.
  var real: [[Double]]
  /// The imaginary parts, one array per harmonic.
  var imaginary: [[Double]]

  /// Harmonic `h`'s amplitude at each step.
  func magnitudes(_ h: Int) -> [Double] {
    zip(real[h], imaginary[h]).map { ($0 * $0 + $1 * $1).squareRoot() }
  }

  /// Harmonic `h`'s phase at each step, unwrapped: each step within half a turn of the one
  /// before.
  func unwrappedPhases(_ h: Int) -> [Double] {
    var phases = [Double](repeating: 0, count: real[h].count)
    for k in phases.indices {
      var phase = atan2(imaginary[h][k], real[h][k])
      if k > 0 { phase += 2 * Double.pi * ((phases[k - 1] - phase) / (2 * Double.pi)).rounded() }
      phases[k] = phase
    }
    return phases
  }

  /// What a decaying note does not explain: each harmonic fitted over `span` as one decaying,
  /// turning partial (its log-amplitude and its unwrapped phase each a straight line: an
  /// exponential release at a steady frequency; one fitted as growing is held at its level: a
  /// released note does not swell), continued, and taken away from the values as complex
  /// numbers; the distances summed over the harmonics, from 0 to `last`.
  ///
  /// Unlike the difference of amplitudes, a new note at the same pitch shows from its first
  /// trace: it does not have to outgrow the old note's decay, nor can the two notes' phases
  /// hide it by cancelling.
  func residual(fitting span: ClosedRange<Int>, through last: Int) -> [Double] {
    var result = [Double](repeating: 0, count: last + 1)
    for h in real.indices {
      let re = real[h]
      let im = imaginary[h]
      guard last < re.count, span.upperBound < re.count else { continue }
      let logs = magnitudes(h).map { log(max($0, 1e-12)) }
      let phases = unwrappedPhases(h)
      guard let size = SoundBoundaryRefiner.fitLine(logs, span), let turn = SoundBoundaryRefiner.fitLine(phases, span)
      else { continue }
      for k in 0...last {
        let magnitude = exp(size.intercept + min(0, size.slope) * Double(k))
        let phase = turn.intercept + turn.slope * Double(k)
        let dr = re[k] - magnitude * cos(phase)
        let di = im[k] - magnitude * sin(phase)
        result[k] += (dr * dr + di * di).squareRoot()
      }
    }
    return result
  }
}
