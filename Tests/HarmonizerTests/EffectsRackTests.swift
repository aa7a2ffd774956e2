import Dispatch
import Foundation
import Synchronization
import Testing
import _TestSupport

@testable import Harmonizer

@Suite struct EffectsRackTests {
  let rate = 48_000.0

  @Test func theChainIsTheEffectsInOrder() throws {
    let rack = try EffectsRack(kinds: [.overdrive, .lowpass, .delay], sampleRate: rate)
    try rack.setParameter("delay.time", to: 0.01)
    try rack.setParameter("lowpass.cutoff", to: 900)
    let input = EffectTestSignals.noise(count: 9000)
    // The first block applies the settings; ramps start from the defaults, as in the effects.
    let output = EffectTestSignals.run(rack, input, blockSize: 100)
    var overdrive = Overdrive(sampleRate: rate)
    var lowpass = ResonantLowPass(sampleRate: rate)
    var delay = Delay(sampleRate: rate)
    lowpass.cutoffHz = 900
    delay.timeSeconds = 0.01
    var expected = EffectTestSignals.run(&overdrive, input)
    expected = EffectTestSignals.run(&lowpass, expected)
    expected = EffectTestSignals.run(&delay, expected)
    #expect(output == expected)
    #expect(try rack.parameter("delay.time") == 0.01)
    #expect(rack.slotNames == ["overdrive", "lowpass", "delay"])
  }

