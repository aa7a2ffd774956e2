import Benchmark
import Foundation
import Harmonizer

/// The pitch shifters on the audio path at 48 kHz: one second of a sung-like tone (a 220 Hz
/// harmonic tone with 5.5 Hz vibrato) shifted up a fifth, in blocks of 64, 128, 256 and 512
/// frames per iteration, with a malloc threshold of 0. Wall-clock time per iteration is CPU
/// seconds per audio second for one voice.
let benchmarks: @Sendable () -> Void = {
  effectsBenchmarks()
  chainBenchmarks()
  let rate = 48_000.0
  for block in [64, 128, 256, 512] {
    for kind in ["PSOLA", "delay line"] {
      Benchmark(
        "Shifter \(kind) 48k block \(block)",
        configuration: .init(
          metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, scalingFactor: .one,
          maxDuration: .seconds(3), maxIterations: 100,
          thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])
      ) { benchmark in
        let shifter: any PitchShifter =
          kind == "PSOLA"
          ? try PSOLAShifter(sampleRate: rate, semitones: 7)
          : try DelayLineShifter(sampleRate: rate, semitones: 7)
        let input = sungSecond(sampleRate: rate)
        let output = UnsafeMutableBufferPointer<Float>.allocate(capacity: input.count)
        defer {
          input.deallocate()
          output.deallocate()
        }
        if let psola = shifter as? PSOLAShifter {
          run(psola, input: input, output: output, block: block, benchmark: benchmark)
        } else if let delay = shifter as? DelayLineShifter {
          run(delay, input: input, output: output, block: block, benchmark: benchmark)
        }
      }
    }
  }
}

/// Warms the shifter up on one second, then measures a second per iteration.
func run<S: PitchShifter>(
  _ shifter: S, input: UnsafeMutableBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>,
  block: Int,
  benchmark: Benchmark
) {
  var shifter = shifter
  func second() {
    var offset = 0
    while offset < input.count {
      let n = min(block, input.count - offset)
      shifter.process(
        UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]),
        into: UnsafeMutableBufferPointer(rebasing: output[offset..<(offset + n)]))
      offset += n
    }
  }
  second()
  benchmark.startMeasurement()
  for _ in benchmark.scaledIterations { second() }
  benchmark.stopMeasurement()
  blackHole(output[100])
}

/// One second of a 220 Hz tone with 5.5 Hz, ±30 cent vibrato: eight harmonics falling 3 dB each.
func sungSecond(sampleRate rate: Double) -> UnsafeMutableBufferPointer<Float> {
  let frames = Int(rate)
  let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
  var phase = 0.0
  for i in 0..<frames {
    let t = Double(i) / rate
    let f0 = 220 * pow(2, 0.3 / 12 * sin(2 * Double.pi * 5.5 * t))
    var x = 0.0
    for h in 1...8 { x += pow(0.7, Double(h - 1)) * sin(Double(h) * phase) }
    input[i] = Float(0.1 * x)
    phase += 2 * Double.pi * f0 / rate
  }
  return input
}

/// The whole Pocket Choir path at 48 kHz: the harmonizer engine (one analysis, four PSOLA voices
/// on diatonic intervals, the live voice auto-tuned) into chorus > overdrive > delay > reverb >
/// low-pass on both stereo channels, one second of a sung-like tone per iteration, in blocks of
/// 64, 128, 256 and 512 frames, with a malloc threshold of 0. Wall-clock time per iteration is
/// CPU seconds per audio second (target: under 0.05).
func chainBenchmarks() {
  let rate = 48_000.0
  for block in [64, 128, 256, 512] {
    Benchmark(
      "Harmonizer 4 voices + 5 effects 48k block \(block)",
      configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, scalingFactor: .one,
        maxDuration: .seconds(3), maxIterations: 100,
        thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    ) { benchmark in
      var settings = HarmonizerSettings.diatonic([3, 5, -3, 8], in: .cMajor)
      settings.autoTune = AutoTuneSettings(isEnabled: true, key: .cMajor, retuneSeconds: 0.05)
      let engine = try HarmonizerEngine(sampleRate: rate, settings: settings)
      let chain = try HarmonizerChain(
        engine: engine, effects: [.chorus, .overdrive, .delay, .reverb, .lowpass], maximumFrames: block)
      let input = sungSecond(sampleRate: rate)
      let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: input.count)
      let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: input.count)
      defer {
        input.deallocate()
        left.deallocate()
        right.deallocate()
      }
      func second() {
        var offset = 0
        while offset < input.count {
          let n = min(block, input.count - offset)
          chain.process(
            UnsafeBufferPointer(rebasing: input[offset..<(offset + n)]),
            left: UnsafeMutableBufferPointer(rebasing: left[offset..<(offset + n)]),
            right: UnsafeMutableBufferPointer(rebasing: right[offset..<(offset + n)]))
          offset += n
        }
      }
      second()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { second() }
      benchmark.stopMeasurement()
      blackHole(left[100])
    }
  }
}
