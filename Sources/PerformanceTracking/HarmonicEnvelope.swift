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
    ) { _, k, lanes, scale in result[k] += scale * lanes.sum() }
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
    ) { _, k, lanes, scale in result[k] = scale * lanes }
    return result
  }

  /// The shared pass: frequencies four at a time (a frequency of 0 or a missing lane gives 0),
  /// each output's lane magnitudes and the scale that makes them amplitudes handed to
  /// `body(group, k, lanes, scale)`.
  static func forEachGroup(
    of samples: [Float], sampleRate: Double, frequenciesHz valid: [Double], start: Int, count: Int, hop: Int,
    windowSeconds: Double, _ body: (Int, Int, SIMD4<Double>, Double) -> Void
  ) {
    guard count > 0, hop > 0, valid.contains(where: { $0 > 0 }) else { return }
    let half = max(1, Int((windowSeconds * sampleRate / 2).rounded()))
    // Input span: each output t needs [t − half, t + half).
    let first = start - half
    let length = (count - 1) * hop + 2 * half + 1
    // The input span, zero outside the signal.
    var input = [Double](repeating: 0, count: length)
    let lower = max(0, -first)
    let upper = min(length, samples.count - first)
    if lower < upper {
      for n in lower..<upper { input[n] = Double(samples[first + n]) }
    }
    let scale = 2 / (Double(half) * Double(half))
    // Four frequencies at a time (SIMD lanes; a missing lane has a zero mask): their running
    // sums of the demodulated input, then the second box's running sums, then the amplitudes.
    // Every element is written before it is read (index 0 of each here), so none is cleared.
    func uninitialized(_ count: Int) -> [SIMD4<Double>] {
      [SIMD4<Double>](unsafeUninitializedCapacity: count) { buffer, initialized in
        buffer[0] = .zero
        initialized = count
      }
    }
    var real = uninitialized(length + 1)
    var imaginary = uninitialized(length + 1)
    var boxReal = uninitialized(length - half + 1)
    var boxImaginary = uninitialized(length - half + 1)
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
      var sumReal = SIMD4<Double>.zero
      var sumImaginary = SIMD4<Double>.zero
      input.withUnsafeBufferPointer { x in
        real.withUnsafeMutableBufferPointer { re in
          imaginary.withUnsafeMutableBufferPointer { im in
            var n = 0
            while n < length {
              // Blocks of 512 samples, the phasor renormalized between them.
              let stop = min(length, n + 512)
              while n < stop {
                let value = SIMD4<Double>(repeating: x[n])
                sumReal += value * c
                sumImaginary -= value * s
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
      var runningReal = SIMD4<Double>.zero
      var runningImaginary = SIMD4<Double>.zero
      boxReal[0] = .zero
      boxImaginary[0] = .zero
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
        body(index, k, (re * re + im * im).squareRoot() * mask, scale)
      }
    }
  }
}
