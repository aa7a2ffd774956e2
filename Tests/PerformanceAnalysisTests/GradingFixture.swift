import Foundation
import PerformanceTracking
import ScoreModel

@testable import PerformanceAnalysis

/// Hand-built notes, sounds and alignments for the analyzers: each test states the take it
/// grades, with links given directly (no linker involved).
enum GradingFixture {
  /// The frequency of a (fractional) MIDI note detuned by `cents`.
  static func hz(_ midi: Double, cents: Double = 0, a4Hz: Double = 440) -> Double {
    a4Hz * pow(2, (midi - 69 + cents / 100) / 12)
  }

  /// A note; `written` defaults to the sounding pitch, `nil` midi makes a rest.
  static func note(
    _ index: Int, _ midi: Int?, start: Double, duration: Double = 0.5, written: Int? = nil, measure: Int = 1,
    articulation: PerformanceNote.Articulation = .normal, isTied: Bool = false
  ) -> PerformanceNote {
    PerformanceNote(
      index: index, measure: measure, expectedStart: start, expectedDuration: duration,
      writtenPitch: (written ?? midi).flatMap { MIDINote(rawValue: $0) },
      soundingPitch: midi.flatMap { MIDINote(rawValue: $0) }, articulation: articulation, isTied: isTied)
  }

  /// A steady sound of a (fractional) MIDI pitch.
  static func sound(
    start: Double, seconds: Double, midi: Double, cents: Double = 0, a4Hz: Double = 440,
    track: [PerformanceSound.PitchPoint] = []
  ) -> PerformanceSound {
    PerformanceSound(
      start: start, end: start + seconds, frequencyHz: hz(midi, cents: cents, a4Hz: a4Hz), pitchTrack: track,
      peakLevelDBFS: -10)
  }

  /// The sound a note makes when played `delay` late (plus `latency`), held `ratio` of its
  /// value, `cents` off its pitch (or at `playedMIDI`).
  static func played(
    _ note: PerformanceNote, delay: Double = 0, latency: Double = 0, ratio: Double = 0.92, cents: Double = 0,
    playedMIDI: Double? = nil
  ) -> PerformanceSound {
    sound(
      start: note.expectedStart + delay + latency, seconds: note.expectedDuration * ratio,
      midi: playedMIDI ?? Double(note.soundingPitch!.rawValue), cents: cents)
  }

  /// An alignment of notes, each with its sound or none, plus sounds no note claimed.
  static func alignment(
    _ pairs: [(PerformanceNote, PerformanceSound?)], extra: [PerformanceSound] = [], latency: Double = 0
  ) -> PerformanceAlignment {
    var tagged: [(sound: PerformanceSound, note: Int?)] = pairs.enumerated().compactMap { i, pair in
      pair.1.map { ($0, i) }
    }
    tagged += extra.map { ($0, nil) }
    tagged.sort { $0.sound.start < $1.sound.start }
    var links = [Int?](repeating: nil, count: pairs.count)
    for (j, entry) in tagged.enumerated() { if let i = entry.note { links[i] = j } }
    return PerformanceAlignment(
      notes: pairs.map(\.0), sounds: tagged.map(\.sound), latencySeconds: latency, soundIndices: links)
  }

  /// The grade one analyzer gives the note at `index`.
  static func grade(
    _ analyzer: some NoteAnalyzer, _ index: Int, in alignment: PerformanceAlignment,
    tolerances: Tolerances = .intermediate, partials: PartialTable? = nil
  ) -> Grade? {
    analyzer.grade(
      note: index, in: AnalysisContext(alignment: alignment, tolerances: tolerances, partials: partials))
  }

  /// The grade of a single note played as `sound`.
  static func grade(
    _ analyzer: some NoteAnalyzer, note: PerformanceNote, sound: PerformanceSound?,
    tolerances: Tolerances = .intermediate, partials: PartialTable? = nil
  ) -> Grade? {
    grade(analyzer, 0, in: alignment([(note, sound)]), tolerances: tolerances, partials: partials)
  }

  /// The error a tolerances JSON gives, or `nil` when it loads.
  static func error(_ json: String, level: String? = nil) -> PerformanceAnalysisError? {
    do {
      _ = try Tolerances(json: Data(json.utf8), level: level)
      return nil
    } catch {
      return error
    }
  }

  /// The path of an `invalidValue` error, or `nil` for any other outcome.
  static func invalidPath(_ json: String, level: String? = nil) -> String? {
    if case .invalidValue(let path, _) = error(json, level: level) { return path }
    return nil
  }
}
