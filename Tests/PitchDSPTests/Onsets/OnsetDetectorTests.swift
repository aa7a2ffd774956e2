import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// Behaviour both onset detectors share: timing, repeated notes, robustness, streaming.
@Suite struct OnsetDetectorTests {
  static let methods = OnsetMethod.allCases

  /// Six notes from 82 Hz to 1.76 kHz, 2 to 15 ms attacks, −10 to −35 dBFS.
  static func melody(sampleRate: Double) -> OnsetScene {
    var scene = OnsetScene(sampleRate: sampleRate)
    scene.rest(0.15)
    let notes: [(Double, Double, Double)] = [
      (82.41, 0.3, 0.002), (220, 0.05, 0.01), (440, 0.5, 0.005), (1760, 0.1, 0.015), (130.81, 0.02, 0.005),
      (659.26, 0.2, 0.003),
    ]
    for (frequency, peak, attack) in notes {
      scene.note(frequency, seconds: 0.25, peak: peak, attack: attack)
      scene.rest(0.09)
    }
    return scene
  }

  @Test(arguments: methods, [16000.0, 44100, 48000, 96000])
  func envelopedNotesAreFoundWithinTolerance(method: OnsetMethod, sampleRate: Double) throws {
    let scene = Self.melody(sampleRate: sampleRate)
    let detector = try method.makeDetector(sampleRate: sampleRate)
    let errors = expectOnsets(
      detector.onsets(for: scene.samples), match: scene.onsets, tolerance: onsetTolerance(method),
      "\(method) at \(sampleRate) Hz")
    // No systematic lateness or earliness: the mean error is well inside the tolerance.
    let mean = errors.reduce(0, +) / Double(max(1, errors.count))
    #expect(abs(mean) < onsetTolerance(method) / 2, "\(method) at \(sampleRate) Hz: errors \(errors)")
  }

  @Test(arguments: methods, [0.0, 0.015, 0.04])
  func repeatedNotesOfOnePitchAreEachFound(method: OnsetMethod, gapSeconds: Double) throws {
    var scene = OnsetScene(sampleRate: 44100)
    scene.rest(0.1)
    for _ in 0..<4 {
      scene.note(196, seconds: 0.22, peak: 0.3, attack: 0.005, release: 0.03)
      scene.rest(gapSeconds)
    }
    let detector = try method.makeDetector(sampleRate: 44100)
    expectOnsets(
      detector.onsets(for: scene.samples), match: scene.onsets, tolerance: onsetTolerance(method),
      "\(method), gaps of \(gapSeconds) s")
  }

  @Test(arguments: methods)
  func reattacksOfADecayingNoteAreFound(method: OnsetMethod) throws {
    // A struck string struck again while it still sounds: exponential decay (τ = 150 ms), no gap.
    var scene = OnsetScene(sampleRate: 44100)
    scene.rest(0.1)
    let rate = scene.sampleRate
    for strike in 0..<4 {
      let tone = scene.tone(262, seconds: 0.3, peak: 0.3)
      let count = Double(tone.count)
      scene.append(
        tone.enumerated().map { j, x in
          // The last strike fades out over its last 50 ms (an abrupt stop is a click).
          let fade = strike == 3 ? min(1, (count - Double(j)) / (0.05 * rate)) : 1
          return x * Float(min(1, Double(j) / (0.002 * rate)) * exp(-Double(j) / rate / 0.15) * fade)
        })
    }
    scene.rest(0.1)
    let detector = try method.makeDetector(sampleRate: rate)
    expectOnsets(
      detector.onsets(for: scene.samples), match: scene.onsets, tolerance: onsetTolerance(method), "\(method)"
    )
  }

  /// A harmonic tone with vibrato: every partial follows `center · 2^(cents/1200 · sin 2π·rate·t)`.
  static func vibrato(_ generator: SignalGenerator, seconds: Double) -> [Float] {
    var sum = [Float](repeating: 0, count: generator.frameCount(.seconds(seconds)))
    for (k, amplitude) in [1.0, 0.5, 0.33, 0.25, 0.2].enumerated() {
      let partial = generator.vibrato(
        centerHz: 330 * Double(k + 1), rateHz: 6, depthCents: 50, amplitude: amplitude * 0.3,
        length: .seconds(seconds))
      for i in sum.indices { sum[i] += partial[i] }
    }
    return sum
  }

