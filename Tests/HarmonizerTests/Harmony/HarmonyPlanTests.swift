import ScoreModel
import Testing

@testable import Harmonizer

@Suite struct HarmonyPlanTests {
  @Test func pitchClassSetsSnapAndStepThroughTheScale() {
    let cMajor = PitchClassSet(key: .cMajor)
    #expect(cMajor.nearest(to: 61.2) == 62)  // C♯+20 ¢ is nearer D
    #expect(cMajor.nearest(to: 60.4) == 60)
    #expect(cMajor.member(from: 64, steps: 2) == 67)  // E up two degrees: G
    #expect(cMajor.member(from: 60, steps: -1) == 59)  // C down one: B
    #expect(cMajor.member(from: 61, steps: 1) == 62)  // from a non-member
    #expect(PitchClassSet(mask: 0).nearest(to: 60) == nil)
    #expect(cMajor.nearest(to: .nan) == nil)
  }

  @Test func aDiatonicThirdIsMajorOrMinorAsTheKeyHasIt() throws {
    let plan = try HarmonyPlan(.diatonic([3, 5, -3], in: .cMajor))
    #expect(plan.shift(voice: 0, sung: 60) == 4)  // C → E
    #expect(plan.shift(voice: 0, sung: 64) == 3)  // E → G
    #expect(plan.shift(voice: 1, sung: 71) == 6)  // B → F (the diminished fifth of the key)
    #expect(plan.shift(voice: 2, sung: 60) == -3)  // C → A below
    // A singer 30 cents sharp keeps the shift, so the voice is as sharp as the singer.
    #expect(plan.shift(voice: 0, sung: 64.3) == 3)
    #expect(plan.shift(voice: 3, sung: 60).isNaN)  // no fourth voice
    #expect(plan.shift(voice: 0, sung: .nan).isNaN)  // nothing sung yet: silent
  }

  @Test func chordTonesAreTunedToTheChord() throws {
    let plan = try HarmonyPlan(.chord(try Chord(harte: "A:min7")))
    // Sung C5 (72) 20 cents flat: the next tones up are E5 and G5, exactly.
    #expect(abs(plan.shift(voice: 0, sung: 71.8) - (76 - 71.8)) < 1e-9)
    #expect(abs(plan.shift(voice: 1, sung: 71.8) - (79 - 71.8)) < 1e-9)
    #expect(abs(plan.shift(voice: 2, sung: 71.8) - (81 - 71.8)) < 1e-9)
    #expect(plan.voiceCount == 3)
  }

  @Test func heldNotesReplaceTheRulesAndAnEmptyChordIsSilence() throws {
    let plan = try HarmonyPlan(.diatonic([3], in: .cMajor))
    let held = plan.holding([67, 71, 74])
    #expect(held.shift(voice: 0, sung: 60) == 7)
    #expect(held.shift(voice: 2, sung: 60) == 14)
    #expect(held.levels[2] > 0)
    #expect(held.shift(voice: 3, sung: 60).isNaN)
    #expect(plan.holding([]).shift(voice: 0, sung: 60).isNaN)
    #expect(held.holding(nil).shift(voice: 0, sung: 60) == 4)
  }

  @Test func intervalsReadAndWriteTheirTextForm() {
    for text in ["+4", "-12", "+0.5", "d3", "d-3", "c1", "c-2", "n60"] {
      #expect(HarmonyInterval(text)?.description == text)
    }
    #expect(HarmonyInterval("5th") == .diatonic(5))
    #expect(HarmonyInterval("-3rd") == .diatonic(-3))
    #expect(HarmonyInterval("x") == nil)
    #expect(HarmonyInterval("d0") == nil)
  }

  @Test func settingsRejectTooManyVoicesAndWideShifts() {
    let five = HarmonizerSettings(voices: (1...5).map { HarmonyVoice(.semitones(Double($0))) })
    #expect(throws: HarmonizerError.self) { try HarmonyPlan(five) }
    #expect(throws: HarmonizerError.self) {
      try HarmonyPlan(HarmonizerSettings(voices: [HarmonyVoice(.semitones(30))]))
    }
  }
}
