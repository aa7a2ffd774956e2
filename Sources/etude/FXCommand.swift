import ArgumentParser
import Foundation
import Harmonizer
import PitchDSP

/// `etude fx IN.wav OUT.wav --chain chorus,delay,reverb [--set delay.time=0.3 ...]`: audio
/// through an effects rack.
struct FXCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fx",
    abstract: "Run audio through a chain of effects (chorus, overdrive, delay, reverb, ...).",
    discussion: """
      Processes IN through the effects named by --chain, in that order, and writes OUT. Set \
      parameters with --set effect.parameter=value (repeatable; a second effect of a kind is \
      delay2, ...); values outside a parameter's range are clamped. `etude fx --list` prints the \
      effects and their parameters with ranges and defaults. After the input ends, the effects' \
      tail (echoes, reverb) is rendered too (--tail sets its length in seconds; 0 for none). Use - \
      for IN to read raw PCM from standard input (with --rate, --format and --channels), and - \
      for OUT to stream raw mono PCM to standard output as it is made, in the same format (so \
      `sox -d -t raw - | etude fx - - ... | play -t raw -` runs live). A WAV OUT is written \
      atomically, in the input file's sample format (or --format for standard input).
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var input: String?

  @Argument(help: "The output WAV file, or - for raw mono PCM on standard output.")
  var output: String?

  @Option(help: "Effects in processing order, comma-separated (see --list).")
  var chain: String?

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "A parameter: effect.parameter=value (repeatable).", valueName: "effect.parameter=value"))
  var settings: [String] = []

  @Option(help: "Seconds of tail rendered after the input ends (default: as long as the effects ring).")
  var tail: Double?

  @Flag(help: "List the effects and their parameters, then exit.")
  var list = false

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    if list { return }
    guard input != nil, output != nil else { throw ValidationError("give IN and OUT (or --list)") }
    guard chain != nil else { throw ValidationError("give --chain, such as --chain chorus,delay,reverb") }
    if let tail, !(tail.isFinite && tail >= 0) { throw ValidationError("--tail must be 0 or more seconds") }
  }

  func run() throws {
    if list {
      print(Self.listing(), terminator: "")
      return
    }
    guard let inputPath = input, let outputPath = output, let chain else { return }
    let kinds: [EffectKind]
    do throws(EffectError) {
      kinds = try chain.split(separator: ",").map { name throws(EffectError) in
        try EffectKind(named: name.trimmingCharacters(in: .whitespaces))
      }
      // Check every name before touching the input.
      _ = try makeRack(kinds, sampleRate: 48_000, maximumFrames: 64)
    } catch {
      throw ValidationError(error.description)
    }
    let rackInput = try MonoInput(file: inputPath, raw: rawInput)
    let block = rackInput.isStream ? 512 : 8192
    let rack: EffectsRack
    do throws(EffectError) {
      rack = try makeRack(kinds, sampleRate: rackInput.sampleRate, maximumFrames: block)
    } catch {
      throw ValidationError(error.description)
    }

    let format: RawPCMFormat = rawInput.format
    let encoding = rackInput.encoding ?? format.encoding
    let tailSeconds = tail ?? min(60, rack.tailSeconds)
    var processing = BlockProcessing(
      input: rackInput, output: outputPath, streamFormat: format, encoding: encoding, channels: 1, latency: 0,
      block: block)
    processing.tail = Int((tailSeconds * rackInput.sampleRate).rounded())
    processing.streamsTail = true
    let written = try processing.run { frames in
      var out = frames
      out.withUnsafeMutableBufferPointer { rack.process($0) }
      return [out]
    }
    if let written {
      let rendered = written.channels[0]
      let peak = rendered.reduce(Float(0)) { max($0, abs($1)) }
      let peakText = peak > 0 ? String(format: "%.1f", 20 * log10(Double(peak))) : "-inf"
      FileHandle.standardError.write(
        Data(
          ("wrote \(outputPath): \(String(format: "%.2f", Double(rendered.count) / rackInput.sampleRate)) s "
            + "(\(String(format: "%.2f", tailSeconds)) s of tail) through \(rack.slotNames.joined(separator: " > ")), "
            + "peak \(peakText) dBFS\n").utf8))
    }
  }

  /// A rack of `kinds` with the `--set` values applied.
  func makeRack(_ kinds: [EffectKind], sampleRate: Double, maximumFrames: Int) throws(EffectError)
    -> EffectsRack
  {
    let rack = try EffectsRack(kinds: kinds, sampleRate: sampleRate, maximumFrames: maximumFrames)
    for setting in settings {
      let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let value = Float(parts[1].trimmingCharacters(in: .whitespaces)), value.isFinite
      else {
        throw .invalidValue(
          name: "--set", value: setting, expected: "effect.parameter=number, such as delay.time=0.3")
      }
      try rack.setParameter(parts[0].trimmingCharacters(in: .whitespaces), to: value)
    }
    return rack
  }

  /// Every effect and its parameters, as `--list` prints them.
  static func listing() -> String {
    var text = ""
    for kind in EffectKind.allCases {
      text += "\(kind.rawValue): \(kind.summary)\n"
      for parameter in kind.parameters { text += "  \(parameter)\n" }
    }
    return text
  }
}
