import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// Cents between two frequencies.
func cents(_ a: Double, _ b: Double) -> Double { 1200 * log2(a / b) }

/// Builds each estimator for a configuration.
func makeEstimator(_ method: PitchMethod, _ configuration: PitchConfiguration) throws -> any PitchEstimator {
  switch method {
  case .yin: try YINEstimator(configuration: configuration)
  case .mpm: try MPMEstimator(configuration: configuration)
  case .pyin, .pyinLive: try ProbabilisticYINEstimator(configuration: configuration)
  }
}

/// The median absolute error in cents, and the fraction of frames voiced within 50 cents, over
/// the estimates between `from` and `to` seconds.
func accuracy(_ estimates: [PitchEstimate], truth: (Double) -> Double, from: Double, to: Double) -> (medianCents: Double, rawPitch: Double) {
  let frames = estimates.filter { $0.time >= from && $0.time <= to }
  let errors = frames.map { $0.isVoiced ? abs(cents($0.frequencyHz, truth($0.time))) : .infinity }
  let sorted = errors.sorted()
  let median = sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
  return (median, Double(errors.filter { $0 <= 50 }.count) / Double(max(1, errors.count)))
}

@Suite struct PitchEstimatorTests {
  static let methods: [PitchMethod] = [.yin, .mpm, .pyinLive]

  @Test(arguments: methods, [40.0, 55, 82.41, 110, 220, 440, 880, 1318.5, 1975.5])
  func steadyHarmonicTonesAreWithinTwoCents(method: PitchMethod, frequency: Double) throws {
    let rate = 44100.0
    let generator = SignalGenerator(sampleRate: rate)
    let tone = generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.6, 0.4, 0.25, 0.15], length: .seconds(1))
    let estimator = try makeEstimator(method, PitchConfiguration(sampleRate: rate))
    let estimates = estimator.estimates(for: Signal.scaled(tone, by: 0.3))
    let result = accuracy(estimates, truth: { _ in frequency }, from: 0.15, to: 0.85)
    #expect(result.rawPitch == 1, "\(method) at \(frequency) Hz: \(result)")
    #expect(result.medianCents <= 2, "\(method) at \(frequency) Hz: \(result)")
  }

  @Test(arguments: methods)
  func estimatesAreTimedOnTheHopGridWhateverTheBlockSize(method: PitchMethod) throws {
    let rate = 48000.0
    let tone = SignalGenerator(sampleRate: rate).harmonicTone(fundamentalHz: 196, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(0.5))
    let configuration = PitchConfiguration(sampleRate: rate)
    let reference = try makeEstimator(method, configuration).estimates(for: tone)
    #expect(reference.count == Int((Double(tone.count) / Double(configuration.hopSize)).rounded(.up)))
    for (k, estimate) in reference.enumerated() {
      #expect(abs(estimate.time - Double(k) * 0.01) < 1e-12)
    }
    for block in [1, 7, 480, 8192] {
      let estimator = try makeEstimator(method, configuration)
      var out: [PitchEstimate] = []
      var scratch = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0), count: estimator.maximumEstimates(forFrames: block))
      tone.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
          let chunk = UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + block)])
          let n = scratch.withUnsafeMutableBufferPointer { estimator.process(chunk, into: $0) }
          out += scratch[0..<n]
          start += block
        }
      }
      var tail = [PitchEstimate](repeating: .init(time: 0, frequencyHz: 0, confidence: 0, levelDBFS: 0), count: estimator.maximumEstimates(forFrames: 0))
      let n = tail.withUnsafeMutableBufferPointer { estimator.finish(into: $0) }
      out += tail[0..<n]
      #expect(out == reference, "\(method), blocks of \(block)")
    }
  }
}
