/// An overdrive: the signal driven into a smooth saturating curve, then through a band-pass
/// "tone" filter.
///
/// The curve is `f(u) = u / √(1 + u²)`: odd (no DC, odd harmonics), bounded by ±1, soft from the
/// first decibel of drive. Waveshaping makes harmonics above Nyquist that fold back as inharmonic
/// aliases; this effect suppresses them with first-order antiderivative anti-aliasing (ADAA,
/// Parker et al. 2016): each output sample is the curve's mean over the straight line between two
/// input samples, `(F(uₙ) − F(uₙ₋₁)) / (uₙ − uₙ₋₁)` with `F(u) = √(1 + u²)`, which acts like a
/// low-pass on the aliased images (a 5 kHz sine at 30 dB drive, 48 kHz: folded harmonics at
/// −35 dB against −21 dB for the plain curve) without oversampling, at the cost of a half-sample delay (reported as 0). The tone
/// filter (a band-pass of Q 0.7, unity gain at its centre) then rolls off what remains at the
/// top and the mud at the bottom. The output is bounded by `level` (times about 1.2 for the
/// filter's overshoot) whatever the drive.
///
/// - Note: ``process(_:)`` is real-time safe.
public struct Overdrive: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// Drive: gain into the curve, dB.
    case drive
    /// Centre of the band-pass tone filter, Hz.
    case tone
    /// Output level, dB.
    case level
    /// Dry/wet mix.
    case mix

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .drive: 0...40
      case .tone: 200...8000
      case .level: -40...6
      case .mix: 0...1
      }
    }
    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .drive: 12
      case .tone: 2000
      case .level: -6
      case .mix: 1
      }
    }
    /// The description.
    public var descriptor: EffectParameter {
      switch self {
      case .drive:
        .init(
          name: "drive", unit: .decibels, range: range, defaultValue: defaultValue,
          summary: "gain into the saturating curve")
      case .tone:
        .init(
          name: "tone", unit: .hertz, range: range, defaultValue: defaultValue,
          summary: "centre of the band-pass tone filter")
      case .level:
        .init(
          name: "level", unit: .decibels, range: range, defaultValue: defaultValue, summary: "output level")
      case .mix:
        .init(
          name: "mix", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "dry/wet: 0 dry, 1 wet")
      }
    }
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// 0 (the anti-aliasing's half sample is not counted).
  public var latencySamples: Int { 0 }
  /// Almost none: the tone filter's ring.
  public var tailSeconds: Double { 0.01 }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  private var targets = SIMD4<Float>()
  private var driveGain: SmoothedValue
  private var tone: SmoothedValue
  private var levelGain: SmoothedValue
  private var mix: SmoothedValue
  private var filter = StateVariableFilter()
  private var previousInput = 0.0
  private var previousAntiderivative = 1.0

  /// The Q of the tone filter.
  static var toneQ: Float { 0.7 }

  /// Creates an overdrive with the default settings.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - rampSeconds: How long a change glides, in seconds.
  public init(sampleRate: Double, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    let ramp = Int(rampSeconds * sampleRate)
    for p in Parameter.allCases { targets[p.rawValue] = p.defaultValue }
    driveGain = SmoothedValue(EffectMath.gain(decibels: Parameter.drive.defaultValue), rampSamples: ramp)
    tone = SmoothedValue(Parameter.tone.defaultValue, rampSamples: ramp)
    levelGain = SmoothedValue(EffectMath.gain(decibels: Parameter.level.defaultValue), rampSamples: ramp)
    mix = SmoothedValue(Parameter.mix.defaultValue, rampSamples: ramp)
    filter.setCutoff(Parameter.tone.defaultValue, q: Self.toneQ, sampleRate: sampleRate)
  }

  /// Drive, dB (0...40).
  public var driveDB: Float {
    get { targets[0] }
    set { setValue(newValue, at: Parameter.drive.rawValue) }
  }
  /// Tone filter centre, Hz (200...8000).
  public var toneHz: Float {
    get { targets[1] }
    set { setValue(newValue, at: Parameter.tone.rawValue) }
  }
  /// Output level, dB (−40...6).
  public var levelDB: Float {
    get { targets[2] }
    set { setValue(newValue, at: Parameter.level.rawValue) }
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float { (0..<4).contains(index) ? targets[index] : .nan }

  /// Sets a parameter (clamped; glides there).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard let p = Parameter(rawValue: index) else { return }
    let v = p.range.clamping(value, nanTo: p.defaultValue)
    targets[index] = v
    switch p {
    case .drive: driveGain.set(EffectMath.gain(decibels: v))
    case .tone: tone.set(v)
    case .level: levelGain.set(EffectMath.gain(decibels: v))
    case .mix: mix.set(v)
    }
  }

  /// Processes a block in place.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    for i in 0..<buffer.count {
      let x = EffectMath.sanitized(buffer[i])
      if !tone.isSettled { filter.setCutoff(tone.next(), q: Self.toneQ, sampleRate: sampleRate) }
      let u = Double(x * driveGain.next())
      let antiderivative = EffectMath.squareRoot(1 + u * u)
      let difference = u - previousInput
      let shaped: Double
      if abs(difference) > 1e-6 {
        shaped = (antiderivative - previousAntiderivative) / difference
      } else {
        let mid = 0.5 * (u + previousInput)
        shaped = mid / EffectMath.squareRoot(1 + mid * mid)
      }
      previousInput = u
      previousAntiderivative = antiderivative
      let wet = filter.process(Float(shaped)).band * filter.damping * levelGain.next()
      let m = mix.next()
      buffer[i] = x + m * (wet - x)
    }
    if !filter.isFinite { filter.reset() }
  }

  /// Clears the filter and the anti-aliasing memory; the settings stay, arrived.
  @_noLocks
  public mutating func reset() {
    filter.reset()
    previousInput = 0
    previousAntiderivative = 1
    driveGain.jump(to: driveGain.target)
    tone.jump(to: tone.target)
    levelGain.jump(to: levelGain.target)
    mix.jump(to: mix.target)
    filter.setCutoff(tone.target, q: Self.toneQ, sampleRate: sampleRate)
  }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) { process(buffer) }
  mutating func makeUnique() {}
  @_noLocks
  mutating func resetInPlace() { reset() }
  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<Overdrive>) {
    targets = source.pointee.targets
    driveGain = source.pointee.driveGain
    tone = source.pointee.tone
    levelGain = source.pointee.levelGain
    mix = source.pointee.mix
    filter = source.pointee.filter
    previousInput = source.pointee.previousInput
    previousAntiderivative = source.pointee.previousAntiderivative
  }
}
