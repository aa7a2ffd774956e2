import Testing

@testable import PerformanceTracking

/// The original app's rule: the nearest unlinked sound within ±200 ms, and why it is not the
/// default (a drifting take falls out of its window).
@Suite struct WindowLinkerTests {
  let linker = WindowLinker()

  @Test func theWindowIsTwoHundredMilliseconds() {
    #expect(linker.windowSeconds == 0.2)
  }

  @Test(arguments: [
    (0.19, true), (-0.19, true), (0.21, false), (-0.21, false), (0.0, true),
  ])
  func aNoteTakesASoundOnlyWithinTheWindow(delay: Double, linked: Bool) {
    let notes = SyntheticTake.notes(count: 8, spacing: 1)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[4] = SyntheticTake.sound(for: notes[4], delay: delay)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links[4] == (linked ? 4 : nil))
    // The neighbours keep their own sounds either way.
    #expect(links.enumerated().filter { $0.offset != 4 }.allSatisfy { $0.element == $0.offset })
  }

  @Test func latencyIsRemovedBeforeTheWindowApplies() {
    let notes = SyntheticTake.notes(count: 6)
    let sounds = SyntheticTake.sounds(for: notes, latency: 0.5)
    #expect(linker.link(notes: notes, sounds: sounds, latencySeconds: 0.5) == Array(0..<6))
    // Left in, the latency makes each note take the sound of the note before it.
    #expect(linker.link(notes: notes, sounds: sounds, latencySeconds: 0) == [nil, 0, 1, 2, 3, 4])
  }

  @Test func theNearestSoundInTheWindowWins() {
    let notes = SyntheticTake.notes(count: 1)
    let sounds = [
      SyntheticTake.sound(for: notes[0], delay: -0.15), SyntheticTake.sound(for: notes[0], delay: 0.05),
      SyntheticTake.sound(for: notes[0], delay: 0.12),
    ]
    #expect(linker.link(notes: notes, sounds: sounds, latencySeconds: 0) == [1])
  }

  @Test func aDriftingTakeFallsOutOfTheWindowWhereAlignmentDoesNot() {
    let notes = SyntheticTake.notes(count: 40)
    let sounds = SyntheticTake.sounds(for: notes, stretch: 1.08)
    let window = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    // 8 % of 0.5 s is 40 ms a note: from the sixth note on, every sound is more than 200 ms late
    // for its own note, and the window either misses the note or takes a neighbour's sound.
    let ownSound = window.enumerated().filter { $0.element == $0.offset }.count
    #expect(ownSound <= 6)
    #expect(window.contains(nil))
    #expect(SyntheticTake.isOrderedAndUnique(window))
    let aligned = AlignmentLinker().link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(aligned == Array(0..<40))
  }

  @Test func aNoteLateByAQuarterSecondIsMissedAndItsSoundExtra() {
    let notes = SyntheticTake.notes(count: 12)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[6] = SyntheticTake.sound(for: notes[6], delay: 0.25)
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds, linker: linker)
    #expect(alignment.soundIndices[6] == nil)
    #expect(alignment.extraSoundIndices == [6])
  }
}
