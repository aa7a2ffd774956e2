import ScoreModel
import Testing

@testable import Harmonizer

@Suite struct ChordSequencerTests {
  @Test func aProgressionReadsAsVoicedChordsWithLengths() throws {
    let sequencer = try ChordSequencer(progression: "C:maj 2 | A:min7 | N 1 | G:7/3 1", tempo: 120)
    #expect(sequencer.steps.map(\.notes) == [[60, 64, 67], [69, 72, 76, 79], [], [71, 74, 77, 79]])
    #expect(sequencer.steps.map(\.beats) == [2, 4, 1, 1])
    #expect(sequencer.durationSeconds == 4)
  }

  @Test func stepsFollowTheTempoAndLoop() throws {
    let looping = try ChordSequencer(progression: "C:maj 1 | F:maj 1", tempo: 60)
    #expect(looping.step(at: 0) == 0)
    #expect(looping.step(at: 1.5) == 1)
    #expect(looping.step(at: 2.2) == 0)
    #expect(looping.step(at: -1) == nil)
    var once = looping
    once.loops = false
    #expect(once.step(at: 2.2) == nil)
  }

  @Test func aBadStepIsNamed() {
    #expect(throws: HarmonizerError.self) { try ChordSequencer(progression: "C:maj 2 | X:foo 2") }
    #expect(throws: HarmonizerError.self) { try ChordSequencer(progression: "C:maj -1") }
    #expect(throws: HarmonizerError.self) { try ChordSequencer(progression: " | ") }
  }
}
