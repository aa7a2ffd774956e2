import Foundation

/// The amplitude over time of chosen frequencies in a signal — the harmonics of one note — by
/// complex demodulation and a triangular moving average.
///
/// Each frequency is shifted to 0 Hz and low-passed by a triangle `windowSeconds` long (two
/// box filters of half that length over running sums), so the cost is a few operations per
/// sample and frequency whatever the window. A triangle of length W passes a frequency
/// 1.5 / W away from the demodulated one about 21 dB down and nulls it at 2 / W: that is how
/// far apart two notes' harmonics must lie to be told apart. The envelope is the sum of the
/// harmonics' amplitudes (the peak amplitude of each sinusoid), so a note whose harmonics all
/// rise linearly gives a linear rise.
public enum HarmonicEnvelope {
  /// The summed amplitude of `frequenciesHz` at `count` times `start + k · hop` (in samples).
  ///
  /// Samples outside the signal count as silence.
  ///
  /// - Parameters:
  ///   - samples: The signal.
  ///   - sampleRate: Its sample rate, in Hz.
  ///   - frequenciesHz: The frequencies to follow (each below half the sample rate).
  ///   - start: The first output time, in samples.
  ///   - count: How many outputs.
  ///   - hop: The samples between outputs.
  ///   - windowSeconds: The length of the triangular window, in seconds.
  /// - Returns: `count` amplitudes, in the samples' units.
  /// - Complexity: O((count · hop + window) · frequencies).
  public static func amplitudes(
    of samples: [Float], sampleRate: Double, frequenciesHz: [Double], start: Int, count: Int, hop: Int,
    windowSeconds: Double
  ) -> [Double] {
    var result = [Double](repeating: 0, count: max(0, count))
    let valid = frequenciesHz.filter { $0 > 0 && $0 < sampleRate / 2 }
    forEachGroup(
      of: samples, sampleRate: sampleRate, frequenciesHz: valid, start: start, count: count, hop: hop,
      windowSeconds: windowSeconds
    ) { _, k, re, im, scale in result[k] += scale * (re * re + im * im).squareRoot().sum() }
    return result
  }

  /// The amplitude of each of up to four frequencies, separately, at `count` times
  /// `start + k · hop` (as ``amplitudes(of:sampleRate:frequenciesHz:start:count:hop:windowSeconds:)``
  /// in one pass): lane `j` of output `k` is frequency `j`'s amplitude (0 for a missing lane or a
  /// frequency at or above half the sample rate).
  static func laneAmplitudes(
    of samples: [Float], sampleRate: Double, frequenciesHz: [Double], start: Int, count: Int, hop: Int,
    windowSeconds: Double
  ) -> [SIMD4<Double>] {
    precondition(frequenciesHz.count <= 4, "at most four frequencies")
    var result = [SIMD4<Double>](repeating: .zero, count: max(0, count))
    let kept = frequenciesHz.map { $0 > 0 && $0 < sampleRate / 2 ? $0 : 0 }
    forEachGroup(
      of: samples, sampleRate: sampleRate, frequenciesHz: kept, start: start, count: count, hop: hop,
      windowSeconds: windowSeconds
    ) { _, k, re, im, scale in result[k] = scale * (re * re + im * im).squareRoot() }
    return result
  }

  /// The complex amplitude (demodulated, under the same triangular window) of each frequency
  /// at `count` times `start + k · hop`, four frequencies to a group: lane `j` of group `g` is
  /// frequency `4g + j` (0 for a missing lane or a frequency at or above half the sample rate).
  /// Its magnitude is the amplitude of
  /// ``laneAmplitudes(of:sampleRate:frequenciesHz:start:count:hop:windowSeconds:)``, its angle
  /// the phase of the frequency's sinusoid against a phasor started at sample 0. A steady
  /// partial turns at a constant rate; a new note's partial breaks the turn.
  static func groupPhasors(
    of samples: [Float], sampleRate: Double, frequenciesHz: [Double], start: Int, count: Int, hop: Int,
    windowSeconds: Double
  ) -> [(real: [SIMD4<Double>], imaginary: [SIMD4<Double>])] {
    let groups = (frequenciesHz.count + 3) / 4
    var real = [[SIMD4<Double>]](repeating: [SIMD4<Double>](repeating: .zero, count: max(0, count)), count: groups)
    var imaginary = real
    let kept = frequenciesHz.map { $0 > 0 && $0 < sampleRate / 2 ? $0 : 0 }
    forEachGroup(
      of: samples, sampleRate: sampleRate, frequenciesHz: kept, start: start, count: count, hop: hop,
      windowSeconds: windowSeconds
    ) { group, k, re, im, scale in
      real[group][k] = scale * re
      imaginary[group][k] = scale * im
    }
    return (0..<groups).map { (real[$0], imaginary[$0]) }
  }

