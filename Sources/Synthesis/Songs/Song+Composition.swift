import MIDIJSON

extension Song {
  /// The notes of a MIDI JSON composition, timed through its tempo map.
  ///
  /// Each note plays with the program its channel last received (`param` `"program"` events; 0,
  /// Acoustic Grand Piano, before any). A sustain pedal (control 64 at 64 or more) holds the notes
  /// released under it until the pedal lifts. Pitch bends, volume and expression controls are not
  /// applied: a ``NoteEvent`` has one pitch and one velocity.
  ///
  /// - Parameter composition: The composition; its sequences are expanded and chords split.
  public init(_ composition: Composition) {
    let tempo = composition.tempoMap
    let events = composition.flattenedEvents
    var programs = [Int](repeating: 0, count: 16)
    // Pedal-down intervals per channel, in beats: [(down, up)].
    var pedal = [[(down: Double, up: Double)]](repeating: [], count: 16)
    var pedalDown = [Double?](repeating: nil, count: 16)
    for event in events {
      guard case .control(let time, 64, let value, let channel) = event, (0..<16).contains(channel) else {
        continue
      }
      if value >= 64, pedalDown[channel] == nil {
        pedalDown[channel] = time
      } else if value < 64, let down = pedalDown[channel] {
        pedal[channel].append((down, time))
        pedalDown[channel] = nil
      }
    }
    for channel in 0..<16 {
      if let down = pedalDown[channel] { pedal[channel].append((down, .infinity)) }
    }
    var notes: [NoteEvent] = []
    for event in events {
      switch event {
      case .param(_, .program, let value, let channel) where (0..<16).contains(channel):
        programs[channel] = min(127, max(0, value))
      case .note(let time, let number, let velocity, let duration, let channel)
      where (0..<16).contains(channel):
        var end = time + max(0, duration)
        // Released while the pedal is down: sounds until the pedal lifts.
        if let held = pedal[channel].first(where: { $0.down <= end && end < $0.up }) {
          end = held.up.isFinite ? held.up : max(end, composition.length)
        }
        let start = tempo.seconds(atBeat: time)
        notes.append(
          NoteEvent(
            startSeconds: start, durationSeconds: tempo.seconds(atBeat: end) - start,
            pitch: Double(number), velocity: min(127, velocity), channel: channel,
            program: programs[channel]))
      default:
        break
      }
    }
    self.init(name: composition.name, notes: notes)
  }

  /// The notes of a Standard MIDI File, as ``init(_:)-(Composition)`` reads its composition
  /// (programs, sustain pedal, the file's tempo map).
  ///
  /// - Parameter file: The MIDI file; notes are paired first in, first out.
  public init(_ file: MIDIFile) {
    self.init(Composition(file))
  }
}
