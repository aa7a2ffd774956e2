import Foundation
import IssueRanking
import PerformanceAnalysis
import PerformanceTracking
import PitchDSP
import ScoreModel

/// The demo's grading part: ``DemoEtude`` played as ``DemoTake/demo``, graded as `etude grade`
/// grades a take, with each built-in mistake looked up in the grades.
extension DemoCommand {
  /// One of the take's built-in mistakes, and what the grader said at its note.
  struct Mistake: Encodable {
    /// The note's index in the score's note list (the grades' `index`).
    var index: Int
    var measure: Int
    /// The written note (`D5`), or `rest`.
    var note: String
    /// What was played there.
    var mistake: String
    /// Where the grader should see it: `timing`, `pitch`, `missed` or `rest`.
    var category: String
    /// The ratings that count as finding it.
    var expectedRatings: [String]
    /// The rating the grader gave in that category (`missed` for a missed note).
    var rating: String?
    var found: Bool
    /// The grader's account of the note.
    var graded: String
  }

  /// The grading part of the demo's report.
  struct EtudeReport: Encodable {
    var exercise: String
    var part: String
    var instrument: String
    var tempoBPM: Double
    var measures: Int
    var takeSeconds: Double
    var mistakes: [Mistake]
    var mistakesFound: Int
    /// Score indices of notes played as written (or rests left silent) that the grader flagged.
    var correctNotesFlagged: [Int]
    /// The grading, as `etude grade` prints it (schema `etude-grades/1`).
    var grades: GradesJSON
  }

  /// Where `--save-audio FILE.wav` keeps the demo's other audio: beside it, `-suffix` before the
  /// extension (`-take` for the graded take, `-tab` for the guitar tune).
  static func audioPath(besides path: String, suffix: String = "take") -> String {
    let url = URL(fileURLWithPath: path)
    let ext = url.pathExtension.isEmpty ? "wav" : url.pathExtension
    let name = url.deletingPathExtension().lastPathComponent + "-\(suffix)." + ext
    return url.deletingLastPathComponent().appendingPathComponent(name).path
  }

  /// Plays the étude with the take's mistakes, writes the take as a 16-bit WAV file and reads it
  /// back, grades it with ``GradingSetup`` (trumpet, intermediate, no latency), and looks up
  /// each mistake in the grades.
  func gradeEtude(directory: URL) throws -> (report: EtudeReport, result: GradingResult, score: Score) {
    let score = try DemoEtude.score()
    let notes = PerformanceNote.melody(of: score)
    let take = DemoTake.demo
    let samples = take.render(notes, sampleRate: rate)
    let takePath =
      saveAudio.map { Self.audioPath(besides: $0) } ?? directory.appendingPathComponent("take.wav").path
    try WAVWriter.write(
      AudioBuffer(sampleRate: rate, mono: samples), to: URL(fileURLWithPath: takePath), encoding: .signed16)
    let reader = try WAVReader(url: URL(fileURLWithPath: takePath))
    var read: [Float] = []
    while let block = try reader.readMono(maxFrames: 65536) { read += block }

    let setup = try GradingSetup(instrument: DemoEtude.instrument)
    var result = try setup.grade(
      score: score, samples: read, sampleRate: reader.format.sampleRate, latencySeconds: 0)
    if saveAudio != nil { result.audioFile = takePath }

    let mistakes = Self.mistakes(of: take, notes: notes, score: score, result: result)
    let mistaken = Set(mistakes.map(\.index))
    let flagged = result.grades.notes.filter { !mistaken.contains($0.note.index) && !$0.problems.isEmpty }
    let report = EtudeReport(
      exercise: score.title, part: score.parts.first?.name ?? "", instrument: DemoEtude.instrument,
      tempoBPM: score.tempos.first?.bpm ?? 120, measures: score.measures.count,
      takeSeconds: (Double(read.count) / reader.format.sampleRate * 1000).rounded() / 1000,
      mistakes: mistakes,
      mistakesFound: mistakes.count(where: \.found), correctNotesFlagged: flagged.map(\.note.index),
      grades: GradesJSON(result))
    return (report, result, score)
  }

