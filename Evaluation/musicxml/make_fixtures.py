#!/usr/bin/env python3
"""Builds Tests/ScoreModelTests/Fixtures/musicxml/ (the MusicXML conformance fixtures).

    python3 Evaluation/musicxml/make_fixtures.py [--suite DIR]

1. copies the chosen files of the LilyPond MusicXML test suite (MIT) from the music21 wheel
   (downloaded with `pip download music21 --no-deps` into Evaluation/musicxml/work/pypi unless
   --suite names an unpacked lilypondTestSuite folder);
2. derives two files from them: a .mxl made to the MusicXML container spec (`mimetype` first and
   stored, META-INF/container.xml naming the root file) and a score-timewise copy of 72a;
3. writes Etude's own small fixtures (etude-*.xml) for what the suite does not cover: cue notes,
   <sound tempo>, <forward>, da capo / dal segno / fine / coda, <concert-score/>, octave
   transpositions, ties in chords and voices;
4. writes the fixture README (file list, what each tests, licence).

Expectations are made separately by make_expectations.py. Deterministic: rerunning gives the
same bytes (zip timestamps fixed).
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, 'Tests', 'ScoreModelTests', 'Fixtures', 'musicxml')
WORK = os.path.join(HERE, 'work')
sys.path.insert(0, HERE)

# file -> what it exercises for Etude's importer
SUITE = {
    '01a-Pitches-Pitches.xml': 'pitches G2-C7 with every accidental (spelling, MIDI numbers)',
    '01c-Pitches-NoVoiceElement.xml': 'a note without <voice> (voice defaults to 1)',
    '02a-Rests-Durations.xml': 'rests of every duration, whole-measure rests',
    '02b-Rests-PitchedRests.xml': 'rests with display-step/octave (still rests, no pitch)',
    '02c-Rests-MultiMeasureRests.xml': 'multi-measure rests (<multiple-rest>): one rest per measure',
    '02e-Rests-NoType.xml': 'rests without <type> (duration only)',
    '03aa-Rhythm-Durations.xml': 'note durations whole to 128th, dotted and double-dotted',
    '03ab-Rhythm-Durations.xml': 'extreme durations: long (breve/longa) and 128th',
    '03b-Rhythm-Backup.xml': '<backup> to write two voices',
    '03c-Rhythm-DivisionChange.xml': '<divisions> changing mid-measure (1 -> 8 -> 38)',
    '03d-Rhythm-DottedDurations-Factors.xml': 'dotted durations and non-dotted lengths (5/16, 9/8)',
    '11a-TimeSignatures.xml': 'time signatures 2/2 ... 9/8, common and cut symbols',
    '11b-TimeSignatures-NoTime.xml': 'no <time> at all',
    '11c-TimeSignatures-CompoundSimple.xml': 'compound signatures 3+2/8 etc.',
    '11d-TimeSignatures-CompoundMultiple.xml': 'composite signatures 2/4+3/8',
    '11e-TimeSignatures-CompoundMixed.xml': 'mixed composite 3+2/8+3/4',
    '11g-TimeSignatures-SingleNumber.xml': 'single-number signature display',
    '11h-TimeSignatures-SenzaMisura.xml': 'senza-misura (no meter)',
    '13a-KeySignatures.xml': 'every major and minor key signature',
    '13e-KeySignatures-MidMeasure-Change.xml': 'key changes in mid-measure',
    '21a-Chord-Basic.xml': 'one chord (<chord/>)',
    '21b-Chords-TwoNotes.xml': 'two-note chords',
    '21c-Chords-ThreeNotesDuration.xml': 'three-note chords with dotted durations',
    '21d-Chords-SchubertStabatMater.xml': 'chords in a real excerpt, two staves',
    '21e-Chords-PickupMeasures.xml': 'chords in pickup measures',
    '21f-Chord-ElementInBetween.xml': 'a <direction> between the notes of a chord',
    '23a-Tuplets.xml': 'triplets and other tuplets (<time-modification>)',
    '23b-Tuplets-Styles.xml': 'tuplet display styles (timing as 23a)',
    '23c-Tuplet-Display-NonStandard.xml': 'non-standard tuplet displays',
    '23d-Tuplets-Nested.xml': 'nested tuplets',
    '23e-Tuplets-Tremolo.xml': 'tremolo tuplets on single notes',
    '23f-Tuplets-DurationButNoBracket.xml': 'time-modification without a bracket',
    '24a-GraceNotes.xml': 'grace notes: slashed, unslashed, chords, beamed',
    '24b-ChordAsGraceNote.xml': 'a chord as a grace note',
    '24c-GraceNote-MeasureEnd.xml': 'grace notes at the end of a measure',
    '24d-AfterGrace.xml': 'after-graces (steal-time-previous/following)',
    '24e-GraceNote-StaffChange.xml': 'a grace note on another staff than its main note',
    '24f-GraceNote-Slur.xml': 'a grace note slurred to its main note (slur, not tie)',
    '31a-Directions.xml': 'every <direction> type, segno and coda signs without jumps',
    '31c-MetronomeMarks.xml': 'metronome marks with dotted and other beat units',
    '33a-Spanners.xml': 'all spanners: tuplet, slur, tie, wedge, octave-shift, tremolo ...',
    '33b-Spanners-Tie.xml': 'a tie across a barline',
    '33c-Spanners-Slurs.xml': 'slurs between same pitches (slurs are not ties)',
    '33d-Spanners-OctaveShifts.xml': 'octave shifts (8va/8vb/15ma/15mb): display only, pitch data is real',
    '33g-Slur-ChordedNotes.xml': 'slurs on chords',
    '33i-Ties-NotEnded.xml': 'ties whose stop is missing',
    '41a-MultiParts-Partorder.xml': 'four parts, divisions differing per part',
    '41b-MultiParts-MoreThan10.xml': 'more than 10 parts',
    '41c-StaffGroups.xml': 'a 28-part orchestra: part groups, transposing instruments',
    '41g-PartNoId.xml': 'a <part> without id (one part)',
    '41h-TooManyParts.xml': 'a <part> the part-list does not declare',
    '42a-MultiVoice-TwoVoicesOnStaff-Lyrics.xml': 'two voices on one staff',
    '42b-MultiVoice-MidMeasureClefChange.xml': 'two voices, <backup> beyond a mid-measure clef change',
    '43a-PianoStaff.xml': 'one part on two staves',
    '43b-MultiStaff-DifferentKeys.xml': 'two staves with different keys',
    '43c-MultiStaff-DifferentKeysAfterBackup.xml': 'staff keys given after a backup',
    '43d-MultiStaff-StaffChange.xml': 'a voice crossing staves (<staff> changes), split chords',
    '43e-Multistaff-ClefDynamics.xml': 'two staves with clef changes and dynamics',
    '45a-SimpleRepeat.xml': 'a repeat',
    '45b-RepeatWithAlternatives.xml': 'a repeat with first and second endings',
    '45c-RepeatMultipleTimes.xml': 'repeats with times="5" and times="3"',
    '45d-Repeats-Nested-Alternatives.xml': 'endings 1, 2, 3 and 1/5 on several repeats',
    '45e-Repeats-Nested-Alternatives.xml': 'nested repeats with alternatives',
    '45f-Repeats-InvalidEndings.xml': 'endings that make no sense ("1, 2, 3" then 2)',
    '45g-Repeats-NotEnded.xml': 'a forward repeat with no backward repeat',
    '46a-Barlines.xml': 'every barline style (no repeats)',
    '46b-MidmeasureBarline.xml': 'a barline in mid-measure',
    '46c-Midmeasure-Clef.xml': 'a clef change in mid-measure, with an implicit measure',
    '46d-PickupMeasure-ImplicitMeasures.xml': 'pickup measure 0 and an implicit measure X1',
    '46e-PickupMeasure-SecondVoiceStartsLater.xml': 'a pickup whose second voice starts later',
    '46f-IncompleteMeasures.xml': 'measures shorter than the time signature',
    '46g-PickupMeasure-Chordnames-FiguredBass.xml': 'a pickup with chord names and figured bass (not notes)',
    '72a-TransposingInstruments.xml': 'Bb trumpet, Eb horn and piano: <transpose> chromatic/diatonic',
    '72b-TransposingInstruments-Full.xml': 'every common transposing instrument, octave-change included',
    '72c-TransposingInstruments-Change.xml': 'the transposition changing in mid-part (Eb to Bb clarinet)',
    '90a-Compressed-MusicXML.mxl': 'a compressed .mxl as the suite ships it (no mimetype entry, a PDF beside the score)',
}

OWN = {
    'etude-90b-container-spec.mxl': '45b packed to the container spec: `mimetype` first and stored, '
                                    'META-INF/container.xml naming `score.musicxml`, DEFLATE',
    'etude-timewise-72a.xml': '72a converted to score-timewise (same notes as 72a)',
    'etude-cue-notes.xml': 'cue notes (<cue/>): not played, time advances; cue chord members and a cue grace note',
    'etude-sound-tempo.xml': '<sound tempo> alone, metronome with a dotted beat unit, half-note beat, '
                             '<sound> as a measure child, a metronome mark contradicted by <sound tempo>',
    'etude-forward.xml': '<forward> in both voices (a Finale-encoded file, where music21 adds spacer rests)',
    'etude-da-capo-fine.xml': 'a repeated section, then D.C. al Fine (words + <sound dacapo/fine>); '
                              'repeats not taken again after the jump',
    'etude-dal-segno-coda.xml': 'segno, To Coda, D.S. al Coda, coda (signs, words and <sound> attributes)',
    'etude-concert-score.xml': '<concert-score/>: pitches are sounding; written = sounding - transposition',
    'etude-transpose-octave.xml': 'octave-change alone (guitar, piccolo) and with chromatic (bass clarinet, -14)',
    'etude-ties.xml': 'partial chord ties, slurs between equal pitches, an enharmonic tie, ties in a second voice, '
                      'a tie into a two-voice measure, a tie stop without start',
    'etude-ties-two-voices.xml': 'both hands tie the same pitch at the same moment, for different lengths '
                                 '(Schumann, Dichterliebe no. 2)',
    'etude-chord-member-duration.xml': 'a chord member with a stray <duration> that its type and its chord '
                                       'contradict, and no <voice> (Schubert, Der Lindenbaum)',
    'etude-jump-words.xml': 'D.C. al Fine and Fine in words only (over a line break), marks in the first part '
                            'only (Clara Schumann, op. 1; Handel, Rinaldo)',
    'etude-overfull-bar.xml': 'a 9/8 bar with a filler rest of 59/672 quarter past its end, then a bar overfull '
                              'by an eighth (Beethoven op. 18 no. 1, ii)',
    'etude-zero-forward.xml': 'a <forward> of duration 0 in a second voice (moves nothing; music21 made it a '
                              'quarter rest: Haydn op. 1 no. 1, Schumann op. 41 no. 1)',
}


# ----------------------------------------------------------------------------------------------
# Etude's own fixtures
# ----------------------------------------------------------------------------------------------

STEPS = {'C': 0, 'D': 2, 'E': 4, 'F': 5, 'G': 7, 'A': 9, 'B': 11}


def n(pitch, dur, typ, voice=1, staff=None, chord=False, tie=(), slur=None, cue=False, grace=False,
      dots=0, rest=False):
    """One <note>; pitch like 'C4', 'F#3', 'Bb4' or None for a rest."""
    parts = ['<note>']
    if grace:
        parts.append('<grace/>')
    if chord:
        parts.append('<chord/>')
    if rest or pitch is None:
        parts.append('<rest/>')
    else:
        step, rest_ = pitch[0], pitch[1:]
        alter = 0
        while rest_ and rest_[0] in '#b':
            alter += 1 if rest_[0] == '#' else -1
            rest_ = rest_[1:]
        parts.append(f'<pitch><step>{step}</step>' + (f'<alter>{alter}</alter>' if alter else '')
                     + f'<octave>{rest_}</octave></pitch>')
    if cue:
        parts.append('<cue/>')
    if not grace:
        parts.append(f'<duration>{dur}</duration>')
    for t in tie:
        parts.append(f'<tie type="{t}"/>')
    parts.append(f'<voice>{voice}</voice><type>{typ}</type>' + '<dot/>' * dots)
    if staff:
        parts.append(f'<staff>{staff}</staff>')
    notations = [f'<tied type="{t}"/>' for t in tie]
    if slur:
        notations.append(f'<slur type="{slur}" number="1"/>')
    if notations:
        parts.append('<notations>' + ''.join(notations) + '</notations>')
    parts.append('</note>')
    return ''.join(parts)


def attributes(divisions=None, fifths=0, beats=4, beat_type=4, clef='G2', staves=None, transpose=None):
    a = ['<attributes>']
    if divisions:
        a.append(f'<divisions>{divisions}</divisions>')
    a.append(f'<key><fifths>{fifths}</fifths></key>')
    a.append(f'<time><beats>{beats}</beats><beat-type>{beat_type}</beat-type></time>')
    if staves:
        a.append(f'<staves>{staves}</staves>')
    if isinstance(clef, str):
        clef = [clef]
    for i, c in enumerate(clef):
        num = f' number="{i + 1}"' if len(clef) > 1 else ''
        a.append(f'<clef{num}><sign>{c[0]}</sign><line>{c[1]}</line></clef>')
    if transpose:
        diatonic, chromatic, octave = transpose
        a.append('<transpose>' + (f'<diatonic>{diatonic}</diatonic>' if diatonic is not None else '')
                 + f'<chromatic>{chromatic}</chromatic>'
                 + (f'<octave-change>{octave}</octave-change>' if octave else '') + '</transpose>')
    a.append('</attributes>')
    return ''.join(a)


def direction(words=None, sound=None, metronome=None, segno=False, coda=False, placement='above'):
    d = [f'<direction placement="{placement}">']
    if segno:
        d.append('<direction-type><segno/></direction-type>')
    if coda:
        d.append('<direction-type><coda/></direction-type>')
    if words:
        d.append(f'<direction-type><words>{words}</words></direction-type>')
    if metronome:
        unit, dotted, per_minute = metronome
        d.append(f'<direction-type><metronome><beat-unit>{unit}</beat-unit>' + ('<beat-unit-dot/>' if dotted else '')
                 + f'<per-minute>{per_minute}</per-minute></metronome></direction-type>')
    if sound:
        d.append('<sound ' + ' '.join(f'{k}="{v}"' for k, v in sound.items()) + '/>')
    d.append('</direction>')
    return ''.join(d)


def barline(location, style=None, repeat=None, ending=None):
    b = [f'<barline location="{location}">']
    if style:
        b.append(f'<bar-style>{style}</bar-style>')
    if ending:
        b.append(f'<ending number="{ending[0]}" type="{ending[1]}"/>')
    if repeat:
        b.append(f'<repeat direction="{repeat}"/>')
    b.append('</barline>')
    return ''.join(b)


def score(description, parts, encoding=None, defaults=''):
    """parts: [(id, name, [measure contents])]."""
    s = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" '
         '"http://www.musicxml.org/dtds/partwise.dtd">',
         '<score-partwise version="4.0">',
         '  <identification>']
    if encoding:
        s.append(f'    <encoding><software>{encoding}</software></encoding>')
    s.append(f'    <miscellaneous><miscellaneous-field name="description">{description}'
             '</miscellaneous-field></miscellaneous>')
    s.append('  </identification>')
    if defaults:
        s.append(f'  <defaults>{defaults}</defaults>')
    s.append('  <part-list>')
    for pid, name, _ in parts:
        s.append(f'    <score-part id="{pid}"><part-name>{name}</part-name></score-part>')
    s.append('  </part-list>')
    for pid, _, measures in parts:
        s.append(f'  <part id="{pid}">')
        for number, content in measures:
            s.append(f'    <measure number="{number}">')
            for element in content:
                s.append('      ' + element)
            s.append('    </measure>')
        s.append('  </part>')
    s.append('</score-partwise>')
    return '\n'.join(s) + '\n'


def own_fixtures():
    files = {}
    final = barline('right', 'light-heavy')

    files['etude-cue-notes.xml'] = score(
        'Cue notes (cue element) are not played but take their time. Measure 1: C4, cue D4 E4, F4. '
        'Measure 2: voice 1 G4 A4 (a cue grace note before A4); voice 2 a cue E4 then C4. Measure 3: '
        'chords whose cue members are not played.',
        [('P1', 'Flute', [
            ('1', [attributes(2), n('C4', 2, 'quarter'), n('D4', 2, 'quarter', cue=True),
                   n('E4', 2, 'quarter', cue=True), n('F4', 2, 'quarter')]),
            ('2', [n('G4', 4, 'half'), n('B4', 0, 'eighth', grace=True, cue=True), n('A4', 4, 'half'),
                   '<backup><duration>8</duration></backup>',
                   n('E4', 4, 'half', voice=2, cue=True), n('C4', 4, 'half', voice=2)]),
            ('3', [n('C4', 4, 'half'), n('E4', 4, 'half', chord=True, cue=True),
                   n('G4', 4, 'half', cue=True), n('B4', 4, 'half', chord=True), final]),
        ])])

    files['etude-sound-tempo.xml'] = score(
        'Tempo: m1 sound tempo 90 (words Andante, no metronome); m2 beat 3 dotted-quarter = 80 with '
        'sound tempo 120; m3 half = 50 (no sound: 100 quarters per minute); m4 a sound element as a '
        'measure child, tempo 60; m5 a printed quarter = 132 whose sound tempo says 66 (the sound wins).',
        [('P1', 'Violin', [
            ('1', [attributes(1), direction('Andante', {'tempo': 90}),
                   n('C4', 1, 'quarter'), n('D4', 1, 'quarter'), n('E4', 1, 'quarter'), n('F4', 1, 'quarter')]),
            ('2', [n('G4', 1, 'quarter'), n('A4', 1, 'quarter'),
                   direction(None, {'tempo': 120}, ('quarter', True, 80)),
                   n('B4', 1, 'quarter'), n('C5', 1, 'quarter')]),
            ('3', [direction(None, None, ('half', False, 50)),
                   n('C5', 1, 'quarter'), n('B4', 1, 'quarter'), n('A4', 1, 'quarter'), n('G4', 1, 'quarter')]),
            ('4', ['<sound tempo="60"/>', n('F4', 2, 'half'), n('E4', 2, 'half')]),
            ('5', [direction(None, {'tempo': 66}, ('quarter', False, 132)), n('D4', 4, 'whole'), final]),
        ])])

    files['etude-forward.xml'] = score(
        'Forward elements move the position without a note. Measure 1: voice 1 C5 whole; voice 2 '
        'forward, A4, forward, F4. Measure 2: voice 1 forward a half then E5; voice 2 D4 whole. '
        'Encoded by Finale, so music21 adds hidden spacer rests for the forwards (not notes).',
        [('P1', 'Oboe', [
            ('1', [attributes(4), n('C5', 16, 'whole'), '<backup><duration>16</duration></backup>',
                   '<forward><duration>4</duration><voice>2</voice></forward>', n('A4', 4, 'quarter', voice=2),
                   '<forward><duration>4</duration><voice>2</voice></forward>', n('F4', 4, 'quarter', voice=2)]),
            ('2', ['<forward><duration>8</duration><voice>1</voice></forward>', n('E5', 8, 'half'),
                   '<backup><duration>16</duration></backup>', n('D4', 16, 'whole', voice=2), final]),
        ])], encoding='Finale v26.3 for Mac')

    files['etude-da-capo-fine.xml'] = score(
        'Measures 1-2 repeated, Fine at the end of measure 2, D.C. al Fine at the end of measure 4. '
        'Performance: 1 2 1 2 3 4 1 2 (repeats are not taken again after the da capo).',
        [('P1', 'Clarinet', [
            ('1', [barline('left', 'heavy-light', 'forward'), attributes(1), n('C4', 4, 'whole')]),
            ('2', [n('D4', 4, 'whole'), direction('Fine', {'fine': 'yes'}, placement='below'),
                   barline('right', 'light-heavy', 'backward')]),
            ('3', [n('E4', 4, 'whole')]),
            ('4', [n('F4', 4, 'whole'), direction('D.C. al Fine', {'dacapo': 'yes'}, placement='below'),
                   barline('right', 'light-light')]),
        ])])

    files['etude-dal-segno-coda.xml'] = score(
        'Segno at measure 2, To Coda at the end of measure 3, D.S. al Coda at the end of measure 4, '
        'coda at measure 5. Performance: 1 2 3 4 2 3 5 6.',
        [('P1', 'Trumpet', [
            ('1', [attributes(1), n('C4', 4, 'whole')]),
            ('2', [direction(None, {'segno': 'segno'}, segno=True), n('D4', 4, 'whole')]),
            ('3', [n('E4', 4, 'whole'), direction('To Coda', {'tocoda': 'coda'})]),
            ('4', [n('F4', 4, 'whole'), direction('D.S. al Coda', {'dalsegno': 'segno'}, placement='below'),
                   barline('right', 'light-light')]),
            ('5', [direction(None, {'coda': 'coda'}, coda=True), n('G4', 4, 'whole')]),
            ('6', [n('A4', 4, 'whole'), final]),
        ])])

    files['etude-concert-score.xml'] = score(
        'A concert-pitch score (concert-score in defaults): the pitches are sounding pitches; the '
        'transpose elements say what the players read. Clarinet in Bb (written a major second '
        'higher) and horn in F (written a fifth higher) both play C4 D4 E4 F4 sounding.',
        [('P1', 'Clarinet in Bb', [
            ('1', [attributes(1, transpose=(-1, -2, 0)),
                   n('C4', 1, 'quarter'), n('D4', 1, 'quarter'), n('E4', 1, 'quarter'), n('F4', 1, 'quarter'), final]),
        ]), ('P2', 'Horn in F', [
            ('1', [attributes(1, transpose=(-4, -7, 0)),
                   n('C4', 1, 'quarter'), n('D4', 1, 'quarter'), n('E4', 1, 'quarter'), n('F4', 1, 'quarter'), final]),
        ])], defaults='<concert-score/>')

    files['etude-transpose-octave.xml'] = score(
        'Octave transpositions: guitar (octave-change -1: written E4 sounds E3), piccolo '
        '(octave-change +1), bass clarinet in Bb (chromatic -2, diatonic -1, octave-change -1: -14).',
        [('P1', 'Guitar', [('1', [attributes(1, clef='G2', transpose=(0, 0, -1)),
                                  n('E4', 2, 'half'), n('G4', 2, 'half'), final])]),
         ('P2', 'Piccolo', [('1', [attributes(1, transpose=(0, 0, 1)),
                                   n('C5', 2, 'half'), n('D5', 2, 'half'), final])]),
         ('P3', 'Bass Clarinet in Bb', [('1', [attributes(1, transpose=(-1, -2, -1)),
                                               n('D4', 2, 'half'), n('E4', 2, 'half'), final])])])

    files['etude-ties.xml'] = score(
        'Ties. Measure 1: D4 D4 D4 under a slur (three notes), then a C4-E4-G4 chord whose C4 and E4 '
        'are tied into measure 2 (G4 is struck again); voice 2 F3 tied over the barline twice. '
        'Measure 2: G#4 tied to Ab4 (enharmonic: one note). Measure 3 (one voice): A4 tied into '
        'measure 4, which has two voices. Measure 5: a C5 with a tie stop and no start, then C5.',
        [('P1', 'Piano', [
            ('1', [attributes(2), n('D4', 2, 'quarter', slur='start'), n('D4', 2, 'quarter'),
                   n('D4', 2, 'quarter', slur='stop'),
                   n('C4', 2, 'quarter', tie=('start',)), n('E4', 2, 'quarter', chord=True, tie=('start',)),
                   n('G4', 2, 'quarter', chord=True),
                   '<backup><duration>8</duration></backup>',
                   n(None, 4, 'half', voice=2), n('F3', 4, 'half', voice=2, tie=('start',))]),
            ('2', [n('C4', 4, 'half', tie=('stop',)), n('E4', 4, 'half', chord=True, tie=('stop',)),
                   n('G4', 4, 'half', chord=True),
                   n('G#4', 2, 'quarter', tie=('start',)), n('Ab4', 2, 'quarter', tie=('stop',)),
                   '<backup><duration>8</duration></backup>',
                   n('F3', 2, 'quarter', voice=2, tie=('stop', 'start')), n('F3', 2, 'quarter', voice=2, tie=('stop',)),
                   n('E3', 4, 'half', voice=2)]),
            ('3', [n('A4', 8, 'whole', tie=('start',))]),
            ('4', [n('A4', 4, 'half', tie=('stop',)), n('B4', 4, 'half'),
                   '<backup><duration>8</duration></backup>', n('C4', 8, 'whole', voice=2)]),
            ('5', [n('C5', 4, 'half', tie=('stop',)), n('C5', 4, 'half'), final]),
        ])])
    files['etude-ties-two-voices.xml'] = score(
        'Both hands tie A4 at the same moment. Measure 1: the right hand (voice 1, staff 1) has A4 '
        'tied for one eighth into another eighth, then a quarter rest; the left hand (voice 3, staff 2) '
        'has A4 tied through both eighths into measure 2. Measure 2: the left hand ties on for a '
        'half; the right hand plays A4 (not tied) and rests. Right hand: A4 for a quarter, A4 again; '
        'left hand: one A4 of 3 quarters.',
        [('P1', 'Piano', [
            ('1', [attributes(2, beats=2, clef=['G2', 'F4'], staves=2),
                   n('A4', 1, 'eighth', staff=1, tie=('start',)), n('A4', 1, 'eighth', staff=1, tie=('stop',)),
                   n(None, 2, 'quarter', staff=1),
                   '<backup><duration>4</duration></backup>',
                   n('A4', 1, 'eighth', voice=3, staff=2, tie=('start',)),
                   n('A4', 1, 'eighth', voice=3, staff=2, tie=('stop', 'start')),
                   n('A4', 2, 'quarter', voice=3, staff=2, tie=('stop', 'start'))]),
            ('2', [n('A4', 2, 'quarter', staff=1), n(None, 2, 'quarter', staff=1),
                   '<backup><duration>4</duration></backup>',
                   n('A4', 2, 'quarter', voice=3, staff=2, tie=('stop',)), n(None, 2, 'quarter', voice=3, staff=2),
                   final]),
        ])])

    files['etude-chord-member-duration.xml'] = score(
        'Measure 1 (3/4, divisions 256): a chord E2 B2 in voice 3 on staff 2. B2 says 512 divisions, '
        'but its type (a dotted half) and its chord say 768, and it has no voice element; it is tied to B2 '
        'in measure 2. B2 sounds 3 + 1 quarters.',
        [('P1', 'Piano', [
            ('1', [attributes(256, beats=3, clef=['G2', 'F4'], staves=2),
                   n(None, 768, 'half', staff=1, dots=1), '<backup><duration>768</duration></backup>',
                   n('E2', 768, 'half', voice=3, staff=2, dots=1),
                   n('B2', 512, 'half', voice=3, staff=2, chord=True, dots=1, tie=('start',)).replace(
                       '<voice>3</voice>', '')]),
            ('2', [n(None, 768, 'half', staff=1, dots=1), '<backup><duration>768</duration></backup>',
                   n('B2', 256, 'quarter', voice=3, staff=2, tie=('stop',)), n('D3', 512, 'half', voice=3, staff=2),
                   final]),
        ])])

    dc_words = '<direction placement="below"><direction-type><words>D.C.\n al  Fine</words></direction-type></direction>'
    files['etude-jump-words.xml'] = score(
        'Jumps given in words only, with no sound element: Fine at measure 2, "D.C. al Fine" (written over a '
        'line break) at measure 3, in the violin part only; the cello follows the same marks. '
        'Performance: 1 2 3 1 2.',
        [('P1', 'Violin', [
            ('1', [attributes(1, beats=2), n('E5', 2, 'half')]),
            ('2', [n('F5', 2, 'half'), direction('Fine', placement='below')]),
            ('3', [n('G5', 2, 'half'), dc_words, final]),
        ]), ('P2', 'Violoncello', [
            ('1', [attributes(1, beats=2, clef='F4'), n('C3', 2, 'half')]),
            ('2', [n('D3', 2, 'half')]),
            ('3', [n('E3', 2, 'half'), final]),
        ])])

    files['etude-overfull-bar.xml'] = score(
        'Measure 1 (9/8, divisions 672): A4 dotted half and dotted quarter fill the bar (3024), then '
        'a rest of 59 divisions with no type (a writer\'s filler): the bar still lasts 9/8. Measure 2: '
        'the same and an eighth rest more (3360): a whole eighth is meant, the bar lasts 5 quarters. '
        'Measure 3 starts at 19/2.',
        [('P1', 'Violin', [
            ('1', [attributes(672, beats=9, beat_type=8), n('A4', 2016, 'half', dots=1), n('A4', 1008, 'quarter', dots=1),
                   '<note><rest/><duration>59</duration><voice>1</voice></note>']),
            ('2', [n('B4', 2016, 'half', dots=1), n('B4', 1008, 'quarter', dots=1), n(None, 336, 'eighth')]),
            ('3', [n('C5', 2016, 'half', dots=1), n('C5', 1008, 'quarter', dots=1), final]),
        ])])
    files['etude-zero-forward.xml'] = score(
        'Measure 1: voice 1 a whole C5; voice 3 a quarter G4 and twelve 32nd notes A4/G4 without a '
        'type, then a forward of duration 0, which moves nothing. Measure 2 starts at 4 in every voice.',
        [('P1', 'Violin', [
            ('1', [attributes(8), n('C5', 32, 'whole'), '<backup><duration>32</duration></backup>',
                   n('G4', 8, 'quarter', voice=3)]
             + [n('A4' if k % 2 == 0 else 'G4', 2, '16th', voice=3).replace('<type>16th</type>', '') for k in range(12)]
             + ['<forward><duration>0</duration><voice>3</voice></forward>']),
            ('2', [n('D5', 32, 'whole'), final]),
        ])])
    return files


# ----------------------------------------------------------------------------------------------

def find_suite(explicit):
    if explicit:
        return explicit
    pattern = os.path.join(WORK, 'extract', 'music21', 'music21', 'musicxml', 'lilypondTestSuite')
    if os.path.isdir(pattern):
        return pattern
    os.makedirs(os.path.join(WORK, 'pypi'), exist_ok=True)
    wheels = glob.glob(os.path.join(WORK, 'pypi', 'music21-*.whl'))
    if not wheels:
        subprocess.check_call([sys.executable, '-m', 'pip', 'download', '-q', '--no-deps',
                               '--only-binary', ':all:', '-d', os.path.join(WORK, 'pypi'), 'music21'])
        wheels = glob.glob(os.path.join(WORK, 'pypi', 'music21-*.whl'))
    with zipfile.ZipFile(sorted(wheels)[-1]) as wheel:
        wheel.extractall(os.path.join(WORK, 'extract', 'music21'))
    return pattern


def write_mxl(xml_bytes, path, root_name='score.musicxml'):
    """A .mxl to the container spec: `mimetype` first, stored, no extra field; then
    META-INF/container.xml; then the score, deflated. Fixed timestamps for stable bytes."""
    container = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<container>\n  <rootfiles>\n'
                 f'    <rootfile full-path="{root_name}" media-type="application/vnd.recordare.musicxml+xml"/>\n'
                 '  </rootfiles>\n</container>\n')
    stamp = (2024, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(path, 'w') as archive:
        info = zipfile.ZipInfo('mimetype', stamp)
        info.compress_type = zipfile.ZIP_STORED
        archive.writestr(info, 'application/vnd.recordare.musicxml')
        info = zipfile.ZipInfo('META-INF/container.xml', stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, container)
        info = zipfile.ZipInfo(root_name, stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, xml_bytes)


def write_timewise(source, path):
    import musicxml_io
    with open(source, 'rb') as handle:
        data = handle.read()
    # keep the XML declaration and a timewise DOCTYPE
    root = ET.fromstring(data)
    timewise = musicxml_io.partwise_to_timewise(root)
    ET.indent(timewise, space='  ')
    body = ET.tostring(timewise, encoding='unicode')
    with open(path, 'w', encoding='utf-8') as handle:
        handle.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                     '<!DOCTYPE score-timewise PUBLIC "-//Recordare//DTD MusicXML 1.1 Timewise//EN"\n'
                     '                                "http://www.musicxml.org/dtds/timewise.dtd">\n')
        handle.write(body + '\n')


README_HEAD = """# MusicXML conformance fixtures

