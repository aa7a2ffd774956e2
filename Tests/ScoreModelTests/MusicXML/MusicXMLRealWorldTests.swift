import Foundation
import Testing

@testable import ScoreModel

/// What real-world files do that the test suite does not: each case is the smallest shape of a
/// difference found against music21 on the corpus of `Evaluation/musicxml` (README there).
@Suite struct MusicXMLRealWorldTests {
  let tieStart = "<tie type=\"start\"/><notations><tied type=\"start\"/></notations>"
  let tieStop = "<tie type=\"stop\"/><notations><tied type=\"stop\"/></notations>"
  let twoStaves = "<attributes><divisions>2</divisions><time><beats>2</beats><beat-type>4</beat-type></time><staves>2</staves></attributes>"

  /// Schumann, Dichterliebe no. 2: both hands tie an A4 at the same moment, for different lengths.
  @Test func twoVoicesTyingOnePitchAtOnceKeepTheirOwnNotes() throws {
    let measures = """
      <measure number="1">\(twoStaves)
        \(note("A", 4, 2, extra: "\(tieStart)<voice>1</voice><staff>1</staff>"))\(rest(2, extra: "<voice>1</voice><staff>1</staff>"))
        <backup><duration>4</duration></backup>
        \(note("A", 4, 2, extra: "\(tieStart)<voice>3</voice><staff>2</staff>"))\(note("A", 4, 2, extra: "\(tieStop)\(tieStart)<voice>3</voice><staff>2</staff>"))
      </measure>
      <measure number="2">
        \(note("A", 4, 4, extra: "\(tieStop)<voice>3</voice><staff>2</staff>"))
        <backup><duration>4</duration></backup>
        \(rest(4, extra: "<voice>1</voice><staff>1</staff>"))
      </measure>
      """
    let pitched = try Score(musicXML: partwise(measures)).notes.filter { !$0.isRest }.sorted { $0.voice < $1.voice }
    // Voice 1's A4 is a quarter and ends; voice 3's is tied on through measure 2 (1 + 1 + 2).
    #expect(pitched.map(\.voice) == [1, 3])
    #expect(pitched.map(\.duration) == [1, 4])
    #expect(pitched.map(\.isTied) == [false, true])
  }

  /// A tie chain prefers the note of its own voice and staff; another voice's note of the pitch
  /// is taken only when its own has none.
  @Test func aTieFallsBackToAnotherVoice() throws {
    let measures = """
      <measure number="1">\(twoStaves)
        \(note("C", 4, 4, extra: "\(tieStart)<voice>1</voice><staff>1</staff>"))
        <backup><duration>4</duration></backup>
        \(rest(4, extra: "<voice>2</voice><staff>2</staff>"))
      </measure>
      <measure number="2">
        \(rest(4, extra: "<voice>1</voice><staff>1</staff>"))
        <backup><duration>4</duration></backup>
        \(note("C", 4, 2, extra: "\(tieStop)<voice>2</voice><staff>2</staff>"))\(note("D", 4, 2, extra: "<voice>2</voice><staff>2</staff>"))
      </measure>
      """
    let pitched = try Score(musicXML: partwise(measures)).notes.filter { !$0.isRest }
    #expect(pitched.map(\.duration) == [3, 1])
    #expect(pitched[0].isTied)
  }
}
