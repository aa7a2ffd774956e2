import Benchmark
import Foundation
import PitchDSP

/// Pitch estimators: one second at 44.1 kHz pushed through in 512-frame blocks per iteration
/// (100 estimates at the default 10 ms hop). Time per iteration is CPU time per second of audio;
/// allocations must be 0. The signals: a 220 Hz harmonic tone; and steady white noise
/// (deterministic) alone for 0.4 s, then with a 220 Hz tone 8 dB under it, so that the noise is
/// learned and then subtracted from each frame (`PitchConfiguration.subtractsNoise`); and, for
/// live pyin, a legato change under the louder release of the note before (392 Hz held, then
/// fading at 30 dB/s under a 293.66 Hz note that swells in over 0.25 s), so that the newest note
/// is looked for in the previous note's residual; and the same kind of change (415.3 to 349.2
/// Hz) under steady white noise learned for 0.25 s before it, so that the residual is discounted
/// for the noise too; and 50 Hz hum of six harmonics at about −46 dBFS alone for 0.4 s, then a
/// 220 Hz tone over it, so that the hum is established as a periodic background and the live
/// decoder decodes the frames it has not decided yet again (`PitchHMM.reweightUndecided`); and
/// the harmonic tone at 16 kHz, which the front end resamples up to 24 kHz
/// (`PitchConfiguration.analysisSampleRate`).
func pitchBenchmarks() {
  let makers: [(String, (PitchConfiguration) throws -> any PitchEstimator)] = [
    ("yin", { try YINEstimator(configuration: $0) }),
    ("mpm", { try MPMEstimator(configuration: $0) }),
    ("pyin-live", { try ProbabilisticYINEstimator(configuration: $0) }),
  ]
  for (name, make) in makers {
    pitchBenchmark("Pitch \(name) 1 s 44.1 kHz", make: make, fill: harmonicTone)
  }
  for (name, make) in makers where name != "yin" {
    pitchBenchmark("Pitch \(name) 1 s 44.1 kHz, tone under steady noise", make: make) { input, rate in
      var state: UInt64 = 0x9E37_79B9_7F4A_7C15
      for i in input.indices {
        // Uniform in [−1, 1), RMS 0.58, scaled by 0.1.
        let uniform = nextUniform(&state)
        let t = Double(i) / rate
        let tone = 0.029 * (sin(2 * .pi * 220 * t) + 0.5 * sin(4 * .pi * 220 * t))
        input[i] = Float(0.1 * uniform + (i < input.count * 2 / 5 ? 0 : tone))
      }
    }
  }
  let live: (PitchConfiguration) throws -> any PitchEstimator = {
    try ProbabilisticYINEstimator(configuration: $0)
  }
  pitchBenchmark("Pitch pyin-live 1 s 44.1 kHz, legato change", make: live) { input, rate in
    func note(_ frequency: Double, _ t: Double) -> Double {
      sin(2 * .pi * frequency * t) + 0.6 * sin(4 * .pi * frequency * t) + 0.4 * sin(6 * .pi * frequency * t)
    }
    for i in input.indices {
      let t = Double(i) / rate
      let old = t < 0.5 ? 1 : pow(10, -30 * (t - 0.5) / 20)
      let new = t < 0.5 ? 0 : 0.7 * min(1, (t - 0.5) / 0.25)
      input[i] = Float(0.1 * (old * note(392, t) + new * note(293.66, t)))
    }
  }
  let noisyLegato = "Pitch pyin-live 1 s 44.1 kHz, legato change under steady noise"
  pitchBenchmark(noisyLegato, make: live) { input, rate in
    func note(_ frequency: Double, _ t: Double) -> Double {
      sin(2 * .pi * frequency * t) + 0.6 * sin(4 * .pi * frequency * t) + 0.4 * sin(6 * .pi * frequency * t)
    }
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    for i in input.indices {
      let uniform = nextUniform(&state)
      let t = Double(i) / rate
      let old = t < 0.25 ? 0 : t < 0.6 ? 1 : pow(10, -30 * (t - 0.6) / 20)
      let new = t < 0.6 ? 0 : 0.7 * min(1, (t - 0.6) / 0.25)
      input[i] = Float(0.035 * uniform + 0.1 * (old * note(415.3, t) + new * note(349.2, t)))
    }
  }
  pitchBenchmark("Pitch pyin-live 1 s 44.1 kHz, mains hum then a note", make: live) { input, rate in
    for i in input.indices {
      let t = Double(i) / rate
      var hum = 0.0
      for k in 1...6 { hum += sin(2 * .pi * 50 * Double(k) * t + Double(k)) / Double(k) }
      let tone = t < 0.4 ? 0 : 0.1 * (sin(2 * .pi * 220 * t) + 0.5 * sin(4 * .pi * 220 * t))
      input[i] = Float(0.005 * hum + tone)
    }
  }
  pitchBenchmark("Pitch pyin-live 1 s 16 kHz, resampled up", rate: 16_000, make: live, fill: harmonicTone)
}

/// A 220 Hz tone of three harmonics (0.3, 0.2, 0.1) at `rate`.
private func harmonicTone(_ input: UnsafeMutableBufferPointer<Float>, rate: Double) {
  for i in input.indices {
    let t = Double(i) / rate
    input[i] = Float(
      0.3 * sin(2 * .pi * 220 * t) + 0.2 * sin(4 * .pi * 220 * t) + 0.1 * sin(6 * .pi * 220 * t))
  }
}

/// The next value of xorshift64* from `state`, uniform in [−1, 1): deterministic noise.
private func nextUniform(_ state: inout UInt64) -> Double {
  state ^= state >> 12
  state ^= state << 25
  state ^= state >> 27
  return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53) * 2 - 1
}

/// One second of `fill`'s signal at `rate` through a fresh estimator per benchmark, in 512-frame
/// blocks.
private func pitchBenchmark(
  _ title: String, rate: Double = 44_100,
  make: @escaping (PitchConfiguration) throws -> any PitchEstimator,
  fill: @escaping (UnsafeMutableBufferPointer<Float>, Double) -> Void
) {
  Benchmark(
    title,
    configuration: .init(
      metrics: realTimeMetrics, timeUnits: .microseconds, scalingFactor: .one,
      maxDuration: .seconds(3), maxIterations: 200, thresholds: noAllocations)
  ) { benchmark in
    let estimator = try make(PitchConfiguration(sampleRate: rate))
    let block = 512
    let frames = Int(rate)
    let input = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames)
    fill(input, rate)
    let output = UnsafeMutableBufferPointer<PitchEstimate>.allocate(
      capacity: estimator.maximumEstimates(forFrames: block))
    output.initialize(repeating: PitchEstimate(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0))
    blackHole(
      measureInBlocks(benchmark, input: input, block: block) { estimator.process($0, into: output) })
    input.deallocate()
    output.deallocate()
  }
}
