import Synchronization

/// An ordered chain of effects that can be reordered, bypassed and re-tuned while it runs,
/// without clicks.
///
/// ```swift
/// let rack = try EffectsRack(kinds: [.chorus, .delay, .reverb], sampleRate: 48_000)
/// try rack.setParameter("delay.time", to: 0.3)      // any thread
/// try rack.setOrder([2, 0, 1])                      // any thread: reverb, chorus, delay
/// rack.setBypassed(true, slot: 0)                   // any thread
/// rack.process(buffer)                              // the audio thread
/// ```
///
/// ## Threading contract
///
/// - ``process(_:)`` (and ``reset()``) belong to one thread at a time, the audio thread. It
///   allocates nothing and takes no locks (it is `@_noLocks`), and accepts blocks of any size
///   (blocks longer than ``maximumFrames`` are cut).
/// - Everything else — ``setParameter(_:to:)``, ``setOrder(_:)``, ``move(slot:to:)``,
///   ``setBypassed(_:slot:)``, ``noteOn()``, ``noteOff()`` and every getter — may be called from
///   any thread, any number of threads, at the same time as `process`. These calls only store
///   into `Synchronization.Atomic`s (parameter values as `Float` bit patterns, the order packed
///   into one word, the bypass flags in another) and bump a generation counter with release
///   ordering; they never block the audio thread and the audio thread never blocks them.
/// - `process` reads the atomics (acquire) at the start of each block and applies what changed:
///   a new parameter value glides there over the effect's ramp (20 ms by default); a bypass
///   change crossfades that slot between its input and its output over ``rampSeconds``; a new
///   order runs the old and the new order side by side for ``rampSeconds`` (the old order on a
///   copy of every effect's state, taken at that moment without allocating) and crossfades from
///   one to the other. A new order that arrives during a crossfade waits for it to end.
///   Concurrent writers to one parameter: the last store wins.
///
/// A bypassed slot is not processed once its fade-out ends (it costs nothing); when it is
/// switched back on it starts from silence (its delay lines cleared) and fades in.
///
/// Custom effects (``RackEffect/custom(name:effect:)``) are processed through their protocol and
/// cannot be copied without allocating, so during an order crossfade the old order passes their
/// input through unchanged (the custom effect's part of the sound fades in rather than
/// crossfading; still click-free).
///
/// At most 16 effects, each with at most ``maximumParametersPerSlot`` parameters.
public final class EffectsRack: @unchecked Sendable {
  // @unchecked: the unsafe memory below is either immutable after init, or touched only by the
  // audio thread (the effects, the scratch buffers, the applied state), or reached through
  // atomics (the parameter values); see the threading contract.

  /// The most effects a rack holds.
  public static let maximumSlots = 16
  /// The most parameters one effect in a rack may have.
  public static let maximumParametersPerSlot = 16

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The largest block processed in one pass (longer ones are cut).
  public let maximumFrames: Int
  /// How long bypass and order crossfades take, in seconds.
  public let rampSeconds: Double
  /// The name of each slot, in slot order: the kind's name (`"delay"`), numbered from the second
  /// of a kind on (`"delay2"`), or a custom effect's name.
  public let slotNames: [String]
  /// The built-in kind of each slot (`nil`: custom).
  public let slotKinds: [EffectKind?]
  /// The parameters of each slot's effect.
  public let slotParameters: [[EffectParameter]]

  let slotCount: Int
  /// ``maximumParametersPerSlot``, stored (the audio path reads no statics).
  let parametersPerSlot = EffectsRack.maximumParametersPerSlot
  let rampSamples: Int
  let slotLatency: [Int]
  let customTails: [Double]

  // Built-in effects by type, and custom ones.
  let choruses: EffectBank<Chorus>
  let overdrives: EffectBank<Overdrive>
  let delays: EffectBank<Delay>
  let reverbs: EffectBank<Reverb>
  let envelopes: EffectBank<ADSR>
  let lowPasses: EffectBank<ResonantLowPass>
  let volumes: EffectBank<Volume>
  let customs: UnsafeMutablePointer<any Effect>
  let customCount: Int

  // Slot tables (immutable after init).
  /// Which bank holds each slot (`SlotKind` raw values).
  let slotKind: UnsafeMutablePointer<UInt8>
  /// Each slot's index within its bank.
  let slotIndex: UnsafeMutablePointer<Int>

