import Foundation
import PitchDSP

/// Runs a live processor over a file or a stream, as `etude shift`, `harmonize`, `autotune` and
/// `fx` do: blocks in, blocks out.
///
/// To a WAV file the output is written atomically with the processor's latency removed (the
/// first `latency` frames dropped and the end flushed with silence), so that it lines up with the
/// input and has its length (plus `tail` frames for effects that ring on). To `-` it goes out as
/// raw interleaved PCM on standard output as it is made, still delayed by the latency (live use),
/// followed by the tail only when ``streamsTail`` is set.
struct BlockProcessing {
  var input: MonoInput
  /// Where to write: a WAV path, or `-`.
  var output: String
  /// The raw format for `-` (standard input's, or s16le).
  var streamFormat: RawPCMFormat
  /// The WAV sample encoding.
  var encoding: SampleEncoding
  /// Channels out (1 or 2).
  var channels: Int
  /// Frames the output lags the input.
  var latency: Int
  /// Frames to render after the input ends (reverb and delay tails), for a file.
  var tail: Int = 0
  /// Whether a stream, too, ends with the ``tail`` (`etude fx` piped through; a live
  /// harmonizer's stream stops with its input).
  var streamsTail = false
  var block: Int = 512

  /// Feeds every block of the input to `process`, which returns `channels` planar blocks of the
  /// same length, and writes them.
  ///
  /// - Returns: What was written to the WAV file; `nil` for a stream.
  @discardableResult
  func run(_ process: ([Float]) -> [[Float]]) throws -> AudioBuffer? {
    if output == "-" {
      func write(_ out: [[Float]]) {
        var bytes: [UInt8] = []
        streamFormat.encoding.encode(out, frames: 0..<(out.first?.count ?? 0), appendingTo: &bytes)
        FileHandle.standardOutput.write(Data(bytes))
      }
      while let frames = try input.read(maxFrames: block) { write(process(frames)) }
      var remaining = streamsTail ? tail : 0
      while remaining > 0 {
        let n = min(block, remaining)
        write(process([Float](repeating: 0, count: n)))
        remaining -= n
      }
      return nil
    }
    var result = [[Float]](repeating: [], count: channels)
    var skip = latency
    var total = 0
    func append(_ out: [[Float]]) {
      let count = out.first?.count ?? 0
      let dropped = min(skip, count)
      skip -= dropped
      for c in 0..<channels { result[c] += out[c][dropped...] }
    }
    while let frames = try input.read(maxFrames: block) {
      total += frames.count
      append(process(frames))
    }
    var flush = latency + tail
    while flush > 0 {
      let n = min(block, flush)
      append(process([Float](repeating: 0, count: n)))
      flush -= n
    }
    let length = min(total + tail, result[0].count)
    let buffer = AudioBuffer(sampleRate: input.sampleRate, channels: result.map { Array($0.prefix(length)) })
    try WAVWriter.write(buffer, to: URL(fileURLWithPath: output), encoding: encoding)
    return buffer
  }

  /// One block through a mono-in, stereo-out processor (the harmonizer's engine or chain): the
  /// left and right channels.
  static func stereo(
    _ frames: [Float],
    through process: (
      UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>, UnsafeMutableBufferPointer<Float>
    )
      -> Void
  ) -> [[Float]] {
    var left = [Float](repeating: 0, count: frames.count)
    var right = [Float](repeating: 0, count: frames.count)
    frames.withUnsafeBufferPointer { input in
      left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { process(input, l, $0) }
      }
    }
    return [left, right]
  }
}
