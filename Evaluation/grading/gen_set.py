#!/usr/bin/env python3
"""Generate the grading evaluation set: short melodies as MusicXML scores, a MIDI performance of
each with injected, known errors, rendered with fluidsynth + FluidR3_GM (or another soundfont),
and a truth file per take.

Usage: python3 Evaluation/grading/gen_set.py [--quick] [--data DIR] [--soundfont SF2]
                                             [--takes-per-instrument N] [--no-long] [--force] [--jobs N]

--soundfont SF2   render with this soundfont instead of FluidR3_GM (the holdout set): the same
                  generator, the same take names and so the same scores and injected errors; the
                  tuning calibration, onset lag and release are measured for that soundfont
--data DIR        where the set goes (--out is the same option)
--takes-per-instrument N   N takes per instrument instead of 60, the kinds and conditions of the
                  full plan in proportion (largest remainders); the first takes of each kind and
                  condition of the full set, under the same names
--no-long         leave out the 3-minute take (the CPU figure)

Writes, under DIR (default Evaluation/grading/work/data, work/data-quick with --quick):
  <take>/score.musicxml   the score (one part; the trumpet part is written for B-flat trumpet)
  <take>/perf.mid         the performance that was rendered (the errors are in it)
  <take>/take.wav         the take: mono, 44.1 kHz, 16-bit
  <take>/truth.json       every score note (rests included, ties merged) with its injected error
                          and what was actually played; the extra notes; the take's conditions
  calibration.json        the soundfont's own tuning of every (key, velocity) used (compensated),
                          its onset lag and release (cached in work/, keyed on the soundfont)
  manifest.json           the takes and the render checks (pitch of the rendered notes, onset lag)

Every random choice comes from a numpy Generator seeded by the take's name (common.seeded), so the
set is the same on every machine with the same fluidsynth and soundfont. The set is regenerated
only when this file, common.py, the options, the soundfont or the tool versions change.
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction

import mido
import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (HERE, INSTRUMENTS, SF2, SR, VELOCITIES, WORK, cents, combo_partials,  # noqa: E402
                    midi_hz, natural_cents, seeded, sf2_presets, trumpet_partial)

DIVISIONS = 4                       # per quarter note: sixteenths are the shortest value
TYPE_NAMES = {1: ('16th', 0), 2: ('eighth', 0), 3: ('eighth', 1), 4: ('quarter', 0),
              6: ('quarter', 1), 8: ('half', 0), 12: ('half', 1), 16: ('whole', 0)}
TIME_SIGNATURES = [(4, 4, 0.40), (3, 4, 0.25), (2, 4, 0.15), (6, 8, 0.20)]
BASE = {0: 0, 1: 2, 2: 4, 3: 5, 4: 7, 5: 9, 6: 11}       # letter index (C=0..B=6) -> pitch class
LETTERS = 'CDEFGAB'
SCALES = {'major': [0, 2, 4, 5, 7, 9, 11], 'natural': [0, 2, 3, 5, 7, 8, 10],
          'harmonic': [0, 2, 3, 5, 7, 8, 11]}
SHARP_ORDER = [3, 0, 4, 1, 5, 2, 6]      # F C G D A E B
FLAT_ORDER = [6, 2, 5, 1, 4, 0, 3]       # B E A D G C F

LATENCY_S = 0.040
TAIL_S = 1.5
REVERBS = [['reverb', '30', '50', '80'], ['reverb', '50', '50', '100'], ['reverb', '70', '40', '100']]

# Injection magnitudes. Sub-threshold ones (30 ms, 15 cents) are "don't care" in the scoring.
TIMING_MS = [(30, 0.15), (60, 0.30), (120, 0.30), (250, 0.25)]
DETUNE_CENTS = [(15, 0.15), (30, 0.35), (45, 0.25), (60, 0.25)]
SHORT_RATIOS = [0.5, 0.7]
LONG_RATIO = 1.4
# Relative weights of the error types in a take with mixed errors.
TYPE_WEIGHTS = {'early': 1.0, 'late': 1.0, 'short': 0.9, 'long': 0.8, 'flat': 1.0, 'sharp': 1.0,
                'wrongNote': 1.0, 'octave': 0.9, 'partial': 2.0, 'missed': 0.9}


# ------------------------------------------------------------------------------------------------
# Melodies and scores
# ------------------------------------------------------------------------------------------------

def key_info(fifths, mode):
    """Tonic letter index, tonic pitch class and the key signature's alter per letter."""
    letter = (4 * fifths) % 7
    pc = (7 * fifths) % 12
    if mode != 'major':
        letter = (letter - 2) % 7
        pc = (pc - 3) % 12
    alters = {i: 0 for i in range(7)}
    for i in range(max(fifths, 0)):
        alters[SHARP_ORDER[i]] = 1
    for i in range(max(-fifths, 0)):
        alters[FLAT_ORDER[i]] = -1
    return letter, pc, alters


def spell(midi, letter):
    for octave in range(0, 10):
        natural = 12 * (octave + 1) + BASE[letter]
        if abs(midi - natural) <= 2:
            return LETTERS[letter], midi - natural, octave
    raise ValueError((midi, letter))


def rhythm_measure(rng, beats, beat_type, allow16):
    """Durations (divisions) of one measure."""
    if beat_type == 8:       # 6/8: two dotted-quarter beats
        one = [([6], 2.0), ([2, 2, 2], 3.0), ([4, 2], 3.0), ([2, 4], 0.6)]
        if allow16:
            one.append(([3, 1, 2], 0.8))
        out = []
        if rng.random() < 0.12:
            return [12]
        for _ in range(2):
            pats, w = zip(*one)
            out += pats[rng.choice(len(pats), p=np.array(w) / sum(w))]
        return out
    chunks = [(1, [4], 3.0), (1, [2, 2], 3.0), (2, [8], 1.2), (2, [6, 2], 1.2), (2, [2, 4, 2], 0.4),
              (3, [12], 0.3), (4, [16], 0.1)]
    if allow16:
        chunks += [(1, [3, 1], 0.8), (1, [1, 1, 2], 0.4), (1, [2, 1, 1], 0.4)]
    out, left = [], beats
    while left > 0:
        fit = [c for c in chunks if c[0] <= left]
        w = np.array([c[2] for c in fit])
        c = fit[rng.choice(len(fit), p=w / w.sum())]
        out += c[1]
        left -= c[0]
    return out