Inputs for the ScoreModel MusicXML importer's tests (issue 4). Each `NAME.xml`/`NAME.mxl` has a
`NAME.expected.json`: what `etude score NAME` must print (`parts`, `tempos`, `timeSignatures`,
`notes`), made once by music21 through `Evaluation/musicxml/make_expectations.py`, with the
hand-checked corrections listed in `Evaluation/musicxml/README.md` ("Hand-checked cases").
Files with repeat marks also have `NAME.no-expand-repeats.expected.json` (what
`etude score NAME --no-expand-repeats` must print: notation order).

Each expectation also has a `_meta` object (not part of Etude's output) saying how it was made:
`confidence` is `checked` (checked against the MusicXML by hand), `music21` (music21's reading,
cross-checked in notation order by the independent reader `Evaluation/musicxml/xmlcheck.py`,
which agrees on every fixture) or `ambiguous` (45d, 45e, 45f: repeat structures with no single
right performance, where a test should require no crash, a consistent timeline and the
notation-order file only; 41g, 41h: no `<divisions>`, where a typed error is acceptable too);
`handChecked` says what was checked; `stripTiesDisagreements` lists the notes where
music21's own `stripTies()` would differ. Notes are sorted by onset, part, sounding pitch (rests
first), voice, staff; compare them as a multiset. Extra note fields: `isTied` (the note merges
tied notes) and `isUnpitched` (present and true only for an unpitched percussion note, whose
pitch is its display position).

