import Foundation
import Synchronization

/// The whole Pocket Choir signal path: a ``HarmonizerEngine`` (voices and auto-tune, always
/// first) into an effects rack on each stereo channel.
///
/// The two racks are built alike and driven together: a parameter, an order or a bypass set here
/// reaches both, through the racks' atomics, from any thread. ``process(_:left:right:)`` runs on
/// the audio thread: no allocation, no locks, any block size.
public final class HarmonizerChain: @unchecked Sendable {
  // @unchecked: the engine and the racks carry their own thread contracts (see each).

  /// The harmonizer.
  public let engine: HarmonizerEngine
  /// The left channel's effects, or `nil` without effects.
  public let leftEffects: EffectsRack?
  /// The right channel's effects, or `nil` without effects.
  public let rightEffects: EffectsRack?
  private let engineView: Unmanaged<HarmonizerEngine>
  private let leftView: Unmanaged<EffectsRack>?
  private let rightView: Unmanaged<EffectsRack>?
  private let inputGainBits = Atomic<UInt32>(Float(1).bitPattern)
  private let outputGainBits = Atomic<UInt32>(Float(1).bitPattern)
  private let scratch: UnsafeMutableBufferPointer<Float>
  private let chunk: Int
  private var inputGain: Float = 1
  private var outputGain: Float = 1

  /// A chain of `engine` into `effects` (in processing order; empty for none).
  ///
  /// - Throws: ``EffectError`` when the racks cannot be built (too many effects).
  public init(engine: HarmonizerEngine, effects: [EffectKind], maximumFrames: Int = 1024) throws(EffectError)
  {
    self.engine = engine
    engineView = .passUnretained(engine)
    if effects.isEmpty {
      leftEffects = nil
      rightEffects = nil
    } else {
      leftEffects = try EffectsRack(
        kinds: effects, sampleRate: engine.sampleRate, maximumFrames: maximumFrames)
      rightEffects = try EffectsRack(
        kinds: effects, sampleRate: engine.sampleRate, maximumFrames: maximumFrames)
    }
    leftView = leftEffects.map { .passUnretained($0) }
    rightView = rightEffects.map { .passUnretained($0) }
    chunk = max(1, maximumFrames)
    scratch = .allocate(capacity: chunk)
    scratch.initialize(repeating: 0)
  }

  deinit { scratch.deallocate() }

  /// The live input's gain before the harmonizer, in dB (−96 or less mutes; at most +24). Any
  /// thread; ramped over the next block.
  public var inputGainDB: Double {
    get { Self.decibels(inputGainBits.load(ordering: .relaxed)) }
    set { inputGainBits.store(Self.gainBits(newValue), ordering: .relaxed) }
  }

  /// The output's gain after the effects, in dB (−96 or less mutes; at most +24). Any thread;
  /// ramped over the next block.
  public var outputGainDB: Double {
    get { Self.decibels(outputGainBits.load(ordering: .relaxed)) }
    set { outputGainBits.store(Self.gainBits(newValue), ordering: .relaxed) }
  }

  private static func gainBits(_ decibels: Double) -> UInt32 {
    guard decibels.isFinite else { return Float(1).bitPattern }
    return decibels <= -96 ? Float(0).bitPattern : Float(pow(10, min(24, decibels) / 20)).bitPattern
  }

  private static func decibels(_ bits: UInt32) -> Double {
    let gain = Double(Float(bitPattern: bits))
    return gain > 0 ? 20 * log10(gain) : -.infinity
  }

  /// How many samples the output lags the input: the engine's latency plus the effects'.
  public var latencySamples: Int { engine.latencySamples + (leftEffects?.latencySamples ?? 0) }

  /// How long the effects ring on after the input stops, in seconds (0 without effects). Builds
  /// throwaway effects: call it from a control thread.
  public var tailSeconds: Double { leftEffects?.tailSeconds ?? 0 }

  /// Sets an effect parameter by name (`delay.time`, `reverb.decay`) on both channels.
  ///
  /// - Throws: ``EffectError`` naming the valid parameters when there is no such one.
  public func setEffectParameter(_ name: String, to value: Float) throws(EffectError) {
    try leftEffects?.setParameter(name, to: value)
    try rightEffects?.setParameter(name, to: value)
  }

  /// Sets parameter `index` of the effect in `slot` on both channels (the slot's
  /// `slotParameters` order); out-of-range slots and indices are ignored, values clamped.
  public func setEffectParameter(slot: Int, index: Int, to value: Float) {
    leftEffects?.setParameter(slot: slot, index: index, to: value)
    rightEffects?.setParameter(slot: slot, index: index, to: value)
  }

  /// Reorders the effects by name on both channels (crossfaded, no click).
  ///
  /// - Throws: ``EffectError`` for a name that is not in the rack or a missing one.
  public func setEffectOrder(names: [String]) throws(EffectError) {
    try leftEffects?.setOrder(names: names)
    try rightEffects?.setOrder(names: names)
  }

  /// Bypasses an effect slot on both channels (crossfaded, no click).
  public func setEffectBypassed(_ bypassed: Bool, slot: Int) {
    leftEffects?.setBypassed(bypassed, slot: slot)
    rightEffects?.setBypassed(bypassed, slot: slot)
  }

  /// Opens the racks' ADSR gates (a sequencer's chord starts).
  public func noteOn() {
    leftEffects?.noteOn()
    rightEffects?.noteOn()
  }

  /// Closes the racks' ADSR gates (a sequencer's chord ends).
  public func noteOff() {
    leftEffects?.noteOff()
    rightEffects?.noteOff()
  }

  /// Harmonizes a block and runs it through the effects.
  ///
  /// - Parameters:
  ///   - input: Mono samples, any count.
  ///   - left: The left channel, at least `input.count` samples.
  ///   - right: The right channel, at least `input.count` samples.
  /// - Note: Real-time safe: no allocation, no locks.
  @_noLocks
  public func process(
    _ input: UnsafeBufferPointer<Float>, left: UnsafeMutableBufferPointer<Float>,
    right: UnsafeMutableBufferPointer<Float>
  ) {
    let count = min(input.count, min(left.count, right.count))
    var start = 0
    while start < count {
      let end = min(count, start + chunk)
      let n = end - start
      // The input volume, ramped from the last block's.
      let inputTarget = Float(bitPattern: inputGainBits.load(ordering: .relaxed))
      for i in 0..<n {
        let g = inputGain + (inputTarget - inputGain) * Float(i + 1) / Float(n)
        scratch[i] = input[start + i] * g
      }
      inputGain = inputTarget
      let l = UnsafeMutableBufferPointer(rebasing: left[start..<end])
      let r = UnsafeMutableBufferPointer(rebasing: right[start..<end])
      let block = UnsafeBufferPointer(rebasing: scratch[0..<n])
      engineView._withUnsafeGuaranteedRef { $0.process(block, left: l, right: r) }
      leftView?._withUnsafeGuaranteedRef { $0.process(l) }
      rightView?._withUnsafeGuaranteedRef { $0.process(r) }
      let outputTarget = Float(bitPattern: outputGainBits.load(ordering: .relaxed))
      for i in 0..<n {
        let g = outputGain + (outputTarget - outputGain) * Float(i + 1) / Float(n)
        l[i] *= g
        r[i] *= g
      }
      outputGain = outputTarget
      start = end
    }
  }

  /// Forgets the signal in the engine and the effects.
  public func reset() {
    engine.reset()
    leftEffects?.reset()
    rightEffects?.reset()
  }
}