  @Test(arguments: methods)
  func steadyToneVibratoAndCrescendoStartOnce(method: OnsetMethod) throws {
    let rate = 44100.0
    let envelope = ADSREnvelope(attackSeconds: 0.01, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.1)
    var steady = OnsetScene(sampleRate: rate)
    steady.rest(0.1)
    steady.append(Signal.enveloped(steady.tone(440, seconds: 1.2, peak: 0.3), by: envelope, sampleRate: rate))

    // ±50 cents at 6 Hz.
    var vibrato = OnsetScene(sampleRate: rate)
    vibrato.rest(0.1)
    vibrato.append(
      Signal.enveloped(Self.vibrato(vibrato.generator, seconds: 1.5), by: envelope, sampleRate: rate))

    // −45 dBFS to −15 dBFS over 1.5 s: 20 dB/s, much faster than the amplitude floor rises.
    var crescendo = OnsetScene(sampleRate: rate)
    crescendo.rest(0.1)
    let tone = crescendo.tone(220, seconds: 1.5, peak: 1)
    let swell = tone.enumerated().map { i, x in
      x * Float(pow(10, (-45 + 30 * Double(i) / Double(tone.count)) / 20))
    }
    crescendo.append(Signal.enveloped(swell, by: envelope, sampleRate: rate))

    let detector = try method.makeDetector(sampleRate: rate)
    for (name, scene) in [("steady", steady), ("vibrato", vibrato), ("crescendo", crescendo)] {
      expectOnsets(
        detector.onsets(for: scene.samples), match: scene.onsets, tolerance: onsetTolerance(method),
        "\(method), \(name)")
    }
  }

  /// Steady noise levels (dBFS RMS) with no onset. SuperFlux has an absolute sensitivity
  /// (`log₁₀(1 + X)`): broadband noise above about −35 dBFS reaches its threshold, so it is
  /// checked at lower levels only.
  static let noiseLevels: [(OnsetMethod, Double)] =
    [-60.0, -40, -20, -6].map { (.amplitude, $0) } + [-60.0, -50, -40].map { (.superflux, $0) }

  @Test(arguments: noiseLevels)
  func stationaryNoiseHasNoOnsets(method: OnsetMethod, levelDBFS: Double) throws {
    let generator = SignalGenerator(sampleRate: 22050)
    let rms = pow(10, levelDBFS / 20)
    let white = generator.gaussianNoise(standardDeviation: rms, length: .seconds(1), seed: 11)
    let pink = generator.pinkNoise(rms: rms, length: .seconds(1), seed: 12)
    let detector = try method.makeDetector(sampleRate: 22050)
    for (name, noise) in [("white", white), ("pink", pink)] {
      let found = detector.onsets(for: noise)
      #expect(found.isEmpty, "\(method), \(name) noise at \(levelDBFS) dBFS: \(times(found))")
    }
  }

  @Test(arguments: methods)
  func aSlowlyChangingBackgroundIsNotAnOnset(method: OnsetMethod) throws {
    // Pink noise from −60 to −50 dBFS over 2.5 s (4 dB/s), a note on top at 2 s.
    let rate = 22050.0
    var scene = OnsetScene(sampleRate: rate)
    scene.rest(2)
    scene.note(330, seconds: 0.3, peak: 0.2)
    scene.rest(0.2)
    let noise = scene.generator.pinkNoise(rms: 1, length: .frames(scene.samples.count), seed: 5)
    let count = Double(noise.count)
    let background = noise.enumerated().map { i, x in x * Float(pow(10, (-60 + 10 * Double(i) / count) / 20))
    }
    let detector = try method.makeDetector(sampleRate: rate)
    expectOnsets(
      detector.onsets(for: Signal.added(scene.samples, background)), match: scene.onsets,
      tolerance: onsetTolerance(method), "\(method)")
  }

