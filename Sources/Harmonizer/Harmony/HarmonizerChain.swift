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
    engineView._withUnsafeGuaranteedRef { $0.process(input, left: left, right: right) }
    let count = min(input.count, min(left.count, right.count))
    let l = UnsafeMutableBufferPointer(rebasing: left[0..<count])
    let r = UnsafeMutableBufferPointer(rebasing: right[0..<count])
    leftView?._withUnsafeGuaranteedRef { $0.process(l) }
    rightView?._withUnsafeGuaranteedRef { $0.process(r) }
  }

  /// Forgets the signal in the engine and the effects.
  public func reset() {
    engine.reset()
    leftEffects?.reset()
    rightEffects?.reset()
  }
}
