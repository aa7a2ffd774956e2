import ArgumentParser
import Foundation
import IssueRanking
import PerformanceAnalysis
import PerformanceTracking
import PitchDSP
import ScoreModel

/// `etude grade --score SCORE --audio TAKE.wav`: a student's take graded note by note against a
/// MusicXML score, with the issues ranked worst first.
struct GradeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "grade",
    abstract: "Grade a take against a MusicXML score: timing, duration and pitch of every note, ranked issues.",
    discussion: """
      Prints JSON (schema etude-grades/1): {"schema","overallScore","notes":[{"index","measure",\
      "status":"played|missed|rest","onsetSeconds","offsetSeconds","timing":{"rating","offsetMs",\
      "localRating","localOffsetMs"},"duration":{"rating","ratio"},"pitch":{"rating","cents",\
      "frequencyHz","playedPitch"},"rest":{"rating","soundSeconds"},"scores":{...},"severity","x",\
      "y"}],"extraSounds":[{"onsetSeconds","offsetSeconds","frequencyHz"}],"issues":[{"index",\
      "criterion","rating","score","videoId"}],...}. index is the note's position in the score's \
      note list (etude score, rests included); times are on the score's time line (the audio less \
      the latency). See the GradesJSON article for every field.
      """)

  @Option(help: "The score: .musicxml, .xml or .mxl.")
  var score: String

  @Option(help: "The take: a WAV file, or - for raw PCM on standard input (read to its end).")
  var audio: String

  @Option(help: "The instrument (trumpet, trombone, horn, tuba use their partial tables; any other name has none).")
  var instrument: String?

  @Option(help: "A partial table JSON for the instrument (overrides the built-in one).")
  var partials: String?

  @Option(help: "Only the part with this id or name.")
  var part: String?

  @Option(help: "A tolerances JSON file (one level, or several under \"levels\").")
  var tolerances: String?

  @Option(help: "The level: beginner, intermediate (default), advanced, or one from --tolerances.")
  var level: String?

  @Option(help: "How much later than the score the audio runs (microphone latency), in ms.")
  var latencyMs: Double = 0

  @Flag(help: "Measure the latency from the take instead (the median offset of confidently linked notes).")
  var calibrateLatency = false

  @Option(help: "The issues' sort criterion: overall, worst, pitch, timing, duration, rest.")
  var criterion: String = "overall"

  @Option(help: "Linking strategy: alignment (default: order-preserving, tolerates drift) or window (±200 ms).")
  var linker: String = "alignment"

  @Option(help: "A help-video catalog JSON ({\"videos\": {rating: [ids]}, \"alerts\": {rating: text}}).")
  var videos: String?

  @Option(
    help: """
      Write a self-contained HTML report here (written atomically): piano roll of expected and played notes, \
      pitch contour in cents, bar heat map, ranked issues; inline CSS and SVG, nothing fetched.
      """)
  var report: String?

  @Flag(
    help: "Follow the take as it would be live (a score clock and the live tracker fed 512-frame blocks), then grade what it linked.")
  var live = false

  @Option(help: "Write the JSON here (atomically) instead of standard output.")
  var output: String?

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    guard latencyMs.isFinite, abs(latencyMs) <= 2000 else { throw ValidationError("--latency-ms must lie within ±2000") }
    guard IssueCriteria.named(criterion) != nil else {
      throw ValidationError("unknown --criterion \(criterion); use one of \(IssueCriteria.names.joined(separator: ", "))")
    }
    guard ["alignment", "window"].contains(linker) else { throw ValidationError("--linker is alignment or window") }
    guard !(live && calibrateLatency) else { throw ValidationError("--live takes --latency-ms; it cannot measure the latency") }
  }

  func run() throws {
    var parsed = try Score(contentsOf: URL(fileURLWithPath: score))
    if let part {
      guard let selected = parsed.selectingPart(part) else {
        throw ValidationError("no part with id or name \"\(part)\"; parts: \(parsed.parts.map { "\($0.id) (\($0.name))" }.joined(separator: ", "))")
      }
      parsed = selected
    } else if parsed.parts.count > 1 {
      FileHandle.standardError.write(Data("note: the score has \(parsed.parts.count) parts; grading all (use --part)\n".utf8))
    }
    let take = try readTake()
    let setup = try GradingSetup(
      instrument: instrument, partialsFile: partials, tolerancesFile: tolerances, level: level,
      criterion: criterion, linker: linker, videosFile: videos)
    var result: GradingResult
    if live {
      result = try setup.gradeLive(
        score: parsed, samples: take.samples, sampleRate: take.sampleRate, latencySeconds: latencyMs / 1000)
    } else {
      result = try setup.grade(
        score: parsed, samples: take.samples, sampleRate: take.sampleRate,
        latencySeconds: calibrateLatency ? nil : latencyMs / 1000)
    }
    result.scoreFile = score
    result.audioFile = audio
    let json = try GradesJSON(result).encoded()
    if let output {
      try json.write(to: URL(fileURLWithPath: output), options: .atomic)
    } else {
      FileHandle.standardOutput.write(json + Data("\n".utf8))
    }
    if let report {
      try Data(GradeReport(result).html().utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
    }
  }

  func readTake() throws -> (samples: [Float], sampleRate: Double) {
    let input = try MonoInput(file: audio, raw: rawInput)
    var samples: [Float] = []
    if let count = input.frameCount { samples.reserveCapacity(count) }
    while let block = try input.read(maxFrames: 65536) { samples += block }
    return (samples, input.sampleRate)
  }
}
