/// One event of a ``Composition``, as one array of compact MIDI JSON.
///
/// Times and durations are in beats (quarter notes) from the start of the composition, or from
/// the start of the enclosing sequence for events inside a ``sequence(time:events:repeats:length:)``.
/// The arrays, with optional trailing elements in brackets:
///
/// | event | JSON array |
/// |---|---|
/// | note | `[time, "note", number, velocity, duration(, channel)]` |
/// | chord | `[time, "chord", [number, …], velocity, duration(, channel)]` |
/// | control change | `[time, "control", controller, value(, channel)]` |
/// | pitch bend | `[time, "pitch", bend(, channel)]`, bend −8192…8191, 0 = centre |
/// | parameter | `[time, "param", name, value(, channel)]`, name `"program"` or `"pressure"` |
/// | sequence | `[time, "sequence", [event, …](, repeats(, length))]` |
///
/// Note numbers, velocities, controllers, values, programs and pressures are 0–127; channels 0–15
/// (0 when omitted).
public enum CompositionEvent: Sendable, Hashable {
  /// A note: MIDI number 0–127, velocity 0–127, duration in beats.
  case note(time: Double, number: Int, velocity: Int, duration: Double, channel: Int = 0)
  /// Several notes that start and end together (a tapped chord).
  case chord(time: Double, numbers: [Int], velocity: Int, duration: Double, channel: Int = 0)
  /// A control change: controller 0–127, value 0–127.
  case control(time: Double, controller: Int, value: Int, channel: Int = 0)
  /// A pitch bend, −8192…8191 (0 = no bend).
  case pitch(time: Double, bend: Int, channel: Int = 0)
  /// A channel parameter: a program change or channel pressure.
  case param(time: Double, parameter: Parameter, value: Int, channel: Int = 0)
  /// Events whose times count from `time`, played `repeats` times, each `length` beats after the
  /// previous (by default the end of its last event).
  case sequence(time: Double, events: [CompositionEvent], repeats: Int = 1, length: Double? = nil)

  /// The parameters of `param` events.
  public enum Parameter: String, Sendable, Hashable, CaseIterable, Codable {
    /// A program change (General MIDI instrument number − 1), 0–127.
    case program
    /// Channel pressure (aftertouch), 0–127.
    case pressure
  }

  /// The event's type name in JSON: `note`, `chord`, `control`, `pitch`, `param` or `sequence`.
  public var type: String {
    switch self {
    case .note: "note"
    case .chord: "chord"
    case .control: "control"
    case .pitch: "pitch"
    case .param: "param"
    case .sequence: "sequence"
    }
  }

  /// The start in beats.
  public var time: Double {
    switch self {
    case .note(let time, _, _, _, _), .chord(let time, _, _, _, _), .control(let time, _, _, _),
      .pitch(let time, _, _), .param(let time, _, _, _), .sequence(let time, _, _, _):
      return time
    }
  }

  /// The end in beats: the start plus the duration of a note or chord, the end of the last
  /// repetition of a sequence, the start of anything else.
  public var end: Double {
    switch self {
    case .note(let time, _, _, let duration, _), .chord(let time, _, _, let duration, _):
      return time + duration
    case .sequence(let time, let events, let repeats, let length):
      let inner = length ?? Self.end(of: events)
      let last = events.isEmpty ? 0 : Self.end(of: events)
      return time + inner * Double(max(repeats, 1) - 1) + last
    default:
      return time
    }
  }

  /// The latest end among `events` (0 when empty).
  static func end(of events: [CompositionEvent]) -> Double {
    events.reduce(0) { max($0, $1.end) }
  }

  /// The event moved by `offset` beats.
  func shifted(by offset: Double) -> CompositionEvent {
    switch self {
    case .note(let time, let number, let velocity, let duration, let channel):
      return .note(time: time + offset, number: number, velocity: velocity, duration: duration, channel: channel)
    case .chord(let time, let numbers, let velocity, let duration, let channel):
      return .chord(time: time + offset, numbers: numbers, velocity: velocity, duration: duration, channel: channel)
    case .control(let time, let controller, let value, let channel):
      return .control(time: time + offset, controller: controller, value: value, channel: channel)
    case .pitch(let time, let bend, let channel):
      return .pitch(time: time + offset, bend: bend, channel: channel)
    case .param(let time, let parameter, let value, let channel):
      return .param(time: time + offset, parameter: parameter, value: value, channel: channel)
    case .sequence(let time, let events, let repeats, let length):
      return .sequence(time: time + offset, events: events, repeats: repeats, length: length)
    }
  }
}
