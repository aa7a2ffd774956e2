/// A key: a tonic and a scale (D major, F♯ harmonic minor, D dorian).
///
/// A key spells its scale with each letter once (``degrees``), knows its signature, and spells
/// any pitch class the way music in the key would (``spelling(of:)``). It prints and parses as
/// `D major`, `F# harmonic minor`, `Bb minor`, which is also its JSON form.
public struct Key: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
  /// The tonic.
  public var tonic: NoteName
  /// The scale.
  public var scale: Scale

  /// Creates a key.
  ///
  /// - Parameters:
  ///   - tonic: The tonic.
  ///   - scale: The scale; major by default.
  public init(_ tonic: NoteName, _ scale: Scale = .major) {
    self.tonic = tonic
    self.scale = scale
  }

  /// C major.
  public static let cMajor = Key(.c, .major)

  /// The major key with a signature of `sharps` sharps (negative: flats), or `nil` beyond
  /// three sharps or flats on the tonic.
  ///
  /// - Parameters:
  ///   - sharps: Sharps in the signature, −7...7 for the usual keys (MIDI key-signature `sf`).
  ///   - minor: Whether to return the relative natural minor instead (MIDI `mi` = 1).
  public init?(signature sharps: Int, minor: Bool = false) {
    guard let tonic = NoteName(fifths: sharps + (minor ? 3 : 0)) else { return nil }
    self.init(tonic, minor ? .naturalMinor : .major)
  }

  /// The seven scale notes from the tonic, one per letter (A harmonic minor: A B C D E F G♯).
  ///
  /// Degrees that would need more than three sharps or flats fall back to the nearest spelling.
  public var degrees: [NoteName] {
    scale.semitones.enumerated().map { index, semitones in
      let letter = tonic.letter.advanced(by: index)
      var alteration = PitchClass(tonic.pitchClass.rawValue + semitones - letter.naturalPitchClass).rawValue
      if alteration > 6 { alteration -= 12 }
      // Clamped into Accidental.range, so the accidental always exists.
      return NoteName(letter, Accidental(semitones: max(-3, min(3, alteration)))!)
    }
  }

  /// The key signature: the number of sharps (positive) or flats (negative), −7...7 for the
  /// usual keys (wider for theoretical ones such as G♯ major, +8). Harmonic and melodic minor
  /// use the natural minor's signature; modes use their own notes' (D dorian: 0).
  public var signature: Int { tonic.fifths + scale.fifthsToParentMajor }

  /// The relative key, which shares the signature: the natural minor of a major key (C major →
  /// A minor), the major of a minor key (A harmonic minor → C major), and the parent major of a
  /// mode (D dorian → C major).
  public var relative: Key {
    if scale == .major {
      // Beyond three sharps the tonic has no name; keep the enharmonic one instead.
      return Key(NoteName(fifths: tonic.fifths + 3) ?? degrees[5], .naturalMinor)
    }
    return Key(NoteName(fifths: signature) ?? Key(tonic, scale.signatureScale).degrees[2], .major)
  }

  /// The parallel key: same tonic, major ⇄ natural minor (modes with a minor third go to major,
  /// with a major third to natural minor).
  public var parallel: Key { Key(tonic, scale.isMinor ? .major : .naturalMinor) }

  /// Whether the pitch class is one of the scale's.
  ///
  /// - Parameter pitchClass: The pitch class.
  public func contains(_ pitchClass: PitchClass) -> Bool { degrees.contains { $0.pitchClass == pitchClass } }

  /// The key's name, such as `D major`, `F# harmonic minor`, `Bb minor`.
  public var description: String { "\(tonic) \(scale)" }

  /// Parses a key name: a tonic, a space, and a scale name (`D major`, `F# harmonic minor`,
  /// `Bb minor`, `D dorian`, `C# aeolian`); the tonic alone means major.
  ///
  /// - Parameter text: The name.
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(parsing text: String) throws(ScoreModelError) {
    let (tonic, used) = try NoteName.parsePrefix(Substring(text), whole: text)
    let rest = text.dropFirst(used)
    if rest.isEmpty {
      self.init(tonic, .major)
      return
    }
    guard rest.first == " ", let scale = Scale(name: String(rest.dropFirst())) else {
      throw .parse(
        text: text, offset: used,
        expected: "a space and a scale name such as major, minor, harmonic minor, dorian")
    }
    self.init(tonic, scale)
  }

  /// Parses a key name such as `D major`, or returns `nil`.
  ///
  /// - Parameter description: The name.
  public init?(_ description: String) {
    do { try self.init(parsing: description) } catch { return nil }
  }

  /// Decodes a key from its name, such as `"D major"`.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a key name.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(parsing: text) } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Encodes the key as its name, such as `"D major"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The 15 major and 15 natural-minor keys with up to seven sharps or flats, majors first, each
  /// list from C♭ (7 flats) to C♯ (7 sharps) and A♭ minor to A♯ minor.
  public static let standardKeys: [Key] = {
    let majors = (-7...7).compactMap { Key(signature: $0) }
    let minors = (-7...7).compactMap { Key(signature: $0, minor: true) }
    return majors + minors
  }()
}
