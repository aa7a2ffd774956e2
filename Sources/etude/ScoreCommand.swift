import ArgumentParser
import Foundation
import ScoreModel

/// `etude score FILE`: a MusicXML score's parts, tempos, signatures and notes as JSON.
struct ScoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "score",
    abstract: "Read a MusicXML score (.musicxml, .xml, .mxl) and print its notes on the performance timeline as JSON.",
    discussion: """
      Prints {"title","parts":[{"id","name","transposeSemitones"}],"tempos":[{"quarters","seconds",\
      "bpm"}],"timeSignatures":[{"quarters","numerator","denominator"}],"measures":[...],"notes":\
      [{"part","measure","voice","staff","onsetQuarters","durationQuarters","onsetSeconds",\
      "durationSeconds","writtenPitch","soundingPitch","name","isRest","isGrace","isTied","x","y"}]}. \
      Quarters are exact fractions written as strings ("3/2"); pitches are MIDI numbers (null for \
      rests); name is the written note's spelling; x and y are in tenths from the page's top left \
      (y down). Repeats, endings and jumps are expanded unless --no-expand-repeats.
      """)

  @Argument(help: "A .musicxml, .xml or .mxl file.")
  var file: String

  @Option(help: "Only the part with this id or name.")
  var part: String?

  @Flag(inversion: .prefixedNo, help: "Expand repeats, endings and jumps into the performance order.")
  var expandRepeats = true

  @Option(help: "Play the tempo this many times faster (seconds are divided by it).")
  var tempoScale: Double = 1

  func validate() throws {
    guard tempoScale > 0, tempoScale.isFinite, tempoScale <= 100 else {
      throw ValidationError("--tempo-scale must be within 0...100")
    }
  }

  func run() throws {
    FileHandle.standardOutput.write(
      Data(try Self.document(file: file, part: part, expandRepeats: expandRepeats, tempoScale: tempoScale)))
  }

  /// The JSON document `etude score` prints for these options.
  static func document(file: String, part: String?, expandRepeats: Bool, tempoScale: Double) throws -> [UInt8] {
    var score = try Score(contentsOf: URL(fileURLWithPath: file), options: MusicXMLOptions(expandsRepeats: expandRepeats))
    if let part {
      guard let selected = score.selectingPart(part) else {
        throw ValidationError("no part with id or name \"\(part)\"; parts: \(score.parts.map { "\($0.id) (\($0.name))" }.joined(separator: ", "))")
      }
      score = selected
    }
    return ScoreJSONWriter.document(for: score, tempoScale: tempoScale)
  }
}
