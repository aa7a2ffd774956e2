/// Builds a MIDI track from events given in any order, ordering those that share a tick so
/// that a reader pairing notes first-in-first-out gets every note back.
///
/// Within a tick: meta events, then note-offs of notes that started earlier, then leading channel
/// messages (a track's program), then other channel messages, then note-ons (shortest note first), then the note-offs of zero-length notes.
/// Events of one slot keep the order they were added in.
struct TrackBuilder {
  private enum Slot: Int {
    case meta, noteOff, leadingChannelMessage, channelMessage, noteOn, zeroLengthNoteOff
  }

  private var items: [(tick: Int, slot: Slot, key: Int, event: MIDIEvent)] = []

  /// Adds a meta event.
  mutating func add(_ meta: MetaEvent, at tick: Int) {
    items.append((max(0, tick), .meta, 0, .meta(meta)))
  }

  /// Adds a channel message other than a note; a `leading` one goes before the others of its tick.
  mutating func add(_ event: MIDIEvent, at tick: Int, leading: Bool = false) {
    items.append((max(0, tick), leading ? .leadingChannelMessage : .channelMessage, 0, event))
  }

  /// Adds a note as a note-on and a note-off; values are clamped to their MIDI ranges (a
  /// velocity to 1...127, since a note-on of velocity 0 would be a note-off).
  mutating func addNote(channel: Int, note: Int, velocity: Int, releaseVelocity: Int = 0, start: Int, end: Int) {
    let c = UInt8(max(0, min(15, channel)))
    let n = UInt8(max(0, min(127, note)))
    let start = max(0, start)
    let end = max(start, end)
    items.append((start, .noteOn, end - start, .noteOn(channel: c, note: n, velocity: UInt8(max(1, min(127, velocity))))))
    items.append(
      (end, end == start ? .zeroLengthNoteOff : .noteOff, 0,
       .noteOff(channel: c, note: n, velocity: UInt8(max(0, min(127, releaseVelocity))))))
  }

  /// The track, ending at `endTick` or at its last event, whichever is later.
  func track(endTick: Int = 0) -> MIDITrack {
    let sorted = items.enumerated().sorted {
      ($0.element.tick, $0.element.slot.rawValue, $0.element.key, $0.offset)
        < ($1.element.tick, $1.element.slot.rawValue, $1.element.key, $1.offset)
    }
    var events = sorted.map { MIDITimedEvent(tick: $0.element.tick, $0.element.event) }
    events.append(MIDITimedEvent(tick: max(endTick, events.last?.tick ?? 0), .meta(.endOfTrack)))
    return MIDITrack(events: events)
  }
}
