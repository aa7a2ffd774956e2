import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// `etude grade --report` on a small real case: a MusicXML melody and a synthesized take of it
/// with one wrong note and one missed note.
@Suite(.serialized) struct GradeReportTests {
  static let rate = 44100.0
  static let secondsPerQuarter = 0.5

  /// The melody after a one-bar count-in, at 120 quarters a minute: (MIDI note, quarters).
  /// Score note indices: 0 the count-in rest, then 1...7 these notes.
  static let melody: [(midi: Int, quarters: Int)] = [
    (72, 1), (74, 1), (76, 1), (77, 1), (79, 1), (76, 1), (72, 2),
  ]
  /// The F5 (index 4) is played as an A5.
  static let wrongIndex = 4
  /// The G5 (index 5) is not played.
  static let missedIndex = 5
  static let title = "Scales <&> \"Etude\""

  /// The score: 4/4, a whole-bar rest, then the melody over two bars.
  static func musicXML() -> String {
    let steps = ["C", "C", "D", "D", "E", "F", "F", "G", "G", "A", "A", "B"]
    var notes = ""
    for (index, note) in melody.enumerated() {
      if index == 4 { notes += "</measure>\n<measure number=\"3\">\n" }
      let type = note.quarters == 2 ? "half" : "quarter"
      notes +=
        "<note><pitch><step>\(steps[note.midi % 12])</step><octave>\(note.midi / 12 - 1)</octave></pitch>"
        + "<duration>\(note.quarters)</duration><type>\(type)</type></note>\n"
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <score-partwise version="4.0">
      <work><work-title>Scales &lt;&amp;&gt; "Etude"</work-title></work>
      <part-list><score-part id="P1"><part-name>Trumpet</part-name></score-part></part-list>
      <part id="P1">
      <measure number="1">
      <attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time>
      <clef><sign>G</sign><line>2</line></clef></attributes>
      <direction><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>120</per-minute></metronome>
      </direction-type><sound tempo="120"/></direction>
      <note><rest measure="yes"/><duration>4</duration></note>
      </measure>
      <measure number="2">
      \(notes)</measure>
      </part>
      </score-partwise>
      """
  }

  /// The take: each note a harmonic tone with a short attack, 92 % of its value, at its score
  /// time, over quiet pink noise; the wrong note a major third up, the missed note silent.
  static func take() -> [Float] {
    let generator = SignalGenerator(sampleRate: rate)
    let total = 2 + Double(melody.reduce(0) { $0 + $1.quarters }) * secondsPerQuarter + 0.6
    var samples = generator.pinkNoise(rms: 0.0005, length: .seconds(total), seed: 11)
    let envelope = ADSREnvelope(
      attackSeconds: 0.02, decaySeconds: 0.06, sustainLevel: 0.8, releaseSeconds: 0.03)
    var start = 2.0
    for (offset, note) in melody.enumerated() {
      let index = offset + 1
      let length = Double(note.quarters) * secondsPerQuarter
      defer { start += length }
      guard index != missedIndex else { continue }
      let midi = index == wrongIndex ? note.midi + 4 : note.midi
      let tone = generator.harmonicTone(
        fundamentalHz: 440 * pow(2, Double(midi - 69) / 12), partialAmplitudes: [0.3, 0.15, 0.08, 0.04],
        length: .seconds(length * 0.92))
      let shaped = Signal.enveloped(tone, by: envelope, sampleRate: rate)
      let first = generator.frameCount(.seconds(start))
      for (k, sample) in shaped.enumerated() { samples[first + k] += sample }
    }
    return samples
  }

  /// The rows of the issues table: rank, score note index, score.
  static func issueRows(_ html: String) throws -> [(rank: Int, index: Int, score: Double)] {
    let pattern = try Regex(#"<tr data-rank="(\d+)" data-note="(\d+)" data-score="([0-9.]+)">"#)
    return html.matches(of: pattern).compactMap { match in
      guard let rank = match.output[1].substring.flatMap({ Int($0) }),
        let index = match.output[2].substring.flatMap({ Int($0) }),
        let score = match.output[3].substring.flatMap({ Double($0) })
      else { return nil }
      return (rank, index, score)
    }
  }

  @Test func writesOneSelfContainedPageWithTheMissedNoteAndTheIssuesWorstFirst() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let score = directory.appendingPathComponent("score.musicxml")
    let audio = directory.appendingPathComponent("take.wav")
    let videos = directory.appendingPathComponent("videos.json")
    let report = directory.appendingPathComponent("report.html")
    try Data(Self.musicXML().utf8).write(to: score)
    try WAVWriter.write(AudioBuffer(sampleRate: Self.rate, mono: Self.take()), to: audio, encoding: .signed16)
    // A video id and an alert with markup in them: both must come out as text.
    try Data(
      #"{"videos": {"wrongNote": ["vid<1>"]}, "alerts": {"missed": "Count <every> note & breathe"}}"#.utf8
    )
    .write(to: videos)

    let arguments = ["grade", "--score", score.path, "--audio", audio.path, "--videos", videos.path]
    let result = try runEtude(arguments + ["--report", report.path])
    #expect(result.status == 0, "\(result.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let notes = try #require(json["notes"] as? [[String: Any]])
    let status = Dictionary(
      uniqueKeysWithValues: notes.map { ($0["index"] as? Int ?? -1, $0["status"] as? String ?? "") })
    #expect(status[Self.missedIndex] == "missed", "\(result.out)")
    let wrong = notes.first { $0["index"] as? Int == Self.wrongIndex }?["pitch"] as? [String: Any]
    #expect(wrong?["rating"] as? String == "wrongNote", "\(result.out)")

    // One file, nothing beside it (the atomic write leaves no temporary), nothing fetched.
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files == ["report.html", "score.musicxml", "take.wav", "videos.json"])
    let html = try String(contentsOf: report, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
    #expect(html.contains("<svg"))
    #expect(html.contains("<style>"))
    let withoutNamespace = html.replacingOccurrences(of: #"xmlns="http://www.w3.org/2000/svg""#, with: "")
    #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"))
    for fetching in ["<link", "<script src", "<img", "<iframe", "@import", "url("] {
      #expect(!html.contains(fetching), "\(fetching)")
    }

    // Input text is escaped: the title, the alert, the video id.
    #expect(html.contains("<h1>Scales &lt;&amp;&gt; &quot;Etude&quot;</h1>"))
    #expect(!html.contains(Self.title))
    #expect(html.contains("Count &lt;every&gt; note &amp; breathe") && !html.contains("<every>"))
    #expect(html.contains("<code>vid&lt;1&gt;</code>") && !html.contains("vid<1>"))

    // The missed note: marked on the roll, in the counts and in the note table.
    #expect(html.contains("<g class=\"missed\" data-note=\"\(Self.missedIndex)\""))
    #expect(html.contains("<tr data-note=\"\(Self.missedIndex)\" class=\"missed\">"))
    #expect(html.contains("<span class=\"count\" id=\"missed-count\">1</span>"))
    #expect(html.components(separatedBy: "<g class=\"missed\"").count == 2)
    // Every played note has a bar, every bar a heat-map cell (the count-in is measure 1).
    #expect(html.components(separatedBy: "class=\"played\" fill=").count - 1 == Self.melody.count - 1)
    #expect(html.contains("data-measure=\"1\"><b>1</b>") && html.contains("data-measure=\"3\"><b>3</b>"))

    // The issues table in the ranker's order, worst first: the missed note, then the wrong note.
    let rows = try Self.issueRows(html)
    let issues = try #require(json["issues"] as? [[String: Any]])
    #expect(rows.map(\.rank) == Array(1...issues.count))
    #expect(rows.map(\.index) == issues.map { $0["index"] as? Int ?? -1 })
    #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.score >= $1.score }, "\(rows)")
    #expect(rows.first?.index == Self.missedIndex)
    #expect(rows.dropFirst().first?.index == Self.wrongIndex)

    // The same take gives the same bytes.
    let again = directory.appendingPathComponent("again.html")
    let second = try runEtude(arguments + ["--report", again.path])
    #expect(second.status == 0, "\(second.err)")
    #expect(try Data(contentsOf: again) == Data(contentsOf: report))
  }
}