  // Audio-thread state.
  let wet: UnsafeMutablePointer<Float>
  let shadowWet: UnsafeMutablePointer<Float>
  let appliedValues: UnsafeMutablePointer<UInt32>
  let currentOrder: UnsafeMutablePointer<Int>
  let previousOrder: UnsafeMutablePointer<Int>
  let dry: UnsafeMutablePointer<Float>
  let old: UnsafeMutablePointer<Float>
  var appliedOrderWord: UInt64
  var appliedGeneration: UInt64 = 0
  var appliedGate: UInt32 = 0
  var appliedBypass: UInt32 = 0
  var crossfadeRemaining = 0
  /// Whether a block has been processed (until then, order and bypass apply without fades).
  var hasStarted = false

  // Shared with control threads.
  let parameterValues: UnsafeMutablePointer<Atomic<UInt32>>
  let generation = Atomic<UInt64>(0)
  let orderWord: Atomic<UInt64>
  let bypassMask = Atomic<UInt32>(0)
  /// Bit 0: the gate is open; the rest counts note on/off calls.
  let gateWord = Atomic<UInt32>(0)

  /// Builds a rack; allocates all its memory.
  ///
  /// - Parameters:
  ///   - effects: The effects, in processing order (1...16). Each must run at `sampleRate`.
  ///   - sampleRate: The sample rate, in Hz.
  ///   - maximumFrames: The largest block processed in one pass (1...8192; any call size works).
  ///   - rampSeconds: How long bypass and order crossfades take (0.001...1 s).
  /// - Throws: ``EffectError/invalidValue(name:value:expected:)`` for too many or no effects, a
  ///   sample rate that does not match, or a custom effect with too many parameters.
  public init(
    _ effects: [RackEffect], sampleRate: Double, maximumFrames: Int = 8192, rampSeconds: Double = 0.02
  ) throws(EffectError) {
    guard (1...Self.maximumSlots).contains(effects.count) else {
      throw .invalidValue(
        name: "effect count", value: "\(effects.count)", expected: "1...\(Self.maximumSlots)")
    }
    guard sampleRate > 0, sampleRate.isFinite else {
      throw .invalidValue(name: "sample rate", value: "\(sampleRate)", expected: "a positive number of Hz")
    }
    guard (0.001...1).contains(rampSeconds) else {
      throw .invalidValue(name: "ramp", value: "\(rampSeconds) s", expected: "0.001...1 s")
    }
    for effect in effects where effect.effect.sampleRate != sampleRate {
      throw .invalidValue(
        name: "\(effect.baseName) sample rate", value: "\(effect.effect.sampleRate) Hz",
        expected: "\(sampleRate) Hz")
    }
    for effect in effects where effect.effect.parameters.count > Self.maximumParametersPerSlot {
      throw .invalidValue(
        name: "\(effect.baseName) parameter count", value: "\(effect.effect.parameters.count)",
        expected: "at most \(Self.maximumParametersPerSlot)")
    }
    self.sampleRate = sampleRate
    self.maximumFrames = min(max(1, maximumFrames), 8192)
    self.rampSeconds = rampSeconds
    rampSamples = max(1, Int(rampSeconds * sampleRate))
    slotCount = effects.count

    var names: [String] = []
    var seen: [String: Int] = [:]
    for effect in effects {
      let base = effect.baseName
      let n = (seen[base] ?? 0) + 1
      seen[base] = n
      names.append(n == 1 ? base : "\(base)\(n)")
    }
    slotNames = names
    slotKinds = effects.map(\.kind)
    slotParameters = effects.map(\.effect.parameters)
    slotLatency = effects.map(\.effect.latencySamples)
    customTails = effects.map { $0.kind == nil ? $0.effect.tailSeconds : 0 }

    var chorusList: [Chorus] = []
    var overdriveList: [Overdrive] = []
    var delayList: [Delay] = []
    var reverbList: [Reverb] = []
    var envelopeList: [ADSR] = []
    var lowPassList: [ResonantLowPass] = []
    var volumeList: [Volume] = []
    var customList: [any Effect] = []
    slotKind = .allocate(capacity: slotCount)
    slotIndex = .allocate(capacity: slotCount)
    for (s, effect) in effects.enumerated() {
      let (kind, index): (SlotKind, Int)
      switch effect {
      case .chorus(let e):
        (kind, index) = (.chorus, chorusList.count)
        chorusList.append(e)
      case .overdrive(let e):
        (kind, index) = (.overdrive, overdriveList.count)
        overdriveList.append(e)
      case .delay(let e):
        (kind, index) = (.delay, delayList.count)
        delayList.append(e)
      case .reverb(let e):
        (kind, index) = (.reverb, reverbList.count)
        reverbList.append(e)
      case .adsr(let e):
        (kind, index) = (.adsr, envelopeList.count)
        envelopeList.append(e)
      case .lowpass(let e):
        (kind, index) = (.lowpass, lowPassList.count)
        lowPassList.append(e)
      case .volume(let e):
        (kind, index) = (.volume, volumeList.count)
        volumeList.append(e)
      case .custom(_, let e):
        (kind, index) = (.custom, customList.count)
        customList.append(e)
      }
      (slotKind + s).initialize(to: kind.rawValue)
      (slotIndex + s).initialize(to: index)
    }
    choruses = EffectBank(chorusList)
    overdrives = EffectBank(overdriveList)
    delays = EffectBank(delayList)
    reverbs = EffectBank(reverbList)
    envelopes = EffectBank(envelopeList)
    lowPasses = EffectBank(lowPassList)
    volumes = EffectBank(volumeList)
    customCount = customList.count
    customs = .allocate(capacity: max(1, customCount))
    for (i, e) in customList.enumerated() { (customs + i).initialize(to: e) }

    wet = .allocate(capacity: slotCount)
    wet.initialize(repeating: 1, count: slotCount)
    shadowWet = .allocate(capacity: slotCount)
    shadowWet.initialize(repeating: 1, count: slotCount)
    let valueCount = slotCount * Self.maximumParametersPerSlot
    appliedValues = .allocate(capacity: valueCount)
    parameterValues = .allocate(capacity: valueCount)
    for s in 0..<slotCount {
      let values = effects[s].effect
      for p in 0..<Self.maximumParametersPerSlot {
        let bits = p < values.parameters.count ? values.value(at: p).bitPattern : 0
        (appliedValues + s * Self.maximumParametersPerSlot + p).initialize(to: bits)
        (parameterValues + s * Self.maximumParametersPerSlot + p).initialize(to: Atomic(bits))
      }
    }
    currentOrder = .allocate(capacity: slotCount)
    previousOrder = .allocate(capacity: slotCount)
    for s in 0..<slotCount {
      (currentOrder + s).initialize(to: s)
      (previousOrder + s).initialize(to: s)
    }
    let identity = Self.encode(Array(0..<slotCount))
    appliedOrderWord = identity
    orderWord = Atomic(identity)
    dry = .allocate(capacity: self.maximumFrames)
    dry.initialize(repeating: 0, count: self.maximumFrames)
    old = .allocate(capacity: self.maximumFrames)
    old.initialize(repeating: 0, count: self.maximumFrames)
  }

