import Testing

@testable import Synthesis

@Suite struct EnvelopeGeneratorTests {
  static let rate = 1000.0

  static func run(_ generator: inout EnvelopeGenerator, frames: Int) -> [Float] {
    (0..<frames).map { _ in generator.next() }
  }

  @Test func attackDecaySustainReleaseTakeTheirTimes() {
    let shape = Synthesis.ADSREnvelope(attackSeconds: 0.1, decaySeconds: 0.2, sustainLevel: 0.5, releaseSeconds: 0.3)
    var envelope = EnvelopeGenerator(envelope: shape, sampleRate: Self.rate)
    #expect(!envelope.isActive)
    envelope.noteOn()
    let attack = Self.run(&envelope, frames: 100)
    #expect(zip(attack, attack.dropFirst()).allSatisfy { $0 < $1 })  // rising
    #expect(attack.last! > 0.98)
    #expect(attack[49] > 0.4 && attack[49] < 0.7)  // close to linear
    let decay = Self.run(&envelope, frames: 205)
    #expect(abs(decay.last! - 0.5) < 1e-6)
    #expect(decay[20] < 0.8)  // exponential: most of the fall early
    #expect(envelope.stage == .sustain)
    let sustain = Self.run(&envelope, frames: 500)
    #expect(sustain.allSatisfy { $0 == 0.5 })
    envelope.noteOff()
    let release = Self.run(&envelope, frames: 305)
    #expect(zip(release, release.dropFirst()).allSatisfy { $0 >= $1 })
    #expect(release.last! == 0)
    #expect(!envelope.isActive)
  }

  @Test func releaseFromTheAttackStartsAtTheCurrentLevel() {
    var envelope = EnvelopeGenerator(
      envelope: Synthesis.ADSREnvelope(attackSeconds: 0.1, decaySeconds: 0.1, sustainLevel: 0.5, releaseSeconds: 0.1),
      sampleRate: Self.rate)
    envelope.noteOn()
    let attack = Self.run(&envelope, frames: 30)
    envelope.noteOff()
    let first = envelope.next()
    #expect(first < attack.last! && attack.last! - first < 0.1)  // no step
    _ = Self.run(&envelope, frames: 100)
    #expect(!envelope.isActive)
    // A retrigger while releasing rises from where it is.
    envelope.noteOn()
    #expect(envelope.next() < 0.05)
  }

  @Test func oddParametersAreClamped() {
    let odd = Synthesis.ADSREnvelope(attackSeconds: .nan, decaySeconds: -1, sustainLevel: 7, releaseSeconds: 0)
    let clamped = odd.clamped
    #expect(clamped.attackSeconds == 0.005)
    #expect(clamped.decaySeconds == Synthesis.ADSREnvelope.minimumSeconds)
    #expect(clamped.sustainLevel == 1)
    #expect(clamped.releaseSeconds == Synthesis.ADSREnvelope.minimumSeconds)
    var envelope = EnvelopeGenerator(envelope: odd, sampleRate: .nan)
    envelope.noteOn()
    let values = Self.run(&envelope, frames: 1000)
    #expect(values.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
  }
}
