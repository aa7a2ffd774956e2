import ArgumentParser
import Foundation
import PitchDSP

/// Options describing raw PCM piped through standard input (`FILE` given as `-`).
struct RawInputOptions: ParsableArguments {
  @Option(help: "Sample rate of raw PCM on standard input, in Hz.")
  var rate: Double = 44100

  @Option(help: "Sample format of raw PCM on standard input: s16le or f32le.")
  var format: RawPCMReader.Format = .s16le

  @Option(help: "Interleaved channels of raw PCM on standard input (mixed down to mono).")
  var channels: Int = 1

  /// A reader over standard input.
  func makeReader() throws -> RawPCMReader {
    try RawPCMReader(handle: .standardInput, format: format, channelCount: channels, sampleRate: rate)
  }
}

extension RawPCMReader.Format: ExpressibleByArgument {}

/// Prints `value` as pretty, key-sorted JSON on standard output.
func printJSON(_ value: some Encodable) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
