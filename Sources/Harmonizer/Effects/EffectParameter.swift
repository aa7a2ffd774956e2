/// The description of one of an effect's parameters: its name, unit, range and default.
///
/// Effects list theirs in ``Effect/parameters``, in index order; presets and the command line
/// address them by ``name`` (`"delay.time"` names the `time` parameter of a rack's delay).
public struct EffectParameter: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The parameter's name, lower camel case (`"time"`, `"feedback"`, `"cutoff"`).
  public var name: String
  /// The unit its values are in.
  public var unit: EffectParameterUnit
  /// The accepted values; a value outside is clamped into it.
  public var range: ClosedRange<Float>
  /// The value a new effect starts with.
  public var defaultValue: Float
  /// One sentence on what it does.
  public var summary: String

  /// Describes a parameter.
  ///
  /// - Parameters:
  ///   - name: The name, lower camel case.
  ///   - unit: The unit of its values.
  ///   - range: The accepted values.
  ///   - defaultValue: The starting value, inside `range`.
  ///   - summary: One sentence on what it does.
  public init(
    name: String, unit: EffectParameterUnit, range: ClosedRange<Float>, defaultValue: Float, summary: String
  ) {
    self.name = name
    self.unit = unit
    self.range = range
    self.defaultValue = defaultValue
    self.summary = summary
  }

  /// Clamps a value into ``range``; NaN becomes ``defaultValue``.
  ///
  /// - Parameter value: Any value.
  /// - Returns: The nearest accepted value.
  /// - Note: Real-time safe.
  @_noLocks
  public func clamped(_ value: Float) -> Float {
    guard !value.isNaN else { return defaultValue }
    return min(max(value, range.lowerBound), range.upperBound)
  }

  /// `name unit [lower...upper] default d: summary`, as `etude fx --list` prints it.
  public var description: String {
    "\(name) [\(Self.format(range.lowerBound))...\(Self.format(range.upperBound))\(unit.suffix)] "
      + "default \(Self.format(defaultValue))\(unit.suffix): \(summary)"
  }

  static func format(_ value: Float) -> String {
    let rounded = (Double(value) * 10000).rounded() / 10000
    return rounded == rounded.rounded() && abs(rounded) < 1e9 ? String(Int(rounded)) : String(rounded)
  }
}

/// The unit of an effect parameter's values.
public enum EffectParameterUnit: String, Sendable, Hashable, Codable, CaseIterable {
  /// Seconds.
  case seconds
  /// Milliseconds.
  case milliseconds
  /// Hertz.
  case hertz
  /// Decibels (gain or level).
  case decibels
  /// A plain factor or fraction (feedback, mix, sustain level, filter Q).
  case ratio
  /// Beats per minute.
  case beatsPerMinute
  /// A length in quarter-note beats (0.5 = an eighth note, 0.75 = a dotted eighth).
  case beats
  /// A switch: 0 is off, 1 is on (values round to the nearer).
  case toggle

  /// A short suffix for printing values (`" s"`, `" Hz"`; none for ratios and toggles).
  public var suffix: String {
    switch self {
    case .seconds: " s"
    case .milliseconds: " ms"
    case .hertz: " Hz"
    case .decibels: " dB"
    case .ratio: ""
    case .beatsPerMinute: " BPM"
    case .beats: " beats"
    case .toggle: ""
    }
  }
}
