import Foundation
import PerformanceAnalysis
import ScoreModel

/// The take's pitch for the report's contour panel: each voiced estimate as cents from the note
/// the student was playing at that moment, on the score's time line, in runs of consecutive
/// frames.
///
/// The reference note of an estimate is the note whose linked sound contains it (the note it
/// was judged against, however late it came): such runs are *linked*. Outside the linked
/// sounds (a release running into the next note's time, an extra sound, a missed note's
/// span) it is the pitched note written at that time, and the run is not linked, so the
/// report can draw it fainter; estimates with neither (inside a rest) are left out. A run
/// ends at an unvoiced frame, a gap, or a change of reference note, so the line never joins two
/// notes' deviations. Each run is smoothed by a running median over ``medianFrames`` frames:
/// a single frame of an attack transient or an octave slip of the tracker is a spike of
/// hundreds of cents that would hide the steady part, while a scoop or a drift over several
/// frames stays.
struct PitchContour {
  /// One voiced estimate.
  struct Point: Equatable {
    /// The time on the score's time line, in seconds.
    var seconds: Double
    /// The deviation from the reference note, in cents (not clamped).
    var cents: Double
  }

  /// Consecutive estimates against one reference note.
  struct Run: Equatable {
    /// The points, in time order.
    var points: [Point]
    /// `true` when they lie inside the sound linked to the reference note.
    var isLinked: Bool
  }

  /// The runs, in time order.
  var runs: [Run]

  /// The running median's length, in frames (50 ms at the tracker's 10 ms hop).
  static let medianFrames = 5

  /// A reference span on the audio's time line.
  struct Span {
    var start: Double
    var end: Double
    var frequencyHz: Double
    var note: Int
    var isLinked: Bool
  }

  /// The contour of a graded take.
  init(_ result: GradingResult) {
    let tuning = Tuning(a4Hz: result.tolerances.pitch.a4Hz)
    let latency = result.latencySeconds
    var linked: [Span] = []
    var written: [Span] = []
    for graded in result.grades.notes {
      guard let pitch = graded.note.soundingPitch else { continue }
      let hz = tuning.frequencyHz(of: pitch)
      if graded.status == .played, let sound = graded.sound {
        linked.append(
          Span(start: sound.start, end: sound.end, frequencyHz: hz, note: graded.note.index, isLinked: true))
      }
      written.append(
        Span(
          start: graded.note.expectedStart, end: graded.note.expectedEnd, frequencyHz: hz,
          note: graded.note.index, isLinked: false))
    }
    linked.sort { $0.start < $1.start }
    written.sort { $0.start < $1.start }

    var runs: [Run] = []
    var run: [Point] = []
    var runNote = -1
    var runLinked = false
    var lastTime = -Double.infinity
    func close() {
      if !run.isEmpty { runs.append(Run(points: Self.medianSmoothed(run), isLinked: runLinked)) }
      run = []
    }
    for estimate in result.estimates {
      // The estimates are on the audio's time line; the spans on the score's.
      let time = estimate.time - latency
      guard estimate.isVoiced,
        let span = Self.span(containing: time, in: linked) ?? Self.span(containing: time, in: written)
      else {
        close()
        continue
      }
      // A gap of more than a few frames (a dropout the tracker skipped) breaks the line too.
      if span.note != runNote || span.isLinked != runLinked || time - lastTime > 0.05 { close() }
      runNote = span.note
      runLinked = span.isLinked
      lastTime = time
      run.append(Point(seconds: time, cents: 1200 * log2(estimate.frequencyHz / span.frequencyHz)))
    }
    close()
    self.runs = runs
  }

  /// `run` with each point's cents replaced by the median of the ``medianFrames`` points
  /// around it (fewer at the ends of the run).
  static func medianSmoothed(_ run: [Point]) -> [Point] {
    let half = medianFrames / 2
    return run.indices.map { i in
      let window = run[max(0, i - half)...min(run.count - 1, i + half)].map(\.cents).sorted()
      let middle = window.count / 2
      let median = window.count % 2 == 1 ? window[middle] : (window[middle - 1] + window[middle]) / 2
      return Point(seconds: run[i].seconds, cents: median)
    }
  }

  /// The last span that starts at or before `time`, if it has not ended (binary search over
  /// spans sorted by start; a melody's spans do not overlap).
  static func span(containing time: Double, in spans: [Span]) -> Span? {
    var low = 0
    var high = spans.count
    while low < high {
      let middle = (low + high) / 2
      if spans[middle].start <= time { low = middle + 1 } else { high = middle }
    }
    guard low > 0, time < spans[low - 1].end else { return nil }
    return spans[low - 1]
  }
}
