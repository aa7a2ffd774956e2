import Benchmark
import Foundation
import MIDIJSON

/// The MIDI files of the evaluation corpus (`Evaluation/midi/collect.sh`), or of the directory in
/// `ETUDE_MIDI_CORPUS`; empty when neither exists.
let corpus: [Data] = {
  let root =
    ProcessInfo.processInfo.environment["ETUDE_MIDI_CORPUS"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Evaluation/midi/work/corpus")
    .standardized.path
  guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
  var files: [Data] = []
  for case let path as String in walker where [".mid", ".midi", ".kar", ".rmi", ".smf"].contains(where: path.lowercased().hasSuffix) {
    if let data = FileManager.default.contents(atPath: root + "/" + path) { files.append(data) }
  }
  return files
}()

/// A synthetic 16-track file of about 1 MB: notes, controllers and pitch bends with running
/// status absent (as Etude writes), so that the benchmark runs without the corpus.
let syntheticFile: Data = {
  var tracks: [MIDITrack] = []
  for channel in 0..<16 {
    var events: [MIDITimedEvent] = []
    for i in 0..<5_000 {
      let tick = i * 120
      events.append(MIDITimedEvent(tick: tick, .noteOn(channel: UInt8(channel), note: UInt8(36 + (i * 7 + channel) % 60), velocity: 90)))
      events.append(MIDITimedEvent(tick: tick, .controlChange(channel: UInt8(channel), controller: 11, value: UInt8(i % 128))))
      events.append(MIDITimedEvent(tick: tick + 60, .pitchBend(channel: UInt8(channel), value: UInt16(8192 + i % 100))))
      events.append(MIDITimedEvent(tick: tick + 100, .noteOff(channel: UInt8(channel), note: UInt8(36 + (i * 7 + channel) % 60), velocity: 0)))
    }
    tracks.append(MIDITrack(events: events))
  }
  return MIDIFile(format: 1, division: .ticksPerQuarter(480), tracks: tracks).encoded()
}()

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput], timeUnits: .microseconds, scalingFactor: .one,
    maxDuration: .seconds(5), maxIterations: 200)

  // Parsing only: bytes to events (what mido.MidiFile(path) does).
  Benchmark("MIDI parse synthetic 1 MB") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try MIDIFile(data: syntheticFile)) }
    benchmark.stopMeasurement()
  }
  // Parsing, note pairing and seconds: the notes a user wants.
  Benchmark("MIDI notes synthetic 1 MB") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(FullMIDIJSON(try MIDIFile(data: syntheticFile))) }
    benchmark.stopMeasurement()
  }
  guard !corpus.isEmpty else { return }
  // The whole evaluation corpus, one iteration = every file once.
  Benchmark("MIDI parse corpus") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      for data in corpus { blackHole(try? MIDIFile(data: data)) }
    }
    benchmark.stopMeasurement()
  }
  Benchmark("MIDI notes corpus") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      for data in corpus { blackHole((try? MIDIFile(data: data)).map { FullMIDIJSON($0) }) }
    }
    benchmark.stopMeasurement()
  }
}
