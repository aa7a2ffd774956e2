import Foundation
import ScoreModel

/// The exercise `etude demo` grades: a short étude for B♭ trumpet, as MusicXML text.
///
/// Six bars of 4/4 at 100 quarters a minute (14.4 s): a bar of rest to count in, then five
/// bars in G major as written (the trumpet's part; it sounds a major second lower, in F major,
/// through `<transpose>`), with a slur over three notes, a staccato note, a quarter rest, and the
/// drawing position of every note (`default-x`, `default-y`, measure widths), as a notation
/// program writes them. Composed for the demo.
///
/// Score note indices (``Score/notes``): 0 the count-in rest; 1–4 bar 2 (G4, A4 slurred to B4
/// and C5); 5–7 bar 3 (D5 half, B4, G4); 8–11 bar 4 (E5, D5, F♯5, rest); 12–15 bar 5 (G5
/// staccato, E5, D5, B4); 16–18 bar 6 (C5, A4, G4 half). Pitches are written.
struct DemoEtude {
  /// The instrument whose partial table grades it.
  static let instrument = "trumpet"

  /// The score.
  ///
  /// - Throws: ``ScoreModelError`` if the text does not parse (a bug in this file).
  static func score() throws -> Score {
    try Score(musicXML: Data(musicXML.utf8))
  }

  /// The MusicXML text.
  static let musicXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <score-partwise version="4.0">
      <work><work-title>Little Étude in G</work-title></work>
      <identification><creator type="composer">Etude demo</creator></identification>
      <defaults>
        <scaling><millimeters>7</millimeters><tenths>40</tenths></scaling>
        <page-layout>
          <page-height>2200</page-height><page-width>1700</page-width>
          <page-margins type="both">
            <left-margin>70</left-margin><right-margin>70</right-margin>
            <top-margin>70</top-margin><bottom-margin>70</bottom-margin>
          </page-margins>
        </page-layout>
      </defaults>
      <part-list>
        <score-part id="P1"><part-name>Trumpet in B♭</part-name></score-part>
      </part-list>
      <part id="P1">
        <measure number="1" width="220">
          <print><system-layout><top-system-distance>150</top-system-distance></system-layout></print>
          <attributes>
            <divisions>1</divisions>
            <key><fifths>1</fifths><mode>major</mode></key>
            <time><beats>4</beats><beat-type>4</beat-type></time>
            <clef><sign>G</sign><line>2</line></clef>
            <transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose>
          </attributes>
          <direction placement="above">
            <direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>100</per-minute></metronome></direction-type>
            <sound tempo="100"/>
          </direction>
          <note default-x="150" default-y="-10"><rest measure="yes"/><duration>4</duration><voice>1</voice></note>
        </measure>
        <measure number="2" width="270">
          <direction placement="below"><direction-type><dynamics><mf/></dynamics></direction-type></direction>
          <note default-x="15" default-y="-30">
            <pitch><step>G</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>up</stem>
          </note>
          <note default-x="80" default-y="-25">
            <pitch><step>A</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>up</stem>
            <notations><slur type="start" number="1" placement="above"/></notations>
          </note>
          <note default-x="145" default-y="-20">
            <pitch><step>B</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="210" default-y="-15">
            <pitch><step>C</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
            <notations><slur type="stop" number="1"/></notations>
          </note>
        </measure>
        <measure number="3" width="240">
          <note default-x="15" default-y="-10">
            <pitch><step>D</step><octave>5</octave></pitch><duration>2</duration><voice>1</voice>
            <type>half</type><stem>down</stem>
          </note>
          <note default-x="125" default-y="-20">
            <pitch><step>B</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="180" default-y="-30">
            <pitch><step>G</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>up</stem>
          </note>
        </measure>
        <measure number="4" width="270">
          <note default-x="15" default-y="-5">
            <pitch><step>E</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="80" default-y="-10">
            <pitch><step>D</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="145" default-y="0">
            <pitch><step>F</step><alter>1</alter><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="210" default-y="-20"><rest/><duration>1</duration><voice>1</voice><type>quarter</type></note>
        </measure>
        <measure number="5" width="270">
          <note default-x="15" default-y="5">
            <pitch><step>G</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
            <notations><articulations><staccato placement="below"/></articulations></notations>
          </note>
          <note default-x="80" default-y="-5">
            <pitch><step>E</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="145" default-y="-10">
            <pitch><step>D</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="210" default-y="-20">
            <pitch><step>B</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
        </measure>
        <measure number="6" width="290">
          <note default-x="15" default-y="-15">
            <pitch><step>C</step><octave>5</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>down</stem>
          </note>
          <note default-x="80" default-y="-25">
            <pitch><step>A</step><octave>4</octave></pitch><duration>1</duration><voice>1</voice>
            <type>quarter</type><stem>up</stem>
          </note>
          <note default-x="150" default-y="-30">
            <pitch><step>G</step><octave>4</octave></pitch><duration>2</duration><voice>1</voice>
            <type>half</type><stem>up</stem>
          </note>
          <barline location="right"><bar-style>light-heavy</bar-style></barline>
        </measure>
      </part>
    </score-partwise>
    """
}
