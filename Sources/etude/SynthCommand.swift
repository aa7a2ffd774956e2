import ArgumentParser
import Foundation
import Synthesis

/// `etude synth --tab "..." OUT.wav`: guitar tab played on the built-in guitar.
struct SynthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "synth",
    abstract: "Play guitar tab on the built-in guitar and write the audio.",
    discussion: """
      Tab is the Sound Track notation: ("13",1.5)|("12",0.5)|... where each item is a string \
      (1 = high E ... 6 = low E) followed by its fret, and a duration in quarter notes (4 a \
      whole note, 0.25 a sixteenth), items separated by |. The extensions (frets above 9, \
      chords, rests, tempo) are in the Synthesis DocC article TabNotation. A syntax error names \
      the column and what was expected there. OUT.wav is written atomically; - writes raw PCM to \
      standard output.
      """)

  @Option(help: "The tab text.")
  var tab: String?

  @Option(help: "Read the tab from this file instead (- for standard input).")
  var tabFile: String?

  @Option(help: "Tempo in beats (quarter notes) per minute (default: the tab's own, else 120).")
  var tempo: Double?

  @Option(
    help:
      "guitar (Karplus-Strong plucked string) or simple-guitar (the seed's sine under a fitted envelope), or an oscillator: sine, sawtooth, square, triangle."
  )
  var instrument: BuiltInSound = .guitar

  @Argument(help: "The WAV file to write, or - for raw PCM on standard output.")
  var output: String

  @OptionGroup var audio: AudioOutputOptions

  func validate() throws {
    guard (tab == nil) != (tabFile == nil) else {
      throw ValidationError("give the tab with either --tab or --tab-file")
    }
    if let tempo, !(tempo.isFinite && tempo > 0 && tempo <= 1000) {
      throw ValidationError("--tempo must be within 0...1000")
    }
  }

  func run() throws {
    let text: String
    if let tab {
      text = tab
    } else {
      text = try InputData.readText(tabFile!)
    }
    let song = Song(name: "tab", notes: try TabNotation.parse(text).notes(tempo: tempo))
    let samples = instrument.render(song, with: SongRenderer(sampleRate: audio.rate))
    try audio.write(samples, to: output)
    FileHandle.standardError.write(
      Data("\(song.notes.count) notes; ".utf8) + Data(audio.summary(of: samples, to: output).utf8))
  }
}
