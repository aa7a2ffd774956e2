import PerformanceAnalysis
import PerformanceTracking
import ScoreModel

/// What the HTML report reads off a graded take besides its stored fields: counts, note names
/// and a one-line account of each note.
extension GradingResult {
  /// The tuning the take was graded in.
  var tuning: Tuning { Tuning(a4Hz: tolerances.pitch.a4Hz) }

  /// Pitched notes linked to a sound.
  var playedCount: Int { grades.notes.count(where: { $0.status == .played }) }

  /// Pitched notes not linked to any sound.
  var missedCount: Int { grades.notes.count(where: { $0.status == .missed }) }

  /// Pitched notes with at least one problem, missed included.
  var problemCount: Int { grades.notes.count(where: { $0.status != .rest && !$0.problems.isEmpty }) }

  /// The severity drawn fully red: a wrong note's.
  var severityColor: SeverityColor { SeverityColor(redAt: tolerances.score(for: .wrongNote)) }

  /// The graded note with a score index (``PerformanceNote/index``), if it is in the melody.
  func graded(index: Int) -> GradedNote? {
    grades.notes.first { $0.note.index == index }
  }

  /// A note's name (`F#4`), or `rest`.
  static func name(_ pitch: MIDINote?) -> String {
    pitch.map { SpelledNote(midi: $0).description } ?? "rest"
  }

  /// The written note, with the sounding one when it differs (`D5 (sounds C5)`).
  static func noteLabel(_ note: PerformanceNote) -> String {
    guard note.writtenPitch != note.soundingPitch else { return name(note.writtenPitch) }
    return "\(name(note.writtenPitch)) (sounds \(name(note.soundingPitch)))"
  }

  /// One line about a graded note for tooltips: where it is, what was written, and every
  /// grade with its measurement (`m. 3, note 7: E5; timing a bit late (+62.0 ms); pitch wrong
  /// note (+200.3 cents, played F#5); severity 8.0`).
  func summary(of graded: GradedNote) -> String {
    var parts = ["m. \(graded.note.measure), note \(graded.note.index): \(Self.noteLabel(graded.note))"]
    switch graded.status {
    case .missed: parts.append("missed")
    case .rest, .played: break
    }
    for grade in graded.grades {
      let rating = HTMLText.words(grade.rating.rawValue)
      let category = HTMLText.words(grade.category.rawValue)
      switch grade.category {
      case .timing:
        parts.append("\(category) \(rating) (\(HTMLText.signed(grade.measurements["offsetMs"] ?? 0, 1)) ms)")
      case .duration:
        parts.append(
          "\(category) \(rating) (\(HTMLText.fixed(grade.measurements["ratio"] ?? 0, 2)) of its value)")
      case .pitch:
        var detail = "\(HTMLText.signed(grade.measurements["cents"] ?? 0, 1)) cents"
        if let played = grade.labels["playedPitch"] { detail += ", played \(played)" }
        parts.append("\(category) \(rating) (\(detail))")
      case .rest:
        parts.append(
          "\(category) \(rating) (\(HTMLText.fixed(grade.measurements["soundSeconds"] ?? 0, 2)) s of sound)")
      default:
        parts.append("\(category) \(rating)")
      }
    }
    parts.append("severity \(HTMLText.fixed(graded.score, 1))")
    return parts.joined(separator: "; ")
  }
}
