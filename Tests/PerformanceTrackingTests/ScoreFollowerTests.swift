import Testing

@testable import PerformanceTracking

/// The live follower: each finished sound goes to the note it was, in order, on a drifting
/// tempo, past missed notes, and extra sounds go to none.
@Suite struct ScoreFollowerTests {
  /// Feeds the sounds to a follower whose notes are due at their score times (plus `latency`),
  /// announcing each note's due time when the clock would pass it.
  func follow(
    _ notes: [PerformanceNote], _ sounds: [PerformanceSound], latency: Double = 0, dueStretch: Double = 1
  ) -> (links: [ScoreFollower.Link?], follower: ScoreFollower) {
    let follower = ScoreFollower(notes: notes, latencySeconds: latency)
    var announced = 0
    var links: [ScoreFollower.Link?] = []
    for sound in sounds {
      // The clock has passed every note due before this sound ended.
      while announced < notes.count, notes[announced].expectedStart * dueStretch + latency <= sound.end {
        follower.noteDue(announced, atSeconds: notes[announced].expectedStart * dueStretch + latency)
        announced += 1
      }
      links.append(follower.follow(start: sound.start, end: sound.end, frequencyHz: sound.frequencyHz))
    }
    return (links, follower)
  }

  @Test func anExactTakeLinksEverySoundToItsNoteInOrder() {
    let notes = SyntheticTake.notes(count: 20)
    let result = follow(notes, SyntheticTake.sounds(for: notes))
    #expect(result.links.map { $0?.note } == notes.indices.map { Optional($0) })
    #expect(result.follower.linkedCount == 20)
    #expect(result.follower.skippedCount == 0)
    #expect(result.follower.extraCount == 0)
    for link in result.links { #expect(abs(link!.offsetSeconds) < 1e-9 && abs(link!.cents) < 1e-6) }
  }

  @Test func aMissedNoteIsPassedOverByTheNextSound() {
    let notes = SyntheticTake.notes(count: 12)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds.remove(at: 5)
    let result = follow(notes, sounds)
    let linked = result.links.map { $0?.note }
    #expect(linked == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
    #expect(result.follower.skippedCount == 1)
  }

  @Test func anExtraSoundFarFromAnyNoteIsLinkedToNone() {
    let notes = SyntheticTake.notes(count: 10, spacing: 1, length: 0.5)
    var sounds = SyntheticTake.sounds(for: notes)
    // A short sound a tritone and more away, in the gap after note 4.
    sounds.insert(
      PerformanceSound(start: 4.62, end: 4.8, frequencyHz: SyntheticTake.hz(79), peakLevelDBFS: -20), at: 5)
    let result = follow(notes, sounds)
    #expect(result.links[5] == nil)
    #expect(result.links.compactMap { $0?.note } == Array(0..<10))
    #expect(result.follower.extraCount == 1)
  }

  @Test func aWrongNotePlayedInTimeIsStillTheStudentsAttemptAtIt() {
    let notes = SyntheticTake.notes(count: 10)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[4] = SyntheticTake.sound(for: notes[4], semitones: 1)
    let result = follow(notes, sounds)
    #expect(result.links[4]?.note == 4)
    #expect(abs(result.links[4]!.cents - 100) < 1e-6)
  }

  @Test(arguments: [1.08, 0.93])
  func aDriftingTempoIsFollowedToTheEnd(stretch: Double) {
    // The student drifts 8 % slower (or 7 % faster) than the clock: by note 40 about 1.5 s off.
    let notes = SyntheticTake.notes(count: 40)
    let result = follow(notes, SyntheticTake.sounds(for: notes, stretch: stretch))
    #expect(result.links.map { $0?.note } == notes.indices.map { Optional($0) })
    #expect(abs(result.follower.localOffsetSeconds - (stretch - 1) * notes[39].expectedStart) < 0.1)
  }

  @Test func dueTimesComeFromTheClockNotTheScore() {
    // A count-in of 2 s and a clock at 0.8 of the written tempo: notes are due at 2 + t / 0.8.
    let notes = SyntheticTake.notes(count: 16)
    let follower = ScoreFollower(notes: notes)
    var linked: [Int] = []
    for (i, note) in notes.enumerated() {
      let due = 2 + note.expectedStart / 0.8
      follower.noteDue(i, atSeconds: due)
      if let link = follower.follow(start: due + 0.01, end: due + 0.3, frequencyHz: SyntheticTake.hz(Int(note.soundingPitch!.rawValue))) {
        linked.append(link.note)
        #expect(abs(link.offsetSeconds - 0.01) < 1e-9)
      }
    }
    #expect(linked == Array(0..<16))
  }

  @Test func notesNotYetDueArePredictedFromTheClocksRate() {
    let notes = SyntheticTake.notes(count: 8)
    let follower = ScoreFollower(notes: notes)
    follower.noteDue(0, atSeconds: 10)
    follower.noteDue(1, atSeconds: 11)  // the clock runs at half speed
    #expect(abs(follower.expectedSeconds(ofNote: 4) - 14) < 1e-9)
    // Before any due time: the score time plus the latency.
    #expect(abs(ScoreFollower(notes: notes, latencySeconds: 0.04).expectedSeconds(ofNote: 3) - 1.54) < 1e-9)
  }

  @Test func restsAreNeverLinkedAndResetStartsOver() {
    var notes = SyntheticTake.notes(count: 6)
    notes[0].writtenPitch = nil
    notes[0].soundingPitch = nil
    let result = follow(notes, SyntheticTake.sounds(for: notes))
    #expect(result.links.map { $0?.note } == [1, 2, 3, 4, 5])
    let follower = result.follower
    follower.reset()
    #expect(follower.nextNote == 1)
    #expect(follower.linkedCount == 0 && follower.lastLinkedNote == nil)
  }
}
