// libFuzzer entry point for the SoundFont 2 reader and player: any bytes either parse or throw a
// SynthesisError; what parses plays without trapping, and its output stays finite.
//
// Built by `Fuzz/run.sh soundfont` into one module with the SoundFont sources and the Synthesis
// seam (SynthVoice, Instrument, SynthesisError), so it calls internal API directly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundFont(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  // The last byte picks a block size (1…256 frames) and a pitch offset.
  let pick = count > 0 ? Int(start.load(fromByteOffset: count - 1, as: UInt8.self)) : 0
  let block = pick + 1
  do {
    let font = try SoundFont(data: data)
    precondition(font.presets.count <= count / 38, "more presets than phdr records fit in the input")
    var output = [Float](repeating: 0, count: block)
    for preset in font.presets.prefix(4) {
      let instrument: SoundFontInstrument
      do {
        instrument = try font.instrument(bank: preset.bank, program: preset.program)
      } catch {
        preconditionFailure("a listed preset was not found: \(error)")
      }
      for region in instrument.regions {
        precondition(region.start < region.end && region.end <= font.sampleFrameCount, "region outside the data")
        precondition(region.loopStart >= region.start && region.loopEnd <= region.end, "loop outside the region")
      }
      var voice = instrument.makeVoice(sampleRate: 44100)
      for key in [Double(pick % 128), 60.5, 127] {
        voice.start(pitch: key, velocity: 1 + pick % 127)
        output.withUnsafeMutableBufferPointer { buffer in
          for _ in 0..<3 { voice.render(adding: buffer) }
          voice.release()
          for _ in 0..<3 { voice.render(adding: buffer) }
        }
        precondition(output.allSatisfy(\.isFinite), "non-finite output")
      }
    }
  } catch {
    precondition(!error.description.isEmpty, "an error without a message")
  }
  return 0
}
