/// Converts between musical time (ticks or beats) and seconds through a list of tempo changes.
///
/// A MIDI file's map (``init(_:)``) counts in ticks: tempo events count from every track (format
/// 1 files keep them in the first track, but not all writers do), and before the first one the
/// tempo is 120 BPM (500000 µs per quarter note), as the standard says. SMPTE-timed files have no
/// tempo: a tick lasts `1 / (fps · ticksPerFrame)` s, with 29 meaning 29.97 fps, and such a file
/// counts as 60 BPM so that one beat is one second.
///
/// A composition's map (``init(beatTempos:)``) counts in beats (quarter notes).
public struct TempoMap: Sendable, Hashable {
  /// One tempo segment: from `position` on, each unit (tick or beat) lasts `secondsPerUnit`.
  struct Segment: Sendable, Hashable {
    var position: Double
    var seconds: Double
    var secondsPerUnit: Double
  }

  let segments: [Segment]
  /// Ticks (or beats) per quarter note: the file's PPQ, the SMPTE ticks per second, or 1.
  let unitsPerQuarter: Double

  /// The tempo changes: tick and microseconds per quarter note, in order, the 120 BPM default
  /// included; empty for SMPTE files. When several changes share a tick, the last one in file
  /// order is kept.
  public let tempos: [(tick: Int, microsecondsPerQuarter: Int)]

  /// Builds the map of `file`, in ticks.
  public init(_ file: MIDIFile) {
    switch file.division {
    case .smpte(let fps, let ticksPerFrame):
      let ticksPerSecond = (fps == 29 ? 29.97 : Double(fps)) * Double(ticksPerFrame)
      segments = [Segment(position: 0, seconds: 0, secondsPerUnit: 1 / ticksPerSecond)]
      unitsPerQuarter = ticksPerSecond
      tempos = []
    case .ticksPerQuarter(let ppq):
      var changes: [(tick: Int, microsecondsPerQuarter: Int)] = []
      for track in file.tracks {
        for timed in track.events {
          if case .meta(.tempo(let us)) = timed.event, us > 0 { changes.append((timed.tick, us)) }
        }
      }
      // Stable sort: a later track's change at the same tick wins, as in file order.
      changes = changes.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
        .map(\.element)
      if changes.first?.tick != 0 { changes.insert((0, 500_000), at: 0) }
      var deduplicated: [(tick: Int, microsecondsPerQuarter: Int)] = []
      for change in changes {
        if deduplicated.last?.tick == change.tick { deduplicated.removeLast() }
        deduplicated.append(change)
      }
      tempos = deduplicated
      unitsPerQuarter = Double(ppq)
      segments = Self.segments(
        deduplicated.map { (Double($0.tick), Double($0.microsecondsPerQuarter) / 1_000_000 / Double(ppq)) })
    }
  }

  /// Builds a map in beats (quarter notes) from tempo changes in beats per minute.
  ///
  /// - Parameter beatTempos: `(beat, bpm)` pairs; unsorted is fine, a later pair at the same
  ///   beat wins, and without a change at beat 0 the map starts at 120 BPM. Non-positive or
  ///   non-finite tempos are ignored.
  public init(beatTempos: [(beat: Double, bpm: Double)]) {
    var changes = beatTempos.enumerated()
      .filter { $0.element.bpm > 0 && $0.element.bpm.isFinite && $0.element.beat.isFinite }
      .sorted { ($0.element.beat, $0.offset) < ($1.element.beat, $1.offset) }
      .map { (position: $0.element.beat, secondsPerUnit: 60 / $0.element.bpm) }
    if changes.first.map({ $0.position > 0 }) ?? true { changes.insert((0, 0.5), at: 0) }
    segments = Self.segments(changes)
    unitsPerQuarter = 1
    tempos = []
  }

  /// Segments from sorted changes, a later change at the same position replacing an earlier one.
  private static func segments(_ changes: [(position: Double, secondsPerUnit: Double)]) -> [Segment] {
    var built: [Segment] = []
    for change in changes {
      if let last = built.last {
        let seconds = last.seconds + (change.position - last.position) * last.secondsPerUnit
        if last.position == change.position { built.removeLast() }
        built.append(Segment(position: change.position, seconds: seconds, secondsPerUnit: change.secondsPerUnit))
      } else {
        built.append(Segment(position: change.position, seconds: 0, secondsPerUnit: change.secondsPerUnit))
      }
    }
    return built
  }

  /// The time of `tick` in seconds from the start (for a composition's map, `tick` is a beat).
  ///
  /// - Complexity: O(log t) for t tempo changes.
  public func seconds(atTick tick: Int) -> Double { seconds(at: Double(tick)) }

  /// The time of a position in quarter notes (beats), in seconds from the start.
  ///
  /// - Complexity: O(log t) for t tempo changes.
  public func seconds(atBeat beat: Double) -> Double { seconds(at: beat * unitsPerQuarter) }

  /// The tick at `seconds` from the start (fractional).
  public func tick(atSeconds seconds: Double) -> Double {
    let segment = segments[segmentIndex { $0.seconds <= seconds }]
    return segment.position + (seconds - segment.seconds) / segment.secondsPerUnit
  }

  /// The position in quarter notes (beats) at `seconds` from the start.
  public func beat(atSeconds seconds: Double) -> Double { tick(atSeconds: seconds) / unitsPerQuarter }

  /// The tempo in beats per minute at a position in quarter notes.
  public func beatsPerMinute(atBeat beat: Double) -> Double {
    60 / (segments[segmentIndex { $0.position <= beat * unitsPerQuarter }].secondsPerUnit * unitsPerQuarter)
  }

  private func seconds(at position: Double) -> Double {
    let segment = segments[segmentIndex { $0.position <= position }]
    return segment.seconds + (position - segment.position) * segment.secondsPerUnit
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

  public static func == (a: TempoMap, b: TempoMap) -> Bool {
    a.segments == b.segments && a.unitsPerQuarter == b.unitsPerQuarter
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(segments)
    hasher.combine(unitsPerQuarter)
  }
}
