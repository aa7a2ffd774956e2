import Foundation
import ScoreModel
import Testing
import _TestSupport

@testable import PerformanceTracking

/// The default linker: matches, missed notes and extra sounds on synthetic takes, drift, late
/// notes, and the invariants every link list keeps.
@Suite struct AlignmentLinkerTests {
  let linker = AlignmentLinker()

  @Test(arguments: [0.0, 0.3])
  func anExactTakeLinksEveryNoteToItsOwnSound(latency: Double) {
    let notes = SyntheticTake.notes(count: 16)
    let sounds = SyntheticTake.sounds(for: notes, latency: latency)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: latency)
    #expect(links == Array(0..<16))
  }

  @Test(arguments: [0, 6, 15])
  func aMissedNoteStaysUnlinkedAndTheOthersKeepTheirSounds(missed: Int) {
    let notes = SyntheticTake.notes(count: 16)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds.remove(at: missed)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    let expected: [Int?] = (0..<16).map { $0 < missed ? $0 : $0 == missed ? nil : $0 - 1 }
    #expect(links == expected)
  }

  /// Eight notes after a two-second count-in, one every half second.
  static func countedIn() -> [PerformanceNote] {
    SyntheticTake.notes(count: 8).map { note in
      var note = note
      note.expectedStart += 2
      return note
    }
  }

  @Test func aStraySoundLongBeforeAMissedFirstNoteIsNotTakenForIt() {
    // The first note is not played; a sound a fourth below it comes 0.4 s before it is due.
    let notes = Self.countedIn()
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[0] = SyntheticTake.sound(for: notes[0], delay: -0.4, seconds: 0.15, semitones: -5)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links == [nil] + Array(1..<8))
  }

  @Test func aNoteOutOfTimeCostsBothIntervalsItBreaks() {
    // Note 4 is not played; a sound a tone above it comes 0.3 s early, between notes 3 and 4.
    // Linked, it would break two intervals (each at the cap): dearer than a missed note and an
    // extra sound.
    let notes = Self.countedIn()
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[4] = SyntheticTake.sound(for: notes[4], delay: -0.3, seconds: 0.15, semitones: 2)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links == [0, 1, 2, 3, nil, 5, 6, 7])
  }

  @Test(arguments: [0, 3, 12])
  func anExtraSoundIsLeftUnclaimed(after note: Int) {
    let notes = SyntheticTake.notes(count: 14)
    var sounds = SyntheticTake.sounds(for: notes)
    // A stray sound a tritone away, between this note and the next.
    sounds.insert(
      SyntheticTake.sound(for: notes[note], delay: 0.25, seconds: 0.1, semitones: 6), at: note + 1)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    let expected: [Int?] = (0..<14).map { $0 <= note ? $0 : $0 + 1 }
    #expect(links == expected)
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds, linker: linker)
    #expect(alignment.extraSoundIndices == [note + 1])
  }

  @Test(arguments: [1, -1, 2, -2])
  func aWrongNotePlayedInTimeIsStillTheAttemptAtThatNote(semitones: Int) {
    let notes = SyntheticTake.notes(count: 12)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[5] = SyntheticTake.sound(for: notes[5], semitones: semitones)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links == Array(0..<12))
  }

  @Test func anOctaveOffNoteIsStillLinked() {
    let notes = SyntheticTake.notes(count: 12)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[4] = SyntheticTake.sound(for: notes[4], semitones: -12)
    #expect(linker.link(notes: notes, sounds: sounds, latencySeconds: 0) == Array(0..<12))
  }

  @Test func aTakeDriftingEightPercentSlowerOverFortyNotesLinksEveryNote() {
    let notes = SyntheticTake.notes(count: 40)
    let sounds = SyntheticTake.sounds(for: notes, stretch: 1.08)
    // By the last note the take runs 1.56 s behind the score.
    #expect(sounds[39].start - notes[39].expectedStart > 1.5)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links == Array(0..<40))
    #expect(!links.contains(nil))
  }

  @Test(arguments: [0.25, -0.25])
  func aSingleNoteAQuarterSecondOffIsStillLinked(delay: Double) {
    let notes = SyntheticTake.notes(count: 12)
    var sounds = SyntheticTake.sounds(for: notes)
    sounds[6] = SyntheticTake.sound(for: notes[6], delay: delay)
    #expect(linker.link(notes: notes, sounds: sounds, latencySeconds: 0) == Array(0..<12))
  }

  @Test func restsAreNeverLinked() {
    var notes = SyntheticTake.notes(count: 8)
    notes[3].writtenPitch = nil
    notes[3].soundingPitch = nil
    var sounds = SyntheticTake.sounds(for: notes)
    // Something sounds during the rest.
    sounds.insert(SyntheticTake.sound(for: notes[3]), at: 3)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links[3] == nil)
    #expect(links == [0, 1, 2, nil, 4, 5, 6, 7])
  }

  @Test func noNotesOrNoSoundsGiveNoLinks() {
    let notes = SyntheticTake.notes(count: 5)
    #expect(linker.link(notes: notes, sounds: [], latencySeconds: 0) == [Int?](repeating: nil, count: 5))
    #expect(linker.link(notes: [], sounds: SyntheticTake.sounds(for: notes), latencySeconds: 0).isEmpty)
  }

  @Test func aPassageNotPlayedReanchorsAfterTheGap() {
    let notes = SyntheticTake.notes(count: 30)
    // Notes 8...19 are not played at all.
    let sounds = SyntheticTake.sounds(for: notes).enumerated().filter { !(8...19).contains($0.offset) }.map(
      \.element)
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    let expected: [Int?] = (0..<30).map { $0 < 8 ? $0 : $0 <= 19 ? nil : $0 - 12 }
    #expect(links == expected)
  }

  /// Random takes (dropped notes, stray sounds, jitter, drift): whatever the links are, they
  /// keep time order, never share a sound, never link a rest, and stay in range.
  @Test(arguments: 0..<20)
  func linksKeepTimeOrderAndNeverShareASound(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var notes = SyntheticTake.notes(count: 30, spacing: 0.3, length: 0.25)
    for i in notes.indices where random.nextUnitDouble() < 0.1 {
      notes[i].writtenPitch = nil
      notes[i].soundingPitch = nil
    }
    let stretch = 0.95 + 0.15 * random.nextUnitDouble()
    var sounds: [PerformanceSound] = []
    for note in notes where !note.isRest && random.nextUnitDouble() > 0.15 {
      let jitter = (random.nextUnitDouble() - 0.5) * 0.12
      let semitones = random.nextUnitDouble() < 0.1 ? Int.random(in: -3...3, using: &random) : 0
      sounds.append(
        SyntheticTake.sound(for: note, stretch: stretch, delay: jitter, seconds: 0.15, semitones: semitones))
      if random.nextUnitDouble() < 0.1 {
        sounds.append(
          SyntheticTake.sound(for: note, stretch: stretch, delay: 0.1, seconds: 0.05, semitones: 5))
      }
    }
    sounds.sort { $0.start < $1.start }
    let links = linker.link(notes: notes, sounds: sounds, latencySeconds: 0)
    #expect(links.count == notes.count)
    #expect(SyntheticTake.isOrderedAndUnique(links))
    #expect(links.compactMap { $0 }.allSatisfy { sounds.indices.contains($0) })
    #expect(notes.indices.filter { notes[$0].isRest }.allSatisfy { links[$0] == nil })
  }
}
