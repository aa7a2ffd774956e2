/// A composition in compact MIDI JSON: a name, a tempo, a length and a list of timed events, all
/// in beats.
///
/// This is the format of Moodles' compositions (`{"name", "tempo", "length", "events": [[time,
/// "note", number, velocity, duration], …]}`), kept readable by the apps that wrote it, with
/// backward-compatible extensions that make a round trip through a MIDI file lossless: a tempo
/// list, time and key signatures, channels and the MIDI file's ticks per quarter note. See
/// ``CompositionEvent`` for the event arrays and the `MIDIJSONFormats` article for the document.
///
/// ```swift
/// let song = try Composition(json: Data(#"{"name":"Tap","events":[[0,"note",60,127,1]]}"#.utf8))
/// let file = MIDIFile(song)          // a Standard MIDI File, format 1
/// let back = try Composition(file)   // the same notes again
/// ```
public struct Composition: Sendable, Hashable {
  /// The title.
  public var name: String
  /// Tempo changes, sorted by beat; the first is at beat 0.
  public var tempos: [Tempo]
  /// The length in beats (at least the end of the last event).
  public var length: Double
  /// The events, in any order (``sortedEvents`` orders them).
  public var events: [CompositionEvent]
  /// Ticks per quarter note of the MIDI file the composition came from: times are multiples of
  /// `1 / ppq` beats and converting back to MIDI uses this grid. `nil` for compositions made
  /// in an app.
  public var ppq: Int?
  /// Time signature changes, sorted by beat (none: 4/4 is assumed).
  public var timeSignatures: [TimeSignature]
  /// Key signature changes, sorted by beat.
  public var keySignatures: [KeySignature]

  /// A tempo from a beat on.
  public struct Tempo: Sendable, Hashable, Codable {
    /// The beat where the tempo starts.
    public var beat: Double
    /// Quarter notes per minute.
    public var bpm: Double

    /// Creates a tempo change.
    public init(beat: Double, bpm: Double) {
      self.beat = beat
      self.bpm = bpm
    }
  }

  /// A time signature from a beat on.
  public struct TimeSignature: Sendable, Hashable, Codable {
    /// The beat (quarter note) where the signature starts.
    public var beat: Double
    /// Beats per bar, such as 3 in 3/4.
    public var numerator: Int
    /// The beat's note value, a power of two, such as 4 in 3/4.
    public var denominator: Int

    /// Creates a time signature change.
    public init(beat: Double, numerator: Int, denominator: Int) {
      self.beat = beat
      self.numerator = numerator
      self.denominator = denominator
    }

    /// The bar's length in quarter notes.
    public var barLength: Double { Double(numerator) * 4 / Double(denominator) }
  }

  /// A key signature from a beat on: sharps (positive) or flats (negative) and the mode.
  public struct KeySignature: Sendable, Hashable, Codable {
    /// The beat where the key starts.
    public var beat: Double
    /// Sharps (1...7) or flats (−1...−7).
    public var sharps: Int
    /// `true` for a minor key.
    public var minor: Bool

    /// Creates a key signature change.
    public init(beat: Double, sharps: Int, minor: Bool) {
      self.beat = beat
      self.sharps = sharps
      self.minor = minor
    }
  }

  /// Creates a composition.
  ///
  /// - Parameters:
  ///   - name: The title.
  ///   - tempo: Quarter notes per minute from the start.
  ///   - length: The length in beats; by default the end of the last event.
  ///   - events: The events.
  public init(name: String = "", tempo: Double = 120, length: Double? = nil, events: [CompositionEvent] = []) {
    self.name = name
    self.tempos = [Tempo(beat: 0, bpm: tempo)]
    self.events = events
    self.length = length ?? CompositionEvent.end(of: events)
    self.ppq = nil
    self.timeSignatures = []
    self.keySignatures = []
  }

  /// The tempo at beat 0, in quarter notes per minute (the seed format's `tempo`).
  public var tempo: Double {
    get { tempos.first?.bpm ?? 120 }
    set {
      if tempos.isEmpty || tempos[0].beat > 0 {
        tempos.insert(Tempo(beat: 0, bpm: newValue), at: 0)
      } else {
        tempos[0].bpm = newValue
      }
    }
  }

  /// Beats ⇄ seconds through ``tempos``.
  public var tempoMap: TempoMap { TempoMap(beatTempos: tempos.map { ($0.beat, $0.bpm) }) }

  /// The events with sequences expanded and chords split into notes, sorted by time (then by
  /// type, channel and number, so that the order is canonical).
  ///
  /// - Complexity: O(n log n) in the expanded count, which repeats multiply.
  public var flattenedEvents: [CompositionEvent] {
    var out: [CompositionEvent] = []
    Self.flatten(events, offset: 0, into: &out)
    return out.sorted(by: Self.canonicalOrder)
  }

  /// The events sorted by ``canonicalOrder`` without expanding anything.
  public var sortedEvents: [CompositionEvent] { events.sorted(by: Self.canonicalOrder) }

  /// Every note, chords and sequences expanded, sorted by time, channel and number.
  public var notes: [CompositionNote] {
    flattenedEvents.compactMap { event in
      guard case .note(let time, let number, let velocity, let duration, let channel) = event else { return nil }
      return CompositionNote(time: time, number: number, velocity: velocity, duration: duration, channel: channel)
    }
  }

  private static func flatten(_ events: [CompositionEvent], offset: Double, into out: inout [CompositionEvent]) {
    for event in events {
      switch event {
      case .chord(let time, let numbers, let velocity, let duration, let channel):
        for number in numbers {
          out.append(.note(time: time + offset, number: number, velocity: velocity, duration: duration, channel: channel))
        }
      case .sequence(let time, let inner, let repeats, let length):
        let step = length ?? CompositionEvent.end(of: inner)
        for repetition in 0..<max(repeats, 1) {
          flatten(inner, offset: offset + time + Double(repetition) * step, into: &out)
        }
      default:
        out.append(event.shifted(by: offset))
      }
    }
  }

  /// The canonical order: time, then parameters, controls, pitch bends, notes, chords and
  /// sequences, then channel, then the first number.
  public static func canonicalOrder(_ a: CompositionEvent, _ b: CompositionEvent) -> Bool {
    func key(_ e: CompositionEvent) -> (Double, Int, Int, Int, Double) {
      switch e {
      case .param(let t, let p, let v, let c): return (t, 0, c, p == .program ? 0 : 1, Double(v))
      case .control(let t, let k, let v, let c): return (t, 1, c, k, Double(v))
      case .pitch(let t, let v, let c): return (t, 2, c, 0, Double(v))
      case .note(let t, let n, _, let d, let c): return (t, 3, c, n, d)
      case .chord(let t, let n, _, let d, let c): return (t, 4, c, n.first ?? 0, d)
      case .sequence(let t, let inner, _, _): return (t, 5, 0, inner.count, 0)
      }
    }
    return key(a) < key(b)
  }
}

/// A note of a composition after chords and sequences are expanded.
public struct CompositionNote: Sendable, Hashable, Codable {
  /// The start in beats.
  public var time: Double
  /// The MIDI note number, 0–127.
  public var number: Int
  /// The velocity, 0–127.
  public var velocity: Int
  /// The length in beats.
  public var duration: Double
  /// The channel, 0–15.
  public var channel: Int

  /// Creates a note.
  public init(time: Double, number: Int, velocity: Int = 127, duration: Double, channel: Int = 0) {
    self.time = time
    self.number = number
    self.velocity = velocity
    self.duration = duration
    self.channel = channel
  }

  /// The end in beats.
  public var end: Double { time + duration }
}
