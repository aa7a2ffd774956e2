import Foundation
import PerformanceAnalysis
import PerformanceTracking
import ScoreModel

/// The report's piano roll: one inline SVG per row of the ``ReportTimeline``, time in seconds
/// on the score's time line across, sounding (concert) MIDI pitch up, named at every C.
///
/// Each row draws the expected notes as outlined boxes; the sound linked to each note as a
/// filled bar at its measured onset, offset and pitch, coloured by the note's severity
/// (``SeverityColor``); missed notes as dashed red boxes with a cross; extra sounds as purple
/// bars; rests as grey bands; and a line at each bar start with its measure number.
///
/// Under the roll, on the same time axis, a second panel shows the pitch contour
/// (``PitchContour``) in cents from the expected note, clamped to ±100 cents, over the
/// tolerance zones. A separate panel reads better than a line over the roll: a semitone on the
/// roll is about 10 px, so a note 20 cents flat would be 2 px off, while the panel gives the
/// ±100 cents 120 px and shades the correct zone, so "a bit flat" is visible at a glance; the
/// roll's bars already show which note was played.
struct PianoRollSVG {
  let result: GradingResult
  let timeline: ReportTimeline
  let contour: PitchContour
  let colors: SeverityColor
  /// Horizontal scale, in px per second.
  let pixelsPerSecond: Double
  /// The pitch rows drawn, as MIDI numbers.
  let lowestPitch: Int
  let highestPitch: Int
  /// The height of one semitone, in px.
  let semitoneHeight: Double

  /// The left margin with the pitch and cents labels, in px.
  static let gutter = 46.0
  /// The band above the roll with the measure numbers, in px.
  static let top = 16.0
  /// The band between roll and contour with the seconds, in px.
  static let axis = 18.0
  /// The contour panel's height (±100 cents), in px.
  static let contourHeight = 120.0
  /// The contour panel's range, in cents either side of the expected note.
  static let contourCents = 100.0
  static let right = 10.0
  static let bottom = 4.0

  /// Lays out the roll for a graded take.
  init(_ result: GradingResult, timeline: ReportTimeline, contour: PitchContour) {
    self.result = result
    self.timeline = timeline
    self.contour = contour
    colors = result.severityColor
    // Short takes get a wider scale so that a row is not a thumbnail.
    pixelsPerSecond = min(200, max(80, 900 / max(timeline.end - timeline.start, 0.1)))

    let written = result.grades.notes.compactMap { $0.note.soundingPitch?.rawValue }
    var low = Double(written.min() ?? 60)
    var high = Double(written.max() ?? 72)
    // Played and extra pitches widen the range, but by an octave at most: a stray partial two
    // octaves up should not squash the whole roll.
    let (floor, ceiling) = (low - 12, high + 12)
    for pitch in Self.playedPitches(result) where pitch >= floor && pitch <= ceiling {
      low = min(low, pitch.rounded())
      high = max(high, pitch.rounded())
    }
    var lowest = Int(low) - 1
    var highest = Int(high) + 1
    if highest - lowest < 12 {
      let missing = 12 - (highest - lowest)
      lowest -= missing / 2
      highest += missing - missing / 2
    }
    lowestPitch = max(0, lowest)
    highestPitch = min(127, highest)
    let rows = Double(highestPitch - lowestPitch + 1)
    semitoneHeight = rows <= 30 ? 10 : max(5, 300 / rows)
  }

  /// The fractional MIDI pitches of every linked and extra pitched sound.
  static func playedPitches(_ result: GradingResult) -> [Double] {
    let tuning = result.tuning
    let sounds = result.grades.notes.compactMap(\.sound) + result.grades.extraSounds
    return sounds.compactMap { $0.isPitched ? tuning.midi(frequencyHz: $0.frequencyHz) : nil }
  }

  var rollHeight: Double { Double(highestPitch - lowestPitch + 1) * semitoneHeight }
  var contourTop: Double { Self.top + rollHeight + Self.axis }
  var height: Double { contourTop + Self.contourHeight + Self.bottom }

