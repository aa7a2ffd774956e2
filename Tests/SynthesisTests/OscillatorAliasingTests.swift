import Foundation
import PitchDSP
import Testing

@testable import Synthesis

/// The oscillator's aliasing, measured as documented on ``Oscillator``: render 131072 frames
/// (about 3 s at 44.1 kHz), window them with a four-term Blackman–Harris window, take the
/// magnitude spectrum, and find the strongest bin that is not within ±6 bins of DC or of a
/// harmonic `k·f0` below Nyquist; report it in dB relative to the fundamental's peak. The
/// window's side lobes are below −92 dB, so anything the measure finds above that is real
/// non-harmonic content (aliases or interpolation images).
@Suite struct OscillatorAliasingTests {
  static let frameCount = 1 << 17
  static let sampleRate = 44_100.0

  /// Strongest non-harmonic peak relative to the fundamental, in dB.
  static func aliasingDB(
    _ waveform: Waveform, frequencyHz: Double, sampleRate: Double = sampleRate, fft: SwiftFFTBackend, window: [Float]
  ) -> Double {
    var oscillator = Oscillator(waveform: waveform, frequencyHz: frequencyHz, sampleRate: sampleRate)
    var samples = [Float](repeating: 0, count: frameCount)
    samples.withUnsafeMutableBufferPointer { buffer in
      // Blocks of 512, as a player would render.
      var offset = 0
      while offset < buffer.count {
        let n = min(512, buffer.count - offset)
        oscillator.render(into: UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + n)]))
        offset += n
      }
    }
    for i in samples.indices { samples[i] *= window[i] }
    let magnitudes = fft.magnitudes(samples)
    let binHz = sampleRate / Double(frameCount)
    var excluded = [Bool](repeating: false, count: magnitudes.count)
    func exclude(aroundHz hz: Double) {
      let centre = Int((hz / binHz).rounded())
      for b in max(0, centre - 6)...min(magnitudes.count - 1, centre + 6) { excluded[b] = true }
    }
    exclude(aroundHz: 0)
    var k = 1.0
    while k * frequencyHz < sampleRate / 2 {
      exclude(aroundHz: k * frequencyHz)
      k += 1
    }
    let fundamentalBin = Int((frequencyHz / binHz).rounded())
    let fundamental = magnitudes[(fundamentalBin - 6)...(fundamentalBin + 6)].max()!
    var worst: Float = 0
    for b in magnitudes.indices where !excluded[b] { worst = max(worst, magnitudes[b]) }
    return 20 * log10(Double(max(worst, 1e-30)) / Double(fundamental))
  }

  static let fundamentals: [Double] = [110, 440, 1000, 1234.5, 2500, 3333.3, 4000, 4987.6, 5000]

  @Test(arguments: [Waveform.sawtooth, .square, .triangle])
  func aliasingStaysBelowMinus60DecibelsUpTo5Kilohertz(waveform: Waveform) throws {
    var report: [String] = []
    let fft = try SwiftFFTBackend(size: Self.frameCount)
    let window = WindowFunction.blackmanHarris.makeWindow(count: Self.frameCount)
    for f in Self.fundamentals {
      let db = Self.aliasingDB(waveform, frequencyHz: f, fft: fft, window: window)
      report.append("\(f) Hz: \(Int(db.rounded())) dB")
      #expect(db < -60, "\(waveform) at \(f) Hz: strongest non-harmonic peak \(db) dB")
    }
    print("aliasing \(waveform): \(report.joined(separator: ", "))")
  }

  @Test func naiveSawtoothWouldFailTheMeasure() throws {
    // The measure itself must be able to fail: a trivial (not band-limited) sawtooth at 5 kHz
    // aliases strongly.
    let count = 1 << 14
    var samples = [Float](repeating: 0, count: count)
    var phase = 0.0
    for i in samples.indices {
      samples[i] = Float(2 * phase - 1)
      phase += 4987.6 / Self.sampleRate
      if phase >= 1 { phase -= 1 }
    }
    let window = WindowFunction.blackmanHarris.makeWindow(count: count)
    for i in samples.indices { samples[i] *= window[i] }
    let magnitudes = try SwiftFFTBackend(size: count).magnitudes(samples)
    let binHz = Self.sampleRate / Double(count)
    // The fifth harmonic (24938 Hz) folds to 19162 Hz, between the third and fourth harmonics.
    let alias = magnitudes[Int((19162 / binHz).rounded()) - 6...Int((19162 / binHz).rounded()) + 6].max()!
    let fundamental = magnitudes[Int((4987.6 / binHz).rounded()) - 6...Int((4987.6 / binHz).rounded()) + 6].max()!
    #expect(20 * log10(Double(alias / fundamental)) > -30)
  }
}
