import Benchmark
import Foundation
import Synthesis

/// Synthesis on the audio path: songs rendered by `NotePlayer` in 512-frame blocks at 44.1 kHz,
/// with a malloc threshold of 0. Each iteration renders one second of audio (86 blocks of 512
/// frames plus 68 frames), so the wall-clock time per iteration divided into one second is the
/// speed factor against real time (printed by the throughput metric as iterations per second).
let benchmarks: @Sendable () -> Void = {
  let rate = 44_100.0
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .microseconds, scalingFactor: .one,
    maxDuration: .seconds(3), maxIterations: 1000,
    thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])

  Benchmark("Synthesis guitar 6 voices 1 s", configuration: configuration) { benchmark in
    var player = NotePlayer(notes: strummedSong(), instrument: Guitar(), sampleRate: rate, polyphony: 6)
    try renderSeconds(&player, benchmark: benchmark, sampleRate: rate)
  }

  Benchmark("Synthesis simple guitar 6 voices 1 s", configuration: configuration) { benchmark in
    var player = NotePlayer(
      notes: strummedSong(), instrument: Guitar(timbre: .simple), sampleRate: rate, polyphony: 6)
    try renderSeconds(&player, benchmark: benchmark, sampleRate: rate)
  }

  // The same six strings rendered directly, without the player and allocator, for comparison.
  Benchmark("Synthesis plucked strings direct 6 voices 1 s", configuration: configuration) { benchmark in
    let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 512)
    defer { block.deallocate() }
    block.initialize(repeating: 0)
    var strings = (0..<6).map { _ in PluckedStringVoice(sampleRate: rate) }
    let pitches: [Double] = [40, 47, 52, 55, 59, 64]
    let frames = Int(rate)
    func second() {
      var done = 0
      while done < frames {
        let n = min(512, frames - done)
        let part = UnsafeMutableBufferPointer(rebasing: block[0..<n])
        for i in part.indices { part[i] = 0 }
        for v in 0..<6 {
          if !strings[v].isActive { strings[v].start(pitch: pitches[v], velocity: 90) }
          strings[v].render(adding: part)
        }
        done += n
      }
    }
    second()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { second() }
    benchmark.stopMeasurement()
    blackHole(block[0])
  }

  for waveform in [Waveform.sawtooth, .sine] {
    Benchmark("Synthesis oscillator \(waveform) 6 voices 1 s", configuration: configuration) { benchmark in
      var player = NotePlayer(
        notes: strummedSong(), instrument: OscillatorInstrument(waveform: waveform), sampleRate: rate, polyphony: 6)
      try renderSeconds(&player, benchmark: benchmark, sampleRate: rate)
    }
  }
}

/// A long song for six voices: an arpeggiated chord every half second, six notes 50 ms apart,
/// each held 0.4 s, cycling through four chords (E minor, C, G, D shapes), so six strings sound
/// at once most of the time and notes start and stop inside blocks.
func strummedSong() -> [NoteEvent] {
  let chords: [[Double]] = [[40, 47, 52, 55, 59, 64], [48, 52, 55, 60, 64, 67], [43, 47, 50, 55, 59, 67], [50, 57, 62, 66, 69, 74]]
  var notes: [NoteEvent] = []
  for bar in 0..<4000 {
    for (i, pitch) in chords[bar % chords.count].enumerated() {
      notes.append(
        NoteEvent(startSeconds: Double(bar) * 0.5 + Double(i) * 0.05, durationSeconds: 0.4, pitch: pitch, velocity: 90))
    }
  }
  return notes
}

/// Renders the first second unmeasured (warm-up), then one second per measured iteration.
func renderSeconds<V: SynthVoice>(_ player: inout NotePlayer<V>, benchmark: Benchmark, sampleRate: Double) throws {
  let frames = Int(sampleRate)
  let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 512)
  defer { block.deallocate() }
  block.initialize(repeating: 0)
  func second() {
    var done = 0
    while done < frames {
      let n = min(512, frames - done)
      player.render(into: UnsafeMutableBufferPointer(rebasing: block[0..<n]))
      done += n
    }
  }
  second()
  benchmark.startMeasurement()
  for _ in benchmark.scaledIterations { second() }
  benchmark.stopMeasurement()
  blackHole(block[0])
}
