import Testing

@testable import PerformanceTracking

/// An alignment from links: extra sounds, score-time onsets, sounds per note.
@Suite struct PerformanceAlignmentTests {
  @Test func linksGivenDirectlyAreKeptAndTheUnclaimedSoundsAreExtra() {
    let notes = SyntheticTake.notes(count: 4)
    let sounds =
      SyntheticTake.sounds(for: notes, latency: 0.1) + [SyntheticTake.sound(for: notes[3], delay: 0.4)]
    let alignment = PerformanceAlignment(
      notes: notes, sounds: sounds, latencySeconds: 0.1, soundIndices: [0, nil, 2, 3])
    #expect(alignment.soundIndices == [0, nil, 2, 3])
    #expect(alignment.extraSoundIndices == [1, 4])
    #expect(alignment.sound(forNote: 1) == nil)
    #expect(alignment.sound(forNote: 2) == sounds[2])
  }

  @Test func onsetsAndOffsetsAreOnTheScoresTimeLine() {
    let notes = SyntheticTake.notes(count: 3)
    let sounds = SyntheticTake.sounds(for: notes, latency: 0.25)
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds, latencySeconds: 0.25)
    for i in 0..<3 {
      #expect(abs(alignment.onset(ofSound: i) - notes[i].expectedStart) < 1e-12)
      #expect(abs(alignment.offset(ofSound: i) - (notes[i].expectedStart + 0.2)) < 1e-12)
    }
    #expect(alignment.extraSoundIndices.isEmpty)
  }

  @Test func theDefaultLinkerIsTheAlignmentLinker() {
    // A note 250 ms late: the window would drop it, the alignment keeps it.
    let notes = SyntheticTake.notes(count: 10)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[5] = SyntheticTake.sound(for: notes[5], delay: 0.25)
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds)
    #expect(alignment.soundIndices[5] == 5)
    #expect(alignment.extraSoundIndices.isEmpty)
  }
}
