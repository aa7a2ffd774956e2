import Testing

@testable import PerformanceTracking

/// Latency measured from the take itself: the median offset of the notes played at their pitch.
@Suite struct LatencyCalibrationTests {
  @Test(arguments: [0.0, 0.137, 0.25, 0.41])
  func aKnownOffsetIsRecovered(latency: Double) throws {
    let notes = SyntheticTake.notes(count: 16)
    var sounds = SyntheticTake.sounds(for: notes, latency: latency)
    // A little jitter either way, which the median ignores.
    for i in sounds.indices {
      let jitter = [0.0, 0.012, -0.009, 0.004][i % 4]
      sounds[i].start += jitter
      sounds[i].end += jitter
    }
    let estimate = try #require(LatencyCalibration.estimate(notes: notes, sounds: sounds))
    #expect(abs(estimate - latency) <= 0.005, "\(estimate)")
  }

  @Test func notesPlayedOffPitchDoNotCount() throws {
    let notes = SyntheticTake.notes(count: 9)
    var sounds = SyntheticTake.sounds(for: notes, latency: 0.2)
    // Five of nine wrong notes, played 150 ms later still: were they counted, the median would move.
    for i in [0, 2, 4, 6, 8] {
      sounds[i] = SyntheticTake.sound(for: notes[i], latency: 0.2, delay: 0.15, semitones: 2)
    }
    let estimate = try #require(LatencyCalibration.estimate(notes: notes, sounds: sounds))
    #expect(abs(estimate - 0.2) < 1e-9, "\(estimate)")
  }

  @Test func fewerThanThreeNotesAtTheirPitchGiveNothing() {
    let notes = SyntheticTake.notes(count: 6)
    var sounds = SyntheticTake.sounds(for: notes, latency: 0.1)
    for i in 2..<6 { sounds[i] = SyntheticTake.sound(for: notes[i], latency: 0.1, semitones: 1) }
    #expect(LatencyCalibration.estimate(notes: notes, sounds: sounds) == nil)
    #expect(LatencyCalibration.estimate(notes: notes, sounds: []) == nil)
  }
}
