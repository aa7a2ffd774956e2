/// A gain stage, in decibels, ramped so a change never clicks: the rack's input, output and
/// sample volumes are instances of it.
///
/// At the bottom of the range (−80 dB) the gain is exactly 0 (mute).
///
/// - Note: ``process(_:)`` is real-time safe.
public struct Volume: Effect, RackableEffect {
  /// The parameters by index.
  public enum Parameter: Int, CaseIterable, Sendable {
    /// Gain, dB (−80 = mute).
    case gain

    /// The accepted values.
    public var range: ClosedRange<Float> { -80...24 }
    /// The starting value.
    public var defaultValue: Float { 0 }
    /// The description.
    public var descriptor: EffectParameter {
      .init(
        name: "gain", unit: .decibels, range: range, defaultValue: defaultValue, summary: "gain; -80 mutes")
    }
  }

  /// The sample rate, in Hz.
  public let sampleRate: Double
  /// Always 0.
  public var latencySamples: Int { 0 }
  /// Always 0.
  public var tailSeconds: Double { 0 }
  /// ``Parameter`` descriptions, in index order.
  public var parameters: [EffectParameter] { Parameter.allCases.map(\.descriptor) }

  private var gainTarget: Float
  private var linearGain: SmoothedValue

  /// Creates a volume stage.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - gainDB: The gain, dB (−80...24).
  ///   - rampSeconds: How long a change glides, in seconds.
  public init(sampleRate: Double, gainDB: Float = 0, rampSeconds: Double = 0.02) {
    self.sampleRate = sampleRate
    let g = Parameter.gain.range.clamping(gainDB, nanTo: 0)
    gainTarget = g
    linearGain = SmoothedValue(Self.linear(g), rampSamples: Int(rampSeconds * sampleRate))
  }

  /// The gain, dB (−80...24; −80 mutes).
  public var gainDB: Float {
    get { gainTarget }
    set { setValue(newValue, at: 0) }
  }

  /// The value set for a parameter.
  public func value(at index: Int) -> Float { index == 0 ? gainTarget : .nan }

  /// Sets the gain (clamped; glides there linearly in amplitude).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func setValue(_ value: Float, at index: Int) {
    guard index == 0 else { return }
    gainTarget = Parameter.gain.range.clamping(value, nanTo: 0)
    linearGain.set(Self.linear(gainTarget))
  }

  /// Scales a block in place.
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
    if linearGain.isSettled {
      let g = linearGain.current
      for i in 0..<buffer.count { buffer[i] = EffectMath.sanitized(buffer[i]) * g }
    } else {
      for i in 0..<buffer.count { buffer[i] = EffectMath.sanitized(buffer[i]) * linearGain.next() }
    }
  }

  /// Ends any ramp (the gain stays).
  @_noLocks
  public mutating func reset() { linearGain.jump(to: linearGain.target) }

  @_noLocks
  mutating func render(_ buffer: UnsafeMutableBufferPointer<Float>) { process(buffer) }
  mutating func makeUnique() {}
  @_noLocks
  mutating func resetInPlace() { reset() }
  @_noLocks
  mutating func copyState(from source: UnsafeMutablePointer<Volume>) {
    gainTarget = source.pointee.gainTarget
    linearGain = source.pointee.linearGain
  }

  @_noLocks
  private static func linear(_ decibels: Float) -> Float {
    EffectMath.gain(decibels: decibels, silenceBelow: Parameter.gain.range.lowerBound)
  }
}
