import Foundation
import Testing

@testable import ScoreModel

/// What real-world files do that the test suite does not: each case is the smallest shape of a
/// difference found against music21 on the corpus of `Evaluation/musicxml` (README there).
@Suite struct MusicXMLRealWorldTests {
  let tieStart = "<tie type=\"start\"/><notations><tied type=\"start\"/></notations>"
  let tieStop = "<tie type=\"stop\"/><notations><tied type=\"stop\"/></notations>"
  let twoStaves =
    "<attributes><divisions>2</divisions><time><beats>2</beats><beat-type>4</beat-type></time><staves>2</staves></attributes>"

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
    let pitched = try Score(musicXML: partwise(measures)).notes.filter { !$0.isRest }.sorted {
      $0.voice < $1.voice
    }
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

  /// Schubert, Der Lindenbaum: a chord's B2 says 512 divisions where the chord and its own type
  /// (a dotted half) say 768, and has no `<voice>`.
  @Test func aChordMemberTakesItsChordsVoiceAndAStrayDuration() throws {
    let measure = """
      <measure number="1"><attributes><divisions>256</divisions><time><beats>3</beats><beat-type>4</beat-type></time></attributes>
        <note><pitch><step>E</step><octave>2</octave></pitch><duration>768</duration><voice>3</voice><type>half</type><dot/><staff>2</staff></note>
        <note><chord/><pitch><step>B</step><octave>2</octave></pitch><duration>512</duration><type>half</type><dot/></note>
        <note><chord/><pitch><step>G</step><octave>3</octave></pitch><duration>256</duration><voice>3</voice><type>quarter</type><staff>2</staff></note>
      </measure>
      """
    let notes = try Score(musicXML: partwise(measure)).notes
    #expect(notes.map { $0.spelling?.description } == ["E2", "B2", "G3"])
    // B2: the chord's length (its type agrees); G3: a quarter, as its own type confirms.
    #expect(notes.map(\.duration) == [3, 3, 1])
    #expect(notes.map(\.voice) == [3, 3, 3])
    #expect(notes.map(\.staff) == [2, 2, 2])
  }

