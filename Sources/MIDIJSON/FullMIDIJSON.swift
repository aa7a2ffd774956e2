import ScoreModel

/// The full MIDI JSON document: a header and one entry per track, with the field names of
/// @tonejs/midi's JSON where the concept is the same.
///
/// Differences from @tonejs/midi, each chosen to lose nothing: velocities are MIDI's integers
/// 0–127 (not 0–1); control-change values are integers 0–127; pitch bends are integers
/// −8192…8191 (0 = centre); notes carry their channel and release velocity. Times are seconds
/// through the file's tempo map; ticks are the file's own.
public struct FullMIDIJSON: Sendable, Hashable, Codable {
  /// File-wide information.
  public var header: Header
  /// The tracks, in file order.
  public var tracks: [Track]

  /// File-wide information: name, time base, tempo, meter, key and text events.
  public struct Header: Sendable, Hashable, Codable {
    /// The first track's name (the song title by convention), or empty.
    public var name: String
    /// Ticks per quarter note (for SMPTE files, ticks per second rounded: see ``smpte``).
    public var ppq: Int
    /// The SMF format, 0, 1 or 2.
    public var format: Int
    /// For SMPTE-timed files, the frame rate (24, 25, 29 = 29.97 drop-frame, 30) and ticks per
    /// frame; absent for files timed in ticks per quarter note.
    public var smpte: SMPTE?
    /// Tempo changes of every track, in order; the first is at tick 0 (120 BPM when the file
    /// has no tempo event there).
    public var tempos: [Tempo]
    /// Time signature changes, in order.
    public var timeSignatures: [TimeSignature]
    /// Key signature changes, in order.
    public var keySignatures: [KeySignature]
    /// Text meta events of every track (`text`, `copyright`, `lyrics`, `marker`, …), but the
    /// first track's name, which is ``name``.
    public var meta: [Meta]
  }

  /// An SMPTE time base.
  public struct SMPTE: Sendable, Hashable, Codable {
    /// 24, 25, 29 (29.97 drop-frame) or 30.
    public var framesPerSecond: Int
    /// Ticks per frame.
    public var ticksPerFrame: Int
  }

  /// A tempo change.
  public struct Tempo: Sendable, Hashable, Codable {
    /// Where it starts, in ticks.
    public var ticks: Int
    /// Quarter notes per minute.
    public var bpm: Double
    /// Where it starts, in seconds.
    public var time: Double
  }

  /// A time signature change.
  public struct TimeSignature: Sendable, Hashable, Codable {
    /// Where it starts, in ticks.
    public var ticks: Int
    /// Numerator and denominator, such as `[6, 8]`.
    public var timeSignature: [Int]
    /// Bars before it (fractional when a change falls in mid-bar).
    public var measures: Double
  }

  /// A key signature change.
  public struct KeySignature: Sendable, Hashable, Codable {
    /// Where it starts, in ticks.
    public var ticks: Int
    /// The tonic, such as `Eb` or `F#`.
    public var key: String
    /// `major` or `minor`.
    public var scale: String
  }

  /// A text meta event.
  public struct Meta: Sendable, Hashable, Codable {
    /// Where it is, in ticks.
    public var ticks: Int
    /// The index of its track.
    public var track: Int
    /// `text`, `copyright`, `trackName`, `instrumentName`, `lyrics`, `marker`, `cuePoint`,
    /// `programName`, `deviceName`, or `text0A`…`text0F`.
    public var type: String
    /// The text (UTF-8 when the bytes are, else read as Latin-1).
    public var text: String
  }

  /// One track.
  public struct Track: Sendable, Hashable, Codable {
    /// The track's name (its first track-name event), or empty.
    public var name: String
    /// The channel of the track's first channel message (0–15; 0 when it has none).
    public var channel: Int
    /// The track's instrument.
    public var instrument: Instrument
    /// The notes, sorted by tick and pitch.
    public var notes: [Note]
    /// Control changes by controller number (as a string key, as in @tonejs/midi).
    public var controlChanges: [String: [ControlChange]]
    /// Pitch bends, in order.
    public var pitchBends: [PitchBend]
    /// The tick of the end-of-track event.
    public var endOfTrackTicks: Int
  }

  /// The track's General MIDI instrument (its first program change, or 0).
  public struct Instrument: Sendable, Hashable, Codable {
    /// The program number, 0–127.
    public var number: Int
    /// The General MIDI name, such as `trumpet`.
    public var name: String
    /// The General MIDI family, such as `brass`, or `drums` on channel 9.
    public var family: String
  }

  /// A note.
  public struct Note: Sendable, Hashable, Codable {
    /// The MIDI note number, 0–127.
    public var midi: Int
    /// The name in scientific pitch notation, such as `C#4`.
    public var name: String
    /// The channel, 0–15.
    public var channel: Int
    /// The start, in ticks.
    public var ticks: Int
    /// The start, in seconds.
    public var time: Double
    /// The length, in ticks.
    public var durationTicks: Int
    /// The length, in seconds.
    public var duration: Double
    /// The note-on velocity, 1–127.
    public var velocity: Int
    /// The note-off velocity, 0–127 (64 for a note-on of velocity 0; 0 for a note never released).
    public var releaseVelocity: Int
  }

