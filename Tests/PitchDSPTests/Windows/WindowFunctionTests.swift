import Foundation
import Testing

@testable import PitchDSP

@Suite struct WindowFunctionTests {
  static let windows: [WindowFunction] = [
    .rectangular, .hann, .hamming, .blackman, .blackmanHarris, .kaiser(beta: 8.6),
    .gaussian(sigma: 0.4),
  ]

  @Test(arguments: windows)
  func symmetricWindowsAreSymmetricAndPeakInTheMiddle(window: WindowFunction) {
    let w = window.makeWindow(count: 101, symmetry: .symmetric)
    for n in 0..<101 { #expect(abs(w[n] - w[100 - n]) < 1e-6) }
    #expect(abs(w[50] - 1) < 1e-6)
    #expect(w.allSatisfy { $0 >= -1e-7 && $0 <= 1 + 1e-7 })
  }

  @Test func periodicHannOverlapAddsToConstantAtHalfHop() {
    let count = 64
    let w = WindowFunction.hann.makeWindow(count: count)
    for n in 0..<(count / 2) {
      #expect(abs(w[n] + w[n + count / 2] - 1) < 1e-6)
    }
  }

  @Test func knownGainsAndBandwidths() {
    #expect(abs(WindowFunction.hann.coherentGain(count: 4096) - 0.5) < 1e-6)
    #expect(abs(WindowFunction.hann.equivalentNoiseBandwidth(count: 4096) - 1.5) < 1e-3)
    #expect(abs(WindowFunction.rectangular.equivalentNoiseBandwidth(count: 100) - 1) < 1e-12)
    #expect(abs(WindowFunction.blackmanHarris.equivalentNoiseBandwidth(count: 4096) - 2.0044) < 1e-3)
  }

  @Test func besselI0MatchesTabulatedValues() {
    // Abramowitz & Stegun table 9.8 values.
    #expect(abs(besselI0(0) - 1) < 1e-15)
    #expect(abs(besselI0(1) - 1.2660658777520082) < 1e-13)
    #expect(abs(besselI0(5) - 27.239871823604442) < 1e-10)
    #expect(abs(besselI0(10) - 2815.716628466254) < 1e-7)
  }

  @Test func kaiserWithZeroBetaIsRectangular() {
    let w = WindowFunction.kaiser(beta: 0).makeWindow(count: 16)
    #expect(w.allSatisfy { abs($0 - 1) < 1e-7 })
  }
}
