import Foundation
import ScoreModel
import Testing
import _TestSupport

@testable import PerformanceTracking

/// The score-informed repair on a synthesized sound that holds several notes of one pitch.
@Suite struct ScoreInformedRepairTests {
  static let rate = 44_100.0

  /// Three A4s due at 0.2, 0.7 and 1.2 s, played as one sound from 0.2 to 1.7 s: the second
  /// left no trace (a repeat slurred into the first), the third was played again with a dip of
  /// 14 dB at 1.18 s.
  static func take() -> (alignment: PerformanceAlignment, refiner: SoundBoundaryRefiner) {
    let notes = (0..<3).map { i in
      PerformanceNote(
        index: i, expectedStart: 0.2 + 0.5 * Double(i), expectedDuration: 0.5, writtenPitch: MIDINote(rawValue: 69)!)
    }
    let generator = SignalGenerator(sampleRate: rate)
    let tone = generator.harmonicTone(fundamentalHz: 440, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(1.9))
    let samples = tone.indices.map { n -> Float in
      let t = Double(n) / rate
      guard t >= 0.2, t < 1.7 else { return 0 }
      let dip = 0.02 + 0.08 * min(1, abs(t - 1.18) / 0.02)
      return Float(Double(tone[n]) * min(0.1, dip))
    }
    let track = stride(from: 0.21, to: 1.7, by: 0.01).map { PerformanceSound.PitchPoint(time: $0, frequencyHz: 440) }
    let sound = PerformanceSound(start: 0.2, end: 1.7, frequencyHz: 440, pitchTrack: track, peakLevelDBFS: -23)
    let alignment = PerformanceAlignment(
      notes: notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil, nil])
    return (alignment, SoundBoundaryRefiner(samples: samples, sampleRate: rate))
  }

  @Test func aMissedNoteAfterAnotherMissedOneSplitsTheLastLinkedSound() {
    let (alignment, refiner) = Self.take()
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired)")
    if repaired.count == 2 {
      #expect(abs(repaired[1].start - 1.18) <= 0.02, "\(repaired[1])")
      #expect(repaired[0].start == 0.2)
      #expect(repaired[1].end == 1.7)
      #expect(repaired[1].pitchTrack.allSatisfy { $0.time >= repaired[1].start })
    }
  }
}
