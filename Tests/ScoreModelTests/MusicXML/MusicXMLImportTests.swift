import Foundation
import Testing

@testable import ScoreModel

/// A one-part partwise score around the given measures.
func partwise(_ measures: String, parts: String = "<score-part id=\"P1\"><part-name>Trumpet</part-name></score-part>", extra: String = "") -> Data {
  Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
    <score-partwise version="4.0">\(extra)
      <part-list>\(parts)</part-list>
      <part id="P1">\(measures)</part>
    </score-partwise>
    """.utf8)
}

func note(_ step: String, _ octave: Int, _ duration: Int, alter: Int = 0, extra: String = "", attributes: String = "") -> String {
  "<note\(attributes)><pitch><step>\(step)</step>\(alter != 0 ? "<alter>\(alter)</alter>" : "")<octave>\(octave)</octave></pitch><duration>\(duration)</duration>\(extra)</note>"
}

func rest(_ duration: Int, extra: String = "") -> String { "<note><rest/><duration>\(duration)</duration>\(extra)</note>" }

let fourFour = "<attributes><divisions>2</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time></attributes>"

@Suite struct MusicXMLImportTests {
  @Test func notesRestsChordsVoicesAndBackup() throws {
    let measure = """
      <measure number="1">\(fourFour)
        \(note("C", 4, 2))\(note("E", 4, 2, extra: "<chord/>").replacingOccurrences(of: "<pitch>", with: "<chord/><pitch>").replacingOccurrences(of: "<chord/></note>", with: "</note>"))
        \(rest(2))\(note("G", 4, 4))
        <backup><duration>8</duration></backup>
        \(note("C", 3, 8, extra: "<voice>2</voice>"))
      </measure>
      """
    let score = try Score(musicXML: partwise(measure))
    let notes = score.notes
    #expect(notes.map(\.onset) == [0, 0, 0, 1, 2])
    #expect(notes.map { $0.soundingPitch?.rawValue } == [48, 60, 64, nil, 67])
    #expect(notes.map(\.duration) == [4, 1, 1, 1, 2])
    #expect(notes[0].voice == 2 && notes[1].voice == 1)
    #expect(notes[3].isRest)
    #expect(score.measures.count == 1 && score.measures[0].duration == 4)
    // 120 BPM by default: a quarter is half a second.
    #expect(notes[4].onsetSeconds == 1 && notes[4].durationSeconds == 1)
  }

  @Test func tiesMergeAcrossBarlinesButSlursDoNot() throws {
    let measures = """
      <measure number="1">\(fourFour)\(rest(4))\(note("G", 4, 4, extra: "<tie type=\"start\"/><notations><tied type=\"start\"/></notations>"))</measure>
      <measure number="2">\(note("G", 4, 2, extra: "<tie type=\"stop\"/><notations><slur type=\"start\"/></notations>"))\(note("A", 4, 2, extra: "<notations><slur type=\"stop\"/></notations>"))\(note("B", 4, 4))</measure>
      """
    let score = try Score(musicXML: partwise(measures))
    let pitched = score.notes.filter { !$0.isRest }
    #expect(pitched.map(\.onset) == [2, 5, 6])
    #expect(pitched.map(\.duration) == [3, 1, 2])
    #expect(pitched[0].isTied && !pitched[1].isTied)
    // The tied G4's last part slurs into the A4; the A4 ends the slur: released as usual.
    #expect(pitched[0].isSlurred && !pitched[1].isSlurred && !pitched[2].isSlurred)
    #expect(pitched[0].measure == 1)
  }

  @Test func aNoteIsSlurredWhileASlurCarriesItIntoTheNext() throws {
    // Slur 1 over C D E; slur 2 from E (where slur 1 stops) to G; slur 3, nested in slur 2,
    // from F to G. G ends both; A is under no slur.
    let measures = """
      <measure number="1">\(fourFour)\(note("C", 4, 1, extra: "<notations><slur type=\"start\" number=\"1\"/></notations>"))\(note("D", 4, 1))\(note("E", 4, 1, extra: "<notations><slur type=\"stop\" number=\"1\"/><slur type=\"start\" number=\"2\"/></notations>"))\(note("F", 4, 1, extra: "<notations><slur type=\"start\" number=\"3\"/></notations>"))\(note("G", 4, 2, extra: "<notations><slur type=\"stop\" number=\"3\"/><slur type=\"stop\" number=\"2\"/></notations>"))\(note("A", 4, 2))</measure>
      """
    let pitched = try Score(musicXML: partwise(measures)).notes.filter { !$0.isRest }
    #expect(pitched.map(\.isSlurred) == [true, true, true, true, false, false])
  }

  @Test func tupletsDotsGraceAndCueNotes() throws {
    // Divisions 6: a triplet eighth lasts 2 divisions (1/3 quarter).
    let measure = """
      <measure number="1"><attributes><divisions>6</divisions><time><beats>2</beats><beat-type>4</beat-type></time></attributes>
        <note><grace/><pitch><step>D</step><octave>5</octave></pitch><type>eighth</type></note>
        \(note("C", 5, 2, extra: "<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>"))
        \(note("D", 5, 2, extra: "<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>"))
        \(note("E", 5, 2, extra: "<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>"))
        <note><cue/><pitch><step>F</step><octave>5</octave></pitch><duration>3</duration></note>
        \(note("G", 5, 3, extra: "<dot/>"))
      </measure>
      """
    let notes = try Score(musicXML: partwise(measure)).notes
    #expect(notes.map { $0.spelling?.description } == ["D5", "C5", "D5", "E5", "G5"])
    #expect(notes[0].isGrace && notes[0].duration == 0)
    #expect(notes.map(\.onset) == [0, 0, Rational(1, 3), Rational(2, 3), Rational(3, 2)])
    #expect(notes[4].duration == Rational(1, 2))  // after the (silent) cue note
  }

  @Test func divisionsChangeAndForward() throws {
    let measures = """
      <measure number="1"><attributes><divisions>1</divisions><time><beats>2</beats><beat-type>4</beat-type></time></attributes>\(note("C", 4, 1))<forward><duration>1</duration></forward></measure>
      <measure number="2"><attributes><divisions>4</divisions></attributes>\(note("D", 4, 3))\(note("E", 4, 5))</measure>
      """
    let notes = try Score(musicXML: partwise(measures)).notes
    #expect(notes.map(\.onset) == [0, 2, Rational(11, 4)])
    #expect(notes.map(\.duration) == [1, Rational(3, 4), Rational(5, 4)])
  }

  @Test func pickupMeasureAndTempoMap() throws {
    let measures = """
      <measure number="0" implicit="yes"><attributes><divisions>1</divisions><time><beats>3</beats><beat-type>4</beat-type></time></attributes>
        <direction><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>60</per-minute></metronome></direction-type></direction>\(note("G", 4, 1))</measure>
      <measure number="1">\(note("C", 5, 2))<direction><direction-type><words>a tempo</words></direction-type><sound tempo="120"/></direction>\(note("D", 5, 1))</measure>
      <measure number="2"><direction><direction-type><metronome><beat-unit>half</beat-unit><beat-unit-dot/><per-minute>40</per-minute></metronome></direction-type></direction>\(note("E", 5, 3))</measure>
      """
    let score = try Score(musicXML: partwise(measures))
    #expect(score.measures.map(\.duration) == [1, 3, 3])
    #expect(score.notes.map(\.measure) == [0, 1, 1, 2])
    #expect(score.tempos.map(\.bpm) == [60, 120])  // a dotted half at 40 is 120 quarters a minute
    #expect(score.tempos.map(\.quarters) == [0, 3])
    // 3 quarters at 60 BPM, then 120.
    #expect(score.notes.map(\.onsetSeconds) == [0, 1, 3, 3.5])
  }

  @Test func compositeSignaturesNoSignatureAndImplicitMeasureNumbers() throws {
    // 3/8+2/8+3/4 is an 11/8 bar (lilypond 11d); 5/2+1/8 is 21/8.
    let composite = """
      <measure number="1"><attributes><divisions>2</divisions><time><beats>3</beats><beat-type>8</beat-type><beats>2</beats><beat-type>8</beat-type><beats>3</beats><beat-type>4</beat-type></time></attributes>\(note("C", 4, 11))</measure>
      <measure number="2"><attributes><time><beats>5</beats><beat-type>2</beat-type><beats>1</beats><beat-type>8</beat-type></time></attributes>\(note("D", 4, 21))</measure>
      """
    let signatures = try Score(musicXML: partwise(composite)).timeSignatures
    #expect(signatures.map { "\($0.numerator)/\($0.denominator)@\($0.quarters)" } == ["11/8@0", "21/8@11/2"])
    // No <time>: no signature (not an invented 4/4); an implicit measure "X1" carries the number
    // of the bar it continues, "12a" is bar 12.
    let plain = """
      <measure number="1"><attributes><divisions>1</divisions></attributes>\(note("C", 4, 2))</measure>
      <measure number="X1" implicit="yes">\(note("D", 4, 2))</measure>
      <measure number="12a">\(note("E", 4, 2))</measure>
      """
    let score = try Score(musicXML: partwise(plain))
    #expect(score.timeSignatures.isEmpty)
    #expect(score.notes.map(\.measure) == [1, 1, 12])
  }

  @Test func transposingInstrumentsAndConcertScores() throws {
    let transpose = "<transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose>"
    let measures = """
      <measure number="1"><attributes><divisions>1</divisions>\(transpose)<time><beats>2</beats><beat-type>4</beat-type></time></attributes>\(note("D", 5, 2))</measure>
      <measure number="2"><attributes><transpose><diatonic>-5</diatonic><chromatic>-9</chromatic></transpose></attributes>\(note("A", 4, 2))</measure>
      """
    let written = try Score(musicXML: partwise(measures))
    #expect(written.parts[0].transposeSemitones == -2)
    #expect(written.notes.map { $0.writtenPitch?.rawValue } == [74, 69])
    #expect(written.notes.map { $0.soundingPitch?.rawValue } == [72, 60])
    #expect(written.notes[0].spelling?.description == "D5")
    // The same notes in a concert score: they sound as written on the page.
    let concert = try Score(musicXML: partwise(measures, extra: "<defaults><concert-score/></defaults>"))
    #expect(concert.notes.map { $0.soundingPitch?.rawValue } == [74, 69])
    #expect(concert.notes.map { $0.writtenPitch?.rawValue } == [76, 78])
  }

  @Test func repeatsEndingsAndJumpsExpand() throws {
    func bar(_ number: Int, _ inside: String = "") -> String {
      "<measure number=\"\(number)\">\(number == 1 ? "<attributes><divisions>1</divisions><time><beats>1</beats><beat-type>4</beat-type></time></attributes>" : "")\(inside)\(note("C", 4, 1))</measure>"
    }
    let forward = "<barline location=\"left\"><repeat direction=\"forward\"/></barline>"
    let backward = "<barline location=\"right\"><repeat direction=\"backward\"/></barline>"
    // ||: 1 2 [1. 3 :|| [2. 4 ] 5 (Fine) 6 D.C. al Fine
    let measures = [
      bar(1, forward), bar(2),
      bar(3, "<barline location=\"left\"><ending number=\"1\" type=\"start\"/></barline><barline location=\"right\"><ending number=\"1\" type=\"stop\"/><repeat direction=\"backward\"/></barline>"),
      bar(4, "<barline location=\"left\"><ending number=\"2\" type=\"start\"/></barline><barline location=\"right\"><ending number=\"2\" type=\"discontinue\"/></barline>"),
      bar(5, "<direction><direction-type><words>Fine</words></direction-type><sound fine=\"yes\"/></direction>"),
      bar(6, "<direction><direction-type><words>D.C. al Fine</words></direction-type><sound dacapo=\"yes\"/></direction>"),
    ].joined()
    let expanded = try Score(musicXML: partwise(measures))
    #expect(expanded.measures.map(\.number) == ["1", "2", "3", "1", "2", "4", "5", "6", "1", "2", "4", "5"])
    #expect(expanded.notes.count == 12)
    #expect(expanded.notes.last?.onset == 11)
    let notation = try Score(musicXML: partwise(measures), options: .init(expandsRepeats: false))
    #expect(notation.measures.map(\.number) == ["1", "2", "3", "4", "5", "6"])
    #expect(!notation.isExpanded)
    // A backward repeat with no forward sign goes back to the start.
    let simple = [bar(1), bar(2, backward), bar(3)].joined()
    #expect(try Score(musicXML: partwise(simple)).measures.map(\.number) == ["1", "2", "1", "2", "3"])
  }

  @Test func timewiseScoresReadLikePartwise() throws {
    let timewise = Data(
      """
      <?xml version="1.0"?>
      <score-timewise><part-list><score-part id="A"><part-name>Flute</part-name></score-part><score-part id="B"><part-name>Cello</part-name></score-part></part-list>
      <measure number="1"><part id="A"><attributes><divisions>1</divisions></attributes>\(note("E", 5, 4))</part><part id="B"><attributes><divisions>1</divisions></attributes>\(note("C", 3, 4))</part></measure>
      <measure number="2"><part id="A">\(note("F", 5, 4))</part><part id="B">\(note("D", 3, 4))</part></measure>
      </score-timewise>
      """.utf8)
    let score = try Score(musicXML: timewise)
    #expect(score.parts.map(\.name) == ["Flute", "Cello"])
    #expect(score.notes.map { $0.spelling?.description } == ["E5", "C3", "F5", "D3"])
    #expect(score.notes.map(\.part) == ["A", "B", "A", "B"])
    #expect(score.selectingPart("cello")?.notes.count == 2)
    #expect(score.selectingPart("Z") == nil)
  }

  @Test func layoutComesFromTheFileOrIsProportional() throws {
    let measures = """
      <measure number="1" width="200"><print><system-layout><system-margins><left-margin>10</left-margin></system-margins></system-layout></print>\(fourFour)\(note("F", 5, 8, attributes: " default-x=\"30\" default-y=\"0\""))</measure>
      <measure number="2" width="150"><print new-system="yes"/>\(note("E", 4, 8, attributes: " default-x=\"20\" default-y=\"-35\""))</measure>
      """
    let score = try Score(musicXML: partwise(measures, extra: "<defaults><page-layout><page-height>1000</page-height><page-width>800</page-width><page-margins><left-margin>50</left-margin><right-margin>50</right-margin><top-margin>60</top-margin><bottom-margin>60</bottom-margin></page-margins></page-layout><system-layout><system-margins><left-margin>0</left-margin><right-margin>0</right-margin></system-margins><system-distance>100</system-distance><top-system-distance>40</top-system-distance></system-layout></defaults>"))
    // Measure 1 at the page margin plus the system margin: x = 50 + 10 + 30; y = 60 + 40 − 0.
    #expect(score.notes[0].x == 90 && score.notes[0].y == 100)
    // Measure 2 on a new system 100 tenths below a 40-tenth staff: y = 100 + 40 + 100 + 35.
    #expect(score.notes[1].x == 50 + 0 + 20 && score.notes[1].y == 275)
    // Without widths or defaults: proportional, and a treble-clef height.
    let plain = try Score(musicXML: partwise("<measure number=\"1\">\(fourFour)\(note("F", 5, 4))\(note("E", 4, 4))</measure>"))
    #expect(plain.notes[1].x! > plain.notes[0].x!)
    #expect(plain.notes[1].y! - plain.notes[0].y! == 40)  // F5 on the top line, E4 on the bottom one
  }

  @Test(arguments: [
    ("<score-partwise><part-list/><part id=\"P1\"><measure number=\"1\"><note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration></note></measure></part></score-partwise>",
      "invalid MusicXML at score-partwise/part[P1]/measure[1]/note[1]/duration (line 1): a duration before any <divisions> is set"),
    ("<score-partwise><part-list/></score-partwise>", "invalid MusicXML at score-partwise (line 1): the score has no <part>"),
    ("<html/>", "invalid MusicXML at html (line 1): expected a score-partwise or score-timewise root element, found <html>"),
    ("<score-partwise>\n  <part-list>\n  </part>", "not well-formed XML at line 3, column 9: closing tag </part> does not match <part-list> opened on line 2"),
    ("<score-partwise a=1/>", "not well-formed XML at line 1, column 19: expected a quoted value for attribute a"),
    ("", "not well-formed XML at line 1, column 1: the document is empty: expected a root element"),
    ("<score-partwise>&bogus;</score-partwise>", "not well-formed XML at line 1, column 17: unknown entity &bogus;"),
  ])
  func badInputIsATypedErrorWithItsPlace(xml: String, message: String) {
    #expect(performing: { try Score(musicXML: Data(xml.utf8)) }, throws: { ($0 as? ScoreModelError)?.description == message })
  }

  @Test func textEncodingsAreCheckedAndUTF16IsRead() throws {
    let xml = "<score-partwise><part-list><score-part id=\"P1\"><part-name>Fl\u{FB}te \u{1D11E}</part-name></score-part></part-list><part id=\"P1\"><measure number=\"1\">\(fourFour)\(note("C", 5, 4))</measure></part></score-partwise>"
    var littleEndian: [UInt8] = [0xFF, 0xFE]
    var bigEndian: [UInt8] = [0xFE, 0xFF]
    for unit in xml.utf16 {
      littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
    }
    for bytes in [littleEndian, bigEndian, [0xEF, 0xBB, 0xBF] + Array(xml.utf8)] {
      let score = try Score(musicXML: Data(bytes))
      #expect(score.parts.map(\.name) == ["Fl\u{FB}te \u{1D11E}"])
      #expect(score.notes.count == 1)
    }
    // A lone low surrogate, a truncated sequence, an overlong form and an encoded surrogate.
    let broken: [[UInt8]] = [
      littleEndian.prefix(8) + [0x00, 0xDC] + littleEndian.dropFirst(8),
      Array("<a>\n<b>".utf8) + [0xE2, 0x82] + Array("</b></a>".utf8),
      Array("<a>".utf8) + [0xC0, 0xAF] + Array("</a>".utf8),
      Array("<a>".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8),
    ]
    let messages = [
      "not well-formed XML at line 1, column 1: an unpaired UTF-16 surrogate",
      "not well-formed XML at line 2, column 4: text that is not valid UTF-8",
      "not well-formed XML at line 1, column 4: text that is not valid UTF-8",
      "not well-formed XML at line 1, column 4: text that is not valid UTF-8",
    ]
    for (bytes, message) in zip(broken, messages) {
      #expect(performing: { try Score(musicXML: Data(bytes)) }, throws: { ($0 as? ScoreModelError)?.description == message })
    }
  }
}

@Suite struct ScoreClockTests {
  @Test func eventsComeInTimeOrderWithACountIn() throws {
    let measures = """
      <measure number="1">\(fourFour)\(note("C", 4, 4))\(note("D", 4, 4))</measure>
      <measure number="2">\(note("E", 4, 8))</measure>
      """
    let score = try Score(musicXML: partwise(measures))
    let clock = ScoreClock(score: score, tempoScale: 2, countInBeats: 2)
    // At 120 BPM and twice as fast, a beat lasts 0.25 s: a 0.5 s count-in.
    #expect(clock.countInSeconds == 0.5)
    var buffer = [TimedScoreEvent](repeating: .init(seconds: 0, event: .barStart(measure: 0)), count: 3)
    var all: [TimedScoreEvent] = []
    // 1 kHz "audio" in blocks of 137 samples, with a small output buffer.
    while !clock.isFinished {
      let n = buffer.withUnsafeMutableBufferPointer { clock.advance(samples: 137, sampleRate: 1000, into: $0) }
      all += buffer[0..<n]
    }
    #expect(all.map(\.event) == [
      .countIn(beat: 1, of: 2), .countIn(beat: 2, of: 2), .barStart(measure: 0), .noteStart(note: 0),
      .noteEnd(note: 0), .noteStart(note: 1), .noteEnd(note: 1), .barStart(measure: 1), .noteStart(note: 2), .noteEnd(note: 2),
    ])
    #expect(all.map(\.seconds) == [0, 0.25, 0.5, 0.5, 1, 1, 1.5, 1.5, 1.5, 2.5])
    #expect(zip(all, all.dropFirst()).allSatisfy { $0.seconds <= $1.seconds })
    clock.reset()
    #expect(clock.position == 0 && !clock.isFinished)
  }
}
