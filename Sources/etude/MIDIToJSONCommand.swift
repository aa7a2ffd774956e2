import ArgumentParser
import Foundation
import MIDIJSON

/// `etude midi2json FILE.mid`: a Standard MIDI File as MIDI JSON on standard output.
struct MIDIToJSONCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "midi2json",
    abstract: "Convert a Standard MIDI File to MIDI JSON (compact or full).",
    discussion: """
      Reads formats 0, 1 and 2, PPQ and SMPTE time, and RIFF RMID files. --format compact \
      prints the compact composition format ({"name","tempo","length","events":[[time,"note",\
      number,velocity,duration],...]}, times in beats); --format full prints the full form \
      (header and tracks, @tonejs/midi field names, ticks and seconds). Repairs of broken files \
      (running status after meta events, truncated chunks, stray bytes, ...) and notes never \
      released are listed in the "warnings" array; --strict rejects such files instead. Notes \
      held more than once on one pitch pair first-in-first-out unless --pairing says otherwise.
      """)

  /// The JSON forms.
  enum Form: String, ExpressibleByArgument, CaseIterable {
    case compact, full
  }

  @Argument(help: "A .mid file (or .rmi / .kar).")
  var file: String

  @Option(help: "JSON form: compact or full.")
  var format: Form = .full

  @Flag(help: "Reject files that break the standard instead of repairing them.")
  var strict = false

  @Option(help: "How overlapping notes of one pitch pair: firstInFirstOut or lastInFirstOut.")
  var pairing: NotePairing = .firstInFirstOut

  /// The full document as printed: the full JSON plus what the reader repaired.
  struct FullOutput: Encodable {
    var header: FullMIDIJSON.Header
    var tracks: [FullMIDIJSON.Track]
    var unreleasedNotes: Int
    var warnings: [String]
  }

  func run() throws {
    let url = URL(fileURLWithPath: file)
    let midi = try MIDIFile(url: url, options: MIDIReadOptions(strict: strict))
    let unreleased = midi.notes(pairing: pairing).unreleased
    var warnings = midi.warnings.map(\.description)
    for note in unreleased {
      warnings.append(
        "track \(note.track): note \(note.midi) on channel \(note.channel) at tick \(note.ticks) is never released")
    }
    switch format {
    case .full:
      let document = FullMIDIJSON(midi, pairing: pairing)
      try printJSON(
        FullOutput(
          header: document.header, tracks: document.tracks, unreleasedNotes: unreleased.count, warnings: warnings))
    case .compact:
      let title = midi.tracks.first?.name ?? url.deletingPathExtension().lastPathComponent
      let composition = Composition(midi, name: title, pairing: pairing)
      // The compact document ends with "}\n"; the warnings go in as one more member, which
      // readers of the format ignore.
      var text = String(decoding: composition.json(), as: UTF8.self)
      text.removeLast(2)
      let list = warnings.map { "    " + jsonString($0) }.joined(separator: ",\n")
      text += ",\n  \"warnings\": [" + (warnings.isEmpty ? "]" : "\n\(list)\n  ]") + "\n}"
      print(text)
    }
  }
}

/// A string as a JSON string literal.
func jsonString(_ text: String) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.withoutEscapingSlashes]
  // Encoding a String cannot fail.
  return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
}

extension NotePairing: ExpressibleByArgument {}
