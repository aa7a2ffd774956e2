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
    guard count > 0, hop > 0, !frequenciesHz.isEmpty else { return [Double](repeating: 0, count: max(0, count)) }
    let half = max(1, Int((windowSeconds * sampleRate / 2).rounded()))
    // Input span: each output t needs [t − half, t + half).
    let first = start - half
    let length = (count - 1) * hop + 2 * half + 1
    var result = [Double](repeating: 0, count: count)
    var real = [Double](repeating: 0, count: length + 1)
    var imaginary = [Double](repeating: 0, count: length + 1)
    var boxReal = [Double](repeating: 0, count: length - half + 1)
    var boxImaginary = [Double](repeating: 0, count: length - half + 1)
    let scale = 2 / (Double(half) * Double(half))
    // The input span, zero outside the signal.
    var input = [Double](repeating: 0, count: length)
    let lower = max(0, -first)
    let upper = min(length, samples.count - first)
    if lower < upper {
      for n in lower..<upper { input[n] = Double(samples[first + n]) }
    }
    for frequency in frequenciesHz where frequency > 0 && frequency < sampleRate / 2 {
      let omega = 2 * Double.pi * frequency / sampleRate
      let stepCos = cos(omega)
      let stepSin = sin(omega)
      // The phasor at the first input sample.
      var c = cos(omega * Double(first))
      var s = sin(omega * Double(first))
      var sumReal = 0.0
      var sumImaginary = 0.0
      input.withUnsafeBufferPointer { x in
        real.withUnsafeMutableBufferPointer { re in
          imaginary.withUnsafeMutableBufferPointer { im in
            var n = 0
            while n < length {
              // Blocks of 512 samples, the phasor renormalized between them.
              let stop = min(length, n + 512)
              while n < stop {
                sumReal += x[n] * c
                sumImaginary -= x[n] * s
                re[n + 1] = sumReal
                im[n + 1] = sumImaginary
                let nextC = c * stepCos - s * stepSin
                s = s * stepCos + c * stepSin
                c = nextC
                n += 1
              }
              let norm = 1 / (c * c + s * s).squareRoot()
              c *= norm
              s *= norm
            }
          }
        }
      }
      // First box: sums over [m, m + half); running sums of those for the second box.
      var runningReal = 0.0
      var runningImaginary = 0.0
      boxReal[0] = 0
      boxImaginary[0] = 0
      for m in 0..<(length - half) {
        runningReal += real[m + half] - real[m]
        runningImaginary += imaginary[m + half] - imaginary[m]
        boxReal[m + 1] = runningReal
        boxImaginary[m + 1] = runningImaginary
      }
      for k in 0..<count {
        // Output time start + k·hop = first + half + k·hop is the centre of the first boxes
        // starting at k·hop ..< k·hop + half.
        let p = k * hop
        let re = boxReal[p + half] - boxReal[p]
        let im = boxImaginary[p + half] - boxImaginary[p]
        result[k] += scale * (re * re + im * im).squareRoot()
      }
    }
    return result
  }
}
