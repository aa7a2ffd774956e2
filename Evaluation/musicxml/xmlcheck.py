#!/usr/bin/env python3
"""An independent, deliberately small MusicXML reader (no music21) used to cross-check the
expectations in notation order: onsets, durations, pitches, voices, staves, grace and cue notes.

    python3 Evaluation/musicxml/xmlcheck.py [FIXTURE ...]     # compares with music21's reading

The plain reader's rules are in plainreader.py; ties are merged by m21ref.merge_ties_by_onset,
the same rule as the expectations.
No repeats (notation order only). Prints every difference with music21's reading
(m21ref.reference(expand=False)).
"""

import os
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from musicxml_io import read_musicxml_bytes, timewise_to_partwise  # noqa: E402
import plainreader  # noqa: E402

def read(path):
    root = ET.fromstring(read_musicxml_bytes(path))
    if root.tag == 'score-timewise':
        root = timewise_to_partwise(root)
    return plainreader.read_root(root)


def compare(path):
    import m21ref
    mine = m21ref.merge_ties_by_onset(read(path))
    result, _ = m21ref.reference(path, expand=False)
    key = lambda onset, dur, part, staff, voice, written, sounding, rest, grace: (
        part, staff, str(voice), Fraction(onset), Fraction(dur), written, sounding, rest, grace)
    a = [key(n['onset'], n['duration'], n['part'], n['staff'], n['voice'], n['written'], n['sounding'],
             n['isRest'], n['isGrace']) for n in mine]
    b = [key(n['onsetQuarters'], n['durationQuarters'], n['part'], n['staff'], n['voice'], n['writtenPitch'],
             n['soundingPitch'], n['isRest'], n['isGrace']) for n in result['notes']]
    from collections import Counter
    only_mine = Counter(a) - Counter(b)
    only_m21 = Counter(b) - Counter(a)
    return only_mine, only_m21


def main():
    fixtures = sys.argv[1:] or sorted(
        os.path.join(HERE, '..', '..', 'Tests', 'ScoreModelTests', 'Fixtures', 'musicxml', f)
        for f in os.listdir(os.path.join(HERE, '..', '..', 'Tests', 'ScoreModelTests', 'Fixtures', 'musicxml'))
        if f.endswith(('.xml', '.mxl')))
    same = 0
    for path in fixtures:
        only_mine, only_m21 = compare(path)
        if not only_mine and not only_m21:
            same += 1
            continue
        print(f'== {os.path.basename(path)}')
        fmt = lambda k: f'{k[0]} s{k[1]} v{k[2]} @{k[3]} d{k[4]} w{k[5]} s{k[6]}{" rest" if k[7] else ""}{" grace" if k[8] else ""}'
        for k, c in sorted(only_mine.items(), key=lambda x: x[0][3]):
            print(f'   plain reading only: {fmt(k)}' + (f' x{c}' if c > 1 else ''))
        for k, c in sorted(only_m21.items(), key=lambda x: x[0][3]):
            print(f'   music21 only:       {fmt(k)}' + (f' x{c}' if c > 1 else ''))
    print(f'xmlcheck: {same}/{len(fixtures)} fixtures read the same by the plain reader and music21 (notation order)')


if __name__ == '__main__':
    main()
