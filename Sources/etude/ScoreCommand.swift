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

  /// One note as printed.
  struct Note: Encodable {
    var part: String
    var measure: Int
    var voice: Int
    var staff: Int
    var onsetQuarters: String
    var durationQuarters: String
    var onsetSeconds: Double
    var durationSeconds: Double
    var writtenPitch: Int?
    var soundingPitch: Int?
    var name: String?
    var isRest: Bool
    var isGrace: Bool
    var isTied: Bool
    var x: Double?
    var y: Double?

    func encode(to encoder: any Encoder) throws {
      // Explicit nulls for rests' pitches and names, as documented.
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(part, forKey: .part)
      try c.encode(measure, forKey: .measure)
      try c.encode(voice, forKey: .voice)
      try c.encode(staff, forKey: .staff)
      try c.encode(onsetQuarters, forKey: .onsetQuarters)
      try c.encode(durationQuarters, forKey: .durationQuarters)
      try c.encode(onsetSeconds, forKey: .onsetSeconds)
      try c.encode(durationSeconds, forKey: .durationSeconds)
      try c.encode(writtenPitch, forKey: .writtenPitch)
      try c.encode(soundingPitch, forKey: .soundingPitch)
      try c.encode(name, forKey: .name)
      try c.encode(isRest, forKey: .isRest)
      try c.encode(isGrace, forKey: .isGrace)
      try c.encode(isTied, forKey: .isTied)
      try c.encode(x, forKey: .x)
      try c.encode(y, forKey: .y)
    }

    enum CodingKeys: String, CodingKey {
      case part, measure, voice, staff, onsetQuarters, durationQuarters, onsetSeconds, durationSeconds
      case writtenPitch, soundingPitch, name, isRest, isGrace, isTied, x, y
    }
  }

  struct Output: Encodable {
    var title: String
    var parts: [Score.Part]
    var tempos: [Tempo]
    var timeSignatures: [TimeSignature]
    var measures: [Measure]
    var notes: [Note]
  }

  struct Tempo: Encodable {
    var quarters: String
    var seconds: Double
    var bpm: Double
  }

  struct TimeSignature: Encodable {
    var quarters: String
    var numerator: Int
    var denominator: Int
  }

  struct Measure: Encodable {
    var number: String
    var onsetQuarters: String
    var durationQuarters: String
    var onsetSeconds: Double
  }

  func run() throws {
    var score = try Score(contentsOf: URL(fileURLWithPath: file), options: MusicXMLOptions(expandsRepeats: expandRepeats))
    if let part {
      guard let selected = score.selectingPart(part) else {
        throw ValidationError("no part with id or name \"\(part)\"; parts: \(score.parts.map { "\($0.id) (\($0.name))" }.joined(separator: ", "))")
      }
      score = selected
    }
    let scale = tempoScale
    let output = Output(
      title: score.title, parts: score.parts,
      tempos: score.tempos.map { Tempo(quarters: $0.quarters.description, seconds: $0.seconds / scale, bpm: $0.bpm * scale) },
      timeSignatures: score.timeSignatures.map {
        TimeSignature(quarters: $0.quarters.description, numerator: $0.numerator, denominator: $0.denominator)
      },
      measures: score.measures.map {
        Measure(
          number: $0.number, onsetQuarters: $0.onset.description, durationQuarters: $0.duration.description,
          onsetSeconds: $0.onsetSeconds / scale)
      },
      notes: score.notes.map { note in
        Note(
          part: note.part, measure: note.measure, voice: note.voice, staff: note.staff,
          onsetQuarters: note.onset.description, durationQuarters: note.duration.description,
          onsetSeconds: note.onsetSeconds / scale, durationSeconds: note.durationSeconds / scale,
          writtenPitch: note.writtenPitch?.rawValue, soundingPitch: note.soundingPitch?.rawValue,
          name: note.spelling?.description, isRest: note.isRest, isGrace: note.isGrace, isTied: note.isTied,
          x: note.x, y: note.y)
      })
    try printJSON(output)
  }
}
