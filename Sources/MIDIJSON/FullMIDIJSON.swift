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
    /// Ticks per quarter note (for SMPTE files, ticks per second).
    public var ppq: Int
    /// The SMF format, 0, 1 or 2.
    public var format: Int
    public var tempos: [Tempo]
    public var timeSignatures: [TimeSignature]
    public var keySignatures: [KeySignature]
    /// Text meta events of every track (`text`, `copyright`, `lyrics`, `marker`, …).
    public var meta: [Meta]
  }

  /// A tempo change.
  public struct Tempo: Sendable, Hashable, Codable {
    public var ticks: Int
    public var bpm: Double
    public var time: Double
  }

  /// A time signature change; `measures` counts the bars before it.
  public struct TimeSignature: Sendable, Hashable, Codable {
    public var ticks: Int
    public var timeSignature: [Int]
    public var measures: Double
  }

  /// A key signature change: `key` such as `Eb`, `scale` `major` or `minor`.
  public struct KeySignature: Sendable, Hashable, Codable {
    public var ticks: Int
    public var key: String
    public var scale: String
  }

  /// A text meta event.
  public struct Meta: Sendable, Hashable, Codable {
    public var ticks: Int
    public var track: Int
    public var type: String
    public var text: String
  }

  /// One track.
  public struct Track: Sendable, Hashable, Codable {
    public var name: String
    /// The channel of the track's first channel message (0–15).
    public var channel: Int
    public var instrument: Instrument
    public var notes: [Note]
    /// Control changes by controller number (as a string key, as in @tonejs/midi).
    public var controlChanges: [String: [ControlChange]]
    public var pitchBends: [PitchBend]
    /// The tick of the end-of-track event.
    public var endOfTrackTicks: Int
  }

  /// The track's General MIDI instrument (its first program change, or 0).
  public struct Instrument: Sendable, Hashable, Codable {
    public var number: Int
    public var name: String
    public var family: String
  }

  /// A note.
  public struct Note: Sendable, Hashable, Codable {
    public var midi: Int
    /// The name in scientific pitch notation, such as `C#4`.
    public var name: String
    public var channel: Int
    public var ticks: Int
    public var time: Double
    public var durationTicks: Int
    public var duration: Double
    /// 1–127.
    public var velocity: Int
    /// 0–127.
    public var releaseVelocity: Int
  }

  /// A control change.
  public struct ControlChange: Sendable, Hashable, Codable {
    public var number: Int
    public var ticks: Int
    public var time: Double
    public var value: Int
    public var channel: Int
  }

  /// A pitch bend, −8192…8191.
  public struct PitchBend: Sendable, Hashable, Codable {
    public var ticks: Int
    public var time: Double
    public var value: Int
    public var channel: Int
  }

  /// Builds the document of a MIDI file.
  ///
  /// - Parameters:
  ///   - file: The file.
  ///   - pairing: How overlapping notes of one pitch pair (first in, first out by default).
  public init(_ file: MIDIFile, pairing: NotePairing = .firstInFirstOut) {
    let map = TempoMap(file)
    let ppq: Int
    switch file.division {
    case .ticksPerQuarter(let value): ppq = value
    case .smpte(let fps, let ticksPerFrame): ppq = fps * ticksPerFrame
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
          let key = Key(Self.majorTonic(sharps: Int(sharps)), .major)
          let tonic = minor ? key.relative.tonic : key.tonic
          keySignatures.append(KeySignature(ticks: timed.tick, key: tonic.description, scale: minor ? "minor" : "major"))
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
      let barTicks = Double(ppq * 4 * previous.timeSignature[0]) / Double(previous.timeSignature[1])
      measures += Double(timeSignatures[i].ticks - previous.ticks) / barTicks
      timeSignatures[i].measures = measures
    }
    header = Header(
      name: file.tracks.first?.name ?? "", ppq: ppq, format: file.format,
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

  /// The major key with `sharps` sharps (negative: flats), clamped to ±7.
  static func majorTonic(sharps: Int) -> NoteName {
    let circle = ["Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#"]
    return NoteName(circle[max(-7, min(7, sharps)) + 7])!
  }
}
