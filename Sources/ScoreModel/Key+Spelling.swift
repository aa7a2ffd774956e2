extension Key {
  /// How music in this key spells `pitchClass`.
  ///
  /// 1. Scale notes use the scale's spelling (G♯ in A harmonic minor, F♯ in D major).
  /// 2. In keys with a minor third, the raised sixth and seventh of melodic minor are sharped
  ///    degrees (C♯ and B in D minor), as leading tones are written.
  /// 3. Any other note takes the spelling with at most one sharp or flat (more only in keys whose
  ///    own scale needs them) that lies nearest the key on the line of fifths; ties go to the
  ///    key's side, sharps when the signature has none. In C major: C♯, E♭, F♯, G♯, B♭; in G
  ///    major: G♯, B♭, C♯, D♯, F; in F major: F♯, A♭, B, D♭, E♭; in A minor: B♭, C♯, D♯.
  ///
  /// - Parameter pitchClass: The pitch class to spell.
  /// - Returns: The spelling.
  /// - Complexity: O(1): a few dozen candidates.
  public func spelling(of pitchClass: PitchClass) -> NoteName {
    let degrees = degrees
    if let name = degrees.first(where: { $0.pitchClass == pitchClass }) { return name }
    if scale.isMinor,
      let raised = Key(tonic, .melodicMinor).degrees[5...].first(where: { $0.pitchClass == pitchClass })
    {
      return raised
    }
    let signature = signature
    // The middle of the key's seven fifths (D in C major), doubled to stay in integers; a
    // minor-third key leans one fifth sharp, towards its raised sixth and seventh.
    let doubledCenter = 2 * (signature + 2) + (scale.isMinor ? 2 : 0)
    let widest = max(1, degrees.map { abs($0.accidental.semitones) }.max() ?? 0)
    var best: NoteName?
    var bestScore = Int.max
    for letter in Letter.allCases {
      let alteration = PitchClass(pitchClass.rawValue - letter.naturalPitchClass).rawValue
      for semitones in [alteration, alteration - 12] where abs(semitones) <= widest {
        // `widest` is at most 3, so the accidental exists.
        let name = NoteName(letter, Accidental(semitones: semitones)!)
        // Distance first; on a tie the key's side wins (sharps for signatures ≥ 0).
        let towardSide = signature >= 0 ? semitones > 0 : semitones < 0
        let score = 2 * abs(2 * name.fifths - doubledCenter) + (towardSide ? 0 : 1)
        if score < bestScore {
          best = name
          bestScore = score
        }
      }
    }
    // Every pitch class has a spelling with at most one accidental, so `best` is set.
    return best ?? PitchClass.plainSpelling(pitchClass)
  }
}

extension PitchClass {
  /// The pitch class with sharps on black keys (`C#`, `F#`, `G#`) except `Eb` and `Bb`: C major's
  /// chromatic spelling.
  static func plainSpelling(_ pitchClass: PitchClass) -> NoteName {
    let names: [NoteName] = [
      .c, NoteName(.c, .sharp), .d, NoteName(.e, .flat), .e, .f, NoteName(.f, .sharp), .g,
      NoteName(.g, .sharp), .a, NoteName(.b, .flat), .b,
    ]
    return names[pitchClass.rawValue]
  }
}
