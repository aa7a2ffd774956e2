// libFuzzer entry point for the WAV parser: any bytes either parse or throw a PitchDSPError.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  do {
    let reader = try WAVReader(data: data)
    var frames = 0
    while let block = try reader.read(maxFrames: 4096) { frames += block.frameCount }
    precondition(frames == reader.format.frameCount, "frame count disagrees with the header's")
  } catch {
    _ = error.description  // Every error must print.
  }
  return 0
}
