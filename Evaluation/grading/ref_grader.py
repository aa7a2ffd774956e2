#!/usr/bin/env python3
"""Reference graders in Python with aubio, printing the same JSON as `etude grade` (schema
etude-grades/1), so the evaluation scores them and Etude the same way.

Usage: python3 ref_grader.py --score-notes TRUTH.json --audio TAKE.wav --instrument NAME
                             [--latency-ms N] [--rules 2018|dp]

It reads only the score side of TRUTH.json (index, rest flag, onset, duration, written and
sounding pitch, articulation: what the score says), never the injected errors.

Shared analysis: aubio yinfast pitch (2048-sample window, 256 hop; confidence >= 0.7 = voiced;
aubio 0.4.9's yinfft gives no usable confidence); sounds where the level is above the noise floor
(+8 dB, at most 40 dB under the loudest frames, 4 dB hysteresis), split at aubio specflux onsets
where the level dips by 4 dB before them and where the pitch leaves the sound's reference (taken
30-80 ms in) by more than 79.7 cents for 10 pitch samples (the seed's legato split); a sound's
pitch is the median after its first 50 ms.

--rules 2018 (the baseline; issue 7, "Facts from the original app"):
- linking: each score note, in order, takes the unlinked sound starting nearest its expected
  start within +-200 ms (after the latency); unlinked notes are missed, unlinked sounds extra;
- pitch zones: correct within +-52.7 cents (frequency ratio 0.97), a bit flat/sharp to 107.1
  cents (0.94, assumed), very flat/sharp to 153.8 cents (0.915); beyond: an upper/lower partial of
  the fingering's valve combination (trumpet) or an octave when within 52.7 cents of one, else a
  wrong note;
- attack zones 50/100/200 ms (correct / a bit / very); no local tempo (localRating = rating);
- duration in absolute seconds, articulation-blind (the 2018 behaviour the issue calls a flaw):
  |played - written| within 0.1 s correct, 0.2 s a bit, 0.35 s very, beyond too short/long
  (the zones are assumed);
- severity: attack 3/6, duration 1/2/3, pitch a bit 1, very 2, wrong note 5, octave 5, partial
  6, missed 10; issues: one per note, sorted by the sum, worst first (stable).

--rules dp (a second reference, with what issue 7 asks for instead; parameters chosen up front):
- order-preserving alignment of notes and sounds by dynamic programming (link_dp): a match costs
  the change of its time offset against the previous match plus a pitch term, a skipped note 4
  (missed), a skipped sound 2 (extra); sounds under 80 ms are not reported as extra;
- local tempo: a note's offset against the median offset of up to 4 matched notes on each side;
  attack zones 40/100 ms on both the absolute and the local offset;
- pitch in cents with the nearest-semitone test: correct within 20 cents, a bit to 35, very to
  50; beyond 50 cents a partial of the valve combination in natural tuning (within 35 cents), an
  octave (within 50) or a wrong note;
- duration as played / written over the articulation's usual ratio (staccato 0.5, slurred 1.0,
  else 0.9), short under 0.8 / 0.6 / 0.4, long over 1.3 / 1.6 / 2.0, a sound ending where its level
  falls 15 dB under its own median; severity as above, with the local timing rating.
"""

import argparse
import json
import math
import os
import sys
import time

import aubio
import numpy as np
import soundfile as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (INSTRUMENTS, combo_partials, midi_hz, natural_cents,  # noqa: E402
                    trumpet_partial)

WIN, HOP = 2048, 256
CORRECT_C, ABIT_C, VERY_C = 52.7, 107.1, 153.8
ATTACK_MS = (50, 100, 200)
LINK_S = 0.200
DUR_S = (0.10, 0.20, 0.35)
LEGATO_C, LEGATO_N = 79.7, 10


