import Foundation
import PerformanceTracking
import ScoreModel

/// Grades a note's pitch: in cents from the expected note, in the zones of
/// ``Tolerances/Pitch``; beyond the nearest-semitone boundary, another partial of the fingering
/// (brass, from the ``PartialTable``), an octave, or a wrong note; an otherwise correct note
/// whose smoothed pitch wanders over more than ``Tolerances/Pitch/waveringCents`` wavers.
///
/// Measurements: `cents` (from the expected sounding note), `frequencyHz` (the sound's stable
/// pitch), `expectedHz`, `waveringCents` (the smoothed pitch's range, when long enough to
/// judge), `partial` (the played partial's number, for partial errors). Labels: `playedPitch`
/// (the nearest written note, as the player reads it).
public struct PitchAnalyzer: NoteAnalyzer {
  public var category: GradeCategory { .pitch }

  /// Creates the analyzer.
  public init() {}

  public func grade(note index: Int, in context: AnalysisContext) -> Grade? {
    let note = context.note(index)
    guard let sounding = note.soundingPitch, let sound = context.sound(index), sound.frequencyHz > 0 else {
      return nil
    }
    let tolerances = context.tolerances.pitch
    let expectedHz = context.frequencies[sounding.rawValue].frequencyHz
    let cents = 1200 * log2(sound.frequencyHz / expectedHz)
    let transpose = (note.writtenPitch?.rawValue ?? sounding.rawValue) - sounding.rawValue
    var measurements = ["cents": cents, "frequencyHz": sound.frequencyHz, "expectedHz": expectedHz]
    var labels: [String: String] = [:]
    if let nearest = context.frequencies.nearest(frequencyHz: sound.frequencyHz),
      let written = MIDINote(rawValue: nearest.entry.midi + transpose)
    {
      labels["playedPitch"] = SpelledNote(midi: written).description
    }
    let size = abs(cents)
    var rating: Rating
    if size <= tolerances.correctCents {
      rating = .correct
    } else if size <= tolerances.veryCents {
      rating = cents < 0 ? .aBitFlat : .aBitSharp
    } else if size <= tolerances.wrongNoteCents {
      rating = cents < 0 ? .veryFlat : .verySharp
    } else {
      let playedWritten = Double(sounding.rawValue + transpose) + cents / 100
      if let table = context.partials, let written = note.writtenPitch,
        let partial = table.partial(
          playedWrittenMIDI: playedWritten, expectedWritten: written.rawValue, toleranceCents: tolerances.partialCents)
      {
        rating = partial.played > partial.expected ? .upperPartial : .lowerPartial
        measurements["partial"] = Double(partial.played)
      } else {
        let semitones = Int((cents / 100).rounded())
        rating = semitones % 12 == 0 ? .octave : .wrongNote
      }
    }
    if let range = Self.wanderingCents(of: sound, smoothing: tolerances.waveringSmoothingSeconds) {
      measurements["waveringCents"] = range
      if rating == .correct, range > tolerances.waveringCents { rating = .wavering }
    }
    return Grade(
      category: .pitch, rating: rating, score: context.tolerances.score(for: rating), measurements: measurements,
      labels: labels)
  }

  /// The range of the sound's pitch in cents after a moving median over `smoothing` seconds,
  /// leaving out the first 100 ms (the attack) and the last 50 ms; `nil` when fewer than ten
  /// points remain.
  static func wanderingCents(of sound: PerformanceSound, smoothing: Double) -> Double? {
    let body = sound.pitchTrack.filter { $0.time >= sound.start + 0.1 && $0.time <= sound.end - 0.05 }
    guard body.count >= 10, sound.frequencyHz > 0 else { return nil }
    let cents = body.map { 1200 * log2($0.frequencyHz / sound.frequencyHz) }
    let step = body.count > 1 ? (body[body.count - 1].time - body[0].time) / Double(body.count - 1) : 0.01
    let half = max(1, Int((smoothing / max(step, 1e-3) / 2).rounded()))
    var smoothed: [Double] = []
    for i in half..<max(half, cents.count - half) {
      let window = cents[(i - half)...(i + half)].sorted()
      smoothed.append(window[window.count / 2])
    }
    guard let low = smoothed.min(), let high = smoothed.max() else { return nil }
    return high - low
  }
}
