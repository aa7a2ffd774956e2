import Foundation
import ScoreModel

extension FullMIDIJSON {
  /// Reads a full MIDI JSON document.
  ///
  /// - Parameter data: UTF-8 JSON text, as ``json()`` writes it.
  /// - Throws: ``MIDIJSONError/malformedJSON(line:column:reason:)`` for text that is not JSON,
  ///   ``MIDIJSONError/invalidJSON(path:reason:)`` for a member missing or of the wrong type,
  ///   with its path, such as `tracks[2].notes[7].midi`.
  public init(json data: Data) throws(MIDIJSONError) {
    // Parse once with the strict parser for exact syntax-error positions, then decode the shape.
    let root = try JSONValue.parse([UInt8](data))
    guard case .object = root else { throw .invalidJSON(path: "", reason: "expected an object, found \(root.kind)") }
    do {
      self = try JSONDecoder().decode(FullMIDIJSON.self, from: data)
    } catch let error as DecodingError {
      throw Self.describe(error)
    } catch {
      throw .invalidJSON(path: "", reason: "\(error)")
    }
  }

  /// The document as JSON text (keys sorted, so that equal documents give equal bytes).
  public func json() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(self)
    } catch {
      // Every member is a finite number, a string, an integer or a container of them.
      preconditionFailure("FullMIDIJSON failed to encode: \(error)")
    }
  }

  /// A decoding error as a path and a reason.
  static func describe(_ error: DecodingError) -> MIDIJSONError {
    switch error {
    case .keyNotFound(let key, let context):
      return .invalidJSON(path: context.codingPath.jsonPath, reason: "missing member \"\(key.stringValue)\"")
    case .typeMismatch(let type, let context):
      return .invalidJSON(path: context.codingPath.jsonPath, reason: "expected \(type)")
    case .valueNotFound(let type, let context):
      return .invalidJSON(path: context.codingPath.jsonPath, reason: "expected \(type), found null")
    case .dataCorrupted(let context):
      return .invalidJSON(path: context.codingPath.jsonPath, reason: context.debugDescription)
    @unknown default:
      return .invalidJSON(path: "", reason: "\(error)")
    }
  }
}

