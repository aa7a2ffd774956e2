import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct ResonantLowPassTests {
  let rate = 48_000.0

  /// The steady-state gain, in dB, of the filter for a sine at `hz`.
  func gainDB(_ filter: ResonantLowPass, at hz: Double) -> Double {
    var f = filter
    let input = SignalGenerator(sampleRate: rate).sine(frequencyHz: hz, amplitude: 0.5, length: .seconds(0.3))
    let output = EffectTestSignals.run(&f, input)
    let settled = Array(output[(output.count / 2)...])
    let reference = Array(input[(input.count / 2)...])
    return 20 * log10(Signal.rms(settled) / Signal.rms(reference))
  }

  @Test func theCutoffIsTheMinus3dBPoint() {
    let filter = ResonantLowPass(sampleRate: rate, cutoffHz: 1000, resonance: 0.7071)
    #expect(abs(gainDB(filter, at: 1000) + 3.01) < 0.2)
    #expect(abs(gainDB(filter, at: 100)) < 0.1)
    // 12 dB per octave: about −40 dB a little over three octaves up.
    #expect(gainDB(filter, at: 10_000) < -36)
  }

  @Test func resonancePeaksAtTheCutoffByTheQ() {
    let filter = ResonantLowPass(sampleRate: rate, cutoffHz: 1000, resonance: 4)
    let peak = gainDB(filter, at: 1000)
    #expect(abs(peak - 20 * log10(4)) < 0.5)
    #expect(gainDB(filter, at: 500) < peak - 6)
  }

  @Test func aCutoffSweptEveryBlockStaysStableAndRecoversFromNonFiniteInput() {
    var filter = ResonantLowPass(sampleRate: rate, cutoffHz: 200, resonance: 20)
    var input = EffectTestSignals.noise(count: 48_000)
    input[1000] = .nan
    input[2000] = .infinity
    var output: [Float] = []
    for block in 0..<(input.count / 64) {
      filter.cutoffHz = block % 2 == 0 ? 20 : 20_000
      output += EffectTestSignals.run(&filter, Array(input[(block * 64)..<(block * 64 + 64)]))
    }
    #expect(output.allSatisfy { $0.isFinite })
    #expect(Signal.peak(output) < 50)
  }
}
