import ArgumentParser
import Foundation
import MIDIJSON

/// `etude midi2json FILE.mid`: a Standard MIDI File as MIDI JSON on standard output.
struct MIDIToJSONCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "midi2json",
    abstract: "Convert a Standard MIDI File to MIDI JSON (full form, @tonejs/midi field names).",
    discussion: """
      Reads formats 0, 1 and 2, PPQ and SMPTE time, and RIFF RMID files. Repairs of broken files \
      (running status after meta events, truncated chunks, stray bytes, …) are listed in the \
      "warnings" array; --strict rejects such files instead. Notes held more than once on one \
      pitch pair first-in-first-out unless --pairing says otherwise.
      """)

  @Argument(help: "A .mid file.")
  var file: String

  @Option(help: "JSON form. Only 'full' is available so far.")
  var format: String = "full"

  @Flag(help: "Reject files that break the standard instead of repairing them.")
  var strict = false

  @Option(help: "How overlapping notes of one pitch pair: firstInFirstOut or lastInFirstOut.")
  var pairing: NotePairing = .firstInFirstOut

  /// The document printed: the full JSON plus what the reader repaired.
  struct Output: Encodable {
    var header: FullMIDIJSON.Header
    var tracks: [FullMIDIJSON.Track]
    var unreleasedNotes: Int
    var warnings: [String]
  }

  func validate() throws {
    guard format == "full" else {
      throw ValidationError("--format \(format) is not available yet; use --format full")
    }
  }

  func run() throws {
    let midi = try MIDIFile(url: URL(fileURLWithPath: file), options: MIDIReadOptions(strict: strict))
    let document = FullMIDIJSON(midi, pairing: pairing)
    let unreleased = midi.notes(pairing: pairing).unreleased
    var warnings = midi.warnings.map(\.description)
    for note in unreleased {
      warnings.append("track \(note.track): note \(note.midi) on channel \(note.channel) at tick \(note.ticks) is never released")
    }
    try printJSON(
      Output(header: document.header, tracks: document.tracks, unreleasedNotes: unreleased.count, warnings: warnings))
  }
}

extension NotePairing: ExpressibleByArgument {}
