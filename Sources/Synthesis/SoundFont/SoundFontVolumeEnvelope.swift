/// The SoundFont volume envelope of one layer: delay, attack, hold, decay, sustain, release.
///
/// As the specification describes and FluidSynth implements it: the attack rises linearly in
/// amplitude from silence to peak; decay and release fall linearly in decibels, at 96 dB per
/// decay (or release) time, the decay stopping at the sustain level and the release at -96 dB,
/// where the layer ends. The envelope's level runs from 1 (peak) to 0 (-96 dB), and the gain is
/// `10^(-4.8 · (1 - level))`; it is stepped multiplicatively, so advancing costs no libm call.
struct SoundFontVolumeEnvelope: Sendable {
  /// The envelope's stages, in order.
  enum Stage: UInt8, Sendable {
    case idle, delay, attack, hold, decay, sustain, release, finished
  }

  /// The frame counts and rates one note's envelope runs with, computed at note start.
  struct Timing: Sendable {
    var delayFrames: Int
    var attackFrames: Int
    var holdFrames: Int
    var decayFrames: Double
    var sustainLevel: Double
    var releaseFrames: Double

    @_noLocks
    init(
      delayFrames: Int, attackFrames: Int, holdFrames: Int, decayFrames: Double, sustainLevel: Double,
      releaseFrames: Double
    ) {
      self.delayFrames = delayFrames
      self.attackFrames = attackFrames
      self.holdFrames = holdFrames
      self.decayFrames = decayFrames
      self.sustainLevel = sustainLevel
      self.releaseFrames = releaseFrames
    }
  }

  private(set) var stage = Stage.idle
  private var remaining = 0
  private var level = 0.0
  private(set) var gain = 0.0
  private var attackStep = 0.0
  private var attackFrames = 0
  private var holdFrames = 0
  private var decayStep = 0.0
  private var decayFactor = 1.0
  private var sustainLevel = 0.0
  private var sustainGain = 0.0
  private var releaseStep = 0.0
  private var releaseFactor = 1.0

  /// Whether the envelope has ended (or never started).
  var isFinished: Bool {
    @_noLocks get { stage.rawValue == Stage.finished.rawValue || stage.rawValue == Stage.idle.rawValue }
  }

  /// Starts the envelope from silence.
  ///
  /// - Parameters:
  ///   - timing: The frame counts and the sustain level.
  ///   - sustainGain: `10^(-4.8 · (1 - sustainLevel))`.
  ///   - decayFactor: The gain ratio per decay frame, `10^(-4.8 / decayFrames)`.
  ///   - releaseFactor: The gain ratio per release frame, `10^(-4.8 / releaseFrames)`.
  @_noLocks
  mutating func start(timing: Timing, sustainGain: Double, decayFactor: Double, releaseFactor: Double) {
    attackStep = 1 / Double(max(timing.attackFrames, 1))
    attackFrames = timing.attackFrames
    holdFrames = timing.holdFrames
    decayStep = 1 / max(timing.decayFrames, 1)
    self.decayFactor = decayFactor
    sustainLevel = timing.sustainLevel
    self.sustainGain = sustainGain
    releaseStep = 1 / max(timing.releaseFrames, 1)
    self.releaseFactor = releaseFactor
    level = 0
    gain = 0
    stage = .delay
    remaining = timing.delayFrames
    if remaining == 0 { enterAttack(frames: timing.attackFrames) }
  }

  @_noLocks
  private mutating func enterAttack(frames: Int) {
    stage = .attack
    remaining = frames
    if remaining == 0 { enterHold() }
  }

  @_noLocks
  private mutating func enterHold() {
    level = 1
    gain = 1
    stage = .hold
    remaining = holdFrames
    if remaining == 0 { stage = .decay }
  }

  /// Enters the release from wherever the envelope is; a layer still in its delay ends at once.
  ///
  /// - Parameter attackLevel: What the current ``gain`` is as a level, `1 + log10(gain) / 4.8`
  ///   (the caller computes it, as it needs a libm call); used only during the attack.
  @_noLocks
  mutating func release(attackLevel: Double) {
    switch stage {
    case .idle, .finished, .release: return
    case .delay:
      stage = .finished
      gain = 0
    case .attack:
      level = gain > 0 ? min(attackLevel, 1) : 0
      stage = level > 0 ? .release : .finished
    case .hold, .decay, .sustain:
      stage = .release
    }
  }

  /// Whether the envelope is still before its attack (the sample does not advance then).
  var isDelaying: Bool {
    @_noLocks get { stage.rawValue == Stage.delay.rawValue }
  }

  /// The gain for the current frame, then a step forward.
  @_noLocks
  mutating func next() -> Double {
    switch stage {
    case .idle, .finished:
      return 0
    case .delay:
      remaining -= 1
      if remaining <= 0 { enterAttack(frames: attackFrames) }
      return 0
    case .attack:
      let out = level
      level += attackStep
      gain = level
      remaining -= 1
      if remaining <= 0 { enterHold() }
      return out
    case .hold:
      remaining -= 1
      if remaining <= 0 { stage = .decay }
      return 1
    case .decay:
      let out = gain
      level -= decayStep
      gain *= decayFactor
      if level <= sustainLevel {
        level = sustainLevel
        gain = sustainGain
        stage = level > 0 ? .sustain : .finished
      }
      return out
    case .sustain:
      return gain
    case .release:
      let out = gain
      level -= releaseStep
      gain *= releaseFactor
      if level <= 0 {
        level = 0
        gain = 0
        stage = .finished
      }
      return out
    }
  }
}
