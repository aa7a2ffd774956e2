import PerformanceTracking

/// One note of the score with what the analyzers said about it.
public struct GradedNote: Sendable, Hashable {
  /// Whether the note was played.
  public enum Status: String, Sendable, Hashable, Codable {
    /// A sound was linked to it.
    case played
    /// No sound was linked to it.
    case missed
    /// A rest.
    case rest
  }

  /// The note.
  public var note: PerformanceNote
  /// Whether it was played.
  public var status: Status
  /// The linked sound, when played, on the score's time line (the alignment's sound moved back
  /// by its latency, as ``PerformanceGrades/extraSounds`` are).
  public var sound: PerformanceSound?
  /// The grades, one per analyzer that applied, in the analyzers' order.
  public var grades: [Grade]
  /// The note's overall severity: the sum of its grades' scores, or the `missed` severity
  /// (scaled down when its pitch was heard all the same, ``Tolerances/Missed``); 0 best.
  public var score: Double

  /// Creates a graded note.
  public init(note: PerformanceNote, status: Status, sound: PerformanceSound?, grades: [Grade], score: Double) {
    self.note = note
    self.status = status
    self.sound = sound
    self.grades = grades
    self.score = score
  }

  /// The grade of a category, if any.
  public func grade(_ category: GradeCategory) -> Grade? { grades.first { $0.category == category } }

  /// The ratings that are not `correct`, with `missed` for a missed note.
  public var problems: [Rating] {
    status == .missed ? [.missed] : grades.map(\.rating).filter { $0 != .correct }
  }
}
