import ScoreModel

extension Composition {
  /// The composition's notes as score notes, for grading a performance of it or drawing it.
  ///
  /// Each channel becomes a part (`P1` for channel 0, `P2` for channel 1, …). Onsets and
  /// durations become exact fractions of a quarter note on a grid of ``ppq`` (or
  /// ``MIDIFile/defaultTicksPerQuarter``) ticks, each note's end rounded separately so that
  /// adjacent notes stay adjacent; seconds come from the tempo map; measures from the time
  /// signatures (4/4 when there are none), counting from 1; spellings from the key signature in
  /// force.
  ///
  /// - Returns: The notes sorted by onset, part and pitch.
  public func scoreNotes() -> [ScoreNote] {
    let grid = ppq ?? MIDIFile.defaultTicksPerQuarter
    let map = tempoMap
    let bars = BarCounter(timeSignatures)
    return notes.map { note in
      let onset = Rational(approximating: note.time, denominator: grid) ?? .zero
      let end = Rational(approximating: note.end, denominator: grid) ?? onset
      let pitch = MIDINote(note.number)
      let key = keySignatures.last { $0.beat <= note.time }.flatMap { Key(signature: $0.sharps, minor: $0.minor) }
      let start = map.seconds(atBeat: note.time)
      return ScoreNote(
        part: "P\(note.channel + 1)", measure: bars.measure(atBeat: note.time), onset: onset, duration: end - onset,
        onsetSeconds: start, durationSeconds: map.seconds(atBeat: note.end) - start, writtenPitch: pitch,
        spelling: pitch.map { SpelledNote(midi: $0, in: key ?? .cMajor) }, velocity: note.velocity)
    }.sorted { ($0.onset, $0.part, $0.soundingPitch?.rawValue ?? -1) < ($1.onset, $1.part, $1.soundingPitch?.rawValue ?? -1) }
  }

  /// A composition of score notes, to play a score or store it as MIDI JSON.
  ///
  /// Rests and grace notes are left out. Sounding pitches are used. Each part gets a channel in
  /// order of first appearance (0, 1, …, skipping channel 9, which General MIDI keeps for
  /// drums). A note without a velocity gets 90 (MusicXML's default forte). When every onset and
  /// duration lies on the ``MIDIFile/defaultTicksPerQuarter`` grid, ``ppq`` is set to it, so the
  /// composition converts to MIDI without rounding. Without `tempos`, the tempo is derived from
  /// the notes' seconds (each change between note onsets becomes a tempo change), or 120 BPM.
  ///
  /// - Parameters:
  ///   - scoreNotes: The notes.
  ///   - name: The title.
  ///   - tempos: Tempo changes; by default derived from the notes.
  public init(scoreNotes: [ScoreNote], name: String = "", tempos: [Tempo]? = nil) {
    let sounding = scoreNotes.filter { !$0.isRest && !$0.isGrace }.sorted { $0.onset < $1.onset }
    var channels: [String: Int] = [:]
    var events: [CompositionEvent] = []
    for note in sounding {
      guard let pitch = note.soundingPitch else { continue }
      let channel: Int
      if let known = channels[note.part] {
        channel = known
      } else {
        channel = min(15, channels.count < 9 ? channels.count : channels.count + 1)
        channels[note.part] = channel
      }
      events.append(
        .note(
          time: note.onset.doubleValue, number: pitch.rawValue, velocity: max(0, min(127, note.velocity ?? 90)),
          duration: note.duration.doubleValue, channel: channel))
    }
    self.init(name: name, events: events)
    self.tempos = tempos.flatMap { $0.isEmpty ? nil : $0.sorted { $0.beat < $1.beat } } ?? Self.derivedTempos(sounding)
    if self.tempos[0].beat > 0 { self.tempos.insert(Tempo(beat: 0, bpm: 120), at: 0) }
    let grid = MIDIFile.defaultTicksPerQuarter
    if sounding.allSatisfy({ grid % $0.onset.denominator == 0 && grid % $0.duration.denominator == 0 }) {
      ppq = grid
    }
  }

  /// Tempo changes read off notes' onsets in quarters and seconds.
  private static func derivedTempos(_ notes: [ScoreNote]) -> [Tempo] {
    var tempos: [Tempo] = []
    var previous: ScoreNote?
    for note in notes {
      defer { previous = note }
      guard let last = previous, note.onset > last.onset, note.onsetSeconds > last.onsetSeconds else { continue }
      let bpm = 60 * (note.onset - last.onset).doubleValue / (note.onsetSeconds - last.onsetSeconds)
      let rounded = (bpm * 1e6).rounded() / 1e6
      if let current = tempos.last, abs(current.bpm - rounded) <= current.bpm * 1e-6 { continue }
      tempos.append(Tempo(beat: tempos.isEmpty ? 0 : last.onset.doubleValue, bpm: rounded))
    }
    return tempos.isEmpty ? [Tempo(beat: 0, bpm: 120)] : tempos
  }
}

/// Measure numbers from time signatures in beats.
struct BarCounter {
  /// (beat where the signature starts, bar number there, bar length in beats).
  private var spans: [(beat: Double, bar: Int, length: Double)] = []

  init(_ signatures: [Composition.TimeSignature]) {
    var beat = 0.0
    var bar = 1
    var length = 4.0
    for signature in signatures.sorted(by: { $0.beat < $1.beat }) where signature.barLength > 0 {
      // A change in mid-bar starts a new bar there.
      bar += Int(((signature.beat - beat) / length).rounded(.up))
      if signature.beat == 0 { bar = 1 }
      beat = signature.beat
      length = signature.barLength
      spans.append((beat, bar, length))
    }
    if spans.first?.beat != 0 { spans.insert((0, 1, 4), at: 0) }
  }

  /// The measure number (from 1) of a beat.
  func measure(atBeat beat: Double) -> Int {
    let span = spans.last { $0.beat <= beat } ?? spans[0]
    return span.bar + Int(((beat - span.beat) / span.length + 1e-9).rounded(.down))
  }
}
