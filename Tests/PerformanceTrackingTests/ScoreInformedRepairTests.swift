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

  /// Two A4s due at 0.3 and 0.8 s, played as one sound with a violin's vibrato: the first,
  /// wavering, releases from 0.77 s (0.1 dB per ms); the second is bowed in at 0.8 s at its own
  /// phases, 15 dB under the first's sustained level and swelling 0.5 dB per ms, under the
  /// first's release for its first 10 ms. Its partials leave the first one's turn at once: a
  /// re-attack the level placed 40 ms later moves there, one 150 ms later does not (too far to
  /// be the same note), and the repair splits there.
  @Test func aRepeatUnderTheOldNotesReleaseSplitsWhereItsPhasesBreak() {
    let notes = (0..<2).map { i in
      PerformanceNote(
        index: i, expectedStart: 0.3 + 0.5 * Double(i), expectedDuration: 0.5, writtenPitch: MIDINote(rawValue: 69)!)
    }
    var phase = 0.0
    let samples = (0..<Int(1.6 * Self.rate)).map { n -> Float in
      let t = Double(n) / Self.rate
      // A bowed string's vibrato (5.5 Hz, 5 cents) and the old note's wavering (1.5 dB at 7 Hz).
      phase += 2 * .pi * 440 * pow(2, 5 / 1200 * sin(2 * .pi * 5.5 * t)) / Self.rate
      guard t >= 0.3, t < 1.5 else { return 0 }
      func partials(_ offset: Double) -> Double {
        (1...4).reduce(0) { $0 + pow(0.6, Double($1 - 1)) * sin(Double($1) * (phase + offset)) }
      }
      let waver = pow(10, 1.5 / 20 * sin(2 * .pi * 7 * t))
      let old = waver * (t < 0.77 ? 0.1 : 0.1 * pow(10, -0.1 * (t - 0.77) * 1000 / 20))
      let new = t < 0.8 ? 0 : 0.1 * pow(10, (min(0.03, t - 0.8) * 500 - 15) / 20)
      return Float(old * partials(0) + new * partials(2.1))
    }
    let track = stride(from: 0.31, to: 1.5, by: 0.01).map { PerformanceSound.PitchPoint(time: $0, frequencyHz: 440) }
    let sound = PerformanceSound(start: 0.3, end: 1.5, frequencyHz: 440, pitchTrack: track, peakLevelDBFS: -20)
    let alignment = PerformanceAlignment(notes: notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil])
    let refiner = SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate)
    let found = refiner.predictionBreak(in: sound, near: 0.8, within: 0.15)
    #expect(found.map { abs($0 - 0.8) <= 0.01 } == true, "\(String(describing: found))")
    let repair = ScoreInformedRepair()
    let moved = repair.repeatStart(in: sound, near: 0.8, reattack: 0.84, refiner: refiner)
    #expect(abs(moved - 0.8) <= 0.01, "\(moved)")
    #expect(repair.repeatStart(in: sound, near: 0.8, reattack: 0.95, refiner: refiner) == 0.95)
    let repaired = repair.repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired)")
    if repaired.count == 2 { #expect(abs(repaired[1].start - 0.8) <= 0.01, "\(repaired[1].start)") }
  }

  @Test func aSoundLinkedToTheLaterNoteOfARepeatSplitsForTheMissedOneBefore() {
    // As `take()`, but the linking gave the sound to the last A4 (due at 1.2 s): the sound
    // began a second before that, at the A4 due at 0.7 s (missed), and holds it too. It
    // splits where the last one re-attacks.
    let (plain, refiner) = Self.take()
    let alignment = PerformanceAlignment(
      notes: plain.notes, sounds: plain.sounds, latencySeconds: 0, soundIndices: [nil, nil, 0])
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired)")
    if repaired.count == 2 {
      #expect(repaired[0].start == 0.2)
      #expect(abs(repaired[1].start - 1.18) <= 0.02, "\(repaired[1])")
      #expect(repaired[1].end == 1.7)
    }
  }

  @Test func aPieceWithTooFewPitchPointsKeepsTheSoundsPitch() {
    // As `take()`, but the pitch track came to the sound only at 1.17 s, its first point an
    // octave low (under a previous note's ring): the piece before the dip at 1.18 s holds that
    // one point, and keeps the sound's pitch.
    let (plain, refiner) = Self.take()
    var sound = plain.sounds[0]
    sound.pitchTrack = [.init(time: 1.17, frequencyHz: 220)] + sound.pitchTrack.filter { $0.time > 1.175 }
    let alignment = PerformanceAlignment(
      notes: plain.notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil, nil])
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired)")
    #expect(repaired.allSatisfy { $0.frequencyHz == 440 }, "\(repaired.map(\.frequencyHz))")
  }

  @Test func eachPieceOfASplitTakesItsOwnPitch() {
    // As `take()`, but the sound is 40 cents sharp up to the dip at 1.18 s and in tune after
    // it: its stable pitch, the median over both, is the sharp one; the in-tune repeat split off
    // must not inherit it (nor the first piece the repeat's).
    let (plain, _) = Self.take()
    let sharp = 440 * pow(2, 40.0 / 1200)
    let generator = SignalGenerator(sampleRate: Self.rate)
    let partials = [1, 0.6, 0.4, 0.2]
    let before = generator.harmonicTone(fundamentalHz: sharp, partialAmplitudes: partials, length: .seconds(1.9))
    let after = generator.harmonicTone(fundamentalHz: 440, partialAmplitudes: partials, length: .seconds(1.9))
    let samples = before.indices.map { n -> Float in
      let t = Double(n) / Self.rate
      guard t >= 0.2, t < 1.7 else { return 0 }
      let dip = 0.02 + 0.08 * min(1, abs(t - 1.18) / 0.02)
      return Float(Double(t < 1.18 ? before[n] : after[n]) * min(0.1, dip))
    }
    let track = stride(from: 0.21, to: 1.7, by: 0.01).map {
      PerformanceSound.PitchPoint(time: $0, frequencyHz: $0 < 1.18 ? sharp : 440)
    }
    let sound = PerformanceSound(start: 0.2, end: 1.7, frequencyHz: sharp, pitchTrack: track, peakLevelDBFS: -23)
    let alignment = PerformanceAlignment(
      notes: plain.notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil, nil])
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate))
    #expect(repaired.count == 2, "\(repaired)")
    if repaired.count == 2 {
      #expect(abs(repaired[1].start - 1.18) <= 0.02, "\(repaired[1])")
      #expect(abs(1200 * log2(repaired[0].frequencyHz / sharp)) < 1, "\(repaired[0].frequencyHz)")
      #expect(abs(1200 * log2(repaired[1].frequencyHz / 440)) < 1, "\(repaired[1].frequencyHz)")
    }
  }

  @Test func piecesAfterASplitOffNoteJoinIt() {
    // A4 due at 0.2 s, a long A4 due at 0.5 s (to 1.7 s), B4 due at 1.7 s. The two A4s sound as
    // one sound to 0.9 s with a dip of 14 dB at 0.5 s; a tremolo breaks the long one into two
    // more pieces (0.9–1.2, 1.2–1.5 s) no note claims. After the split at the dip, the pieces
    // belong to the long A4, which is due until 1.7 s.
    let notes = [(0.2, 0.3, 69), (0.5, 1.2, 69), (1.7, 0.5, 71)].enumerated().map { i, note in
      PerformanceNote(
        index: i, expectedStart: note.0, expectedDuration: note.1, writtenPitch: MIDINote(rawValue: note.2)!)
    }
    let generator = SignalGenerator(sampleRate: Self.rate)
    let a4 = generator.harmonicTone(fundamentalHz: 440, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(2.3))
    let b4 = generator.harmonicTone(fundamentalHz: 493.88, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(2.3))
    let samples = a4.indices.map { n -> Float in
      let t = Double(n) / Self.rate
      if t >= 1.7, t < 2.2 { return 0.1 * b4[n] }
      guard t >= 0.2, t < 1.5 else { return 0 }
      return Float(Double(a4[n]) * min(0.1, 0.02 + 0.08 * min(1, abs(t - 0.5) / 0.02)))
    }
    func sound(_ start: Double, _ end: Double, _ hz: Double) -> PerformanceSound {
      let track = stride(from: start + 0.01, to: end, by: 0.01).map { PerformanceSound.PitchPoint(time: $0, frequencyHz: hz) }
      return PerformanceSound(start: start, end: end, frequencyHz: hz, pitchTrack: track, peakLevelDBFS: -23)
    }
    let sounds = [sound(0.2, 0.9, 440), sound(0.9, 1.2, 440), sound(1.2, 1.5, 440), sound(1.7, 2.2, 493.88)]
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds, latencySeconds: 0, soundIndices: [0, nil, 3])
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate))
    #expect(repaired.count == 3, "\(repaired.map { ($0.start, $0.end) })")
    if repaired.count == 3 {
      #expect(abs(repaired[1].start - 0.5) <= 0.02 && repaired[1].end == 1.5)
      #expect(repaired[2].frequencyHz == 493.88)
    }
  }

  /// Two A4s due at 0.2 and 0.7 s. The first sounds to 0.62 s and fades 0.3 dB per ms; after
  /// it comes `tail`. The sound's refined end is the release (0.63 s), and the pitch track
  /// heard it to 1 s (``PerformanceSound/heardUntil``); the second note was not linked.
  static func tailTake(_ tail: @escaping (Double) -> Double) -> (PerformanceAlignment, SoundBoundaryRefiner) {
    let notes = (0..<2).map { i in
      PerformanceNote(
        index: i, expectedStart: 0.2 + 0.5 * Double(i), expectedDuration: 0.45, writtenPitch: MIDINote(rawValue: 69)!)
    }
    let generator = SignalGenerator(sampleRate: rate)
    let tone = generator.harmonicTone(fundamentalHz: 440, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(1.3))
    let samples = tone.indices.map { n -> Float in
      let t = Double(n) / rate
      guard t >= 0.2, t < 1.0 else { return 0 }
      let release = t < 0.62 ? 0.1 : 0.1 * pow(10, -0.3 * (t - 0.62) * 1000 / 20)
      return Float(Double(tone[n]) * max(release, tail(t)))
    }
    let track = stride(from: 0.21, to: 1.0, by: 0.01).map { PerformanceSound.PitchPoint(time: $0, frequencyHz: 440) }
    var sound = PerformanceSound(start: 0.2, end: 0.63, frequencyHz: 440, pitchTrack: track, peakLevelDBFS: -23)
    sound.heardUntil = 1.0
    let alignment = PerformanceAlignment(notes: notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil])
    return (alignment, SoundBoundaryRefiner(samples: samples, sampleRate: rate))
  }

  @Test func aQuieterRepeatPastTheSoundsEndIsFoundInWhatWasHeard() {
    // The second A4 played 6 dB quieter at 0.7 s (a 5 ms attack): past the first sound's end,
    // where no split looked before.
    let (alignment, refiner) = Self.tailTake { t in t < 0.7 ? 0 : 0.05 * min(1, (t - 0.7) / 0.005) }
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired)")
    if repaired.count == 2 {
      #expect(abs(repaired[0].end - 0.63) <= 0.01, "\(repaired[0])")
      #expect(abs(repaired[1].start - 0.7) <= 0.02, "\(repaired[1])")
      #expect(abs(repaired[1].end - 1.0) <= 0.03, "\(repaired[1])")
      #expect(repaired[1].heardUntil == nil)
    }
  }

  @Test func aRingThatSwellsPastTheSoundsEndIsNoRepeat() {
    // The same release into a ring beating 8 times a second, 15 dB and more under the note:
    // rises of 6 dB and more, but no note played again.
    let (alignment, refiner) = Self.tailTake { t in 0.009 * (1 + 0.9 * sin(2 * .pi * 8 * t)) }
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 1, "\(repaired)")
  }

  /// A B♭4 due at 0.2 s played 60 cents flat (450 Hz), slurred at 0.7 s into the A4 due then
  /// (440 Hz): the B♭4 releases from 0.7 s (0.3 dB per ms) as the A4 comes in at its own phases
  /// over 10 ms, no dip of 6 dB in the level. The B♭4's refined end is that release (0.71 s),
  /// the pitch track heard on to 1.2 s, and the A4 was not linked. With `sameA4`, what follows
  /// the release is the B♭4's own release sample instead: 450 Hz again, at new phases, fading
  /// 0.1 dB per ms.
  static func slurTake(sameA4: Bool) -> (PerformanceAlignment, SoundBoundaryRefiner) {
    let notes = [
      PerformanceNote(index: 0, expectedStart: 0.2, expectedDuration: 0.5, writtenPitch: MIDINote(rawValue: 70)!),
      PerformanceNote(index: 1, expectedStart: 0.7, expectedDuration: 0.5, writtenPitch: MIDINote(rawValue: 69)!),
    ]
    let generator = SignalGenerator(sampleRate: rate)
    let flat = generator.harmonicTone(fundamentalHz: 450, partialAmplitudes: [1, 0.6, 0.4, 0.2], length: .seconds(1.3))
    let second = sameA4 ? 450.0 : 440.0
    let samples = flat.indices.map { n -> Float in
      let t = Double(n) / rate
      guard t >= 0.2, t < 1.2 else { return 0 }
      let old = t < 0.7 ? 0.1 : 0.1 * pow(10, -0.3 * (t - 0.7) * 1000 / 20)
      var new = 0.0
      if t >= 0.7 {
        let level = sameA4 ? 0.1 * pow(10, -0.1 * (t - 0.7) * 1000 / 20) : 0.1 * min(1, (t - 0.7) / 0.01)
        for k in 1...4 {
          let h = Double(k)
          let partial: Double = sin(2 * .pi * h * second * (t - 0.7) + 1.3 * h)
          new += level * pow(0.6, h - 1) * partial
        }
      }
      return Float(old * Double(flat[n]) + new)
    }
    let track = stride(from: 0.21, to: 1.2, by: 0.01).map {
      PerformanceSound.PitchPoint(time: $0, frequencyHz: $0 < 0.7 ? 450 : second)
    }
    var sound = PerformanceSound(start: 0.2, end: 0.71, frequencyHz: 450, pitchTrack: track, peakLevelDBFS: -23)
    sound.heardUntil = 1.2
    let alignment = PerformanceAlignment(notes: notes, sounds: [sound], latencySeconds: 0, soundIndices: [0, nil])
    return (alignment, SoundBoundaryRefiner(samples: samples, sampleRate: rate))
  }

  @Test func aSlurredNoteWithinTheSamePitchSplitsPastTheEndWhereItsPhasesBreakAndItsPitchMoves() {
    let (alignment, refiner) = Self.slurTake(sameA4: false)
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 2, "\(repaired.map { ($0.start, $0.end) })")
    if repaired.count == 2 {
      // Found once the A4 outweighs the release in the partials' phases (0.72 s).
      #expect(repaired[1].start >= 0.7 && repaired[1].start <= 0.73, "\(repaired[1].start)")
      #expect(abs(repaired[1].frequencyHz - 440) < 1, "\(repaired[1].frequencyHz)")
    }
  }

  @Test func aReleaseAtNewPhasesPastTheEndIsNoNote() {
    let (alignment, refiner) = Self.slurTake(sameA4: true)
    var heard = alignment.sounds[0]
    heard.end = 1.2
    #expect(refiner.phaseBreak(in: heard, near: 0.7, within: 0.15) != nil)
    let repaired = ScoreInformedRepair().repaired(alignment, refiner: refiner)
    #expect(repaired.count == 1, "\(repaired.map { ($0.start, $0.end) })")
  }
}
