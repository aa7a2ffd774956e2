import Testing

@testable import Harmonizer

/// The protocol's contract, checked on a trivial conforming type so the seam compiles and its
/// default expectations hold; the real shifters have their own suites.
@Suite struct PitchShifterTests {
  struct Passthrough: PitchShifter {
    var sampleRate: Double = 44_100
    var semitones: Double = 0
    var latencySamples: Int { 0 }
    mutating func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
      for i in 0..<min(input.count, output.count) { output[i] = input[i] }
    }
    mutating func reset() {}
  }

  @Test func aShifterCanBeUsedThroughTheProtocol() {
    var shifter: any PitchShifter = Passthrough()
    shifter.semitones = 3
    let input: [Float] = [0.5, -0.25, 1]
    var output = [Float](repeating: 0, count: 3)
    input.withUnsafeBufferPointer { i in output.withUnsafeMutableBufferPointer { shifter.process(i, into: $0) } }
    #expect(output == input)
    #expect(shifter.semitones == 3)
  }
}
