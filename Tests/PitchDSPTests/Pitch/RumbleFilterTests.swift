import Foundation
import Testing

@testable import PitchDSP

/// The pitch analysis's high-pass (``RumbleFilter``): its response, its start and non-finite input.
@Suite struct RumbleFilterTests {
  /// The analysis rate of a 44.1 kHz stream with the default range.
  static let rate = 22050.0
  static let cutoff = RumbleFilter.cutoffShare * 40

  /// The filter's gain for a steady sine at `frequency` Hz, in dB, over its second second.
  static func gain(at frequency: Double) -> Double {
    var filter = RumbleFilter(cutoffHz: cutoff, sampleRate: rate)
    var (input, output) = (0.0, 0.0)
    for n in 0..<Int(2 * rate) {
      let x = Float(sin(2 * .pi * frequency * Double(n) / rate))
      let y = filter.process(x)
      if n >= Int(rate) {
        input += Double(x * x)
        output += Double(y * y)
      }
    }
    return 10 * log10(output / input)
  }

  /// A second-order Butterworth high-pass at 0.75 of the lowest pitch: −3 dB at the cutoff,
  /// 1.2 dB lost at the lowest pitch and next to nothing an octave up; 16 dB taken off at 0.3 of
  /// the lowest pitch.
  @Test func thePitchRangePassesAndWhatLiesBelowItDoesNot() {
    #expect(abs(Self.gain(at: Self.cutoff) + 3.01) < 0.05)
    #expect(abs(Self.gain(at: 40) + 1.19) < 0.05)
    #expect(Self.gain(at: 80) > -0.1)
    #expect(Self.gain(at: 1000) > -0.001)
    #expect(Self.gain(at: 12) < -15.5)
  }

  /// An offset present from the first sample is no step: the output stays at zero.
  @Test func anOffsetFromTheStartIsNoStep() {
    var filter = RumbleFilter(cutoffHz: Self.cutoff, sampleRate: Self.rate)
    var largest: Float = 0
    for _ in 0..<Int(Self.rate) { largest = max(largest, abs(filter.process(0.4))) }
    #expect(largest < 1e-6)
  }

  /// Non-finite samples come out as 0 and leave the state as it was: after a burst of NaN and
  /// infinities, the output is what it would have been without the burst.
  @Test func nonFiniteSamplesAreSilenceAndLeaveTheState() {
    let signal = (0..<4000).map { Float(0.3 + 0.5 * sin(2 * .pi * 110 * Double($0) / Self.rate)) }
    var clean = RumbleFilter(cutoffHz: Self.cutoff, sampleRate: Self.rate)
    var burst = RumbleFilter(cutoffHz: Self.cutoff, sampleRate: Self.rate)
    var expected: [Float] = []
    var actual: [Float] = []
    for (n, x) in signal.enumerated() {
      if n == 2000 {
        for bad in [Float.nan, .infinity, -.infinity, .nan] { #expect(burst.process(bad) == 0) }
      }
      expected.append(clean.process(x))
      actual.append(burst.process(x))
    }
    #expect(actual == expected)
  }

  /// After ``RumbleFilter/reset()`` the filter starts as new (seeded by the next sample).
  @Test func resetStartsAfresh() {
    var used = RumbleFilter(cutoffHz: Self.cutoff, sampleRate: Self.rate)
    for n in 0..<1000 { _ = used.process(Float(sin(Double(n)))) }
    used.reset()
    var fresh = RumbleFilter(cutoffHz: Self.cutoff, sampleRate: Self.rate)
    for n in 0..<500 {
      let x = Float(0.2 + 0.1 * sin(2 * .pi * 220 * Double(n) / Self.rate))
      #expect(used.process(x) == fresh.process(x))
    }
  }
}