  /// The vertical centre of a (fractional) pitch, clamped to the roll.
  func y(pitch: Double) -> Double {
    let clamped = min(max(pitch, Double(lowestPitch) - 0.4), Double(highestPitch) + 0.4)
    return Self.top + (Double(highestPitch) + 0.5 - clamped) * semitoneHeight
  }

  /// The vertical position of a deviation in the contour panel, clamped to ±100 cents.
  func y(cents: Double) -> Double {
    let clamped = min(max(cents, -Self.contourCents), Self.contourCents)
    return contourTop + Self.contourHeight / 2 * (1 - clamped / Self.contourCents)
  }

  /// Every row's `<svg>`, in time order.
  func rows() -> [String] {
    timeline.rows.indices.map { row($0) }
  }

  /// One row's `<svg>`.
  func row(_ index: Int) -> String {
    let row = timeline.rows[index]
    let width = Self.gutter + row.duration * pixelsPerSecond + Self.right
    var canvas = SVGCanvas(width: width, height: height)
    let x = { (seconds: Double) in
      Self.gutter + (min(max(seconds, row.start), row.end) - row.start) * self.pixelsPerSecond
    }
    func overlaps(_ start: Double, _ end: Double) -> Bool { end > row.start && start < row.end }
    let right = x(row.end)

    drawBackground(&canvas, right: right)
    for graded in result.grades.notes where graded.status == .rest {
      let note = graded.note
      guard overlaps(note.expectedStart, note.expectedEnd) else { continue }
      let bad = graded.score > 0
      canvas.rect(
        x: x(note.expectedStart), y: Self.top, width: x(note.expectedEnd) - x(note.expectedStart),
        height: rollHeight,
        class: bad ? "rest bad" : "rest", fill: bad ? colors.hex(graded.score) : "#d9d9d9",
        title: result.summary(of: graded))
    }
    drawBarLines(&canvas, row: row, x: x)
    drawTimeAxis(&canvas, row: row, x: x)
    drawNotes(&canvas, overlaps: overlaps, x: x)
    drawExtraSounds(&canvas, overlaps: overlaps, x: x)
    drawContour(&canvas, row: row)
    let label =
      "Piano roll and pitch contour, \(HTMLText.fixed(row.start, 1)) to \(HTMLText.fixed(row.end, 1)) s"
    return canvas.svg(id: "roll-row-\(index + 1)", label: label)
  }

  /// The pitch rows (black keys shaded, a line under each C, named in the gutter) and the
  /// contour panel's zones and scale.
  func drawBackground(_ canvas: inout SVGCanvas, right: Double) {
    let left = Self.gutter
    canvas.rect(x: left, y: Self.top, width: right - left, height: rollHeight, class: "roll")
    for pitch in lowestPitch...highestPitch {
      let top = y(pitch: Double(pitch)) - semitoneHeight / 2
      if [1, 3, 6, 8, 10].contains(pitch % 12) {
        canvas.rect(x: left, y: top, width: right - left, height: semitoneHeight, class: "black-key")
      }
      if pitch % 12 == 0 {
        canvas.line(x1: left, y1: top + semitoneHeight, x2: right, y2: top + semitoneHeight, class: "c-line")
        canvas.text(
          GradingResult.name(MIDINote(rawValue: pitch)), x: left - 4, y: top + semitoneHeight / 2 + 3.5,
          class: "pitch-label c", anchor: "end")
      } else if semitoneHeight >= 9, [2, 4, 5, 7, 9, 11].contains(pitch % 12) {
        // The other white keys, lighter, where the rows are tall enough to hold a label.
        canvas.text(
          GradingResult.name(MIDINote(rawValue: pitch)), x: left - 4, y: top + semitoneHeight / 2 + 3,
          class: "pitch-label minor", anchor: "end")
      }
    }

    let pitch = result.tolerances.pitch
    canvas.rect(
      x: left, y: contourTop, width: right - left, height: Self.contourHeight, class: "contour-panel")
    canvas.rect(
      x: left, y: y(cents: pitch.veryCents), width: right - left,
      height: y(cents: -pitch.veryCents) - y(cents: pitch.veryCents),
      class: "zone-bit")
    canvas.rect(
      x: left, y: y(cents: pitch.correctCents), width: right - left,
      height: y(cents: -pitch.correctCents) - y(cents: pitch.correctCents), class: "zone-ok")
    for cents in [pitch.wrongNoteCents, -pitch.wrongNoteCents] {
      canvas.line(x1: left, y1: y(cents: cents), x2: right, y2: y(cents: cents), class: "zone-wrong")
    }
    canvas.line(x1: left, y1: y(cents: 0), x2: right, y2: y(cents: 0), class: "zero")
    for cents in [100.0, 50, 0, -50, -100] {
      canvas.text(
        HTMLText.signed(cents, 0), x: left - 4, y: y(cents: cents) + 3.5, class: "cents-label", anchor: "end")
    }
  }

