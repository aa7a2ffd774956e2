/// A key: a tonic and a scale (D major, F♯ harmonic minor, D dorian).
///
/// A key spells its scale with each letter once (``degrees``), knows its signature, and spells
/// any pitch class the way music in the key would (``spelling(of:)``).
public struct Key: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The tonic.
  public var tonic: NoteName
  /// The scale.
  public var scale: Scale

  /// Creates a key.
  public init(_ tonic: NoteName, _ scale: Scale = .major) {
    self.tonic = tonic
    self.scale = scale
  }

  /// C major.
  public static let cMajor = Key(.c, .major)

  /// The seven scale notes from the tonic, one per letter (A harmonic minor: A B C D E F G♯).
  ///
  /// Degrees that would need more than three sharps or flats fall back to the nearest spelling.
  public var degrees: [NoteName] {
    scale.semitones.enumerated().map { index, semitones in
      let letter = tonic.letter.advanced(by: index)
      var alteration = PitchClass(tonic.pitchClass.rawValue + semitones - letter.naturalPitchClass).rawValue
      if alteration > 6 { alteration -= 12 }
      return NoteName(letter, Accidental(semitones: max(-3, min(3, alteration)))!)
    }
  }

  /// The key signature: the number of sharps (positive) or flats (negative), −7...7 for the
  /// usual keys (wider for theoretical ones such as G♯ major). Harmonic and melodic minor use
  /// the natural minor's signature.
  public var signature: Int {
    Key(tonic, scale.signatureScale).degrees.reduce(0) { $0 + $1.accidental.semitones }
  }

  /// The relative key: the major or natural minor with the same signature (C major ⇄ A minor).
  public var relative: Key {
    let degrees = Key(tonic, scale.signatureScale).degrees
    return scale.isMinor ? Key(degrees[2], .major) : Key(degrees[5], .naturalMinor)
  }

  /// The parallel key: same tonic, major ⇄ natural minor.
  public var parallel: Key { Key(tonic, scale.isMinor ? .major : .naturalMinor) }

  /// Whether the pitch class is one of the scale's.
  public func contains(_ pitchClass: PitchClass) -> Bool { degrees.contains { $0.pitchClass == pitchClass } }

  /// How music in this key spells `pitchClass`.
  ///
  /// Scale notes use the scale's spelling. Others are a raised lower degree in sharp keys and a
  /// lowered upper degree in flat keys; in keys without a signature, C♯, E♭, F♯, G♯ and B♭.
  public func spelling(of pitchClass: PitchClass) -> NoteName {
    let degrees = degrees
    if let name = degrees.first(where: { $0.pitchClass == pitchClass }) { return name }
    let side = signature
    let preferSharp = side > 0 || (side == 0 && [1, 6, 8].contains(pitchClass.rawValue))
    // The chromatic note lies between two adjacent degrees; alter the one on the preferred side.
    let candidates = degrees.compactMap { degree -> NoteName? in
      let alteration = preferSharp ? 1 : -1
      guard degree.pitchClass.transposed(by: alteration) == pitchClass,
        let accidental = Accidental(semitones: degree.accidental.semitones + alteration),
        abs(accidental.semitones) <= 2
      else { return nil }
      return NoteName(degree.letter, accidental)
    }
    if let best = candidates.min(by: { abs($0.accidental.semitones) < abs($1.accidental.semitones) }) {
      return best
    }
    return Self.plainSpelling(pitchClass, sharp: preferSharp)
  }

  /// Spelling with at most one sharp or flat on a natural letter.
  static func plainSpelling(_ pitchClass: PitchClass, sharp: Bool) -> NoteName {
    let sharps: [NoteName] = [
      .c, NoteName(.c, .sharp), .d, NoteName(.d, .sharp), .e, .f, NoteName(.f, .sharp), .g,
      NoteName(.g, .sharp), .a, NoteName(.a, .sharp), .b,
    ]
    let flats: [NoteName] = [
      .c, NoteName(.d, .flat), .d, NoteName(.e, .flat), .e, .f, NoteName(.g, .flat), .g, NoteName(.a, .flat),
      .a, NoteName(.b, .flat), .b,
    ]
    return (sharp ? sharps : flats)[pitchClass.rawValue]
  }

  /// The key's name, such as `D major`, `F# harmonic minor`, `Bb minor`.
  public var description: String { "\(tonic) \(scale)" }

  /// The 15 major and 15 natural-minor keys with up to seven sharps or flats.
  public static let standardKeys: [Key] = {
    let majors = ["C", "G", "D", "A", "E", "B", "F#", "C#", "F", "Bb", "Eb", "Ab", "Db", "Gb", "Cb"]
    let minors = ["A", "E", "B", "F#", "C#", "G#", "D#", "A#", "D", "G", "C", "F", "Bb", "Eb", "Ab"]
    return majors.map { Key(NoteName($0)!, .major) } + minors.map { Key(NoteName($0)!, .naturalMinor) }
  }()
}
