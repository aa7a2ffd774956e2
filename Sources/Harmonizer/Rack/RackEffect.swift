/// One effect handed to an ``EffectsRack`` when it is built: a built-in effect (with its
/// settings) or any other ``Effect`` under a name.
public enum RackEffect: Sendable {
  /// A ``Chorus``.
  case chorus(Chorus)
  /// An ``Overdrive``.
  case overdrive(Overdrive)
  /// A ``Delay``.
  case delay(Delay)
  /// A ``Reverb``.
  case reverb(Reverb)
  /// An ``ADSR`` gate.
  case adsr(ADSR)
  /// A ``ResonantLowPass``.
  case lowpass(ResonantLowPass)
  /// A ``Volume``.
  case volume(Volume)
  /// A user's effect, addressed as `name` (`"name.parameter"`). Its `process` must be real-time
  /// safe; the rack calls it in place, through the existential, on the audio thread.
  case custom(name: String, effect: any Effect)

  /// The built-in kind, or `nil` for a custom effect.
  public var kind: EffectKind? {
    switch self {
    case .chorus: .chorus
    case .overdrive: .overdrive
    case .delay: .delay
    case .reverb: .reverb
    case .adsr: .adsr
    case .lowpass: .lowpass
    case .volume: .volume
    case .custom: nil
    }
  }

  /// The name the rack addresses it by before any numbering of duplicates (`"delay"`).
  public var baseName: String {
    switch self {
    case .custom(let name, _): name
    default: kind!.rawValue
    }
  }

  /// The effect, as the protocol.
  public var effect: any Effect {
    switch self {
    case .chorus(let e): e
    case .overdrive(let e): e
    case .delay(let e): e
    case .reverb(let e): e
    case .adsr(let e): e
    case .lowpass(let e): e
    case .volume(let e): e
    case .custom(_, let e): e
    }
  }
}
