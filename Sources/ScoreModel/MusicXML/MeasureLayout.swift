/// A score's page settings from MusicXML `<defaults>`, in tenths (a tenth of a staff space).
struct PageDefaults: Sendable, Hashable {
  var pageWidth = 1700.0
  var pageHeight = 2200.0
  var leftMargin = 70.0
  var rightMargin = 70.0
  var topMargin = 70.0
  var systemLeftMargin = 0.0
  var systemRightMargin = 0.0
  var systemDistance = 120.0
  var topSystemDistance = 70.0
  var staffDistance = 65.0

  init() {}

  init(_ defaults: XMLTree.Element?) {
    guard let defaults else { return }
    func number(_ element: XMLTree.Element?, _ name: String) -> Double? {
      element?.text(of: name).flatMap(Double.init).flatMap { $0.isFinite && abs($0) < 1e6 ? $0 : nil }
    }
    if let page = defaults.child("page-layout") {
      pageWidth = number(page, "page-width") ?? pageWidth
      pageHeight = number(page, "page-height") ?? pageHeight
      let margins = page.child("page-margins")
      leftMargin = number(margins, "left-margin") ?? leftMargin
      rightMargin = number(margins, "right-margin") ?? rightMargin
      topMargin = number(margins, "top-margin") ?? topMargin
    }
    if let system = defaults.child("system-layout") {
      let margins = system.child("system-margins")
      systemLeftMargin = number(margins, "left-margin") ?? systemLeftMargin
      systemRightMargin = number(margins, "right-margin") ?? systemRightMargin
      systemDistance = number(system, "system-distance") ?? systemDistance
      topSystemDistance = number(system, "top-system-distance") ?? topSystemDistance
    }
    staffDistance = number(defaults.child("staff-layout"), "staff-distance") ?? staffDistance
  }
}

/// What a measure says about where it is drawn: its width and whether it starts a system or a
/// page (with that system's distances).
struct MeasureLayout: Sendable, Hashable {
  var width: Double?
  var isImplicit = false
  var newSystem = false
  var newPage = false
  var systemDistance: Double?
  var topSystemDistance: Double?
  var systemLeftMargin: Double?

  mutating func read(print: XMLTree.Element) {
    if print[attribute: "new-system"] == "yes" { newSystem = true }
    if print[attribute: "new-page"] == "yes" { newPage = true }
    if let system = print.child("system-layout") {
      systemDistance = system.text(of: "system-distance").flatMap(Double.init) ?? systemDistance
      topSystemDistance = system.text(of: "top-system-distance").flatMap(Double.init) ?? topSystemDistance
      systemLeftMargin = system.child("system-margins")?.text(of: "left-margin").flatMap(Double.init) ?? systemLeftMargin
    }
  }
}

/// Where each notation measure is drawn, and where its notes go.
///
/// With the file's layout (measure widths, `<print>` new systems and pages, page and system
/// margins and distances): measures run left to right from the page's left margin plus the
/// system's; a new system starts at the left again, `system-distance` below the previous one;
/// a new page starts `top-system-distance` below the next page's top margin. A note's x is its
/// measure's left plus its `default-x`; its y is its staff's top line plus `−default-y`. Without
/// widths, the documented proportional layout: each measure is 40 tenths per quarter note plus 20
/// wide, systems wrap at the page's content width, and a note's x is proportional to its onset
/// in the measure. Without `default-y`, a note sits where a treble clef puts it (5 tenths per
/// diatonic step below F5 on the top line), a rest on the middle line. Every coordinate is in
/// tenths, x to the right of the page's left edge and y down from the top of the first page
/// (pages are stacked).
struct ScoreLayout {
  private(set) var measureLeft: [Double] = []
  private(set) var measureWidth: [Double] = []
  private(set) var systemTop: [Double] = []
  /// The top line of each (part, staff), relative to its system's top.
  private var staffOffsets: [[Double]] = []

  init(measures: [MusicXMLReader.Measure], lengths: [Rational], defaults: PageDefaults, staffCounts: [Int]) {
    var offset = 0.0
    for staves in staffCounts {
      var part: [Double] = []
      for _ in 0..<max(1, staves) {
        part.append(offset)
        offset += 40 + defaults.staffDistance
      }
      staffOffsets.append(part)
    }
    let systemHeight = max(40, offset - defaults.staffDistance)
    let contentRight = defaults.pageWidth - defaults.rightMargin - defaults.systemRightMargin
    var page = 0
    let first = measures.first?.layout
    var left = defaults.leftMargin + (first?.systemLeftMargin ?? defaults.systemLeftMargin)
    var x = left
    var top = defaults.topMargin + (first?.topSystemDistance ?? defaults.topSystemDistance)
    for (index, measure) in measures.enumerated() {
      let width = measure.layout.width ?? (40 * lengths[index].doubleValue + 20)
      let wraps = measure.layout.width == nil && x + width > contentRight && x > left
      if index > 0, measure.layout.newPage {
        page += 1
        top = Double(page) * defaults.pageHeight + defaults.topMargin
          + (measure.layout.topSystemDistance ?? defaults.topSystemDistance)
        left = defaults.leftMargin + (measure.layout.systemLeftMargin ?? defaults.systemLeftMargin)
        x = left
      } else if index > 0, measure.layout.newSystem || wraps {
        top += systemHeight + (measure.layout.systemDistance ?? defaults.systemDistance)
        left = defaults.leftMargin + (measure.layout.systemLeftMargin ?? defaults.systemLeftMargin)
        x = left
      }
      measureLeft.append(x)
      measureWidth.append(width)
      systemTop.append(top)
      x += width
    }
  }

  /// The position of a note in tenths.
  func position(of note: MusicXMLReader.Note, measureLength: Rational) -> (x: Double, y: Double) {
    let m = note.measure
    guard m < measureLeft.count else { return (0, 0) }
    let x: Double
    if let defaultX = note.defaultX {
      x = measureLeft[m] + defaultX
    } else {
      let fraction = measureLength > .zero ? (note.onset / measureLength).doubleValue : 0
      x = measureLeft[m] + 20 + fraction * max(0, measureWidth[m] - 30)
    }
    let offsets = note.part < staffOffsets.count ? staffOffsets[note.part] : [0]
    let staffTop = systemTop[m] + offsets[max(0, min(offsets.count - 1, note.staff - 1))]
    if let defaultY = note.defaultY { return (x, staffTop - defaultY) }
    guard let pitch = note.notated else { return (x, staffTop + 20) }
    // Treble clef: the top line is F5, 5 tenths per diatonic step.
    let steps = 38 - (pitch.letter.rawValue + 7 * pitch.octave)
    return (x, staffTop + 5 * Double(steps))
  }
}
