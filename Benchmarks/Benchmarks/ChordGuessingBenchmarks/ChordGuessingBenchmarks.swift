import Benchmark
import ChordGuessing
import Foundation
import Synchronization

/// Chord recognition on the audio path: one second of 44.1 kHz audio (four chords of a piano-like
/// tone) pushed through in 512-frame blocks per iteration, with a malloc threshold of 0. The
/// chromagram alone, the live recognizer (hidden Markov model, the default), and both with the
/// constant-Q spectrum.
let benchmarks: @Sendable () -> Void = {

  registerChordBenchmark("Chroma nnls 44100") { try ChromagramStream(.init(sampleRate: 44_100)) }
  registerChordBenchmark("Chroma nnls cqt 44100") {
    try ChromagramStream(.init(sampleRate: 44_100, spectrum: .constantQ))
  }
  registerChordBenchmark("Chroma stark 44100") {
    try ChromagramStream(.init(sampleRate: 44_100, method: .stark))
  }
  registerChordBenchmark("Chord recognizer live 44100") {
    try RecognizerStream(.init(sampleRate: 44_100))
  }
  registerChordBenchmark("Chord recognizer live 48000") {
    try RecognizerStream(.init(sampleRate: 48_000))
  }
}

/// Something that consumes blocks and returns a count, with its scratch allocated up front.
protocol BlockStream {
  var sampleRate: Double { get }
  func push(_ block: UnsafeBufferPointer<Float>) -> Int
  func restart()
}

final class ChromagramStream: BlockStream {
  let chromagram: Chromagram
  let output: UnsafeMutableBufferPointer<ChromaFrame>
  var sampleRate: Double { chromagram.sampleRate }

  init(_ configuration: Chromagram.Configuration) throws {
    chromagram = try Chromagram(configuration: configuration)
    output = .allocate(capacity: chromagram.maximumFrames(forFrames: 512))
    output.initialize(
      repeating: ChromaFrame(
        time: 0, treble: .init(), bass: .init(), tuningCents: 0, levelDBFS: 0, harmonicity: 0))
  }

  deinit { output.deallocate() }

  func push(_ block: UnsafeBufferPointer<Float>) -> Int { chromagram.process(block, into: output) }
  func restart() { chromagram.reset() }
}

final class RecognizerStream: BlockStream {
  let recognizer: ChordRecognizer
  let output: UnsafeMutableBufferPointer<ChordChange>
  var sampleRate: Double { recognizer.sampleRate }

  init(_ configuration: ChordRecognizer.Configuration) throws {
    recognizer = try ChordRecognizer(configuration: configuration)
    output = .allocate(capacity: recognizer.maximumChanges(forFrames: 512))
    output.initialize(
      repeating: ChordChange(time: 0, root: -1, typeIndex: -1, bassSemitones: 0, confidence: 0))
  }

  deinit { output.deallocate() }

  func push(_ block: UnsafeBufferPointer<Float>) -> Int { recognizer.process(block, into: output) }
  func restart() { recognizer.reset() }
}

func registerChordBenchmark(_ name: String, make: @escaping () throws -> some BlockStream) {
  Benchmark(
    name,
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .microseconds, scalingFactor: .one,
      maxDuration: .seconds(3), maxIterations: 200,
      thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])
  ) { benchmark in
    let stream = try make()
    let rate = stream.sampleRate
    let input = testSecond(sampleRate: rate)
    let frames = input.count
    func pushSecond() -> Int {
      var found = 0
      var offset = 0
      while offset < frames {
        let n = min(512, frames - offset)
        found += stream.push(UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]))
        offset += n
      }
      return found
    }
    // Warm up: the first second runs the analysis in from silence.
    var found = pushSecond()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { found += pushSecond() }
    benchmark.stopMeasurement()
    blackHole(found)
    stream.restart()
  }
}

/// One second of C, Am, F, G7 (250 ms each, harmonic tones decaying like a piano) at
/// `sampleRate`; made once per rate and kept.
func testSecond(sampleRate rate: Double) -> UnsafeMutableBufferPointer<Float> {
  if let made = madeInputs.withLock({ $0[rate] }) { return made.buffer }
  let frames = Int(rate)
  let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
  let chords: [[Double]] = [[48, 60, 64, 67], [45, 57, 60, 64], [41, 57, 60, 65], [43, 55, 59, 62, 65]]
  for i in 0..<frames {
    let chord = chords[i / (frames / 4) % 4]
    let t = Double(i % (frames / 4)) / rate
    var x = 0.0
    for note in chord {
      let f0 = 440 * pow(2, (note - 69) / 12)
      for h in 1...6 { x += pow(0.6, Double(h - 1)) * sin(2 * Double.pi * Double(h) * f0 * t) }
    }
    input[i] = Float(0.03 * min(1, t / 0.005) * exp(-t / 0.5) * x)
  }
  madeInputs.withLock { $0[rate] = SharedBuffer(buffer: input) }
  return input
}

/// A buffer shared by the benchmarks (read-only once made).
struct SharedBuffer: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Float>
}

let madeInputs = Mutex<[Double: SharedBuffer]>([:])
