import Testing

@testable import PerformanceTracking

/// The robust local tempo: a drift is followed, a single early or late note is not; the take's
/// start anchors it on the score's clock.
@Suite struct TempoTrendTests {
  /// The fit alone, without the anchor at the start (tested on its own below).
  let trend = TempoTrend(anchorsStart: false)
  let times = (0..<20).map { Double($0) * 0.5 }

  @Test(arguments: [0.0, 0.04, 0.08, -0.05])
  func aSteadyDriftIsFollowedExactly(slope: Double) {
    let offsets = times.map { Optional(0.02 + slope * $0) }
    let local = trend.localOffsets(times: times, offsets: offsets)
    for (time, value) in zip(times, local) {
      #expect(abs(value - (0.02 + slope * time)) < 1e-9, "at \(time): \(value)")
    }
  }

  @Test func aSingleLateNoteMovesNeitherItsOwnNorItsNeighboursLocalOffset() {
    var offsets = times.map { _ in Optional(0.05) }
    offsets[9] = 0.3
    let local = trend.localOffsets(times: times, offsets: offsets)
    for i in times.indices {
      #expect(abs(local[i] - 0.05) < 1e-12, "note \(i): \(local[i])")
    }
  }

  @Test func underADriftALateNoteIsLateAgainstTheLocalTempo() {
    var offsets = times.map { Optional(0.05 + 0.04 * $0) }
    offsets[9] = offsets[9]! + 0.25
    let local = trend.localOffsets(times: times, offsets: offsets)
    // Its own offset is left out of its fit, so the note is 250 ms late against the local tempo.
    #expect(abs(offsets[9]! - local[9] - 0.25) < 1e-9)
    // Far from it, the line is followed exactly.
    for i in [0, 1, 2, 3, 15, 16, 17, 18, 19] {
      #expect(abs(local[i] - (0.05 + 0.04 * times[i])) < 1e-9, "note \(i): \(local[i])")
    }
  }

  @Test func unplayedNotesGetTheLineThroughTheirNeighbours() {
    var offsets = times.map { Optional(0.1 * $0) }
    offsets[4] = nil
    offsets[5] = nil
    let local = trend.localOffsets(times: times, offsets: offsets)
    #expect(abs(local[4] - 0.2) < 1e-9)
    #expect(abs(local[5] - 0.25) < 1e-9)
  }

  @Test func nothingPlayedGivesZeros() {
    let local = trend.localOffsets(times: times, offsets: times.map { _ in nil })
    #expect(local == [Double](repeating: 0, count: times.count))
  }

  @Test func aLoneNoteKeepsItsOwnOffsetAndTwoGiveTheirMean() {
    #expect(trend.localOffsets(times: [1], offsets: [0.07]) == [0.07])
    // With fewer than three neighbours there is no slope: the weighted mean of the neighbours.
    let local = trend.localOffsets(times: [0, 1, 2], offsets: [0.01, nil, 0.03])
    #expect(abs(local[1] - 0.02) < 1e-12)
    #expect(abs(local[0] - 0.03) < 1e-12)
  }

  @Test func neighboursAreAtLeastTwo() {
    #expect(TempoTrend(neighbours: 0).neighbours == 2)
    #expect(TempoTrend(neighbours: -3).neighbours == 2)
    #expect(TempoTrend(neighbours: 7).neighbours == 7)
  }

  @Test func aQuarterOfTheNotesOffTheBeatDoNotBendTheTrend() {
    // Every fourth note 120 ms late, the rest on a steady 5 % drift.
    let times = (0..<40).map { Double($0) * 0.4 }
    let offsets = times.indices.map { i in Optional(0.05 * times[i] + (i % 4 == 1 ? 0.12 : 0)) }
    let local = trend.localOffsets(times: times, offsets: offsets)
    for i in times.indices {
      #expect(abs(local[i] - 0.05 * times[i]) < 0.005, "note \(i): \(local[i])")
    }
  }

  @Test func aTakeThatStartsOnTheClockAndDriftsKeepsItsFirstNoteOnTime() {
    // The onsets the grader measured in a flute take (FluidR3) that speeds up by 8 %: the first
    // note on time, 3.2 s (two bars of rests) before the next; the 2nd and 4th notes were
    // played 120 ms early (against the drifted tempo, by the take's truth: −122 and −119 ms).
    let times = [3.243, 6.486, 7.297, 8.919, 9.324, 9.73, 10.135, 10.338, 10.541, 10.946, 11.351, 11.757, 12.162, 12.77]
    let offsets: [Double?] = [5, -84, 35, -43, 84, 92, 116, 118, 104, 144, 156, 280, 170, 188].map { $0 / 1000 }
    // Without the anchor the first note's trend is the later notes' line carried back over the
    // rests: the note read 86 ms late against it.
    let free = trend.localOffsets(times: times, offsets: offsets)
    #expect(offsets[0]! - free[0] > 0.07, "\(free[0])")
    let anchored = TempoTrend().localOffsets(times: times, offsets: offsets)
    #expect(abs(offsets[0]! - anchored[0]) < 0.01, "\(anchored[0])")
    #expect(abs(offsets[1]! - anchored[1] + 0.122) < 0.01, "\(anchored[1])")
    #expect(abs(offsets[3]! - anchored[3] + 0.119) < 0.01, "\(anchored[3])")
  }

  @Test func aTakeThatStartsOffTheClockKeepsItsOwnTrend() {
    // Every note 150 ms late, steadily: the anchor is an outlier and counts for nothing.
    let offsets = times.map { _ in Optional(0.15) }
    let local = TempoTrend().localOffsets(times: times, offsets: offsets)
    for i in times.indices {
      #expect(abs(local[i] - 0.15) < 1e-9, "note \(i): \(local[i])")
    }
  }

  @Test func theAlignmentStoresTheTrendPerNoteAndZeroForRests() {
    var notes = SyntheticTake.notes(count: 12)
    notes[5].writtenPitch = nil
    notes[5].soundingPitch = nil
    let sounds = SyntheticTake.sounds(for: notes, stretch: 1.06)
    let alignment = PerformanceAlignment(notes: notes, sounds: sounds)
    #expect(alignment.localOffsets[5] == 0)
    for i in notes.indices where i != 5 {
      #expect(abs(alignment.localOffsets[i] - 0.06 * notes[i].expectedStart) < 1e-6, "note \(i)")
    }
  }
}
