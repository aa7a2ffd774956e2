import Foundation
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct ADSRTests {
  let rate = 10_000.0

  func noteEnvelope() -> ADSR {
    var adsr = ADSR(sampleRate: rate)
    for (name, value) in [
      ("attack", 0.1), ("decay", 0.1), ("sustain", 0.5), ("release", 0.2), ("trigger", 1),
    ] {
      try! adsr.setValue(Float(value), named: name)
    }
    adsr.reset()
    return adsr
  }

  @Test func theStagesTakeTheirSetTimes() {
    var adsr = noteEnvelope()
    let dc = [Float](repeating: 1, count: 5000)
    adsr.noteOn()
    let held = EffectTestSignals.run(&adsr, dc, blockSize: 64)
    adsr.noteOff()
    let released = EffectTestSignals.run(&adsr, Array(dc[0..<3000]), blockSize: 64)
    #expect(abs(held[499] - 0.5) < 0.01)  // half-way up at 50 ms
    #expect(abs(held[999] - 1) < 0.01)  // full at 100 ms
    #expect(abs(held[1499] - 0.75) < 0.01)  // half-way down at 150 ms
    #expect(abs(held[1999] - 0.5) < 0.01)  // sustain from 200 ms
    #expect(abs(held[4999] - 0.5) < 1e-6)
    #expect(abs(released[999] - 0.25) < 0.01)  // half-way released at 100 ms
    #expect(released[2000...].allSatisfy { $0 == 0 })
    #expect(adsr.stage == .idle)
  }

  @Test func theLevelGateOpensAtTheThresholdAndHysteresisStopsChatter() {
    var adsr = ADSR(sampleRate: rate)
    try! adsr.setValue(-20, named: "threshold")
    try! adsr.setValue(6, named: "hysteresis")
    try! adsr.setValue(0.001, named: "attack")
    adsr.reset()
    let gen = SignalGenerator(sampleRate: rate)
    // Silence, a tone at −14 dBFS (opens), then a tone wobbling between −24 and −21 dBFS (below
    // the threshold but above the closing level): the gate must stay open through it.
    let loud = gen.sine(frequencyHz: 200, amplitude: 0.2, length: .seconds(0.3))
    let wobble: [Float] = (0..<6000).map { (n: Int) -> Float in
      let amplitude: Float = (n / 500) % 2 == 0 ? 0.08 : 0.06
      let phase: Double = 2 * Double.pi * 200 * Double(n) / 10_000
      return amplitude * Float(sin(phase))
    }
    var opened = 0
    var closed = 0
    var wasOpen = false
    for block in [[Float](repeating: 0, count: 1000), loud, wobble, [Float](repeating: 0, count: 4000)] {
      for start in stride(from: 0, to: block.count, by: 10) {
        _ = EffectTestSignals.run(&adsr, Array(block[start..<min(start + 10, block.count)]))
        if adsr.isGateOpen != wasOpen {
          if adsr.isGateOpen { opened += 1 } else { closed += 1 }
          wasOpen = adsr.isGateOpen
        }
      }
    }
    #expect(opened == 1)
    #expect(closed == 1)
  }
}
