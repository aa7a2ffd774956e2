import ScoreModel

/// One note of the score as the student is expected to play it: when it starts, how long it
/// lasts, its written and sounding pitch, how it is articulated, and where it is drawn.
///
/// Times are seconds on the score's time line (0 = the start of the score, before any latency).
/// ``index`` is the note's position in the list of notes it came from (``Score/notes``, rests
/// included), so that a grade can be traced back to the score.
public struct PerformanceNote: Sendable, Hashable, Codable {
  /// How a note is meant to be played, which sets how long it should sound.
  public enum Articulation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Detached as usual: a small gap before the next note.
    case normal
    /// Under a slur or tied: held to the next note.
    case legato
    /// Held for its full value, no gap.
    case tenuto
    /// Short: about half its value.
    case staccato
    /// Very short: about a quarter of its value.
    case staccatissimo
  }

  /// The position in the note list it came from (rests included).
  public var index: Int
  /// The measure number, as the score counts it.
  public var measure: Int
  /// The expected start, in seconds on the score's time line.
  public var expectedStart: Double
  /// The expected length (the written value), in seconds.
  public var expectedDuration: Double
  /// The written pitch (as printed for the player), or `nil` for a rest.
  public var writtenPitch: MIDINote?
  /// The sounding (concert) pitch, or `nil` for a rest.
  public var soundingPitch: MIDINote?
  /// How it is articulated.
  public var articulation: Articulation
  /// `true` when the note merges tied notes.
  public var isTied: Bool
  /// The drawing position, in the score's layout units (MusicXML tenths), when known.
  public var x: Double?
  /// The drawing position's y (downwards), when known.
  public var y: Double?

  /// Creates a note.
  ///
  /// - Parameters:
  ///   - index: Its position in its note list.
  ///   - measure: The measure number.
  ///   - expectedStart: The expected start, in seconds.
  ///   - expectedDuration: The written length, in seconds.
  ///   - writtenPitch: The written pitch; `nil` for a rest.
  ///   - soundingPitch: The sounding pitch; defaults to the written one.
  ///   - articulation: How it is played.
  ///   - isTied: Whether it merges tied notes.
  ///   - x: The drawing x, when known.
  ///   - y: The drawing y, when known.
  public init(
    index: Int, measure: Int = 1, expectedStart: Double, expectedDuration: Double, writtenPitch: MIDINote?,
    soundingPitch: MIDINote? = nil, articulation: Articulation = .normal, isTied: Bool = false, x: Double? = nil,
    y: Double? = nil
  ) {
    self.index = index
    self.measure = measure
    self.expectedStart = expectedStart
    self.expectedDuration = expectedDuration
    self.writtenPitch = writtenPitch
    self.soundingPitch = soundingPitch ?? writtenPitch
    self.articulation = articulation
    self.isTied = isTied
    self.x = x
    self.y = y
  }

  /// The note a score note asks for.
  ///
  /// Staccatissimo and staccato marks win over a slur (a staccato under a slur is still short);
  /// tenuto comes next; a slur into the next note (``ScoreNote/isSlurred``: not the last note
  /// under it, which is released as usual) or a tie makes the note legato.
  ///
  /// - Parameters:
  ///   - note: The score note.
  ///   - index: Its position in the score's note list.
  public init(_ note: ScoreNote, index: Int) {
    let articulation: Articulation
    if note.articulations.contains(.staccatissimo) {
      articulation = .staccatissimo
    } else if note.articulations.contains(.staccato) {
      articulation = .staccato
    } else if note.articulations.contains(.tenuto) {
      articulation = .tenuto
    } else if note.isSlurred || note.isTied {
      articulation = .legato
    } else {
      articulation = .normal
    }
    self.init(
      index: index, measure: note.measure, expectedStart: note.onsetSeconds, expectedDuration: note.durationSeconds,
      writtenPitch: note.writtenPitch, soundingPitch: note.soundingPitch, articulation: articulation,
      isTied: note.isTied, x: note.x, y: note.y)
  }

  /// `true` for a rest.
  public var isRest: Bool { soundingPitch == nil }

  /// The expected end, in seconds on the score's time line.
  public var expectedEnd: Double { expectedStart + expectedDuration }

  /// The notes of a score to grade a monophonic take against: every note and rest, in score
  /// order, except grace notes (they have no written value) and, where several notes of a part
  /// start together, all but the highest (the melody of a chord). A note slurred into another
  /// of the same pitch is tongued again, not held into it: its articulation is normal.
  ///
  /// - Parameter score: The score (select a part first with ``Score/selectingPart(_:)``).
  /// - Returns: The notes, each with its index in `score.notes`.
  public static func melody(of score: Score) -> [PerformanceNote] {
    let notes = score.notes
    // The onsets of the pitched notes (score order is onset order) and, at each note, the
    // latest end of the pitched notes before it: a rest is covered when a pitched note of any
    // voice sounds during it.
    let pitchedOnsets = notes.filter { !$0.isRest && !$0.isGrace }.map(\.onset)
    var latestEnd: Rational? = nil
    var result: [PerformanceNote] = []
    for (index, note) in notes.enumerated() where !note.isGrace {
      guard !note.isRest else {
        let endedAfter = latestEnd.map { $0 > note.onset } ?? false
        let first = pitchedOnsets.partitioningIndex { $0 >= note.onset }
        let startsInside = first < pitchedOnsets.count && pitchedOnsets[first] < note.end
        if !endedAfter && !startsInside { result.append(PerformanceNote(note, index: index)) }
        continue
      }
      latestEnd = latestEnd.map { max($0, note.end) } ?? note.end
      if let last = result.last, !last.isRest, notes[last.index].onset == note.onset, notes[last.index].part == note.part {
        if let pitch = note.soundingPitch, let lastPitch = last.soundingPitch, pitch > lastPitch {
          result[result.count - 1] = PerformanceNote(note, index: index)
        }
        continue
      }
      result.append(PerformanceNote(note, index: index))
    }
    // A repeat under a slur is played with a new attack, released like a normal note.
    for k in result.indices.dropLast() where result[k].articulation == .legato && !result[k].isTied {
      if !result[k + 1].isRest, result[k + 1].soundingPitch == result[k].soundingPitch {
        result[k].articulation = .normal
      }
    }
    return result
  }
}

extension Array {
  /// The first index whose element satisfies `predicate`, for a predicate that is false and then
  /// true along the array (binary search).
  func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if predicate(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
