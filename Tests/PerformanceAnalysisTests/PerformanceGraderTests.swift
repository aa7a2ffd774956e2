import PerformanceTracking
import PitchDSP
import Testing

@testable import PerformanceAnalysis

/// A grader's own analyzer, to show the seam: rates every played note `breathy`.
struct BreathAnalyzer: NoteAnalyzer {
  var category: GradeCategory { "tone" }

  func grade(note index: Int, in context: AnalysisContext) -> Grade? {
    guard context.sound(index) != nil else { return nil }
    return Grade(category: category, rating: "breathy", score: context.tolerances.score(for: "breathy"))
  }
}

/// The whole grade of a take: missed notes, severity sums, the overall score, bars, intonation
/// trends, tempo drift, and the analyzer seam.
@Suite struct PerformanceGraderTests {
  /// Bar 1: A4 B4 C♯5 D5; bar 2: a rest, E5 F♯5 F♯4. B4 is 70 ms late, short and 25 cents
  /// sharp; C♯5 is missed (its pitch sounds, unclaimed, during the rest); the rest is not silent.
  static func take() -> PerformanceAlignment {
    let pitches: [Int?] = [69, 71, 73, 74, nil, 76, 78, 66]
    let notes = pitches.enumerated().map { i, midi in
      GradingFixture.note(i, midi, start: 0.5 * Double(i), measure: i < 4 ? 1 : 2)
    }
    var pairs = notes.map { ($0, $0.isRest ? nil : Optional(GradingFixture.played($0, latency: 0.2))) }
    pairs[1].1 = GradingFixture.played(notes[1], delay: 0.07, latency: 0.2, ratio: 0.6, cents: 25)
    pairs[2].1 = nil
    let duringRest = GradingFixture.sound(start: 2.1 + 0.2, seconds: 0.2, midi: 73)
    return GradingFixture.alignment(pairs, extra: [duringRest], latency: 0.2)
  }

  @Test func aMissedNoteIsMissedAndHasNoPitchGrade() throws {
    let grades = PerformanceGrader().grade(Self.take())
    let missed = grades.notes[2]
    #expect(missed.status == .missed)
    #expect(missed.sound == nil)
    // The original app rated a missed note good on pitch: it must have no pitch grade at all.
    #expect(missed.grades.isEmpty)
    #expect(missed.grade(.pitch) == nil)
    #expect(missed.problems == [.missed])
    #expect(missed.score == 10)
  }

  /// A pitch track every 10 ms over the take, at `frequency` from 1.15 to 1.6 s (around when
  /// C♯5 is due, 1.2 s on the audio), unvoiced elsewhere.
  static func pitchTrack(_ frequency: Double) -> [PitchEstimate] {
    (0..<400).map { i in
      let t = Double(i) * 0.01
      let voiced = t >= 1.15 && t < 1.6
      return PitchEstimate(time: t, frequencyHz: voiced ? frequency : 0, confidence: voiced ? 0.9 : 0, levelDBFS: -20)
    }
  }

  @Test func aMissedNoteWhosePitchWasHeardRanksBehindSureOnes() throws {
    let grader = PerformanceGrader()
    // Its pitch (or an octave off) heard where it was due, with no sound of its own linked:
    // still missed, at half the severity.
    for heard in [554.37, 277.18] {
      let missed = grader.grade(Self.take(), pitchTrack: Self.pitchTrack(heard)).notes[2]
      #expect(missed.status == .missed && missed.problems == [.missed])
      #expect(missed.score == 5, "heard at \(heard) Hz")
    }
    // Another pitch there, or no pitch track: sure.
    #expect(grader.grade(Self.take(), pitchTrack: Self.pitchTrack(523.25)).notes[2].score == 10)
    #expect(grader.grade(Self.take()).notes[2].score == 10)
    // The rule is a tolerance: off when the share needed is above 1.
    var tolerances = Tolerances.intermediate
    tolerances.missed.heardShare = 1.1
    #expect(PerformanceGrader(tolerances: tolerances).grade(Self.take(), pitchTrack: Self.pitchTrack(554.37)).notes[2].score == 10)
  }