Rebuild everything (fixtures, then expectations) with:

```sh
python3 Evaluation/musicxml/make_fixtures.py
bash Evaluation/musicxml/make_expectations.sh
```

## Licence

The files whose names start with two digits (`01a-…` to `90a-…`) are unchanged copies from the
LilyPond MusicXML test suite as shipped in the music21 wheel (`music21/musicxml/lilypondTestSuite`,
music21 {version}); that suite comes from https://github.com/cuthbertLab/musicxmlTestSuite, a fork of
the LilyPond project's collated MusicXML regression files, and is licensed under the MIT licence,
copyright the LilyPond project:

> Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
> associated documentation files (the "Software"), to deal in the Software without restriction,
> including without limitation the rights to use, copy, modify, merge, publish, distribute,
> sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
> furnished to do so, subject to the following conditions:
>
> The above copyright notice and this permission notice shall be included in all copies or
> substantial portions of the Software.
>
> THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
> NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
> NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
> OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
> CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

`etude-90b-container-spec.mxl` and `etude-timewise-72a.xml` are derived from suite files 45b and 72a
(same licence). The other `etude-*.xml` files were written for Etude by
`Evaluation/musicxml/make_fixtures.py` and are under Etude's licence.

Not copied (nothing the importer plays depends on them, or music21 cannot give a reference):
01b, 01d-01f and 13d (microtones and editorial accidentals), 12* (clefs), 13aa-13c (exotic key
signatures), 14a, 22* (noteheads), 32* (notations and ornaments), 33e/33f/33h, 41d-41f and 41i
(staff-group display), 51*, 52*, 61* (lyrics), 71* (chord names, frets, tablature), 73a
(percussion staves: 41c has an unpitched note), 74a, 75a, 99*. The suite has no cue notes, no `<sound tempo>`, no
`<forward>`, no da capo / dal segno jumps, no `score-timewise` and no `<concert-score/>`: those
are the `etude-*` files.