def analyze(path):
    y, sr = sf.read(path, dtype='float32', always_2d=True)
    y = np.ascontiguousarray(y.mean(axis=1), dtype=np.float32)
    pitch = aubio.pitch('yinfast', WIN, HOP, sr)
    pitch.set_unit('Hz')
    pitch.set_silence(-90)
    onset = aubio.onset('specflux', 1024, HOP, sr)
    onset.set_threshold(0.3)
    onset.set_minioi_ms(60)
    onset.set_silence(-70)
    n = len(y) // HOP
    f0 = np.zeros(n)
    conf = np.zeros(n)
    onsets = []
    for i in range(n):
        frame = y[i * HOP:(i + 1) * HOP]
        f0[i] = pitch(frame)[0]
        conf[i] = pitch.get_confidence()
        if onset(frame)[0]:
            onsets.append(onset.get_last() / sr)
    # frame i's pitch window ends at (i+1)*HOP: centre at (i+1)*HOP - WIN/2
    t = ((np.arange(n) + 1) * HOP - WIN / 2) / sr
    lev = np.full(n, -120.0)
    for i in range(n):
        c = int(round(t[i] * sr))
        seg = y[max(0, c - 512):max(0, c + 512)]
        if len(seg):
            lev[i] = 10 * np.log10(np.mean(seg.astype(float) ** 2) + 1e-12)
    return t, f0, conf, lev, np.array(onsets), sr


def segment(t, f0, conf, lev, onsets):
    floor = np.percentile(lev, 10)
    peak = np.percentile(lev, 99.5)
    on_thr = max(floor + 8, peak - 40)
    off_thr = on_thr - 4
    voiced = (conf >= 0.7) & (f0 > 30)
    regions, active, start = [], False, 0
    for i, l in enumerate(lev):
        if not active and l >= on_thr:
            active, start = True, i
        elif active and l < off_thr:
            regions.append((start, i))
            active = False
    if active:
        regions.append((start, len(lev)))
    sounds = []
    dt = t[1] - t[0]
    for a, b in regions:
        cuts = [a]
        for o in onsets:
            k = int(round((o - t[0]) / dt))
            if cuts[-1] + int(0.08 / dt) <= k <= b - int(0.06 / dt):
                # a re-attack only where the level dips before the onset and rises after it
                dip = lev[max(a, k - int(0.04 / dt)):k + 1].min()
                rise = lev[k:min(b, k + int(0.06 / dt)) + 1].max()
                if rise - dip >= 4.0:
                    cuts.append(k)
        cuts.append(b)
        for s, e in zip(cuts, cuts[1:]):
            # legato split: the pitch leaves the sound's reference by > 79.7 cents for 10
            # samples; the reference is taken 30-80 ms into the sound (YIN's window still holds
            # the previous note just after an attack)
            skip = int(0.03 / dt)
            ref, run, i = None, 0, s + skip
            while i < e:
                if ref is None:
                    w = [f0[j] for j in range(i, min(e, i + int(0.05 / dt))) if voiced[j]]
                    ref = float(np.median(w)) if w else None
                    if ref is None:
                        i += 1
                        continue
                if voiced[i]:
                    if abs(1200 * math.log2(f0[i] / ref)) > LEGATO_C:
                        run += 1
                        if run >= LEGATO_N:
                            split = i - LEGATO_N + 1
                            if split - s >= 3:
                                sounds.append((s, split))
                                s = split
                            ref, run, i = None, 0, split + skip
                            continue
                    else:
                        run = 0
                i += 1
            sounds.append((s, e))
    out = []
    for s, e in sounds:
        if e - s < int(0.06 / dt):
            continue
        idx = [i for i in range(s, e) if voiced[i]]
        if not idx:
            continue
        late = [i for i in idx if t[i] >= t[s] + 0.05] or idx
        out.append(dict(start=float(t[s]), end=float(t[e - 1] + dt),
                        hz=float(np.median(f0[late]))))
    return out


