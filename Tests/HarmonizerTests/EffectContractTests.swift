import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

/// What every built-in effect promises: block-size independence, silence for silence, no
/// poisoning by NaN or infinity, clamped parameters, names that resolve.
@Suite struct EffectContractTests {
  static let rate = 16_000.0

  /// Each kind, with settings that make it do something audible (wet, with feedback).
  static func lively(_ kind: EffectKind) -> any Effect {
    var effect = kind.make(sampleRate: rate).effect
    let settings: [String: Float] =
      switch kind {
      case .chorus: ["mix": 0.7, "feedback": 0.5, "depth": 4]
      case .overdrive: ["drive": 30]
      case .delay: ["time": 0.05, "feedback": 0.6, "mix": 0.6]
      case .reverb: ["decay": 0.8, "mix": 0.6]
      case .adsr: ["threshold": -30, "attack": 0.02, "release": 0.05]
      case .lowpass: ["cutoff": 800, "resonance": 6]
      case .volume: ["gain": -6]
      }
    for (name, value) in settings { try! effect.setValue(value, named: name) }
    effect.reset()
    return effect
  }

  static func run(_ effect: any Effect, _ input: [Float], blockSize: Int) -> [Float] {
    var e = effect
    return EffectTestSignals.run(&e, input, blockSize: blockSize)
  }

  @Test(arguments: EffectKind.allCases)
  func blockSizeDoesNotChangeTheOutput(kind: EffectKind) {
    let input = EffectTestSignals.noise(count: 6000, amplitude: 0.4) + [Float](repeating: 0, count: 2000)
    let reference = Self.run(Self.lively(kind), input, blockSize: 512)
    #expect(Self.run(Self.lively(kind), input, blockSize: 1) == reference)
    #expect(Self.run(Self.lively(kind), input, blockSize: 37) == reference)
    #expect(Self.run(Self.lively(kind), input, blockSize: 8192) == reference)
  }

  @Test(arguments: EffectKind.allCases)
  func silenceInSilenceOutAfterTheTail(kind: EffectKind) {
    let effect = Self.lively(kind)
    #expect(Self.run(effect, [Float](repeating: 0, count: 4000), blockSize: 256).allSatisfy { $0 == 0 })
    let tail = Int(effect.tailSeconds * Self.rate) + 1
    let input = EffectTestSignals.noise(count: 3000) + [Float](repeating: 0, count: tail + 2000)
    let output = Self.run(effect, input, blockSize: 256)
    #expect(Signal.peak(output[(3000 + tail)...]) < 1e-3, "tail \(effect.tailSeconds) s")
  }

  @Test(arguments: EffectKind.allCases)
  func nonFiniteInputIsSilenceAndNeverPoisonsTheState(kind: EffectKind) {
    let clean = EffectTestSignals.noise(count: 6000, amplitude: 0.4)
    var bad = clean
    var zeroed = clean
    for n in [100, 2000, 2001, 2002] {
      bad[n] = .nan
      zeroed[n] = 0
    }
    for n in 3000..<3100 {
      bad[n] = n % 2 == 0 ? .infinity : -.infinity
      zeroed[n] = 0
    }
    let output = Self.run(Self.lively(kind), bad, blockSize: 128)
    #expect(output.allSatisfy { $0.isFinite })
    // Recovery is exact: the bad samples count as zeros and nothing else changes.
    #expect(output == Self.run(Self.lively(kind), zeroed, blockSize: 128))
  }

  @Test(arguments: EffectKind.allCases)
  func parametersAreClampedIntoTheirRanges(kind: EffectKind) {
    var effect = kind.make(sampleRate: Self.rate).effect
    for (index, parameter) in effect.parameters.enumerated() {
      effect.setValue(1e9, at: index)
      #expect(effect.value(at: index) == parameter.range.upperBound, "\(parameter.name)")
      effect.setValue(-1e9, at: index)
      #expect(effect.value(at: index) == parameter.range.lowerBound, "\(parameter.name)")
      effect.setValue(.nan, at: index)
      #expect(effect.value(at: index) == parameter.defaultValue, "\(parameter.name)")
      #expect(parameter.range.contains(parameter.defaultValue))
    }
    // Still works at the extremes.
    for index in effect.parameters.indices { effect.setValue(1e9, at: index) }
    #expect(Self.run(effect, EffectTestSignals.noise(count: 2000), blockSize: 64).allSatisfy { $0.isFinite })
  }

  @Test func anUnknownParameterNamesTheValidOnes() throws {
    var delay = Delay(sampleRate: Self.rate)
    #expect(throws: EffectError.self) { try delay.setValue(1, named: "tempo") }
    do {
      try delay.setValue(1, named: "tempo")
    } catch {
      #expect(error.description.contains("time, feedback, mix, damping, sync, bpm, beats"))
    }
    #expect(throws: EffectError.self) { try EffectKind(named: "flanger") }
    #expect(try EffectKind(named: "LowPass") == .lowpass)
  }
}
