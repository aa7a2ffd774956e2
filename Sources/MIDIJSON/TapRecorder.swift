/// Records taps as they happen (press, release) and turns them into a ``Composition``.
///
/// This is Moodles' recording: a child taps notes on screen; each tap becomes a note in beats at
/// the recording's tempo, optionally snapped to a grid.
///
/// ```swift
/// var recorder = TapRecorder(tempo: 90, origin: startTime)
/// recorder.press(note: 60, velocity: 100, at: now())
/// recorder.release(note: 60, at: now())
/// let song = recorder.composition(name: "My First Song", quantization: 0.25)
/// ```
///
/// Pressing a note that is already held ends the held one first (a re-strike). A release with
/// no press is ignored and counted in ``unmatchedReleases``. Times that are not finite are
/// ignored. It is a value type: keep it where the UI's events arrive (it does no I/O and never
/// blocks).
public struct TapRecorder: Sendable, Hashable {
  /// Quarter notes per minute.
  public var tempo: Double
  /// The time of beat 0 on the taps' clock, in seconds.
  public var origin: Double
  /// The completed taps, in order of release.
  public private(set) var taps: [Tap] = []
  /// Releases that matched no held note.
  public private(set) var unmatchedReleases = 0
  /// Held notes by note number.
  private var held: [Int: Held] = [:]

  private struct Held: Sendable, Hashable {
    var press: Double
    var velocity: Int
  }

  /// Creates a recorder.
  ///
  /// - Parameters:
  ///   - tempo: Quarter notes per minute, positive.
  ///   - origin: The time of beat 0 on the clock the taps use, in seconds.
  public init(tempo: Double = 120, origin: Double = 0) {
    self.tempo = tempo
    self.origin = origin
  }

  /// The notes held down now.
  public var heldNotes: [Int] { held.keys.sorted() }

  /// A key went down.
  ///
  /// - Parameters:
  ///   - note: The MIDI note number (clamped to 0–127).
  ///   - velocity: The velocity (clamped to 1–127).
  ///   - seconds: When, on the recording's clock.
  public mutating func press(note: Int, velocity: Int = 127, at seconds: Double) {
    guard seconds.isFinite else { return }
    let note = max(0, min(127, note))
    if held[note] != nil { release(note: note, at: seconds) }
    held[note] = Held(press: seconds, velocity: max(1, min(127, velocity)))
  }

  /// A key went up.
  ///
  /// - Parameters:
  ///   - note: The MIDI note number.
  ///   - seconds: When, on the recording's clock.
  public mutating func release(note: Int, at seconds: Double) {
    guard seconds.isFinite else { return }
    let note = max(0, min(127, note))
    guard let down = held.removeValue(forKey: note) else {
      unmatchedReleases += 1
      return
    }
    taps.append(Tap(note: note, velocity: down.velocity, press: down.press, release: max(down.press, seconds)))
  }

  /// Releases every held note at `seconds` (when recording stops).
  public mutating func releaseAll(at seconds: Double) {
    for note in heldNotes { release(note: note, at: seconds) }
  }

  /// The recording so far as a composition; notes still held are left out (call
  /// ``releaseAll(at:)`` first to keep them).
  ///
  /// - Parameters:
  ///   - name: The title.
  ///   - quantization: A grid in beats (0.25 = sixteenth notes), or `nil` to keep exact times.
  public func composition(name: String = "", quantization: Double? = nil) -> Composition {
    Composition(taps: taps, tempo: tempo, origin: origin, name: name, quantization: quantization)
  }
}

extension Composition {
  /// A composition of taps, in beats at `tempo` counted from `origin`.
  ///
  /// With a `quantization` grid, each note's start and end snap to the nearest grid line, and a
  /// note shorter than one step lasts one step. Taps before the origin start at beat 0.
  ///
  /// - Parameters:
  ///   - taps: The taps, in any order.
  ///   - tempo: Quarter notes per minute, positive.
  ///   - origin: The time of beat 0, in seconds.
  ///   - name: The title.
  ///   - quantization: A grid in beats, positive, or `nil` for exact times.
  public init(taps: [Tap], tempo: Double, origin: Double = 0, name: String = "", quantization: Double? = nil) {
    let beatsPerSecond = tempo > 0 && tempo.isFinite ? tempo / 60 : 2
    let grid = quantization.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    func snap(_ beat: Double) -> Double { grid.map { ($0 * (beat / $0).rounded()) } ?? beat }
    var events: [CompositionEvent] = []
    for tap in taps where tap.press.isFinite && tap.release.isFinite {
      var start = snap(max(0, (tap.press - origin) * beatsPerSecond))
      var end = snap(max(0, (max(tap.press, tap.release) - origin) * beatsPerSecond))
      if let grid, end <= start { end = start + grid }
      start = max(0, start)
      end = max(start, end)
      events.append(
        .note(
          time: start, number: max(0, min(127, tap.note)), velocity: max(1, min(127, tap.velocity)), duration: end - start))
    }
    self.init(name: name, tempo: tempo > 0 && tempo.isFinite ? tempo : 120, events: events.sorted(by: Self.canonicalOrder))
  }
}