def rate_pitch(c, note, instrument, hz):
    a = abs(c)
    if a <= CORRECT_C:
        return 'correct', 0
    if a <= ABIT_C:
        return ('aBitSharp' if c > 0 else 'aBitFlat'), 1
    if a <= VERY_C:
        return ('verySharp' if c > 0 else 'veryFlat'), 2
    transpose = INSTRUMENTS[instrument]['transpose']
    if instrument == 'trumpet' and note['writtenPitch'] in range(54, 85):
        combo, part = trumpet_partial(note['writtenPitch'])
        for q, w in combo_partials(combo).items():
            if q != part and abs(1200 * math.log2(hz / midi_hz(w + transpose))) <= CORRECT_C:
                return ('upperPartial' if q > part else 'lowerPartial'), 6
    for k in (12, -12):
        if abs(c - 100 * k) <= CORRECT_C:
            return 'octave', 5
    return 'wrongNote', 5


def rate_attack(ms):
    a = abs(ms)
    if a <= ATTACK_MS[0]:
        return 'correct', 0
    if a <= ATTACK_MS[1]:
        return ('aBitEarly' if ms < 0 else 'aBitLate'), 3
    return ('veryEarly' if ms < 0 else 'veryLate'), 6


def rate_duration(diff):
    a = abs(diff)
    if a <= DUR_S[0]:
        return 'correct', 0
    if a <= DUR_S[1]:
        return ('aBitShort' if diff < 0 else 'aBitLong'), 1
    if a <= DUR_S[2]:
        return ('veryShort' if diff < 0 else 'veryLong'), 2
    return ('tooShort' if diff < 0 else 'tooLong'), 3


def link_nearest(pitched, sounds):
    """The seed's rule: each note in order takes the unlinked sound starting nearest its
    expected start within +-200 ms."""
    links, used = {}, set()
    for i, n in enumerate(pitched):
        best = None
        for k, s in enumerate(sounds):
            if k in used:
                continue
            d = abs(s['start'] - n['onsetSeconds'])
            if d <= LINK_S and (best is None or d < best[0]):
                best = (d, k)
        if best is not None:
            links[i] = best[1]
            used.add(best[1])
    return links


# the 'dp' variant: order-preserving alignment (dynamic programming over notes and sounds)
SKIP_NOTE, SKIP_SOUND, MAX_SKIP = 4.0, 2.0, 4
SEARCH_S = 2.0


def link_dp(pitched, sounds):
    """Order-preserving alignment: a match costs the change of its time offset against the
    previous match (so a slow drift is cheap, min(|change| / 150 ms, 3)) plus 1 when the pitch is
    more than 50 cents off; a skipped note costs 4 (missed), a skipped sound 2 (extra)."""
    n_notes, n_sounds = len(pitched), len(sounds)
    e = [n['onsetSeconds'] for n in pitched]
    st = [s['start'] for s in sounds]

    def pc(i, j):
        c = 1200 * math.log2(sounds[j]['hz'] / midi_hz(pitched[i]['soundingPitch']))
        return 0.0 if abs(c) <= 50 else 1.0

    def tc(dd):
        return min(abs(dd) / 0.150, 3.0)

    best, back = {}, {}
    for i in range(n_notes):
        for j in range(n_sounds):
            if abs(st[j] - e[i]) > SEARCH_S:
                continue
            d = st[j] - e[i]
            cost = SKIP_NOTE * i + SKIP_SOUND * j + tc(d) + pc(i, j)
            arg = None
            for i2 in range(max(0, i - MAX_SKIP - 1), i):
                for j2 in range(max(0, j - MAX_SKIP - 1), j):
                    b = best.get((i2, j2))
                    if b is None:
                        continue
                    c = (b + SKIP_NOTE * (i - i2 - 1) + SKIP_SOUND * (j - j2 - 1)
                         + tc(d - (st[j2] - e[i2])) + pc(i, j))
                    if c < cost:
                        cost, arg = c, (i2, j2)
            best[(i, j)] = cost
            back[(i, j)] = arg
    end, total = None, SKIP_NOTE * n_notes + SKIP_SOUND * n_sounds
    for (i, j), b in best.items():
        c = b + SKIP_NOTE * (n_notes - 1 - i) + SKIP_SOUND * (n_sounds - 1 - j)
        if c < total:
            total, end = c, (i, j)
    links = {}
    while end is not None:
        links[end[0]] = end[1]
        end = back[end]
    return links


