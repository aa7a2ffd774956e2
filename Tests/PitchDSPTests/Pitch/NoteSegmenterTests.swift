import Foundation
import Testing
import _TestSupport

@testable import PitchDSP

@Suite struct NoteSegmenterTests {
  static let rate = 22050.0
  static let generator = SignalGenerator(sampleRate: rate)

  /// A tone of `seconds` at `frequency` under a short attack and release.
  func note(_ frequency: Double, _ seconds: Double, amplitude: Double = 0.3) -> [Float] {
    let tone = Self.generator.harmonicTone(fundamentalHz: frequency, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(seconds))
    let envelope = ADSREnvelope(attackSeconds: 0.01, decaySeconds: 0.05, sustainLevel: 0.8, releaseSeconds: 0.02)
    return Signal.enveloped(Signal.scaled(tone, by: amplitude), by: envelope, sampleRate: Self.rate)
  }

  func segments(_ samples: [Float]) throws -> [NoteSegment] {
    let configuration = PitchConfiguration(sampleRate: Self.rate)
    let track = try ProbabilisticYINEstimator.offline(configuration: configuration, frameCount: samples.count).estimates(for: samples)
    return NoteSegmenter().segments(of: track)
  }

  @Test func separatedNotesStartAtTheirOnsetsWithTheirPitch() throws {
    let gap = Self.generator.silence(length: .seconds(0.15))
    let melody = Signal.concatenated([gap, note(262, 0.4), gap, note(330, 0.3), gap, note(392, 0.5), gap])
    let found = try segments(melody)
    #expect(found.count == 3, "\(found)")
    for (segment, (start, frequency)) in zip(found, [(0.15, 262.0), (0.70, 330), (1.15, 392)]) {
      #expect(abs(segment.start - start) <= 0.03, "\(segment)")
      #expect(abs(1200 * log2(segment.frequencyHz / frequency)) <= 5, "\(segment)")
      #expect(segment.boundary == .onset)
    }
  }

  @Test func legatoPitchChangesSplitWithoutALevelDip() throws {
    // One continuous tone stepping C4 → D4 → E4 with no gap and no level change.
    let legato = Self.generator.tone(amplitude: 0.3, length: .seconds(1.2)) { t in t < 0.4 ? 261.63 : t < 0.8 ? 293.66 : 329.63 }
    let found = try segments(Signal.concatenated([Self.generator.silence(length: .seconds(0.1)), legato, Self.generator.silence(length: .seconds(0.1))]))
    #expect(found.map(\.boundary) == [.onset, .pitchChange, .pitchChange], "\(found)")
    #expect(zip(found.map(\.frequencyHz), [261.63, 293.66, 329.63]).allSatisfy { abs(1200 * log2($0 / $1)) <= 5 })
    #expect(abs(found[1].start - 0.5) <= 0.05 && abs(found[2].start - 0.9) <= 0.05, "\(found)")
    // Each segment ends where the next begins.
    #expect(found[0].end == found[1].start && found[1].end == found[2].start)
  }

  @Test func vibratoAndAQuietNoiseFloorDoNotSplit() throws {
    let vibrato = Self.generator.vibrato(centerHz: 440, rateHz: 6, depthCents: 45, amplitude: 0.3, length: .seconds(1))
    let noise = Signal.scaled(Self.generator.whiteNoise(length: .seconds(1.4), seed: 9), by: 0.003)
    let signal = Signal.added(Signal.concatenated([Self.generator.silence(length: .seconds(0.2)), vibrato, Self.generator.silence(length: .seconds(0.2))]), noise)
    let found = try segments(signal)
    #expect(found.count == 1, "\(found)")
    #expect(abs(1200 * log2((found.first?.frequencyHz ?? 1) / 440)) <= 10)
  }

