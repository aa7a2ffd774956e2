import Testing

@testable import PerformanceTracking

/// The robust local tempo: a drift is followed, a single early or late note is not.
@Suite struct TempoTrendTests {
  let trend = TempoTrend()
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
