import Foundation
import PerformanceAnalysis

/// The HTML report of a graded take (`etude grade --report`): one self-contained page with
/// inline CSS and SVG, no script and no external URL.
///
/// It shows a header (title, files, level, instrument, latency, overall score, counts, tempo
/// drift), a heat map of the bars, the piano roll with the pitch contour (``PianoRollSVG``),
/// the ranked issues, the intonation trends, and every note in a collapsed table. Every string
/// from the input is escaped, and numbers have fixed formats, so the same take always gives
/// the same bytes.
struct GradeReport {
  let result: GradingResult

  /// A report of a graded take.
  init(_ result: GradingResult) { self.result = result }

  /// The page.
  func html() -> String {
    let timeline = ReportTimeline(result)
    let roll = PianoRollSVG(result, timeline: timeline, contour: PitchContour(result))
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="etude grade">
      <title>\(HTMLText.escaped(displayTitle)) – Etude report</title>
      <style>
      \(Self.css)</style>
      </head>
      <body>

      """
    page += header()
    page += heatMap(timeline)
    page += pianoRoll(roll)
    page += issuesTable()
    page += intonationTable()
    page += notesTable()
    page += "</body>\n</html>\n"
    return page
  }

  /// The score's title, else its file name.
  var displayTitle: String {
    if !result.title.trimmingCharacters(in: .whitespaces).isEmpty { return result.title }
    return result.scoreFile.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "Untitled score"
  }

  /// The title, the files, the overall score and the take's figures.
  func header() -> String {
    let grades = result.grades
    let colors = result.severityColor
    // The overall score's colour: 100 is green, 75 yellow, 50 and below red.
    let scoreColor = colors.hex(colors.redAt * (100 - grades.overallScore) / 50)
    let drift = grades.tempoDrift * 100
    // Under 1 % (2 s over a 3-minute take) the trend is within what a steady player does.
    let driftWords =
      abs(drift) < 1 ? "steady" : drift > 0 ? "slower: the take ran long" : "faster: the take ran short"
    let driftText = "\(HTMLText.signed(drift, 1)) % (\(driftWords))"
    let pitched = grades.notes.count(where: { $0.status != .rest })
    let rests = grades.notes.count - pitched
    var figures: [(String, String)] = [
      ("Level", HTMLText.escaped(result.tolerances.name)),
      ("Instrument", HTMLText.escaped(result.instrument ?? "none given")),
      ("Issues sorted by", HTMLText.escaped(result.criterion)),
      (
        "Latency",
        "\(HTMLText.fixed(result.latencySeconds * 1000, 1)) ms (\(result.latencyMeasured ? "measured from the take" : "given"))"
      ),
      ("Tempo drift", driftText),
      ("Take", "\(HTMLText.fixed(result.audioSeconds, 2)) s of audio"),
      ("Notes", "\(pitched) \(pitched == 1 ? "note" : "notes"), \(rests) \(rests == 1 ? "rest" : "rests")"),
      ("Played", "<span class=\"count\" id=\"played-count\">\(result.playedCount)</span>"),
      ("Missed", "<span class=\"count\" id=\"missed-count\">\(result.missedCount)</span>"),
      ("Extra sounds", "<span class=\"count\" id=\"extra-count\">\(grades.extraSounds.count)</span>"),
      ("With problems", "\(result.problemCount) of \(pitched) notes"),
    ]
    if result.tolerances.pitch.a4Hz != 440 {
      figures.insert(("Tuning", "A4 = \(HTMLText.fixed(result.tolerances.pitch.a4Hz, 1)) Hz"), at: 2)
    }
    var html = "<header>\n<h1>\(HTMLText.escaped(displayTitle))</h1>\n<p class=\"files\">"
    html += "score <code>\(HTMLText.escaped(result.scoreFile ?? "–"))</code> · "
    html += "take <code>\(HTMLText.escaped(result.audioFile ?? "–"))</code></p>\n"
    html += "<div class=\"summary\">\n"
    html +=
      "<div class=\"overall\" style=\"border-color:\(scoreColor)\"><span class=\"value\" id=\"overall-score\">"
    html += "\(HTMLText.fixed(grades.overallScore, 1))</span><span class=\"unit\">/ 100</span>"
    html += "<span class=\"caption\">overall score</span></div>\n<dl>\n"
    for (term, value) in figures { html += "<div><dt>\(term)</dt><dd>\(value)</dd></div>\n" }
    html += "</dl>\n</div>\n</header>\n"
    return html
  }

  /// One cell per bar, coloured by its mean severity, labelled with its measure number, each a
  /// link to the roll's row that shows it.
  func heatMap(_ timeline: ReportTimeline) -> String {
    let colors = result.severityColor
    var html = "<section id=\"bars\">\n<h2>Bars</h2>\n"
    guard !result.grades.bars.isEmpty else { return html + "<p>The score has no bars.</p>\n</section>\n" }
    html +=
      "<p class=\"note\">Mean severity per note of each bar (0 correct; \(HTMLText.fixed(colors.redAt, 0)) = a wrong note). "
    html += "Click a bar to see it on the piano roll.</p>\n<div class=\"heat-map\">\n"
    for bar in result.grades.bars {
      let start = timeline.barStarts.first { $0.measure == bar.measure }?.seconds ?? 0
      let title =
        "m. \(bar.measure): \(bar.notes) notes, \(bar.notesWithProblems) with problems, "
        + "mean severity \(HTMLText.fixed(bar.meanSeverity, 2))"
      html += "<a class=\"bar-cell\" href=\"#roll-row-\(timeline.row(containing: start) + 1)\" "
      html += "style=\"background:\(colors.hex(bar.meanSeverity))\" title=\"\(HTMLText.escaped(title))\" "
      html +=
        "data-measure=\"\(bar.measure)\"><b>\(bar.measure)</b><span>\(HTMLText.fixed(bar.meanSeverity, 1))</span></a>\n"
    }
    return html + "</div>\n</section>\n"
  }

  /// The legend and the roll's rows.
  func pianoRoll(_ roll: PianoRollSVG) -> String {
    let colors = result.severityColor
    let pitch = result.tolerances.pitch
    func swatch(_ shape: String) -> String {
      "<svg width=\"26\" height=\"12\" aria-hidden=\"true\">\(shape)</svg>"
    }
    let ramp = (0..<5).map { step -> String in
      let severity = colors.redAt * Double(step) / 4
      return "<rect x=\"\(step * 5)\" y=\"2\" width=\"5\" height=\"8\" fill=\"\(colors.hex(severity))\"/>"
    }.joined()
    let keys = [
      (
        swatch("<rect class=\"expected\" x=\"1\" y=\"1\" width=\"24\" height=\"10\"/>"),
        "expected note (written length)"
      ),
      (swatch(ramp), "played, by severity: 0 to \(HTMLText.fixed(colors.redAt, 0)) (a wrong note) and worse"),
      (
        swatch("<rect class=\"missed-box\" x=\"1\" y=\"1\" width=\"24\" height=\"10\"/>"), "missed"
      ),
      (swatch("<rect class=\"extra\" x=\"1\" y=\"2\" width=\"24\" height=\"8\"/>"), "extra sound"),
      (swatch("<rect fill=\"#d9d9d9\" class=\"rest\" x=\"1\" y=\"0\" width=\"24\" height=\"12\"/>"), "rest"),
      (
        swatch(
          "<rect class=\"zone-ok\" x=\"0\" y=\"2\" width=\"26\" height=\"8\"/><line class=\"contour\" x1=\"0\" y1=\"8\" x2=\"26\" y2=\"4\"/>"
        ),
        "pitch in cents from the expected note; correct zone ±\(HTMLText.fixed(pitch.correctCents, 0)) cents"
      ),
      (
        swatch("<rect class=\"zone-bit\" x=\"0\" y=\"2\" width=\"26\" height=\"8\"/>"),
        "a bit flat / sharp up to ±\(HTMLText.fixed(pitch.veryCents, 0))"
      ),
      (
        swatch("<line class=\"contour off\" x1=\"0\" y1=\"2\" x2=\"26\" y2=\"2\"/>"),
        "beyond ±100 cents (another note)"
      ),
      (
        swatch("<line class=\"contour loose\" x1=\"0\" y1=\"8\" x2=\"26\" y2=\"4\"/>"),
        "pitch outside the note's sound (a release, an extra sound), against the written note"
      ),
    ]
    var html = "<section id=\"roll\">\n<h2>Piano roll and pitch contour</h2>\n"
    html +=
      "<p class=\"note\">Time in seconds on the score's time line (the take less the latency); pitch as it sounds "
      + "(concert pitch), C's named. Under each row, the pitch of the take in cents from the note it was meant "
      + "to be, clamped to ±100. Point at a note for its grades.</p>\n<ul class=\"legend\">\n"
    for (shape, text) in keys { html += "<li>\(shape) \(text)</li>\n" }
    html += "</ul>\n<div class=\"roll-rows\">\n"
    for row in roll.rows() { html += row }
    return html + "</div>\n</section>\n"
  }
}

extension GradeReport {
  /// The page's stylesheet: system fonts only, nothing fetched.
  static let css = """
    body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      color: #1d1f23; margin: 24px; background: #fafafa; }
    h1 { font-size: 24px; margin: 0 0 4px; }
    h2 { font-size: 18px; margin: 28px 0 8px; }
    code { font: 12px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: #eef0f3; padding: 1px 4px;
      border-radius: 3px; }
    .files { margin: 0 0 12px; color: #555; word-break: break-all; }
    .note { color: #555; margin: 4px 0 8px; max-width: 70em; }
    .summary { display: flex; gap: 20px; align-items: stretch; flex-wrap: wrap; }
    .overall { border: 6px solid; border-radius: 10px; background: #fff; padding: 10px 18px; min-width: 120px;
      display: flex; flex-direction: column; align-items: center; justify-content: center; }
    .overall .value { font-size: 40px; font-weight: 700; line-height: 1; }
    .overall .unit { color: #666; }
    .overall .caption { color: #555; font-size: 12px; margin-top: 4px; }
    dl { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 6px 18px; margin: 0; flex: 1;
      min-width: 300px; }
    dl div { background: #fff; border: 1px solid #e2e4e8; border-radius: 6px; padding: 4px 10px; }
    dt { font-size: 11px; color: #666; text-transform: uppercase; letter-spacing: .04em; }
    dd { margin: 0; font-weight: 600; }
    .heat-map { display: flex; flex-wrap: wrap; gap: 3px; }
    .bar-cell { display: flex; flex-direction: column; align-items: center; justify-content: center; width: 40px;
      height: 38px; border-radius: 4px; color: #111; text-decoration: none; font-size: 11px; line-height: 1.15; }
    .bar-cell b { font-size: 14px; }
    .bar-cell:hover { outline: 2px solid #1d1f23; }
    .legend { list-style: none; padding: 0; margin: 6px 0 10px; display: flex; flex-wrap: wrap; gap: 4px 18px;
      font-size: 12px; color: #333; }
    .legend li { display: flex; align-items: center; gap: 6px; }
    .roll-rows { overflow-x: auto; background: #fff; border: 1px solid #dde0e5; border-radius: 6px; padding: 8px; }
    .roll-rows svg { display: block; margin: 0 0 14px; }
    svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
    .roll { fill: #fff; stroke: #c4c8cf; }
    .black-key { fill: #f0f1f5; }
    .c-line { stroke: #c4c8cf; stroke-width: 1; }
    .pitch-label, .cents-label, .time-label { font-size: 10px; fill: #555; }
    .pitch-label.c { fill: #1d1f23; font-weight: 600; }
    .pitch-label.minor { font-size: 8px; fill: #9a9ea6; }
    .measure-label { font-size: 10px; fill: #333; font-weight: 600; }
    .bar-line { stroke: #8d94a0; stroke-width: 1; }
    .tick { stroke: #8d94a0; }
    .rest { fill-opacity: .5; }
    .rest.bad { fill-opacity: .18; }
    .expected { fill: none; stroke: #2a2d33; stroke-width: 1.2; }
    .played { stroke: #000; stroke-opacity: .35; stroke-width: .6; }
    .played.unpitched { fill-opacity: .45; }
    .stem { stroke: #444; stroke-width: 1; stroke-dasharray: 2 2; }
    .missed-box { fill: #fbe1df; stroke: #d63027; stroke-width: 1.4; stroke-dasharray: 4 2; }
    .cross { stroke: #d63027; stroke-width: 1.6; }
    .missed-label { font-size: 9px; fill: #b3261e; font-weight: 600; }
    .extra { fill: #8e5bd0; fill-opacity: .85; stroke: #4b2386; stroke-width: .6; }
    .contour-panel { fill: #fff; stroke: #c4c8cf; }
    .zone-ok { fill: #d9efd9; }
    .zone-bit { fill: #fbf3d2; }
    .zone-wrong { stroke: #d9a0a0; stroke-dasharray: 3 3; }
    .zero { stroke: #7fb27f; }
    .contour { fill: none; stroke: #1f4e9c; stroke-width: 1.4; stroke-linejoin: round; }
    .contour.off { stroke: #d63027; }
    .contour.loose { stroke: #a3a8b2; stroke-width: 1; }
    table { border-collapse: collapse; background: #fff; font-size: 13px; }
    th, td { border: 1px solid #e0e2e6; padding: 3px 8px; text-align: left; vertical-align: top; }
    th { background: #f0f1f4; font-weight: 600; }
    td.num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.missed td { background: #fdf0ef; }
    .dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px;
      vertical-align: -1px; }
    details { margin-top: 24px; }
    summary { cursor: pointer; font-weight: 600; }
    @media print { body { background: #fff; margin: 8mm; } .roll-rows { overflow: visible; border: 0; } }

    """
}
