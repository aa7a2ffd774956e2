import ArgumentParser
import Foundation
import MIDIJSON
import PerformanceTracking
import PitchDSP
import ScoreModel

/// `etude demo`: the SDK's main job on built-in material, no input needed.
///
/// Today it synthesizes a melody, writes it as a WAV file and reads it back in blocks, resamples
/// it to 16 kHz, finds its notes and names them, and checks them against the melody it played;
/// it also stores the melody as compact MIDI JSON and as a MIDI file, reads both back, and grades
/// the notes it found as a Simon-style quiz round of the melody. Then it grades a built-in
/// trumpet étude (``DemoEtude``) played with built-in mistakes (``DemoTake``) as `etude grade`
/// would, prints the ranked issues, and checks that each mistake was found. Last it plays a
/// built-in guitar-tab tune on the plucked-string guitar and measures the notes' pitches and
/// attacks back. Each capability the SDK gains extends this demo.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract:
      "Run the SDK on built-in material: find the notes of a synthesized melody, MIDI JSON, grade a built-in trumpet étude played with built-in mistakes, play a guitar-tab tune, and harmonize a sung phrase.",
    discussion: """
      No input needed. Part one synthesizes "Ode to Joy", writes and reads it as WAV, resamples it, \
      tracks its pitch live, finds and names its notes, and takes it through MIDI JSON and a MIDI \
      file. Part two parses a built-in MusicXML étude for B♭ trumpet, synthesizes a take of it with \
      six known mistakes (a late attack, an upper partial, a wrong note, a sound during a rest, a \
      flat note, a missed note), grades it as `etude grade --instrument trumpet` would, prints the \
      overall score and the issues worst first, and says whether each mistake was found at its \
      note. Part three plays a built-in guitar tab (Ode to Joy) on the plucked-string guitar and \
      measures each note's pitch and attack back with PitchDSP. Part four sings a phrase into the \
      harmonizer: a voice a diatonic third above in C major, and the phrase 30 cents sharp \
      through the auto-tuner, both measured back. With --json, the grading is under \
      "grading" (its "grades" is the etude-grades/1 object of `etude grade`) and the tab under \
      "synthesis" and "harmonizer".
      """
  )

  @Flag(help: "Print JSON instead of text.")
  var json = false

  @Option(
    help: """
      Also keep the synthesized audio: the melody as this WAV file, the graded trumpet take and \
      the guitar tune beside it with -take and -tab before the extension (demo.wav, \
      demo-take.wav, demo-tab.wav).
      """)
  var saveAudio: String?

  @Option(
    help: "Write the HTML report of the graded trumpet take here (as `etude grade --report` writes it).")
  var report: String?

  @Option(help: "Sample rate to synthesize at, in Hz.")
  var rate: Double = 44100

  @Option(help: "Sample rate to analyze the melody at, in Hz (its audio is resampled to it).")
  var analysisRate: Double = 16000

  /// One note the demo found, beside the note it expected there.
  struct FoundNote: Encodable {
    var onsetSeconds: Double
    var durationSeconds: Double
    var frequencyHz: Double
    var note: String?
    var cents: Double?
    var expected: String?
    var correct: Bool
  }

  /// What the demo reports.
  struct Report: Encodable {
    var melody: String
    var tempoBPM: Double
    var synthesisRate: Double
    var analysisRate: Double
    var wavFrames: Int
    var expectedNotes: Int
    var notes: [FoundNote]
    var correctNotes: Int
    var meanAbsoluteCents: Double
    var midi: MIDIReport
    /// The built-in étude's take, graded.
    var grading: EtudeReport
    /// The built-in guitar tune, rendered and measured.
    var synthesis: SynthesisReport
    /// The sung phrase through the harmonizer, measured.
    var harmonizer: HarmonizerReport
  }

  /// The melody through MIDI JSON and a MIDI file, and the found notes graded as a quiz round.
  struct MIDIReport: Encodable {
    /// The melody as compact MIDI JSON.
    var composition: String
    var midiFileBytes: Int
    /// Whether the notes read back from the MIDI file and from the JSON equal the melody's.
    var roundTripIdentical: Bool
    var quizSteps: Int
    var quizCorrectSteps: Int
  }

  func validate() throws {
    guard rate >= 8000, rate <= 384_000 else {
      throw ValidationError("--rate must be within 8000...384000 Hz")
    }
    guard analysisRate >= 8000, analysisRate <= rate else {
      throw ValidationError("--analysis-rate must be within 8000 Hz...--rate")
    }
  }

  func run() async throws {
    let melody = DemoMelody()
    let audio = AudioBuffer(sampleRate: rate, mono: melody.render(sampleRate: rate))

    // Through a real WAV file: written atomically, read back in blocks.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "etude-demo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The étude is graded and the guitar tune played and measured on other threads while the
    // melody is analyzed (in a debug build each part takes seconds).
    async let graded = gradeEtude(directory: directory)
    async let tune = synthesisReport()
    async let choir = harmonizerReport()
    let wavURL = saveAudio.map { URL(fileURLWithPath: $0) } ?? directory.appendingPathComponent("melody.wav")
    try WAVWriter.write(audio, to: wavURL, encoding: .signed16)
    let reader = try WAVReader(url: wavURL)
    var samples: [Float] = []
    while let block = try reader.readMono(maxFrames: 4096) { samples += block }

    // Resampled in 512-frame blocks, as an audio callback would deliver them.
    let resampler = try Resampler(inputRate: rate, outputRate: analysisRate, maximumInputFrames: 512)
    var resampled: [Float] = []
    var output = [Float](repeating: 0, count: resampler.maximumOutputFrames)
    var start = 0
    while start < samples.count {
      let end = min(samples.count, start + 512)
      let written = samples[start..<end].withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { resampler.process(input: input, output: $0) }
      }
      resampled += output[0..<written]
      start = end
    }
    // Undo the resampler's delay so onsets line up with the score.
    let delay = Int((resampler.latencySeconds * analysisRate).rounded())
    resampled.removeFirst(min(delay, resampled.count))

    let found = try findNotes(in: resampled)
    let midi = try midiReport(melody: melody, found: found, directory: directory)
    let etude = try await graded
    let synthesis = try await tune
    let harmonizer = try await choir
    if let report {
      let html = GradeReport(etude.result).html()
      try Data(html.utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
    }
    let summary = makeReport(
      melody: melody, found: found, wavFrames: reader.format.frameCount ?? 0, midi: midi,
      grading: etude.report, synthesis: synthesis, harmonizer: harmonizer)
    if json {
      try printJSON(summary)
    } else {
      printText(summary)
      printGrading(etude.report, score: etude.score)
      printSynthesis(synthesis)
      printHarmonizer(harmonizer)
    }
  }

  /// The notes of the resampled melody: live probabilistic YIN fed in 512-frame blocks, as an
  /// audio callback would feed it, and the note segmenter on its estimates.
  func findNotes(in samples: [Float]) throws -> [NoteSegment] {
    let estimator = try ProbabilisticYINEstimator(configuration: PitchConfiguration(sampleRate: analysisRate))
    let segmenter = NoteSegmenter()
    var notes: [NoteSegment] = []
    var estimates = [PitchEstimate](
      repeating: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0),
      count: max(estimator.maximumEstimates(forFrames: 512), estimator.maximumEstimates(forFrames: 0)))
    func consume(_ count: Int) {
      for estimate in estimates[0..<count] {
        if let note = segmenter.process(estimate) { notes.append(note) }
      }
    }
    var start = 0
    while start < samples.count {
      let end = min(samples.count, start + 512)
      consume(
        samples[start..<end].withUnsafeBufferPointer { block in
          estimates.withUnsafeMutableBufferPointer { estimator.process(block, into: $0) }
        })
      start = end
    }
    consume(estimates.withUnsafeMutableBufferPointer { estimator.finish(into: $0) })
    if let note = segmenter.finish() { notes.append(note) }
    return notes
  }

  /// Stores the melody as MIDI JSON and a MIDI file, reads both back, and grades the found notes
  /// (as taps) against the melody as one quiz round.
  func midiReport(melody: DemoMelody, found: [NoteSegment], directory: URL) throws -> MIDIReport {
    let composition = melody.composition
    let midiURL = directory.appendingPathComponent("melody.mid")
    try MIDIFile(composition).write(to: midiURL)
    let fromFile = Composition(try MIDIFile(url: midiURL))
    let fromJSON = try Composition(json: composition.json())
    let round = composition.quizRounds(by: .steps(composition.notes.count))[0]
    let tuning = Tuning.standard
    let taps = found.compactMap { note in
      tuning.nearestNote(frequencyHz: note.frequencyHz).map {
        Tap(note: $0.note.rawValue, press: note.start, release: note.end)
      }
    }
    let result = round.check(taps, options: .init(chordWindow: 0.05, timingTolerance: 0.05))
    return MIDIReport(
      composition: String(decoding: composition.json(), as: UTF8.self),
      midiFileBytes: (try? FileManager.default.attributesOfItem(atPath: midiURL.path)[.size] as? Int) ?? 0,
      roundTripIdentical: fromFile.notes == composition.notes && fromJSON == composition,
      quizSteps: round.steps.count, quizCorrectSteps: result.steps.filter { $0.verdict == .correct }.count)
  }

  func makeReport(
    melody: DemoMelody, found: [NoteSegment], wavFrames: Int, midi: MIDIReport, grading: EtudeReport,
    synthesis: SynthesisReport, harmonizer: HarmonizerReport
  ) -> Report {
    let key = Key(.c, .major)
    let tuning = Tuning.standard
    let expected = zip(melody.notes, melody.onsetsSeconds).map { note, onset in
      (name: SpelledNote(midi: MIDINote(note.midi)!, in: key), onset: onset)
    }
    var notes: [FoundNote] = []
    var centsSum = 0.0
    for note in found {
      let nearest = tuning.nearestNote(frequencyHz: note.frequencyHz)
      let name = nearest.map { SpelledNote(midi: $0.note, in: key) }
      // The melody note whose onset is within 50 ms of this one.
      let match = expected.first { abs($0.onset - note.start) <= 0.05 }
      let correct = match != nil && match?.name == name
      if correct, let cents = nearest?.cents { centsSum += abs(cents) }
      notes.append(
        FoundNote(
          onsetSeconds: (note.start * 1000).rounded() / 1000,
          durationSeconds: (note.duration * 1000).rounded() / 1000,
          frequencyHz: (note.frequencyHz * 100).rounded() / 100,
          note: name?.description, cents: nearest.map { ($0.cents * 10).rounded() / 10 },
          expected: match?.name.description, correct: correct))
    }
    let correctCount = notes.filter(\.correct).count
    return Report(
      melody: "Ode to Joy (Beethoven), first phrase", tempoBPM: melody.tempoBPM, synthesisRate: rate,
      analysisRate: analysisRate, wavFrames: wavFrames, expectedNotes: expected.count, notes: notes,
      correctNotes: correctCount, meanAbsoluteCents: correctCount == 0 ? 0 : centsSum / Double(correctCount),
      midi: midi, grading: grading, synthesis: synthesis, harmonizer: harmonizer)
  }

  func printText(_ report: Report) {
    print("Etude demo: \(report.melody), \(report.expectedNotes) notes at \(Int(report.tempoBPM)) BPM")
    print(
      "  synthesized at \(Int(report.synthesisRate)) Hz, written and re-read as a 16-bit WAV (\(report.wavFrames) frames)"
    )
    print(
      "  resampled to \(Int(report.analysisRate)) Hz, pitch-tracked live (probabilistic YIN) and segmented into notes"
    )
    print("")
    print("   #  onset s  length s  frequency Hz  note  cents  expected")
    for (index, note) in report.notes.enumerated() {
      let cents = note.cents.map { String(format: "%+5.1f", $0) } ?? "    -"
      let line = String(
        format: "  %2d  %7.3f  %8.3f  %12.2f  %-4@  %@  %@", index + 1, note.onsetSeconds,
        note.durationSeconds,
        note.frequencyHz, (note.note ?? "-") as NSString, cents as NSString,
        ((note.expected ?? "-") + (note.correct ? "  ok" : "  WRONG")) as NSString)
      print(line)
    }
    print("")
    print(
      "\(report.correctNotes)/\(report.expectedNotes) melody notes found with the right pitch and onset (±50 ms); "
        + String(format: "mean |deviation| %.1f cents", report.meanAbsoluteCents))
    let midi = report.midi
    print("")
    print(
      "MIDI JSON: the melody as a compact composition (\(midi.composition.utf8.count) bytes) and a MIDI file "
        + "(\(midi.midiFileBytes) bytes), read back \(midi.roundTripIdentical ? "identical" : "DIFFERENT")")
    print(
      "Quiz: the notes found, tapped back as one Simon round: \(midi.quizCorrectSteps)/\(midi.quizSteps) steps correct "
        + "(notes and timing within 50 ms)")
  }
}
