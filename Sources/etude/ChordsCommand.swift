import ArgumentParser
import ChordGuessing
import Foundation
import PitchDSP
import ScoreModel

/// `etude chords FILE.wav`: chord segments, `start_s<TAB>end_s<TAB>label`, covering the file.
struct ChordsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chords",
    abstract: "Recognize the chords of a recording: start, end and Harte label per segment.",
    discussion: """
      Prints start_s<TAB>end_s<TAB>label lines covering the whole file, labels in Harte syntax \
      (C:maj, A:min7, G:7/3, N for no chord). By default the whole file is decoded at once \
      (Viterbi); --live prints what a live display would have shown instead (a causal hidden \
      Markov filter; its fixed latency goes to standard error). Use - to read raw PCM from \
      standard input (with --rate, --format and --channels): chord changes are printed as they \
      are decided, time_s<TAB>label, the time being when the new chord started.
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Option(
    help: """
      Enabled chord types, comma-separated Harte shorthands (default: \
      maj,min,dim,aug,sus2,sus4,maj7,min7,7; also dim7,hdim7,minmaj7,maj6,min6,9,5 or any \
      Harte type such as (1,4,b7)).
      """)
  var types: String?

  @Flag(help: "For a file: print the live (causal) decisions instead of the best path over the file.")
  var live = false

  @Option(help: "Chroma method: nnls (approximate transcription) or stark.")
  var chroma: ChromaMethod = .approximateTranscription

  @Option(help: "Spectrum: fft or cqt (constant-Q, 36 bins per octave).")
  var spectrum: SpectrumMethod = .fft

  @Option(help: "Decision: likelihood or distance (Stark's template distance).")
  var decision: ChordDecision = .likelihood

  @Option(
    help:
      "Live smoothing: hmm (forward filter), none, or repeated (Chordabra: the same chord twice in a row).")
  var smoothing: SmoothingOption = .hmm

  @Option(help: "Tuning: auto (estimated) or a fixed offset in cents from A4 = 440 Hz (-50...50).")
  var tuning: String = "auto"

  @Flag(help: "Report every chord in root position.")
  var noInversions = false

  @Flag(
    help: """
      Print the chromagram instead of chords: per frame, time_s, tuning in cents, level in dBFS, \
      harmonicity, then 12 treble and 12 bass values (C first), tab-separated.
      """)
  var printChroma = false

  @OptionGroup var rawInput: RawInputOptions

  enum SmoothingOption: String, ExpressibleByArgument, CaseIterable {
    case hmm, none, repeated
  }

  func validate() throws {
    if tuning != "auto" {
      guard let cents = Double(tuning), (-50...50).contains(cents) else {
        throw ValidationError("--tuning must be auto or a number of cents in -50...50")
      }
    }
    _ = try enabledTypes()
  }

  /// The enabled types from `--types`, or the defaults.
  func enabledTypes() throws -> [ChordType] {
    guard let types else { return ChordRecognizer.Configuration.standardTypes }
    var result: [ChordType] = []
    for name in types.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !name.isEmpty {
      do {
        let type = try ChordType(harte: name == "6" ? "maj6" : name)
        if !result.contains(type) { result.append(type) }
      } catch {
        throw ValidationError("--types: \(error.description)")
      }
    }
    guard !result.isEmpty else { throw ValidationError("--types needs at least one chord type") }
    return result
  }

  func run() throws {
    let input = try MonoInput(file: file, raw: rawInput)
    let enabled = try enabledTypes()
    var allTypes = ChordRecognizer.Configuration.allTypes
    for type in enabled where !allTypes.contains(type) { allTypes.append(type) }
    let chromaConfiguration = Chromagram.Configuration(
      sampleRate: input.sampleRate, method: chroma, spectrum: spectrum,
      tuning: tuning == "auto" ? .estimated : .fixed(cents: Double(tuning) ?? 0))
    let smoothingValue: ChordSmoothing =
      switch smoothing {
      case .hmm: .hiddenMarkov
      case .none: .none
      case .repeated: .repeated(count: 2)
      }
    let configuration = ChordRecognizer.Configuration(
      chroma: chromaConfiguration, types: allTypes, enabledTypes: enabled, decision: decision,
      smoothing: smoothingValue, allowsInversions: !noInversions)
    if printChroma {
      try printChromagram(input, configuration: chromaConfiguration)
    } else if input.isStream {
      try streamChanges(input, configuration: configuration)
    } else if live {
      try liveSegments(input, configuration: configuration)
    } else {
      let transcriber = try ChordTranscriber(configuration: configuration)
      while let block = try input.read(maxFrames: 65536) { transcriber.process(block) }
      for segment in transcriber.finish() { print(segment) }
    }
  }

  /// Chord changes of standard input, printed as they are decided.
  func streamChanges(_ input: MonoInput, configuration: ChordRecognizer.Configuration) throws {
    let recognizer = try ChordRecognizer(configuration: configuration)
    let block = 512
    var changes = [ChordChange](
      repeating: ChordChange(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0),
      count: max(recognizer.maximumChanges(forFrames: block), recognizer.maximumChanges(forFrames: 0)))
    func emit(_ count: Int) {
      guard count > 0 else { return }
      let text = changes[0..<count].map {
        String(format: "%.3f\t", max(0, $0.time)) + recognizer.label(for: $0).description + "\n"
      }.joined()
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    while let frames = try input.read(maxFrames: block) {
      emit(
        frames.withUnsafeBufferPointer { chunk in
          changes.withUnsafeMutableBufferPointer { recognizer.process(chunk, into: $0) }
        })
    }
    emit(changes.withUnsafeMutableBufferPointer { recognizer.finish(into: $0) })
  }

  /// The chromagram, one line per frame.
  func printChromagram(_ input: MonoInput, configuration: Chromagram.Configuration) throws {
    let chromagram = try Chromagram(configuration: configuration)
    let block = 4096
    let placeholder = ChromaFrame(
      time: 0, treble: Chroma(), bass: Chroma(), tuningCents: 0, levelDBFS: 0, harmonicity: 0)
    var frames = [ChromaFrame](
      repeating: placeholder,
      count: max(chromagram.maximumFrames(forFrames: block), chromagram.maximumFrames(forFrames: 0)))
    func emit(_ count: Int) {
      guard count > 0 else { return }
      var text = ""
      for frame in frames[0..<count] {
        text += String(
          format: "%.3f\t%.1f\t%.1f\t%.3f", frame.time, frame.tuningCents, frame.levelDBFS, frame.harmonicity)
        for p in 0..<12 { text += String(format: "\t%.4f", frame.treble[p]) }
        for p in 0..<12 { text += String(format: "\t%.4f", frame.bass[p]) }
        text += "\n"
      }
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    while let block = try input.read(maxFrames: block) {
      emit(
        block.withUnsafeBufferPointer { chunk in
          frames.withUnsafeMutableBufferPointer { chromagram.process(chunk, into: $0) }
        })
    }
    emit(frames.withUnsafeMutableBufferPointer { chromagram.finish(into: $0) })
  }

  /// The live decisions over a file, as segments.
  func liveSegments(_ input: MonoInput, configuration: ChordRecognizer.Configuration) throws {
    let recognizer = try ChordRecognizer(configuration: configuration)
    FileHandle.standardError.write(
      Data(
        String(
          format: "live: each change is reported %.3f s after its start time\n", recognizer.latencySeconds
        ).utf8))
    let block = 4096
    var scratch = [ChordChange](
      repeating: ChordChange(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0),
      count: max(recognizer.maximumChanges(forFrames: block), recognizer.maximumChanges(forFrames: 0)))
    var all: [ChordChange] = []
    var frameCount = 0
    while let frames = try input.read(maxFrames: block) {
      frameCount += frames.count
      let n = frames.withUnsafeBufferPointer { chunk in
        scratch.withUnsafeMutableBufferPointer { recognizer.process(chunk, into: $0) }
      }
      all += scratch[0..<n]
    }
    let n = scratch.withUnsafeMutableBufferPointer { recognizer.finish(into: $0) }
    all += scratch[0..<n]
    let segments = recognizer.segments(from: all, duration: Double(frameCount) / input.sampleRate)
    for segment in segments { print(segment) }
  }
}

extension ChromaMethod: ExpressibleByArgument {}
extension SpectrumMethod: ExpressibleByArgument {}
extension ChordDecision: ExpressibleByArgument {}