  /// A line at each bar start in the row, through both panels, with the measure number above.
  func drawBarLines(_ canvas: inout SVGCanvas, row: ReportTimeline.Row, x: (Double) -> Double) {
    for bar in timeline.barStarts where bar.seconds >= row.start && bar.seconds < row.end {
      let position = x(bar.seconds)
      canvas.line(
        x1: position, y1: Self.top - 2, x2: position, y2: contourTop + Self.contourHeight, class: "bar-line")
      canvas.text(String(bar.measure), x: position + 2, y: Self.top - 4, class: "measure-label")
    }
  }

  /// Ticks and labels every second (every 2 s on a narrow scale) between the panels.
  func drawTimeAxis(_ canvas: inout SVGCanvas, row: ReportTimeline.Row, x: (Double) -> Double) {
    let step = pixelsPerSecond >= 60 ? 1.0 : 2.0
    let axisTop = Self.top + rollHeight
    var tick = (row.start / step).rounded(.up) * step
    while tick <= row.end + 1e-9 {
      canvas.line(x1: x(tick), y1: axisTop, x2: x(tick), y2: axisTop + 4, class: "tick")
      // A label at the row's left edge starts there, clear of the gutter's caption.
      let atEdge = x(tick) - Self.gutter < 8
      canvas.text(
        HTMLText.fixed(tick, 0), x: atEdge ? x(tick) + 1 : x(tick), y: axisTop + 14, class: "time-label",
        anchor: atEdge ? "start" : "middle")
      tick += step
    }
    canvas.text("time (s)", x: 2, y: axisTop + 14, class: "time-label", anchor: "start")
  }

  /// The expected boxes, the played bars over them, and the missed marks.
  func drawNotes(_ canvas: inout SVGCanvas, overlaps: (Double, Double) -> Bool, x: (Double) -> Double) {
    let tuning = result.tuning
    for graded in result.grades.notes where graded.status != .rest {
      let note = graded.note
      guard let expected = note.soundingPitch.map({ Double($0.rawValue) }) else { continue }
      let sound = graded.sound.map { (start: $0.onset, end: $0.end, sound: $0) }
      let shows =
        overlaps(note.expectedStart, note.expectedEnd) || sound.map { overlaps($0.start, $0.end) } ?? false
      guard shows else { continue }
      let summary = result.summary(of: graded)
      let data = [("data-note", String(note.index)), ("data-measure", String(note.measure))]
      let boxTop = y(pitch: expected) - semitoneHeight / 2
      let boxLeft = x(note.expectedStart)
      let boxWidth = x(note.expectedEnd) - boxLeft
      if graded.status == .missed {
        canvas.group(class: "missed", data: data, title: summary)
        canvas.rect(x: boxLeft, y: boxTop, width: boxWidth, height: semitoneHeight, class: "missed-box")
        if overlaps(note.expectedStart, note.expectedEnd) {
          let middle = boxLeft + boxWidth / 2
          let size = min(semitoneHeight * 0.6, 6)
          canvas.line(
            x1: middle - size, y1: boxTop + semitoneHeight / 2 - size, x2: middle + size,
            y2: boxTop + semitoneHeight / 2 + size, class: "cross")
          canvas.line(
            x1: middle - size, y1: boxTop + semitoneHeight / 2 + size, x2: middle + size,
            y2: boxTop + semitoneHeight / 2 - size, class: "cross")
          canvas.text("missed", x: middle, y: boxTop - 3, class: "missed-label", anchor: "middle")
        }
        canvas.close()
        continue
      }
      canvas.group(class: "note", data: data, title: summary)
      canvas.rect(x: boxLeft, y: boxTop, width: boxWidth, height: semitoneHeight, class: "expected")
      if let sound {
        let played =
          sound.sound.isPitched ? tuning.midi(frequencyHz: sound.sound.frequencyHz) ?? expected : expected
        let barHeight = semitoneHeight * 0.64
        let left = x(sound.start)
        if abs(played - expected) >= 0.5 {
          // A wrong note, octave or partial: a dotted stem from the written row to the bar.
          canvas.line(x1: left, y1: y(pitch: expected), x2: left, y2: y(pitch: played), class: "stem")
        }
        canvas.rect(
          x: left, y: y(pitch: played) - barHeight / 2, width: max(x(sound.end) - left, 1), height: barHeight,
          class: sound.sound.isPitched ? "played" : "played unpitched", fill: colors.hex(graded.score))
      }
      canvas.close()
    }
  }

