import ArgumentParser
import Foundation
import Harmonizer
import PitchDSP

/// `etude shift IN OUT --semitones N`: a pitch-shifted copy of a recording or of a live stream.
struct ShiftCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "shift",
    abstract: "Shift the pitch of a recording or of a live stream by a number of semitones.",
    discussion: """
      Shifters: psola (default; pitch-synchronous overlap-add driven by the pitch tracker, keeps \
      the formants of a voice, ~56 ms latency) and delay (two crossfaded read taps on a delay \
      line, any sound, 20 ms latency with the default 40 ms window; --window and --crossfade in \
      milliseconds). The input is mixed down to mono; the output is mono.
      A WAV output is written atomically, with the shifter's latency removed, so that it lines up \
      with the input and has its length. Use - for IN to read raw PCM from standard input (--rate, \
      --format, --channels) and - for OUT to write raw mono PCM of the same format to standard \
      output as it is made (live: delayed by the shifter's latency), e.g. \
      sox -d -t raw -r 44100 -e signed -b 16 -c 1 - | etude shift - - --semitones 4 | \
      play -t raw -r 44100 -e signed -b 16 -c 1 -
      """)

  /// The shifting method.
  enum Method: String, ExpressibleByArgument, CaseIterable {
    case psola, delay
  }

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var input: String

  @Argument(help: "A WAV file to write, or - for raw PCM on standard output.")
  var output: String

  @Option(
    parsing: .unconditional, help: "The shift in semitones (positive up, negative down, fractional allowed).")
  var semitones: Double

  @Option(help: "psola or delay.")
  var shifter: Method = .psola

  @Option(help: "Delay shifter: the window the read taps sweep, in milliseconds (5...500).")
  var window: Double?

  @Option(help: "Delay shifter: the crossfade at a splice, in milliseconds (at most half the window).")
  var crossfade: Double?

  @Flag(help: "Write a 32-bit float WAV (default: 16-bit integer).")
  var float = false

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    guard semitones.isFinite, abs(semitones) <= 24 else {
      throw ValidationError("--semitones must be within -24...24")
    }
    if shifter == .psola, window != nil || crossfade != nil {
      throw ValidationError("--window and --crossfade apply to --shifter delay")
    }
  }

  func run() throws {
    let source = try MonoInput(file: input, raw: rawInput)
    var processor = try makeShifter(sampleRate: source.sampleRate)
    let processing = BlockProcessing(
      input: source, output: output, streamFormat: input == "-" ? rawInput.format : .s16le,
      encoding: float ? .float32 : .signed16, channels: 1, latency: processor.latencySamples, block: 1024)
    try processing.run { frames in
      var out = [Float](repeating: 0, count: frames.count)
      frames.withUnsafeBufferPointer { i in
        out.withUnsafeMutableBufferPointer { processor.process(i, into: $0) }
      }
      return [out]
    }
  }

  func makeShifter(sampleRate: Double) throws -> any PitchShifter {
    switch shifter {
    case .psola:
      return try PSOLAShifter(sampleRate: sampleRate, semitones: semitones)
    case .delay:
      var configuration = DelayLineShifter.Configuration()
      if let window { configuration.windowSeconds = window / 1000 }
      if let crossfade { configuration.crossfadeSeconds = crossfade / 1000 }
      if window != nil, crossfade == nil {
        configuration.crossfadeSeconds = min(configuration.crossfadeSeconds, configuration.windowSeconds / 2)
      }
      return try DelayLineShifter(sampleRate: sampleRate, semitones: semitones, configuration: configuration)
    }
  }

}
