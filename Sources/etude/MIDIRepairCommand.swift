import ArgumentParser
import Foundation
import MIDIJSON

/// `etude midi-repair IN.mid OUT.mid`: reads a MIDI file leniently and writes it back clean.
struct MIDIRepairCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "midi-repair",
    abstract: "Rewrite a MIDI file as a clean Standard MIDI File, keeping every event.",
    discussion: """
      Reads leniently (running status across meta and sysex events, truncated or unknown chunks, \
      a wrong track count, stray bytes, data bytes above 127), lists each repair on standard \
      error, and writes every event it read, each with its own status byte, one end-of-track per \
      track. OUT.mid is written atomically.
      """)

  @Argument(help: "The .mid file to read.")
  var file: String

  @Argument(help: "The .mid file to write.")
  var output: String

  func run() throws {
    let midi = try MIDIFile(url: URL(fileURLWithPath: file))
    try midi.write(to: URL(fileURLWithPath: output))
    for warning in midi.warnings {
      FileHandle.standardError.write(Data("repaired: \(warning)\n".utf8))
    }
    FileHandle.standardError.write(
      Data("wrote \(output): format \(midi.format), \(midi.tracks.count) tracks, \(midi.warnings.count) repairs\n".utf8))
  }
}