def make_score(name, inst, rng, n_range=(8, 24), measures_range=(3, 9), bpm=None,
               target_seconds=None):
    spec = INSTRUMENTS[inst]
    ts = TIME_SIGNATURES[rng.choice(len(TIME_SIGNATURES), p=[t[2] for t in TIME_SIGNATURES])]
    beats, beat_type = ts[0], ts[1]
    if bpm is None:
        bpm = int(rng.integers(60, 141))
    allow16 = 60.0 / bpm / 4 >= 0.15
    fifths = int(rng.integers(-2, 5)) if inst == 'trumpet' else int(rng.integers(-4, 5))
    mode = 'major' if rng.random() < 0.6 else ('natural' if rng.random() < 0.5 else 'harmonic')
    measure_div = beats * 4 * DIVISIONS // beat_type
    sec_per_div = 60.0 / bpm / DIVISIONS
    if target_seconds:
        m = int(math.ceil(target_seconds / (measure_div * sec_per_div)))
        measures_range = (m, m)
    for _attempt in range(500):
        n_measures = int(rng.integers(measures_range[0], measures_range[1] + 1))
        measures = [rhythm_measure(rng, beats, beat_type, allow16) for _ in range(n_measures)]
        events = []
        for m, durs in enumerate(measures):
            for k, d in enumerate(durs):
                events.append(dict(measure=m + 2, dur=d, kind='note', first=(k == 0),
                                   last=(k == len(durs) - 1)))
        # rests
        for i, e in enumerate(events):
            if 0 < i < len(events) - 1 and rng.random() < 0.09:
                e['kind'] = 'rest'
        if not any(e['kind'] == 'rest' and e['dur'] >= 4 for e in events) and rng.random() < 0.8:
            cand = [i for i, e in enumerate(events[1:-1], 1) if e['dur'] >= 4]
            if cand:
                events[cand[rng.integers(len(cand))]]['kind'] = 'rest'
        # ties across barlines (at most two)
        ties = 0
        for i in range(len(events) - 1):
            a, b = events[i], events[i + 1]
            if (a['last'] and b['first'] and a['kind'] == b['kind'] == 'note' and ties < 2
                    and not a.get('tie_stop') and rng.random() < 0.2):
                a['tie_start'] = True
                b['tie_stop'] = True
                ties += 1
        n_notes = sum(1 for e in events if e['kind'] == 'note' and not e.get('tie_stop'))
        if n_range[0] <= n_notes <= n_range[1]:
            break
    else:
        raise SystemExit('%s: no melody with %s notes' % (name, n_range))
    # pitches: a walk over scale degrees inside the written range
    scale_kind = 'major' if mode == 'major' else mode
    t_letter, t_pc, key_alters = key_info(fifths, mode)
    lo, hi = spec['melody']
    centre = (lo + hi) // 2
    tonic = min((m for m in range(lo, hi + 1) if m % 12 == t_pc), key=lambda m: abs(m - centre + 3))

    def deg_midi(d):
        return tonic + 12 * (d // 7) + SCALES[scale_kind][d % 7]

    degrees = [d for d in range(-21, 22) if lo <= deg_midi(d) <= hi]
    dmin, dmax = min(degrees), max(degrees)
    steps = [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -7]
    sw = np.array([0.08, 0.22, 0.22, 0.13, 0.13, 0.05, 0.05, 0.03, 0.03, 0.02, 0.02, 0.01, 0.01])
    d = 0 if rng.random() < 0.6 else int(rng.choice([2, 4, -3]))
    d = min(max(d, dmin), dmax)
    prev = None
    for e in events:
        if e['kind'] != 'note':
            continue
        if e.get('tie_stop'):
            e['degree'] = prev
            continue
        if prev is not None:
            d = prev + int(steps[rng.choice(len(steps), p=sw / sw.sum())])
            if d > dmax:
                d = 2 * dmax - d
            if d < dmin:
                d = 2 * dmin - d
            d = min(max(d, dmin), dmax)
        e['degree'] = d
        prev = d
    for e in events:
        if e['kind'] == 'note':
            e['written'] = deg_midi(e['degree'])
            letter = (t_letter + e['degree']) % 7
            e['step'], e['alter'], e['octave'] = spell(e['written'], letter)
            e['accidental'] = e['alter'] != key_alters[letter]
    # slurs over 2-4 consecutive notes (no rests, no ties inside), staccato on short detached notes
    i = 0
    while i < len(events):
        if rng.random() < 0.16:
            length = int(rng.integers(2, 5))
            group = events[i:i + length]
            if (len(group) == length and all(g['kind'] == 'note' and not g.get('tie_start')
                                             and not g.get('tie_stop') for g in group)):
                group[0]['slur'] = 'start'
                group[-1]['slur'] = 'stop'
                for g in group[:-1]:
                    g['legato'] = True
                for g in group:
                    g['in_slur'] = True
                i += length
                continue
        i += 1
    for e in events:
        if (e['kind'] == 'note' and not e.get('in_slur') and not e.get('tie_start')
                and not e.get('tie_stop') and e['dur'] <= 4 and e['dur'] * sec_per_div >= 0.25
                and rng.random() < 0.2):
            e['staccato'] = True
    # a repeated pitch under a slur is tongued: not legato
    for a, b in zip(events, events[1:]):
        if a.get('legato') and b['kind'] == 'note' and b['written'] == a['written']:
            a['legato'] = False
    return dict(title=name, instrument=inst, fifths=fifths, mode=mode, beats=beats,
                beat_type=beat_type, bpm=bpm, measure_div=measure_div, events=events,
                n_measures=len(measures) + 1)


def write_musicxml(score, path):
    inst = score['instrument']
    spec = INSTRUMENTS[inst]
    part_name = {'trumpet': 'Trumpet in B\u266d', 'flute': 'Flute', 'violin': 'Violin'}[inst]
    mode = 'major' if score['mode'] == 'major' else 'minor'
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
           '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" '
           '"http://www.musicxml.org/dtds/partwise.dtd">',
           '<score-partwise version="4.0">',
           '  <work><work-title>%s</work-title></work>' % score['title'],
           '  <part-list>',
           '    <score-part id="P1">',
           '      <part-name>%s</part-name>' % part_name,
           '      <score-instrument id="P1-I1"><instrument-name>%s</instrument-name></score-instrument>'
           % part_name,
           '      <midi-instrument id="P1-I1"><midi-channel>1</midi-channel>'
           '<midi-program>%d</midi-program></midi-instrument>' % (spec['program'] + 1),
           '    </score-part>',
           '  </part-list>',
           '  <part id="P1">']
    bpm = score['bpm']
    if score['beat_type'] == 8:
        metronome = ('<beat-unit>quarter</beat-unit><beat-unit-dot/><per-minute>%s</per-minute>'
                     % fmt_num(bpm / 1.5))
    else:
        metronome = '<beat-unit>quarter</beat-unit><per-minute>%d</per-minute>' % bpm
    # measure 1: the count-in, a whole-measure rest
    out += ['    <measure number="1">',
            '      <attributes>',
            '        <divisions>%d</divisions>' % DIVISIONS,
            '        <key><fifths>%d</fifths><mode>%s</mode></key>' % (score['fifths'], mode),
            '        <time><beats>%d</beats><beat-type>%d</beat-type></time>'
            % (score['beats'], score['beat_type']),
            '        <clef><sign>G</sign><line>2</line></clef>']
    if spec['transpose'] == -2:
        out.append('        <transpose><diatonic>-1</diatonic><chromatic>-2</chromatic></transpose>')
    out += ['      </attributes>',
            '      <direction placement="above"><direction-type><metronome>%s</metronome>'
            '</direction-type><sound tempo="%d"/></direction>' % (metronome, bpm),
            '      <note><rest measure="yes"/><duration>%d</duration><voice>1</voice></note>'
            % score['measure_div'],
            '    </measure>']
    current = None
    acc_names = {-2: 'flat-flat', -1: 'flat', 0: 'natural', 1: 'sharp', 2: 'double-sharp'}
    for e in score['events']:
        if e['measure'] != current:
            if current is not None:
                out.append('    </measure>')
            current = e['measure']
            out.append('    <measure number="%d">' % current)
        tname, dots = TYPE_NAMES[e['dur']]
        lines = ['      <note>']
        if e['kind'] == 'rest':
            lines.append('        <rest/>')
        else:
            alter = '<alter>%d</alter>' % e['alter'] if e['alter'] else ''
            lines.append('        <pitch><step>%s</step>%s<octave>%d</octave></pitch>'
                         % (e['step'], alter, e['octave']))
        lines.append('        <duration>%d</duration>' % e['dur'])
        if e.get('tie_stop'):
            lines.append('        <tie type="stop"/>')
        if e.get('tie_start'):
            lines.append('        <tie type="start"/>')
        lines.append('        <voice>1</voice>')
        lines.append('        <type>%s</type>' % tname + '<dot/>' * dots)
        if e['kind'] == 'note' and e.get('accidental'):
            lines.append('        <accidental>%s</accidental>' % acc_names[e['alter']])
        notations = []
        if e.get('tie_stop'):
            notations.append('<tied type="stop"/>')
        if e.get('tie_start'):
            notations.append('<tied type="start"/>')
        if e.get('slur'):
            notations.append('<slur type="%s" number="1"/>' % e['slur'])
        if e.get('staccato'):
            notations.append('<articulations><staccato/></articulations>')
        if notations:
            lines.append('        <notations>%s</notations>' % ''.join(notations))
        lines.append('      </note>')
        out += lines
    out += ['    </measure>', '  </part>', '</score-partwise>', '']
    with open(path, 'w', encoding='utf-8') as fh:
        fh.write('\n'.join(out))


