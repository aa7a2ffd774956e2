extension Composition {
  /// The composition of a MIDI file: its notes, control changes, pitch bends, program changes and
  /// channel pressure, tempo changes, time and key signatures, in beats.
  ///
  /// Times are `tick / ppq` and ``ppq`` is set, so ``MIDIFile/init(_:)`` gives back the same
  /// ticks. SMPTE-timed files count as 60 BPM (a beat is a second) and get no `ppq`. Notes never
  /// released last to the end of their track. What compact JSON has no place for is left out:
  /// system-exclusive and text events (but the first track's name), polyphonic key pressure,
  /// the track layout (events are grouped by channel when written back). ``FullMIDIJSON`` keeps
  /// more.
  ///
  /// - Parameters:
  ///   - file: The MIDI file.
  ///   - name: The title; by default the first track's name.
  ///   - pairing: How overlapping notes of one pitch pair.
  public init(_ file: MIDIFile, name: String? = nil, pairing: NotePairing = .firstInFirstOut) {
    let map = TempoMap(file)
    let ppq = file.ticksPerQuarter
    let unitsPerBeat = map.unitsPerQuarter
    func beat(_ tick: Int) -> Double { Double(tick) / unitsPerBeat }
    self.init(name: name ?? file.tracks.first?.name ?? "")
    self.ppq = ppq
    if ppq == nil {
      tempos = [Tempo(beat: 0, bpm: 60)]
    } else {
      tempos = map.tempos.map { Tempo(beat: beat($0.tick), bpm: 60_000_000 / Double($0.microsecondsPerQuarter)) }
    }
    var events: [CompositionEvent] = []
    var endTick = 0
    for track in file.tracks {
      endTick = max(endTick, track.endTick)
      for timed in track.events {
        let time = beat(timed.tick)
        switch timed.event {
        case .controlChange(let c, let controller, let value):
          events.append(.control(time: time, controller: Int(controller), value: Int(value), channel: Int(c)))
        case .pitchBend(let c, let value):
          events.append(.pitch(time: time, bend: Int(value) - 8192, channel: Int(c)))
        case .programChange(let c, let program):
          events.append(.param(time: time, parameter: .program, value: Int(program), channel: Int(c)))
        case .channelPressure(let c, let pressure):
          events.append(.param(time: time, parameter: .pressure, value: Int(pressure), channel: Int(c)))
        case .meta(.timeSignature(let numerator, let power, _, _)) where power <= 7 && numerator > 0:
          timeSignatures.append(TimeSignature(beat: time, numerator: Int(numerator), denominator: 1 << Int(power)))
        case .meta(.keySignature(let sharps, let minor)) where (-7...7).contains(sharps):
          keySignatures.append(KeySignature(beat: time, sharps: Int(sharps), minor: minor))
        default:
          break
        }
      }
    }
    let paired = file.notes(pairing: pairing)
    for note in paired.notes + paired.unreleased {
      events.append(
        .note(
          time: beat(note.ticks), number: note.midi, velocity: note.velocity, duration: beat(note.durationTicks),
          channel: note.channel))
    }
    self.events = events.sorted(by: Self.canonicalOrder)
    timeSignatures = Self.lastPerBeat(timeSignatures.sorted { $0.beat < $1.beat }, \.beat)
    keySignatures = Self.lastPerBeat(keySignatures.sorted { $0.beat < $1.beat }, \.beat)
    length = max(beat(endTick), CompositionEvent.end(of: self.events))
  }

  /// Keeps the last of several entries at the same beat (a later event overrides).
  private static func lastPerBeat<T>(_ sorted: [T], _ beat: (T) -> Double) -> [T] {
    var out: [T] = []
    for item in sorted {
      if let last = out.last, beat(last) == beat(item) { out.removeLast() }
      out.append(item)
    }
    return out
  }
}

extension MIDIFile {
  /// The ticks per quarter note used when a composition has no ``Composition/ppq``.
  public static let defaultTicksPerQuarter = 960

