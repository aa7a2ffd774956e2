import Foundation

extension MIDIFile {
  /// Reads a Standard MIDI File (formats 0, 1, 2; PPQ or SMPTE time; also inside a RIFF RMID wrapper).
  ///
  /// Lenient by default, because real files break the rules: running status carried across meta
  /// and sysex events, unknown chunks, a track count that disagrees with the chunks present,
  /// truncated chunks (what parsed is kept), trailing bytes, data bytes above 127 (clamped),
  /// system bytes F1–FE inside a track (skipped). Each repair adds a ``MIDIWarning``. With
  /// ``MIDIReadOptions/strict`` each of these throws instead. Every loop consumes input, so no
  /// input makes the reader hang, and no length field makes it allocate beyond the data's size.
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - options: Strict or lenient.
  /// - Throws: ``MIDIJSONError`` when the data is not MIDI, or breaks a rule in strict mode.
  public init(data: Data, options: MIDIReadOptions = .init()) throws(MIDIJSONError) {
    var reader = SMFReader(bytes: [UInt8](data), strict: options.strict)
    self = try reader.read()
  }
}

/// The Standard MIDI File parser behind ``MIDIFile/init(data:options:)``.
struct SMFReader {
  let bytes: [UInt8]
  let strict: Bool
  var warnings: [MIDIWarning] = []

  init(bytes: [UInt8], strict: Bool) {
    self.bytes = bytes
    self.strict = strict
  }

  /// Records a repair, or throws it in strict mode.
  mutating func repair(_ message: String, offset: Int, track: Int? = nil) throws(MIDIJSONError) {
    if strict {
      if let track { throw .invalidEvent(offset: offset, track: track, reason: message) }
      throw .invalidHeader(offset: offset, reason: message)
    }
    warnings.append(MIDIWarning(offset: offset, track: track, message: message))
  }

  func fourCC(_ at: Int) -> String {
    guard at + 4 <= bytes.count else { return "" }
    return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
  }

  func uint16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
  func uint32(_ at: Int) -> Int { uint16(at) << 16 | uint16(at + 2) }

  mutating func read() throws(MIDIJSONError) -> MIDIFile {
    var start = 0
    var end = bytes.count
    if fourCC(0) == "RIFF" {
      (start, end) = try findRMIDData()
    }
    guard end - start >= 4, fourCC(start) == "MThd" else {
      let shown = bytes[start..<min(end, start + 4)].map { b in
        (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
      }.joined()
      throw .notMIDI(found: shown.isEmpty ? "an empty file" : "\"\(shown)\"")
    }
    guard end - start >= 14 else {
      throw .truncated(offset: start, needed: 14, available: end - start, context: "MThd chunk")
    }
    let headerLength = uint32(start + 4)
    guard headerLength >= 6 else {
      throw .invalidHeader(offset: start + 4, reason: "MThd length \(headerLength), expected 6")
    }
    let format = uint16(start + 8)
    let declaredTracks = uint16(start + 10)
    let divisionWord = uint16(start + 12)
    guard format <= 2 else {
      throw .invalidHeader(offset: start + 8, reason: "format \(format), expected 0, 1 or 2")
    }
    let division: MIDIFile.Division
    if divisionWord & 0x8000 != 0 {
      let fps = 256 - (divisionWord >> 8)
      let ticksPerFrame = divisionWord & 0xFF
      guard [24, 25, 29, 30].contains(fps), ticksPerFrame > 0 else {
        throw .invalidHeader(offset: start + 12, reason: "SMPTE division \(fps) fps × \(ticksPerFrame) ticks")
      }
      division = .smpte(framesPerSecond: fps, ticksPerFrame: ticksPerFrame)
    } else {
      guard divisionWord > 0 else { throw .invalidHeader(offset: start + 12, reason: "0 ticks per quarter note") }
      division = .ticksPerQuarter(divisionWord)
    }
    if headerLength > 6 {
      try repair("MThd is \(headerLength) bytes long; the \(headerLength - 6) extra bytes are ignored", offset: start + 4)
    }

    var tracks: [MIDITrack] = []
    var offset = start + 8 + min(headerLength, end - start - 8)
    while offset < end {
      guard end - offset >= 8 else {
        try repair("\(end - offset) trailing bytes after the last chunk are ignored", offset: offset)
        break
      }
      let id = fourCC(offset)
      let length = uint32(offset + 4)
      let bodyStart = offset + 8
      let available = end - bodyStart
      if id == "MTrk" {
        if length > available {
          try repair(
            "track chunk promises \(length) bytes, \(available) available; reading what is there",
            offset: offset + 4, track: tracks.count)
        }
        let body = bodyStart..<(bodyStart + min(length, available))
        tracks.append(try readTrack(body, index: tracks.count))
      } else if id.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        try repair("unknown chunk \"\(id)\" of \(length) bytes skipped", offset: offset)
      } else {
        try repair("\(end - offset) bytes that are not a chunk ignored", offset: offset)
        break
      }
      offset = bodyStart + min(length, available)
    }
    if tracks.count != declaredTracks {
      try repair("the header declares \(declaredTracks) tracks, the file has \(tracks.count)", offset: start + 10)
    }
    if format == 0 && tracks.count > 1 {
      try repair("format 0 with \(tracks.count) tracks", offset: start + 8)
    }
    var file = MIDIFile(format: format, division: division, tracks: tracks)
    file.warnings = warnings
    return file
  }

