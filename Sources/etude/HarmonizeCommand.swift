import ArgumentParser
import Foundation
import Harmonizer
import PitchDSP
import ScoreModel

/// `etude harmonize IN OUT`: a voice into a stereo choir.
struct HarmonizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "harmonize",
    abstract: "Sing into a choir: up to four pitch-shifted voices around a live voice, in stereo.",
    discussion: """
      Choose the voices one way: --voices 3,5 (diatonic intervals above the sung note in --key \
      and --scale: 3 a third, 5 a fifth, -3 a third below, 8 an octave), --chord C:maj7 (the \
      chord's tones above the sung note, tuned to the chord), --intervals +4,+7 (fixed \
      semitones), or --progression "C:maj 4 | A:min 4 | F:maj 2 | G:7 2" at --tempo (the voices \
      sing each chord's notes, looping; N is a rest). --autotune also snaps the live voice to \
      the key's scale. --fx chorus,delay,reverb runs the result through effects (on each \
      channel; --set reverb.decay=2, see etude fx --list; a progression opens and closes an \
      adsr effect's gate at each chord), with their tail rendered. The output is stereo (the voices spread from left to right). A WAV OUT is \
      written atomically with the latency (about 56 ms) removed; - for IN reads raw PCM from \
      standard input (sample plays the --preset's sample: trimmed, looped, at its volume) and - \
      for OUT writes raw interleaved stereo PCM to standard output as it \
      is made: sox -d -t raw -r 44100 -e signed -b 16 -c 1 - | etude harmonize - - --voices 3,5 \
      | play -t raw -r 44100 -e signed -b 16 -c 2 -
      """)

  @Argument(help: "A WAV file, - for raw PCM on standard input, or sample for the --preset's sample.")
  var input: String

  @Argument(help: "A WAV file to write (stereo), or - for raw PCM on standard output.")
  var output: String

  @Option(help: "The key's tonic, such as C, F#, Bb.")
  var key: String = "C"

  @Option(help: "The scale: major, minor, harmonic minor, dorian, ...")
  var scale: String = "major"

  @Option(parsing: .unconditional, help: "Diatonic intervals, comma-separated (3 = a third above, -3 below).")
  var voices: String?

  @Option(help: "A chord in Harte syntax (C:maj7, A:min, G:7): its tones above the sung note.")
  var chord: String?

  @Option(parsing: .unconditional, help: "Fixed shifts in semitones, comma-separated (+4,+7,-12).")
  var intervals: String?

  @Option(
    help: "A chord progression the voices sing: chords in Harte syntax with lengths in beats, separated by |."
  )
  var progression: String?

  @Option(help: "The progression's tempo, in beats per minute.")
  var tempo: Double = 100

  @Flag(help: "Play the progression once instead of looping it.")
  var once = false

  @Option(help: "The harmony voices' level, 0...1.")
  var level: Double = 0.7

  @Option(help: "The live voice's level, 0...1.")
  var liveLevel: Double = 1

  @Flag(help: "Also auto-tune the live voice to the key's scale.")
  var autotune = false

  @Option(help: "The auto-tuner's retune time, in milliseconds (0: instant).")
  var retuneMs: Double = 50

  @Option(help: "Effects after the voices, in order, comma-separated (etude fx --list): chorus,delay,reverb.")
  var fx: String?

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "An effect parameter: effect.parameter=value (repeatable).", valueName: "effect.parameter=value"))
  var effectSettings: [String] = []

  @Option(
    help:
      "Use a saved preset (etude presets list): its voices, key, chord, auto-tune, effects, volumes and progression."
  )
  var preset: String?

  @Option(help: "The presets directory for --preset (default: $ETUDE_PRESETS or ~/.etude/presets).")
  var presetsDir: String?

  @Option(
    help:
      "With IN = sample: how long to play the preset's sample, in seconds (default: once through; a loop plays 8 s)."
  )
  var seconds: Double?

  @Option(
    help:
      "How the voices are shifted: psola (formants kept, about 56 ms latency) or delay (a delay line, about 20 ms)."
  )
  var shifter: HarmonizerEngine.VoiceShifter = .psola

  @Flag(help: "Write a 32-bit float WAV (default: 16-bit integer).")
  var float = false

  @OptionGroup var rawInput: RawInputOptions

  func validate() throws {
    let ways = [voices, chord, intervals, progression].compactMap { $0 }.count
    if input == "sample", preset == nil { throw ValidationError("IN = sample plays a --preset's sample") }
    if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 3600) {
      throw ValidationError("--seconds must be within 0...3600")
    }
    if preset != nil {
      guard ways == 0, fx == nil, effectSettings.isEmpty, !autotune else {
        throw ValidationError("--preset sets the voices, effects and auto-tune; leave out the other choices")
      }
    } else if ways != 1 {
      throw ValidationError(
        "choose the voices with exactly one of --voices, --chord, --intervals, --progression or --preset")
    }
    guard (0...1).contains(level), (0...1).contains(liveLevel) else {
      throw ValidationError("levels must be within 0...1")
    }
    guard retuneMs.isFinite, (0...2000).contains(retuneMs) else {
      throw ValidationError("--retune-ms must be within 0...2000")
    }
  }

  /// The key from --key and --scale.
  static func key(_ tonic: String, _ scale: String) throws -> Key {
    guard let name = NoteName(tonic) else { throw ValidationError("--key: not a note name: \(tonic)") }
    guard let scale = Scale(name: scale) else {
      throw ValidationError(
        "--scale: not a scale: \(scale) (major, minor, harmonic minor, melodic minor, dorian, ...)")
    }
    return Key(name, scale)
  }

  func settings() throws -> (HarmonizerSettings, ChordSequencer?) {
    let key = try Self.key(self.key, scale)
    var settings = HarmonizerSettings(key: key, liveLevel: liveLevel)
    var sequencer: ChordSequencer?
    if let voices {
      let numbers = try voices.split(separator: ",").map { text -> Int in
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)), n != 0, abs(n) <= 15 else {
          throw ValidationError("--voices: not an interval number: \(text)")
        }
        return n
      }
      settings.voices = HarmonizerSettings.spread(numbers.map { .diatonic($0) }, level: level)
    } else if let intervals {
      let shifts = try intervals.split(separator: ",").map { text -> HarmonyInterval in
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let s = Double(t), abs(s) <= 24 else {
          throw ValidationError("--intervals: not a shift in semitones: \(text)")
        }
        return .semitones(s)
      }
      settings.voices = HarmonizerSettings.spread(shifts, level: level)
    } else if let chord {
      let parsed: Chord
      do { parsed = try Chord(harte: chord) } catch { throw ValidationError("--chord: \(error)") }
      let chordSettings = HarmonizerSettings.chord(parsed, key: key)
      settings.chord = parsed
      settings.voices = HarmonizerSettings.spread(chordSettings.voices.map(\.interval), level: level)
    } else if let progression {
      sequencer = try ChordSequencer(progression: progression, tempo: tempo, loops: !once)
    }
    settings.autoTune = AutoTuneSettings(isEnabled: autotune, key: key, retuneSeconds: retuneMs / 1000)
    return (settings, sequencer)
  }

  func run() throws {
    if let preset {
      let store = PresetStore(
        directory: presetsDir.map { URL(fileURLWithPath: $0) } ?? PresetStore.defaultDirectory())
      let loaded = try store.load(named: preset)
      let source =
        input == "sample"
        ? try Self.sampleInput(loaded, store: store, seconds: seconds)
        : try MonoInput(file: input, raw: rawInput)
      try render(
        source, chain: try loaded.makeChain(sampleRate: source.sampleRate, shifter: shifter),
        sequencer: loaded.chordSequencer)
      return
    }
    let (settings, sequencer) = try settings()
    let kinds: [EffectKind]
    do throws(EffectError) {
      kinds = try (fx ?? "").split(separator: ",").map { name throws(EffectError) in
        try EffectKind(named: name.trimmingCharacters(in: .whitespaces))
      }
    } catch {
      throw ValidationError(error.description)
    }
    guard effectSettings.isEmpty || !kinds.isEmpty else { throw ValidationError("--set needs --fx") }
    let source = try MonoInput(file: input, raw: rawInput)
    let engine = try HarmonizerEngine(sampleRate: source.sampleRate, settings: settings, shifter: shifter)
    let chain: HarmonizerChain
    do throws(EffectError) {
      chain = try HarmonizerChain(engine: engine, effects: kinds)
      for setting in effectSettings {
        let parts = setting.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2, let value = Float(parts[1]), value.isFinite else {
          throw .invalidValue(
            name: "--set", value: setting, expected: "effect.parameter=number, such as reverb.decay=2")
        }
        try chain.setEffectParameter(parts[0], to: value)
      }
    } catch {
      throw ValidationError(error.description)
    }
    try render(source, chain: chain, sequencer: sequencer)
  }

  /// The preset's sample played (trimmed, looped, at its volume) as the input.
  static func sampleInput(_ preset: Preset, store: PresetStore, seconds: Double?) throws -> MonoInput {
    guard let reference = preset.sample else {
      throw ValidationError("preset \"\(preset.name)\" has no sample; IN = sample needs one")
    }
    let sample = try reference.load(from: store)
    var player = SamplePlayer(sample: sample)
    player.gainDB = Float(preset.volumes.sampleDB)
    player.start()
    let total = Int(
      ((seconds ?? (sample.isLooping ? 8 : sample.durationSeconds)) * sample.sampleRate).rounded())
    var played = 0
    return MonoInput(sampleRate: sample.sampleRate, frameCount: total) { maxFrames in
      guard played < total else { return nil }
      var block = [Float](repeating: 0, count: min(maxFrames, total - played))
      block.withUnsafeMutableBufferPointer { player.render(into: $0) }
      played += block.count
      return block
    }
  }

  /// Runs the input through `chain`, the sequencer holding its chords at their times.
  func render(_ source: MonoInput, chain: HarmonizerChain, sequencer: ChordSequencer?) throws {
    var framesIn = 0
    var step: Int?
    var processing = BlockProcessing(
      input: source, output: output, streamFormat: input == "-" ? rawInput.format : .s16le,
      encoding: float ? .float32 : .signed16, channels: 2, latency: chain.latencySamples)
    processing.tail = Int((min(30, chain.tailSeconds) * source.sampleRate).rounded())
    try processing.run { frames in
      if let sequencer {
        let now = sequencer.step(at: Double(framesIn) / source.sampleRate)
        if now != step {
          step = now
          let notes = now.map { sequencer.steps[$0].notes } ?? []
          chain.engine.hold(notes)
          if notes.isEmpty { chain.noteOff() } else { chain.noteOn() }
        }
      }
      framesIn += frames.count
      return BlockProcessing.stereo(frames) { chain.process($0, left: $1, right: $2) }
    }
  }
}

extension HarmonizerEngine.VoiceShifter: ExpressibleByArgument {
  public init?(argument: String) {
    switch argument.lowercased() {
    case "psola": self = .psola
    case "delay", "delay-line", "delayline": self = .delayLine
    default: return nil
    }
  }
}
