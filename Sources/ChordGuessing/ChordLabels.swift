import ScoreModel

/// Harte labels for the recognizer's states.
enum ChordLabels {
  /// Root spellings by pitch class: the usual ones of lead sheets (`F#`, `Bb`, `Eb`, `Ab`, `C#`).
  static let roots: [NoteName] = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"].map {
    // The literals above parse.
    NoteName($0)!
  }

  /// The label of a root, type and bass; `N` for a negative type index.
  static func label(root: Int, typeIndex: Int, bassSemitones: Int, types: [ChordType]) -> ChordLabel {
    guard typeIndex >= 0, typeIndex < types.count, root >= 0 else { return .noChord }
    let type = types[typeIndex]
    let bass = type.intervals.first { ($0.semitones % 12 + 12) % 12 == bassSemitones }
    return .chord(Chord(roots[root % 12], type, bass: bassSemitones == 0 ? nil : bass))
  }
}
