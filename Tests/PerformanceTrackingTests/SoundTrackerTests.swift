import Foundation
import Testing
import PitchDSP
import _TestSupport

@testable import PerformanceTracking

/// The offline sound tracker on synthesized notes: level swings inside a held note, repeated
/// notes, and the ring of a room after a note.
@Suite struct SoundTrackerTests {
  static let rate = 44_100.0
  static let generator = SignalGenerator(sampleRate: rate)

  /// A string-like tone at `frequency` for `seconds`, its amplitude `gain(t)`.
  static func tone(_ frequency: Double, seconds: Double, gain: (Double) -> Double) -> [Float] {
    let tone = generator.harmonicTone(
      fundamentalHz: frequency, partialAmplitudes: (1...8).map { pow(0.7, Double($0 - 1)) }, length: .seconds(seconds))
    return tone.indices.map { Float(Double(tone[$0]) * gain(Double($0) / rate)) }
  }

  static func silence(_ seconds: Double) -> [Float] { generator.silence(length: .seconds(seconds)) }

  static func sounds(_ samples: [Float]) throws -> [PerformanceSound] {
    var configuration = SoundTracker.Configuration()
    configuration.fitRange(lowestHz: 200, highestHz: 400, sampleRate: rate)
    return try SoundTracker(configuration: configuration).sounds(in: samples, sampleRate: rate)
  }

  /// A 15 ms linear attack and a 40 ms release around a held level.
  static func shape(_ t: Double, seconds: Double, level: Double = 0.1) -> Double {
    level * min(1, t / 0.015, max(0, (seconds - t) / 0.04))
  }

  @Test func aVibratoSwellOfTheLevelIsOneSound() throws {
    // ±4 dB at 6 Hz for 1.6 s: swings of 8 dB from crest to trough, as a bowed vibrato's.
    let held = Self.tone(262, seconds: 1.6) { t in
      Self.shape(t, seconds: 1.6) * pow(10, 4 * sin(2 * .pi * 6 * t) / 20)
    }
    let samples = Self.silence(0.3) + held + Self.silence(0.5)
    let sounds = try Self.sounds(samples)
    #expect(sounds.count == 1, "\(sounds)")
    #expect(abs((sounds.first?.start ?? 0) - 0.3) <= 0.02)
  }

  @Test func aNoteRepeatedAfterAShortGapIsTwoSounds() throws {
    let note = Self.tone(262, seconds: 0.4) { Self.shape($0, seconds: 0.4) }
    let sounds = try Self.sounds(Self.silence(0.3) + note + Self.silence(0.035) + note + Self.silence(0.5))
    #expect(sounds.count == 2, "\(sounds)")
    #expect(abs((sounds.last?.start ?? 0) - 0.735) <= 0.02, "\(sounds)")
  }