## Files

| file | bytes | tests |
|---|---:|---|
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--suite', help='an unpacked lilypondTestSuite folder')
    args = parser.parse_args()
    suite = find_suite(args.suite)
    os.makedirs(OUT, exist_ok=True)
    for name in SUITE:
        shutil.copyfile(os.path.join(suite, name), os.path.join(OUT, name))
    with open(os.path.join(suite, '45b-RepeatWithAlternatives.xml'), 'rb') as handle:
        write_mxl(handle.read(), os.path.join(OUT, 'etude-90b-container-spec.mxl'))
    write_timewise(os.path.join(suite, '72a-TransposingInstruments.xml'), os.path.join(OUT, 'etude-timewise-72a.xml'))
    for name, content in own_fixtures().items():
        with open(os.path.join(OUT, name), 'w', encoding='utf-8') as handle:
            handle.write(content)
    version = 'unknown'
    dist = glob.glob(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(suite))), 'music21-*.dist-info'))
    if dist:
        version = os.path.basename(dist[0])[len('music21-'):-len('.dist-info')]
    rows = []
    for name, what in list(SUITE.items()) + list(OWN.items()):
        rows.append(f'| `{name}` | {os.path.getsize(os.path.join(OUT, name))} | {what} |')
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    with open(os.path.join(OUT, 'README.md'), 'w', encoding='utf-8') as handle:
        handle.write(README_HEAD.replace('{version}', version))
        handle.write('\n'.join(rows) + '\n')
        handle.write(f'\n{len(SUITE) + len(OWN)} fixtures ({len(SUITE)} from the suite, {len(OWN)} Etude\'s). '
                     'The folder, expectations included, is kept under 1 MB (`du -sb`).\n')
    print(f'make_fixtures: {len(SUITE)} suite files, {len(OWN)} Etude files in {OUT}')


if __name__ == '__main__':
    main()
