import Foundation

/// A Standard MIDI File: format, time division and tracks of timed events.
///
/// Read one with ``init(data:options:)`` (which also collects ``warnings`` about anything it had
/// to repair), write one with ``encoded()``. Events keep their absolute tick; ``TempoMap``
/// converts ticks to seconds and ``notes(pairing:)`` pairs note-ons with note-offs.
public struct MIDIFile: Sendable, Hashable {
  /// 0 (one track), 1 (simultaneous tracks) or 2 (independent sequences).
  public var format: Int
  /// How ticks relate to time.
  public var division: Division
  /// The tracks, in file order.
  public var tracks: [MIDITrack]
  /// What a lenient read repaired or skipped (empty for clean files and for files built in code).
  public var warnings: [MIDIWarning] = []

  /// The time base of a MIDI file.
  public enum Division: Sendable, Hashable {
    /// Ticks per quarter note (pulses per quarter, PPQ).
    case ticksPerQuarter(Int)
    /// SMPTE: frames per second (24, 25, 29 = 29.97 drop-frame, 30) and ticks per frame.
    case smpte(framesPerSecond: Int, ticksPerFrame: Int)
  }

  /// Creates a file.
  ///
  /// - Parameters:
  ///   - format: 0, 1 or 2.
  ///   - division: The time base.
  ///   - tracks: The tracks.
  public init(format: Int = 1, division: Division = .ticksPerQuarter(480), tracks: [MIDITrack] = []) {
    self.format = format
    self.division = division
    self.tracks = tracks
  }

  /// Ticks per quarter note, or `nil` for SMPTE time.
  public var ticksPerQuarter: Int? {
    if case .ticksPerQuarter(let ppq) = division { return ppq }
    return nil
  }

  /// Reads the file at `url`.
  ///
  /// - Throws: ``MIDIJSONError`` when the file cannot be read or is not MIDI.
  public init(url: URL, options: MIDIReadOptions = .init()) throws(MIDIJSONError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .io(path: url.path, message: FileManager.default.fileExists(atPath: url.path) ? "cannot read: \(error.localizedDescription)" : "no such file")
    }
    try self.init(data: data, options: options)
  }
}

/// One track: events in time order, each at an absolute tick.
public struct MIDITrack: Sendable, Hashable {
  /// The events, in file order (ticks never decrease).
  public var events: [MIDITimedEvent]

  /// Creates a track.
  public init(events: [MIDITimedEvent] = []) { self.events = events }

  /// The tick of the end-of-track event (or of the last event when there is none).
  public var endTick: Int { events.last?.tick ?? 0 }

  /// The first track-name meta event's text.
  public var name: String? {
    for event in events {
      if case .meta(.text(.trackName, let bytes)) = event.event { return MetaEvent.string(from: bytes) }
    }
    return nil
  }
}

/// An event at an absolute tick.
public struct MIDITimedEvent: Sendable, Hashable {
  /// Ticks from the start of the track.
  public var tick: Int
  /// The event.
  public var event: MIDIEvent

  /// Creates a timed event.
  public init(tick: Int, _ event: MIDIEvent) {
    self.tick = tick
    self.event = event
  }
}

/// How strictly to read MIDI files.
public struct MIDIReadOptions: Sendable, Hashable {
  /// Reject what the standard forbids instead of repairing it with a warning: running status
  /// after a meta or sysex event, data bytes above 127, system messages inside a track,
  /// truncated chunks, trailing bytes.
  public var strict: Bool

  /// Creates options; lenient by default.
  public init(strict: Bool = false) { self.strict = strict }
}
