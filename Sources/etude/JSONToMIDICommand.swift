import ArgumentParser
import Foundation
import MIDIJSON

/// `etude json2midi FILE.json OUT.mid`: MIDI JSON (compact or full) to a Standard MIDI File.
struct JSONToMIDICommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "json2midi",
    abstract: "Convert MIDI JSON (compact or full, detected) to a Standard MIDI File.",
    discussion: """
      A document with "events" is compact MIDI JSON (times in beats; written at its "ppq", or \
      960 ticks per quarter note); one with "header" and "tracks" is full MIDI JSON (its ticks \
      are used as they are). OUT.mid is written atomically: it is either complete or untouched. \
      FILE may be - for standard input.
      """)

  @Argument(help: "A MIDI JSON file, or - for standard input.")
  var file: String

  @Argument(help: "The .mid file to write.")
  var output: String

  func run() throws {
    let midi = try MIDIFile(json: try InputData.read(file))
    try midi.write(to: URL(fileURLWithPath: output))
    let notes = midi.notes().notes.count
    FileHandle.standardError.write(Data("wrote \(output): format \(midi.format), \(midi.tracks.count) tracks, \(notes) notes\n".utf8))
  }
}
