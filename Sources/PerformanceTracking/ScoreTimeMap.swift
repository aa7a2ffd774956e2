/// The audio's time line mapped onto the score's, from when each note was due in the audio
/// (a score clock's note starts, plus the latency): linear between due notes, and beyond the
/// first and last with the slope of the nearest stretch (1 with a single note).
///
/// A mapped time keeps the latency, so that a sound mapped here links with the same
/// `latencySeconds` as one recorded without a clock.
struct ScoreTimeMap: Sendable {
  /// (audio seconds, score seconds + latency), in time order.
  let points: [(audio: Double, score: Double)]

  /// A map from the due times of `notes` (NaN where unknown).
  init(notes: [PerformanceNote], dueSeconds: [Double], latencySeconds: Double) {
    var points: [(audio: Double, score: Double)] = []
    for (note, due) in zip(notes, dueSeconds) where due.isFinite {
      points.append((due, note.expectedStart + latencySeconds))
    }
    points.sort { $0.audio < $1.audio }
    // Keep the time lines monotonic: drop a point that goes back on either.
    var kept: [(audio: Double, score: Double)] = []
    for point in points {
      if let last = kept.last, point.audio <= last.audio || point.score <= last.score { continue }
      kept.append(point)
    }
    self.points = kept
  }

  /// Whether the map moves no time by more than a millisecond.
  var isIdentity: Bool { points.allSatisfy { abs($0.audio - $0.score) < 1e-3 } }

  /// An audio time on the score's time line (plus the latency).
  func score(atAudio t: Double) -> Double {
    guard let first = points.first else { return t }
    guard points.count > 1 else { return first.score + (t - first.audio) }
    let upper = points.partitioningIndex { $0.audio > t }
    let k = min(max(upper, 1), points.count - 1)
    let (a, b) = (points[k - 1], points[k])
    return a.score + (t - a.audio) * (b.score - a.score) / (b.audio - a.audio)
  }

  /// A sound with its times (start, attack, end, pitch points) on the score's time line.
  func mapped(_ sound: PerformanceSound) -> PerformanceSound { sound.mapped(score(atAudio:)) }
}
