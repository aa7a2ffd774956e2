import Testing
import _TestSupport

@testable import PitchDSP

/// A pair of sample rates, for sweeps.
struct ResamplerRatePair: Sendable, CustomTestStringConvertible {
  let input: Double
  let output: Double
  var lowerNyquist: Double { min(input, output) / 2 }
  var testDescription: String { "\(input)→\(output)" }
}

private let downsampling: [ResamplerRatePair] = [
  ResamplerRatePair(input: 44_100, output: 16_000),
  ResamplerRatePair(input: 48_000, output: 44_100),
  ResamplerRatePair(input: 48_000, output: 8_000),
  ResamplerRatePair(input: 44_100, output: 22_049.5),  // interpolated phases
]
private let upsampling: [ResamplerRatePair] = [
  ResamplerRatePair(input: 8_000, output: 96_000),
  ResamplerRatePair(input: 44_100, output: 48_000),
  ResamplerRatePair(input: 16_000, output: 44_100),
  ResamplerRatePair(input: 22_050, output: 44_101),  // interpolated phases
]

/// Streams `input` through `resampler` in blocks cycling through `blocks`, then flushes.
private func stream(_ resampler: Resampler, _ input: [Float], blocks: [Int]) -> [Float] {
  var result: [Float] = []
  var start = 0
  var b = 0
  var scratch = [Float](repeating: 0, count: resampler.maximumOutputFrames(forInputFrames: 8192))
  while start < input.count {
    let size = min(blocks[b % blocks.count], input.count - start)
    b += 1
    let needed = resampler.maximumOutputFrames(forInputFrames: size)
    if scratch.count < needed { scratch = [Float](repeating: 0, count: needed) }
    let written = input[start..<(start + size)].withUnsafeBufferPointer { inp in
      scratch.withUnsafeMutableBufferPointer { resampler.process(input: inp, output: $0) }
    }
    #expect(written <= needed)
    result += scratch[0..<written]
    start += size
  }
  var tail = [Float](repeating: 0, count: resampler.maximumFlushFrames)
  let written = tail.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
  result += tail[0..<written]
  return result
}

/// The steady-state part of an offline-resampled signal: outputs whose filter window lies
/// entirely inside the input.
private func steadyState(_ output: [Float], pair: ResamplerRatePair, quality: Resampler.Quality) throws
  -> [Float]
{
  let r = try Resampler(inputRate: pair.input, outputRate: pair.output, quality: quality)
  let trim = Int((Double(r.halfLength + 2) * pair.output / pair.input).rounded(.up))
  return Array(output[trim..<(output.count - trim)])
}

private func offline(
  _ signal: [Float], _ pair: ResamplerRatePair, quality: Resampler.Quality = .standard
) throws -> [Float] {
  try Resampler.resample(
    AudioBuffer(sampleRate: pair.input, mono: signal), to: pair.output, quality: quality
  ).mono
}

@Suite struct ResamplerTests {
  // MARK: Frequency response