def rate_pitch_careful(c, note, instrument, hz):
    """Cents zones with the nearest-semitone test: correct within 20 cents, a bit to 35, very to
    50; beyond 50 a partial of the valve combination (natural tuning, within 35 cents), an octave
    (within 50 cents) or a wrong note."""
    a = abs(c)
    if a <= 20:
        return 'correct', 0
    if a <= 35:
        return ('aBitSharp' if c > 0 else 'aBitFlat'), 1
    if a <= 50:
        return ('verySharp' if c > 0 else 'veryFlat'), 2
    transpose = INSTRUMENTS[instrument]['transpose']
    if instrument == 'trumpet' and note['writtenPitch'] in range(54, 85):
        combo, part = trumpet_partial(note['writtenPitch'])
        for q, w in combo_partials(combo).items():
            f = midi_hz(w + transpose) * 2 ** (natural_cents(q) / 1200)
            if q != part and abs(1200 * math.log2(hz / f)) <= 35:
                return ('upperPartial' if q > part else 'lowerPartial'), 6
    for k in (12, -12):
        if abs(c - 100 * k) <= 50:
            return 'octave', 5
    return 'wrongNote', 5


def rate_attack_careful(ms):
    a = abs(ms)
    if a <= 40:
        return 'correct', 0
    if a <= 100:
        return ('aBitEarly' if ms < 0 else 'aBitLate'), 3
    return ('veryEarly' if ms < 0 else 'veryLate'), 6


ARTICULATION_RATIO = {'staccato': 0.5, 'legato': 1.0, 'normal': 0.9}


def rate_duration_careful(ratio, articulation):
    q = ratio / ARTICULATION_RATIO.get(articulation or 'normal', 0.9)
    for lim, name, sev in ((0.4, 'tooShort', 3), (0.6, 'veryShort', 2), (0.8, 'aBitShort', 1)):
        if q < lim:
            return name, sev
    for lim, name, sev in ((2.0, 'tooLong', 3), (1.6, 'veryLong', 2), (1.3, 'aBitLong', 1)):
        if q > lim:
            return name, sev
    return 'correct', 0


