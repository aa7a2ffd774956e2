import MIDIJSON
import ScoreModel

/// Notes to play, in seconds, each with its MIDI channel and program: what ``SongRenderer``
/// renders, whatever the notes came from (a MIDI file, a MIDI JSON composition, a MusicXML score,
/// guitar tab).
public struct Song: Sendable, Hashable {
  /// A name for people (the composition's or the score's title); may be empty.
  public var name: String
  /// The notes, sorted by start (then channel and pitch).
  public private(set) var notes: [NoteEvent]

  /// A song of these notes.
  ///
  /// - Parameters:
  ///   - name: A name for people.
  ///   - notes: The notes, in any order; notes with a non-finite time, a negative start, a
  ///     duration that is not positive or a velocity of 0 are left out.
  public init(name: String = "", notes: [NoteEvent]) {
    self.name = name
    self.notes = notes.filter { note in
      note.startSeconds.isFinite && note.startSeconds >= 0 && note.durationSeconds.isFinite
        && note.durationSeconds > 0 && note.pitch.isFinite && note.velocity > 0
    }.sorted { a, b in
      (a.startSeconds, a.channel, a.pitch) < (b.startSeconds, b.channel, b.pitch)
    }
  }

  /// When the last note ends, in seconds (0 without notes).
  public var durationSeconds: Double {
    notes.reduce(0) { max($0, $1.startSeconds + $1.durationSeconds) }
  }

  /// The song's parts: its notes grouped by channel and program, in channel then program order.
  public var parts: [Part] {
    var byKey: [Part.Key: [NoteEvent]] = [:]
    for note in notes {
      byKey[Part.Key(channel: note.channel, program: note.program), default: []].append(note)
    }
    return byKey.keys.sorted { ($0.channel, $0.program) < ($1.channel, $1.program) }.map {
      Part(channel: $0.channel, program: $0.program, notes: byKey[$0]!)
    }
  }

  /// The notes of one channel and program: what one instrument plays.
  public struct Part: Sendable, Hashable {
    /// The MIDI channel, 0–15; channel 9 is General MIDI percussion.
    public var channel: Int
    /// The General MIDI program, 0–127.
    public var program: Int
    /// The part's notes, sorted by start.
    public var notes: [NoteEvent]

    /// Whether the part is General MIDI percussion (channel 10, counted from 1).
    public var isPercussion: Bool { channel == 9 }

    struct Key: Hashable {
      var channel: Int
      var program: Int
    }
  }
}