def fmt_num(x):
    return ('%d' % x) if float(x).is_integer() else ('%.4f' % x).rstrip('0')


def note_list(score):
    """The score's notes as `etude score` lists them: rests included, tied notes merged, in
    order; measure 1 is the count-in rest."""
    spq = 60.0 / score['bpm']
    notes = [dict(index=0, isRest=True, measure=1, onset=Fraction(0),
                  dur=Fraction(score['measure_div'], DIVISIONS))]
    t = Fraction(score['measure_div'], DIVISIONS)
    for e in score['events']:
        dq = Fraction(e['dur'], DIVISIONS)
        if e.get('tie_stop'):
            notes[-1]['dur'] += dq
            notes[-1]['tied'] = True
        elif e['kind'] == 'rest':
            notes.append(dict(index=len(notes), isRest=True, measure=e['measure'], onset=t, dur=dq))
        else:
            art = 'staccato' if e.get('staccato') else ('legato' if e.get('legato') else 'normal')
            notes.append(dict(index=len(notes), isRest=False, measure=e['measure'], onset=t, dur=dq,
                              written=e['written'],
                              sounding=e['written'] + INSTRUMENTS[score['instrument']]['transpose'],
                              name='%s%s%d' % (e['step'], {-1: 'b', 1: '#', 0: '', 2: '##',
                                                           -2: 'bb'}[e['alter']], e['octave']),
                              articulation=art, tied=False))
        t += dq
    for n in notes:
        n['onsetSeconds'] = float(n['onset']) * spq
        n['durationSeconds'] = float(n['dur']) * spq
    return notes, float(t) * spq


# ------------------------------------------------------------------------------------------------
# Performance with injected errors
# ------------------------------------------------------------------------------------------------

def choose(rng, pairs):
    vals, w = zip(*pairs)
    w = np.array(w, dtype=float)
    return vals[rng.choice(len(vals), p=w / w.sum())]


