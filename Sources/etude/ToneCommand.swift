import ArgumentParser
import Foundation
import Synthesis

extension Waveform: ExpressibleByArgument {}

/// `etude tone --frequency 329.6 --seconds 2 OUT.wav`: one steady tone.
struct ToneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tone",
    abstract: "Write one steady tone: a sine (or a band-limited sawtooth, square or triangle).",
    discussion: """
      The Sound Track seed's first step, without its 16-bit rounding quirks: a phase-continuous \
      oscillator at --frequency for --seconds, with short linear fades at both ends so that it \
      starts and stops without a click (--fade-ms 0 for none). OUT.wav is written atomically; - \
      writes raw PCM to standard output.
      """)

  @Option(help: "The frequency, in Hz (below half the sample rate).")
  var frequency: Double = 440

  @Option(help: "How long, in seconds.")
  var seconds: Double = 1

  @Option(help: "sine, sawtooth, square or triangle.")
  var waveform: Waveform = .sine

  @Option(help: "The peak amplitude, 0...1 (1 is full scale).")
  var amplitude: Double = 0.5

  @Option(help: "Fade in and out, in milliseconds.")
  var fadeMs: Double = 5

  @Argument(help: "The WAV file to write, or - for raw PCM on standard output.")
  var output: String

  @OptionGroup var audio: AudioOutputOptions

  func validate() throws {
    guard frequency.isFinite, frequency > 0, frequency < audio.rate / 2 else {
      throw ValidationError("--frequency must be above 0 and below half of --rate (\(audio.rate / 2) Hz)")
    }
    guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
      throw ValidationError("--seconds must be within 0...3600")
    }
    guard amplitude.isFinite, (0...1).contains(amplitude) else {
      throw ValidationError("--amplitude must be within 0...1")
    }
    guard fadeMs.isFinite, fadeMs >= 0 else { throw ValidationError("--fade-ms must be 0 or more") }
  }

  func run() throws {
    var oscillator = Oscillator(waveform: waveform, frequencyHz: frequency, sampleRate: audio.rate)
    var samples = [Float](repeating: 0, count: Int((seconds * audio.rate).rounded()))
    samples.withUnsafeMutableBufferPointer { oscillator.render(into: $0, gain: Float(amplitude)) }
    let fade = min(samples.count / 2, Int(fadeMs / 1000 * audio.rate))
    for i in 0..<fade {
      let gain = Float(i) / Float(fade)
      samples[i] *= gain
      samples[samples.count - 1 - i] *= gain
    }
    try audio.write(samples, to: output)
    FileHandle.standardError.write(Data(audio.summary(of: samples, to: output).utf8))
  }
}
