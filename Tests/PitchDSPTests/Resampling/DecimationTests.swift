import Testing
import _TestSupport

@testable import PitchDSP

@Suite struct DecimationTests {
  /// Gain of a sine through `decimate`, in dB, measured on the output's middle half.
  private func gainDB(
    _ frequency: Double, rate: Double, factor: Int, passbandHz: Double, attenuationDB: Double = 60
  ) throws -> Double {
    let amplitude = 0.5
    let signal = SignalGenerator(sampleRate: rate).sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.3))
    let out = try Resampler.decimate(
      signal, sampleRate: rate, by: factor, passbandHz: passbandHz, attenuationDB: attenuationDB)
    let steady = Array(out[(out.count / 4)..<(3 * out.count / 4)])
    // An alias is measured where it lands: folded into the output band.
    let outputRate = rate / Double(factor)
    var folded = frequency.truncatingRemainder(dividingBy: outputRate)
    if folded > outputRate / 2 { folded = outputRate - folded }
    return Signal.dBFS(Signal.goertzelAmplitude(steady, frequencyHz: folded, sampleRate: outputRate) / amplitude)
  }

  @Test(arguments: [(44_100.0, 4), (48_000, 4), (44_100, 2)])
  func thePassbandKeepsItsLevelAndNothingFoldsOntoIt(rate: Double, factor: Int) throws {
    let passband = 5_000.0
    for frequency in [100.0, 1_000, 3_000, 4_900] {
      #expect(abs(try gainDB(frequency, rate: rate, factor: factor, passbandHz: passband)) < 0.02, "\(frequency) Hz")
    }
    // Everything that would fold into the passband is at least the designed 60 dB down.
    let outputRate = rate / Double(factor)
    for frequency in [outputRate - passband + 50, outputRate - 1_000, outputRate + 500, rate / 2 - 300] {
      #expect(try gainDB(frequency, rate: rate, factor: factor, passbandHz: passband) < -58, "\(frequency) Hz")
    }
  }

  @Test func outputSampleJIsInputSampleJTimesTheFactor() throws {
    // An impulse stays centred (no delay), and the length is the input's over the factor, rounded up.
    let input = SignalGenerator(sampleRate: 44_100).impulse(at: 4_000, length: .frames(10_001))
    let output = try Resampler.decimate(input, sampleRate: 44_100, by: 4, passbandHz: 5_000)
    #expect(output.count == 2_501)
    #expect(output.indices.max { abs(output[$0]) < abs(output[$1]) } == 1_000)
    // The taps sum to 1: a constant stays itself.
    let constant = try Resampler.decimate(
      [Float](repeating: 0.25, count: 4_000), sampleRate: 44_100, by: 4, passbandHz: 5_000)
    #expect(abs(constant[500] - 0.25) < 1e-5)
  }

  @Test func nonFiniteSamplesBecomeSilenceAndBadParametersThrow() throws {
    var input = [Float](repeating: 0, count: 2_000)
    input[700] = .nan
    input[900] = .infinity
    let output = try Resampler.decimate(input, sampleRate: 44_100, by: 4, passbandHz: 5_000)
    #expect(output.allSatisfy { $0 == 0 })
    #expect(try Resampler.decimate(input, sampleRate: 44_100, by: 1, passbandHz: 5_000).count == 2_000)
    #expect(try Resampler.decimate([], sampleRate: 44_100, by: 4, passbandHz: 5_000).isEmpty)
    #expect(throws: PitchDSPError.self) { try Resampler.decimate(input, sampleRate: 44_100, by: 0, passbandHz: 5_000) }
    #expect(throws: PitchDSPError.self) { try Resampler.decimate(input, sampleRate: 44_100, by: 4, passbandHz: 5_600) }
    #expect(throws: PitchDSPError.self) { try Resampler.decimate(input, sampleRate: 0, by: 4, passbandHz: 5_000) }
    // A passband a hair under the new Nyquist frequency would need millions of taps.
    #expect(throws: PitchDSPError.self) {
      try Resampler.decimate(input, sampleRate: 44_100, by: 4, passbandHz: 5_512.49)
    }
    #expect(throws: PitchDSPError.self) {
      try Resampler.decimate(input, sampleRate: 44_100, by: 4, passbandHz: 5_000, attenuationDB: 10)
    }
  }
}
