import Foundation
import Testing

@testable import Synthesis

@Suite struct GuitarTests {
  @Test func standardTuningIsTheSeedsStringsWithStringOneHighest() {
    let tuning = GuitarTuning.standard
    #expect(tuning.openStringFrequenciesHz == [329.63, 246.94, 196.0, 146.83, 110.0, 82.41])
    #expect(tuning.frequencyHz(string: 5, fret: 0) == 110)
    #expect(abs(tuning.frequencyHz(string: 5, fret: 12)! - 220) < 1e-9)
    #expect(abs(tuning.frequencyHz(string: 6, fret: 5)! - 82.41 * pow(2, 5.0 / 12)) < 1e-9)
    #expect(abs(tuning.pitch(string: 5, fret: 0)! - 45) < 1e-9)
    #expect(abs(tuning.pitch(string: 1, fret: 0)! - 64) < 0.01)
    #expect(tuning.pitch(string: 0, fret: 0) == nil)
    #expect(tuning.pitch(string: 7, fret: 0) == nil)
    #expect(tuning.pitch(string: 1, fret: 25) == nil)
    #expect(tuning.pitch(string: 1, fret: -1) == nil)
  }

  @Test func theTimbreChoosesTheVoice() {
    var plucked = Guitar().makeVoice(sampleRate: 44_100)
    var simple = Guitar(timbre: .simple).makeVoice(sampleRate: 44_100)
    plucked.start(pitch: 57, velocity: 100)
    simple.start(pitch: 57, velocity: 100)
    #expect(plucked.plucked.isActive && !plucked.simple.isActive)
    #expect(simple.simple.isActive && !simple.plucked.isActive)
    var a = [Float](repeating: 0, count: 512)
    var b = a
    a.withUnsafeMutableBufferPointer { plucked.render(adding: $0) }
    b.withUnsafeMutableBufferPointer { simple.render(adding: $0) }
    #expect(a != b)
    #expect(a.contains { $0 != 0 } && b.contains { $0 != 0 })
  }

  @Test func nanParametersDoNotCrash() {
    let guitar = Guitar(pickPosition: .nan, damping: .nan, stiffness: -1, brightness: .infinity, gain: .nan, ringSeconds: .nan)
    let player = NotePlayer(
      notes: [NoteEvent(startSeconds: 0, durationSeconds: 0.1, pitch: 52, velocity: 90)], instrument: guitar,
      sampleRate: 44_100, polyphony: 1)
    let samples = player.renderAll(tailSeconds: 0.5)
    #expect(samples.allSatisfy { $0.isFinite })
    #expect(samples.contains { $0 != 0 })
  }

  @Test func noteEventDecodesWithoutChannelAndProgram() throws {
    let json = #"{"startSeconds":0.5,"durationSeconds":1,"pitch":64,"velocity":90}"#
    let note = try JSONDecoder().decode(NoteEvent.self, from: Data(json.utf8))
    #expect(note == NoteEvent(startSeconds: 0.5, durationSeconds: 1, pitch: 64, velocity: 90))
    let round = try JSONDecoder().decode(NoteEvent.self, from: JSONEncoder().encode(note))
    #expect(round == note)
    #expect(note.endSeconds == 1.5)
  }
}
