/// An ADSR envelope used as a gate: the signal is multiplied by an envelope that rises over the
/// attack, falls to the sustain level over the decay, holds, and falls to silence over the
/// release once the gate closes.
///
/// The gate is opened and closed either by the input's level (``Parameter/trigger`` 0) or by
/// ``noteOn()`` and ``noteOff()`` calls, for example from a sequencer (``Parameter/trigger`` 1).
/// The level detector follows the input's peak (instant rise, 20 ms fall); the gate opens when it
/// reaches ``Parameter/threshold`` and closes only when it falls ``Parameter/hysteresis``
/// decibels below, so a level hovering near the threshold does not chatter.
///
/// The stages are straight lines (a retrigger during the release climbs from where the level
/// is, so nothing jumps): attack from the current level to 1 at `1/attack` per second, decay
/// from 1 to the sustain level in `decay` seconds, release from the current level to 0 in
/// `release` seconds.
///
/// - Note: ``process(_:)``, ``noteOn()`` and ``noteOff()`` are real-time safe.
public struct ADSR: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// Attack time, s (0 to full level).
    case attack
    /// Decay time, s (full level to sustain).
    case decay
    /// Sustain level, 0...1.
    case sustain
    /// Release time, s (to silence).
    case release
    /// Gate-open level, dBFS (level trigger).
    case threshold
    /// How far below the threshold the gate closes, dB.
    case hysteresis
    /// 0: gated by the input level; 1: by note on/off calls.
    case trigger

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .attack, .decay, .release: 0.001...10
      case .sustain: 0...1
      case .threshold: -80...0
      case .hysteresis: 0...24
      case .trigger: 0...1
      }
    }
    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .attack: 0.01
      case .decay: 0.2
      case .sustain: 0.7
      case .release: 0.3
      case .threshold: -40
      case .hysteresis: 6
      case .trigger: 0
      }
    }
    /// The description.
    public var descriptor: EffectParameter {
      let (name, unit, summary): (String, EffectParameterUnit, String) =
        switch self {
        case .attack: ("attack", .seconds, "time to rise from 0 to full level")
        case .decay: ("decay", .seconds, "time to fall from full level to the sustain level")
        case .sustain: ("sustain", .ratio, "level held while the gate is open")
        case .release: ("release", .seconds, "time to fall to silence once the gate closes")
        case .threshold: ("threshold", .decibels, "input level (dBFS) that opens the gate")
        case .hysteresis: ("hysteresis", .decibels, "how far below the threshold the gate closes")
        case .trigger: ("trigger", .toggle, "0: gated by input level, 1: by note on/off (sequencer)")
        }
      return .init(name: name, unit: unit, range: range, defaultValue: defaultValue, summary: summary)
    }
  }

  /// Where the envelope is.
  public enum Stage: UInt8, Sendable {
    /// Silent, gate closed.
    case idle
    /// Rising to full level.
    case attack
    /// Falling to the sustain level.
    case decay
    /// Holding the sustain level.
    case sustain
    /// Falling to silence.
    case release
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0.
  public var latencySamples: Int { 0 }
  /// The release time.
  public var tailSeconds: Double { Double(targets[Parameter.release.rawValue]) }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  /// The envelope stage now.
  public private(set) var stage = Stage.idle
  /// The envelope level now, 0...1.
  public private(set) var level: Float = 0
  /// Whether the gate is open.
  public private(set) var isGateOpen = false

  private var targets = SIMD8<Float>()
  private var sustain: SmoothedValue
  private var releaseStep: Float = 0
  private var detector: Float = 0
  private let detectorFall: Float
  private var openLevel: Float = 0
  private var closeLevel: Float = 0

  /// Creates an envelope gate with the default settings.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - rampSeconds: How long a sustain-level change glides, in seconds.
  public init(sampleRate: Double, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    for p in Parameter.allCases { targets[p.rawValue] = p.defaultValue }
    sustain = SmoothedValue(Parameter.sustain.defaultValue, rampSamples: Int(rampSeconds * sampleRate))
    detectorFall = Float(EffectMath.exp(-1 / (0.02 * sampleRate)))
    updateLevels()
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float { (0..<7).contains(index) ? targets[index] : .nan }

  /// Sets a parameter (clamped). Times apply from the next sample; the sustain level glides.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard let p = Parameter(rawValue: index) else { return }
    var v = p.range.clamping(value, nanTo: p.defaultValue)
    if p == .trigger { v = v >= 0.5 ? 1 : 0 }
    targets[index] = v
    switch p {
    case .sustain: sustain.set(v)
    case .threshold, .hysteresis: updateLevels()
    default: break
    }
  }

  @_noLocks
  private mutating func updateLevels() {
    openLevel = EffectMath.gain(decibels: targets[Parameter.threshold.rawValue])
    closeLevel = EffectMath.gain(
      decibels: targets[Parameter.threshold.rawValue] - targets[Parameter.hysteresis.rawValue])
  }

  /// Opens the gate: the envelope starts its attack from where it is.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func noteOn() {
    isGateOpen = true
    stage = .attack
  }

  /// Closes the gate: the envelope releases from where it is.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func noteOff() {
    isGateOpen = false
    guard stage != .idle else { return }
    stage = .release
    releaseStep = level / max(1, Float(Double(targets[Parameter.release.rawValue]) * sampleRate))
  }

  /// Gates a block in place.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    let levelTriggered = targets[Parameter.trigger.rawValue] < 0.5
    let fs = Float(sampleRate)
    let attackStep = 1 / max(1, targets[Parameter.attack.rawValue] * fs)
    let decaySamples = max(1, targets[Parameter.decay.rawValue] * fs)
    for i in 0..<buffer.count {
      let x = EffectMath.sanitized(buffer[i])
      if levelTriggered {
        detector = max(abs(x), detector * detectorFall)
        if !isGateOpen && detector >= openLevel && detector > 0 {
          noteOn()
        } else if isGateOpen && detector < closeLevel {
          noteOff()
        }
      }
      let s = sustain.next()
      switch stage {
      case .idle:
        level = 0
      case .attack:
        level += attackStep
        if level >= 1 {
          level = 1
          stage = .decay
        }
      case .decay:
        level -= (1 - s) / decaySamples
        if level <= s {
          level = s
          stage = .sustain
        }
      case .sustain:
        level = s
      case .release:
        level -= releaseStep
        if level <= 0 {
          level = 0
          stage = .idle
        }
      }
      buffer[i] = x * level
    }
    detector = EffectMath.flushed(detector)
  }

  /// Closes the gate and silences the envelope at once; the settings stay.
  @_noLocks
  public mutating func reset() {
    stage = .idle
    level = 0
    isGateOpen = false
    detector = 0
    sustain.jump(to: sustain.target)
  }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) { process(buffer) }
  mutating func makeUnique() {}
  @_noLocks
  mutating func resetInPlace() { reset() }
  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<ADSR>) {
    stage = source.pointee.stage
    level = source.pointee.level
    isGateOpen = source.pointee.isGateOpen
    targets = source.pointee.targets
    sustain = source.pointee.sustain
    releaseStep = source.pointee.releaseStep
    detector = source.pointee.detector
    openLevel = source.pointee.openLevel
    closeLevel = source.pointee.closeLevel
  }
}
