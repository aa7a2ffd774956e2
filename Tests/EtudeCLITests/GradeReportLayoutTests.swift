import Foundation
import IssueRanking
import PerformanceAnalysis
import PerformanceTracking
import PitchDSP
import ScoreModel
import Testing

@testable import etude

/// The HTML report's parts without audio: number formats, escaping, colours, and the layout of
/// a three-minute take graded from a made-up alignment.
@Suite struct GradeReportLayoutTests {
  @Test func numbersHaveOneFormatWhateverTheValue() {
    #expect(HTMLText.fixed(1.25, 1) == "1.3")
    #expect(HTMLText.fixed(-1.25, 1) == "-1.3")
    #expect(HTMLText.fixed(-0.04, 1) == "0.0")
    #expect(HTMLText.fixed(12, 0) == "12")
    #expect(HTMLText.fixed(0.005, 3) == "0.005")
    #expect(HTMLText.fixed(.nan, 1) == "–")
    #expect(HTMLText.signed(3.04, 1) == "+3.0")
    #expect(HTMLText.signed(0.01, 1) == "0.0")
    #expect(HTMLText.signed(-2, 0) == "-2")
    #expect(
      HTMLText.escaped(#"<a href="x">Tom & 'Jerry'</a>"#)
        == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
    #expect(HTMLText.words("soundDuringRest") == "sound during rest")
  }

  @Test func severityRunsFromGreenThroughYellowToRed() {
    let colors = SeverityColor(redAt: 5)
    #expect(colors.hex(0) == "#2e9e44")
    #expect(colors.hex(2.5) == "#ecbe18")
    #expect(colors.hex(5) == "#d63027")
    #expect(colors.hex(10) == "#d63027")
    #expect(colors.hex(-1) == "#2e9e44")
  }

  /// 400 notes of 0.45 s, four to a bar (3 minutes); every tenth note missed, every other note
  /// played 10 cents sharp, with a pitch track at 10 ms frames.
  static func longTake() -> GradingResult {
    let tuning = Tuning()
    let notes = (0..<400).map { i in
      PerformanceNote(
        index: i, measure: i / 4 + 1, expectedStart: Double(i) * 0.45, expectedDuration: 0.45,
        writtenPitch: MIDINote(rawValue: 60 + (i * 5) % 14))
    }
    var sounds: [PerformanceSound] = []
    var links: [Int?] = []
    var estimates: [PitchEstimate] = []
    for note in notes {
      guard note.index % 10 != 7, let pitch = note.soundingPitch else {
        links.append(nil)
        continue
      }
      let hz = tuning.frequencyHz(midi: Double(pitch.rawValue) + (note.index % 2 == 0 ? 0.1 : 0))
      let sound = PerformanceSound(
        start: note.expectedStart + 0.01, end: note.expectedEnd - 0.04, frequencyHz: hz, peakLevelDBFS: -12)
      links.append(sounds.count)
      sounds.append(sound)
      var time = sound.start + 0.005
      while time < sound.end {
        estimates.append(PitchEstimate(time: time, frequencyHz: hz, confidence: 0.9, levelDBFS: -14))
        time += 0.01
      }
    }
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds, latencySeconds: 0, soundIndices: links)
    let grades = PerformanceGrader().grade(alignment)
    var catalog: HelpVideoCatalog?
    let issues = IssueRanker(criterion: OverallCriterion()).rank(grades, catalog: &catalog)
    return GradingResult(
      title: "Long", tolerances: .intermediate, instrument: nil, criterion: "overall", latencySeconds: 0,
      latencyMeasured: false, grades: grades, issues: issues, estimates: estimates, audioSeconds: 181)
  }

  @Test func aThreeMinuteTakeWrapsIntoRowsOfWholeBars() throws {
    let result = Self.longTake()
    let timeline = ReportTimeline(result)
    #expect(timeline.rows.count >= 12 && timeline.rows.count <= 14, "\(timeline.rows)")
    #expect(timeline.rows.first?.start == 0 && timeline.rows.last?.end == timeline.end)
    for (row, next) in zip(timeline.rows, timeline.rows.dropFirst()) {
      #expect(row.end == next.start)
      #expect(row.duration <= timeline.maximumRowSeconds)
      // Each break falls on a bar start (every 1.8 s).
      #expect(timeline.barStarts.contains { abs($0.seconds - row.end) < 1e-9 }, "\(row)")
    }

    let html = GradeReport(result).html()
    let roll = PianoRollSVG(result, timeline: timeline, contour: PitchContour(result))
    let widest = PianoRollSVG.gutter + timeline.maximumRowSeconds * roll.pixelsPerSecond + PianoRollSVG.right
    let widths = try Regex(#"<svg id="roll-row-\d+" width="([0-9.]+)""#)
    let found = html.matches(of: widths).compactMap { $0.output[1].substring.flatMap { Double($0) } }
    #expect(found.count == timeline.rows.count)
    #expect(found.allSatisfy { $0 <= widest }, "\(found)")
    // Every note is drawn (once, or twice when it crosses a row's end), every bar has a cell.
    #expect(html.components(separatedBy: "<g class=\"missed\"").count - 1 >= 40)
    #expect(html.components(separatedBy: "<g class=\"note\"").count - 1 >= 360)
    #expect(html.components(separatedBy: "class=\"bar-cell\"").count - 1 == 100)
    #expect(html.utf8.count < 2_000_000)
  }

  @Test func theContourIsInCentsFromTheLinkedNote() {
    let contour = PitchContour(Self.longTake())
    // One run per played note (the missed ones are odd), each at its offset from the written pitch.
    #expect(contour.runs.count == 360)
    #expect(contour.runs.allSatisfy { $0.isLinked })
    let sharp = contour.runs.filter { abs(($0.points.first?.cents ?? 0) - 10) < 0.01 }
    let inTune = contour.runs.filter { abs($0.points.first?.cents ?? 1) < 0.01 }
    #expect(sharp.count == 200 && inTune.count == 160)
  }

  @Test func aTakeWithNothingToGradeStillGivesAPage() {
    let alignment = PerformanceAlignment(notes: [], sounds: [], latencySeconds: 0, soundIndices: [])
    let result = GradingResult(
      title: "", tolerances: .beginner, instrument: "tuba", criterion: "pitch", latencySeconds: 0.02,
      latencyMeasured: true, grades: PerformanceGrader().grade(alignment), issues: [], estimates: [],
      audioSeconds: 0, scoreFile: "dir/empty.musicxml", audioFile: nil)
    let html = GradeReport(result).html()
    #expect(html.contains("<h1>empty.musicxml</h1>"))
    #expect(html.contains("<svg id=\"roll-row-1\"") && !html.contains("roll-row-2"))
    #expect(html.contains("No issues") && html.contains("The score has no bars."))
    #expect(html.hasSuffix("</html>\n"))
  }
}
