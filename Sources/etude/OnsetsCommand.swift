import ArgumentParser
import Foundation
import PitchDSP

/// `etude onsets FILE.wav`: one onset time per line, in seconds.
struct OnsetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "onsets",
    abstract: "Find the onsets of a recording: one time per line, in seconds.",
    discussion: """
      Prints the time of each onset (where a sound starts) in seconds with three decimals, one \
      per line, as soon as it is detected. Methods: superflux (default: spectral flux with a \
      maximum filter that ignores vibrato; also finds legato changes of note; 32 ms latency at \
      44.1 kHz; its threshold is not relative to the level, so a file is first normalized to \
      full scale unless --no-normalize) and amplitude (the level rising 15 dB above a running \
      noise floor, or 9 dB within 30 ms while a sound goes on; at most 103 ms latency, usually \
      under 8 ms). Use - to read raw PCM from standard input (with --rate, --format and \
      --channels): onsets are printed while the audio arrives.
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Option(help: "superflux or amplitude.")
  var method: OnsetMethod = .superflux

  @Flag(
    inversion: .prefixedNo,
    help: """
      For a file and superflux: scale the spectrum so that the file's peak is full scale (a first \
      pass over the file), as the SuperFlux reference implementation's --norm does. Standard \
      input is never normalized.
      """)
  var normalize = true

  @OptionGroup var rawInput: RawInputOptions

  func run() throws {
    let input = try MonoInput(file: file, raw: rawInput)
    let sampleRate = input.sampleRate
    // Standard input arrives live: read small blocks so that onsets come out promptly.
    let block = input.isStream ? 512 : 8192
    var peak = 1.0
    if normalize, method == .superflux, !input.isStream {
      peak = try Self.peak(of: URL(fileURLWithPath: file))
    }
    let detector: any OnsetDetector
    switch method {
    case .amplitude:
      detector = try AmplitudeOnsetDetector(configuration: .init(sampleRate: sampleRate))
    case .superflux:
      // Normalizing the input is scaling λ in log₁₀(1 + λ·X): at most by 60 dB.
      detector = try SpectralFluxOnsetDetector(
        configuration: .init(sampleRate: sampleRate, logScale: 1 / max(peak, 0.001)))
    }
    var onsets = [Onset](
      repeating: Onset(time: 0, strength: 0),
      count: max(detector.maximumOnsets(forFrames: block), detector.maximumOnsets(forFrames: 0)))
    func emit(_ count: Int) {
      guard count > 0 else { return }
      let text = onsets[0..<count].map { String(format: "%.3f\n", $0.time) }.joined()
      // Unbuffered: a pipe sees each onset as soon as it is found.
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    while let frames = try input.read(maxFrames: block) {
      emit(
        frames.withUnsafeBufferPointer { chunk in
          onsets.withUnsafeMutableBufferPointer { detector.process(chunk, into: $0) }
        })
    }
    emit(onsets.withUnsafeMutableBufferPointer { detector.finish(into: $0) })
  }

  /// The largest absolute value of a WAV file's mono mix (finite samples only).
  static func peak(of url: URL) throws -> Double {
    let reader = try WAVReader(url: url)
    var peak: Float = 0
    while let frames = try reader.readMono(maxFrames: 65536) {
      for x in frames where x.isFinite { peak = max(peak, abs(x)) }
    }
    return Double(peak)
  }
}

extension OnsetMethod: ExpressibleByArgument {}