  /// music21's `testTab.xml`: tablature notes with a type, a string and a fret, and no
  /// `<duration>`, `<pitch>` or `<divisions>`.
  @Test func tablatureNotesWithoutDurationOrPitch() throws {
    func fretted(_ string: Int, _ fret: Int, type: String = "quarter") -> String {
      "<note><type>\(type)</type><notations><technical><string>\(string)</string><fret>\(fret)</fret></technical></notations></note>"
    }
    let measure = """
      <measure number="0"><attributes><time><beats>4</beats><beat-type>4</beat-type></time></attributes>
        \(fretted(4, 7))\(fretted(4, 4))\(fretted(1, 0))\(fretted(2, 3))</measure>
      """
    let score = try Score(musicXML: partwise(measure))
    // Standard guitar tuning: D3 + 7 = A3, D3 + 4 = F#3, E4, B3 + 3 = D4; a quarter each.
    #expect(score.notes.map { $0.soundingPitch?.rawValue } == [57, 54, 64, 62])
    #expect(score.notes.map(\.onset) == [0, 1, 2, 3])
    #expect(score.notes.map(\.duration) == [1, 1, 1, 1])

    // A four-string bass tuned by the file (E1 A1 D2 G2) with a capo on fret 2; a dotted eighth
    // triplet without <duration>.
    let bass = """
      <measure number="1"><attributes><divisions>1</divisions><staff-details><staff-lines>4</staff-lines>
        <staff-tuning line="1"><tuning-step>E</tuning-step><tuning-octave>1</tuning-octave></staff-tuning>
        <staff-tuning line="2"><tuning-step>A</tuning-step><tuning-octave>1</tuning-octave></staff-tuning>
        <staff-tuning line="3"><tuning-step>D</tuning-step><tuning-octave>2</tuning-octave></staff-tuning>
        <staff-tuning line="4"><tuning-step>G</tuning-step><tuning-octave>2</tuning-octave></staff-tuning>
        <capo>2</capo></staff-details></attributes>
        \(fretted(4, 0))<note><type>eighth</type><dot/><time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification><notations><technical><string>1</string><fret>1</fret></technical></notations></note>
      </measure>
      """
    let fromTuning = try Score(musicXML: partwise(bass)).notes
    #expect(fromTuning.map { $0.soundingPitch?.rawValue } == [30, 46])  // E1 + 2, G2 + 1 + 2
    #expect(fromTuning.map(\.duration) == [1, Rational(1, 2)])
    // A string the tuning does not have is a typed error at the note.
    let bad = bass.replacingOccurrences(of: "<string>1</string>", with: "<string>9</string>")
    #expect(
      performing: { try Score(musicXML: partwise(bad)) },
      throws: { error in
        (error as? ScoreModelError)?.description.contains("measure[1]/note[2]/notations/technical") ?? false
      })
  }

  /// Clara Schumann, Polonaise op. 1 no. 1 and Beethoven op. 59 no. 2: "D.C. al Fine" only in
  /// words (over a line break), "Fine" likewise.
  @Test func jumpWordsWithoutSoundAreObeyed() throws {
    func bar(_ number: Int, _ inside: String = "") -> String {
      "<measure number=\"\(number)\">\(number == 1 ? "<attributes><divisions>1</divisions><time><beats>1</beats><beat-type>4</beat-type></time></attributes>" : "")\(inside)\(note("C", 4, 1))</measure>"
    }
    func words(_ text: String) -> String {
      "<direction><direction-type><words>\(text)</words></direction-type></direction>"
    }
    let measures = [bar(1), bar(2, words("Fine")), bar(3), bar(4, words("D.C.\n al  fine"))].joined()
    let expanded = try Score(musicXML: partwise(measures))
    #expect(expanded.measures.map(\.number) == ["1", "2", "3", "4", "1", "2"])
    let soundOnly = try Score(musicXML: partwise(measures), options: .init(readsJumpWords: false))
    #expect(soundOnly.measures.map(\.number) == ["1", "2", "3", "4"])
    // Segno, To Coda, D.S. al Coda and Coda in words.
    let segno = [
      bar(1), bar(2, words("Segno")), bar(3, words("To Coda")), bar(4, words("D.S. al Coda")),
      bar(5, words("Coda")), bar(6),
    ]
    #expect(
      try Score(musicXML: partwise(segno.joined())).measures.map(\.number) == [
        "1", "2", "3", "4", "2", "3", "5", "6",
      ])
    // Other words are not jumps.
    let other = [bar(1, words("dolce")), bar(2, words("Da capo aria")), bar(3)]
    #expect(try Score(musicXML: partwise(other.joined())).measures.count == 3)
  }

  /// Handel, Lascia ch'io pianga, and Beethoven op. 59 no. 2: the repeat and jump marks are in the
  /// first part only; every part follows them.
  @Test func repeatMarksOfOnePartApplyToAll() throws {
    let parts =
      "<score-part id=\"P1\"><part-name>Violin</part-name></score-part><score-part id=\"P2\"><part-name>Cello</part-name></score-part>"
    let attributes =
      "<attributes><divisions>1</divisions><time><beats>1</beats><beat-type>4</beat-type></time></attributes>"
    let xml = Data(
      """
      <score-partwise><part-list>\(parts)</part-list>
      <part id="P1"><measure number="1">\(attributes)\(note("E", 5, 1))</measure>
        <measure number="2">\(note("F", 5, 1))<barline location="right"><repeat direction="backward"/></barline></measure>
        <measure number="3">\(note("G", 5, 1))<direction><direction-type><words>D.C.</words></direction-type></direction></measure></part>
      <part id="P2"><measure number="1">\(attributes)\(note("C", 3, 1))</measure><measure number="2">\(note("D", 3, 1))</measure>
        <measure number="3">\(note("E", 3, 1))</measure></part>
      </score-partwise>
      """.utf8)
    let score = try Score(musicXML: xml)
    let cello = score.notes.filter { $0.part == "P2" }
    #expect(cello.map { $0.spelling?.description } == ["C3", "D3", "C3", "D3", "E3", "C3", "D3", "E3"])
    #expect(cello.map(\.onset) == [0, 1, 2, 3, 4, 5, 6, 7])
  }

  /// Beethoven op. 18 no. 1, ii, measure 96: a 9/8 bar filled, then a rest of 59 divisions (at 672
  /// a quarter) with no type. The bar still lasts 9/8; a bar overfull by a whole eighth is kept.
  @Test func aStrayOverrunDoesNotLengthenTheBar() throws {
    let measures = """
      <measure number="1"><attributes><divisions>672</divisions><time><beats>9</beats><beat-type>8</beat-type></time></attributes>
        \(note("A", 4, 3024))\(rest(59))</measure>
      <measure number="2">\(note("B", 4, 3024))\(rest(336))</measure>
      <measure number="3">\(note("C", 5, 3024))</measure>
      """
    let score = try Score(musicXML: partwise(measures))
    #expect(score.measures.map(\.duration) == [Rational(9, 2), 5, Rational(9, 2)])
    #expect(score.notes.filter { !$0.isRest }.map(\.onset) == [0, Rational(9, 2), Rational(19, 2)])
    // The filler rest keeps its place and length, past the bar line.
    #expect(score.notes.first { $0.isRest }?.duration == Rational(59, 672))
  }

  /// Beethoven op. 18 no. 4, Trio: start-repeat signs written on the right barline of the bar
  /// before the section (music21 read them as end repeats and went back to the first movement).
  @Test func aForwardRepeatOnARightBarlineStartsTheNextMeasure() throws {
    func bar(_ number: Int, _ inside: String = "") -> String {
      let attributes =
        number == 1
        ? "<attributes><divisions>1</divisions><time><beats>1</beats><beat-type>4</beat-type></time></attributes>"
        : ""
      return "<measure number=\"\(number)\">\(attributes)\(note("C", 4, 1))\(inside)</measure>"
    }
    let forwardAtEnd =
      "<barline location=\"right\"><bar-style>heavy-light</bar-style><repeat direction=\"forward\"/></barline>"
    let backward = "<barline location=\"right\"><repeat direction=\"backward\"/></barline>"
    let measures = [bar(1), bar(2, forwardAtEnd), bar(3), bar(4, backward), bar(5)].joined()
    let score = try Score(musicXML: partwise(measures))
    #expect(score.measures.map(\.number) == ["1", "2", "3", "4", "3", "4", "5"])
  }
}
