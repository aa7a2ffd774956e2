// libFuzzer entry point for the WAV parser: any bytes either parse or throw a PitchDSPError.
//
// Built by `Fuzz/run.sh wav` into one module with the PitchDSP sources the parser needs (IO,
// Audio, PitchDSPError), so it calls internal API directly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  // The last byte picks a block size, so streaming is exercised at 1…256 frames (but at most
  // 64 blocks per input, to keep executions fast).
  let pick = count > 0 ? Int(start.load(fromByteOffset: count - 1, as: UInt8.self)) + 1 : 4096
  do {
    let reader = try WAVReader(data: data)
    let format = reader.format
    let block = max(pick, (format.frameCount ?? 0) / 64)
    var frames = 0
    var decoded = AudioBuffer(sampleRate: format.sampleRate, channelCount: format.channelCount, frameCount: 0)
    while let next = try reader.read(maxFrames: block) {
      precondition(next.frameCount >= 1 && next.frameCount <= block, "block size out of range")
      frames += next.frameCount
      decoded.append(next)
    }
    precondition(frames == format.frameCount, "frame count disagrees with the header's")
    let after = try reader.read(maxFrames: 1)
    precondition(after == nil, "data after the end")

    // Mono mixdown streams the same frames.
    let again = try WAVReader(data: data)
    var monoFrames = 0
    while let mono = try again.readMono(maxFrames: 4096) { monoFrames += mono.count }
    precondition(monoFrames == frames, "mono mixdown lost frames")

    // What was read writes back and reads again with the same shape (samples may requantize:
    // a 20-bit-valid file is written as its 24-bit container).
    if decoded.frameCount <= 1 << 14 {
      let encoded = try WAVWriter.encode(decoded, encoding: format.encoding)
      let reread = try WAVReader(data: encoded)
      precondition(reread.format.frameCount == frames, "round trip changed the frame count")
      precondition(reread.format.channelCount == format.channelCount, "round trip changed channels")
      precondition(reread.format.encoding == format.encoding, "round trip changed the encoding")
      let samples = try reader.readRemaining()
      precondition(samples.frameCount == 0, "readRemaining after the end returned frames")
      let back = try reread.readRemaining()
      if format.encoding.isFloat {
        for c in 0..<back.channelCount {
          for i in 0..<back.frameCount {
            let a = back.channels[c][i]
            let b = decoded.channels[c][i]
            precondition(a == b || (a.isNaN && b.isNaN), "float samples changed in a round trip")
          }
        }
      }
    }
  } catch {
    precondition(!error.description.isEmpty, "an error without a message")
  }
  return 0
}
