/// One event of a Standard MIDI File track: a channel message, a system-exclusive packet or a
/// meta event. Values are kept exactly as stored, so writing them back loses nothing.
public enum MIDIEvent: Sendable, Hashable {
  /// Note off (status 0x8n): channel 0–15, note 0–127, release velocity 0–127.
  case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
  /// Note on (0x9n). Velocity 0 means note off, as the standard says.
  case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
  /// Polyphonic key pressure (0xAn).
  case polyphonicPressure(channel: UInt8, note: UInt8, pressure: UInt8)
  /// Control change (0xBn): controller 0–127, value 0–127.
  case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
  /// Program change (0xCn): program 0–127 (General MIDI instrument number − 1).
  case programChange(channel: UInt8, program: UInt8)
  /// Channel pressure (0xDn).
  case channelPressure(channel: UInt8, pressure: UInt8)
  /// Pitch bend (0xEn): 0–16383, 8192 = centre.
  case pitchBend(channel: UInt8, value: UInt16)
  /// A system-exclusive message (F0): the bytes after F0, including the closing F7 when present.
  case sysex([UInt8])
  /// An escaped packet (F7): arbitrary bytes sent as they are (sysex continuations and the like).
  case sysexEscape([UInt8])
  /// A meta event (FF).
  case meta(MetaEvent)

  /// The channel of a channel message, `nil` for sysex and meta events.
  public var channel: UInt8? {
    switch self {
    case .noteOff(let c, _, _), .noteOn(let c, _, _), .polyphonicPressure(let c, _, _),
      .controlChange(let c, _, _), .programChange(let c, _), .channelPressure(let c, _),
      .pitchBend(let c, _):
      return c
    case .sysex, .sysexEscape, .meta:
      return nil
    }
  }
}

/// A meta event (status FF) of a Standard MIDI File.
public enum MetaEvent: Sendable, Hashable {
  /// Sequence number (type 00).
  case sequenceNumber(UInt16)
  /// One of the text events (types 01–0F), with its bytes as stored (usually ASCII, UTF-8 or Latin-1).
  case text(TextKind, [UInt8])
  /// MIDI channel prefix (20).
  case channelPrefix(UInt8)
  /// MIDI port (21).
  case port(UInt8)
  /// End of track (2F).
  case endOfTrack
  /// Set tempo (51): microseconds per quarter note (500000 = 120 BPM).
  case tempo(microsecondsPerQuarter: Int)
  /// SMPTE offset (54): hours byte (with frame-rate bits), minutes, seconds, frames, hundredths of a frame.
  case smpteOffset(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, subframes: UInt8)
  /// Time signature (58): numerator, denominator as a power of two, MIDI clocks per metronome
  /// click, 32nd notes per quarter note.
  case timeSignature(numerator: UInt8, denominatorPower: UInt8, clocksPerClick: UInt8, thirtySecondsPerQuarter: UInt8)
  /// Key signature (59): sharps (positive) or flats (negative), and whether minor.
  case keySignature(sharps: Int8, minor: Bool)
  /// Sequencer-specific data (7F).
  case sequencerSpecific([UInt8])
  /// Any other meta event, or a known type with a malformed length, kept raw.
  case unknown(type: UInt8, data: [UInt8])

  /// The kinds of text meta event.
  public enum TextKind: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case text = 0x01, copyright = 0x02, trackName = 0x03, instrumentName = 0x04, lyric = 0x05
    case marker = 0x06, cuePoint = 0x07, programName = 0x08, deviceName = 0x09
    case text0A = 0x0A, text0B = 0x0B, text0C = 0x0C, text0D = 0x0D, text0E = 0x0E, text0F = 0x0F

    /// A lower-camel-case name such as `trackName`, as used in JSON.
    public var name: String {
      switch self {
      case .text: "text"
      case .copyright: "copyright"
      case .trackName: "trackName"
      case .instrumentName: "instrumentName"
      case .lyric: "lyrics"
      case .marker: "marker"
      case .cuePoint: "cuePoint"
      case .programName: "programName"
      case .deviceName: "deviceName"
      default: "text\(String(rawValue, radix: 16, uppercase: true))"
      }
    }
  }

  /// The tempo in quarter notes per minute, for a tempo event.
  public var beatsPerMinute: Double? {
    if case .tempo(let microseconds) = self, microseconds > 0 { return 60_000_000 / Double(microseconds) }
    return nil
  }
}

extension MetaEvent {
  /// Decodes text bytes as UTF-8 when they are valid UTF-8, else as ISO Latin-1 (never fails).
  public static func string(from bytes: [UInt8]) -> String {
    if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
    return String(bytes.map { Character(Unicode.Scalar($0)) })
  }
}
