import Foundation
import PitchDSP

/// Mono audio from a WAV file or from raw PCM on standard input, read in blocks: what the
/// analysis commands (`pitch`, `onsets`, ...) consume.
struct MonoInput {
  /// The sample rate, in Hz.
  let sampleRate: Double
  /// The length in frames, when known (WAV files; not standard input).
  let frameCount: Int?
  /// Whether the audio arrives live (standard input): print results as they come.
  let isStream: Bool
  /// How the samples are stored in the file or the stream (`nil` for an input made by the
  /// caller): what an output in the same format uses.
  let encoding: SampleEncoding?
  private let readBlock: (Int) throws -> [Float]?

  /// Opens `file` (a WAV file, or `-` for raw PCM described by `raw`).
  init(file: String, raw: RawInputOptions) throws {
    if file == "-" {
      let reader = try raw.makeReader()
      sampleRate = reader.sampleRate
      frameCount = nil
      isStream = true
      encoding = raw.format.encoding
      readBlock = { try reader.readMono(maxFrames: $0) }
    } else {
      let reader = try WAVReader(url: URL(fileURLWithPath: file))
      sampleRate = reader.format.sampleRate
      frameCount = reader.format.frameCount
      isStream = false
      encoding = reader.format.encoding
      readBlock = { try reader.readMono(maxFrames: $0) }
    }
  }

  /// An input made by the caller (a sample player, a generator): `read` returns the next block
  /// of at most the frames asked for, or `nil` at the end.
  init(sampleRate: Double, frameCount: Int?, read: @escaping (Int) throws -> [Float]?) {
    self.sampleRate = sampleRate
    self.frameCount = frameCount
    isStream = false
    encoding = nil
    readBlock = read
  }

  /// The next block of at most `maxFrames` mono samples, or `nil` at the end.
  func read(maxFrames: Int) throws -> [Float]? { try readBlock(maxFrames) }
}

/// Writes a line to standard output at once (so that a pipe sees results as they are made).
func emitLine(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
