import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// A naive DFT reference in Double for chosen bins: `X[k] = Σ x[n]·e^(−2πi·kn/N)`.
func naiveDFT(re: [Float], im: [Float], bins: [Int]) -> [(Double, Double)] {
  let n = re.count
  return bins.map { k in
    var sr = 0.0, si = 0.0
    for j in 0..<n {
      // Reduce k·j mod N first so the angle stays exact for large N.
      let angle = -2 * Double.pi * Double((k * j) % n) / Double(n)
      let c = cos(angle), s = sin(angle)
      sr += Double(re[j]) * c - Double(im[j]) * s
      si += Double(re[j]) * s + Double(im[j]) * c
    }
    return (sr, si)
  }
}

/// The bins to check against the naive DFT: all of them up to 1024 points, else 48 spread bins.
func binsToCheck(size: Int, seed: UInt64) -> [Int] {
  if size <= 1024 { return Array(0..<size) }
  var rng = SeededRandom(seed: seed)
  return [0, 1, size / 2, size - 1] + (0..<44).map { _ in Int.random(in: 0..<size, using: &rng) }
}

/// ||a − b|| / ||b|| over paired complex values.
func relativeError(_ a: [(Double, Double)], _ b: [(Double, Double)]) -> Double {
  var num = 0.0, den = 0.0
  for (x, y) in zip(a, b) {
    num += (x.0 - y.0) * (x.0 - y.0) + (x.1 - y.1) * (x.1 - y.1)
    den += y.0 * y.0 + y.1 * y.1
  }
  return (num / max(den, 1e-300)).squareRoot()
}

let fftSizes = (1...16).map { 1 << $0 }

/// Checks one backend type against the naive DFT for complex and real transforms and round trips.
func checkBackend<B: FFTBackend>(_ type: B.Type, size: Int) throws {
  let fft = try B(size: size)
  var rng = SeededRandom(seed: UInt64(size))
  let re = (0..<size).map { _ in Float.random(in: -1...1, using: &rng) }
  let im = (0..<size).map { _ in Float.random(in: -1...1, using: &rng) }
  let bins = binsToCheck(size: size, seed: UInt64(size) &+ 7)

  // Complex forward.
  var outRe = re, outIm = im
  outRe.withUnsafeMutableBufferPointer { r in
    outIm.withUnsafeMutableBufferPointer { i in fft.forward(real: r, imaginary: i) }
  }
  let reference = naiveDFT(re: re, im: im, bins: bins)
  let got = bins.map { (Double(outRe[$0]), Double(outIm[$0])) }
  #expect(relativeError(got, reference) < 1e-5, "complex forward, size \(size)")

  // Complex inverse restores the input.
  outRe.withUnsafeMutableBufferPointer { r in
    outIm.withUnsafeMutableBufferPointer { i in fft.inverse(real: r, imaginary: i) }
  }
  let roundTrip = (0..<size).map { (Double(outRe[$0]), Double(outIm[$0])) }
  let original = (0..<size).map { (Double(re[$0]), Double(im[$0])) }
  #expect(relativeError(roundTrip, original) < 1e-5, "complex round trip, size \(size)")

  // Real forward against the DFT of the same samples with zero imaginary parts.
  let (specRe, specIm) = fft.forwardReal(re)
  let halfBins = bins.filter { $0 <= size / 2 }
  let realReference = naiveDFT(re: re, im: [Float](repeating: 0, count: size), bins: halfBins)
  let realGot = halfBins.map { (Double(specRe[$0]), Double(specIm[$0])) }
  #expect(relativeError(realGot, realReference) < 1e-5, "real forward, size \(size)")
  #expect(specIm[0] == 0 && specIm[size / 2] == 0)

  // Real inverse restores the samples.
  var restored = [Float](repeating: 0, count: size)
  specRe.withUnsafeBufferPointer { r in
    specIm.withUnsafeBufferPointer { i in
      restored.withUnsafeMutableBufferPointer { fft.inverseReal(real: r, imaginary: i, output: $0) }
    }
  }
  let restoredPairs = restored.map { (Double($0), 0.0) }
  let originalPairs = re.map { (Double($0), 0.0) }
  #expect(relativeError(restoredPairs, originalPairs) < 1e-5, "real round trip, size \(size)")
}

@Suite struct FFTTests {
  @Test(arguments: fftSizes)
  func swiftBackendMatchesNaiveDFT(size: Int) throws {
    try checkBackend(SwiftFFTBackend.self, size: size)
  }

  @Test(arguments: [0, 1, 3, 6, 100, 1 << 25, -4])
  func rejectsSizesThatAreNotPowersOfTwo(size: Int) {
    #expect(throws: PitchDSPError.self) { try SwiftFFTBackend(size: size) }
  }

  @Test func sineLandsInItsBin() throws {
    let size = 1024
    let fft = try SwiftFFTBackend(size: size)
    let bin = 37
    let x = (0..<size).map { Float(cos(2 * Double.pi * Double(bin * $0) / Double(size))) }
    let magnitudes = fft.magnitudes(x)
    let peak = magnitudes.indices.max { magnitudes[$0] < magnitudes[$1] }
    #expect(peak == bin)
    #expect(abs(magnitudes[bin] - Float(size / 2)) < 1e-2)
    let leakage = magnitudes.enumerated().filter { $0.offset != bin }.map(\.element).max() ?? 0
    #expect(leakage < 1e-3)
  }

  #if KissFFT
    @Test(arguments: fftSizes)
    func kissBackendMatchesNaiveDFT(size: Int) throws {
      try checkBackend(KissFFTBackend.self, size: size)
    }

    @Test(arguments: fftSizes)
    func backendsAgree(size: Int) throws {
      let swift = try SwiftFFTBackend(size: size)
      let kiss = try KissFFTBackend(size: size)
      var rng = SeededRandom(seed: 99)
      let x = (0..<size).map { _ in Float.random(in: -1...1, using: &rng) }
      let a = swift.forwardReal(x), b = kiss.forwardReal(x)
      let pa = zip(a.real, a.imaginary).map { (Double($0), Double($1)) }
      let pb = zip(b.real, b.imaginary).map { (Double($0), Double($1)) }
      #expect(relativeError(pa, pb) < 1e-5)
    }
  #endif
}
