import Foundation

extension MIDIFile {
  /// Encodes the file as Standard MIDI File bytes.
  ///
  /// Every event is written with its own status byte (no running status), with the shortest
  /// variable-length quantities, and each track ends with exactly one end-of-track event (added
  /// when missing). Reading the result gives back the same events, with one exception the
  /// format imposes: a delta time holds at most 2^28 − 1 ticks, so two events further apart (only
  /// repaired files have such gaps) are written that far apart.
  ///
  /// - Returns: The file's bytes.
  public func encoded() -> Data {
    var out: [UInt8] = Array("MThd".utf8)
    out.appendUInt32(6)
    out.appendUInt16(format)
    out.appendUInt16(tracks.count)
    switch division {
    case .ticksPerQuarter(let ppq):
      out.appendUInt16(ppq & 0x7FFF)
    case .smpte(let fps, let ticksPerFrame):
      out.append(UInt8(truncatingIfNeeded: 256 - fps))
      out.append(UInt8(truncatingIfNeeded: ticksPerFrame))
    }
    for track in tracks {
      var body: [UInt8] = []
      var lastTick = 0
      var ended = false
      for timed in track.events {
        guard !ended else { break }
        body.appendVLQ(max(0, timed.tick - lastTick))
        lastTick = max(lastTick, timed.tick)
        body += Self.encode(timed.event)
        if case .meta(.endOfTrack) = timed.event { ended = true }
      }
      if !ended {
        body.appendVLQ(0)
        body += [0xFF, 0x2F, 0x00]
      }
      out += Array("MTrk".utf8)
      out.appendUInt32(body.count)
      out += body
    }
    return Data(out)
  }

  /// Writes the file to `url` atomically (a temporary file renamed into place).
  ///
  /// - Throws: ``MIDIJSONError/io(path:message:)`` when it cannot be written.
  public func write(to url: URL) throws(MIDIJSONError) {
    do {
      try encoded().write(to: url, options: .atomic)
    } catch {
      throw .io(path: url.path, message: "cannot write: \(error.localizedDescription)")
    }
  }

  static func encode(_ event: MIDIEvent) -> [UInt8] {
    switch event {
    case .noteOff(let c, let n, let v): return [0x80 | c & 0x0F, n & 0x7F, v & 0x7F]
    case .noteOn(let c, let n, let v): return [0x90 | c & 0x0F, n & 0x7F, v & 0x7F]
    case .polyphonicPressure(let c, let n, let p): return [0xA0 | c & 0x0F, n & 0x7F, p & 0x7F]
    case .controlChange(let c, let k, let v): return [0xB0 | c & 0x0F, k & 0x7F, v & 0x7F]
    case .programChange(let c, let p): return [0xC0 | c & 0x0F, p & 0x7F]
    case .channelPressure(let c, let p): return [0xD0 | c & 0x0F, p & 0x7F]
    case .pitchBend(let c, let v): return [0xE0 | c & 0x0F, UInt8(v & 0x7F), UInt8((v >> 7) & 0x7F)]
    case .sysex(let data): return [0xF0] + vlq(data.count) + data
    case .sysexEscape(let data): return [0xF7] + vlq(data.count) + data
    case .meta(let meta):
      let (type, data) = encode(meta)
      return [0xFF, type] + vlq(data.count) + data
    }
  }

  static func encode(_ meta: MetaEvent) -> (UInt8, [UInt8]) {
    switch meta {
    case .sequenceNumber(let n): return (0x00, [UInt8(n >> 8), UInt8(n & 0xFF)])
    case .text(let kind, let bytes): return (kind.rawValue, bytes)
    case .channelPrefix(let c): return (0x20, [c])
    case .port(let p): return (0x21, [p])
    case .endOfTrack: return (0x2F, [])
    case .tempo(let us):
      let v = max(0, min(us, 0xFF_FFFF))
      return (0x51, [UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)])
    case .smpteOffset(let h, let m, let s, let f, let sf): return (0x54, [h, m, s, f, sf])
    case .timeSignature(let n, let d, let c, let b): return (0x58, [n, d, c, b])
    case .keySignature(let sharps, let minor): return (0x59, [UInt8(bitPattern: sharps), minor ? 1 : 0])
    case .sequencerSpecific(let data): return (0x7F, data)
    case .unknown(let type, let data): return (type, data)
    }
  }

  static func vlq(_ value: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.appendVLQ(value)
    return out
  }
}

extension [UInt8] {
  mutating func appendUInt16(_ v: Int) {
    append(UInt8((v >> 8) & 0xFF))
    append(UInt8(v & 0xFF))
  }

  mutating func appendUInt32(_ v: Int) {
    appendUInt16((v >> 16) & 0xFFFF)
    appendUInt16(v & 0xFFFF)
  }

  /// Appends a MIDI variable-length quantity (values above 0x0FFFFFFF are clamped to it).
  mutating func appendVLQ(_ value: Int) {
    let v = Swift.max(0, Swift.min(value, 0x0FFF_FFFF))
    var groups: [UInt8] = [UInt8(v & 0x7F)]
    var rest = v >> 7
    while rest > 0 {
      groups.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    append(contentsOf: groups.reversed())
  }
}
