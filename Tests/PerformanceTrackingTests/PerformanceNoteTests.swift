import Foundation
import ScoreModel
import Testing

@testable import PerformanceTracking

/// Score notes as the student is to play them: articulation from the marks, and the melody of a
/// score (rests kept, grace notes skipped, the top of a chord).
@Suite struct PerformanceNoteTests {
  static func scoreNote(
    _ midi: Int?, onset: Rational = 0, duration: Rational = 1, voice: Int = 1, isGrace: Bool = false,
    isTied: Bool = false, isSlurred: Bool = false, articulations: [ScoreNote.Articulation] = []
  ) -> ScoreNote {
    ScoreNote(
      voice: voice, onset: onset, duration: isGrace ? 0 : duration, onsetSeconds: onset.doubleValue / 2,
      durationSeconds: isGrace ? 0 : duration.doubleValue / 2,
      writtenPitch: midi.flatMap { MIDINote(rawValue: $0) },
      isGrace: isGrace, isTied: isTied, isSlurred: isSlurred, articulations: articulations)
  }

  @Test(
    arguments: [
      ([], false, false, PerformanceNote.Articulation.normal),
      ([], true, false, .legato),
      ([], false, true, .legato),
      ([.staccato], true, false, .staccato),
      ([.staccatissimo, .staccato], false, false, .staccatissimo),
      ([.tenuto], true, false, .tenuto),
      ([.accent], false, false, .normal),
      ([.staccato, .tenuto], false, false, .staccato),
    ] as [([ScoreNote.Articulation], Bool, Bool, PerformanceNote.Articulation)])
  func articulationComesFromTheMarksThenSlursAndTies(
    marks: [ScoreNote.Articulation], slurred: Bool, tied: Bool, expected: PerformanceNote.Articulation
  ) {
    let note = PerformanceNote(
      Self.scoreNote(67, isTied: tied, isSlurred: slurred, articulations: marks), index: 3)
    #expect(note.articulation == expected)
    #expect(note.isTied == tied)
    #expect(note.index == 3)
  }

  @Test func aTransposingNoteKeepsItsWrittenAndSoundingPitch() {
    var source = Self.scoreNote(74, onset: 2, duration: 3)
    source.soundingPitch = MIDINote(rawValue: 72)
    source.measure = 4
    source.x = 120
    source.y = 40
    let note = PerformanceNote(source, index: 0)
    #expect(note.writtenPitch?.rawValue == 74)
    #expect(note.soundingPitch?.rawValue == 72)
    #expect(note.expectedStart == 1 && note.expectedDuration == 1.5 && note.expectedEnd == 2.5)
    #expect(note.measure == 4 && note.x == 120 && note.y == 40)
    #expect(!note.isRest)
    #expect(PerformanceNote(index: 0, expectedStart: 0, expectedDuration: 1, writtenPitch: nil).isRest)
  }

