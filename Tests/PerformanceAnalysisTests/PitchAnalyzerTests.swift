import Foundation
import PerformanceTracking
import Testing

@testable import PerformanceAnalysis

/// Pitch zones, the nearest-semitone test, octaves, brass partials and wavering.
@Suite struct PitchAnalyzerTests {
  /// The grade of A4 (or `midi`) played `cents` off, or at `playedMIDI`.
  static func grade(
    midi: Int = 69, written: Int? = nil, cents: Double = 0, playedMIDI: Double? = nil,
    tolerances: Tolerances = .intermediate, partials: PartialTable? = nil
  ) -> Grade? {
    let note = GradingFixture.note(0, midi, start: 0, duration: 0.5, written: written)
    let sound = GradingFixture.played(note, cents: cents, playedMIDI: playedMIDI)
    return GradingFixture.grade(
      PitchAnalyzer(), note: note, sound: sound, tolerances: tolerances, partials: partials)
  }

  @Test(arguments: [
    (0.0, Rating.correct), (10, .correct), (-19.9, .correct), (20.1, .aBitSharp), (-25, .aBitFlat),
    (34.9, .aBitSharp), (35.1, .verySharp), (-45, .veryFlat), (49.9, .verySharp), (-49.9, .veryFlat),
  ])
  func zonesWithinTheNote(cents: Double, rating: Rating) throws {
    let grade = try #require(Self.grade(cents: cents))
    #expect(grade.rating == rating)
    #expect(abs(grade.measurements["cents"]! - cents) < 1e-9)
    #expect(grade.measurements["expectedHz"] == 440)
    #expect(grade.category == .pitch)
  }

  @Test(arguments: [50.1, -50.1, 70, -100, 200, -300, 700])
  func beyondTheNearestSemitoneBoundaryItIsAWrongNote(cents: Double) throws {
    let grade = try #require(Self.grade(cents: cents))
    #expect(grade.rating == .wrongNote)
    #expect(grade.score == 5)
  }

  @Test(arguments: [1200.0, -1200, 2400, 1230])
  func theSameNoteInAnotherOctave(cents: Double) throws {
    #expect(try #require(Self.grade(cents: cents)).rating == .octave)
  }

  @Test func theSeveritiesFollowTheTable() throws {
    #expect(try #require(Self.grade(cents: 25)).score == 1)
    #expect(try #require(Self.grade(cents: 40)).score == 3)
    #expect(try #require(Self.grade(cents: 1200)).score == 5)
    #expect(try #require(Self.grade(cents: 0)).score == 0)
  }

  @Test func thePlayedNoteIsLabelledAsThePlayerReadsIt() throws {
    #expect(try #require(Self.grade(midi: 60, cents: 210)).labels["playedPitch"] == "D4")
    // A B♭ trumpet: written two semitones above sounding.
    #expect(try #require(Self.grade(midi: 70, written: 72, cents: 100)).labels["playedPitch"] == "C#5")
  }

  // MARK: Brass partials (B♭ trumpet, written C5 = sounding B♭4 on the open fingering)

  /// The sounding MIDI pitch of partial `n` of a fingering whose 4th partial sounds at `fourth`,
  /// in natural tuning.
  static func natural(_ n: Int, fourth: Double) -> Double { fourth + 12 * log2(Double(n) / 4) }

