/// One harmony voice of a preset: what it sings, how loud, and where in the stereo field.
///
/// In JSON a voice has exactly one of `interval`, `note` or `degree`, and `level` and `pan`:
/// `{"interval": 4, "level": 0.8, "pan": -0.5}`, `{"note": 64, "level": 0.6, "pan": 0}`,
/// `{"degree": 3, "level": 0.7, "pan": 0.5}`.
public struct PresetVoice: Sendable, Hashable, Codable {
  /// What pitch a voice sings.
  public enum Pitch: Sendable, Hashable {
    /// A fixed interval from the sung note, in semitones (−24…24, fractions allowed).
    case interval(semitones: Double)
    /// A fixed target note whatever is sung, as a MIDI note number (0…127).
    case note(midi: Int)
    /// A diatonic interval above (or, negative, below) the sung note within the preset's key:
    /// 3 is a third, 5 a fifth, −3 a third below; 1 and −1 are the unison (−15…15, not 0).
    case degree(Int)
  }

  /// What pitch the voice sings.
  public var pitch: Pitch
  /// The voice's level, 0 (silent) … 1 (full).
  public var level: Double
  /// The voice's pan, −1 (left) … 1 (right), 0 centre.
  public var pan: Double

  /// Describes a voice.
  ///
  /// - Parameters:
  ///   - pitch: What it sings.
  ///   - level: Its level, 0…1; 1 by default.
  ///   - pan: Its pan, −1…1; centre by default.
  public init(_ pitch: Pitch, level: Double = 1, pan: Double = 0) {
    self.pitch = pitch
    self.level = level
    self.pan = pan
  }

  private enum CodingKeys: String, CodingKey { case interval, note, degree, level, pan }

  /// Decodes a voice; `level` defaults to 1 and `pan` to 0.
  ///
  /// - Throws: `DecodingError` unless exactly one of `interval`, `note`, `degree` is present.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let interval = try container.decodeIfPresent(Double.self, forKey: .interval)
    let note = try container.decodeIfPresent(Int.self, forKey: .note)
    let degree = try container.decodeIfPresent(Int.self, forKey: .degree)
    switch (interval, note, degree) {
    case (let semitones?, nil, nil): pitch = .interval(semitones: semitones)
    case (nil, let midi?, nil): pitch = .note(midi: midi)
    case (nil, nil, let steps?): pitch = .degree(steps)
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "a voice needs exactly one of \"interval\", \"note\" or \"degree\""))
    }
    level = try container.decodeIfPresent(Double.self, forKey: .level) ?? 1
    pan = try container.decodeIfPresent(Double.self, forKey: .pan) ?? 0
  }

  /// Encodes the voice with its one pitch key, `level` and `pan`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch pitch {
    case .interval(let semitones): try container.encode(semitones, forKey: .interval)
    case .note(let midi): try container.encode(midi, forKey: .note)
    case .degree(let steps): try container.encode(steps, forKey: .degree)
    }
    try container.encode(level, forKey: .level)
    try container.encode(pan, forKey: .pan)
  }
}