  /// Builds a rack of built-in effects with their default settings.
  ///
  /// - Parameters:
  ///   - kinds: The effects, in processing order (1...16).
  ///   - sampleRate: The sample rate, in Hz.
  ///   - maximumFrames: The largest block processed in one pass.
  ///   - rampSeconds: How long parameter, bypass and order changes glide.
  /// - Throws: See ``init(_:sampleRate:maximumFrames:rampSeconds:)``.
  public convenience init(
    kinds: [EffectKind], sampleRate: Double, maximumFrames: Int = 8192, rampSeconds: Double = 0.02
  ) throws(EffectError) {
    let ramp = min(max(rampSeconds, 0.001), 1)
    try self.init(
      kinds.map { $0.make(sampleRate: sampleRate, rampSeconds: ramp) }, sampleRate: sampleRate,
      maximumFrames: maximumFrames, rampSeconds: rampSeconds)
  }

  deinit {
    choruses.deallocate()
    overdrives.deallocate()
    delays.deallocate()
    reverbs.deallocate()
    envelopes.deallocate()
    lowPasses.deallocate()
    volumes.deallocate()
    customs.deinitialize(count: customCount)
    customs.deallocate()
    slotKind.deallocate()
    slotIndex.deallocate()
    wet.deallocate()
    shadowWet.deallocate()
    appliedValues.deallocate()
    parameterValues.deinitialize(count: slotCount * Self.maximumParametersPerSlot)
    parameterValues.deallocate()
    currentOrder.deallocate()
    previousOrder.deallocate()
    dry.deallocate()
    old.deallocate()
  }

  /// Which bank a slot lives in (the audio path switches on the raw values).
  enum SlotKind: UInt8 {
    case chorus, overdrive, delay, reverb, adsr, lowpass, volume, custom
  }

  /// Packs an order (a permutation of at most 16 slots) into one word, 4 bits a slot.
  static func encode(_ order: [Int]) -> UInt64 {
    var word: UInt64 = 0
    for (position, slot) in order.enumerated() { word |= UInt64(slot) << (4 * UInt64(position)) }
    return word
  }

  /// The slot at `position` in a packed order.
  @_noLocks
  @inline(__always)
  static func slot(at position: Int, of word: UInt64) -> Int {
    Int((word >> (4 * UInt64(position))) & 0xF)
  }
}
