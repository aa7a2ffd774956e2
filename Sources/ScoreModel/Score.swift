/// A score as it is to be performed: its parts, its notes and rests on a timeline in exact
/// quarter notes and in seconds, its measures, tempos and signatures.
///
/// Read one from MusicXML with ``init(musicXML:options:)`` or ``init(contentsOf:options:)``. By
/// default the timeline is the performance: repeats, endings and jumps (da capo, dal segno, to
/// coda, fine) expanded, so a measure played twice appears twice; ``MusicXMLOptions/expandsRepeats``
/// keeps the notation order instead.
public struct Score: Sendable, Hashable, Codable {
  /// The title (`work-title`, `movement-title` or the first credit), or empty.
  public var title: String
  /// The parts, in score order.
  public var parts: [Part]
  /// The notes and rests, sorted by onset, then part, then pitch (rests first; grace notes
  /// before the notes they lead to).
  public var notes: [ScoreNote]
  /// The measures of the timeline, in order (a repeated measure appears once per time played).
  public var measures: [Measure]
  /// Tempo changes, in order; the first is at quarter 0.
  public var tempos: [Tempo]
  /// Time signature changes, in order.
  public var timeSignatures: [TimeSignature]
  /// Key signature changes, in order (of the first part that has them).
  public var keySignatures: [KeySignature]
  /// Whether repeats and jumps were expanded into the performance order.
  public var isExpanded: Bool

  /// A part: one instrument's line (one or more staves).
  public struct Part: Sendable, Hashable, Codable {
    /// The part's identifier in the file, such as `P1`.
    public var id: String
    /// Its name, such as `Trumpet in B♭`.
    public var name: String
    /// The transposition at the start: semitones from written to sounding pitch (−2 for a B♭
    /// trumpet), octave changes included.
    public var transposeSemitones: Int

    /// Creates a part.
    public init(id: String, name: String, transposeSemitones: Int = 0) {
      self.id = id
      self.name = name
      self.transposeSemitones = transposeSemitones
    }
  }

  /// One measure of the timeline.
  public struct Measure: Sendable, Hashable, Codable {
    /// Its number as printed (`1`, `0` for a pickup, `X1` for an unnumbered one).
    public var number: String
    /// Its position in the notation, from 0 (the same for every time it is played).
    public var notationIndex: Int
    /// Where it starts, in quarter notes.
    public var onset: Rational
    /// Its length, in quarter notes.
    public var duration: Rational
    /// Where it starts, in seconds.
    public var onsetSeconds: Double

    /// Creates a measure.
    public init(number: String, notationIndex: Int, onset: Rational, duration: Rational, onsetSeconds: Double) {
      self.number = number
      self.notationIndex = notationIndex
      self.onset = onset
      self.duration = duration
      self.onsetSeconds = onsetSeconds
    }
  }

  /// A tempo from a point on.
  public struct Tempo: Sendable, Hashable, Codable {
    /// Where it starts, in quarter notes.
    public var quarters: Rational
    /// Where it starts, in seconds.
    public var seconds: Double
    /// Quarter notes per minute.
    public var bpm: Double

    /// Creates a tempo change.
    public init(quarters: Rational, seconds: Double, bpm: Double) {
      self.quarters = quarters
      self.seconds = seconds
      self.bpm = bpm
    }
  }

  /// A time signature from a point on.
  public struct TimeSignature: Sendable, Hashable, Codable {
    /// Where it starts, in quarter notes.
    public var quarters: Rational
    /// Beats per bar (a compound signature such as 3+2 is summed).
    public var numerator: Int
    /// The beat's note value.
    public var denominator: Int

    /// Creates a time signature change.
    public init(quarters: Rational, numerator: Int, denominator: Int) {
      self.quarters = quarters
      self.numerator = numerator
      self.denominator = denominator
    }
  }

  /// A key signature from a point on.
  public struct KeySignature: Sendable, Hashable, Codable {
    /// Where it starts, in quarter notes.
    public var quarters: Rational
    /// The key.
    public var key: Key

    /// Creates a key signature change.
    public init(quarters: Rational, key: Key) {
      self.quarters = quarters
      self.key = key
    }
  }

  /// Creates a score.
  public init(
    title: String = "", parts: [Part] = [], notes: [ScoreNote] = [], measures: [Measure] = [], tempos: [Tempo] = [],
    timeSignatures: [TimeSignature] = [], keySignatures: [KeySignature] = [], isExpanded: Bool = true
  ) {
    self.title = title
    self.parts = parts
    self.notes = notes
    self.measures = measures
    self.tempos = tempos
    self.timeSignatures = timeSignatures
    self.keySignatures = keySignatures
    self.isExpanded = isExpanded
  }

  /// The time of a position in quarter notes, in seconds, through ``tempos`` (120 BPM before the
  /// first).
  ///
  /// - Complexity: O(log t) for t tempo changes.
  public func seconds(atQuarter quarters: Rational) -> Double {
    var low = 0
    var high = tempos.count - 1
    guard high >= 0 else { return quarters.doubleValue * 0.5 }
    while low < high {
      let mid = (low + high + 1) / 2
      if tempos[mid].quarters <= quarters { low = mid } else { high = mid - 1 }
    }
    let tempo = tempos[low]
    guard tempo.quarters <= quarters else { return quarters.doubleValue * 0.5 }
    return tempo.seconds + (quarters - tempo.quarters).doubleValue * 60 / tempo.bpm
  }

  /// The score with only the notes of the parts whose id or name is `part` (case-insensitive for
  /// names), or `nil` when there is no such part.
  public func selectingPart(_ part: String) -> Score? {
    guard let chosen = parts.first(where: { $0.id == part })
      ?? parts.first(where: { $0.name.lowercased() == part.lowercased() })
    else { return nil }
    var copy = self
    copy.parts = [chosen]
    copy.notes = notes.filter { $0.part == chosen.id }
    return copy
  }
}
