import PerformanceTracking
import ScoreModel

@testable import PerformanceAnalysis

/// Graded notes built by hand, so that each ranking test states the scores it sorts.
enum IssueFixture {
  /// A played note (or rest, or missed note) at `index` with the given grades; its score is
  /// their sum, or 10 when missed.
  static func graded(
    _ index: Int, _ grades: [(GradeCategory, Rating, Double)] = [], status: GradedNote.Status = .played,
    measure: Int = 1, x: Double? = nil, y: Double? = nil
  ) -> GradedNote {
    let note = PerformanceNote(
      index: index, measure: measure, expectedStart: 0.5 * Double(index), expectedDuration: 0.5,
      writtenPitch: status == .rest ? nil : MIDINote(rawValue: 60 + index % 12), x: x, y: y)
    let list = grades.map { Grade(category: $0.0, rating: $0.1, score: $0.2) }
    return GradedNote(
      note: note, status: status, sound: nil, grades: list,
      score: status == .missed ? 10 : list.reduce(0) { $0 + $1.score })
  }

  /// A graded take of these notes.
  static func grades(_ notes: [GradedNote]) -> PerformanceGrades {
    let alignment = PerformanceAlignment(
      notes: notes.map(\.note), sounds: [], latencySeconds: 0, soundIndices: notes.map { _ in nil })
    return PerformanceGrades(
      notes: notes, extraSounds: [], bars: [], intonation: [], alignment: alignment, tempoDrift: 0,
      overallScore: 0)
  }

  /// A note whose only problem is one timing grade of `score`, rated `rating`.
  static func late(_ index: Int, _ score: Double, rating: Rating = .aBitLate) -> GradedNote {
    graded(index, [(.timing, score > 0 ? rating : .correct, score), (.pitch, .correct, 0)])
  }
}
