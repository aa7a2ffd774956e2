import Foundation
import Testing

@testable import PerformanceAnalysis

/// Centre frequencies, zone boundaries and the nearest note.
@Suite struct NoteFrequencyTableTests {
  static let table = NoteFrequencyTable(tolerances: Tolerances.intermediate.pitch)

  @Test(arguments: [
    (69, 440.0), (57, 220), (81, 880), (60, 261.6255653), (0, 8.1757989), (127, 12543.8539514),
  ])
  func centreFrequenciesAtA440(midi: Int, hz: Double) {
    #expect(abs(Self.table[midi].frequencyHz - hz) < 1e-6)
    #expect(Self.table[midi].midi == midi)
  }

  @Test(arguments: [415.0, 432, 442, 466])
  func centreFrequenciesFollowA4(a4Hz: Double) {
    var pitch = Tolerances.intermediate.pitch
    pitch.a4Hz = a4Hz
    let table = NoteFrequencyTable(tolerances: pitch)
    #expect(table[69].frequencyHz == a4Hz)
    #expect(abs(table[81].frequencyHz - 2 * a4Hz) < 1e-9)
    #expect(abs(table[72].frequencyHz - a4Hz * pow(2, 0.25)) < 1e-9)
  }

  @Test func zoneBoundariesAreTheTolerancesInCents() {
    let a4 = Self.table[69]
    func cents(_ hz: Double) -> Double { 1200 * log2(hz / 440) }
    #expect(
      abs(cents(a4.correctHz.lowerBound) + 20) < 1e-9 && abs(cents(a4.correctHz.upperBound) - 20) < 1e-9)
    #expect(abs(cents(a4.aBitHz.lowerBound) + 35) < 1e-9 && abs(cents(a4.aBitHz.upperBound) - 35) < 1e-9)
    #expect(
      abs(cents(a4.sameNoteHz.lowerBound) + 50) < 1e-9 && abs(cents(a4.sameNoteHz.upperBound) - 50) < 1e-9)
    // Neighbouring notes' same-note zones meet at the quarter tone.
    #expect(abs(Self.table[69].sameNoteHz.upperBound - Self.table[70].sameNoteHz.lowerBound) < 1e-9)
  }

  @Test func namesAreConcertAndWritten() {
    #expect(Self.table[61].concertName == "C#4" && Self.table[61].writtenName == "C#4")
    let trumpet = NoteFrequencyTable(tolerances: Tolerances.intermediate.pitch, transposeSemitones: 2)
    #expect(trumpet[72].concertName == "C5" && trumpet[72].writtenName == "D5")
    #expect(trumpet[127].writtenName == "G9")  // clamped to MIDI's top
  }

  @Test(arguments: [(445.0, 69, 19.56), (430, 69, -39.8), (453, 70, -49.6), (261.63, 60, 0), (27.5, 21, 0)])
  func theNearestNoteAndItsDistance(hz: Double, midi: Int, cents: Double) throws {
    let nearest = try #require(Self.table.nearest(frequencyHz: hz))
    #expect(nearest.entry.midi == midi)
    #expect(abs(nearest.cents - cents) < 0.1, "\(nearest.cents)")
  }

  @Test(arguments: [0.0, -440, Double.nan, Double.infinity, 1, 20000])
  func noNearestNoteOutsideMIDI(hz: Double) {
    #expect(Self.table.nearest(frequencyHz: hz) == nil)
  }

  @Test func outOfRangeLookupsClamp() {
    #expect(Self.table[-5].midi == 0)
    #expect(Self.table[300].midi == 127)
    #expect(Self.table.entries.count == 128)
  }

  @Test func theTableSurvivesJSON() throws {
    let data = try JSONEncoder().encode(Self.table)
    #expect(try JSONDecoder().decode(NoteFrequencyTable.self, from: data) == Self.table)
  }
}
