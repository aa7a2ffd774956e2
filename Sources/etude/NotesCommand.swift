import ArgumentParser
import Foundation
import PitchDSP
import ScoreModel

/// `etude notes FILE.wav`: the notes of a recording, one line each.
struct NotesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notes",
    abstract: "Segment a recording into notes: start, end, pitch, nearest note and how each began.",
    discussion: """
      Prints start_s<TAB>end_s<TAB>frequency_hz<TAB>note<TAB>cents<TAB>boundary, one line per note. \
      A note starts when the level rises well above the running noise floor (boundary onset) or \
      when the pitch moves to a new note without a dip (boundary legato); its frequency is the \
      median after the attack. Pitch comes from --method (as for etude pitch). Use - to read raw \
      PCM from standard input; notes print as they end.
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Option(help: "Pitch method: pyin, pyin-live, yin or mpm (default: pyin for files, pyin-live for standard input).")
  var method: PitchMethod?

  @Option(help: "The lowest pitch searched, in Hz.")
  var minHz: Double = 40

  @Option(help: "The highest pitch searched, in Hz.")
  var maxHz: Double = 2000

  @OptionGroup var periodicBackground: PeriodicBackgroundOptions

  @OptionGroup var rumble: RumbleOptions

  @OptionGroup var lookAhead: LookAheadOptions

  @OptionGroup var rawInput: RawInputOptions

  func run() throws {
    let input = try MonoInput(file: file, raw: rawInput)
    var configuration = PitchConfiguration(sampleRate: input.sampleRate, minimumFrequencyHz: minHz, maximumFrequencyHz: maxHz)
    periodicBackground.apply(to: &configuration)
    rumble.apply(to: &configuration)
    let segmenter = NoteSegmenter()
    func print(_ segment: NoteSegment) {
      let nearest = Tuning.standard.nearestNote(frequencyHz: segment.frequencyHz)
      let name = nearest.map { SpelledNote(midi: $0.note).description } ?? "-"
      let cents = nearest.map { String(format: "%+.1f", $0.cents) } ?? "-"
      emitLine(
        String(format: "%.3f\t%.3f\t%.2f\t", segment.start, segment.end, segment.frequencyHz)
          + "\(name)\t\(cents)\t\(segment.boundary == .onset ? "onset" : "legato")")
    }
    let lookAheadFrames = try lookAhead.frames(hopSeconds: configuration.hopSeconds)
    try trackPitch(input, configuration: configuration, method: method, lookAheadFrames: lookAheadFrames) {
      estimates in
      for estimate in estimates {
        if let segment = segmenter.process(estimate) { print(segment) }
      }
    }
    if let segment = segmenter.finish() { print(segment) }
  }
}
