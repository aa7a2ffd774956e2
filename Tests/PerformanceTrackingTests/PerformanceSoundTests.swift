import Testing

@testable import PerformanceTracking

/// A sound's own helpers: the onset and moving every time at once.
@Suite struct PerformanceSoundTests {
  static func sound() -> PerformanceSound {
    var sound = PerformanceSound(
      start: 1.0, end: 1.5, frequencyHz: 440,
      pitchTrack: [.init(time: 1.01, frequencyHz: 438), .init(time: 1.2, frequencyHz: 440)], peakLevelDBFS: -12)
    sound.attack = 1.05
    return sound
  }

  @Test func mappingMovesEveryTimeAndNothingElse() {
    let sound = Self.sound()
    let moved = sound.mapped { 2 * $0 - 0.25 }
    #expect(moved.start == 1.75 && moved.end == 2.75 && moved.attack == 1.85 && moved.onset == 1.85)
    #expect(moved.pitchTrack.map(\.time) == [1.77, 2.15])
    #expect(moved.pitchTrack.map(\.frequencyHz) == [438, 440])
    #expect(moved.frequencyHz == 440 && moved.peakLevelDBFS == -12 && moved.boundary == sound.boundary)
  }

  @Test func aMappedSoundNeverEndsBeforeItStarts() {
    // A map that squeezes the end onto the start (a flat stretch of a score clock).
    let moved = Self.sound().mapped { min($0, 1.2) }
    #expect(moved.start == 1.0 && moved.end == 1.2)
    let reversed = Self.sound().mapped { $0 < 1.3 ? $0 : 0.9 }
    #expect(reversed.end == reversed.start)
  }

  @Test func theOnsetIsTheAttackWhenThereIsOne() {
    var sound = Self.sound()
    #expect(sound.onset == 1.05)
    sound.attack = nil
    #expect(sound.onset == 1.0)
  }
}
