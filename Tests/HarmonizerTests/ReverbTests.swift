import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct ReverbTests {
  let rate = 24_000.0

  /// RT60 from the Schroeder energy decay curve, fitted from −5 to −35 dB.
  func measuredRT60(_ x: [Float]) -> Double {
    var energy = [Double](repeating: 0, count: x.count + 1)
    for n in stride(from: x.count - 1, through: 0, by: -1) { energy[n] = energy[n + 1] + Double(x[n] * x[n]) }
    let total = energy[0]
    func time(at dB: Double) -> Double {
      let level = total * pow(10, dB / 10)
      let n = energy.firstIndex { $0 <= level } ?? x.count
      return Double(n) / rate
    }
    return (time(at: -35) - time(at: -5)) * 60 / 30
  }

  @Test(arguments: [0.6, 1.5])
  func theTailDecaysInTheSetTime(seconds: Double) {
    var reverb = Reverb(sampleRate: rate)
    reverb.decaySeconds = Float(seconds)
    reverb.dampingHz = 20_000
    reverb.mixAmount = 1
    reverb.reset()
    let output = EffectTestSignals.run(&reverb, EffectTestSignals.impulse(count: Int(rate * seconds * 1.5)))
    let rt60 = measuredRT60(output)
    #expect(abs(rt60 / seconds - 1) < 0.15, "RT60 \(rt60) s for \(seconds) s")
  }

  @Test func dampingShortensTheHighs() {
    func highShare(damping: Float) -> Double {
      var reverb = Reverb(sampleRate: rate)
      reverb.dampingHz = damping
      reverb.mixAmount = 1
      reverb.reset()
      let out = EffectTestSignals.run(&reverb, EffectTestSignals.impulse(count: 24_000))
      let late = Array(out[12_000...])
      let diff = zip(late.dropFirst(), late).map { $0 - $1 }
      return Signal.rms(diff) / Signal.rms(late)
    }
    #expect(highShare(damping: 1500) < 0.5 * highShare(damping: 20_000))
  }
}
