/// How the report lays a take out in time: the span drawn, where each bar starts, and the rows
/// the piano roll wraps into, like the systems of a printed score.
///
/// Rows break at bar starts, so each row holds whole bars, and are at most
/// ``maximumRowSeconds`` long; a bar longer than that is cut where the row is full. Wrapping
/// (rather than one wide roll in a scrolling box) keeps a three-minute take readable on screen,
/// in a screenshot and on paper without any script.
///
/// Bar starts come from the score's measures (``GradingResult/barStarts``); without them, from
/// the graded notes: a bar starts with its first note or rest (a note tied over the barline is
/// merged into the earlier bar, so the next bar's line is then drawn at its first new note).
struct ReportTimeline {
  /// Where a bar starts.
  struct BarStart: Equatable {
    /// The measure number.
    var measure: Int
    /// Its start on the score's time line, in seconds.
    var seconds: Double
  }

  /// One row of the roll: a time span on the score's time line, in seconds.
  struct Row: Equatable {
    var start: Double
    var end: Double
    var duration: Double { end - start }
  }

  /// The longest row, in seconds.
  let maximumRowSeconds: Double
  /// The span drawn, on the score's time line, in seconds.
  var start: Double
  var end: Double
  /// Every bar start, in time order (a repeated bar appears again where it is played again).
  var barStarts: [BarStart]
  /// The rows, in time order, covering `start...end`.
  var rows: [Row]

  /// Lays out a graded take.
  ///
  /// - Parameters:
  ///   - result: The graded take.
  ///   - maximumRowSeconds: The longest row, in seconds.
  init(_ result: GradingResult, maximumRowSeconds: Double = 15) {
    self.maximumRowSeconds = maximumRowSeconds
    let notes = result.grades.notes
    var first = 0.0
    var last = 0.0
    for graded in notes {
      first = min(first, graded.note.expectedStart)
      last = max(last, graded.note.expectedEnd)
      if let sound = graded.sound {
        first = min(first, sound.start)
        last = max(last, sound.end)
      }
    }
    for sound in result.grades.extraSounds {
      first = min(first, sound.start)
      last = max(last, sound.end)
    }
    let start = first < 0 ? first - 0.1 : 0
    let end = max(last + 0.25, start + 1)
    self.start = start
    self.end = end

    var bars: [BarStart] = result.barStarts.map { BarStart(measure: $0.measure, seconds: $0.seconds) }
    if bars.isEmpty {
      for graded in notes where bars.last?.measure != graded.note.measure {
        bars.append(BarStart(measure: graded.note.measure, seconds: graded.note.expectedStart))
      }
    }
    barStarts = bars

    // Greedy: each row takes as many whole bars as fit; a row shorter than a third of the
    // maximum is not cut at a bar (the cut moves to where the row is full instead).
    let cuts = bars.map(\.seconds).filter { $0 > start && $0 < end }
    var rows: [Row] = []
    var rowStart = start
    var next = 0
    while end - rowStart > maximumRowSeconds {
      var best: Double?
      while next < cuts.count, cuts[next] <= rowStart + maximumRowSeconds {
        if cuts[next] >= rowStart + maximumRowSeconds / 3 { best = cuts[next] }
        next += 1
      }
      let cut = best ?? rowStart + maximumRowSeconds
      rows.append(Row(start: rowStart, end: cut))
      rowStart = cut
    }
    rows.append(Row(start: rowStart, end: end))
    self.rows = rows
  }

  /// The row that shows `seconds` (the last row for times past the end).
  func row(containing seconds: Double) -> Int {
    rows.lastIndex { $0.start <= seconds } ?? 0
  }
}
