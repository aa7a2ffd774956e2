import ArgumentParser
import Foundation
import MIDIJSON
import ScoreModel
import Synthesis

/// `etude render SONG OUT.wav`: a MIDI file, MIDI JSON, a MusicXML score or guitar tab rendered
/// to audio with a built-in instrument or a SoundFont.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render a MIDI file, MIDI JSON, a MusicXML score or guitar tab to audio.",
    discussion: """
      SONG is read by its extension: .mid/.midi (Standard MIDI File), .json (compact or full MIDI \
      JSON), .musicxml/.xml/.mxl (a score: its sounding notes, repeats expanded), .tab/.txt \
      (guitar tab, as `etude synth --tab` reads it). With --soundfont, every part plays the \
      SoundFont preset of its program (channel 10 the percussion bank 128); without, every \
      pitched part plays --instrument and percussion is left out. The mix is mono, scaled down \
      only if it would clip. OUT.wav is written atomically; - writes raw PCM to standard output.
      """)

  @Argument(help: "The song: .mid, .midi, .json, .musicxml, .xml, .mxl, .tab or .txt.")
  var song: String

  @Argument(help: "The WAV file to write, or - for raw PCM on standard output.")
  var output: String

  @Option(help: "A SoundFont 2 file (.sf2) to play the parts' programs with.")
  var soundfont: String?

  @Option(
    help:
      "The built-in instrument without --soundfont: \(BuiltInSound.allValueStrings.joined(separator: ", ")).")
  var instrument: BuiltInSound = .guitar

  @Option(
    help:
      "Play every part with this General MIDI program (0-127) instead of its own (a score's parts have none: 0, piano)."
  )
  var program: Int?

  @Option(help: "Tempo in beats per minute for tab (default: the tab's own, else 120).")
  var tempo: Double?

  @OptionGroup var audio: AudioOutputOptions

  func validate() throws {
    if let program, !(0...127).contains(program) { throw ValidationError("--program must be within 0...127") }
    if let tempo, !(tempo.isFinite && tempo > 0 && tempo <= 1000) {
      throw ValidationError("--tempo must be within 0...1000")
    }
  }

  func run() throws {
    var song = try Self.readSong(song, tempo: tempo)
    if let program {
      song = Song(
        name: song.name,
        notes: song.notes.map {
          var n = $0
          n.program = program
          return n
        })
    }
    let renderer = SongRenderer(sampleRate: audio.rate)
    let samples: [Float]
    if let soundfont {
      let font = try SoundFont(contentsOf: URL(fileURLWithPath: soundfont))
      samples = try renderer.render(song) { (part) throws(SynthesisError) -> (any Instrument)? in
        try font.instrument(bank: part.isPercussion ? 128 : 0, program: part.program)
      }
    } else {
      samples = instrument.render(song, with: renderer)
    }
    try audio.write(samples, to: output)
    FileHandle.standardError.write(
      Data("\(song.notes.count) notes; ".utf8) + Data(audio.summary(of: samples, to: output).utf8))
  }

  /// Reads a song file by its extension.
  static func readSong(_ path: String, tempo: Double?) throws -> Song {
    let url = URL(fileURLWithPath: path)
    switch url.pathExtension.lowercased() {
    case "mid", "midi", "smf":
      return Song(try MIDIFile(url: url))
    case "json":
      return Song(try MIDIFile(json: try InputData.read(path)))
    case "musicxml", "xml", "mxl":
      return Song(try Score(contentsOf: url))
    case "tab", "txt":
      let text = try InputData.readText(path)
      return Song(
        name: url.deletingPathExtension().lastPathComponent,
        notes: try TabNotation.parse(text).notes(tempo: tempo))
    default:
      throw ValidationError(
        "\(path): unknown song type; expected .mid, .midi, .json, .musicxml, .xml, .mxl, .tab or .txt")
    }
  }
}