def grade(notes, audio, instrument, latency_ms, rules='2018'):
    t, f0, conf, lev, onsets, _ = analyze(audio)
    sounds = segment(t, f0, conf, lev, onsets)
    lat = latency_ms / 1000.0
    for s in sounds:
        s['start'] -= lat
        s['end'] -= lat
    pitched = [n for n in notes if not n['isRest']]
    careful = rules == 'dp'
    if careful:
        # a sound ends where its level falls 15 dB under its own median level (release tails
        # and reverb otherwise lengthen every note)
        dt = t[1] - t[0]
        for s in sounds:
            a = int(round((s['start'] + lat - t[0]) / dt))
            b = int(round((s['end'] + lat - t[0]) / dt))
            if b - a < 4:
                continue
            med = float(np.median(lev[a:b]))
            k = a + int(0.05 / dt)
            while k < b and lev[k] >= med - 15:
                k += 1
            s['end'] = min(s['end'], t[min(k, len(t) - 1)] - lat)
    links = link_dp(pitched, sounds) if careful else link_nearest(pitched, sounds)
    delta = {i: sounds[k]['start'] - pitched[i]['onsetSeconds'] for i, k in links.items()}
    out_notes = []
    for i, n in enumerate(pitched):
        rec = dict(index=n['index'], measure=n['measure'])
        if i not in links:
            rec.update(status='missed', onsetSeconds=None, offsetSeconds=None,
                       timing=dict(rating='missed', offsetMs=None, localRating='missed',
                                   localOffsetMs=None),
                       duration=dict(rating='missed', ratio=None),
                       pitch=dict(rating='missed', cents=None, frequencyHz=None, playedPitch=None),
                       scores=dict(timing=9, duration=0, pitch=1), severity=10)
        else:
            s = sounds[links[i]]
            ms = delta[i] * 1000
            played = s['end'] - s['start']
            ratio = played / n['durationSeconds']
            target = midi_hz(n['soundingPitch'])
            c = 1200 * math.log2(s['hz'] / target)
            if careful:
                # local tempo: the offset against the median offset of up to 4 matched notes
                # on each side
                near = [delta[j] for j in range(i - 4, i + 5) if j != i and j in delta]
                local_ms = (delta[i] - float(np.median(near))) * 1000 if len(near) >= 2 else ms
                ta, _ = rate_attack_careful(ms)
                la, sa = rate_attack_careful(local_ms)
                da, sd = rate_duration_careful(ratio, n.get('articulation'))
                pr, sp = rate_pitch_careful(c, n, instrument, s['hz'])
            else:
                local_ms = ms
                ta, sa = rate_attack(ms)
                la = ta
                da, sd = rate_duration(played - n['durationSeconds'])
                pr, sp = rate_pitch(c, n, instrument, s['hz'])
            rec.update(status='played', onsetSeconds=round(s['start'], 4),
                       offsetSeconds=round(s['end'], 4),
                       timing=dict(rating=ta, offsetMs=round(ms, 1), localRating=la,
                                   localOffsetMs=round(local_ms, 1)),
                       duration=dict(rating=da, ratio=round(ratio, 3)),
                       pitch=dict(rating=pr, cents=round(c, 1), frequencyHz=round(s['hz'], 2),
                                  playedPitch=int(round(69 + 12 * math.log2(s['hz'] / 440)))),
                       scores=dict(timing=sa, duration=sd, pitch=sp), severity=sa + sd + sp)
        rec.update(x=None, y=None)
        out_notes.append(rec)
    linked = set(links.values())
    extras = [dict(onsetSeconds=round(s['start'], 4), offsetSeconds=round(s['end'], 4),
                   frequencyHz=round(s['hz'], 2)) for k, s in enumerate(sounds)
              if k not in linked and (not careful or s['end'] - s['start'] >= 0.08)]
    order = sorted(range(len(out_notes)), key=lambda i: -out_notes[i]['severity'])   # stable
    issues = []
    for i in order:
        r = out_notes[i]
        worst = max(('timing', 'duration', 'pitch'), key=lambda c: r['scores'][c])
        rating = r[worst]['rating'] if r['severity'] > 0 else 'correct'
        if careful and worst == 'timing' and r['severity'] > 0:
            rating = r['timing']['localRating']
        if r['status'] == 'missed':
            rating = 'missed'
        issues.append(dict(index=r['index'], criterion='overall', rating=rating,
                           score=r['severity'], videoId=None))
    total = sum(r['severity'] for r in out_notes)
    overall = max(0.0, 100.0 - 100.0 * total / (10.0 * max(1, len(out_notes))))
    return dict(schema='etude-grades/1', overallScore=round(overall, 1), notes=out_notes,
                extraSounds=extras, issues=issues)


def score_view(truth):
    """Only what the score says: no injected error, nothing performed."""
    keep = ('index', 'isRest', 'measure', 'onsetSeconds', 'durationSeconds', 'writtenPitch',
            'soundingPitch', 'articulation')
    return [{k: n.get(k) for k in keep} for n in truth['notes']]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--score-notes', required=True)
    ap.add_argument('--audio', required=True)
    ap.add_argument('--instrument', required=True)
    ap.add_argument('--latency-ms', type=float, default=0.0)
    ap.add_argument('--rules', choices=['2018', 'dp'], default='2018')
    args = ap.parse_args()
    notes = score_view(json.load(open(args.score_notes)))
    t0 = time.process_time()
    out = grade(notes, args.audio, args.instrument, args.latency_ms, args.rules)
    out['cpuSeconds'] = round(time.process_time() - t0, 4)
    print(json.dumps(out, indent=1))


if __name__ == '__main__':
    main()
