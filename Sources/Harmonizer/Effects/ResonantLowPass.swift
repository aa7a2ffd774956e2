/// A resonant low-pass filter (12 dB/octave): the seam's "cutoff" and "resonance" knobs.
///
/// A topology-preserving state-variable filter: stable for every setting, also while the cutoff
/// sweeps (its coefficients are recomputed every sample while a change glides). The cutoff is
/// pre-warped: with resonance 0.707 the response is exactly −3 dB there; higher resonance (the
/// filter's Q) peaks near the cutoff by about `20·log10(Q)` dB.
///
/// - Note: ``process(_:)`` is real-time safe.
public struct ResonantLowPass: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// Cutoff frequency, Hz.
    case cutoff
    /// Resonance: the filter's Q (0.707 is flat, higher peaks).
    case resonance

    /// The accepted values.
    public var range: ClosedRange<Float> {
      switch self {
      case .cutoff: 20...20000
      case .resonance: 0.5...20
      }
    }
    /// The starting value.
    public var defaultValue: Float {
      switch self {
      case .cutoff: 2000
      case .resonance: 0.7071
      }
    }
    /// The description.
    public var descriptor: EffectParameter {
      switch self {
      case .cutoff:
        .init(
          name: "cutoff", unit: .hertz, range: range, defaultValue: defaultValue,
          summary: "cutoff frequency (clamped to 0.45 x the sample rate)")
      case .resonance:
        .init(
          name: "resonance", unit: .ratio, range: range, defaultValue: defaultValue,
          summary: "Q: 0.707 is flat, higher values peak at the cutoff")
      }
    }
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0.
  public var latencySamples: Int { 0 }
  /// The ring of a high resonance (Q periods of the cutoff, roughly).
  public var tailSeconds: Double { Double(resonanceTarget) / Double(cutoffTarget) * 3 }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  private var cutoffTarget: Float
  private var resonanceTarget: Float
  private var cutoff: SmoothedValue
  private var resonance: SmoothedValue
  private var filter = StateVariableFilter()

  /// Creates a filter.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - cutoffHz: The cutoff, Hz (20...20 000).
  ///   - resonance: The Q (0.5...20).
  ///   - rampSeconds: How long a change glides, in seconds.
  public init(
    sampleRate: Double, cutoffHz: Float = Parameter.cutoff.defaultValue,
    resonance: Float = Parameter.resonance.defaultValue, rampSeconds: Double = 0.02
  ) {
    self.sampleRate = sampleRate
    cutoffTarget = Parameter.cutoff.range.clamping(cutoffHz, nanTo: Parameter.cutoff.defaultValue)
    resonanceTarget = Parameter.resonance.range.clamping(resonance, nanTo: Parameter.resonance.defaultValue)
    let ramp = Int(rampSeconds * sampleRate)
    cutoff = SmoothedValue(cutoffTarget, rampSamples: ramp)
    self.resonance = SmoothedValue(resonanceTarget, rampSamples: ramp)
    filter.setCutoff(cutoffTarget, q: resonanceTarget, sampleRate: sampleRate)
  }

  /// Cutoff, Hz (20...20 000).
  public var cutoffHz: Float {
    get { cutoffTarget }
    set { setValue(newValue, at: Parameter.cutoff.rawValue) }
  }
  /// Resonance, the Q (0.5...20).
  public var q: Float {
    get { resonanceTarget }
    set { setValue(newValue, at: Parameter.resonance.rawValue) }
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float {
    switch Parameter(rawValue: index) {
    case .cutoff: cutoffTarget
    case .resonance: resonanceTarget
    case nil: .nan
    }
  }

  /// Sets a parameter (clamped; glides there).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    switch Parameter(rawValue: index) {
    case .cutoff:
      cutoffTarget = Parameter.cutoff.range.clamping(value, nanTo: Parameter.cutoff.defaultValue)
      cutoff.set(cutoffTarget)
    case .resonance:
      resonanceTarget = Parameter.resonance.range.clamping(value, nanTo: Parameter.resonance.defaultValue)
      resonance.set(resonanceTarget)
    case nil: break
    }
  }

  /// Filters a block in place.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    for i in 0..<buffer.count {
      if !cutoff.isSettled || !resonance.isSettled {
        filter.setCutoff(cutoff.next(), q: resonance.next(), sampleRate: sampleRate)
      }
      buffer[i] = filter.process(EffectMath.sanitized(buffer[i])).low
    }
    if !filter.isFinite { filter.reset() }
  }

  /// Clears the filter state; the settings stay, arrived.
  @_noLocks
  public mutating func reset() {
    filter.reset()
    cutoff.jump(to: cutoffTarget)
    resonance.jump(to: resonanceTarget)
    filter.setCutoff(cutoffTarget, q: resonanceTarget, sampleRate: sampleRate)
  }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) { process(buffer) }
  mutating func makeUnique() {}
  @_noLocks
  mutating func resetInPlace() { reset() }
  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<ResonantLowPass>) {
    cutoffTarget = source.pointee.cutoffTarget
    resonanceTarget = source.pointee.resonanceTarget
    cutoff = source.pointee.cutoff
    resonance = source.pointee.resonance
    filter = source.pointee.filter
  }
}
