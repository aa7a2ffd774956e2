/// One item of a ``Tab``: notes (one, or a chord), a rest, or a tempo change.
public enum TabEvent: Sendable, Hashable, Codable {
  /// Notes that start together and last `beats` quarter notes (one position is a single note,
  /// several are a chord); with `letRing`, each keeps sounding until another note is played on
  /// its string (or, at the end of the tab, for its own duration after the last item).
  case notes([TabPosition], beats: Double, letRing: Bool)
  /// Silence for `beats` quarter notes.
  case rest(beats: Double)
  /// The tempo from here on, in quarter notes per minute.
  case tempo(beatsPerMinute: Double)

  /// How long the event lasts in quarter notes (0 for a tempo change).
  public var beats: Double {
    switch self {
    case .notes(_, let beats, _), .rest(let beats): return beats
    case .tempo: return 0
    }
  }
}