  @Test func namesAreCheckedAndListed() throws {
    let rack = try EffectsRack(kinds: [.delay, .delay, .reverb], sampleRate: rate)
    #expect(rack.slotNames == ["delay", "delay2", "reverb"])
    try rack.setParameter("delay2.feedback", to: 5)
    #expect(try rack.parameter("delay2.feedback") == 0.95)  // clamped
    #expect(throws: EffectError.unknownEffect(name: "chorus", valid: ["delay", "delay2", "reverb"])) {
      try rack.setParameter("chorus.rate", to: 1)
    }
    #expect(
      throws: EffectError.unknownParameter(
        effect: "reverb", name: "size", valid: ["decay", "damping", "mix"])
    ) { try rack.setParameter("reverb.size", to: 1) }
    #expect(throws: EffectError.self) { try rack.setOrder([0, 0, 1]) }
    #expect(throws: EffectError.self) { try EffectsRack(kinds: [], sampleRate: rate) }
    #expect(rack.parameterNames.contains("delay2.beats"))
  }

  /// A sine through two configurations that sound very different; the switch between them
  /// happens at `switchFrame` through `change`. Returns the output, the largest jump in steady
  /// state before and after, and the largest jump an instant switch would make.
  func switching(
    kinds: [EffectKind], setup: (EffectsRack) throws -> Void, change: @escaping (EffectsRack) -> Void
  ) throws -> (transition: Float, steady: Float, instant: Float) {
    let input = SignalGenerator(sampleRate: rate).sine(
      frequencyHz: 220, amplitude: 0.5, length: .seconds(0.5))
    let switchFrame = 12_000
    func make() throws -> EffectsRack {
      let rack = try EffectsRack(kinds: kinds, sampleRate: rate)
      try setup(rack)
      return rack
    }
    let before = EffectTestSignals.run(try make(), input)
    let afterRack = try make()
    change(afterRack)
    let after = EffectTestSignals.run(afterRack, input)
    let rack = try make()
    let output = EffectTestSignals.run(rack, input, blockSize: 128) { start in
      if start == switchFrame { change(rack) }
    }
    let steady = max(
      EffectTestSignals.largestJump(before, in: 4000..<input.count),
      EffectTestSignals.largestJump(after, in: 4000..<input.count))
    var instant: Float = 0
    for n in switchFrame..<(switchFrame + 480) { instant = max(instant, abs(after[n] - before[n - 1])) }
    return (EffectTestSignals.largestJump(output, in: switchFrame..<(switchFrame + 2400)), steady, instant)
  }

  /// The bound: a crossfade of two signals that each move at most `steady` per sample, whose
  /// difference is at most 2 (full scale), over 960 samples, moves at most steady + 2 / 960.
  func bound(_ steady: Float) -> Float { steady + 2 / 960 }

  @Test func bypassingWhileRunningDoesNotClick() throws {
    let result = try switching(
      kinds: [.overdrive, .lowpass],
      setup: { rack in
        try rack.setParameter("overdrive.drive", to: 40)
        try rack.setParameter("overdrive.level", to: 0)
        try rack.setParameter("lowpass.cutoff", to: 5000)
      },
      change: { $0.setBypassed(true, slot: 0) })
    #expect(result.transition < bound(result.steady), "\(result)")
    // An instant switch would jump far more: the test can see a click.
    #expect(result.instant > 4 * bound(result.steady), "\(result)")
  }

  @Test func reorderingWhileRunningDoesNotClick() throws {
    let result = try switching(
      kinds: [.volume, .overdrive],
      setup: { rack in
        // Quiet then driven (a clean 0.45 sine) versus driven then quiet (a 0.1 square-ish wave).
        try rack.setParameter("volume.gain", to: -20)
        try rack.setParameter("overdrive.drive", to: 20)
        try rack.setParameter("overdrive.level", to: 0)
      },
      change: { try! $0.setOrder([1, 0]) })
    #expect(result.transition < bound(result.steady), "\(result)")
    #expect(result.instant > 4 * bound(result.steady), "\(result)")
  }

  @Test func reorderingADelayKeepsItsEchoesThroughTheCrossfade() throws {
    let rack = try EffectsRack(kinds: [.delay, .volume], sampleRate: rate)
    try rack.setParameter("delay.time", to: 0.05)
    try rack.setParameter("delay.feedback", to: 0.8)
    try rack.setParameter("delay.mix", to: 1)
    let input =
      SignalGenerator(sampleRate: rate).sine(frequencyHz: 330, amplitude: 0.5, length: .seconds(0.3))
      + [Float](repeating: 0, count: 24_000)
    let output = EffectTestSignals.run(rack, input, blockSize: 256) { start in
      if start == 14_336 + 2048 { rack.move(slot: 1, to: 0) }
    }
    #expect(rack.order == [1, 0])
    // Volume at 0 dB commutes with the delay: the echoes continue as if nothing happened.
    let reference = try EffectsRack(kinds: [.delay, .volume], sampleRate: rate)
    try reference.setParameter("delay.time", to: 0.05)
    try reference.setParameter("delay.feedback", to: 0.8)
    try reference.setParameter("delay.mix", to: 1)
    let expected = EffectTestSignals.run(reference, input, blockSize: 256)
    #expect(zip(output, expected).map { abs($0 - $1) }.max()! < 1e-4)
  }

  @Test func customEffectsRunAndTheLatencyFollowsBypass() throws {
    struct Lag: Effect {
      var sampleRate = 48_000.0
      var latencySamples: Int { 64 }
      var tailSeconds: Double { 0 }
      var parameters: [EffectParameter] { [] }
      func value(at index: Int) -> Float { .nan }
      mutating func setValue(_ value: Float, at index: Int) {}
      mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices { buffer[i] *= 0.5 }
      }
      mutating func reset() {}
    }
    let rack = try EffectsRack(
      [EffectKind.volume.make(sampleRate: rate), .custom(name: "lag", effect: Lag())], sampleRate: rate)
    #expect(rack.latencySamples == 64)
    rack.setBypassed(true, slot: 1)
    #expect(rack.latencySamples == 0)
    #expect(rack.isBypassed(slot: 1))
    rack.setBypassed(false, slot: 1)
    let out = EffectTestSignals.run(rack, [Float](repeating: 0.5, count: 4800))
    #expect(out[4799] == 0.25)
    #expect(rack.slotNames == ["volume", "lag"])
    #expect(rack.tailSeconds == 0)
  }

  @Test func aSequencerDrivesTheGateThroughTheRack() throws {
    let rack = try EffectsRack(kinds: [.adsr], sampleRate: rate)
    try rack.setParameter("adsr.trigger", to: 1)
    try rack.setParameter("adsr.attack", to: 0.001)
    try rack.setParameter("adsr.release", to: 0.001)
    try rack.setParameter("adsr.decay", to: 0.001)
    let dc = [Float](repeating: 1, count: 4800)
    #expect(EffectTestSignals.run(rack, dc).allSatisfy { $0 == 0 })
    rack.noteOn()
    let on = EffectTestSignals.run(rack, dc)
    #expect(on[4799] == 0.7)
    rack.noteOff()
    #expect(EffectTestSignals.run(rack, dc)[200...].allSatisfy { $0 == 0 })
  }

  @Test func parametersChangeSafelyFromAnotherThread() throws {
    let rack = try EffectsRack(kinds: [.chorus, .overdrive, .delay, .reverb, .lowpass], sampleRate: rate)
    let stop = Atomic(false)
    let writes = Atomic(0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var k = 0
      let names = rack.parameterNames
      while !stop.load(ordering: .relaxed) {
        k += 1
        try? rack.setParameter(names[k % names.count], to: Float(k % 97) * 13.7 - 200)
        if k % 50 == 0 { rack.setBypassed(k % 100 == 0, slot: k % 5) }
        if k % 70 == 0 { rack.move(slot: k % 5, to: (k / 70) % 5) }
        writes.add(1, ordering: .relaxed)
      }
      done.signal()
    }
    var buffer = EffectTestSignals.noise(count: 512)
    var allFinite = true
    var peak: Float = 0
    for block in 0..<300 {
      buffer = EffectTestSignals.noise(count: 64 + block % 5 * 100, seed: UInt64(block + 1))
      buffer.withUnsafeMutableBufferPointer { rack.process($0) }
      allFinite = allFinite && buffer.allSatisfy { $0.isFinite }
      peak = max(peak, buffer.map(abs).max() ?? 0)
    }
    stop.store(true, ordering: .relaxed)
    done.wait()
    #expect(allFinite)
    #expect(peak < 100)
    #expect(writes.load(ordering: .relaxed) > 100)
  }

  @Test func theRackIsBlockSizeIndependentAndShrugsOffNonFiniteInput() throws {
    func make() throws -> EffectsRack {
      let rack = try EffectsRack(
        kinds: [.chorus, .overdrive, .delay, .reverb, .lowpass], sampleRate: 16_000, maximumFrames: 256)
      try rack.setParameter("delay.time", to: 0.02)
      return rack
    }
    var input = EffectTestSignals.noise(count: 5000)
    input[77] = .nan
    input[3000] = -.infinity
    let reference = EffectTestSignals.run(try make(), input, blockSize: 512)
    #expect(reference.allSatisfy { $0.isFinite })
    #expect(EffectTestSignals.run(try make(), input, blockSize: 1) == reference)
    #expect(EffectTestSignals.run(try make(), input, blockSize: 37) == reference)
    // Longer than maximumFrames: cut into passes.
    #expect(EffectTestSignals.run(try make(), input, blockSize: 5000) == reference)
  }

  @Test func settingsMadeBeforeTheFirstBlockApplyWithoutAFade() throws {
    let rack = try EffectsRack(kinds: [.volume, .overdrive], sampleRate: rate)
    try rack.setParameter("volume.gain", to: -80)
    rack.setBypassed(true, slot: 0)
    try rack.setOrder([1, 0])
    let input = [Float](repeating: 0.25, count: 64)
    var dry = Overdrive(sampleRate: rate)
    #expect(EffectTestSignals.run(rack, input) == EffectTestSignals.run(&dry, input))
  }
}