  /// Finds the `data` chunk of a RIFF RMID file; returns its body's range.
  mutating func findRMIDData() throws(MIDIJSONError) -> (Int, Int) {
    guard bytes.count >= 12, fourCC(8) == "RMID" else {
      throw .notMIDI(found: "a RIFF file that is not RMID")
    }
    var offset = 12
    while offset + 8 <= bytes.count {
      let id = fourCC(offset)
      // RIFF sizes are little-endian.
      let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
      if id == "data" { return (offset + 8, min(bytes.count, offset + 8 + length)) }
      offset += 8 + length + (length & 1)
    }
    throw .notMIDI(found: "a RIFF RMID file without a data chunk")
  }

  /// Reads a variable-length quantity at `offset` (at most 4 bytes) within `limit`.
  func readVLQ(_ offset: inout Int, limit: Int) -> Int? {
    var value = 0
    for _ in 0..<4 {
      guard offset < limit else { return nil }
      let byte = bytes[offset]
      offset += 1
      value = value << 7 | Int(byte & 0x7F)
      if byte & 0x80 == 0 { return value }
    }
    return nil
  }

  mutating func readTrack(_ range: Range<Int>, index track: Int) throws(MIDIJSONError) -> MIDITrack {
    var events: [MIDITimedEvent] = []
    var offset = range.lowerBound
    let limit = range.upperBound
    var tick = 0
    var runningStatus: UInt8?
    var runningStatusFromBeforeMeta = false
    var ended = false
    while offset < limit {
      let eventStart = offset
      guard let delta = readVLQ(&offset, limit: limit) else {
        try repair("delta time runs past the end of the track or exceeds 4 bytes", offset: eventStart, track: track)
        break
      }
      tick += delta
      guard offset < limit else {
        try repair("track ends after a delta time, before its event", offset: eventStart, track: track)
        break
      }
      let statusOffset = offset
      var status = bytes[offset]
      if status >= 0x80 {
        offset += 1
      } else {
        guard let running = runningStatus else {
          try repair("data byte 0x\(String(status, radix: 16)) without a status byte skipped", offset: offset, track: track)
          offset += 1
          continue
        }
        if runningStatusFromBeforeMeta {
          try repair("running status continued after a meta or sysex event", offset: offset, track: track)
          runningStatusFromBeforeMeta = false
        }
        status = running
      }

      switch status {
      case 0xFF:
        guard offset < limit else {
          try repair("meta event cut off by the end of the track", offset: statusOffset, track: track)
          offset = limit
          continue
        }
        let type = bytes[offset]
        offset += 1
        let lengthOffset = offset
        guard let length = readVLQ(&offset, limit: limit) else {
          try repair("meta event length runs past the end of the track", offset: lengthOffset, track: track)
          offset = limit
          continue
        }
        let dataEnd = min(limit, offset + length)
        if offset + length > limit {
          try repair("meta event of \(length) bytes cut off by the end of the track", offset: statusOffset, track: track)
        }
        let data = Array(bytes[offset..<dataEnd])
        offset = dataEnd
        events.append(MIDITimedEvent(tick: tick, .meta(decodeMeta(type: type, data: data))))
        if runningStatus != nil { runningStatusFromBeforeMeta = true }
        if type == 0x2F {
          ended = true
        }
      case 0xF0, 0xF7:
        let lengthOffset = offset
        guard let length = readVLQ(&offset, limit: limit) else {
          try repair("sysex length runs past the end of the track", offset: lengthOffset, track: track)
          offset = limit
          continue
        }
        let dataEnd = min(limit, offset + length)
        if offset + length > limit {
          try repair("sysex of \(length) bytes cut off by the end of the track", offset: statusOffset, track: track)
        }
        let data = Array(bytes[offset..<dataEnd])
        offset = dataEnd
        events.append(MIDITimedEvent(tick: tick, status == 0xF0 ? .sysex(data) : .sysexEscape(data)))
        if runningStatus != nil { runningStatusFromBeforeMeta = true }
      case 0xF1...0xFE:
        // System common and real-time messages do not belong in a file; skip them and their data.
        let dataCount = status == 0xF2 ? 2 : (status == 0xF1 || status == 0xF3) ? 1 : 0
        var skipped = 0
        while skipped < dataCount, offset < limit, bytes[offset] < 0x80 {
          offset += 1
          skipped += 1
        }
        try repair("system message 0x\(String(status, radix: 16, uppercase: true)) inside a track skipped", offset: statusOffset, track: track)
      default:
        runningStatus = status
        runningStatusFromBeforeMeta = false
        let dataCount = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 1 : 2
        var data: [UInt8] = [0, 0]
        var complete = true
        for i in 0..<dataCount {
          guard offset < limit else {
            complete = false
            break
          }
          var byte = bytes[offset]
          if byte >= 0x80 {
            try repair("data byte 0x\(String(byte, radix: 16)) above 127 clamped", offset: offset, track: track)
            byte &= 0x7F
          }
          data[i] = byte
          offset += 1
        }
        guard complete else {
          try repair("channel message cut off by the end of the track", offset: statusOffset, track: track)
          break
        }
        events.append(MIDITimedEvent(tick: tick, decodeChannel(status: status, data[0], data[1])))
      }
      if ended { break }
    }
    if !ended {
      try repair("track has no end-of-track event", offset: limit, track: track)
    } else if offset < limit {
      try repair("\(limit - offset) bytes after end of track ignored", offset: offset, track: track)
    }
    return MIDITrack(events: events)
  }