  /// The take's mistakes, each looked up at its note in the grades.
  static func mistakes(
    of take: DemoTake, notes: [PerformanceNote], score: Score, result: GradingResult
  ) -> [Mistake] {
    func name(_ midi: Int?) -> String {
      midi.flatMap { MIDINote($0) }.map { SpelledNote(midi: $0).description } ?? "?"
    }
    func mistake(_ index: Int, _ text: String, _ category: GradeCategory?, _ expected: [Rating]) -> Mistake {
      let graded = result.graded(index: index)
      // No category: the note should be missed.
      let rating = category.map { graded?.grade($0)?.rating } ?? (graded?.status == .missed ? .missed : nil)
      return Mistake(
        index: index, measure: score.notes[index].measure,
        note: score.notes[index].spelling?.description ?? "rest", mistake: text,
        category: category?.rawValue ?? "missed", expectedRatings: expected.map(\.rawValue),
        rating: rating?.rawValue, found: rating.map(expected.contains) ?? false,
        graded: graded.map(result.summary(of:)) ?? "not graded")
    }
    var list: [Mistake] = []
    for played in take.playedNotes(notes) {
      let index = played.note.index
      let written = played.note.writtenPitch?.rawValue
      switch played.playing {
      case .asWritten:
        continue
      case .late(let ms):
        let text = "started \(Int(ms)) ms late (and released on time)"
        list.append(mistake(index, text, .timing, [.aBitLate, .veryLate]))
      case .flat(let cents):
        list.append(mistake(index, "played \(Int(cents)) cents flat", .pitch, [.aBitFlat, .veryFlat]))
      case .wrongNote(let semitones):
        let size = abs(semitones) == 1 ? "a semitone" : "\(abs(semitones)) semitones"
        let text = "played \(name(written.map { $0 + semitones })), \(size) \(semitones < 0 ? "low" : "high")"
        list.append(mistake(index, text, .pitch, [.wrongNote]))
      case .upperPartial:
        let fingering = written.flatMap { take.partials.fingering(written: $0) }
        let upper = fingering.flatMap { $0.combination.partials[$0.partial + 1] }
        let text =
          "played \(name(upper)), the next partial up on the same fingering "
          + "(\(fingering?.combination.name ?? "?"))"
        list.append(mistake(index, text, .pitch, [.upperPartial]))
      case .missed:
        list.append(mistake(index, "not played", nil, [.missed]))
      }
    }
    for extra in take.extraSounds {
      guard let rest = notes.first(where: { $0.isRest && $0.measure == extra.measure }) else { continue }
      let text = "a \(Int(extra.seconds * 1000)) ms sound (\(name(extra.writtenPitch))) in it"
      list.append(mistake(rest.index, text, .rest, [.soundDuringRest]))
    }
    return list.sorted { $0.index < $1.index }
  }

  /// The grading part as text: the exercise, the overall score, the issues worst first, and
  /// what the grader said at each built-in mistake.
  func printGrading(_ report: EtudeReport, score: Score) {
    func left(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    func right(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    let grades = report.grades
    print("")
    print(
      "Grading: \"\(report.exercise)\" for \(report.part), \(report.measures) bars at \(Int(report.tempoBPM)) BPM "
        + "(a bar of rest to count in), from built-in MusicXML")
    print(
      "  a \(HTMLText.fixed(report.takeSeconds, 1)) s take synthesized on a brass-like tone with "
        + "\(report.mistakes.count) built-in mistakes, graded by the same code as "
        + "`etude grade --instrument \(report.instrument)`")
    print("")
    print("Overall score: \(HTMLText.fixed(grades.overallScore, 1)) / 100 (\(grades.level) level)")
    print("Issues, worst first:")
    print("   #  bar  note  \(left("rating", 18))score  help")
    for (rank, issue) in grades.issues.enumerated() {
      let spelling = score.notes.indices.contains(issue.index) ? score.notes[issue.index].spelling : nil
      let note = spelling?.description
      print(
        "  \(right(String(rank + 1), 2))  \(right(String(issue.measure), 3))  \(left(note ?? "rest", 4))  "
          + "\(left(HTMLText.words(issue.rating), 18))\(right(HTMLText.fixed(issue.score, 1), 5))  "
          + (issue.alert ?? issue.videoId ?? ""))
    }
    print("")
    print("The built-in mistakes, and what the grader said at their notes:")
    for mistake in report.mistakes {
      let found = mistake.found ? "found" : "NOT FOUND"
      print("  \(found): bar \(mistake.measure), \(mistake.note): \(mistake.mistake)")
      print("    \(mistake.graded)")
    }
    print("")
    print(
      "\(report.mistakesFound)/\(report.mistakes.count) built-in mistakes found at their notes with the right "
        + "rating; \(report.correctNotesFlagged.count) of the notes and rests played as written flagged")
  }
}
