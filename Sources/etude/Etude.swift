import ArgumentParser

/// The `etude` command-line tool: one subcommand per SDK capability.
@main
struct Etude: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "etude",
    abstract: "Etude: music-practice and music-DSP toolkit.",
    discussion: """
      Runs each capability of the Etude SDK on files or on raw PCM piped through stdin.
      Start with `etude demo`, which needs no input file.
      """,
    version: "0.1.0",
    subcommands: [
      DemoCommand.self, InfoCommand.self, ScoreCommand.self, PitchCommand.self, NotesCommand.self, OnsetsCommand.self,
      ChordsCommand.self, ShiftCommand.self,
      MIDIToJSONCommand.self, JSONToMIDICommand.self, MIDIRepairCommand.self, GradeCommand.self,
      ToneCommand.self, SynthCommand.self, RenderCommand.self, HarmonizeCommand.self, AutoTuneCommand.self, FXCommand.self,
      PresetsCommand.self,
    ]
  )

  /// The entry point: `etude score` with plain arguments runs at once (see
  /// ``ScoreCommand/runPlain(_:)``); everything else goes through the standard parser.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "score", ScoreCommand.runPlain(Array(arguments.dropFirst())) { return }
    await main(nil)
  }
}
