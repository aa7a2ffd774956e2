import Foundation
import Testing

@testable import PerformanceTracking

/// The harmonic envelope against its definition: each frequency's demodulated signal under a
/// triangular window, summed directly.
@Suite struct HarmonicEnvelopeTests {
  static let rate = 44_100.0

  /// Two partials that swell and fade, a third that stops, and a little deterministic noise.
  static let signal: [Float] = (0..<30_000).map { n in
    let t = Double(n) / rate
    var value = 0.3 * sin(2 * Double.pi * 330 * t) * (0.5 + 0.5 * sin(2 * Double.pi * 3 * t))
    value += 0.1 * sin(2 * Double.pi * 660 * t + 1)
    if t < 0.4 { value += 0.05 * sin(2 * Double.pi * 990 * t) }
    value += 0.001 * sin(Double(n * n % 977))
    return Float(value)
  }

  /// The amplitudes by the definition: for each output, each frequency's demodulated samples
  /// weighted by the triangle 1, 2, ..., h, ..., 2, 1 (two boxes of h samples), as a peak amplitude.
  static func direct(
    _ samples: [Float], frequencies: [Double], start: Int, count: Int, hop: Int, windowSeconds: Double
  ) -> [Double] {
    let half = max(1, Int((windowSeconds * rate / 2).rounded()))
    return (0..<count).map { k in
      let first = start + k * hop - half
      return frequencies.reduce(0.0) { total, frequency in
        let omega = 2 * Double.pi * frequency / rate
        var re = 0.0
        var im = 0.0
        for u in 0..<(2 * half - 1) {
          let n = first + u
          guard n >= 0, n < samples.count else { continue }
          let weight = Double(min(u + 1, 2 * half - 1 - u)) * Double(samples[n])
          re += weight * cos(omega * Double(n))
          im -= weight * sin(omega * Double(n))
        }
        return total + 2 * (re * re + im * im).squareRoot() / Double(half * half)
      }
    }
  }

  @Test(arguments: [(0.012, 44), (0.04, 441), (0.06, 7)])
  func amplitudesMatchTheTriangularWindowsDefinition(windowSeconds: Double, hop: Int) {
    // Five frequencies (two groups of lanes), outputs that start before the signal and end
    // after it, and one request that lies wholly outside it.
    let frequencies = [330.0, 660, 990, 1320, 1650]
    for (start, count) in [(-2_000, 40), (1_000, 50), (29_000, 30), (40_000, 5)] {
      let fast = HarmonicEnvelope.amplitudes(
        of: Self.signal, sampleRate: Self.rate, frequenciesHz: frequencies, start: start, count: count, hop: hop,
        windowSeconds: windowSeconds)
      let slow = Self.direct(
        Self.signal, frequencies: frequencies, start: start, count: count, hop: hop, windowSeconds: windowSeconds)
      #expect(fast.count == count)
      for k in 0..<count {
        #expect(abs(fast[k] - slow[k]) <= 1e-9 + 1e-7 * slow[k], "output \(k) from \(start)")
      }
    }
  }

  @Test func eachLaneHoldsItsOwnFrequency() {
    let lanes = HarmonicEnvelope.laneAmplitudes(
      of: Self.signal, sampleRate: Self.rate, frequenciesHz: [330, 660, 990], start: 22_050, count: 3, hop: 441,
      windowSeconds: 0.04)
    for (lane, frequency) in [330.0, 660, 990].enumerated() {
      let expected = Self.direct(
        Self.signal, frequencies: [frequency], start: 22_050, count: 3, hop: 441, windowSeconds: 0.04)
      for k in 0..<3 { #expect(abs(lanes[k][lane] - expected[k]) <= 1e-9 + 1e-7 * expected[k]) }
      #expect(lanes[0][3] == 0)
    }
    // The 990 Hz partial stopped at 0.4 s: at 0.5 s its lane is (nearly) empty, while 660 Hz
    // holds its 0.1.
    #expect(lanes[0][2] < 0.005)
    #expect(abs(lanes[0][1] - 0.1) < 0.005)
  }
}
