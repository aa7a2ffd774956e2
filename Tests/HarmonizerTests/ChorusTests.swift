import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct ChorusTests {
  let rate = 48_000.0

  /// The largest relative deviation of the instantaneous frequency (from rising zero crossings)
  /// from `hz`.
  func largestFrequencyDeviation(_ x: [Float], nominal hz: Double) -> Double {
    var crossings: [Double] = []
    for n in 1..<x.count where x[n - 1] < 0 && x[n] >= 0 {
      crossings.append(Double(n - 1) + Double(-x[n - 1] / (x[n] - x[n - 1])))
    }
    var deviation = 0.0
    for k in 1..<crossings.count {
      let f = rate / (crossings[k] - crossings[k - 1])
      deviation = max(deviation, abs(f / hz - 1))
    }
    return deviation
  }

  @Test(arguments: [(Float(2), Float(5)), (Float(0.5), Float(8))])
  func theSweepModulatesThePitchByRateTimesDepth(rate lfo: Float, depth: Float) {
    var chorus = Chorus(sampleRate: rate)
    chorus.rateHz = lfo
    chorus.depthMilliseconds = depth
    chorus.mixAmount = 1
    chorus.reset()
    let input = SignalGenerator(sampleRate: rate).sine(
      frequencyHz: 1000, amplitude: 0.5, length: .seconds(2.2))
    let output = EffectTestSignals.run(&chorus, input)
    let expected = 2 * Double.pi * Double(lfo) * Double(depth) / 1000
    let measured = largestFrequencyDeviation(Array(output[4800...]), nominal: 1000)
    #expect(abs(measured / expected - 1) < 0.1, "deviation \(measured), expected \(expected)")
  }

  @Test func noDepthNoModulation() {
    var chorus = Chorus(sampleRate: rate)
    chorus.depthMilliseconds = 0
    chorus.mixAmount = 1
    chorus.reset()
    let input = SignalGenerator(sampleRate: rate).sine(
      frequencyHz: 1000, amplitude: 0.5, length: .seconds(0.5))
    let output = EffectTestSignals.run(&chorus, input)
    #expect(largestFrequencyDeviation(Array(output[4800...]), nominal: 1000) < 1e-3)
  }

  @Test func aCopyIsIndependent() {
    var a = Chorus(sampleRate: rate)
    let input = EffectTestSignals.noise(count: 2000)
    _ = EffectTestSignals.run(&a, input)
    var b = a
    let fromA = EffectTestSignals.run(&a, input)
    let fromB = EffectTestSignals.run(&b, input)
    #expect(fromA == fromB)
  }
}
