import Foundation
import PitchDSP

/// A chorus: the signal mixed with a copy whose delay a sine LFO sweeps, for the shimmer of
/// several voices singing together.
///
/// The wet copy is read from a delay line at `delay ± depth` milliseconds with 4-point Hermite
/// interpolation (smooth at any fractional position, so the sweep is free of zipper noise); part
/// of it is fed back into the line (`feedback`, flanger-like at high values). The mix crossfades
/// the dry and wet signals (0.5 is the classic chorus). Every parameter glides over 20 ms.
///
/// The wet signal's pitch wobbles by at most `±2π · rate · depth` (relative): 0.8 Hz and 2.5 ms
/// give about ±1.3 %, some 22 cents.
///
/// - Note: ``process(_:)`` is real-time safe (it allocates only the first time after this value
///   was copied, to stop sharing its delay line with the copy).
public struct Chorus: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// LFO rate, Hz.
    case rate
    /// Sweep depth, ms either side of the centre delay.
    case depth
    /// Centre delay, ms.
    case delay
    /// Feedback of the wet signal into the line.
    case feedback
    /// Dry/wet mix: 0 dry, 1 wet.
    case mix

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .rate: 0.05...5
      case .depth: 0...10
      case .delay: 5...30
      case .feedback: 0...0.9
      case .mix: 0...1
      }
    }

    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .rate: 0.8
      case .depth: 2.5
      case .delay: 12
      case .feedback: 0
      case .mix: 0.5
      }
    }

    /// The description.
    public var descriptor: EffectParameter {
      switch self {
      case .rate:
        .init(
          name: "rate", unit: .hertz, range: range, defaultValue: defaultValue,
          summary: "LFO rate of the sweep")
      case .depth:
        .init(
          name: "depth", unit: .milliseconds, range: range, defaultValue: defaultValue,
          summary: "how far the delay sweeps either side of its centre")
      case .delay:
        .init(
          name: "delay", unit: .milliseconds, range: range, defaultValue: defaultValue,
          summary: "centre delay of the wet copy")
      case .feedback:
        .init(
          name: "feedback", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "share of the wet copy fed back into the delay line")
      case .mix:
        .init(
          name: "mix", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "dry/wet: 0 dry, 1 wet")
      }
    }
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0: the dry signal passes straight through.
  public var latencySamples: Int { 0 }
  /// The feedback's ring-out (at most a few hundred ms).
  public var tailSeconds: Double {
    let fb = Double(targets[.feedback])
    let delaySeconds = Double(targets[.delay] + targets[.depth]) / 1000
    return fb > 0.001 ? delaySeconds * (1 + -6.9 / log(fb)) : delaySeconds
  }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  private var memory: CopyOnWriteMemory<Float>
  private var line: SampleDelayLine
  private var rate: SmoothedValue
  private var depth: SmoothedValue
  private var delay: SmoothedValue
  private var feedback: SmoothedValue
  private var mix: SmoothedValue
  private var targets = Targets()
  /// LFO phase, in cycles, 0..<1.
  private var phase = 0.0
  private var lastWet: Float = 0
  private let samplesPerMillisecond: Float

  /// Creates a chorus with the default settings.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz (positive).
  ///   - rampSeconds: How long a parameter change glides, in seconds.
  public init(sampleRate: Double, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    samplesPerMillisecond = Float(sampleRate / 1000)
    let capacity = SampleDelayLine.capacity(
      forMaximumDelay: Int(
        (Parameter.delay.range.upperBound + Parameter.depth.range.upperBound) * samplesPerMillisecond) + 4)
    memory = CopyOnWriteMemory<Float>(repeating: 0, count: capacity)
    line = SampleDelayLine(memory: memory, offset: 0, capacity: capacity)
    let ramp = Int(rampSeconds * sampleRate)
    rate = SmoothedValue(Parameter.rate.defaultValue, rampSamples: ramp)
    depth = SmoothedValue(Parameter.depth.defaultValue, rampSamples: ramp)
    delay = SmoothedValue(Parameter.delay.defaultValue, rampSamples: ramp)
    feedback = SmoothedValue(Parameter.feedback.defaultValue, rampSamples: ramp)
    mix = SmoothedValue(Parameter.mix.defaultValue, rampSamples: ramp)
    for p in Parameter.allCases { targets[p] = p.defaultValue }
  }

  /// LFO rate, Hz (0.05...5).
  public var rateHz: Float {
    get { targets[.rate] }
    set { setValue(newValue, at: Parameter.rate.rawValue) }
  }
  /// Sweep depth, ms (0...10).
  public var depthMilliseconds: Float {
    get { targets[.depth] }
    set { setValue(newValue, at: Parameter.depth.rawValue) }
  }
  /// Feedback (0...0.9).
  public var feedbackAmount: Float {
    get { targets[.feedback] }
    set { setValue(newValue, at: Parameter.feedback.rawValue) }
  }
  /// Dry/wet mix (0...1).
  public var mixAmount: Float {
    get { targets[.mix] }
    set { setValue(newValue, at: Parameter.mix.rawValue) }
  }

  /// The value set for a parameter (see ``Parameter``).
  public func value(at index: Int) -> Float {
    guard let p = Parameter(rawValue: index) else { return .nan }
    return targets[p]
  }

  /// Sets a parameter (clamped; glides there).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard let p = Parameter(rawValue: index) else { return }
    let v = p.range.clamping(value, nanTo: p.defaultValue)
    targets[p] = v
    switch p {
    case .rate: rate.set(v)
    case .depth: depth.set(v)
    case .delay: delay.set(v)
    case .feedback: feedback.set(v)
    case .mix: mix.set(v)
    }
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
    let inverseRate = 1 / sampleRate
    let maximumDelay = Float(line.maximumDelay)
    for i in 0..<buffer.count {
      let x = EffectMath.sanitized(buffer[i])
      let r = rate.next()
      let lfo = Float(EffectMath.sin(2 * Double.pi * phase))
      phase += Double(r) * inverseRate
      if phase >= 1 { phase -= 1 }
      let d = min(max((delay.next() + depth.next() * lfo) * samplesPerMillisecond, 2), maximumDelay)
      let wet = line.read(fractional: d)
      lastWet = wet
      line.write(EffectMath.flushed(x + feedback.next() * wet))
      let m = mix.next()
      buffer[i] = x + m * (wet - x)
    }
    if !lastWet.isFinite { resetState() }
  }

  /// Forgets the signal so far.
  public mutating func reset() {
    makeUnique()
    resetInPlace()
  }

  @_noLocks
  mutating func resetInPlace() {
    resetState()
    rate.jump(to: targets[.rate])
    depth.jump(to: targets[.depth])
    delay.jump(to: targets[.delay])
    feedback.jump(to: targets[.feedback])
    mix.jump(to: targets[.mix])
  }

  @_noLocks
  private mutating func resetState() {
    line.clear()
    phase = 0
    lastWet = 0
  }

  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&memory) {
      memory = memory.copy()
      line.rebind(to: memory)
    }
  }

  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<Chorus>) {
    line.copyContents(of: source.pointee.line)
    rate = source.pointee.rate
    depth = source.pointee.depth
    delay = source.pointee.delay
    feedback = source.pointee.feedback
    mix = source.pointee.mix
    targets = source.pointee.targets
    phase = source.pointee.phase
    lastWet = source.pointee.lastWet
  }

  /// The five targets, by parameter (a fixed-size value, so it copies without allocating).
  private struct Targets: Sendable {
    var values = SIMD8<Float>()
    subscript(p: Parameter) -> Float {
      get { values[p.rawValue] }
      set { values[p.rawValue] = newValue }
    }
  }
}