  @Test(arguments: downsampling + upsampling)
  func passbandSinesKeepAmplitudeAndFrequency(pair: ResamplerRatePair) throws {
    let g = SignalGenerator(sampleRate: pair.input)
    let amplitude = 0.5
    for fraction in [0.02, 0.3, 0.6, 0.9] {
      let frequency = fraction * pair.lowerNyquist
      let input = g.sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.1))
      let output = try steadyState(offline(input, pair), pair: pair, quality: .standard)
      let measured = Signal.goertzelAmplitude(
        output, frequencyHz: frequency, sampleRate: pair.output)
      let errorDB = Signal.dBFS(measured / amplitude)
      #expect(abs(errorDB) < 0.1, "\(frequency) Hz: \(errorDB) dB")
      if fraction == 0.3 || fraction == 0.9 {
        let bin = pair.output / Double(output.count)
        let estimate = Signal.estimatedFrequency(
          output, sampleRate: pair.output, nearHz: frequency, searchHz: 2 * bin)
        #expect(abs(estimate - frequency) < 0.01 * bin, "\(frequency) Hz measured \(estimate)")
      }
    }
  }

  @Test(arguments: downsampling)
  func downsamplingRejectsEverythingAboveOutputNyquist(pair: ResamplerRatePair) throws {
    let g = SignalGenerator(sampleRate: pair.input)
    let amplitude = 0.5
    let reference = amplitude / 2.0.squareRoot()  // RMS of the same sine in the passband
    let outputNyquist = pair.output / 2
    let inputNyquist = pair.input / 2
    let candidates = [1.0, 1.03, 1.3, 2.2].map { $0 * outputNyquist } + [0.97 * inputNyquist]
    for frequency in candidates where frequency < inputNyquist {
      let input = g.sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.15))
      let output = try steadyState(offline(input, pair), pair: pair, quality: .standard)
      let attenuation = Signal.dBFS(Signal.rms(output) / reference)
      #expect(attenuation < -80, "\(frequency) Hz leaks at \(attenuation) dB")
    }
  }

  /// With a band rate under the output rate (the pitch analysis's decimator), the filter stops at
  /// that rate's Nyquist frequency and keeps its passband below 0.8 of it, at the output rate.
  @Test(arguments: [(44_100.0, 22_050.0, 14_700.0), (48_000, 24_000, 16_000)])
  func aBandRateLimitsTheBandBelowTheOutputNyquist(input: Double, output: Double, band: Double) throws {
    let g = SignalGenerator(sampleRate: input)
    let amplitude = 0.5
    func gainDB(_ frequency: Double, bandRate: Double?) throws -> Double {
      let resampler = try Resampler(
        inputRate: input, outputRate: output, quality: .fast, maximumInputFrames: 4096,
        compensatesLatency: false, bandRate: bandRate)
      let signal = g.sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.2))
      let out = stream(resampler, signal, blocks: [4096])
      let steady = Array(out[(out.count / 4)..<(3 * out.count / 4)])
      let measured = Signal.goertzelAmplitude(steady, frequencyHz: frequency, sampleRate: output)
      return Signal.dBFS(measured / amplitude)
    }
    let nyquist = band / 2
    for fraction in [0.1, 0.5, 0.78] {
      let frequency = fraction * nyquist
      #expect(abs(try gainDB(frequency, bandRate: band)) < 0.1, "\(frequency) Hz in the passband")
    }
    for fraction in [1.02, 1.2, 1.4] {
      let frequency = fraction * nyquist
      #expect(try gainDB(frequency, bandRate: band) < -80, "\(frequency) Hz in the stop band")
      // Without the band rate the same frequency passes (it is under 0.8 of the output Nyquist).
      if frequency < 0.8 * output / 2 { #expect(abs(try gainDB(frequency, bandRate: nil)) < 0.1) }
    }
  }

  @Test(arguments: upsampling)
  func upsamplingLeavesNoImages(pair: ResamplerRatePair) throws {
    let g = SignalGenerator(sampleRate: pair.input)
    let out = SignalGenerator(sampleRate: pair.output)
    let amplitude = 0.5
    for fraction in [0.1, 0.5, 0.9] {
      let frequency = fraction * pair.input / 2
      let input = g.sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.15))
      let output = try offline(input, pair)
      // Offline output is time-aligned: compare with the ideal sine at the output rate.
      let ideal = out.sine(frequencyHz: frequency, amplitude: amplitude, length: .frames(output.count))
      let steady = try steadyState(output, pair: pair, quality: .standard)
      let steadyIdeal = try steadyState(ideal, pair: pair, quality: .standard)
      let snr = Signal.snrDB(steady, reference: steadyIdeal)
      #expect(snr > 80, "\(frequency) Hz: error at \(-snr) dB")
      // The first images, around the input rate, specifically.
      for image in [pair.input - frequency, pair.input + frequency] where image < pair.output / 2 {
        let level = Signal.goertzelAmplitude(steady, frequencyHz: image, sampleRate: pair.output)
        #expect(Signal.dBFS(level / amplitude) < -80, "image at \(image) Hz")
      }
    }
  }

  @Test(arguments: Resampler.Quality.allCases)
  func everyQualityMeetsItsSpecification(quality: Resampler.Quality) throws {
    let pair = ResamplerRatePair(input: 48_000, output: 16_000)
    let g = SignalGenerator(sampleRate: pair.input)
    let amplitude = 0.5
    let reference = amplitude / 2.0.squareRoot()
    for frequency in [1.0, 1.2].map({ $0 * pair.output / 2 }) {
      let input = g.sine(frequencyHz: frequency, amplitude: amplitude, length: .seconds(0.15))
      let output = try steadyState(offline(input, pair, quality: quality), pair: pair, quality: quality)
      #expect(Signal.dBFS(Signal.rms(output) / reference) < -80)
    }
    let edge = quality.passbandEdge * pair.lowerNyquist
    let input = g.sine(frequencyHz: edge, amplitude: amplitude, length: .seconds(0.15))
    let output = try steadyState(offline(input, pair, quality: quality), pair: pair, quality: quality)
    let measured = Signal.goertzelAmplitude(output, frequencyHz: edge, sampleRate: pair.output)
    #expect(abs(Signal.dBFS(measured / amplitude)) < 0.1)
  }

  // MARK: Streaming

  @Test(arguments: [
    ResamplerRatePair(input: 44_100, output: 16_000), ResamplerRatePair(input: 16_000, output: 44_100),
    ResamplerRatePair(input: 48_000, output: 44_101.25),
  ])
  func streamingInBlocksEqualsOneShot(pair: ResamplerRatePair) throws {
    let input = SignalGenerator(sampleRate: pair.input).whiteNoise(
      amplitude: 0.5, length: .frames(4500), seed: 3)
    let oneShot = stream(
      try Resampler(inputRate: pair.input, outputRate: pair.output), input, blocks: [input.count])
    #expect(Double(oneShot.count) > 4000 * pair.output / pair.input)
    for blocks in [[1], [7], [512], [4096], [1, 100, 3, 999, 0, 17]] {
      let blocked = stream(
        try Resampler(inputRate: pair.input, outputRate: pair.output), input, blocks: blocks)
      #expect(blocked == oneShot, "blocks of \(blocks)")
    }
  }

  @Test(arguments: downsampling + upsampling)
  func outputCountsFollowTheRatio(pair: ResamplerRatePair) throws {
    let resampler = try Resampler(inputRate: pair.input, outputRate: pair.output)
    let n = 5000
    let input = [Float](repeating: 0.25, count: n)
    var out = [Float](repeating: 0, count: resampler.maximumOutputFrames(forInputFrames: n))
    let written = input.withUnsafeBufferPointer { i in
      out.withUnsafeMutableBufferPointer { resampler.process(input: i, output: $0) }
    }
    let ratio = pair.output / pair.input
    #expect(abs(Double(written) - Double(n) * ratio) <= 1)
    var tail = [Float](repeating: 0, count: resampler.maximumFlushFrames)
    let flushed = tail.withUnsafeMutableBufferPointer { resampler.flush(output: $0) }
    #expect(abs(Double(written + flushed) - Double(n + resampler.latencyFrames) * ratio) <= 1)
    #expect(tail.withUnsafeMutableBufferPointer { resampler.flush(output: $0) } == 0)
    // DC passes at unity gain.
    #expect(abs(out[written / 2] - 0.25) < 1e-5)
  }

  @Test func zeroAndSingleFrameBlocks() throws {
    let resampler = try Resampler(inputRate: 8_000, outputRate: 96_000)
    var out = [Float](repeating: 0, count: resampler.maximumOutputFrames(forInputFrames: 1))
    #expect(out.count >= 13)
    let none = [Float]().withUnsafeBufferPointer { i in
      out.withUnsafeMutableBufferPointer { resampler.process(input: i, output: $0) }
    }
    #expect(none == 0)
    let one = [Float(1)].withUnsafeBufferPointer { i in
      out.withUnsafeMutableBufferPointer { resampler.process(input: i, output: $0) }
    }
    #expect(one == 12)
  }

  // MARK: Identity, latency, robustness

  @Test func identityRatioPreservesTheSignal() throws {
    let g = SignalGenerator(sampleRate: 22_050)
    let input = g.whiteNoise(length: .frames(3000), seed: 11)
    let resampler = try Resampler(inputRate: 22_050, outputRate: 22_050)
    #expect(resampler.latencyFrames == 0)
    #expect(stream(resampler, input, blocks: [1, 64, 333]) == input)
    #expect(try offline(input, ResamplerRatePair(input: 22_050, output: 22_050)) == input)
  }

  @Test(arguments: downsampling + upsampling)
  func offlineResamplingIsTimeAligned(pair: ResamplerRatePair) throws {
    // An impulse at an input frame that falls exactly on an output frame.
    let g = SignalGenerator(sampleRate: pair.input)
    let k = exactlyAlignedInputFrame(pair)
    let input = g.impulse(at: k, length: .frames(k + 2000))
    let output = try offline(input, pair)
    let expected = Int((Double(k) * pair.output / pair.input).rounded())
    #expect(output.indices.max { abs(output[$0]) < abs(output[$1]) } == expected)
    #expect(output.count == Int((Double(input.count) * pair.output / pair.input).rounded(.up)))
  }

  @Test(arguments: downsampling + upsampling)
  func streamingDelayEqualsLatencyFrames(pair: ResamplerRatePair) throws {
    let resampler = try Resampler(inputRate: pair.input, outputRate: pair.output)
    let g = SignalGenerator(sampleRate: pair.input)
    let k = exactlyAlignedInputFrame(pair)
    let output = stream(resampler, g.impulse(at: k, length: .frames(k + 2000)), blocks: [256])
    let expected = Int(
      (Double(k + resampler.latencyFrames) * pair.output / pair.input).rounded())
    #expect(output.indices.max { abs(output[$0]) < abs(output[$1]) } == expected)
    #expect(abs(resampler.latencySeconds - Double(resampler.latencyFrames) / pair.input) < 1e-12)
  }

  @Test(arguments: [Float.nan, .infinity, -.infinity])
  func nonFiniteBurstRecovers(bad: Float) throws {
    let pair = ResamplerRatePair(input: 44_100, output: 16_000)
    let g = SignalGenerator(sampleRate: pair.input)
    let clean = g.sine(frequencyHz: 440, amplitude: 0.5, length: .frames(8000))
    let burst = 3000..<3100
    let corrupted = Signal.injecting(bad, in: burst, into: clean)
    let zeroed = Signal.injecting(0, in: burst, into: clean)
    let out = stream(try Resampler(inputRate: pair.input, outputRate: pair.output), corrupted, blocks: [512])
    let reference = stream(
      try Resampler(inputRate: pair.input, outputRate: pair.output), zeroed, blocks: [512])
    let cleanOut = stream(try Resampler(inputRate: pair.input, outputRate: pair.output), clean, blocks: [512])
    #expect(out.allSatisfy { $0.isFinite })
    #expect(out == reference)  // non-finite samples are exactly zeros
    // Once the burst has left the filter, the output is the clean output again.
    let resampler = try Resampler(inputRate: pair.input, outputRate: pair.output)
    let recovered = Int(
      (Double(burst.upperBound + 2 * resampler.halfLength + 1) * pair.output / pair.input)
        .rounded(.up))
    #expect(Array(out[recovered...]) == Array(cleanOut[recovered...]))
  }

  @Test func resetStartsANewStream() throws {
    let resampler = try Resampler(inputRate: 48_000, outputRate: 44_100)
    let input = SignalGenerator(sampleRate: 48_000).whiteNoise(length: .frames(2000), seed: 5)
    let first = stream(resampler, input, blocks: [300])
    resampler.reset()
    #expect(stream(resampler, input, blocks: [77]) == first)
  }

  @Test(arguments: [
    ResamplerRatePair(input: 0, output: 16_000), ResamplerRatePair(input: -44_100, output: 16_000),
    ResamplerRatePair(input: .nan, output: 16_000), ResamplerRatePair(input: 44_100, output: .infinity),
    ResamplerRatePair(input: 44_100, output: 100), ResamplerRatePair(input: 100, output: 44_100),
  ])
  func invalidRatesThrow(pair: ResamplerRatePair) {
    #expect(throws: PitchDSPError.self) {
      try Resampler(inputRate: pair.input, outputRate: pair.output)
    }
  }

  @Test func offlineResamplingRejectsBadRates() {
    let buffer = AudioBuffer(sampleRate: 44_100, mono: [0, 1, 0])
    #expect(throws: PitchDSPError.self) { try Resampler.resample(buffer, to: 0) }
    #expect(throws: PitchDSPError.self) { try Resampler.resample(buffer, to: .nan) }
    #expect(throws: PitchDSPError.self) { try Resampler.resample(buffer, to: 44_100 * 300) }
  }

  @Test func multichannelOfflineResampling() throws {
    let g = SignalGenerator(sampleRate: 48_000)
    let left = g.sine(frequencyHz: 1000, amplitude: 0.5, length: .frames(4800))
    let right = g.sine(frequencyHz: 3000, amplitude: 0.25, length: .frames(4800))
    let buffer = AudioBuffer(sampleRate: 48_000, channels: [left, right])
    let converted = try Resampler.resample(buffer, to: 16_000)
    #expect(converted.sampleRate == 16_000)
    #expect(converted.channelCount == 2)
    #expect(converted.frameCount == 1600)
    #expect(converted.channels[1] == (try offline(right, ResamplerRatePair(input: 48_000, output: 16_000))))
  }

  @Test func exactAndInterpolatedModesAreChosen() throws {
    #expect(try Resampler(inputRate: 44_100, outputRate: 48_000).usesExactPhases)
    #expect(try Resampler(inputRate: 44_100, outputRate: 48_000).phaseCount == 160)
    #expect(try !Resampler(inputRate: 44_100, outputRate: 44_101).usesExactPhases)
    #expect(try !Resampler(inputRate: 44_100, outputRate: 22_049.5).usesExactPhases)
  }
}

/// An input frame `k > 500` with `k · output / input` a whole number (for exact ratios), so an
/// impulse there lands exactly on an output frame.
private func exactlyAlignedInputFrame(_ pair: ResamplerRatePair) -> Int {
  for k in 501..<50_000 {
    let position = Double(k) * pair.output / pair.input
    if abs(position - position.rounded()) < 1e-9 { return k }
  }
  return 600
}
