import Foundation

/// A guitar tune written as tab: a sequence of notes, chords, rests and tempo changes, read in
/// a tuning.
///
/// Parse one from the seed's text notation (see <doc:TabNotation>) with ``init(parsing:tuning:)``
/// and turn it into timed notes with ``notes(tempo:velocity:)``:
///
/// ```swift
/// let tab = try Tab(parsing: #"("13",1.5)|("12",0.5)|("13",1)|("13",0.5)|("17",0.5)"#)
/// let notes = tab.notes(tempo: 90)     // [NoteEvent], seconds
/// ```
public struct Tab: Sendable, Hashable, Codable {
  /// The tempo when the tab sets none, in quarter notes per minute: 120.
  public static let defaultTempo = 120.0

  /// The items, in order.
  public var events: [TabEvent]
  /// The tuning the positions are read in.
  public var tuning: GuitarTuning

  /// Creates a tab from its items.
  ///
  /// - Parameters:
  ///   - events: The items, in order.
  ///   - tuning: The tuning (default standard).
  public init(events: [TabEvent], tuning: GuitarTuning = .standard) {
    self.events = events
    self.tuning = tuning
  }

  /// Parses tab text (see <doc:TabNotation>).
  ///
  /// - Parameters:
  ///   - text: The tab.
  ///   - tuning: The tuning the positions are read in (default standard).
  /// - Throws: ``SynthesisError/tabSyntax(column:expected:found:)`` where the text breaks the
  ///   grammar, ``SynthesisError/invalidTab(column:reason:)`` for a string or fret the tuning
  ///   lacks, a duration that is not positive or a tempo out of range.
  public init(parsing text: String, tuning: GuitarTuning = .standard) throws(SynthesisError) {
    self = try TabNotation.parse(text, tuning: tuning)
  }

  /// The tempo the tab starts at: its first tempo change if that comes before any note or rest,
  /// else ``defaultTempo``.
  public var initialTempo: Double {
    for event in events {
      switch event {
      case .tempo(let bpm): return bpm
      case .notes, .rest: return Self.defaultTempo
      }
    }
    return Self.defaultTempo
  }

  /// The tab's length in quarter notes.
  public var durationBeats: Double { events.reduce(0) { $0 + $1.beats } }

  /// The tab's notes, timed in seconds (a quarter note is one beat).
  ///
  /// Each note starts where its item starts and lasts its item's duration; with let-ring it
  /// lasts until the next note on its string starts (or its own duration past the tab's end).
  /// Pitches come from ``tuning`` (fractional MIDI numbers, exactly the tuning's frequencies);
  /// positions the tuning lacks are skipped.
  ///
  /// - Parameters:
  ///   - tempo: The tempo to play at, in quarter notes per minute. `nil` plays the tab's own
  ///     tempo (``initialTempo``, then its changes). A value replaces the initial tempo and scales
  ///     every later change by the same ratio. Not finite or not positive counts as `nil`.
  ///   - velocity: The MIDI velocity of every note (default 96; clamped to `1...127`).
  /// - Returns: The notes in time order (chords in the order written), channel 0, program 24
  ///   (General MIDI acoustic guitar, nylon).
  public func notes(tempo: Double? = nil, velocity: Int = 96) -> [NoteEvent] {
    let initial = initialTempo
    let ratio = tempo.map { $0.isFinite && $0 > 0 ? $0 / initial : 1 } ?? 1
    let velocity = min(127, max(1, velocity))
    var secondsPerBeat = 60 / (initial * ratio)
    var time = 0.0
    var notes: [NoteEvent] = []
    // Per string: the index of its last let-ring note still waiting for its end.
    var ringing: [Int: Int] = [:]
    for event in events {
      switch event {
      case .tempo(let bpm):
        secondsPerBeat = 60 / (bpm * ratio)
      case .rest(let beats):
        time += beats * secondsPerBeat
      case .notes(let positions, let beats, let letRing):
        let duration = beats * secondsPerBeat
        for position in positions {
          guard let pitch = tuning.pitch(string: position.string, fret: position.fret) else { continue }
          if let open = ringing.removeValue(forKey: position.string) {
            notes[open].durationSeconds = time - notes[open].startSeconds
          }
          notes.append(
            NoteEvent(startSeconds: time, durationSeconds: duration, pitch: pitch, velocity: velocity, program: 24))
          if letRing { ringing[position.string] = notes.count - 1 }
        }
        time += duration
      }
    }
    for (_, open) in ringing {
      notes[open].durationSeconds = max(notes[open].durationSeconds, time - notes[open].startSeconds)
    }
    return notes
  }
}
