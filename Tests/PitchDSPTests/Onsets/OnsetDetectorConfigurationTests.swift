import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

/// Each detector's own properties: configuration checks, latency, legato, derived sizes.
@Suite struct OnsetDetectorConfigurationTests {
  @Test func badAmplitudeConfigurationsThrowNamingTheParameter() {
    let bad: [(AmplitudeOnsetDetector.Configuration, String)] = [
      (.init(sampleRate: 4000), "sample rate"),
      (.init(sampleRate: .nan), "sample rate"),
      (.init(sampleRate: 44100, hopSeconds: 0), "onset hop size"),
      (.init(sampleRate: 44100, onsetThresholdDB: 10, rearmThresholdDB: 12), "re-arm threshold"),
      (.init(sampleRate: 44100, riseSeconds: 0.001), "rise time"),
      (.init(sampleRate: 44100, silenceDBFS: 3), "silence level"),
      (.init(sampleRate: 44100, levelWindowHops: 0), "level window"),
    ]
    for (configuration, name) in bad {
      #expect {
        try AmplitudeOnsetDetector(configuration: configuration)
      } throws: { error in
        guard case .invalidParameter(let found, _, _) = error as? PitchDSPError else { return false }
        return found == name
      }
    }
  }

  @Test func badSuperFluxConfigurationsThrowNamingTheParameter() {
    let bad: [(SpectralFluxOnsetDetector.Configuration, String)] = [
      (.init(sampleRate: 500_000), "sample rate"),
      (.init(sampleRate: 44100, frameSize: 1000), "STFT frame size"),
      (.init(sampleRate: 44100, hopSeconds: 0.1), "onset hop size"),
      (.init(sampleRate: 44100, minimumFrequencyHz: 5000, maximumFrequencyHz: 6000), "filterbank range"),
      (.init(sampleRate: 44100, maximumFilterBands: 2), "maximum filter width"),
      (.init(sampleRate: 44100, threshold: -1), "flux threshold"),
      (.init(sampleRate: 44100, lookAheadSeconds: .infinity), "look-ahead"),
    ]
    for (configuration, name) in bad {
      #expect {
        try SpectralFluxOnsetDetector(configuration: configuration)
      } throws: { error in
        guard case .invalidParameter(let found, _, _) = error as? PitchDSPError else { return false }
        return found == name
      }
    }
  }

  @Test func superFluxScalesItsFrameWithTheSampleRate() throws {
    let sizes = [8000.0, 16000, 22050, 44100, 48000, 96000, 192_000].map {
      SpectralFluxOnsetDetector.Configuration(sampleRate: $0)
    }
    #expect(sizes.map(\.frameSize) == [512, 1024, 1024, 2048, 2048, 4096, 8192])
    #expect(sizes.map(\.hopSize) == [40, 80, 110, 221, 240, 480, 960])
    #expect(sizes.map(\.differenceFrames) == [3, 3, 2, 2, 2, 2, 2])
    // 24 bands per octave, merged where they are narrower than a bin: about 140 at 44.1 kHz.
    let detector = try SpectralFluxOnsetDetector(configuration: sizes[3])
    #expect((130...150).contains(detector.bandCount))
  }

  @Test func latenciesAreFixedPerConfiguration() throws {
    let flux = try SpectralFluxOnsetDetector(configuration: .init(sampleRate: 44100))
    // 3/8 of 2048 frames plus 3 hops of 221 frames.
    #expect(abs(flux.latencySeconds - (768.0 + 663) / 44100) < 1e-12)
    let slower = try SpectralFluxOnsetDetector(
      configuration: .init(sampleRate: 44100, lookAheadSeconds: 0.05))
    #expect(abs(slower.latencySeconds - (768.0 + 10 * 221) / 44100) < 1e-12)
    let amplitude = try AmplitudeOnsetDetector(configuration: .init(sampleRate: 16000))
    // 20 hops of refinement back, plus half a hop.
    #expect(abs(amplitude.latencySeconds - 20.5 * 80 / 16000) < 1e-12)
  }

  @Test func aLegatoChangeOfNoteIsASpectralOnsetButNotALevelOne() throws {
    // 262 Hz → 330 Hz at 0.5 s within 10 ms, at a constant level.
    let rate = 44100.0
    let generator = SignalGenerator(sampleRate: rate)
    var line = [Float](repeating: 0, count: Int(rate))
    for (k, amplitude) in [1.0, 0.5, 0.33, 0.25, 0.2].enumerated() {
      let partial = generator.glide(
        fromHz: 262 * Double(k + 1), toHz: 330 * Double(k + 1), startSeconds: 0.4, glideSeconds: 0.01,
        amplitude: 0.3 * amplitude, length: .seconds(1))
      for i in line.indices { line[i] += partial[i] }
    }
    let envelope = ADSREnvelope(attackSeconds: 0.005, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.1)
    let samples =
      generator.silence(length: .seconds(0.1)) + Signal.enveloped(line, by: envelope, sampleRate: rate)
    let amplitude = try AmplitudeOnsetDetector(configuration: .init(sampleRate: rate))
    expectOnsets(amplitude.onsets(for: samples), match: [0.1], tolerance: 0.01, "amplitude")
    let flux = try SpectralFluxOnsetDetector(configuration: .init(sampleRate: rate))
    expectOnsets(flux.onsets(for: samples), match: [0.1, 0.5], tolerance: 0.02, "superflux")
  }

  @Test func amplitudeThresholdsAreRelativeToTheFloorNotAbsolute() throws {
    // A note 25–30 dB above its background is found whether the background is at −70 or −40
    // dBFS; a note 8 dB above a −40 dBFS background is not (and would be, over a quieter one).
    let rate = 16000.0
    let detector = try AmplitudeOnsetDetector(configuration: .init(sampleRate: rate))
    for (noiseDB, noteDB, found) in [(-70.0, -40.0, true), (-40.0, -15.0, true), (-40.0, -32.0, false)] {
      var scene = OnsetScene(sampleRate: rate)
      scene.rest(0.5)
      scene.note(440, seconds: 0.3, peak: pow(10, noteDB / 20))
      scene.rest(0.2)
      let noise = scene.generator.gaussianNoise(
        standardDeviation: pow(10, noiseDB / 20), length: .frames(scene.samples.count), seed: 9)
      let onsets = detector.onsets(for: Signal.added(scene.samples, noise))
      expectOnsets(
        onsets, match: found ? scene.onsets : [], tolerance: 0.01,
        "note \(noteDB) dB over noise \(noiseDB) dB")
    }
  }

  @Test func theAmplitudeFloorFollowsABackgroundThatFallsOrSwellsSlowly() throws {
    let rate = 16000.0
    let detector = try AmplitudeOnsetDetector(configuration: .init(sampleRate: rate))
    // Noise at −40 dBFS for 1 s, then −75 dBFS; a −50 dBFS note 0.3 s after the drop is 10 dB
    // below the old background but 25 dB above the new one.
    var scene = OnsetScene(sampleRate: rate)
    scene.rest(1.3)
    scene.note(523, seconds: 0.3, peak: pow(10, -50.0 / 20))
    scene.rest(0.1)
    let noise = scene.generator.gaussianNoise(
      standardDeviation: 1, length: .frames(scene.samples.count), seed: 4)
    let drop = Int(rate)
    let background = noise.enumerated().map { i, x in x * Float(i < drop ? 0.01 : pow(10, -75.0 / 20)) }
    // The drop itself is no onset; the note is.
    expectOnsets(
      detector.onsets(for: Signal.added(scene.samples, background)), match: scene.onsets, tolerance: 0.01,
      "drop")

    // A background swelling at 2 dB/s for 10 s (−70 to −50 dBFS) is followed by the floor.
    let swell = scene.generator.pinkNoise(rms: 1, length: .seconds(10), seed: 8)
    let count = Double(swell.count)
    let rising = swell.enumerated().map { i, x in x * Float(pow(10, (-70 + 20 * Double(i) / count) / 20)) }
    let found = detector.onsets(for: rising)
    #expect(found.isEmpty, "\(times(found))")
  }
}