  @Test func aHeldNoteSplitByAMomentUnderTheThresholdIsOneSound() {
    // One note held for 1.2 s that sags by 7 dB around 0.8 s: under noise the level tracker
    // lost it for 45 ms there (as on a violin take at 10 dB SNR) and cut it in two. On the
    // note's harmonics it fell by less than a note stopped and played again.
    let held = Self.tone(262, seconds: 1.2) { t in
      Self.shape(t, seconds: 1.2) * pow(10, -7 * max(0, 1 - abs(t - 0.52) / 0.06) / 20)
    }
    let samples = Self.silence(0.3) + held + Self.silence(0.5)
    let refiner = SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate)
    let before = PerformanceSound(start: 0.3, end: 0.8, frequencyHz: 262, peakLevelDBFS: -20)
    let after = PerformanceSound(start: 0.845, end: 1.5, frequencyHz: 262, peakLevelDBFS: -20)
    let joined = SoundTracker().joiningSwells([before, after], refiner: refiner)
    #expect(joined.count == 1, "\(joined)")
    #expect(joined.first?.start == 0.3 && joined.first?.end == 1.5)
    // The same gap after a note stopped and played again stays a gap.
    let note = Self.tone(262, seconds: 0.5) { Self.shape($0, seconds: 0.5) }
    let repeated = Self.silence(0.3) + note + Self.silence(0.045) + note + Self.silence(0.5)
    let again = PerformanceSound(start: 0.845, end: 1.35, frequencyHz: 262, peakLevelDBFS: -20)
    let split = SoundTracker().joiningSwells(
      [before, again], refiner: SoundBoundaryRefiner(samples: repeated, sampleRate: Self.rate))
    #expect(split.count == 2, "\(split)")
  }

  /// E4 held 0.6 s from 0.3 s, released over about `release` seconds, and played again `gap`
  /// after the release began (or `againHz`, an octave up, say), its partials restarting in
  /// another phase and rising over 0.12 s.
  static func repeatedUnderItsRelease(gap: Double, release: Double = 0.1, againHz: Double = 330) -> [Float] {
    let partials = (1...8).map { pow(0.7, Double($0 - 1)) }
    let first = generator.harmonicTone(fundamentalHz: 330, partialAmplitudes: partials, length: .seconds(1.5))
    let second = generator.harmonicTone(
      fundamentalHz: againHz, partialAmplitudes: partials.indices.map { $0 % 2 == 1 ? -partials[$0] : partials[$0] },
      length: .seconds(1.5))
    let (held, attack) = (0.6, 0.12)
    var samples = silence(0.3)
    for n in first.indices {
      let t = Double(n) / rate
      let one = t < held ? 0.1 * min(1, t / 0.02) : 0.1 * exp(-(t - held) / (release / 2.3))
      let u = t - held - gap
      let two = u < 0 ? 0 : 0.1 * min(1, u / attack) * min(1, max(0, (0.6 - u) / 0.05))
      samples.append(Float(Double(first[n]) * one + Double(second[n]) * two))
    }
    return samples
  }

  @Test func aNoteRepeatedUnderItsReleaseIsTimedAtItsAttack() throws {
    // The same note again 70 ms after the release began (a bow or a breath, not a tongue). The
    // level never dips far enough for the pitch track to part them, but the harmonics do: the
    // second sound starts where the first stopped (so that the two stay contiguous) and is
    // timed at its attack, not 66 ms early with that start.
    let samples = Self.repeatedUnderItsRelease(gap: 0.07)
    var configuration = SoundTracker.Configuration()
    configuration.fitRange(lowestHz: 200, highestHz: 600, sampleRate: Self.rate)
    let sounds = try SoundTracker(configuration: configuration).sounds(in: samples, sampleRate: Self.rate)
    #expect(sounds.count == 2, "\(sounds)")
    guard sounds.count == 2 else { return }
    #expect(abs(sounds[1].start - sounds[0].end) < 0.005, "\(sounds)")
    #expect(abs(sounds[1].onset - (0.3 + 0.6 + 0.07)) <= 0.025, "\(sounds)")
  }

  @Test func aLegatoNoteEndsWhereTheNextBegins() throws {
    // E4 from 0.3 s, then C5 at 0.9 s with no gap, the E4 fading over 80 ms under it; the
    // pitch track noticed the change 50 ms late. The E4's end, looked for before the C5's start
    // was refined, ran to where the track noticed the C5 (50 ms past its start).
    let partials = (1...8).map { pow(0.7, Double($0 - 1)) }
    let first = Self.generator.harmonicTone(fundamentalHz: 330, partialAmplitudes: partials, length: .seconds(1.5))
    let second = Self.generator.harmonicTone(fundamentalHz: 523, partialAmplitudes: partials, length: .seconds(1.5))
    var samples = Self.silence(0.3)
    for n in first.indices {
      let t = Double(n) / Self.rate
      let one = t < 0.6 ? 0.1 * min(1, t / 0.02) : 0.1 * exp(-(t - 0.6) / 0.08)
      let two = t < 0.6 ? 0 : 0.1 * min(1, (t - 0.6) / 0.04)
      samples.append(Float(Double(first[n]) * one + Double(second[n]) * two))
    }
    var configuration = SoundTracker.Configuration()
    configuration.fitRange(lowestHz: 200, highestHz: 800, sampleRate: Self.rate)
    let tracker = SoundTracker(configuration: configuration)
    let estimates = try tracker.track(samples, sampleRate: Self.rate).estimates
    let sounds = [
      PerformanceSound(start: 0.3, end: 0.95, frequencyHz: 330, peakLevelDBFS: -20, boundary: .onset),
      PerformanceSound(start: 0.95, end: 1.8, frequencyHz: 523, peakLevelDBFS: -20, boundary: .pitchChange),
    ]
    let refined = tracker.refined(
      sounds, estimates: estimates, refiner: SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate))
    #expect(refined.count == 2)
    guard refined.count == 2 else { return }
    #expect(refined[0].end <= refined[1].start, "\(refined)")
    #expect(abs(refined[0].end - 0.9) <= 0.01, "\(refined)")
  }

  /// E4 and the note played `gap` after its release began
  /// (``repeatedUnderItsRelease(gap:release:againHz:)``), as two sounds the pitch track parted
  /// `noticed` seconds after the second note began, refined; and that note's onset.
  static func refinedAfterRelease(
    gap: Double, release: Double, againHz: Double, noticed: Double, boundary: NoteSegment.Boundary
  ) throws -> (sounds: [PerformanceSound], onset: Double) {
    let samples = repeatedUnderItsRelease(gap: gap, release: release, againHz: againHz)
    var configuration = SoundTracker.Configuration()
    configuration.fitRange(lowestHz: 200, highestHz: max(600, againHz + 140), sampleRate: rate)
    let tracker = SoundTracker(configuration: configuration)
    let estimates = try tracker.track(samples, sampleRate: rate).estimates
    let onset = 0.3 + 0.6 + gap
    let first = PerformanceSound(start: 0.3, end: 0.93, frequencyHz: 330, peakLevelDBFS: -20, boundary: .onset)
    let second = PerformanceSound(
      start: onset + noticed, end: 1.5, frequencyHz: againHz, peakLevelDBFS: -20, boundary: boundary)
    let refined = tracker.refined(
      [first, second], estimates: estimates, refiner: SoundBoundaryRefiner(samples: samples, sampleRate: rate))
    return (refined, onset)
  }

  @Test func anOctaveLeapSoonAfterAStopIsTimedAtItsAttack() throws {
    // E5 40 ms after the E4's release began: every harmonic of the E5 is one of the E4's, so
    // the two sounds stay contiguous, but the E5 is timed at its attack under the E4's decay,
    // not at the E4's stop (40 ms early).
    let (refined, onset) = try Self.refinedAfterRelease(
      gap: 0.04, release: 0.1, againHz: 660, noticed: 0.05, boundary: .pitchChange)
    #expect(refined.count == 2)
    guard refined.count == 2 else { return }
    #expect(abs(refined[1].onset - onset) <= 0.015, "\(refined)")
  }

  @Test func aRepeatWhoseHarmonicsFellLessThanABreakIsStillTimedAtItsAttack() throws {
    // Released over 0.15 s and played again 45 ms after the release began: by then the
    // harmonics have fallen 9 dB, less than a note's break (a flute's or a trumpet's quick
    // repeat). Split where the pitch track parted them, the second sound is timed at its
    // attack, not at the first one's stop (50 ms early), as it was while only a fall of
    // `breakDecibels` counted.
    let (refined, onset) = try Self.refinedAfterRelease(
      gap: 0.045, release: 0.15, againHz: 330, noticed: 0.04, boundary: .onset)
    #expect(refined.count == 2)
    guard refined.count == 2 else { return }
    #expect(abs(refined[1].onset - onset) <= 0.025, "\(refined)")
  }

  @Test func theRoomsRingAfterANoteIsNoSound() throws {
    // The note, then its ring: 12 dB down, fading at 40 dB/s while it swells and sinks by
    // ±6 dB as the room's modes beat, 0.9 s long; nothing else.
    let note = Self.tone(262, seconds: 0.5) { Self.shape($0, seconds: 0.5) }
    let ring = Self.tone(262, seconds: 0.9) { t in
      0.025 * min(1, t / 0.01) * pow(10, (-40 * t + 6 * sin(2 * .pi * 5 * t)) / 20)
    }
    let sounds = try Self.sounds(Self.silence(0.3) + note + Self.silence(0.05) + ring + Self.silence(0.5))
    #expect(sounds.count == 1, "\(sounds)")
    #expect(abs((sounds.first?.end ?? 0) - 0.8) <= 0.1, "\(sounds)")
  }

  @Test func theRoomRingingWithTheNoteBeforeTheLastIsNoSound() {
    // C4 (0.3–0.8 s, -12 dB), E4 (0.8–1.0 s), then C4 again at 1.0 s, 12 dB under the first
    // and fading at 60 dB/s: from its first frame (the room still ringing with the first C4),
    // or after an attack of its own (played again, short).
    let first = PerformanceSound(start: 0.3, end: 0.8, frequencyHz: 262, peakLevelDBFS: -12)
    let second = PerformanceSound(start: 0.8, end: 1.0, frequencyHz: 330, peakLevelDBFS: -14, boundary: .pitchChange)
    let again = PerformanceSound(start: 1.0, end: 1.4, frequencyHz: 262, peakLevelDBFS: -24, boundary: .pitchChange)
    func estimates(attack: Bool) -> [PitchEstimate] {
      (0..<150).map { i in
        let t = Double(i) * 0.01
        let level: Double =
          t < 0.3 ? -80 : t < 0.8 ? -12 : t < 1.0 ? -14
          : attack ? min(-40 + 800 * (t - 1.0), -24 - 60 * (t - 1.02)) : -24 - 60 * (t - 1.0)
        let frequency: Double = t < 0.3 ? 0 : t < 0.8 ? 262 : t < 1.0 ? 330 : 262
        return PitchEstimate(time: t, frequencyHz: frequency, confidence: 0.9, levelDBFS: level)
      }
    }
    let tracker = SoundTracker()
    let ringing = tracker.withoutRings([first, second, again], estimates: estimates(attack: false))
    #expect(ringing.map(\.frequencyHz) == [262, 330], "\(ringing)")
    let played = tracker.withoutRings([first, second, again], estimates: estimates(attack: true))
    #expect(played.map(\.frequencyHz) == [262, 330, 262], "\(played)")
  }

  @Test func aTailWellUnderWhereTheNoteStoppedIsNoSoundThoughItHolds() {
    // C4 (0.3–0.8 s, -12 dB, -16 dB where it stops), a gap, then from 0.9 s C4 again for
    // 0.3 s, its level wavering by 2 dB: 12 dB under the note's peak and 8 dB under where it
    // stopped (the room's modes, re-tracked as a sound: neither 15 dB under nor fading, so the
    // other rules kept it), or 7 dB under its peak (the note played again, quieter).
    let first = PerformanceSound(start: 0.3, end: 0.8, frequencyHz: 262, peakLevelDBFS: -12)
    func kept(peak: Double) -> [PerformanceSound] {
      let again = PerformanceSound(start: 0.9, end: 1.2, frequencyHz: 262, peakLevelDBFS: peak)
      let estimates = (0..<150).map { i -> PitchEstimate in
        let t = Double(i) * 0.01
        let level: Double =
          t < 0.3 ? -80 : t < 0.8 ? -12 - 4 * (t - 0.3) / 0.5 : t < 0.9 ? -40
          : t < 1.2 ? peak - 1 - sin(2 * .pi * 10 * t) : -80
        return PitchEstimate(time: t, frequencyHz: t < 0.3 ? 0 : 262, confidence: 0.9, levelDBFS: level)
      }
      return SoundTracker().withoutRings([first, again], estimates: estimates)
    }
    #expect(kept(peak: -24).count == 1)
    #expect(kept(peak: -19).count == 2)
  }

  @Test func aConfigurationSavedBeforeASettingWasAddedStillLoads() throws {
    var configuration = SoundTracker.Configuration()
    configuration.echoSeconds = 0.5
    configuration.ringAttackDecibels = 4
    let saved = try JSONEncoder().encode(configuration)
    #expect(try JSONDecoder().decode(SoundTracker.Configuration.self, from: saved) == configuration)
    // Without the settings added since it was saved: their defaults; the rest as saved.
    var object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
    object["ringAttackDecibels"] = nil
    object["swellGapSeconds"] = nil
    object["ringEndDecibels"] = nil
    let old = try JSONSerialization.data(withJSONObject: object)
    let loaded = try JSONDecoder().decode(SoundTracker.Configuration.self, from: old)
    #expect(loaded.echoSeconds == 0.5)
    #expect(loaded.ringAttackDecibels == SoundTracker.Configuration().ringAttackDecibels)
    #expect(loaded.swellGapSeconds == SoundTracker.Configuration().swellGapSeconds)
    #expect(loaded.ringEndDecibels == SoundTracker.Configuration().ringEndDecibels)
    // A setting of the wrong type is still an error.
    object["echoSeconds"] = "long"
    let wrong = try JSONSerialization.data(withJSONObject: object)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(SoundTracker.Configuration.self, from: wrong) }
  }

  @Test func aNewNoteIsTimedUnderTheDecayOfTheSamePitch() throws {
    // The old note sinks slowly (0.05 dB a step) from step 40, then decays at 0.3 dB a step
    // from step 100; the new note rises linearly from step 150. A fit of the decay that starts
    // on the slow part sees the new note only once it passes the old level.
    let envelope = (0..<260).map { i -> Double in
      let decibels = i < 40 ? 0 : i < 100 ? -0.05 * Double(i - 40) : -3 - 0.3 * Double(i - 100)
      return pow(10, decibels / 20) + (i < 150 ? 0 : min(1, Double(i - 150) / 40))
    }
    let dip = try #require(envelope.indices.dropFirst(100).min { envelope[$0] < envelope[$1] })
    let onset = try #require(SoundBoundaryRefiner.riseUnderDecay(envelope, dipIndex: dip, peakIndex: 259)?.index)
    #expect(abs(onset - 150) <= 6, "\(onset)")
  }

  @Test func anAttackReadAnOctaveLowIsPartOfItsNote() {
    // 120 ms at 391 Hz from quiet, then the note itself at 783 Hz: the tracker's octave error
    // in a breathy attack, longer than a blip.
    let attack = PerformanceSound(start: 1, end: 1.12, frequencyHz: 391.5, peakLevelDBFS: -30, boundary: .onset)
    let note = PerformanceSound(start: 1.12, end: 1.6, frequencyHz: 783, peakLevelDBFS: -12, boundary: .pitchChange)
    let folded = SoundTracker().absorbingHarmonicBlips([attack, note])
    #expect(folded.count == 1)
    #expect(folded.first?.start == 1 && folded.first?.frequencyHz == 783 && folded.first?.boundary == .onset)
    // A short note (170 ms after the 120 ms read low, as the live tracker read a flute A5's
    // attack) keeps its attack too; a note shorter than the octave below it is two notes.
    var short = note
    short.end = 1.29
    #expect(SoundTracker().absorbingHarmonicBlips([attack, short]).count == 1)
    short.end = 1.23
    #expect(SoundTracker().absorbingHarmonicBlips([attack, short]).count == 2)
  }

  @Test func anAttackScoopedIntoPitchIsPartOfItsNote() {
    // 60 ms from quiet at 304 Hz (240 cents flat, as FluidR3's violin F4 starts), then the note
    // at 349 Hz: the note starts at the scoop, not where its pitch arrived. A blip from quiet a
    // tritone away is no scoop; nor is one that follows another sound with no quiet before it.
    let scoop = PerformanceSound(start: 1, end: 1.06, frequencyHz: 303.8, peakLevelDBFS: -30, boundary: .onset)
    let note = PerformanceSound(start: 1.06, end: 1.3, frequencyHz: 349.2, peakLevelDBFS: -16, boundary: .pitchChange)
    let folded = SoundTracker().absorbingHarmonicBlips([scoop, note])
    #expect(folded.count == 1)
    #expect(folded.first?.start == 1 && folded.first?.frequencyHz == 349.2 && folded.first?.boundary == .onset)
    var tritone = scoop
    tritone.frequencyHz = 349.2 / sqrt(2)
    #expect(SoundTracker().absorbingHarmonicBlips([tritone, note]).count == 2)
    var joined = scoop
    joined.boundary = .pitchChange
    #expect(SoundTracker().absorbingHarmonicBlips([joined, note]).count == 2)
  }

  @Test func aScoopLastingTheBlipLimitOnTheTracksGridIsFolded() {
    // The track's segments fall on its 10 ms hops: FluidR3's violin F4 in a room scooped in
    // from 2.83 to 2.93 s (100 ms, blipSeconds; 2.93 − 2.83 is a hair over 0.1 in floating
    // point, 0.3 − 0.2 a hair under), and was timed 50 ms late where its pitch arrived. Both
    // fold in; a scoop one hop longer does not.
    let tracker = SoundTracker()
    for (start, end) in [(2.83, 2.93), (0.2, 0.3)] {
      let scoop = PerformanceSound(start: start, end: end, frequencyHz: 303.8, peakLevelDBFS: -30, boundary: .onset)
      let note = PerformanceSound(
        start: end, end: end + 0.3, frequencyHz: 349.2, peakLevelDBFS: -16, boundary: .pitchChange)
      let folded = tracker.absorbingHarmonicBlips([scoop, note])
      #expect(folded.count == 1 && folded.first?.start == start, "\(start)–\(end)")
      var longer = scoop
      longer.end += tracker.configuration.hopSeconds
      var later = note
      later.start = longer.end
      #expect(tracker.absorbingHarmonicBlips([longer, later]).count == 2, "\(start)–\(end)")
    }
  }

  @Test func anAttackGlidingIntoPitchIsPartOfItsNote() {
    // TimGM6mb's flute A5 from quiet: its first frames read 1272, 1157 and 917 Hz while the
    // attack fills the window (six semitones over the note, further than a scoop), then the
    // note at 879 Hz; the note was timed where its pitch arrived, 55 ms late. It starts at the
    // glide. A blip that keeps its pitch (a grace note), one that turns away on its way in, and
    // an empty one are no glide.
    // The blip's pitch is its first point's (the raw sound's, 6 to 7 semitones off the note).
    func blip(_ frequencies: [Double]) -> PerformanceSound {
      var sound = PerformanceSound(start: 4.88, end: 4.94, frequencyHz: frequencies[0], peakLevelDBFS: -25, boundary: .onset)
      sound.pitchTrack = frequencies.enumerated().map { .init(time: 4.9 + 0.01 * Double($0.offset), frequencyHz: $0.element) }
      return sound
    }
    let note = PerformanceSound(start: 4.94, end: 5.24, frequencyHz: 878.8, peakLevelDBFS: -16, boundary: .pitchChange)
    let folded = SoundTracker().absorbingHarmonicBlips([blip([1272, 1157.3, 917.2]), note])
    #expect(folded.count == 1)
    #expect(folded.first?.start == 4.88 && folded.first?.frequencyHz == 878.8 && folded.first?.boundary == .onset)
    // From below, arriving and staying at the note's pitch (within 50 cents) after the glide.
    #expect(SoundTracker().absorbingHarmonicBlips([blip([619, 655, 701, 907, 884, 878]), note]).count == 1)
    for other in [[1272, 1271, 1273.5], [1272, 1157, 1200], [1272]] as [[Double]] {
      #expect(SoundTracker().absorbingHarmonicBlips([blip(other), note]).count == 2, "\(other)")
    }
    var empty = blip([1272])
    empty.pitchTrack = []
    #expect(SoundTracker().absorbingHarmonicBlips([empty, note]).count == 2)
  }

  @Test func anAttackReadAnOctaveLowIsOneSoundWithItsNoteOnceLifted() {
    // The live tracker's causal pitch track read a flute F#5's first 110 ms an octave low (369
    // Hz): too long for a blip beside a 210 ms note, so not folded in before refining. The
    // octave check lifts it to 739 Hz, and the note is one sound from its attack; it was two
    // (the first an extra sound, the note timed 45 ms late).
    let samples = Self.silence(0.3) + Self.tone(739, seconds: 0.4) { t in Self.shape(t, seconds: 0.4) } + Self.silence(0.3)
    let estimates = stride(from: 0.0, to: 1.0, by: 0.01).map { t in
      PitchEstimate(time: t, frequencyHz: t < 0.3 || t > 0.7 ? 0 : t < 0.41 ? 369.5 : 739, confidence: 0.9, levelDBFS: t < 0.3 || t > 0.7 ? -90 : -20)
    }
    var attack = PerformanceSound(start: 0.3, end: 0.41, frequencyHz: 369.5, peakLevelDBFS: -20, boundary: .onset)
    attack.pitchTrack = SoundTracker.points(of: estimates, from: 0.3, to: 0.41)
    var note = PerformanceSound(start: 0.41, end: 0.62, frequencyHz: 739, peakLevelDBFS: -20, boundary: .pitchChange)
    note.pitchTrack = SoundTracker.points(of: estimates, from: 0.41, to: 0.62)
    let refiner = SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate)
    let sounds = SoundTracker().refined([attack, note], estimates: estimates, refiner: refiner)
    #expect(sounds.count == 1, "\(sounds)")
    #expect(abs((sounds.first?.start ?? 0) - 0.3) <= 0.015 && abs((sounds.first?.frequencyHz ?? 0) - 739) < 5, "\(sounds)")
  }

  @Test func anOctaveLowReadingUnderThePreviousNotesRingIsLifted() {
    // A C4 rings on under an F4 read as F3 (174.6 Hz): the C4's 2nd harmonic is the F3's 3rd,
    // over a tenth of the even harmonics, so the plain check keeps F3; leaving out the
    // harmonics on the C4's, the odd ones are empty and the note is the F4.
    let c4 = Self.tone(261.6, seconds: 0.7) { _ in 0.05 }
    let f4 = Self.silence(0.2) + Self.tone(349.2, seconds: 0.5) { t in Self.shape(t, seconds: 0.5) }
    let refiner = SoundBoundaryRefiner(samples: zip(c4, f4).map { $0 + $1 }, sampleRate: Self.rate)
    let sound = PerformanceSound(start: 0.2, end: 0.6, frequencyHz: 174.6, peakLevelDBFS: -20, boundary: .pitchChange)
    #expect(refiner.octaveChecked(sound) == 174.6)
    #expect(refiner.octaveChecked(sound, ringing: 261.6) == 349.2)
    // A ring so low that its harmonics leave fewer than two odd and two even ones clear
    // changes nothing.
    #expect(refiner.octaveChecked(sound, ringing: 70) == 174.6)
  }

  @Test func anOctaveAboveThePreviousNoteReadAtItsPitchIsLiftedByItsAttack() {
    // An E4 to 0.4 s ringing on 17 dB under, an E5 from 0.5 s that the pitch track read as an
    // E4 from 0.62 s: its attack raises only the even harmonics, and it is the E5.
    let seconds = 1.0
    let ring = Self.tone(329.6, seconds: seconds) { t in t < 0.05 ? 0 : t < 0.4 ? 0.1 : 0.1 * pow(10, -17.0 / 20) }
    let upper = Self.silence(0.5) + Self.tone(659.3, seconds: 0.5) { t in 0.1 * min(1, t / 0.01) }
    let estimates = stride(from: 0.0, to: seconds, by: 0.01).map { t in
      PitchEstimate(
        time: t, frequencyHz: t < 0.05 || (t > 0.4 && t < 0.62) ? 0 : 329.6, confidence: 0.9,
        levelDBFS: t > 0.4 && t < 0.5 ? -37 : -20)
    }
    var previous = PerformanceSound(start: 0.05, end: 0.4, frequencyHz: 329.6, peakLevelDBFS: -20, boundary: .onset)
    previous.pitchTrack = SoundTracker.points(of: estimates, from: 0.05, to: 0.4)
    var sound = PerformanceSound(start: 0.62, end: 0.95, frequencyHz: 329.6, peakLevelDBFS: -20, boundary: .onset)
    sound.pitchTrack = SoundTracker.points(of: estimates, from: 0.62, to: 0.95)
    let refiner = SoundBoundaryRefiner(samples: zip(ring, upper).map { $0 + $1 }, sampleRate: Self.rate)
    let sounds = SoundTracker().refined([previous, sound], estimates: estimates, refiner: refiner)
    #expect(sounds.count == 2, "\(sounds)")
    #expect(abs((sounds.last?.frequencyHz ?? 0) - 659.2) < 1, "\(sounds.map(\.frequencyHz))")
    #expect(abs((sounds.last?.start ?? 0) - 0.5) < 0.02, "\(sounds.map(\.start))")
  }

  @Test func aNoteEndsWhereItStopsNotWhereTheRoomsRingFades() {
    // The note stops at 0.8 s; the room holds its pitch 11 dB down for half a second, then
    // fades over 0.3 s. The sound lasts until the note's release, not the ring's.
    let seconds = 1.3
    let ringing = Self.tone(262, seconds: seconds) { t in
      t < 0.5 ? Self.shape(t, seconds: 0.5) + 0.028 * max(0, (t - 0.46) / 0.04) : 0.028 * min(1, max(0, (seconds - t) / 0.3))
    }
    let sounds = (try? Self.sounds(Self.silence(0.3) + ringing + Self.silence(0.5))) ?? []
    #expect(sounds.count == 1, "\(sounds)")
    // Within 0.1 s (the ring swells in under the release); 0.63 s late when the end's search
    // looked back only 0.45 s from where the ring faded.
    #expect(abs((sounds.first?.end ?? 0) - 0.8) <= 0.1, "\(sounds)")
  }

  @Test func aDipInNonFiniteSamplesIsNoDecision() {
    var samples = Self.tone(262, seconds: 1) { Self.shape($0, seconds: 1) }
    for n in 20_000..<20_400 { samples[n] = n % 2 == 0 ? .nan : .infinity }
    let dip = SoundBoundaryRefiner(samples: samples, sampleRate: Self.rate).dip(at: 0.46, frequencyHz: 262)
    #expect(dip.fall.isNaN && dip.rise.isNaN)
  }
}