  /// The sounds no note claimed (already on the score's time line); unpitched ones along the
  /// bottom of the roll.
  func drawExtraSounds(_ canvas: inout SVGCanvas, overlaps: (Double, Double) -> Bool, x: (Double) -> Double) {
    let tuning = result.tuning
    for sound in result.grades.extraSounds where overlaps(sound.start, sound.end) {
      let pitch = sound.isPitched ? tuning.midi(frequencyHz: sound.frequencyHz) : nil
      let barHeight = semitoneHeight * 0.64
      let centre = pitch.map { y(pitch: $0) } ?? (Self.top + rollHeight - barHeight / 2)
      var title = "extra sound, \(HTMLText.fixed(sound.start, 2))–\(HTMLText.fixed(sound.end, 2)) s"
      if let pitch {
        title +=
          ", \(HTMLText.fixed(sound.frequencyHz, 1)) Hz (\(GradingResult.name(MIDINote(rawValue: Int(pitch.rounded())))))"
      } else {
        title += ", unpitched"
      }
      canvas.rect(
        x: x(sound.start), y: centre - barHeight / 2, width: max(x(sound.end) - x(sound.start), 1),
        height: barHeight,
        class: "extra", title: title)
    }
  }

  /// The contour's runs in the row, averaged per pixel column; the clamped stretches of linked
  /// runs (beyond ±100 cents: another note) are drawn red along the panel's edge, runs outside
  /// the linked sounds faint grey.
  func drawContour(_ canvas: inout SVGCanvas, row: ReportTimeline.Row) {
    for run in contour.runs {
      guard let first = run.points.first, let last = run.points.last, last.seconds >= row.start,
        first.seconds < row.end
      else { continue }
      let (inside, outside) = run.isLinked ? ("contour", "contour off") : ("contour loose", "contour loose")
      var columns: [(column: Int, total: Double, count: Int)] = []
      for point in run.points where point.seconds >= row.start && point.seconds < row.end {
        let column = Int(((point.seconds - row.start) * pixelsPerSecond).rounded(.down))
        if columns.last?.column == column {
          columns[columns.count - 1].total += point.cents
          columns[columns.count - 1].count += 1
        } else {
          columns.append((column, point.cents, 1))
        }
      }
      var stretch: [(x: Double, y: Double)] = []
      var stretchOff = false
      for column in columns {
        let cents = column.total / Double(column.count)
        let off = abs(cents) > Self.contourCents
        let point = (x: Self.gutter + Double(column.column) + 0.5, y: y(cents: cents))
        if off != stretchOff, !stretch.isEmpty {
          // The old colour runs on to this point, so the line stays continuous where it changes.
          canvas.polyline(stretch + [point], class: stretchOff ? outside : inside)
          stretch = []
        }
        stretchOff = off
        stretch.append(point)
      }
      if stretch.count == 1 {
        // A lone column: a short tick, so a one-frame run still shows.
        stretch.append((stretch[0].x + 1, stretch[0].y))
      }
      canvas.polyline(stretch, class: stretchOff ? outside : inside)
    }
  }
}