  /// A control change.
  public struct ControlChange: Sendable, Hashable, Codable {
    /// The controller, 0–127.
    public var number: Int
    /// Where it is, in ticks.
    public var ticks: Int
    /// Where it is, in seconds.
    public var time: Double
    /// The value, 0–127.
    public var value: Int
    /// The channel, 0–15.
    public var channel: Int
  }

  /// A pitch bend.
  public struct PitchBend: Sendable, Hashable, Codable {
    /// Where it is, in ticks.
    public var ticks: Int
    /// Where it is, in seconds.
    public var time: Double
    /// The bend, −8192…8191 (0 = centre).
    public var value: Int
    /// The channel, 0–15.
    public var channel: Int
  }

  /// Builds the document of a MIDI file.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - pairing: How overlapping notes of one pitch pair (first in, first out by default).
  public init(_ file: MIDIFile, pairing: NotePairing = .firstInFirstOut) {
    let map = TempoMap(file)
    let ppq = Int(map.unitsPerQuarter.rounded())
    var smpte: SMPTE?
    if case .smpte(let fps, let ticksPerFrame) = file.division {
      smpte = SMPTE(framesPerSecond: fps, ticksPerFrame: ticksPerFrame)
    }
    let time = { (tick: Int) in map.seconds(atTick: tick) }
    var timeSignatures: [TimeSignature] = []
    var keySignatures: [KeySignature] = []
    var meta: [Meta] = []
    for (index, track) in file.tracks.enumerated() {
      for timed in track.events {
        guard case .meta(let event) = timed.event else { continue }
        switch event {
        case .timeSignature(let numerator, let power, _, _):
          timeSignatures.append(
            TimeSignature(ticks: timed.tick, timeSignature: [Int(numerator), 1 << Int(min(power, 30))], measures: 0))
        case .keySignature(let sharps, let minor):
          // Signatures beyond ±7 (never written by real software) are clamped.
          let key = Key(signature: max(-7, min(7, Int(sharps))), minor: minor) ?? .cMajor
          keySignatures.append(KeySignature(ticks: timed.tick, key: key.tonic.description, scale: minor ? "minor" : "major"))
        case .text(let kind, let bytes) where kind != .trackName || index > 0:
          meta.append(Meta(ticks: timed.tick, track: index, type: kind.name, text: MetaEvent.string(from: bytes)))
        default:
          break
        }
      }
    }
    timeSignatures.sort { $0.ticks < $1.ticks }
    // Bars before each change: ticks since the previous change over the previous bar length.
    var measures = 0.0
    for i in timeSignatures.indices where i > 0 {
      let previous = timeSignatures[i - 1]
      let barTicks = map.unitsPerQuarter * 4 * Double(previous.timeSignature[0]) / Double(previous.timeSignature[1])
      if barTicks > 0 { measures += Double(timeSignatures[i].ticks - previous.ticks) / barTicks }
      timeSignatures[i].measures = measures
    }
    header = Header(
      name: file.tracks.first?.name ?? "", ppq: ppq, format: file.format, smpte: smpte,
      tempos: map.tempos.map { Tempo(ticks: $0.tick, bpm: 60_000_000 / Double($0.microsecondsPerQuarter), time: time($0.tick)) },
      timeSignatures: timeSignatures, keySignatures: keySignatures.sorted { $0.ticks < $1.ticks }, meta: meta)

    let paired = file.notes(pairing: pairing)
    let allNotes = paired.notes + paired.unreleased
    tracks = file.tracks.enumerated().map { index, track in
      var channel: Int?
      var program: Int?
      var controlChanges: [String: [ControlChange]] = [:]
      var pitchBends: [PitchBend] = []
      for timed in track.events {
        if channel == nil, let c = timed.event.channel { channel = Int(c) }
        switch timed.event {
        case .programChange(_, let p) where program == nil:
          program = Int(p)
        case .controlChange(let c, let number, let value):
          controlChanges[String(number), default: []].append(
            ControlChange(number: Int(number), ticks: timed.tick, time: time(timed.tick), value: Int(value), channel: Int(c)))
        case .pitchBend(let c, let value):
          pitchBends.append(PitchBend(ticks: timed.tick, time: time(timed.tick), value: Int(value) - 8192, channel: Int(c)))
        default:
          break
        }
      }
      let number = program ?? 0
      let notes = allNotes.filter { $0.track == index }.sorted { ($0.ticks, $0.midi) < ($1.ticks, $1.midi) }.map { note in
        let start = time(note.ticks)
        return Note(
          midi: note.midi, name: SpelledNote(midi: MIDINote(note.midi)!).description, channel: note.channel,
          ticks: note.ticks, time: start, durationTicks: note.durationTicks,
          duration: time(note.ticks + note.durationTicks) - start, velocity: note.velocity,
          releaseVelocity: note.releaseVelocity)
      }
      return Track(
        name: track.name ?? "", channel: channel ?? 0,
        instrument: Instrument(
          number: number, name: GeneralMIDI.programNames[number],
          family: GeneralMIDI.family(program: number, channel: channel ?? 0)),
        notes: notes, controlChanges: controlChanges, pitchBends: pitchBends, endOfTrackTicks: track.endTick)
    }
  }
}
