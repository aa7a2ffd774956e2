import PerformanceTracking

/// An analyzer the grader visits each note with: it grades one aspect (one
/// ``GradeCategory``) of the note and returns a ``Grade``, or `nil` when the aspect does not
/// apply (pitch on a rest, timing on a missed note).
///
/// This is the seam for research: add a dimension (tone, dynamics, vibrato) by writing an
/// analyzer and passing it to ``PerformanceGrader/init(tolerances:analyzers:)``; the built-in
/// ``TimingAnalyzer``, ``DurationAnalyzer``, ``PitchAnalyzer`` and ``RestAnalyzer`` are the
/// defaults and know nothing of each other.
public protocol NoteAnalyzer: Sendable {
  /// The aspect this analyzer grades.
  var category: GradeCategory { get }

  /// Grades one note.
  ///
  /// - Parameters:
  ///   - index: The note's position in `context.alignment.notes`.
  ///   - context: The linked take, the tolerances and the instrument.
  /// - Returns: The grade, or `nil` when the aspect does not apply to this note.
  func grade(note index: Int, in context: AnalysisContext) -> Grade?
}

/// What an analyzer sees: the linked take, the tolerances, the instrument's partial table and
/// the frequency table.
public struct AnalysisContext: Sendable {
  /// The take linked to its score.
  public var alignment: PerformanceAlignment
  /// The thresholds and severities.
  public var tolerances: Tolerances
  /// The instrument's partials, for brass.
  public var partials: PartialTable?
  /// Every note's frequency and zones.
  public var frequencies: NoteFrequencyTable

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - alignment: The linked take.
  ///   - tolerances: The thresholds.
  ///   - partials: The instrument's partial table, if brass.
  public init(alignment: PerformanceAlignment, tolerances: Tolerances, partials: PartialTable? = nil) {
    self.alignment = alignment
    self.tolerances = tolerances
    self.partials = partials
    let transpose = alignment.notes.lazy.compactMap { note in
      note.writtenPitch.flatMap { w in note.soundingPitch.map { w.rawValue - $0.rawValue } }
    }.first ?? 0
    frequencies = NoteFrequencyTable(tolerances: tolerances.pitch, transposeSemitones: transpose)
  }

  /// The note at `index`.
  public func note(_ index: Int) -> PerformanceNote { alignment.notes[index] }

  /// The sound linked to the note at `index`, if any.
  public func sound(_ index: Int) -> PerformanceSound? { alignment.sound(forNote: index) }
}