  /// C4 staccato, rest, a grace note before the chord E4+G4, C5–D5 slurred, E5 tied over two
  /// beats, rest; F5 tenuto, G5 staccato under a slur to A5, rest.
  static let musicXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <score-partwise version="4.0">
      <part-list><score-part id="P1"><part-name>Flute</part-name></score-part></part-list>
      <part id="P1">
        <measure number="1">
          <attributes><divisions>2</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>
          <note><pitch><step>C</step><octave>4</octave></pitch><duration>2</duration>
            <notations><articulations><staccato/></articulations></notations></note>
          <note><rest/><duration>2</duration></note>
          <note><grace/><pitch><step>D</step><octave>5</octave></pitch><type>eighth</type></note>
          <note><pitch><step>E</step><octave>4</octave></pitch><duration>2</duration></note>
          <note><chord/><pitch><step>G</step><octave>4</octave></pitch><duration>2</duration></note>
          <note><pitch><step>C</step><octave>5</octave></pitch><duration>2</duration>
            <notations><slur type="start"/></notations></note>
        </measure>
        <measure number="2">
          <note><pitch><step>D</step><octave>5</octave></pitch><duration>2</duration>
            <notations><slur type="stop"/></notations></note>
          <note><pitch><step>E</step><octave>5</octave></pitch><duration>2</duration><tie type="start"/>
            <notations><tied type="start"/></notations></note>
          <note><pitch><step>E</step><octave>5</octave></pitch><duration>2</duration><tie type="stop"/>
            <notations><tied type="stop"/></notations></note>
          <note><rest/><duration>2</duration></note>
        </measure>
        <measure number="3">
          <note><pitch><step>F</step><octave>5</octave></pitch><duration>2</duration>
            <notations><articulations><tenuto/></articulations></notations></note>
          <note><pitch><step>G</step><octave>5</octave></pitch><duration>2</duration>
            <notations><slur type="start"/><articulations><staccato/></articulations></notations></note>
          <note><pitch><step>A</step><octave>5</octave></pitch><duration>2</duration>
            <notations><slur type="stop"/></notations></note>
          <note><rest/><duration>2</duration></note>
        </measure>
      </part>
    </score-partwise>
    """

  /// A slur over G4 G4 A4 B4: the first G4 is tongued again into its repeat (normal), the
  /// repeat and the A4 are slurred into the next note (legato), the B4 ends the slur (normal).
  @Test func aRepeatUnderASlurIsTonguedAndTheSlursLastNoteReleased() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <score-partwise version="4.0">
        <part-list><score-part id="P1"><part-name>Flute</part-name></score-part></part-list>
        <part id="P1"><measure number="1">
          <attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time></attributes>
          <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration>
            <notations><slur type="start"/></notations></note>
          <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>A</step><octave>4</octave></pitch><duration>1</duration></note>
          <note><pitch><step>B</step><octave>4</octave></pitch><duration>1</duration>
            <notations><slur type="stop"/></notations></note>
        </measure></part>
      </score-partwise>
      """
    let melody = PerformanceNote.melody(of: try Score(musicXML: Data(xml.utf8)))
    #expect(melody.map(\.articulation) == [.normal, .legato, .legato, .normal])
  }

  @Test func theMelodyOfAMusicXMLScore() throws {
    let score = try Score(musicXML: Data(Self.musicXML.utf8))
    let melody = PerformanceNote.melody(of: score)
    #expect(melody.map { $0.writtenPitch?.rawValue } == [60, nil, 67, 72, 74, 76, nil, 77, 79, 81, nil])
    #expect(
      melody.map(\.articulation) == [
        .staccato, .normal, .normal, .legato, .normal, .legato, .normal, .tenuto, .staccato, .normal, .normal,
      ])
    #expect(melody.map(\.measure) == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3])
    // The tied E5 is one note of two beats (one second at the default 120 BPM).
    #expect(melody[5].isTied && melody[5].expectedStart == 2.5 && melody[5].expectedDuration == 1)
    #expect(melody.map(\.expectedStart) == [0, 0.5, 1, 1.5, 2, 2.5, 3.5, 4, 4.5, 5, 5.5])
    // Each note points back at its score note; the grace note and the chord's E4 are skipped.
    for note in melody {
      let source = score.notes[note.index]
      #expect(!source.isGrace)
      #expect(source.writtenPitch == note.writtenPitch && source.onsetSeconds == note.expectedStart)
    }
    let skipped = Set(score.notes.indices).subtracting(melody.map(\.index))
    #expect(
      skipped.map { score.notes[$0].writtenPitch?.rawValue }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [64, 74])
    #expect(skipped.contains { score.notes[$0].isGrace })
  }

  @Test func theTopOfAChordWinsWhateverItsPlaceInTheList() {
    let score = Score(notes: [
      Self.scoreNote(72, onset: 0), Self.scoreNote(64, onset: 0), Self.scoreNote(67, onset: 0),
      Self.scoreNote(62, onset: 1), Self.scoreNote(65, onset: 1),
    ])
    let melody = PerformanceNote.melody(of: score)
    #expect(melody.map { $0.writtenPitch?.rawValue } == [72, 65])
    #expect(melody.map(\.index) == [0, 4])
  }

  @Test func aRestIsDroppedOnlyWhenAnotherVoiceSoundsThroughIt() {
    // Voice 1: C5 for two beats, then two one-beat rests. Voice 2: a one-beat rest, then G4
    // for two beats.
    let score = Score(notes: [
      Self.scoreNote(nil, onset: 0, voice: 2), Self.scoreNote(72, onset: 0, duration: 2),
      Self.scoreNote(67, onset: 1, duration: 2, voice: 2), Self.scoreNote(nil, onset: 2, duration: 1),
      Self.scoreNote(nil, onset: 3, duration: 1),
    ])
    let melody = PerformanceNote.melody(of: score)
    // The voice-2 rest at 0 lies under the C5 and the rest at 2 under the G4: dropped. The rest
    // at 3 is silent in every voice: kept.
    #expect(melody.map { $0.writtenPitch?.rawValue } == [72, 67, nil])
    #expect(melody.map(\.index) == [1, 2, 4])
  }

  @Test func graceNotesAreNeverPartOfTheMelody() {
    let score = Score(notes: [
      Self.scoreNote(74, onset: 0, isGrace: true), Self.scoreNote(72, onset: 0), Self.scoreNote(76, onset: 1),
    ])
    let melody = PerformanceNote.melody(of: score)
    #expect(melody.map { $0.writtenPitch?.rawValue } == [72, 76])
  }
}
