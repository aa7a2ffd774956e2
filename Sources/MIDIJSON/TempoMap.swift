/// Converts between ticks and seconds using a MIDI file's tempo changes.
///
/// Tempo events count from every track (format 1 files keep them in the first track, but not all
/// writers do). Before the first tempo event the tempo is 120 BPM (500000 µs per quarter note), as
/// the standard says. SMPTE-timed files ignore tempo: a tick lasts `1 / (fps · ticksPerFrame)` s,
/// with 29 meaning 29.97 fps.
public struct TempoMap: Sendable, Hashable {
  /// One tempo segment: from `tick` on, each tick lasts `secondsPerTick`.
  struct Segment: Sendable, Hashable {
    var tick: Int
    var seconds: Double
    var secondsPerTick: Double
  }

  let segments: [Segment]

  /// The tempo changes: tick and microseconds per quarter note, in order (the 120 BPM default included).
  public let tempos: [(tick: Int, microsecondsPerQuarter: Int)]

  /// Builds the map of `file`.
  public init(_ file: MIDIFile) {
    switch file.division {
    case .smpte(let fps, let ticksPerFrame):
      let rate = fps == 29 ? 29.97 : Double(fps)
      segments = [Segment(tick: 0, seconds: 0, secondsPerTick: 1 / (rate * Double(ticksPerFrame)))]
      tempos = []
    case .ticksPerQuarter(let ppq):
      var changes: [(tick: Int, microsecondsPerQuarter: Int)] = []
      for track in file.tracks {
        for timed in track.events {
          if case .meta(.tempo(let us)) = timed.event, us > 0 { changes.append((timed.tick, us)) }
        }
      }
      // Stable sort: a later track's change at the same tick wins, as in file order.
      changes = changes.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
      if changes.first?.tick != 0 { changes.insert((0, 500_000), at: 0) }
      var built: [Segment] = []
      for change in changes {
        let perTick = Double(change.microsecondsPerQuarter) / 1_000_000 / Double(ppq)
        if let last = built.last {
          let seconds = last.seconds + Double(change.tick - last.tick) * last.secondsPerTick
          if last.tick == change.tick { built.removeLast() }
          built.append(Segment(tick: change.tick, seconds: seconds, secondsPerTick: perTick))
        } else {
          built.append(Segment(tick: change.tick, seconds: 0, secondsPerTick: perTick))
        }
      }
      segments = built
      var deduplicated: [(tick: Int, microsecondsPerQuarter: Int)] = []
      for change in changes {
        if deduplicated.last?.tick == change.tick { deduplicated.removeLast() }
        deduplicated.append(change)
      }
      tempos = deduplicated
    }
  }

  /// The time of `tick` in seconds from the start.
  ///
  /// - Complexity: O(log t) for t tempo changes.
  public func seconds(atTick tick: Int) -> Double {
    let segment = segments[segmentIndex { $0.tick <= tick }]
    return segment.seconds + Double(tick - segment.tick) * segment.secondsPerTick
  }

  /// The tick at `seconds` from the start (fractional).
  public func tick(atSeconds seconds: Double) -> Double {
    let segment = segments[segmentIndex { $0.seconds <= seconds }]
    return Double(segment.tick) + (seconds - segment.seconds) / segment.secondsPerTick
  }

  /// The last segment satisfying `isBefore` (segments are ordered), or the first.
  private func segmentIndex(_ isBefore: (Segment) -> Bool) -> Int {
    var low = 0
    var high = segments.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if isBefore(segments[mid]) { low = mid } else { high = mid - 1 }
    }
    return low
  }

  public static func == (a: TempoMap, b: TempoMap) -> Bool { a.segments == b.segments }
  public func hash(into hasher: inout Hasher) { hasher.combine(segments) }
}