  func decodeChannel(status: UInt8, _ a: UInt8, _ b: UInt8) -> MIDIEvent {
    let channel = status & 0x0F
    switch status & 0xF0 {
    case 0x80: return .noteOff(channel: channel, note: a, velocity: b)
    case 0x90: return .noteOn(channel: channel, note: a, velocity: b)
    case 0xA0: return .polyphonicPressure(channel: channel, note: a, pressure: b)
    case 0xB0: return .controlChange(channel: channel, controller: a, value: b)
    case 0xC0: return .programChange(channel: channel, program: a)
    case 0xD0: return .channelPressure(channel: channel, pressure: a)
    default: return .pitchBend(channel: channel, value: UInt16(a) | UInt16(b) << 7)
    }
  }

  func decodeMeta(type: UInt8, data: [UInt8]) -> MetaEvent {
    switch (type, data.count) {
    case (0x00, 2): return .sequenceNumber(UInt16(data[0]) << 8 | UInt16(data[1]))
    case (0x01...0x0F, _): return .text(MetaEvent.TextKind(rawValue: type)!, data)
    case (0x20, 1): return .channelPrefix(data[0])
    case (0x21, 1): return .port(data[0])
    case (0x2F, 0): return .endOfTrack
    case (0x51, 3): return .tempo(microsecondsPerQuarter: Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2]))
    case (0x54, 5):
      return .smpteOffset(hours: data[0], minutes: data[1], seconds: data[2], frames: data[3], subframes: data[4])
    case (0x58, 4):
      return .timeSignature(numerator: data[0], denominatorPower: data[1], clocksPerClick: data[2], thirtySecondsPerQuarter: data[3])
    case (0x59, 2): return .keySignature(sharps: Int8(bitPattern: data[0]), minor: data[1] != 0)
    case (0x7F, _): return .sequencerSpecific(data)
    default: return .unknown(type: type, data: data)
    }
  }
}