def perform(score, notes, end_s, kind, cond, rng):
    """Returns (performed notes by index, extras, take-level info). kind: clean, mixed or
    drift-timing; cond: dry, reverb, noise, latency or drift."""
    inst = score['instrument']
    lo_s, hi_s = INSTRUMENTS[inst]['sounding']
    pitched = [n for n in notes if not n['isRest']]
    s0 = pitched[0]['onsetSeconds']
    span = max(end_s - s0, 1e-6)
    drift = 0.0
    if cond == 'drift':
        drift = float(rng.choice([-0.08, -0.05, 0.05, 0.08]))

    def ptime(s):      # score time -> performed time (drift: the tempo slows or speeds linearly)
        if s <= s0:
            return s
        return s + drift * (s - s0) ** 2 / (2 * span)

    perf = {}
    for n in pitched:
        on0 = ptime(n['onsetSeconds'])
        wd = ptime(n['onsetSeconds'] + n['durationSeconds']) - on0
        jit = float(np.clip(rng.normal(0, 0.003), -0.008, 0.008))
        perf[n['index']] = dict(expected=on0, on=on0 + jit, wd=wd, midi=n['sounding'], cents=0.0,
                                velocity=int(rng.choice(VELOCITIES)), played=True, error=None,
                                dontCare=[])
    # nominal ends (articulation)
    order = [n['index'] for n in pitched]
    follows = {}       # index -> index of the next pitched note when no rest lies between
    for a, b in zip(notes, notes[1:]):
        if not a['isRest'] and not b['isRest']:
            follows[a['index']] = b['index']
    for n in pitched:
        p = perf[n['index']]
        if n['articulation'] == 'legato' and n['index'] in follows:
            p['end'] = perf[follows[n['index']]]['on']
        elif n['articulation'] == 'staccato':
            p['end'] = p['on'] + max(0.5 * p['wd'], 0.08)
        else:
            gap = min(max(0.08 * p['wd'], 0.03), 0.08)
            p['end'] = p['on'] + p['wd'] - gap
        p['nominalDur'] = p['end'] - p['on']
    byidx = {n['index']: n for n in notes}
    pos = {idx: k for k, idx in enumerate(order)}

    def prev_of(idx):
        k = pos[idx]
        return order[k - 1] if k > 0 else None

    def next_of(idx):
        k = pos[idx]
        return order[k + 1] if k + 1 < len(order) else None

    # --- injections
    if kind == 'mixed':
        rate = float(rng.uniform(0.25, 0.40))
        types = dict((t, w) for t, w in TYPE_WEIGHTS.items()
                     if not (t == 'octave' and inst == 'trumpet')
                     and not (t == 'partial' and inst != 'trumpet'))
    elif kind == 'drift-timing':
        rate = float(rng.uniform(0.15, 0.30))
        types = {'early': 1.0, 'late': 1.0}
    else:
        rate, types = 0.0, {}
    target = int(round(rate * len(order)))
    chosen = set()
    for idx in [order[k] for k in rng.permutation(len(order))]:
        if len(chosen) >= target:
            break
        if prev_of(idx) in chosen or next_of(idx) in chosen:
            continue
        tnames = list(types)
        k = notes.index(byidx[idx])
        before_rest = k + 1 == len(notes) or notes[k + 1]['isRest']
        # "long" is only possible before a rest: give it its share there
        w = np.array([types[t] * (4.0 if t == 'long' and before_rest else 1.0) for t in tnames])
        for t in [tnames[k] for k in rng.choice(len(tnames), size=len(tnames), replace=False,
                                                  p=w / w.sum())]:
            if inject(t, idx, byidx, perf, prev_of, next_of, follows, notes, inst, lo_s, hi_s, rng,
                      sub_ok=(kind == 'mixed')):
                chosen.add(idx)
                break
    # side effects on neighbours (an early note clips the note before it)
    for idx in order:
        p = perf[idx]
        if p['error'] is None and p['played']:
            if abs((p['end'] - p['on']) - p['nominalDur']) > 0.10 * p['nominalDur']:
                p['dontCare'].append('duration')
    # --- extra notes in silent gaps (rests, staccato gaps, the count-in)
    extras = []
    n_extra = int(rng.choice([0, 1, 1, 2])) if kind == 'mixed' else 0
    for _ in range(n_extra):
        sounds = sorted([(p['on'], p['end']) for p in perf.values() if p['played']]
                        + [(x['on'], x['end']) for x in extras])
        gaps = []
        t_prev = 0.2
        for on, end in sounds:
            if on - 0.10 - t_prev >= 0.30:
                gaps.append((t_prev, on - 0.10))
            t_prev = max(t_prev, end + 0.15)
        if not gaps:
            break
        g = np.array([b - a for a, b in gaps])
        a, b = gaps[rng.choice(len(gaps), p=g / g.sum())]
        dur = float(rng.uniform(0.12, 0.25))
        on = float(rng.uniform(a, b - dur))
        near = min(pitched, key=lambda n: abs(n['onsetSeconds'] - on))['sounding']
        cand = [m for m in range(near - 7, near + 8) if lo_s <= m <= hi_s and m != near]
        midi = int(rng.choice(cand))
        rest = None
        for n in notes:
            if n['isRest'] and n['onsetSeconds'] <= on < n['onsetSeconds'] + n['durationSeconds']:
                rest = n['index']
        extras.append(dict(on=on, end=on + dur, midi=midi, cents=0.0,
                           velocity=int(rng.choice(VELOCITIES)), restIndex=rest))
    return perf, extras, dict(drift=drift)


