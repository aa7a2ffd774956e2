import Foundation
import PitchDSP

/// An echo: the signal repeated after a time, each repeat quieter by the feedback and darker by
/// the damping filter, optionally synchronized to a tempo.
///
/// The delay time is either ``Parameter/time`` in seconds or, with ``Parameter/sync`` on, a note
/// value in quarter-note beats at a tempo (`beats · 60 / bpm`: 0.75 beats at 120 BPM is a dotted
/// eighth, 0.375 s); either way at most 4 s. A new time does not sweep the read position (which
/// would chirp): the effect crossfades from the old tap to the new one over the ramp (20 ms).
/// The feedback path runs through a one-pole low-pass at ``Parameter/damping`` Hz, so repeats
/// lose their top like a tape echo. The mix crossfades dry and wet.
///
/// - Note: ``process(_:)`` is real-time safe (it allocates only the first time after this value
///   was copied, to stop sharing its delay line with the copy).
public struct Delay: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// Delay time, s (when not synchronized).
    case time
    /// Share of each repeat fed back into the next.
    case feedback
    /// Dry/wet mix.
    case mix
    /// Cutoff of the low-pass in the feedback path, Hz.
    case damping
    /// Tempo sync: 0 uses `time`, 1 uses `beats` at `bpm`.
    case sync
    /// The tempo for sync, BPM.
    case bpm
    /// The note value for sync, in quarter-note beats.
    case beats

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .time: 0.001...4
      case .feedback: 0...0.95
      case .mix: 0...1
      case .damping: 500...20000
      case .sync: 0...1
      case .bpm: 20...300
      case .beats: 0.0625...4
      }
    }
    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .time: 0.35
      case .feedback: 0.35
      case .mix: 0.35
      case .damping: 8000
      case .sync: 0
      case .bpm: 120
      case .beats: 0.5
      }
    }
    /// The description.
    public var descriptor: EffectParameter {
      switch self {
      case .time:
        .init(
          name: "time", unit: .seconds, range: range, defaultValue: defaultValue,
          summary: "delay time when sync is off")
      case .feedback:
        .init(
          name: "feedback", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "share of each repeat fed into the next")
      case .mix:
        .init(
          name: "mix", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "dry/wet: 0 dry, 1 wet")
      case .damping:
        .init(
          name: "damping", unit: .hertz, range: range, defaultValue: defaultValue,
          summary: "low-pass cutoff in the feedback path (repeats get darker)")
      case .sync:
        .init(
          name: "sync", unit: .toggle, range: range, defaultValue: defaultValue,
          summary: "0 off, 1 on: time = beats x 60 / bpm")
      case .bpm:
        .init(
          name: "bpm", unit: .beatsPerMinute, range: range, defaultValue: defaultValue,
          summary: "tempo for sync")
      case .beats:
        .init(
          name: "beats", unit: .beats, range: range, defaultValue: defaultValue,
          summary: "note value for sync in quarter notes (0.5 eighth, 0.75 dotted eighth)")
      }
    }
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0: the dry signal passes straight through.
  public var latencySamples: Int { 0 }
  /// Until the repeats fall 80 dB (at most 60 s).
  public var tailSeconds: Double {
    let seconds = Double(effectiveDelay) / sampleRate
    let fb = Double(targets[Parameter.feedback.rawValue])
    guard fb > 0.0001 else { return seconds }
    return min(60, seconds * (1 + log(1e-4) / log(fb)))
  }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  /// The delay now in effect (after the tap crossfade ends), in seconds.
  public var effectiveSeconds: Double { Double(effectiveDelay) / sampleRate }

  private var memory: CopyOnWriteMemory<Float>
  private var line: SampleDelayLine
  private var targets = SIMD8<Float>()
  private var feedback: SmoothedValue
  private var mix: SmoothedValue
  private var damping: SmoothedValue
  private var dampingCoefficient: Float = 0
  private var lowPassState: Float = 0
  /// The delay being read, and the one being faded to, in samples.
  private var currentDelay: Float
  private var nextDelay: Float
  /// Where the tap crossfade is, 0...1 (0: none under way).
  private var fade: Float = 0
  private var fading = false
  private let fadeStep: Float
  /// The delay the parameters ask for, in samples.
  private var effectiveDelay: Float

  /// Creates a delay with the default settings.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - rampSeconds: How long a change glides (and a new time crossfades), in seconds.
  public init(sampleRate: Double, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    let capacity = SampleDelayLine.capacity(
      forMaximumDelay: Int(Double(Parameter.time.range.upperBound) * sampleRate) + 4)
    memory = CopyOnWriteMemory<Float>(repeating: 0, count: capacity)
    line = SampleDelayLine(memory: memory, offset: 0, capacity: capacity)
    let ramp = Int(rampSeconds * sampleRate)
    fadeStep = 1 / Float(max(1, ramp))
    for p in Parameter.allCases { targets[p.rawValue] = p.defaultValue }
    feedback = SmoothedValue(Parameter.feedback.defaultValue, rampSamples: ramp)
    mix = SmoothedValue(Parameter.mix.defaultValue, rampSamples: ramp)
    damping = SmoothedValue(Parameter.damping.defaultValue, rampSamples: ramp)
    effectiveDelay = 0
    currentDelay = 0
    nextDelay = 0
    effectiveDelay = Self.delaySamples(targets: targets, sampleRate: sampleRate, maximum: line.maximumDelay)
    currentDelay = effectiveDelay
    nextDelay = effectiveDelay
    dampingCoefficient = Self.coefficient(forCutoff: Parameter.damping.defaultValue, sampleRate: sampleRate)
  }

  /// Delay time, s (0.001...4), used when sync is off.
  public var timeSeconds: Float {
    get { targets[Parameter.time.rawValue] }
    set { setValue(newValue, at: Parameter.time.rawValue) }
  }
  /// Feedback (0...0.95).
  public var feedbackAmount: Float {
    get { targets[Parameter.feedback.rawValue] }
    set { setValue(newValue, at: Parameter.feedback.rawValue) }
  }
  /// Dry/wet mix (0...1).
  public var mixAmount: Float {
    get { targets[Parameter.mix.rawValue] }
    set { setValue(newValue, at: Parameter.mix.rawValue) }
  }

  /// Synchronizes the delay to a tempo: the time becomes `beats · 60 / bpm`.
  ///
  /// - Parameters:
  ///   - bpm: The tempo, BPM (20...300).
  ///   - beats: The note value in quarter-note beats (0.0625...4).
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func sync(bpm: Float, beats: Float) {
    setValue(bpm, at: Parameter.bpm.rawValue)
    setValue(beats, at: Parameter.beats.rawValue)
    setValue(1, at: Parameter.sync.rawValue)
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float { (0..<7).contains(index) ? targets[index] : .nan }

  /// Sets a parameter (clamped; glides there, or crossfades to a new time).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard let p = Parameter(rawValue: index) else { return }
    var v = p.range.clamping(value, nanTo: p.defaultValue)
    if p == .sync { v = v >= 0.5 ? 1 : 0 }
    targets[index] = v
    switch p {
    case .feedback: feedback.set(v)
    case .mix: mix.set(v)
    case .damping: damping.set(v)
    case .time, .sync, .bpm, .beats:
      effectiveDelay = Self.delaySamples(targets: targets, sampleRate: sampleRate, maximum: line.maximumDelay)
    }
  }

  @_noLocks
  private static func delaySamples(targets: SIMD8<Float>, sampleRate: Double, maximum: Int) -> Float {
    let seconds =
      targets[Parameter.sync.rawValue] >= 0.5
      ? targets[Parameter.beats.rawValue] * 60 / targets[Parameter.bpm.rawValue]
      : targets[Parameter.time.rawValue]
    let samples = Float(Double(seconds) * sampleRate)
    return min(max(samples, 2), Float(maximum))
  }

  @_noLocks
  private static func coefficient(forCutoff hz: Float, sampleRate: Double) -> Float {
    Float(EffectMath.exp(-2 * Double.pi * min(Double(hz), 0.49 * sampleRate) / sampleRate))
  }

  /// Processes a block in place.
  ///
  /// - Note: Real-time safe once this value owns its memory (see the type's note).
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    makeUnique()
    render(buffer)
  }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) {
    for i in 0..<buffer.count {
      let x = EffectMath.sanitized(buffer[i])
      if !fading && effectiveDelay != currentDelay {
        nextDelay = effectiveDelay
        fading = true
        fade = 0
      }
      var wet = line.read(fractional: currentDelay)
      if fading {
        fade += fadeStep
        wet += min(fade, 1) * (line.read(fractional: nextDelay) - wet)
        if fade >= 1 {
          currentDelay = nextDelay
          fading = false
          fade = 0
        }
      }
      if !damping.isSettled {
        dampingCoefficient = Self.coefficient(forCutoff: damping.next(), sampleRate: sampleRate)
      }
      lowPassState = EffectMath.flushed(wet + dampingCoefficient * (lowPassState - wet))
      line.write(x + feedback.next() * lowPassState)
      let m = mix.next()
      buffer[i] = x + m * (wet - x)
    }
    if !lowPassState.isFinite { resetState() }
  }

  /// Forgets the signal so far (silences the echoes); the settings stay, arrived.
  public mutating func reset() {
    makeUnique()
    resetInPlace()
  }

  @_noLocks
  mutating func resetInPlace() {
    resetState()
    feedback.jump(to: feedback.target)
    mix.jump(to: mix.target)
    damping.jump(to: damping.target)
    dampingCoefficient = Self.coefficient(forCutoff: damping.target, sampleRate: sampleRate)
    currentDelay = effectiveDelay
    nextDelay = effectiveDelay
    fading = false
    fade = 0
  }

  @_noLocks
  private mutating func resetState() {
    line.clear()
    lowPassState = 0
  }

  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&memory) {
      memory = memory.copy()
      line.rebind(to: memory)
    }
  }

  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<Delay>) {
    line.copyContents(of: source.pointee.line)
    targets = source.pointee.targets
    feedback = source.pointee.feedback
    mix = source.pointee.mix
    damping = source.pointee.damping
    dampingCoefficient = source.pointee.dampingCoefficient
    lowPassState = source.pointee.lowPassState
    currentDelay = source.pointee.currentDelay
    nextDelay = source.pointee.nextDelay
    fade = source.pointee.fade
    fading = source.pointee.fading
    effectiveDelay = source.pointee.effectiveDelay
  }
}
