import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

@Suite struct LevelMeterTests {
  @Test func fullScaleSineReadsMinus3dBRMSAndZeroPeak() {
    let sine = SignalGenerator(sampleRate: 48_000).sine(
      frequencyHz: 1000, amplitude: 1, length: .frames(48_000))
    var meter = LevelMeter(sampleRate: 48_000)
    meter.process(sine)
    #expect(abs(meter.rmsDBFS - (-3.0103)) < 0.01)
    #expect(abs(meter.peakDBFS) < 0.01)
    #expect(meter.durationSeconds == 1)
  }

  @Test(arguments: [1, 7, 512])
  func blockSizeDoesNotChangeTheResult(block: Int) {
    let signal = SignalGenerator(sampleRate: 8000).whiteNoise(amplitude: 0.5, length: .frames(4000), seed: 3)
    var whole = LevelMeter(sampleRate: 8000)
    whole.process(signal)
    var blocks = LevelMeter(sampleRate: 8000)
    for start in stride(from: 0, to: signal.count, by: block) {
      blocks.process(Array(signal[start..<min(signal.count, start + block)]))
    }
    #expect(whole.peak == blocks.peak)
    #expect(abs(whole.rms - blocks.rms) < 1e-9)
  }

  @Test func nonFiniteSamplesAreCountedNotMeasured() {
    var meter = LevelMeter(sampleRate: 8000)
    meter.process([0.5, .nan, -0.5, .infinity, 1.0])
    #expect(meter.nonFiniteCount == 2)
    #expect(meter.frameCount == 3)
    #expect(meter.peak == 1)
    #expect(meter.clippedCount == 1)
    #expect(meter.rms.isFinite)
  }

  @Test func silenceIsMinusInfinity() {
    var meter = LevelMeter(sampleRate: 8000)
    meter.process([Float](repeating: 0, count: 100))
    #expect(meter.peakDBFS == -.infinity)
    #expect(meter.rmsDBFS == -.infinity)
  }
}