def inject(t, idx, byidx, perf, prev_of, next_of, follows, notes, inst, lo_s, hi_s, rng, sub_ok):
    n, p = byidx[idx], perf[idx]
    if t in ('early', 'late'):
        ms = choose(rng, TIMING_MS if sub_ok else TIMING_MS[1:])
        d = ms / 1000.0
        if t == 'early':
            pi = prev_of(idx)
            new_on = p['on'] - d
            if pi is None:
                if new_on < 0.3:
                    return False
            else:
                q = perf[pi]
                if new_on < q['on'] + 0.5 * q['wd'] or new_on - 0.03 < q['on'] + 0.08:
                    return False
            if n['articulation'] != 'legato' or idx not in follows:
                p['end'] -= d
            p['on'] = new_on
            if pi is not None and perf[pi]['end'] > new_on - 0.03:
                perf[pi]['end'] = new_on - 0.03 if follows.get(pi) != idx else new_on
        else:
            if d > 0.6 * p['wd']:
                return False
            ni = next_of(idx)
            new_on = p['on'] + d
            new_end = p['end'] if (n['articulation'] == 'legato' and idx in follows) else p['end'] + d
            if ni is not None:
                limit = perf[ni]['on'] - (0.0 if follows.get(idx) == ni and
                                          n['articulation'] == 'legato' else 0.03)
                new_end = min(new_end, limit)
            if new_end - new_on < 0.08:
                return False
            p['on'], p['end'] = new_on, new_end
        p['error'] = dict(type=t, ms=ms)
        p['sub'] = ms < 60
        return True
    if t == 'short':
        if n['articulation'] == 'staccato' or n['durationSeconds'] < 0.3:
            return False
        r = float(rng.choice(SHORT_RATIOS))
        new = r * p['wd']
        if new > 0.85 * p['nominalDur']:
            return False
        p['end'] = p['on'] + new
        p['error'] = dict(type='short', ratio=r)
        return True
    if t == 'long':
        if n['articulation'] == 'staccato':
            return False
        k = notes.index(n)
        after = notes[k + 1] if k + 1 < len(notes) else None
        if after is not None and not after['isRest']:
            return False
        ni = next_of(idx)
        new_end = p['on'] + LONG_RATIO * p['wd']
        if ni is not None and new_end > perf[ni]['on'] - 0.12:
            return False
        p['end'] = new_end
        p['error'] = dict(type='long', ratio=LONG_RATIO)
        return True
    if t in ('flat', 'sharp'):
        c = choose(rng, DETUNE_CENTS if sub_ok else DETUNE_CENTS[1:])
        p['cents'] = float(c if t == 'sharp' else -c)
        p['error'] = dict(type='detune', cents=p['cents'])
        p['sub'] = c < 30
        return True
    if t == 'wrongNote':
        k = int(rng.choice([1, -1, 2, -2]))
        m = n['sounding'] + k
        if not lo_s <= m <= hi_s:
            return False
        if inst == 'trumpet':
            combo, _ = trumpet_partial(n['written'])
            if n['written'] + k in combo_partials(combo).values():
                return False
        p['midi'] = m
        p['error'] = dict(type='wrongNote', semitones=k)
        return True
    if t == 'octave':
        k = 12 if rng.random() < 0.65 else -12
        if not lo_s <= n['sounding'] + k <= hi_s:
            k = -k
        if not lo_s <= n['sounding'] + k <= hi_s:
            return False
        p['midi'] = n['sounding'] + k
        p['error'] = dict(type='octave', semitones=k)
        return True
    if t == 'partial':
        combo, part = trumpet_partial(n['written'])
        opts = [q for q in (part + 1, part - 1) if 2 <= q <= 8]
        q = int(rng.choice(opts))
        written = combo_partials(combo)[q]
        m = written + INSTRUMENTS[inst]['transpose']
        if not lo_s <= m <= hi_s:
            return False
        p['midi'] = m
        p['cents'] = round(natural_cents(q), 2)
        p['error'] = dict(type='partial', direction='upper' if q > part else 'lower',
                          valves=combo, fromPartial=part, toPartial=q, playedWritten=written)
        return True
    if t == 'missed':
        p['played'] = False
        p['error'] = dict(type='missed')
        return True
    raise ValueError(t)


# ------------------------------------------------------------------------------------------------
# MIDI, rendering, conditions
# ------------------------------------------------------------------------------------------------

TPB = 10000          # ticks per beat at 60 BPM: 0.1 ms per tick


def write_midi(path, program, sounds, end_s, calib):
    """One sound per channel in turn (15 melodic channels), so each note's pitch bend is its own;
    pitch-bend range set to 2 semitones with RPN 0 on every channel. A sound's bend is its
    intended cents minus the soundfont's measured tuning of that (key, velocity)."""
    mid = mido.MidiFile(ticks_per_beat=TPB)
    tr = mido.MidiTrack()
    mid.tracks.append(tr)
    tr.append(mido.MetaMessage('set_tempo', tempo=1000000))
    chans = [c for c in range(16) if c != 9]
    ev = []
    for ch in chans:
        ev.append((0, 0, mido.Message('program_change', program=program, channel=ch)))
        for c, v in ((101, 0), (100, 0), (6, 2), (38, 0), (101, 127), (100, 127)):
            ev.append((0, 0, mido.Message('control_change', control=c, value=v, channel=ch)))
    for i, s in enumerate(sorted(sounds, key=lambda s: s['on'])):
        ch = chans[i % len(chans)]
        on = int(round(s['on'] * TPB))
        off = int(round(s['end'] * TPB))
        bend_c = s['cents'] - calib[(s['midi'], s['velocity'])]
        b = int(round(bend_c / 200.0 * 8192))
        b = max(-8192, min(8191, b))
        s['bendCents'] = round(bend_c, 2)
        ev.append((on, 1, mido.Message('pitchwheel', pitch=b, channel=ch)))
        ev.append((on, 2, mido.Message('note_on', note=s['midi'], velocity=s['velocity'], channel=ch)))
        ev.append((off, 0, mido.Message('note_off', note=s['midi'], velocity=64, channel=ch)))
    ev.sort(key=lambda e: (e[0], e[1]))
    now = 0
    for tick, _, msg in ev:
        tr.append(msg.copy(time=tick - now))
        now = tick
    tr.append(mido.MetaMessage('end_of_track', time=max(0, int(round(end_s * TPB)) - now)))
    mid.save(path)


