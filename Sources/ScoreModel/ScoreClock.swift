/// Plays a score against a clock: advanced by elapsed time or by audio samples, it emits the
/// count-in beats, then bar starts, note starts and note ends as their times are reached, at a
/// tempo scale.
///
/// ```swift
/// let clock = ScoreClock(score: score, tempoScale: 0.8, countInBeats: 4)
/// var events = [TimedScoreEvent](repeating: .init(seconds: 0, event: .barStart(measure: 0)), count: 64)
/// // In the audio callback:
/// let n = events.withUnsafeMutableBufferPointer { clock.advance(samples: frameCount, sampleRate: 48000, into: $0) }
/// ```
///
/// The events are laid out once, in `init`; advancing allocates nothing, takes no locks and is
/// O(events passed). Score time `t` seconds happens at clock time `countIn + t / tempoScale`.
/// At one moment, note ends come before bar starts, and bar starts before note starts.
///
/// - Note: ``advance(bySeconds:into:)`` and ``advance(samples:sampleRate:into:)`` are real-time
///   safe.
public final class ScoreClock: ScoreEventSource {
  /// How many times faster than written the score is played (0.5 = half speed).
  public let tempoScale: Double
  /// Count-in beats before the score.
  public let countInBeats: Int
  /// The count-in's length, in seconds.
  public let countInSeconds: Double
  /// The time of the last event, in seconds from the start.
  public let duration: Double

  private let times: UnsafeMutableBufferPointer<Double>
  private let events: UnsafeMutableBufferPointer<ScoreEvent>
  private var next = 0
  public private(set) var position = 0.0

  /// Lays out a score's events.
  ///
  /// - Parameters:
  ///   - score: The score.
  ///   - tempoScale: How many times faster than written to play (positive; 1 = as written).
  ///   - countInBeats: Beats to count in, at the score's first tempo and beat (the time
  ///     signature's denominator; a quarter without one).
  public init(score: Score, tempoScale: Double = 1, countInBeats: Int = 0) {
    let scale = tempoScale > 0 && tempoScale.isFinite ? tempoScale : 1
    self.tempoScale = scale
    self.countInBeats = max(0, countInBeats)
    let beatQuarters = 4 / Double(score.timeSignatures.first?.denominator ?? 4)
    let bpm = score.tempos.first?.bpm ?? 120
    let beat = beatQuarters * 60 / bpm / scale
    countInSeconds = Double(self.countInBeats) * beat
    // (time, order within a moment, event)
    var laid: [(Double, Int, ScoreEvent)] = []
    for k in 0..<self.countInBeats {
      laid.append((Double(k) * beat, 1, .countIn(beat: k + 1, of: self.countInBeats)))
    }
    let offset = countInSeconds
    for (index, measure) in score.measures.enumerated() {
      laid.append((offset + measure.onsetSeconds / scale, 1, .barStart(measure: index)))
    }
    for (index, note) in score.notes.enumerated() {
      laid.append((offset + note.onsetSeconds / scale, 2, .noteStart(note: index)))
      laid.append((offset + (note.onsetSeconds + note.durationSeconds) / scale, 0, .noteEnd(note: index)))
    }
    laid = laid.enumerated().sorted { ($0.element.0, $0.element.1, $0.offset) < ($1.element.0, $1.element.1, $1.offset) }
      .map(\.element)
    times = .allocate(capacity: max(1, laid.count))
    events = .allocate(capacity: max(1, laid.count))
    for (i, item) in laid.enumerated() {
      times.initializeElement(at: i, to: item.0)
      events.initializeElement(at: i, to: item.2)
    }
    eventCount = laid.count
    duration = laid.last?.0 ?? 0
  }

  private let eventCount: Int

  deinit {
    times.deallocate()
    events.deallocate()
  }

  /// Whether every event has been emitted.
  public var isFinished: Bool { next >= eventCount }

  /// - Note: Real-time safe.
  @_noLocks
  public func advance(bySeconds seconds: Double, into output: UnsafeMutableBufferPointer<TimedScoreEvent>) -> Int {
    let target = position + (seconds.isFinite ? max(0, seconds) : 0)
    var written = 0
    while next < eventCount, times[next] <= target {
      guard written < output.count else {
        // Full: stop at the last event written, the rest comes next call.
        position = times[next - 1]
        return written
      }
      output[written] = TimedScoreEvent(seconds: times[next], event: events[next])
      written += 1
      next += 1
    }
    position = target
    return written
  }

  /// Moves the clock forward by `samples` frames of audio at `sampleRate` (see
  /// ``advance(bySeconds:into:)``).
  ///
  /// - Note: Real-time safe.
  @_noLocks
  public func advance(samples: Int, sampleRate: Double, into output: UnsafeMutableBufferPointer<TimedScoreEvent>) -> Int {
    guard sampleRate > 0, samples > 0 else { return advance(bySeconds: 0, into: output) }
    return advance(bySeconds: Double(samples) / sampleRate, into: output)
  }

  public func reset() {
    next = 0
    position = 0
  }
}