  @Test func aNotesScoreIsTheSumOfItsGrades() throws {
    let grades = PerformanceGrader().grade(Self.take())
    let note = grades.notes[1]
    #expect(note.status == .played)
    #expect(note.grades.map(\.category) == [.timing, .duration, .pitch])
    #expect(note.grades.map(\.rating) == [.aBitLate, .aBitShort, .aBitSharp])
    #expect(note.problems == [.aBitLate, .aBitShort, .aBitSharp])
    #expect(note.score == 3 + 1 + 1)
    // A clean note: every grade correct, nothing to report.
    #expect(grades.notes[0].score == 0 && grades.notes[0].problems.isEmpty)
    #expect(grades.notes[0].grades.count == 3)
  }

  @Test func theRestIsGradedAndItsSoundIsExtra() throws {
    let grades = PerformanceGrader().grade(Self.take())
    let rest = grades.notes[4]
    #expect(rest.status == .rest)
    #expect(rest.grades.map(\.rating) == [.soundDuringRest])
    #expect(rest.score == 4)
    // Extra sounds come back on the score's time line.
    #expect(grades.extraSounds.count == 1)
    #expect(abs(grades.extraSounds[0].start - 2.1) < 1e-9)
  }

  @Test func linkedSoundsComeBackOnTheScoresTimeLineAsExtraOnesDo() throws {
    let take = Self.take()
    let grades = PerformanceGrader().grade(take)
    // B4 is due at 0.5 s and played 70 ms late, 0.77 s on the audio (200 ms of latency).
    let audio = try #require(take.sound(forNote: 1))
    let sound = try #require(grades.notes[1].sound)
    #expect(abs(audio.start - 0.77) < 1e-9)
    #expect(abs(sound.start - 0.57) < 1e-9 && abs(sound.end - (audio.end - 0.2)) < 1e-9)
    #expect(abs(sound.onset - (take.onset(ofSound: take.soundIndices[1]!))) < 1e-9)
  }

  @Test func theOverallScoreIsTheMeanOfEachNotesShareOfAMiss() {
    let grades = PerformanceGrader().grade(Self.take())
    // Seven pitched notes: five clean (1 each), B4 at 5 of 10 (0.5), C♯5 missed (0).
    #expect(abs(grades.overallScore - 100 * 5.5 / 7) < 1e-9)
  }

  @Test func aPerfectTakeScoresAHundredAndAnEmptyOneToo() {
    let notes = (0..<6).map { GradingFixture.note($0, 60 + $0, start: 0.5 * Double($0)) }
    let perfect = GradingFixture.alignment(notes.map { ($0, GradingFixture.played($0)) })
    #expect(PerformanceGrader().grade(perfect).overallScore == 100)
    let allMissed = GradingFixture.alignment(notes.map { ($0, nil) })
    #expect(PerformanceGrader().grade(allMissed).overallScore == 0)
    let onlyRests = GradingFixture.alignment([(GradingFixture.note(0, nil, start: 0), nil)])
    #expect(PerformanceGrader().grade(onlyRests).overallScore == 100)
  }

  @Test func aNoteWorseThanAMissCountsAsAMissNotLess() {
    // Among clean notes, one very late (6), far too short (3) and a wrong note (5): 14, beyond
    // the 10 of a miss.
    let notes = (0..<5).map { GradingFixture.note($0, 60 + $0, start: 0.5 * Double($0)) }
    var pairs = notes.map { ($0, Optional(GradingFixture.played($0))) }
    pairs[2].1 = GradingFixture.played(notes[2], delay: 0.3, ratio: 0.1, cents: 200)
    let grades = PerformanceGrader().grade(GradingFixture.alignment(pairs))
    #expect(grades.notes[2].grades.map(\.rating) == [.veryLate, .tooShort, .wrongNote])
    #expect(grades.notes[2].score == 14)
    #expect(abs(grades.overallScore - 80) < 1e-9)
  }

  @Test func barsSumTheirNotes() {
    let bars = PerformanceGrader().grade(Self.take()).bars
    #expect(bars.map(\.measure) == [1, 2])
    #expect(bars.map(\.notes) == [4, 3])
    #expect(bars.map(\.notesWithProblems) == [2, 0])
    #expect(bars.map(\.severity) == [15, 4])
    #expect(bars[0].meanSeverity == 15.0 / 4)
    #expect(abs(bars[1].meanSeverity - 4.0 / 3) < 1e-12)
  }

