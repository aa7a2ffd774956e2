import Foundation

/// The Kaiser-windowed sinc low-pass prototype behind ``Resampler``, and its polyphase table.
///
/// Time `t` is measured in input samples. With `s = min(1, outputRate / inputRate)` (the lower
/// rate over the input rate) and `fc` the cutoff in cycles per sample of the lower rate,
///
///     h(t) = s · 2fc · sinc(2fc · s · t) · kaiser(t / halfLength)
///
/// Row `r` of the table holds the taps for the fractional position `φ = r / phaseDivisor`; tap
/// `n` (in `0..<tapCount`) multiplies input sample `i − halfLength + 1 + n` for an output at
/// input time `i + φ`, i.e. `t = φ + halfLength − 1 − n`. Each row is normalized to a DC gain of
/// exactly 1 so the phases do not modulate a constant.
struct KaiserSincDesign {
  /// Taps on each side of the centre, in input samples; a multiple of 4 so rows are a multiple
  /// of 8 floats (whole SIMD vectors).
  let halfLength: Int
  /// `2 × halfLength`.
  var tapCount: Int { 2 * halfLength }
  /// The cutoff (−6 dB point), in cycles per sample of the lower rate.
  let cutoff: Double
  /// The Kaiser shape parameter.
  let beta: Double
  /// `min(1, outputRate / inputRate)`.
  let scale: Double

  /// - Parameter bandRate: A rate below the lower of the two whose Nyquist frequency the filter
  ///   stops at instead (the passband and transition scaled alike), for a resampler that also
  ///   band-limits; `nil` for the lower rate.
  init(quality: Resampler.Quality, inputRate: Double, outputRate: Double, bandRate: Double? = nil) {
    let attenuation = quality.designAttenuationDB
    let lowerRate = min(inputRate, outputRate)
    let band = min(1, (bandRate ?? lowerRate) / lowerRate)
    let pass = 0.5 * quality.passbandEdge * band  // cycles per low-rate sample
    let stop = 0.5 * quality.stopbandEdge * band
    let transition = stop - pass
    scale = min(1, outputRate / inputRate)
    cutoff = 0.5 * (pass + stop)
    // Kaiser's estimates (Oppenheim & Schafer 7.63, 7.62).
    beta = Self.kaiserBeta(attenuation)
    let lowRateLength = Self.kaiserLength(attenuation, transition: transition)
    let inputLength = lowRateLength / scale
    let half = Int((inputLength / 2).rounded(.up))
    halfLength = (half + 3) / 4 * 4
  }

  /// A low-pass at the input rate with explicit band edges (no rate change: `scale` 1), for
  /// ``Resampler/decimate(_:sampleRate:by:passbandHz:attenuationDB:)``.
  ///
  /// - Parameters:
  ///   - pass: The end of the flat passband, in cycles per input sample.
  ///   - stop: The start of the stop band, in cycles per input sample (above `pass`).
  ///   - attenuationDB: The stop-band attenuation to design for, in dB (positive).
  init(pass: Double, stop: Double, attenuationDB attenuation: Double) {
    scale = 1
    cutoff = 0.5 * (pass + stop)
    beta = Self.kaiserBeta(attenuation)
    halfLength = Int((Self.kaiserLength(attenuation, transition: stop - pass) / 2).rounded(.up))
  }

  /// Kaiser's estimate of the filter length, in taps, for a stop-band attenuation in dB and a
  /// transition band in cycles per sample (Oppenheim & Schafer 7.63).
  static func kaiserLength(_ attenuation: Double, transition: Double) -> Double {
    (attenuation - 7.95) / (14.36 * transition) + 1
  }

  /// Kaiser's shape parameter for a stop-band attenuation in dB (Oppenheim & Schafer 7.62).
  static func kaiserBeta(_ attenuation: Double) -> Double {
    attenuation > 50
      ? 0.1102 * (attenuation - 8.7)
      : (attenuation >= 21 ? 0.5842 * pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21) : 0)
  }

  /// The prototype at time `t` (input samples), before per-row normalization.
  func impulse(at t: Double) -> Double {
    let x = t / Double(halfLength)
    guard abs(x) <= 1 else { return 0 }
    let window = besselI0(beta * (1 - x * x).squareRoot()) / besselI0(beta)
    let arg = 2 * cutoff * scale * t
    let sinc = arg == 0 ? 1 : sin(Double.pi * arg) / (Double.pi * arg)
    return scale * 2 * cutoff * sinc * window
  }

  /// Builds `rowCount` rows of `tapCount` taps for the phases `r / phaseDivisor`.
  func makeTable(rowCount: Int, phaseDivisor: Int) -> [Float] {
    let taps = tapCount
    var table = [Float](repeating: 0, count: rowCount * taps)
    var row = [Double](repeating: 0, count: taps)
    for r in 0..<rowCount {
      let phase = Double(r) / Double(phaseDivisor)
      var sum = 0.0
      for n in 0..<taps {
        let value = impulse(at: phase + Double(halfLength - 1 - n))
        row[n] = value
        sum += value
      }
      let gain = 1 / sum
      for n in 0..<taps { table[r * taps + n] = Float(row[n] * gain) }
    }
    return table
  }
}
