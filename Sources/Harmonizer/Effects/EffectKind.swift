/// The built-in effects, by the names presets and the command line use.
public enum EffectKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
  /// ``Chorus``.
  case chorus
  /// ``Overdrive``.
  case overdrive
  /// ``Delay``.
  case delay
  /// ``Reverb``.
  case reverb
  /// ``ADSR``.
  case adsr
  /// ``ResonantLowPass``.
  case lowpass
  /// ``Volume``.
  case volume

  /// The name (`"chorus"`, `"lowpass"`).
  public var description: String { rawValue }

  /// The kind called `name` (case-insensitive; `"lowPass"`, `"filter"` and `"gain"` are
  /// accepted too).
  ///
  /// - Parameter name: An effect name.
  /// - Throws: ``EffectError/unknownEffect(name:valid:)`` listing the valid names.
  public init(named name: String) throws(EffectError) {
    let key = name.lowercased()
    if let kind = EffectKind(rawValue: key) {
      self = kind
      return
    }
    switch key {
    case "lowpass", "low-pass", "filter", "resonantlowpass": self = .lowpass
    case "gain": self = .volume
    case "envelope", "gate": self = .adsr
    default: throw .unknownEffect(name: name, valid: EffectKind.allCases.map(\.rawValue))
    }
  }

  /// The kind's parameters, in index order.
  public var parameters: [EffectParameter] {
    switch self {
    case .chorus: Chorus.Parameter.allCases.map(\.descriptor)
    case .overdrive: Overdrive.Parameter.allCases.map(\.descriptor)
    case .delay: Delay.Parameter.allCases.map(\.descriptor)
    case .reverb: Reverb.Parameter.allCases.map(\.descriptor)
    case .adsr: ADSR.Parameter.allCases.map(\.descriptor)
    case .lowpass: ResonantLowPass.Parameter.allCases.map(\.descriptor)
    case .volume: Volume.Parameter.allCases.map(\.descriptor)
    }
  }

  /// One line on what the effect does.
  public var summary: String {
    switch self {
    case .chorus: "modulated delay mixed with the dry signal (several voices)"
    case .overdrive: "soft saturation with anti-aliasing and a band-pass tone filter"
    case .delay: "echoes with feedback, damping and tempo sync"
    case .reverb: "feedback-delay-network reverb with decay time and damping"
    case .adsr: "attack/decay/sustain/release gate, by input level or note on/off"
    case .lowpass: "resonant low-pass filter (cutoff, resonance)"
    case .volume: "gain in dB (input, output or sample volume)"
    }
  }

  /// A new effect of this kind with the default settings, ready for an ``EffectsRack``.
  ///
  /// - Parameters:
  ///   - sampleRate: The sample rate, in Hz.
  ///   - rampSeconds: How long parameter changes glide, in seconds.
  /// - Returns: The effect.
  public func make(sampleRate: Double, rampSeconds: Double = 0.02) -> RackEffect {
    switch self {
    case .chorus: .chorus(Chorus(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .overdrive: .overdrive(Overdrive(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .delay: .delay(Delay(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .reverb: .reverb(Reverb(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .adsr: .adsr(ADSR(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .lowpass: .lowpass(ResonantLowPass(sampleRate: sampleRate, rampSeconds: rampSeconds))
    case .volume: .volume(Volume(sampleRate: sampleRate, rampSeconds: rampSeconds))
    }
  }
}
