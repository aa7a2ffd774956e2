// libFuzzer entry point for the MusicXML importer: any bytes (XML text or an .mxl archive) either
// read into a Score or throw a ScoreModelError; whatever reads must also read in notation order and
// drive a score clock to its end.
//
// Built by `Fuzz/run.sh musicxml` into the ScoreModel module, so it calls internal API directly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMusicXML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  do {
    let score = try Score(musicXML: data)
    _ = try Score(musicXML: data, options: MusicXMLOptions(expandsRepeats: false))
    precondition(zip(score.notes, score.notes.dropFirst()).allSatisfy { $0.onset <= $1.onset }, "notes out of order")
    let clock = ScoreClock(score: score, countInBeats: 2)
    let events = UnsafeMutableBufferPointer<TimedScoreEvent>.allocate(capacity: 16)
    defer { events.deallocate() }
    var guardCount = 0
    while !clock.isFinished, guardCount < 1_000_000 {
      _ = clock.advance(bySeconds: 0.5, into: events)
      guardCount += 1
    }
  } catch {
    _ = error.description
  }
  return 0
}