  @Test(arguments: methods)
  func nonFiniteBurstsCountAsSilenceAndDoNotPoisonState(method: OnsetMethod) throws {
    let rate = 44100.0
    var scene = OnsetScene(sampleRate: rate)
    scene.rest(0.1)
    scene.note(262, seconds: 0.4)
    scene.rest(0.2)
    scene.note(392, seconds: 0.3)
    scene.rest(0.1)
    scene.note(523, seconds: 0.3)
    scene.rest(0.1)
    // NaN for 10 ms inside the first note, +∞ and −∞ in the rest after it, NaN in the next note.
    let frame = { (seconds: Double) in Int(seconds * rate) }
    var samples = Signal.injecting(.nan, in: frame(0.3)..<frame(0.31), into: scene.samples)
    samples = Signal.injecting(.infinity, in: frame(0.55)..<frame(0.56), into: samples)
    samples = Signal.injecting(-.infinity, at: [frame(0.6), frame(0.62)], into: samples)
    samples = Signal.injecting(.nan, in: frame(0.9)..<frame(0.905), into: samples)
    let detector = try method.makeDetector(sampleRate: rate)
    // A burst inside a note is a moment of silence, cut in abruptly: the note may start again
    // after it (and SuperFlux sees the cut itself as a click).
    expectOnsets(
      detector.onsets(for: samples), match: scene.onsets, tolerance: onsetTolerance(method),
      allowing: [0.28...0.345, 0.88...0.94], "\(method)")
  }

  @Test(arguments: methods)
  func dcOffsetAndClippingChangeNothing(method: OnsetMethod) throws {
    let scene = Self.melody(sampleRate: 44100)
    let detector = try method.makeDetector(sampleRate: 44100)
    let clean = detector.onsets(for: scene.samples)
    let offset = detector.onsets(for: scene.samples.map { $0 + 0.3 })
    #expect(offset.count == clean.count, "\(method): \(times(offset)) vs \(times(clean))")
    for (a, b) in zip(offset, clean) { #expect(abs(a.time - b.time) < 0.001, "\(method): \(a) vs \(b)") }
    // The same notes 12 dB louder, clipped at a quarter of full scale.
    let clipped = Signal.hardClipped(Signal.scaled(scene.samples, by: 4), level: 0.25)
    expectOnsets(
      detector.onsets(for: clipped), match: scene.onsets, tolerance: onsetTolerance(method),
      "\(method), clipped")
  }

  @Test(arguments: methods)
  func outputDoesNotDependOnBlockSizeAndArrivesWithinTheLatency(method: OnsetMethod) throws {
    let rate = 48000.0
    var scene = OnsetScene(sampleRate: rate)
    scene.rest(0.1)
    scene.note(220, seconds: 0.2)
    scene.note(220, seconds: 0.2, peak: 0.5)
    scene.rest(0.05)
    scene.note(880, seconds: 0.15, peak: 0.1, attack: 0.02)
    let detector = try method.makeDetector(sampleRate: rate)
    let reference = detector.onsets(for: scene.samples)
    #expect(reference.count == 3)
    for block in [1, 7, 512, 8192] {
      let streamed = stream(scene.samples, through: detector, block: block)
      #expect(streamed.map(\.onset) == reference, "\(method), blocks of \(block)")
      for (onset, pushed) in streamed {
        guard let pushed else { continue }
        // Out no later than its time plus the latency (plus the block it arrived in).
        let delay = Double(pushed) / rate - onset.time
        #expect(
          delay <= detector.latencySeconds + Double(block) / rate + 1e-9, "\(method): \(onset) at \(pushed)")
        // SuperFlux's latency is exact: with one-frame blocks, the delay equals it.
        if method == .superflux && block == 1 { #expect(abs(delay - detector.latencySeconds) < 1e-9) }
      }
    }
  }

  @Test(arguments: methods)
  func resetStartsAFreshStream(method: OnsetMethod) throws {
    let melody = Self.melody(sampleRate: 16000)
    let other = Signal.scaled(melody.samples.reversed(), by: 0.5)
    let used = try method.makeDetector(sampleRate: 16000)
    _ = used.onsets(for: other)
    #expect(
      used.onsets(for: melody.samples)
        == (try method.makeDetector(sampleRate: 16000)).onsets(for: melody.samples))
  }

  @Test func onsetsAreCodableValues() throws {
    let onset = Onset(time: 1.25, strength: 3.5)
    let data = try JSONEncoder().encode([onset])
    #expect(try JSONDecoder().decode([Onset].self, from: data) == [onset])
    #expect(
      OnsetMethod(rawValue: "superflux") == .superflux && OnsetMethod(rawValue: "amplitude") == .amplitude)
  }
}