  @Test func customSeveritiesChangeScoresAndTheOverall() {
    var tolerances = Tolerances.intermediate
    tolerances.severity["missed"] = 20
    tolerances.severity["aBitLate"] = 0
    let grades = PerformanceGrader(tolerances: tolerances).grade(Self.take())
    #expect(grades.notes[2].score == 20)
    #expect(grades.notes[1].score == 2)
    #expect(abs(grades.overallScore - 100 * (5 + 0.9) / 7) < 1e-9)
  }

  @Test func intonationTrendsSpeakToTheStudent() throws {
    // (written MIDI, cents): three F♯s about 25 sharp, two B♭s 30 flat, one A 31 sharp, two C
    // a little sharp, and a wrong note that is not intonation.
    let played: [(Int, Double)] = [
      (66, 25), (78, 27), (66, 23), (70, -30), (70, -30), (69, 31), (72, 10), (72, 14), (74, 120),
    ]
    let notes = played.indices.map { GradingFixture.note($0, played[$0].0, start: 0.5 * Double($0)) }
    let take = GradingFixture.alignment(
      zip(notes, played).map { ($0, GradingFixture.played($0, cents: $1.1)) })
    let trends = PerformanceGrader().grade(take).intonation
    #expect(trends.map(\.pitchClass) == ["A", "B♭", "F♯", "C"])
    #expect(trends.map(\.notes) == [1, 2, 3, 2])
    let fSharp = try #require(trends.first { $0.pitchClass == "F♯" })
    #expect(abs(fSharp.meanCents - 25) < 1e-6)
    #expect(fSharp.message == "Your F♯s run 25 cents sharp.")
    #expect(trends.first { $0.pitchClass == "B♭" }?.message == "Your B♭s run 30 cents flat.")
    // One note is no trend; a mean inside the correct zone needs no word.
    #expect(trends.first { $0.pitchClass == "A" }?.message == nil)
    #expect(trends.first { $0.pitchClass == "C" }?.message == nil)
  }

  @Test func intonationNamesNotesAsWritten() throws {
    // A B♭ trumpet: sounding E4 is written F♯4.
    let notes = (0..<3).map { GradingFixture.note($0, 64, start: 0.5 * Double($0), written: 66) }
    let take = GradingFixture.alignment(notes.map { ($0, GradingFixture.played($0, cents: -28)) })
    let trend = try #require(PerformanceGrader().grade(take, partials: .trumpet).intonation.first)
    #expect(trend.pitchClass == "F♯")
    #expect(trend.message == "Your F♯s run 28 cents flat.")
  }

  @Test(arguments: [1.0, 1.08, 0.95])
  func tempoDriftIsTheSlopeOfTheLocalTempo(stretch: Double) {
    let notes = (0..<20).map { GradingFixture.note($0, 60 + $0 % 5, start: 0.5 * Double($0)) }
    let take = GradingFixture.alignment(
      notes.map { note in (note, GradingFixture.played(note, delay: note.expectedStart * (stretch - 1))) })
    #expect(abs(PerformanceGrader().grade(take).tempoDrift - (stretch - 1)) < 1e-9)
  }

  @Test func anAnalyzerOfOnesOwnJoinsTheGradesAndTheScore() {
    let grader = PerformanceGrader(analyzers: PerformanceGrader.standardAnalyzers + [BreathAnalyzer()])
    let grades = grader.grade(Self.take())
    #expect(grades.notes[0].grades.last?.category == "tone")
    #expect(grades.notes[0].grades.last?.rating == "breathy")
    // An unlisted rating costs 1.
    #expect(grades.notes[0].score == 1)
    #expect(grades.notes[2].grades.isEmpty)
    // Only the analyzers given run.
    let pitchOnly = PerformanceGrader(analyzers: [PitchAnalyzer()]).grade(Self.take())
    #expect(pitchOnly.notes[1].grades.map(\.category) == [.pitch])
    #expect(pitchOnly.notes[1].score == 1)
  }
}