  /// A format 1 MIDI file of a composition.
  ///
  /// The first track holds the name, tempos and signatures; each channel used gets a track of its
  /// own, in channel order (and more when notes of one pitch overlap in a way first-in-first-out
  /// pairing would misread: a note that starts while a same-pitch note is held and ends before
  /// it goes to another track of its channel). Times become ticks at the composition's ``Composition/ppq`` (or
  /// ``defaultTicksPerQuarter``), each note's start and end rounded to the nearest tick.
  /// Sequences and chords are expanded. Events sharing a tick are ordered so that a reader
  /// pairing notes first-in-first-out gets every note back. A note of velocity 0 is written
  /// with velocity 1 (a note-on of velocity 0 would be a note-off).
  ///
  /// - Parameter composition: The composition.
  public init(_ composition: Composition) {
    let ppq = composition.ppq ?? Self.defaultTicksPerQuarter
    func tick(_ beat: Double) -> Int {
      let scaled = (beat * Double(ppq)).rounded()
      return scaled.isFinite ? Int(max(0, min(scaled, Double(0x0FFF_FFFF)))) : 0
    }
    func byte(_ value: Int) -> UInt8 { UInt8(max(0, min(127, value))) }
    var channels: [UInt8: ChannelTracks] = [:]
    var lastTick = tick(composition.length)
    for event in composition.flattenedEvents {
      let start = tick(event.time)
      lastTick = max(lastTick, start)
      switch event {
      case .note(_, let number, let velocity, let duration, let channel):
        let end = tick(event.time + duration)
        lastTick = max(lastTick, end)
        channels[UInt8(max(0, min(15, channel))), default: ChannelTracks()].addNote(
          channel: channel, note: number, velocity: velocity, start: start, end: end)
      case .control(_, let controller, let value, let channel):
        let c = UInt8(max(0, min(15, channel)))
        channels[c, default: ChannelTracks()].tracks[0].add(
          .controlChange(channel: c, controller: byte(controller), value: byte(value)), at: start)
      case .pitch(_, let bend, let channel):
        let c = UInt8(max(0, min(15, channel)))
        channels[c, default: ChannelTracks()].tracks[0].add(
          .pitchBend(channel: c, value: UInt16(max(0, min(bend + 8192, 16383)))), at: start)
      case .param(_, let parameter, let value, let channel):
        let c = UInt8(max(0, min(15, channel)))
        channels[c, default: ChannelTracks()].tracks[0].add(
          parameter == .program ? .programChange(channel: c, program: byte(value)) : .channelPressure(channel: c, pressure: byte(value)),
          at: start)
      case .chord, .sequence:
        break  // Expanded by flattenedEvents.
      }
    }

    var conductor = TrackBuilder()
    if !composition.name.isEmpty {
      conductor.add(.text(.trackName, Array(composition.name.utf8)), at: 0)
    }
    for signature in composition.timeSignatures {
      conductor.add(
        .timeSignature(
          numerator: UInt8(max(1, min(255, signature.numerator))),
          denominatorPower: UInt8(max(0, min(7, signature.denominator.trailingZeroBitCount))), clocksPerClick: 24,
          thirtySecondsPerQuarter: 8),
        at: tick(signature.beat))
      lastTick = max(lastTick, tick(signature.beat))
    }
    for key in composition.keySignatures {
      conductor.add(.keySignature(sharps: Int8(max(-7, min(7, key.sharps))), minor: key.minor), at: tick(key.beat))
      lastTick = max(lastTick, tick(key.beat))
    }
    for tempo in composition.tempos where tempo.bpm > 0 && tempo.bpm.isFinite {
      let microseconds = Int((60_000_000 / tempo.bpm).rounded())
      conductor.add(.tempo(microsecondsPerQuarter: max(1, min(microseconds, 0xFF_FFFF))), at: tick(tempo.beat))
      lastTick = max(lastTick, tick(tempo.beat))
    }
    var tracks = [conductor.track(endTick: lastTick)]
    for channel in channels.keys.sorted() {
      tracks += channels[channel]!.tracks.map { $0.track(endTick: lastTick) }
    }
    self.init(format: 1, division: .ticksPerQuarter(ppq), tracks: tracks)
  }
}

/// The tracks of one channel when a composition becomes a MIDI file: notes go to the first track
/// where first-in-first-out pairing reads them back as they are.
private struct ChannelTracks {
  var tracks = [TrackBuilder()]
  /// Per track, the latest end tick of each pitch's notes so far.
  private var latestEnds: [[Int: Int]] = [[:]]

  /// Adds a note (notes arrive in start order, shorter first at equal starts).
  mutating func addNote(channel: Int, note: Int, velocity: Int, start: Int, end: Int) {
    // A note sounding at `start` that ends after `end` would be released by this note's
    // note-off under first-in-first-out pairing: such a note needs another track.
    var index = latestEnds.firstIndex { ($0[note] ?? Int.min) <= end } ?? tracks.count
    if index == tracks.count {
      tracks.append(TrackBuilder())
      latestEnds.append([:])
      index = tracks.count - 1
    }
    tracks[index].addNote(channel: channel, note: note, velocity: velocity, start: start, end: end)
    latestEnds[index][note] = max(latestEnds[index][note] ?? Int.min, end)
  }
}
