import ArgumentParser
import Foundation
import Harmonizer
import PitchDSP
import ScoreModel

/// `etude autotune IN OUT --key C --scale minor`: a voice snapped to a scale.
struct AutoTuneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "autotune",
    abstract: "Snap a voice to the nearest note of a key's scale.",
    discussion: """
      The voice is tracked and shifted (PSOLA, formants kept) to the nearest note of --key and \
      --scale, gliding there with --retune-ms (0: instant, the robotic effect; 50-200 sounds \
      natural); unvoiced sounds pass unchanged. A WAV OUT is written atomically with the latency \
      (about 56 ms) removed; - for IN reads raw PCM from standard input and - for OUT writes raw \
      mono PCM to standard output as it is made.
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var input: String

  @Argument(help: "A WAV file to write, or - for raw PCM on standard output.")
  var output: String

  @Option(help: "The key's tonic, such as C, F#, Bb.")
  var key: String = "C"

  @Option(help: "The scale: major, minor, harmonic minor, dorian, ... or chromatic (every semitone).")
  var scale: String = "major"

  @Option(help: "The retune time, in milliseconds (0: instant).")
  var retuneMs: Double = 50

  @Option(
    help:
      "How the voices are shifted: psola (formants kept, about 56 ms latency) or delay (a delay line, about 20 ms)."
  )
  var shifter: HarmonizerEngine.VoiceShifter = .psola

  @Flag(help: "Write a 32-bit float WAV (default: 16-bit integer).")
  var float = false

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    guard retuneMs.isFinite, (0...2000).contains(retuneMs) else {
      throw ValidationError("--retune-ms must be within 0...2000")
    }
  }

  func run() throws {
    let key = scale.lowercased() == "chromatic" ? nil : try HarmonizeCommand.key(self.key, scale)
    let settings = HarmonizerSettings(
      key: key ?? .cMajor, liveLevel: 1,
      autoTune: AutoTuneSettings(isEnabled: true, key: key, retuneSeconds: retuneMs / 1000))
    let source = try MonoInput(file: input, raw: rawInput)
    let engine = try HarmonizerEngine(sampleRate: source.sampleRate, settings: settings, shifter: shifter)
    let processing = BlockProcessing(
      input: source, output: output, streamFormat: input == "-" ? rawInput.format : .s16le,
      encoding: float ? .float32 : .signed16, channels: 1, latency: engine.latencySamples)
    try processing.run { frames in
      // The live voice is centred: its left channel is the whole of it.
      [BlockProcessing.stereo(frames) { engine.process($0, left: $1, right: $2) }[0]]
    }
  }
}
