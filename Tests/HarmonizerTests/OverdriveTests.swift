import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct OverdriveTests {
  let rate = 48_000.0

  func drive(_ db: Float, input: [Float]) -> [Float] {
    var overdrive = Overdrive(sampleRate: rate)
    overdrive.driveDB = db
    overdrive.toneHz = 3000
    overdrive.levelDB = 0
    overdrive.reset()
    return Array(EffectTestSignals.run(&overdrive, input)[4800...])
  }

  /// Odd harmonics 3, 5, 7 relative to the fundamental.
  func harmonicRatio(_ x: [Float], fundamental: Double) -> Double {
    let f1 = Signal.goertzelAmplitude(x, frequencyHz: fundamental, sampleRate: rate)
    let odd = [3.0, 5, 7].map { Signal.goertzelAmplitude(x, frequencyHz: fundamental * $0, sampleRate: rate) }
    return odd.map { $0 * $0 }.reduce(0, +).squareRoot() / f1
  }

  @Test func harmonicsRiseWithDriveAndTheOutputStaysBounded() {
    let input = SignalGenerator(sampleRate: rate).sine(
      frequencyHz: 440, amplitude: 0.5, length: .seconds(0.6))
    let ratios = [Float(0), 12, 24, 40].map { harmonicRatio(drive($0, input: input), fundamental: 440) }
    #expect(ratios[0] < 0.1)  // the curve is soft from the first decibel: 0 dB drive on 0.5 is mild
    #expect(zip(ratios, ratios.dropFirst()).allSatisfy { $0 < $1 }, "\(ratios)")
    #expect(ratios[3] > 0.2)
    // Bounded by the level (0 dB) and the tone filter's overshoot, even at full drive on loud input.
    let loud = SignalGenerator(sampleRate: rate).sine(frequencyHz: 440, amplitude: 4, length: .seconds(0.3))
    #expect(Signal.peak(drive(40, input: loud)) < 1.3)
    // A symmetric curve: no even harmonics.
    let driven = drive(24, input: input)
    #expect(
      Signal.goertzelAmplitude(driven, frequencyHz: 880, sampleRate: rate)
        < 0.01 * Signal.goertzelAmplitude(driven, frequencyHz: 440, sampleRate: rate))
  }

  @Test func antiAliasingKeepsFoldedHarmonicsDown() {
    // 5 kHz hard-driven: its 7th harmonic (35 kHz) folds to 13 kHz, the 9th (45 kHz) to 3 kHz.
    let input = SignalGenerator(sampleRate: rate).sine(
      frequencyHz: 5000, amplitude: 0.8, length: .seconds(0.3))
    var overdrive = Overdrive(sampleRate: rate)
    overdrive.driveDB = 30
    overdrive.toneHz = 5000
    overdrive.levelDB = 0
    overdrive.reset()
    let out = Array(EffectTestSignals.run(&overdrive, input)[4800...])
    // The same curve without anti-aliasing, through the same tone filter.
    let gain = Float(pow(10, 30.0 / 20))
    let naiveCurve = input.map { x -> Float in
      let u = x * gain
      return u / (1 + u * u).squareRoot()
    }
    var filterOnly = Overdrive(sampleRate: rate)
    filterOnly.driveDB = 0
    filterOnly.toneHz = 5000
    filterOnly.levelDB = 0
    filterOnly.reset()
    // Drive 0 dB on tiny input is linear: the tone filter alone.
    let naive = Array(EffectTestSignals.run(&filterOnly, naiveCurve.map { $0 * 1e-3 })[4800...])
    func aliasDB(_ x: [Float]) -> Double {
      let fundamental = Signal.goertzelAmplitude(x, frequencyHz: 5000, sampleRate: rate)
      let aliases = [13_000.0, 3000, 23_000].map {
        Signal.goertzelAmplitude(x, frequencyHz: $0, sampleRate: rate)
      }
      return 20 * log10(aliases.map { $0 * $0 }.reduce(0, +).squareRoot() / fundamental)
    }
    let withADAA = aliasDB(out)
    let without = aliasDB(naive)
    #expect(withADAA < without - 10, "aliases \(withADAA) dB with ADAA, \(without) dB without")
  }
}
