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
      44.1 kHz) and amplitude (the level rising 15 dB above a running noise floor, or 9 dB \
      within 30 ms while a sound goes on; at most 103 ms latency, usually under 8 ms). Use - \
      to read raw PCM from standard input (with --rate, --format and --channels): onsets are \
      printed while the audio arrives.
      """)

  @Argument(help: "A WAV file, or - for raw PCM on standard input.")
  var file: String

  @Option(help: "superflux or amplitude.")
  var method: OnsetMethod = .superflux

  @OptionGroup var rawInput: RawInputOptions

  func run() throws {
    // Standard input arrives live: read small blocks so that onsets come out promptly.
    let read: (Int) throws -> [Float]?
    let sampleRate: Double
    let block: Int
    if file == "-" {
      let reader = try rawInput.makeReader()
      (read, sampleRate, block) = ({ try reader.readMono(maxFrames: $0) }, reader.sampleRate, 512)
    } else {
      let reader = try WAVReader(url: URL(fileURLWithPath: file))
      (read, sampleRate, block) = ({ try reader.readMono(maxFrames: $0) }, reader.format.sampleRate, 8192)
    }
    let detector = try method.makeDetector(sampleRate: sampleRate)
    var onsets = [Onset](
      repeating: Onset(time: 0, strength: 0),
      count: max(detector.maximumOnsets(forFrames: block), detector.maximumOnsets(forFrames: 0)))
    func emit(_ count: Int) {
      guard count > 0 else { return }
      let text = onsets[0..<count].map { String(format: "%.3f\n", $0.time) }.joined()
      // Unbuffered: a pipe sees each onset as soon as it is found.
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    while let frames = try read(block) {
      emit(
        frames.withUnsafeBufferPointer { chunk in
          onsets.withUnsafeMutableBufferPointer { detector.process(chunk, into: $0) }
        })
    }
    emit(onsets.withUnsafeMutableBufferPointer { detector.finish(into: $0) })
  }
}

extension OnsetMethod: ExpressibleByArgument {}