  @Test func thresholdsAreRelativeToTheNoiseFloor() throws {
    // The same melody over a loud hum-free noise bed: louder floor, same segmentation.
    let gap = Self.generator.silence(length: .seconds(0.2))
    let melody = Signal.concatenated([gap, note(220, 0.4), gap, note(220, 0.4), gap])
    let bed = Signal.scaled(Self.generator.pinkNoise(rms: 1, length: .frames(melody.count), seed: 3), by: 0.01)
    for signal in [melody, Signal.added(melody, bed)] {
      let found = try segments(signal)
      #expect(found.count == 2, "\(found)")
    }
  }

  /// A 262 Hz tone shaped by `gain(t)` (linear amplitude at `t` seconds), after 0.2 s of silence.
  func shaped(seconds: Double, gain: (Double) -> Double) -> [Float] {
    let tone = Self.generator.harmonicTone(fundamentalHz: 262, partialAmplitudes: [1, 0.5, 0.3], length: .seconds(seconds))
    let shaped = tone.indices.map { Float(Double(tone[$0]) * gain(Double($0) / Self.rate)) }
    return Signal.concatenated([Self.generator.silence(length: .seconds(0.2)), shaped, Self.generator.silence(length: .seconds(0.2))])
  }

  @Test func aSlowAttackThatKeepsRisingIsOneNote() throws {
    // 40 dB in 250 ms (8 dB every 50 ms), then held: a flute's or a bowed string's swell.
    let swell = shaped(seconds: 0.9) { t in 0.3 * pow(10, (min(t, 0.25) / 0.25 * 40 - 40) / 20) }
    let found = try segments(swell)
    #expect(found.count == 1, "\(found)")
    #expect(abs((found.first?.start ?? 0) - 0.2) <= 0.06, "\(found)")
  }

  @Test func aHeldNotePlayedAgainLouderSplitsWithoutADip() throws {
    // 12 dB louder after 0.5 s, the same pitch, no gap.
    let accent = shaped(seconds: 0.9) { t in t < 0.5 ? 0.05 : 0.2 }
    let found = try segments(accent)
    #expect(found.count == 2, "\(found)")
    #expect(abs((found.last?.start ?? 0) - 0.7) <= 0.04, "\(found)")
  }