def render(midi_path, n_samples, sf2=SF2):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, 'render.wav')
        # -R 0 -C 0: fluidsynth's own reverb and chorus off (chorus would modulate the pitch)
        subprocess.run(['fluidsynth', '-ni', '-q', '-R', '0', '-C', '0', '-g', '0.5', '-O', 'float',
                        '-T', 'wav', '-F', raw, '-r', str(SR), sf2, midi_path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        y, sr = sf.read(raw, dtype='float64', always_2d=True)
    assert sr == SR, sr
    y = y.mean(axis=1)
    if len(y) < n_samples:
        y = np.pad(y, (0, n_samples - len(y)))
    return y[:n_samples]


def add_reverb(y, args):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, 'dry.wav'), os.path.join(tmp, 'wet.wav')
        sf.write(src, y.astype(np.float32), SR, subtype='FLOAT')
        subprocess.run(['sox', '-V1', '-D', src, '-e', 'floating-point', '-b', '32', dst] + args,
                       check=True)
        out, sr = sf.read(dst, dtype='float64')
    if out.ndim > 1:
        out = out.mean(axis=1)
    return out[:len(y)] if len(out) >= len(y) else np.pad(out, (0, len(y) - len(out)))


def add_noise(y, sounds, snr_db, kind, rng):
    mask = np.zeros(len(y), bool)
    for s in sounds:
        mask[int(s['on'] * SR):int(s['end'] * SR)] = True
    p_sig = float(np.mean(y[mask] ** 2))
    noise = rng.standard_normal(len(y))
    if kind == 'pink':
        spec = np.fft.rfft(noise)
        f = np.arange(len(spec), dtype=float)
        f[0] = 1.0
        noise = np.fft.irfft(spec / np.sqrt(f), len(y))
    noise *= math.sqrt(p_sig / 10 ** (snr_db / 10) / np.mean(noise ** 2))
    return y + noise


# ------------------------------------------------------------------------------------------------
# Soundfont calibration and render checks
# ------------------------------------------------------------------------------------------------

def partial_freq(seg, f_guess, search_cents=80.0):
    n = len(seg)
    nfft = 1 << int(np.ceil(np.log2(4 * n)))
    mag = np.abs(np.fft.rfft(seg * np.hanning(n), nfft))
    freqs = np.arange(len(mag)) * SR / nfft
    idx = np.nonzero((freqs >= f_guess * 2 ** (-search_cents / 1200))
                     & (freqs <= f_guess * 2 ** (search_cents / 1200)))[0]
    i = idx[np.argmax(mag[idx])]
    a, b, c = np.log(mag[i - 1:i + 2] + 1e-30)
    den = a - 2 * b + c
    p = 0.5 * (a - c) / den if den != 0 else 0.0
    return (i + p) * SR / nfft, 20 * np.log10(mag[i] / (mag.max() + 1e-30) + 1e-30)


def steady_cents(y, a, b, f_guess, hop=0.04, length=None):
    """Median pitch over [a, b) s in cents from f_guess: short-time frequency of partial 1 (or
    partial 2 / 2 when partial 1 is 30 dB under the strongest peak), frames of `length` (default
    max(80 ms, 10 periods)) every `hop`; None when [a, b) holds no frame."""
    if length is None:
        length = max(0.080, 10.0 / f_guess)
    starts = np.arange(a, b - length + 1e-9, hop)
    if len(starts) == 0:
        return None

    def track(k):
        fs, ls = [], []
        for t0 in starts:
            seg = y[int(round(t0 * SR)):int(round((t0 + length) * SR))]
            f, lev = partial_freq(seg, k * f_guess)
            fs.append(f / k)
            ls.append(lev)
        return np.array(fs), np.array(ls)

    f, lev = track(1)
    if np.median(lev) < -30:
        f, _ = track(2)
    return float(np.median(cents(f, f_guess)))


def onset_lag(y, on, end):
    """Note-on to the first sample within 40 dB of the note's peak (None unless the note starts
    out of silence), and to the first within 12 dB."""
    i_on, i_off = int(round(on * SR)), int(round(end * SR))
    if i_off <= i_on:
        return None, None
    seg = np.abs(y[i_on:i_off])
    peak = seg.max()
    thr = peak * 10 ** (-40 / 20)
    before = np.abs(y[max(0, i_on - int(0.02 * SR)):i_on])
    if peak <= 0 or (len(before) and before.max() >= thr * 0.1):
        return None, None
    k40 = np.nonzero(seg > thr)[0]
    k12 = np.nonzero(seg > peak * 10 ** (-12 / 20))[0]
    return (float(k40[0] / SR * 1000) if len(k40) else None,
            float(k12[0] / SR * 1000) if len(k12) else None)


def calibrate(inst, tmp, sf2=SF2):
    """The soundfont's (FluidR3's by default) tuning of every (key, velocity) of the instrument's
    sounding range: each pair rendered alone for 0.8 s, pitch over [0.15, 0.75] s after note-on,
    cents from equal temperament. The renders compensate it with pitch bend. Also the onset lag,
    the rise and the release of the soundfont's notes."""
    spec = INSTRUMENTS[inst]
    pairs = [(k, v) for k in range(spec['sounding'][0], spec['sounding'][1] + 1) for v in VELOCITIES]
    sounds = []
    t = 0.5
    for k, v in pairs:
        sounds.append(dict(on=t, end=t + 0.8, midi=k, velocity=v, cents=0.0))
        t += 1.3
    path = os.path.join(tmp, inst + '-calibration.mid')
    write_midi(path, spec['program'], sounds, t + 0.5, {p: 0.0 for p in pairs})
    y = render(path, int((t + 0.5) * SR), sf2)
    out, lags, rises, rel20, rel40 = {}, [], [], [], []

    def db(a, b):
        seg = y[int(a * SR):int(b * SR)]
        return 10 * np.log10(np.mean(seg ** 2) + 1e-20)

    for s in sounds:
        lag, rise = onset_lag(y, s['on'], s['end'])
        if lag is not None:
            lags.append(lag)
            rises.append(rise)
        # release: note-off to where the level (10 ms RMS) falls 20 / 40 dB under its last 100 ms
        sustain = db(s['end'] - 0.1, s['end'])
        tt = np.arange(s['end'], s['end'] + 0.45, 0.005)
        lv = np.array([db(x, x + 0.01) for x in tt])
        rel20.append(float(tt[np.argmax(lv < sustain - 20)] - s['end']) * 1000)
        rel40.append(float(tt[np.argmax(lv < sustain - 40)] - s['end']) * 1000)
        seg = y[int(s['on'] * SR):int(s['end'] * SR)]
        if 20 * np.log10(np.sqrt(np.mean(seg ** 2)) + 1e-20) < -70:
            raise SystemExit('%s: key %d velocity %d is silent in the soundfont'
                             % (inst, s['midi'], s['velocity']))
        out['%d/%d' % (s['midi'], s['velocity'])] = round(
            steady_cents(y, s['on'] + 0.15, s['on'] + 0.75, midi_hz(s['midi'])), 2)
    return inst, dict(tuning=out, lagMs=round(float(np.median(lags)), 2),
                      lagMsRange=[round(min(lags), 2), round(max(lags), 2)],
                      rise12MsMedian=round(float(np.median(rises)), 2),
                      release20MsMedian=round(float(np.median(rel20)), 1),
                      release40MsMedian=round(float(np.median(rel40)), 1))


def check_render(y, sounds):
    """What the render really holds, per played sound: its median pitch over the whole note after
    the attack ([on + 40 ms, end), frames of max(50 ms, 8 periods) every 10 ms) in cents from
    the intended pitch, and the onset lag (onset_lag) for sounds that start out of silence."""
    rows = []
    for s in sounds:
        r = dict(midi=s['midi'], intended=s['cents'])
        f0 = midi_hz(s['midi']) * 2 ** (s['cents'] / 1200)
        c = steady_cents(y, s['on'] + 0.04, s['end'], f0, hop=0.01, length=max(0.05, 8.0 / f0))
        if c is not None:
            r['dev'] = round(c, 2)
            s['renderedCents'] = round(s['cents'] + c, 2)
        lag, rise = onset_lag(y, s['on'], s['end'])
        if lag is not None:
            r['lagMs'] = round(lag, 2)
            r['rise12Ms'] = round(rise, 2)
        rows.append(r)
    return rows


# ------------------------------------------------------------------------------------------------
# The set
# ------------------------------------------------------------------------------------------------

def scaled_spec(spec, n):
    """n of the (kind, condition) entries of spec, each pair in proportion to its count (largest
    remainders; ties go to the pair listed first), in spec's order."""
    pairs = list(dict.fromkeys(spec))
    have = {p: spec.count(p) for p in pairs}
    keep = {p: have[p] * n // len(spec) for p in pairs}
    for p in sorted(pairs, key=lambda p: -(have[p] * n % len(spec)))[:n - sum(keep.values())]:
        keep[p] += 1
    return [p for p in pairs for _ in range(min(keep[p], have[p]))]


def plan(quick, per_instrument=None, long_take=True):
    takes = []
    for inst in INSTRUMENTS:
        if quick:
            spec = [('clean', 'dry'), ('mixed', 'dry'), ('mixed', 'noise'), ('drift-timing', 'drift')]
        else:
            spec = ([('clean', c) for c in ['dry'] * 3 + ['reverb', 'noise', 'noise', 'latency',
                                                       'drift']]
                    + [('mixed', c) for c in ['dry'] * 18 + ['reverb'] * 7 + ['noise'] * 7
                       + ['latency'] * 8]
                    + [('drift-timing', 'drift')] * 12)
        if per_instrument:
            spec = scaled_spec(spec, per_instrument)
        count = {}
        for kind, cond in spec:
            k = count.get((kind, cond), 0) + 1
            count[(kind, cond)] = k
            takes.append(dict(name='%s-%s-%s-%02d' % (inst, kind, cond, k), instrument=inst,
                              kind=kind, condition=cond))
    # one 3-minute take, for the CPU figure only (not scored)
    if long_take:
        takes.append(dict(name='trumpet-long3min', instrument='trumpet', kind='mixed',
                          condition='dry', long=True))
    return takes


def make_take(take, out_dir, calib, sf2=SF2):
    name, inst = take['name'], take['instrument']
    rng = seeded(name)
    spec = INSTRUMENTS[inst]
    if take.get('long'):
        score = make_score(name, inst, rng, n_range=(150, 600), bpm=100, target_seconds=178)
    else:
        score = make_score(name, inst, rng)
    notes, end_s = note_list(score)
    perf, extras, info = perform(score, notes, end_s, take['kind'], take['condition'], rng)
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    write_musicxml(score, os.path.join(d, 'score.musicxml'))
    sounds = [p for p in perf.values() if p['played']] + extras
    last = max(s['end'] for s in sounds)
    length = max(last, end_s) + TAIL_S
    cal = {tuple(int(x) for x in k.split('/')): v for k, v in calib[inst]['tuning'].items()}
    lag = calib[inst]['lagMs'] / 1000.0
    write_midi(os.path.join(d, 'perf.mid'), spec['program'], sounds, length, cal)
    y = render(os.path.join(d, 'perf.mid'), int(length * SR), sf2)
    checks = check_render(y, sorted(sounds, key=lambda s: s['on']))
    cond = take['condition']
    info.update(condition=cond, latencyMs=0.0)
    if cond == 'reverb':
        args = REVERBS[int(rng.integers(len(REVERBS)))]
        y = add_reverb(y, args)
        info['reverb'] = ' '.join(args)
    if cond == 'latency':
        y = np.concatenate([np.zeros(int(round(LATENCY_S * SR))), y])
        info['latencyMs'] = LATENCY_S * 1000
    if cond == 'noise':
        snr = float(rng.uniform(10, 20))
        kind = 'pink' if rng.random() < 0.5 else 'white'
        y = add_noise(y, sounds, snr, kind, rng)
        info.update(snrDb=round(snr, 2), noise=kind)
    peak_db = float(rng.uniform(-12, -3))
    y *= 10 ** (peak_db / 20) / np.max(np.abs(y))
    sf.write(os.path.join(d, 'take.wav'), y.astype(np.float32), SR, subtype='PCM_16')
    # truth
    tnotes = []
    for n in notes:
        r = dict(index=n['index'], isRest=n['isRest'], measure=n['measure'],
                 onsetQuarters=str(n['onset']), durationQuarters=str(n['dur']),
                 onsetSeconds=round(n['onsetSeconds'], 9), durationSeconds=round(n['durationSeconds'], 9))
        if not n['isRest']:
            p = perf[n['index']]
            r.update(writtenPitch=n['written'], soundingPitch=n['sounding'], name=n['name'],
                     articulation=n['articulation'], tied=n.get('tied', False), error=p['error'],
                     subThreshold=bool(p.get('sub', False)), dontCare=p['dontCare'],
                     played=p['played'],
                     nominal=dict(onsetSeconds=round(p['expected'], 6),
                                  durationRatio=round(p['nominalDur'] / n['durationSeconds'], 4)))
            if p['played']:
                r['performed'] = dict(
                    onsetSeconds=round(p['on'] + lag, 6), noteOnSeconds=round(p['on'], 6),
                    offsetSeconds=round(p['end'], 6),
                    offsetMs=round((p['on'] - n['onsetSeconds']) * 1000, 2),
                    localOffsetMs=round((p['on'] - p['expected']) * 1000, 2),
                    durationRatio=round((p['end'] - p['on']) / n['durationSeconds'], 4),
                    midi=p['midi'], cents=p['cents'], renderedCents=p.get('renderedCents'),
                    velocity=p['velocity'], bendCents=p.get('bendCents'))
        tnotes.append(r)
    truth = dict(schema='etude-grading-truth/1', take=name, instrument=inst,
                 program=spec['program'], kind=take['kind'], tempoBpm=score['bpm'],
                 timeSignature='%d/%d' % (score['beats'], score['beat_type']),
                 key=dict(fifths=score['fifths'], mode=score['mode']),
                 scoreEndSeconds=round(end_s, 6), audioSeconds=round(len(y) / SR, 4),
                 peakDbfs=round(peak_db, 2), long=bool(take.get('long', False)), **info,
                 notes=tnotes,
                 fluidsynthLagMs=calib[inst]['lagMs'],
                 extras=[dict(onsetSeconds=round(x['on'] + lag, 6), noteOnSeconds=round(x['on'], 6),
                              offsetSeconds=round(x['end'], 6),
                              midi=x['midi'], velocity=x['velocity'], restIndex=x['restIndex'])
                         for x in extras])
    with open(os.path.join(d, 'truth.json'), 'w') as fh:
        json.dump(truth, fh, indent=1)
    n_err = sum(1 for n in tnotes if n.get('error'))
    return dict(take=name, instrument=inst, kind=take['kind'], condition=cond,
                notes=sum(1 for n in tnotes if not n['isRest']), errors=n_err, extras=len(extras),
                seconds=round(len(y) / SR, 2), checks=checks)


def tool_version(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except Exception:
        return 'unknown'


def soundfont_id(sf2):
    """What identifies a soundfont file for the caches: its real path, size and modification time."""
    st = os.stat(sf2)
    return (os.path.realpath(sf2), st.st_size, int(st.st_mtime))


def fingerprint(options, sf2):
    h = hashlib.sha256()
    for f in ('gen_set.py', 'common.py'):
        with open(os.path.join(HERE, f), 'rb') as fh:
            h.update(fh.read())
    h.update(repr((options, soundfont_id(sf2), tool_version(['fluidsynth', '--version']),
                   tool_version(['sox', '--version']))).encode())
    return h.hexdigest()


def check_programs(sf2):
    """The GM programs the instruments use must be presets of the soundfont's bank 0 (fluidsynth
    would otherwise fall back to another preset without a word). Returns {instrument: preset name}."""
    presets = sf2_presets(sf2)
    names, missing = {}, []
    for inst, spec in INSTRUMENTS.items():
        name = presets.get((0, spec['program']))
        if name is None:
            missing.append('%s (program %d)' % (inst, spec['program']))
        names[inst] = name
    if missing:
        raise SystemExit('%s has no bank-0 preset for %s' % (sf2, ', '.join(missing)))
    return names


def calibration_path(sf2):
    """work/calibration.json for FluidR3_GM (as before), work/calibration-STEM.json for another
    soundfont, so the sets of two soundfonts never overwrite each other's calibration."""
    if os.path.realpath(sf2) == os.path.realpath(SF2):
        return os.path.join(WORK, 'calibration.json')
    stem = os.path.splitext(os.path.basename(sf2))[0]
    return os.path.join(WORK, 'calibration-%s.json' % ''.join(c if c.isalnum() or c in '-_' else '_'
                                                              for c in stem))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--out', '--data', dest='out')
    ap.add_argument('--soundfont', default=SF2)
    ap.add_argument('--takes-per-instrument', type=int)
    ap.add_argument('--no-long', action='store_true')
    ap.add_argument('--force', action='store_true')
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()
    out = args.out or os.path.join(WORK, 'data-quick' if args.quick else 'data')
    sf2 = os.path.abspath(args.soundfont)
    if not os.path.isfile(sf2):
        raise SystemExit('no soundfont at %s' % sf2)
    if (os.path.realpath(sf2) != os.path.realpath(SF2)
            and os.path.abspath(out) in (os.path.join(WORK, 'data'), os.path.join(WORK, 'data-quick'))):
        raise SystemExit('work/data and work/data-quick are FluidR3_GM\'s sets: give --data DIR '
                         'for a set rendered with %s' % os.path.basename(sf2))
    if args.takes_per_instrument is not None and not 1 <= args.takes_per_instrument <= 60:
        raise SystemExit('--takes-per-instrument must be 1..60')
    if args.quick and args.takes_per_instrument:
        raise SystemExit('--quick and --takes-per-instrument do not go together')
    presets = check_programs(sf2)
    options = (args.quick, args.takes_per_instrument, args.no_long)
    fp = fingerprint(options, sf2)
    stamp = os.path.join(out, 'fingerprint')
    if not args.force and os.path.exists(stamp) and open(stamp).read().strip() == fp:
        print('set up to date in %s' % out)
        return
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    os.makedirs(WORK, exist_ok=True)
    cal_path = calibration_path(sf2)
    cal_fp = hashlib.sha256(repr(('calibration-2', INSTRUMENTS, VELOCITIES, soundfont_id(sf2),
                                  tool_version(['fluidsynth', '--version']))).encode()).hexdigest()
    calib = None
    if os.path.exists(cal_path):
        c = json.load(open(cal_path))
        if c.get('fingerprint') == cal_fp:
            calib = c["instruments"]
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as ex:
        if calib is None:
            with tempfile.TemporaryDirectory() as tmp:
                calib = dict(ex.map(calibrate, list(INSTRUMENTS), [tmp] * len(INSTRUMENTS),
                                    [sf2] * len(INSTRUMENTS)))
            with open(cal_path, 'w') as fh:
                json.dump(dict(fingerprint=cal_fp, soundfont=sf2, instruments=calib), fh, indent=1)
        takes = plan(args.quick, args.takes_per_instrument, not args.no_long)
        futs = [ex.submit(make_take, t, out, calib, sf2) for t in takes]
        results = [f.result() for f in futs]
    shutil.copy(cal_path, os.path.join(out, 'calibration.json'))
    manifest = dict(takes=results, fluidsynth=tool_version(['fluidsynth', '--version']),
                    sox=tool_version(['sox', '--version']), soundfont=sf2, presets=presets)
    with open(os.path.join(out, 'manifest.json'), 'w') as fh:
        json.dump(manifest, fh, indent=1)
    with open(stamp, 'w') as fh:
        fh.write(fp + '\n')
    secs = sum(r['seconds'] for r in results)
    print('generated %d takes (%.0f s of audio, %d notes, %d with an injected error, %d extra '
          'notes) in %s' % (len(results), secs, sum(r['notes'] for r in results),
                            sum(r['errors'] for r in results), sum(r['extras'] for r in results), out))


if __name__ == '__main__':
    main()