extension MIDIFile {
  /// The MIDI file of a full MIDI JSON document.
  ///
  /// Ticks are authoritative (the `time` and `duration` seconds are derived, and ignored here).
  /// Tempos, time and key signatures go in the first track; text events in the track they name;
  /// each track gets its name, a program change at tick 0 when its instrument is not 0 (or
  /// when one is needed so that the track's first channel message is on the track's channel),
  /// its notes, control changes and pitch bends. Reading the result gives back the same
  /// document, except that notes the source never released now end with a note-off.
  ///
  /// - Parameter document: The document.
  /// - Throws: ``MIDIJSONError/invalidJSON(path:reason:)`` for values out of range, such as a
  ///   note number of 128 or an unknown meta event type.
  public init(_ document: FullMIDIJSON) throws(MIDIJSONError) {
    let header = document.header
    guard (0...2).contains(header.format) else {
      throw .invalidJSON(path: "header.format", reason: "expected 0, 1 or 2, found \(header.format)")
    }
    let division: Division
    if let smpte = header.smpte {
      guard [24, 25, 29, 30].contains(smpte.framesPerSecond), (1...255).contains(smpte.ticksPerFrame) else {
        throw .invalidJSON(path: "header.smpte", reason: "expected 24, 25, 29 or 30 frames per second and 1...255 ticks per frame")
      }
      division = .smpte(framesPerSecond: smpte.framesPerSecond, ticksPerFrame: smpte.ticksPerFrame)
    } else {
      guard (1...0x7FFF).contains(header.ppq) else {
        throw .invalidJSON(path: "header.ppq", reason: "expected 1...32767 ticks per quarter note, found \(header.ppq)")
      }
      division = .ticksPerQuarter(header.ppq)
    }
    func check(_ value: Int, _ range: ClosedRange<Int>, _ path: @autoclosure () -> String) throws(MIDIJSONError) -> Int {
      guard range.contains(value) else {
        throw .invalidJSON(path: path(), reason: "expected \(range.lowerBound)...\(range.upperBound), found \(value)")
      }
      return value
    }
    // Absolute ticks of real files can exceed one delta's maximum (2^28 − 1); Int32 is plenty.
    let tickRange = 0...Int(Int32.max)
    var builders = document.tracks.map { _ in TrackBuilder() }
    if builders.isEmpty { builders.append(TrackBuilder()) }

    if !header.name.isEmpty { builders[0].add(.text(.trackName, Array(header.name.utf8)), at: 0) }
    for (i, tempo) in header.tempos.enumerated() {
      guard tempo.bpm > 0, tempo.bpm.isFinite else {
        throw .invalidJSON(path: "header.tempos[\(i)].bpm", reason: "expected a positive tempo, found \(tempo.bpm)")
      }
      let microseconds = max(1, min(Int((60_000_000 / tempo.bpm).rounded()), 0xFF_FFFF))
      builders[0].add(.tempo(microsecondsPerQuarter: microseconds), at: try check(tempo.ticks, tickRange, "header.tempos[\(i)].ticks"))
    }
    for (i, signature) in header.timeSignatures.enumerated() {
      let path = "header.timeSignatures[\(i)]"
      guard signature.timeSignature.count == 2, signature.timeSignature[1] > 0,
        signature.timeSignature[1].nonzeroBitCount == 1, (1...255).contains(signature.timeSignature[0])
      else { throw .invalidJSON(path: path + ".timeSignature", reason: "expected [numerator, power-of-two denominator]") }
      builders[0].add(
        .timeSignature(
          numerator: UInt8(signature.timeSignature[0]), denominatorPower: UInt8(signature.timeSignature[1].trailingZeroBitCount),
          clocksPerClick: 24, thirtySecondsPerQuarter: 8),
        at: try check(signature.ticks, tickRange, path + ".ticks"))
    }
    for (i, signature) in header.keySignatures.enumerated() {
      let path = "header.keySignatures[\(i)]"
      guard signature.scale == "major" || signature.scale == "minor" else {
        throw .invalidJSON(path: path + ".scale", reason: "expected major or minor, found \"\(signature.scale)\"")
      }
      let minor = signature.scale == "minor"
      guard let sharps = (-7...7).first(where: { Key(signature: $0, minor: minor)?.tonic.description == signature.key }) else {
        throw .invalidJSON(path: path + ".key", reason: "expected a key with at most 7 sharps or flats, such as Eb, found \"\(signature.key)\"")
      }
      builders[0].add(.keySignature(sharps: Int8(sharps), minor: minor), at: try check(signature.ticks, tickRange, path + ".ticks"))
    }
    var named = Set<Int>()
    for (i, meta) in header.meta.enumerated() {
      let path = "header.meta[\(i)]"
      let track = try check(meta.track, 0...(builders.count - 1), path + ".track")
      guard let kind = MetaEvent.TextKind.allCases.first(where: { $0.name == meta.type }) else {
        throw .invalidJSON(path: path + ".type", reason: "unknown text event type \"\(meta.type)\"")
      }
      if kind == .trackName { named.insert(track) }
      builders[track].add(.text(kind, Array(meta.text.utf8)), at: try check(meta.ticks, tickRange, path + ".ticks"))
    }

    for (index, track) in document.tracks.enumerated() {
      let path = "tracks[\(index)]"
      if index > 0, !named.contains(index), !track.name.isEmpty {
        builders[index].add(.text(.trackName, Array(track.name.utf8)), at: 0)
      }
      let channel = try check(track.channel, 0...15, path + ".channel")
      let program = try check(track.instrument.number, 0...127, path + ".instrument.number")
      var firstChannelMessage: (tick: Int, channel: Int)?
      func noteFirst(_ tick: Int, _ c: Int) {
        if firstChannelMessage.map({ tick < $0.tick }) ?? true { firstChannelMessage = (tick, c) }
      }
      for (i, note) in track.notes.enumerated() {
        let notePath = "\(path).notes[\(i)]"
        let start = try check(note.ticks, tickRange, notePath + ".ticks")
        let length = try check(note.durationTicks, tickRange, notePath + ".durationTicks")
        builders[index].addNote(
          channel: try check(note.channel, 0...15, notePath + ".channel"), note: try check(note.midi, 0...127, notePath + ".midi"),
          velocity: try check(note.velocity, 1...127, notePath + ".velocity"),
          releaseVelocity: try check(note.releaseVelocity, 0...127, notePath + ".releaseVelocity"), start: start,
          end: start + length)
        noteFirst(start, note.channel)
      }
      for (key, changes) in track.controlChanges.sorted(by: { $0.key < $1.key }) {
        for (i, change) in changes.enumerated() {
          let changePath = "\(path).controlChanges.\(key)[\(i)]"
          let c = try check(change.channel, 0...15, changePath + ".channel")
          let tick = try check(change.ticks, tickRange, changePath + ".ticks")
          builders[index].add(
            .controlChange(
              channel: UInt8(c), controller: UInt8(try check(change.number, 0...127, changePath + ".number")),
              value: UInt8(try check(change.value, 0...127, changePath + ".value"))),
            at: tick)
          noteFirst(tick, c)
        }
      }
      for (i, bend) in track.pitchBends.enumerated() {
        let bendPath = "\(path).pitchBends[\(i)]"
        let c = try check(bend.channel, 0...15, bendPath + ".channel")
        let tick = try check(bend.ticks, tickRange, bendPath + ".ticks")
        let value = try check(bend.value, -8192...8191, bendPath + ".value")
        builders[index].add(.pitchBend(channel: UInt8(c), value: UInt16(value + 8192)), at: tick)
        noteFirst(tick, c)
      }
      // At tick 0, before every other channel message: the instrument, and the track's channel.
      if program != 0 || (firstChannelMessage?.channel ?? 0) != channel {
        builders[index].add(.programChange(channel: UInt8(channel), program: UInt8(program)), at: 0, leading: true)
      }
    }
    let tracks = builders.enumerated().map { index, builder in
      builder.track(endTick: index < document.tracks.count ? max(0, document.tracks[index].endOfTrackTicks) : 0)
    }
    self.init(format: header.format, division: division, tracks: tracks)
  }
}

extension MIDIFile {
  /// The MIDI file of a MIDI JSON document in either form, told apart by its members: compact
  /// MIDI JSON has `events` (see ``Composition``), full MIDI JSON has `header` and `tracks` (see
  /// ``FullMIDIJSON``).
  ///
  /// - Parameter data: UTF-8 JSON text.
  /// - Throws: ``MIDIJSONError`` naming the line and column of a syntax error or the path of a
  ///   value that does not fit.
  public init(json data: Data) throws(MIDIJSONError) {
    let root = try JSONValue.parse([UInt8](data))
    if root["events"] != nil {
      self.init(try Composition(json: data))
    } else if root["header"] != nil, root["tracks"] != nil {
      try self.init(try FullMIDIJSON(json: data))
    } else {
      throw .invalidJSON(
        path: "",
        reason: "expected compact MIDI JSON (an object with \"events\") or full MIDI JSON (with \"header\" and \"tracks\")")
    }
  }
}
