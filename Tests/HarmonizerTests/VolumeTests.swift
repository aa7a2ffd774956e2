import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct VolumeTests {
  @Test func gainInDecibelsScalesTheSignal() {
    var volume = Volume(sampleRate: 48_000, gainDB: -6)
    let output = EffectTestSignals.run(&volume, [Float](repeating: 0.5, count: 100))
    #expect(abs(output[99] - 0.5 * Float(pow(10, -6.0 / 20))) < 1e-6)
  }

  @Test func theBottomOfTheRangeMutes() {
    var volume = Volume(sampleRate: 48_000, gainDB: -80)
    #expect(EffectTestSignals.run(&volume, [1, -1, 0.5]) == [0, 0, 0])
  }

  @Test func aGainChangeRampsWithoutAJump() {
    var volume = Volume(sampleRate: 48_000)
    let dc = [Float](repeating: 0.8, count: 4800)
    _ = EffectTestSignals.run(&volume, dc)
    volume.gainDB = -40
    let output = EffectTestSignals.run(&volume, dc)
    // 20 ms ramp = 960 samples: each step at most 0.8 / 960 (plus rounding).
    #expect(EffectTestSignals.largestJump([0.8] + output, in: 0..<4801) < 0.8 / 900)
    #expect(abs(output[4799] - 0.008) < 1e-5)
  }
}