  @Test(arguments: [
    (5, Rating.upperPartial), (6, .upperPartial), (8, .upperPartial), (3, .lowerPartial), (2, .lowerPartial),
  ])
  func anotherPartialOfTheOpenFingering(partial: Int, rating: Rating) throws {
    let grade = try #require(
      Self.grade(midi: 70, written: 72, playedMIDI: Self.natural(partial, fourth: 70), partials: .trumpet))
    #expect(grade.rating == rating)
    #expect(grade.measurements["partial"] == Double(partial))
    #expect(grade.score == 6)
  }

  @Test func theUpperPartialIsNamedAsWritten() throws {
    let grade = try #require(
      Self.grade(midi: 70, written: 72, playedMIDI: Self.natural(5, fourth: 70), partials: .trumpet))
    #expect(grade.labels["playedPitch"] == "E5")
    // The 5th partial sits 14 cents under its tempered note.
    #expect(abs(grade.measurements["cents"]! - 386.31) < 0.01)
  }

  @Test func aPartialOfAValvedFingering() throws {
    // Written D5 is the 5th partial of valve 1; its 6th is written F5. Valve 1's 2nd partial
    // sounds A♭3 (56): the 6th lies a twelfth and 2 cents above it.
    let played = 56 + 12 * log2(3.0)
    let grade = try #require(Self.grade(midi: 72, written: 74, playedMIDI: played, partials: .trumpet))
    #expect(grade.rating == .upperPartial)
    #expect(grade.measurements["partial"] == 6)
    #expect(grade.labels["playedPitch"] == "F5")
  }

  @Test func aNoteOffEveryPartialIsAWrongNoteEvenOnBrass() throws {
    // Written D5 for a written C5: no partial of the open fingering lies there.
    let grade = try #require(Self.grade(midi: 70, written: 72, playedMIDI: 72, partials: .trumpet))
    #expect(grade.rating == .wrongNote)
    #expect(grade.measurements["partial"] == nil)
  }

  @Test func withoutAPartialTableTheOctaveBelowIsAnOctave() throws {
    let played = Self.natural(2, fourth: 70)
    #expect(try #require(Self.grade(midi: 70, written: 72, playedMIDI: played)).rating == .octave)
    #expect(
      try #require(Self.grade(midi: 70, written: 72, playedMIDI: played, partials: .trumpet)).rating
        == .lowerPartial)
  }

  @Test func aPartialMustLieNearItsNaturalPitch() throws {
    // 60 cents above the natural 5th partial: beyond partialCents (40), a wrong note.
    let grade = try #require(
      Self.grade(midi: 70, written: 72, playedMIDI: Self.natural(5, fourth: 70) + 0.6, partials: .trumpet))
    #expect(grade.rating == .wrongNote)
  }

  // MARK: Wavering

  /// A one-second A4 whose track is `cents(t)` around 440 Hz, every 10 ms.
  static func wavering(stableCents: Double = 0, _ cents: (Double) -> Double) -> Grade? {
    let note = GradingFixture.note(0, 69, start: 0, duration: 1)
    let track = (0...100).map { k -> PerformanceSound.PitchPoint in
      let t = Double(k) * 0.01
      return .init(time: t, frequencyHz: GradingFixture.hz(69, cents: stableCents + cents(t)))
    }
    let sound = GradingFixture.sound(start: 0, seconds: 1, midi: 69, cents: stableCents, track: track)
    return GradingFixture.grade(PitchAnalyzer(), note: note, sound: sound)
  }

  @Test func aPitchGlidingThroughTheNoteWavers() throws {
    let grade = try #require(Self.wavering { -60 + 120 * $0 })
    #expect(grade.rating == .wavering)
    #expect(grade.measurements["waveringCents"]! > 60)
    #expect(grade.score == 2)
  }

  @Test func vibratoAveragesOut() throws {
    let grade = try #require(Self.wavering { 40 * sin(2 * Double.pi * 6 * $0) })
    #expect(grade.rating == .correct)
    #expect(grade.measurements["waveringCents"]! < 60)
  }

  @Test func aSteadyPitchDoesNotWaver() throws {
    let grade = try #require(Self.wavering { _ in 0 })
    #expect(grade.rating == .correct)
    #expect(abs(grade.measurements["waveringCents"]!) < 1e-9)
  }

  @Test func anOutOfTuneNoteKeepsItsRatingEvenWhenItWavers() throws {
    let grade = try #require(Self.wavering(stableCents: 25) { -60 + 120 * $0 })
    #expect(grade.rating == .aBitSharp)
    #expect(grade.measurements["waveringCents"]! > 60)
  }

  @Test func aTrackTooShortToJudgeIsNotMeasured() throws {
    let note = GradingFixture.note(0, 69, start: 0, duration: 0.2)
    let track = (0...20).map {
      PerformanceSound.PitchPoint(time: Double($0) * 0.01, frequencyHz: 440 + Double($0 * 3))
    }
    let sound = GradingFixture.sound(start: 0, seconds: 0.2, midi: 69, track: track)
    let grade = try #require(GradingFixture.grade(PitchAnalyzer(), note: note, sound: sound))
    #expect(grade.measurements["waveringCents"] == nil)
    #expect(grade.rating == .correct)
  }

  // MARK: What is not graded

  @Test func missedNotesRestsAndUnpitchedSoundsHaveNoPitchGrade() {
    let note = GradingFixture.note(0, 69, start: 0)
    #expect(GradingFixture.grade(PitchAnalyzer(), note: note, sound: nil) == nil)
    let rest = GradingFixture.note(0, nil, start: 0)
    #expect(
      GradingFixture.grade(
        PitchAnalyzer(), note: rest, sound: GradingFixture.sound(start: 0, seconds: 0.4, midi: 69)) == nil)
    let noise = PerformanceSound(start: 0, end: 0.4, frequencyHz: 0, peakLevelDBFS: -20)
    #expect(GradingFixture.grade(PitchAnalyzer(), note: note, sound: noise) == nil)
  }

  @Test func anotherA4MovesEveryZone() throws {
    var tolerances = Tolerances.intermediate
    tolerances.pitch.a4Hz = 442
    let note = GradingFixture.note(0, 69, start: 0)
    func grade(_ hz: Double) throws -> Grade {
      let sound = PerformanceSound(start: 0, end: 0.4, frequencyHz: hz, peakLevelDBFS: -10)
      return try #require(
        GradingFixture.grade(PitchAnalyzer(), note: note, sound: sound, tolerances: tolerances))
    }
    #expect(try grade(442).rating == .correct)
    #expect(try grade(442).measurements["expectedHz"] == 442)
    #expect(try grade(432).rating == .veryFlat)  // 40 cents under 442, 23 under 440
  }
}
