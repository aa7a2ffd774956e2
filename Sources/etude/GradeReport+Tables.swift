import PerformanceAnalysis

/// The report's tables: the ranked issues, the intonation trends and every note.
extension GradeReport {
  /// The issues in the ranker's order (worst first under the criterion).
  func issuesTable() -> String {
    let colors = result.severityColor
    var html = "<section id=\"issues\">\n<h2>Issues, worst first</h2>\n"
    guard !result.issues.isEmpty else {
      return html + "<p>No issues: every note was played as written.</p>\n</section>\n"
    }
    html +=
      "<p class=\"note\">\(result.issues.count) issues, ranked by the \(HTMLText.escaped(result.criterion)) criterion.</p>\n"
    html += "<table class=\"issues\">\n<thead><tr><th>Rank</th><th>Measure</th><th>Note</th><th>Category</th>"
    html += "<th>Rating</th><th>Score</th><th>Help</th></tr></thead>\n<tbody>\n"
    for (rank, issue) in result.issues.enumerated() {
      let note = result.graded(index: issue.index).map { GradingResult.noteLabel($0.note) } ?? "–"
      let help: String
      if let video = issue.videoID {
        help = "video <code>\(HTMLText.escaped(video))</code>"
      } else {
        help = HTMLText.escaped(issue.alert ?? "")
      }
      html +=
        "<tr data-rank=\"\(rank + 1)\" data-note=\"\(issue.index)\" data-score=\"\(HTMLText.fixed(issue.score, 3))\">"
      html += "<td class=\"num\">\(rank + 1)</td><td class=\"num\">\(issue.measure)</td>"
      html += "<td>\(HTMLText.escaped(note)) <small>#\(issue.index)</small></td>"
      html += "<td>\(HTMLText.escaped(HTMLText.words(issue.category)))</td>"
      html += "<td><span class=\"dot\" style=\"background:\(colors.hex(issue.score))\"></span>"
      html += "\(HTMLText.escaped(HTMLText.words(issue.rating.rawValue)))</td>"
      html += "<td class=\"num\">\(HTMLText.fixed(issue.score, 1))</td><td>\(help)</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n</section>\n"
  }

  /// The mean deviation of each pitch class, most out of tune first, with the grader's message.
  func intonationTable() -> String {
    var html = "<section id=\"intonation\">\n<h2>Intonation</h2>\n"
    guard !result.grades.intonation.isEmpty else {
      return html + "<p>No note was near enough its pitch to judge.</p>\n</section>\n"
    }
    html +=
      "<table class=\"intonation\">\n<thead><tr><th>Note</th><th>Notes</th><th>Mean (cents)</th><th>Message</th></tr></thead>\n<tbody>\n"
    for trend in result.grades.intonation {
      html += "<tr><td>\(HTMLText.escaped(trend.pitchClass))</td><td class=\"num\">\(trend.notes)</td>"
      html += "<td class=\"num\">\(HTMLText.signed(trend.meanCents, 1))</td>"
      html += "<td>\(HTMLText.escaped(trend.message ?? "in tune"))</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n</section>\n"
  }

  /// Every note and rest with its times, ratings and severity, collapsed.
  func notesTable() -> String {
    let colors = result.severityColor
    let notes = result.grades.notes
    var html = "<details id=\"notes\">\n<summary>Every note and rest (\(notes.count))</summary>\n"
    html += "<table class=\"notes\">\n<thead><tr><th>#</th><th>Measure</th><th>Written</th><th>Status</th>"
    html +=
      "<th>Expected (s)</th><th>Played (s)</th><th>Ratings</th><th>Severity</th></tr></thead>\n<tbody>\n"
    for graded in notes {
      let note = graded.note
      let played =
        graded.sound.map {
          "\(HTMLText.fixed($0.onset, 2))–\(HTMLText.fixed($0.end, 2))"
        } ?? "–"
      let ratings =
        graded.problems.isEmpty
        ? "correct" : graded.problems.map { HTMLText.words($0.rawValue) }.joined(separator: ", ")
      html += "<tr data-note=\"\(note.index)\" class=\"\(graded.status.rawValue)\">"
      html += "<td class=\"num\">\(note.index)</td><td class=\"num\">\(note.measure)</td>"
      html += "<td>\(HTMLText.escaped(GradingResult.noteLabel(note)))</td><td>\(graded.status.rawValue)</td>"
      html +=
        "<td class=\"num\">\(HTMLText.fixed(note.expectedStart, 2))–\(HTMLText.fixed(note.expectedEnd, 2))</td>"
      html += "<td class=\"num\">\(played)</td><td title=\"\(HTMLText.escaped(result.summary(of: graded)))\">"
      html += "\(HTMLText.escaped(ratings))</td>"
      html += "<td class=\"num\"><span class=\"dot\" style=\"background:\(colors.hex(graded.score))\"></span>"
      html += "\(HTMLText.fixed(graded.score, 1))</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n</details>\n"
  }
}
