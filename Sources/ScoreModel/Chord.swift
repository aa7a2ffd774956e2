/// A chord: a root, a type and an optional bass note, printed and parsed in Harte syntax.
///
/// `C:maj`, `A:min7`, `G:7/3` (G7 with B in the bass), `Db:hdim7`, `C:(1,3,#5,b7)`. The bass is an
/// interval above the root, as Harte writes it (`/3`, `/b7`, `/5`); it may also be a note outside
/// the chord (`C:maj/b7`).
public struct Chord: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The root.
  public var root: NoteName
  /// The chord type.
  public var type: ChordType
  /// The bass as an interval above the root; `nil` in root position.
  public var bass: Interval?

  /// Creates a chord.
  ///
  /// - Parameters:
  ///   - root: The root.
  ///   - type: The type.
  ///   - bass: The bass as an interval above the root; `nil` (or a unison) for root position.
  public init(_ root: NoteName, _ type: ChordType, bass: Interval? = nil) {
    self.root = root
    self.type = type
    self.bass = bass == .perfectUnison ? nil : bass
  }

  /// Parses a Harte label for a chord (not `N` or `X`; use ``ChordLabel`` for those).
  ///
  /// - Throws: ``ScoreModelError/parse(text:offset:expected:)`` naming the character at fault.
  public init(harte text: String) throws(ScoreModelError) {
    guard case .chord(let chord) = try ChordLabel(harte: text) else {
      throw .parse(text: text, offset: 0, expected: "a chord, not \"\(text)\"")
    }
    self = chord
  }

  /// The Harte label, such as `G:7/3`.
  public var harte: String {
    "\(root):\(type)" + (bass.map { "/" + $0.harteDegree } ?? "")
  }

  /// The Harte label.
  public var description: String { harte }

  /// The pitch classes sounding in the chord, root first (the bass included if outside the chord).
  public var pitchClasses: [PitchClass] {
    var classes = type.intervals.map { root.pitchClass.transposed(by: $0.semitones) }
    if let bass = bass {
      let b = root.pitchClass.transposed(by: bass.semitones)
      if !classes.contains(b) { classes.append(b) }
    }
    return classes
  }

  /// The pitch class of the lowest note.
  public var bassPitchClass: PitchClass { root.pitchClass.transposed(by: bass?.semitones ?? 0) }

  /// The inversion: 0 in root position, 1 with the second chord tone in the bass (the third of a
  /// triad), 2 with the third, …; `nil` when the bass is not a chord tone.
  public var inversion: Int? {
    guard let bass else { return 0 }
    let bassClass = PitchClass(bass.semitones)
    return type.intervals.firstIndex { PitchClass($0.semitones) == bassClass }
  }

  /// The chord's notes spelled from the root (C:min7 → C, Eb, G, Bb).
  public var noteNames: [NoteName] { type.intervals.compactMap { root.transposed(up: $0) } }
}