  @Test func aNotesPitchComesFromItsConfidentEstimates() {
    // A short note under the ring of a higher one: for 150 ms after its attack the tracker
    // wanders between the two periods (548 → 535 Hz) at a low confidence, then reads the note
    // itself (526 Hz) confidently for 80 ms. The median of every estimate after the attack is
    // about 538 Hz, 38 cents sharp.
    var estimates: [PitchEstimate] = []
    for i in 0..<70 {
      let t = Double(i) * 0.01
      switch t {
      case 0.2..<0.25: estimates.append(.init(time: t, frequencyHz: 545, confidence: 0.6, levelDBFS: -20))
      case 0.25..<0.4:
        let glide = 548 - (t - 0.25) / 0.15 * 13
        estimates.append(.init(time: t, frequencyHz: glide, confidence: 0.55, levelDBFS: -20))
      case 0.4..<0.48:
        estimates.append(.init(time: t, frequencyHz: 526 * (1 + 0.001 * sin(t * 100)), confidence: 0.95, levelDBFS: -21))
      default: estimates.append(.init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -90))
      }
    }
    let found = NoteSegmenter().segments(of: estimates)
    #expect(found.count == 1, "\(found)")
    #expect(abs(1200 * log2((found.first?.frequencyHz ?? 1) / 526)) <= 5, "\(found)")
    // With fewer confident estimates than asked for, all of them after the attack count.
    var configuration = NoteSegmenter.Configuration()
    configuration.confidentFrames = 9
    let all = NoteSegmenter(configuration: configuration).segments(of: estimates)
    #expect(abs(1200 * log2((all.first?.frequencyHz ?? 1) / 526)) > 30, "\(all)")
  }

  @Test func aSoundUnvoicedSinceItStartedStartsAgainWithItsPitch() {
    // Pink noise at 12 dB SNR swells 18 dB over its floor 300 ms before a low violin note 3 dB
    // louder still (FluidR3's G#3 in a take of the grading evaluation): the sound started with
    // the swell, and the note was timed 300 ms early. It starts with its first voiced estimate;
    // a breathy attack unvoiced for less than `unvoicedSeconds` keeps its start.
    func estimates(unvoicedFrom: Double) -> [PitchEstimate] {
      (0..<120).map { i in
        let t = Double(i) * 0.01
        switch t {
        case ..<unvoicedFrom: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -45)
        case ..<0.66: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -27)
        case ..<1: return .init(time: t, frequencyHz: 208, confidence: 0.9, levelDBFS: -24)
        default: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -45)
        }
      }
    }
    let noisy = NoteSegmenter().segments(of: estimates(unvoicedFrom: 0.36))
    #expect(noisy.count == 1 && abs((noisy.first?.start ?? 0) - 0.66) < 0.005, "\(noisy)")
    #expect(noisy.first?.boundary == .onset)
    let breathy = NoteSegmenter().segments(of: estimates(unvoicedFrom: 0.6))
    #expect(breathy.count == 1 && abs((breathy.first?.start ?? 0) - 0.6) < 0.005, "\(breathy)")
  }

  @Test func aNotesReleaseTailIsNoSoundOfItsOwn() {
    // Digital silence, a note at −20 dBFS, then its release tail (16-bit quantization noise, the
    // room) at −98 dBFS for a second, unvoiced: 22 dB over the −120 dBFS floor of the lead-in.
    // The tail started an unpitched sound of its own once the note had ended.
    let estimates: [PitchEstimate] = (0..<300).map { i in
      let t = Double(i) * 0.01
      switch t {
      case ..<0.5: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -.infinity)
      case ..<1.5: return .init(time: t, frequencyHz: 440, confidence: 0.9, levelDBFS: -20)
      default: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -98 + (i % 3 == 0 ? 1 : 0))
      }
    }
    let found = NoteSegmenter().segments(of: estimates)
    #expect(found.count == 1 && found.first.map { abs($0.start - 0.5) < 0.02 && abs($0.frequencyHz - 440) < 0.01 } == true, "\(found)")
    // A new note 15 dB or more over the tail still starts a sound.
    let next = estimates.map { e in
      e.time >= 2.5 ? PitchEstimate(time: e.time, frequencyHz: 330, confidence: 0.9, levelDBFS: -60) : e
    }
    #expect(NoteSegmenter().segments(of: next).map { $0.frequencyHz.rounded() } == [440, 330])
  }

  @Test func theFloorHoldsWhilePitchedSoundsPlayOn() {
    // Noise at −50 dBFS, then 6 s of notes played on without a gap at −20 dBFS (the noise fills
    // the moments between them), then a quiet note at −33 dBFS, 17 dB over the noise. A floor
    // rising 3 dB a second through the music stood 18 dB up by then, and the quiet note ended
    // as soon as it began (TimGM6mb's trumpet F4 under white noise was heard for 0.7 of its
    // 1.4 s). Pitched frames hold the floor; the quiet note lasts.
    let estimates: [PitchEstimate] = (0..<800).map { i in
      let t = Double(i) * 0.01
      switch t {
      case ..<0.5: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -50)
      case ..<6.5:
        let step = Int((t - 0.5) / 0.5)
        return .init(time: t, frequencyHz: step % 2 == 0 ? 440 : 494, confidence: 0.9, levelDBFS: -20)
      case ..<7.5: return .init(time: t, frequencyHz: 349, confidence: 0.9, levelDBFS: -33)
      default: return .init(time: t, frequencyHz: 0, confidence: 0, levelDBFS: -50)
      }
    }
    let found = NoteSegmenter().segments(of: estimates)
    let quiet = found.last { abs(1200 * log2($0.frequencyHz / 349)) < 50 }
    #expect(quiet.map { abs($0.start - 6.5) < 0.05 && abs($0.end - 7.5) < 0.05 } == true, "\(found)")
  }
}