  /// The shared pass: frequencies four at a time (a frequency of 0 or a missing lane gives 0),
  /// each output's lanes (real and imaginary parts) and the scale that makes their magnitudes
  /// amplitudes handed to `body(group, k, real, imaginary, scale)`.
  ///
  /// With `y` the demodulated input (from `half` samples before the first output), `P` its
  /// running sum and `Q` the running sum of `P`, the triangle over `[p, p + 2·half)` is
  /// `Q[p + 2·half] − 2·Q[p + half] + Q[p]` (two boxes of `half`, one after the other): one
  /// pass with no buffers, each output collecting its three terms as the pass reaches them.
  static func forEachGroup(
    of samples: [Float], sampleRate: Double, frequenciesHz valid: [Double], start: Int, count: Int, hop: Int,
    windowSeconds: Double, _ body: (Int, Int, SIMD4<Double>, SIMD4<Double>, Double) -> Void
  ) {
    guard count > 0, hop > 0, valid.contains(where: { $0 > 0 }) else { return }
    let half = max(1, Int((windowSeconds * sampleRate / 2).rounded()))
    // Input span: output k needs [k·hop, k·hop + 2·half) from `first`, and Q up to its end.
    let first = start - half
    let length = (count - 1) * hop + 2 * half + 1
    // Where the signal lies within the span (zero outside it).
    let lower = min(length, max(0, -first))
    let upper = max(lower, min(length, samples.count - first))
    let scale = 2 / (Double(half) * Double(half))
    var accumulatedReal = [SIMD4<Double>](repeating: .zero, count: count)
    var accumulatedImaginary = [SIMD4<Double>](repeating: .zero, count: count)
    var group = 0
    while group < valid.count {
      var omega = SIMD4<Double>.zero
      var mask = SIMD4<Double>.zero
      for lane in 0..<min(4, valid.count - group) where valid[group + lane] > 0 {
        omega[lane] = 2 * Double.pi * valid[group + lane] / sampleRate
        mask[lane] = 1
      }
      let index = group / 4
      group += 4
      var stepCos = SIMD4<Double>.zero
      var stepSin = SIMD4<Double>.zero
      // The phasor at the first input sample.
      var c = SIMD4<Double>.zero
      var s = SIMD4<Double>.zero
      for lane in 0..<4 {
        stepCos[lane] = cos(omega[lane])
        stepSin[lane] = sin(omega[lane])
        c[lane] = cos(omega[lane] * Double(first))
        s[lane] = sin(omega[lane] * Double(first))
      }
      var sumReal = SIMD4<Double>.zero  // P[n]
      var sumImaginary = SIMD4<Double>.zero
      var sumsReal = SIMD4<Double>.zero  // Q[n]
      var sumsImaginary = SIMD4<Double>.zero
      // The next output to collect each of its three terms: Q[k·hop + j·half], j = 0, 1, 2.
      var next = (0, 0, 0)
      samples.withUnsafeBufferPointer { x in
        accumulatedReal.withUnsafeMutableBufferPointer { re in
          accumulatedImaginary.withUnsafeMutableBufferPointer { im in
            var n = 0
            var renormalizeAt = 512
            while n < length {
              // The terms due at n.
              if next.0 < count, next.0 * hop == n {
                re[next.0] = sumsReal
                im[next.0] = sumsImaginary
                next.0 += 1
              }
              if next.1 < count, next.1 * hop + half == n {
                re[next.1] -= 2 * sumsReal
                im[next.1] -= 2 * sumsImaginary
                next.1 += 1
              }
              if next.2 < count, next.2 * hop + 2 * half == n {
                re[next.2] += sumsReal
                im[next.2] += sumsImaginary
                next.2 += 1
              }
              if n == renormalizeAt {
                let norm = 1 / (c * c + s * s).squareRoot()
                c *= norm
                s *= norm
                renormalizeAt += 512
              }
              // Run to the next event without checks.
              var stop = min(length, renormalizeAt)
              if next.0 < count { stop = min(stop, next.0 * hop) }
              if next.1 < count { stop = min(stop, next.1 * hop + half) }
              if next.2 < count { stop = min(stop, next.2 * hop + 2 * half) }
              stop = max(stop, n + 1)
              while n < stop {
                sumsReal += sumReal
                sumsImaginary += sumImaginary
                if n >= lower, n < upper {
                  let value = SIMD4<Double>(repeating: Double(x[first + n]))
                  sumReal += value * c
                  sumImaginary -= value * s
                }
                let nextC = c * stepCos - s * stepSin
                s = s * stepCos + c * stepSin
                c = nextC
                n += 1
              }
            }
          }
        }
      }
      for k in 0..<count {
        body(index, k, accumulatedReal[k] * mask, accumulatedImaginary[k] * mask, scale)
      }
    }
  }
}
