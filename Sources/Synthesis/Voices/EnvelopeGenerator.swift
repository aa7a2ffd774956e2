import Foundation

/// Runs an ``ADSREnvelope`` a frame at a time: the gain of one voice.
///
/// Each stage is a one-pole curve aimed a little past its target (the method of Nigel Redmon's
/// EarLevel ADSR), so it reaches the target in exactly the stage's time: the attack aims 30 %
/// above full level (a nearly linear, slightly convex rise), the decay and release aim 0.01 %
/// below their targets (exponential falls). ``noteOn()`` restarts the attack from the current
/// level and ``noteOff()`` starts the release from the current level, whatever the stage, so
/// neither makes a step.
///
/// - Note: ``noteOn()``, ``noteOff()`` and ``next()`` are real-time safe.
public struct EnvelopeGenerator: Sendable, Hashable {
  /// Where the generator is in the envelope.
  public enum Stage: Sendable, Hashable {
    /// Silent, before a note or after a release has finished.
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

  /// The envelope it runs (clamped to usable values).
  public let envelope: ADSREnvelope
  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// The current stage.
  public private(set) var stage: Stage = .idle
  /// The current gain, in `0...1`.
  public private(set) var level: Double = 0

  private let attackCoefficient: Double
  private let attackBase: Double
  private let decayCoefficient: Double
  private let decayBase: Double
  private let releaseCoefficient: Double
  private let releaseBase: Double
  private let sustainLevel: Double

  /// Prepares an envelope at a sample rate.
  ///
  /// - Parameters:
  ///   - envelope: The envelope; its ``ADSREnvelope/clamped`` values are used.
  ///   - sampleRate: The rate, in Hz (44100 if not finite and positive).
  public init(envelope: ADSREnvelope, sampleRate: Double) {
    let shape = envelope.clamped
    let rate = sampleRate.isFinite && sampleRate > 0 ? sampleRate : 44_100
    self.envelope = shape
    self.sampleRate = rate
    let attackRatio = 0.3
    let fallRatio = 0.0001
    func coefficient(_ seconds: Double, _ ratio: Double) -> Double {
      exp(-log((1 + ratio) / ratio) / max(1, seconds * rate))
    }
    attackCoefficient = coefficient(shape.attackSeconds, attackRatio)
    attackBase = (1 + attackRatio) * (1 - attackCoefficient)
    decayCoefficient = coefficient(shape.decaySeconds, fallRatio)
    decayBase = (shape.sustainLevel - fallRatio) * (1 - decayCoefficient)
    releaseCoefficient = coefficient(shape.releaseSeconds, fallRatio)
    releaseBase = -fallRatio * (1 - releaseCoefficient)
    sustainLevel = shape.sustainLevel
  }

  /// Whether the envelope is making sound (any stage but idle).
  public var isActive: Bool {
    @_noLocks get {
      if case .idle = stage { return false }
      return true
    }
  }

  /// Starts (or restarts) the attack from the current level.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func noteOn() {
    stage = .attack
  }

  /// Starts the release from the current level; does nothing when idle.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func noteOff() {
    if case .idle = stage { return }
    stage = .release
  }

  /// Silences the envelope at once (level 0, idle).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func reset() {
    stage = .idle
    level = 0
  }

  /// The gain for the next frame, then advances one frame.
  ///
  /// - Returns: The gain, in `0...1`.
  /// - Note: Real-time safe.
  @_noLocks
  @inline(__always)
  public mutating func next() -> Float {
    switch stage {
    case .idle:
      return 0
    case .attack:
      level = attackBase + level * attackCoefficient
      if level >= 1 {
        level = 1
        stage = .decay
      }
    case .decay:
      level = decayBase + level * decayCoefficient
      if level <= sustainLevel {
        level = sustainLevel
        stage = .sustain
      }
    case .sustain:
      level = sustainLevel
    case .release:
      level = releaseBase + level * releaseCoefficient
      if level <= 0 {
        level = 0
        stage = .idle
      }
    }
    return Float(level)
  }
}
