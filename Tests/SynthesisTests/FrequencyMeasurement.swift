import Foundation
import _TestSupport

/// A precise frequency measurement for the tests: a coarse estimate (windowed Goertzel search,
/// `_TestSupport`), refined by the phase advance of that component between two Blackman–Harris
/// windowed frames `hop` frames apart (the phase-vocoder estimate). On a decaying partial it is
/// accurate to well under 0.1 cent.
enum FrequencyMeasurement {
  /// The frequency, in Hz, of the strongest component within ±3 % of `nearHz` in `signal`
  /// from frame `start` on (needs `start + 2·length` frames).
  static func frequencyHz(
    _ signal: [Float], sampleRate: Double, nearHz: Double, start: Int, length: Int = 8192
  ) -> Double {
    let coarse = Signal.estimatedFrequency(
      Array(signal[start..<(start + 4096)]), sampleRate: sampleRate, nearHz: nearHz, searchHz: nearHz * 0.03)
    let a = phase(signal, from: start, length: length, hz: coarse, sampleRate: sampleRate)
    let b = phase(signal, from: start + length, length: length, hz: coarse, sampleRate: sampleRate)
    let expected = 2 * Double.pi * coarse * Double(length) / sampleRate
    var difference = (b - a) - expected
    difference -= 2 * Double.pi * (difference / (2 * Double.pi)).rounded()
    return coarse + difference * sampleRate / (2 * Double.pi * Double(length))
  }

  /// The phase, in radians, of the windowed DFT of `signal[from..<from+length]` at `hz`, relative
  /// to the frame's first sample.
  static func phase(_ signal: [Float], from: Int, length: Int, hz: Double, sampleRate: Double) -> Double {
    var re = 0.0
    var im = 0.0
    let omega = 2 * Double.pi * hz / sampleRate
    for n in 0..<length {
      let x = 2 * Double.pi * Double(n) / Double(length - 1)
      let w = 0.35875 - 0.48829 * cos(x) + 0.14128 * cos(2 * x) - 0.01168 * cos(3 * x)
      let v = Double(signal[from + n]) * w
      re += v * cos(omega * Double(n))
      im -= v * sin(omega * Double(n))
    }
    return atan2(im, re)
  }

  /// The difference between two frequencies in cents.
  static func cents(_ hz: Double, from reference: Double) -> Double { 1200 * log2(hz / reference) }
}
