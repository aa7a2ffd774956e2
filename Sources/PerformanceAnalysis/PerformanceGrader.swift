import Foundation
import PerformanceTracking
import PitchDSP
import ScoreModel

/// Grades a linked take: visits every note with every analyzer, sums each note's severities,
/// and summarizes bars, intonation and tempo.
///
/// ```swift
/// let grader = PerformanceGrader(tolerances: .intermediate)
/// let grades = grader.grade(alignment, partials: .trumpet)
/// ```
public struct PerformanceGrader: Sendable {
  /// The thresholds and severities.
  public var tolerances: Tolerances
  /// The analyzers, visited in this order for every note.
  public var analyzers: [any NoteAnalyzer]

  /// The built-in analyzers: timing, duration, pitch, rest.
  public static let standardAnalyzers: [any NoteAnalyzer] = [
    TimingAnalyzer(), DurationAnalyzer(), PitchAnalyzer(), RestAnalyzer(),
  ]

  /// Creates a grader.
  ///
  /// - Parameters:
  ///   - tolerances: The thresholds and severities.
  ///   - analyzers: The analyzers to visit each note with.
  public init(tolerances: Tolerances = .intermediate, analyzers: [any NoteAnalyzer] = standardAnalyzers) {
    self.tolerances = tolerances
    self.analyzers = analyzers
  }

  /// Grades a take.
  ///
  /// - Parameters:
  ///   - alignment: The take linked to its score.
  ///   - partials: The instrument's partial table (brass), if any.
  ///   - pitchTrack: The take's pitch track, for how sure each missed note is
  ///     (``Tolerances/Missed``); without it every missed note is sure.
  /// - Returns: The grades.
  public func grade(
    _ alignment: PerformanceAlignment, partials: PartialTable? = nil, pitchTrack: [PitchEstimate] = []
  ) -> PerformanceGrades {
    let context = AnalysisContext(alignment: alignment, tolerances: tolerances, partials: partials)
    let missedScore = tolerances.score(for: .missed)
    // The grades give sounds on the score's time line, as the notes are.
    let onScore = { (sound: PerformanceSound) in sound.mapped { $0 - alignment.latencySeconds } }
    let notes = alignment.notes.indices.map { index -> GradedNote in
      let note = alignment.notes[index]
      let status: GradedNote.Status = note.isRest ? .rest : alignment.soundIndices[index] == nil ? .missed : .played
      guard status != .missed else {
        let heard = note.soundingPitch.map {
          alignment.heardShare(
            ofNote: index, in: pitchTrack, frequencyHz: context.frequencies[$0.rawValue].frequencyHz)
        }
        let sure = (heard ?? 0) < tolerances.missed.heardShare
        return GradedNote(
          note: note, status: .missed, sound: nil, grades: [],
          score: sure ? missedScore : missedScore * tolerances.missed.heardSeverityFactor)
      }
      let grades = analyzers.compactMap { $0.grade(note: index, in: context) }
      return GradedNote(
        note: note, status: status, sound: alignment.sound(forNote: index).map(onScore), grades: grades,
        score: grades.reduce(0) { $0 + $1.score })
    }
    let pitched = notes.filter { $0.status != .rest }
    let overall =
      pitched.isEmpty
      ? 100 : 100 * pitched.reduce(0) { $0 + max(0, 1 - $1.score / max(missedScore, 1e-9)) } / Double(pitched.count)
    return PerformanceGrades(
      notes: notes,
      extraSounds: alignment.extraSoundIndices.map { onScore(alignment.sounds[$0]) },
      bars: Self.bars(notes), intonation: intonation(notes), alignment: alignment,
      tempoDrift: Self.drift(alignment), overallScore: overall)
  }

  static func bars(_ notes: [GradedNote]) -> [PerformanceGrades.BarSummary] {
    var order: [Int] = []
    var byMeasure: [Int: PerformanceGrades.BarSummary] = [:]
    for graded in notes {
      let measure = graded.note.measure
      if byMeasure[measure] == nil {
        order.append(measure)
        byMeasure[measure] = .init(measure: measure, notes: 0, notesWithProblems: 0, severity: 0, meanSeverity: 0)
      }
      if graded.status != .rest { byMeasure[measure]!.notes += 1 }
      if graded.status != .rest, !graded.problems.isEmpty { byMeasure[measure]!.notesWithProblems += 1 }
      byMeasure[measure]!.severity += graded.score
    }
    return order.map { measure in
      var bar = byMeasure[measure]!
      bar.meanSeverity = bar.notes > 0 ? bar.severity / Double(bar.notes) : bar.severity
      return bar
    }
  }

  func intonation(_ notes: [GradedNote]) -> [PerformanceGrades.IntonationTrend] {
    var sums: [Int: (name: String, total: Double, count: Int)] = [:]
    for graded in notes where graded.status == .played {
      guard let pitch = graded.grade(.pitch), let cents = pitch.measurements["cents"],
        abs(cents) <= tolerances.pitch.wrongNoteCents, let written = graded.note.writtenPitch
      else { continue }
      let pitchClass = written.rawValue % 12
      // The name as documented and shown to the student: F♯, B♭ (not the ASCII F#, Bb).
      let spelled = SpelledNote(midi: written)
      let sign = spelled.accidental.semitones < 0 ? "♭" : "♯"
      let name = "\(spelled.letter)" + String(repeating: sign, count: abs(spelled.accidental.semitones))
      let old = sums[pitchClass] ?? (name, 0, 0)
      sums[pitchClass] = (old.name, old.total + cents, old.count + 1)
    }
    return sums.values.map { entry in
      let mean = entry.total / Double(entry.count)
      let off = abs(mean) > tolerances.pitch.correctCents && entry.count >= 2
      let message =
        off ? "Your \(entry.name)s run \(Int(abs(mean).rounded())) cents \(mean > 0 ? "sharp" : "flat")." : nil
      return .init(pitchClass: entry.name, notes: entry.count, meanCents: mean, message: message)
    }.sorted { abs($0.meanCents) > abs($1.meanCents) || (abs($0.meanCents) == abs($1.meanCents) && $0.pitchClass < $1.pitchClass) }
  }

  /// The slope of the local offsets over the take: seconds of offset gained per second of score.
  static func drift(_ alignment: PerformanceAlignment) -> Double {
    let played = alignment.notes.indices.filter { alignment.soundIndices[$0] != nil }
    guard played.count >= 4 else { return 0 }
    let times = played.map { alignment.notes[$0].expectedStart }
    let offsets = played.map { alignment.localOffsets[$0] }
    let meanT = times.reduce(0, +) / Double(times.count)
    let meanO = offsets.reduce(0, +) / Double(offsets.count)
    var sxx = 0.0
    var sxy = 0.0
    for (t, o) in zip(times, offsets) {
      sxx += (t - meanT) * (t - meanT)
      sxy += (t - meanT) * (o - meanO)
    }
    return sxx > 0 ? sxy / sxx : 0
  }
}
