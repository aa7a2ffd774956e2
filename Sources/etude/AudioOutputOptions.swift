import ArgumentParser
import Foundation
import PitchDSP

/// Options for commands that write audio: the sample rate and format, and where the samples go
/// (a WAV file written atomically, or raw PCM on standard output for `-`).
struct AudioOutputOptions: ParsableArguments {
  @Option(help: "Sample rate to render at, in Hz.")
  var rate: Double = 44100

  @Option(
    help:
      "Sample format: s16le (16-bit integer) or f32le (32-bit float), for the WAV file or the raw PCM on standard output."
  )
  var format: RawPCMFormat = .s16le

  func validate() throws {
    guard rate.isFinite, rate >= 8000, rate <= 384_000 else {
      throw ValidationError("--rate must be within 8000...384000 Hz")
    }
  }

  /// Writes mono `samples` to `path`: a WAV file, written atomically (complete or untouched), or
  /// raw interleaved PCM on standard output when `path` is `-`.
  func write(_ samples: [Float], to path: String) throws {
    let buffer = AudioBuffer(sampleRate: rate, mono: samples)
    if path == "-" {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(samples.count * format.bytesPerSample)
      format.encoding.encode(buffer.channels, frames: 0..<buffer.frameCount, appendingTo: &bytes)
      FileHandle.standardOutput.write(Data(bytes))
    } else {
      try WAVWriter.write(buffer, to: URL(fileURLWithPath: path), encoding: format.encoding)
    }
  }

  /// A one-line account of what was written, for standard error.
  func summary(of samples: [Float], to path: String) -> String {
    let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
    let peakDB = peak > 0 ? 20 * log10(Double(peak)) : -.infinity
    let place = path == "-" ? "standard output (raw \(format))" : path
    let seconds = String(format: "%.2f", Double(samples.count) / rate)
    return "wrote \(place): \(seconds) s at \(Int(rate)) Hz, peak \(String(format: "%.1f", peakDB)) dBFS\n"
  }
}
