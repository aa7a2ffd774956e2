// libFuzzer entry point for MIDIJSON's parsers: any bytes either parse or throw a MIDIJSONError.
//
// Built by `Fuzz/run.sh midi` into the MIDIJSON module (ScoreModel linked beside it), so it calls
// internal API directly. Each input is read as a Standard MIDI File (lenient and strict) and as
// MIDI JSON (compact and full); whatever parses must survive every conversion and read back.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIDI(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  for strict in [false, true] {
    do {
      let file = try MIDIFile(data: data, options: MIDIReadOptions(strict: strict))
      let notes = file.notes()
      let reread = try MIDIFile(data: file.encoded())
      let writable = file.tracks.allSatisfy { track in
        zip([0] + track.events.map(\.tick), track.events.map(\.tick)).allSatisfy { $1 - $0 <= 0x0FFF_FFFF }
      }
      precondition(!writable || reread.notes().notes == notes.notes, "notes changed through write and read")
      _ = TempoMap(file).seconds(atTick: file.tracks.map(\.endTick).max() ?? 0)
      _ = try MIDIFile(json: FullMIDIJSON(file).json())
      let composition = Composition(file)
      let again = try Composition(json: composition.json())
      precondition(again == composition, "compact JSON changed through write and read")
      _ = composition.scoreNotes()
    } catch {
      _ = error.description
    }
  }
  do {
    let composition = try Composition(json: data)
    _ = MIDIFile(composition).encoded()
    _ = composition.quizRounds(by: .bars(2))
  } catch {
    _ = error.description
  }
  do {
    _ = try MIDIFile(json: data)
  } catch {
    _ = error.description
  }
  return 0
}
