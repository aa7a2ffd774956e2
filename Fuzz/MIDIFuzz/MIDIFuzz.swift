// libFuzzer entry point for the Standard MIDI File reader: any bytes either parse (leniently)
// or throw a MIDIJSONError; whatever parses must survive write → read with the same notes.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIDI(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  for strict in [false, true] {
    do {
      let file = try MIDIFile(data: data, options: MIDIReadOptions(strict: strict))
      let notes = file.notes()
      let reread = try MIDIFile(data: file.encoded())
      precondition(reread.notes().notes == notes.notes, "notes changed through write and read")
      _ = TempoMap(file).seconds(atTick: file.tracks.map(\.endTick).max() ?? 0)
    } catch {
      _ = error.description
    }
  }
  return 0
}
