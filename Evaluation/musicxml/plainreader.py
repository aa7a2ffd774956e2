#!/usr/bin/env python3
"""A deliberately small MusicXML reader (no music21), notation order only.

Used twice: m21ref.py takes each note's <voice> and <staff> from it (music21 loses them), and
xmlcheck.py compares its onsets, durations and pitches with music21's to find misreadings.

Rules (the plain reading of the MusicXML spec):
  * a measure starts where the previous one ended; its length is the furthest position reached
    by <note>/<forward> (pickups and short measures are as long as their content);
  * <divisions> may change anywhere; <backup>/<forward> move the cursor (a backup past the
    measure start stops at the start, as music21 does); a <chord/> note starts with the previous
    note and does not move the cursor; grace notes have no duration and sit at the cursor; cue
    notes move the cursor and are not notes; an unpitched note's pitch is its display position
    (display-step/display-octave), untransposed;
  * voice: <voice>, else the chord's first note's, else 1; staff: <staff>, else the chord's
    first note's, else 1;
  * pitch = (octave+1)*12 + step + round(alter); sounding = written + chromatic + 12*octave-change
    of the <transpose> in force (per part, from where it appears); with <concert-score/> the
    pitch read is the sounding one and written = sounding - transposition;
  * parts the part-list does not declare are skipped (as music21 does); a lone <part> without id
    is the first declared part.
"""

from fractions import Fraction

STEPS = {'C': 0, 'D': 2, 'E': 4, 'F': 5, 'G': 7, 'A': 9, 'B': 11}


def _t(element, path, default=None):
    found = element.find(path)
    return found.text.strip() if found is not None and found.text is not None and found.text.strip() else default


def read_root(root):
    """Notes of a score-partwise ElementTree root: dicts with part, staff, voice, measure, onset,
    duration, read (pitch as written in the file), written, sounding, isRest, isGrace, tie."""
    concert = root.find('.//concert-score') is not None
    declared = [sp.get('id') for sp in root.iter('score-part')]
    notes = []
    for part in root.findall('part'):
        pid = part.get('id') or (declared[0] if declared else 'P1')
        if pid not in declared:
            continue
        divisions = Fraction(1)
        transpose = 0
        start = Fraction(0)
        for measure in part.findall('measure'):
            cursor = Fraction(0)
            furthest = Fraction(0)
            last_onset = Fraction(0)
            last_voice, last_staff = '1', 1
            number = measure.get('number', '')
            for element in measure:
                tag = element.tag
                try:
                    if tag == 'attributes':
                        if _t(element, 'divisions'):
                            divisions = Fraction(_t(element, 'divisions'))
                        tr = element.find('transpose')
                        if tr is not None:
                            transpose = int(float(_t(tr, 'chromatic', '0'))) + 12 * int(_t(tr, 'octave-change', '0'))
                    elif tag == 'backup':
                        cursor = max(Fraction(0), cursor - Fraction(_t(element, 'duration', '0')) / divisions)
                    elif tag == 'forward':
                        cursor += Fraction(_t(element, 'duration', '0')) / divisions
                        furthest = max(furthest, cursor)
                    elif tag == 'note':
                        grace = element.find('grace') is not None
                        chord = element.find('chord') is not None
                        cue = element.find('cue') is not None
                        duration = Fraction(0) if grace else Fraction(_t(element, 'duration', '0')) / divisions
                        onset = last_onset if chord else cursor
                        if not chord and not grace:
                            cursor += duration
                            furthest = max(furthest, cursor)
                        if not chord:
                            last_onset = onset
                        voice = _t(element, 'voice') or (last_voice if chord else '1')
                        staff = int(_t(element, 'staff') or (last_staff if chord else 1))
                        last_voice, last_staff = voice, staff
                        if cue:
                            continue
                        unpitched = element.find('unpitched')
                        rest = element.find('rest') is not None
                        read = written = sounding = None
                        tie = None
                        if not rest and unpitched is not None:
                            # unpitched: the display position (no transposition applies)
                            read = written = sounding = (int(_t(unpitched, 'display-octave')) + 1) * 12 + \
                                STEPS[_t(unpitched, 'display-step')]
                            types = [x.get('type') for x in element.findall('tie')]
                            tie = 'start' if 'start' in types else ('stop' if 'stop' in types else None)
                        elif not rest:
                            p = element.find('pitch')
                            read = (int(_t(p, 'octave')) + 1) * 12 + STEPS[_t(p, 'step')] + round(float(_t(p, 'alter', '0')))
                            if concert:
                                sounding, written = read, read - transpose
                            else:
                                written, sounding = read, read + transpose
                            types = [x.get('type') for x in element.findall('tie')]
                            tie = 'start' if 'start' in types else ('stop' if 'stop' in types else None)
                        notes.append({'part': pid, 'staff': staff,
                                      'voice': int(voice) if voice.isdigit() else voice,
                                      'measure': number, 'onset': start + onset, 'duration': duration,
                                      'read': read, 'written': written, 'sounding': sounding, 'isRest': rest,
                                      'isGrace': grace, 'tie': tie})
                except (ValueError, KeyError, TypeError, ZeroDivisionError, AttributeError):
                    continue  # malformed element: the reference is music21's anyway
            start += furthest
    return notes
