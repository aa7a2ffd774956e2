#!/usr/bin/env python3
"""An independent check of the truth files with aubio ("by ear-equivalent"): on the takes
without reverb or noise (dry, latency, drift),
is each played note's pitch what the truth says, and does an onset sit where the truth says?

Usage: python3 verify_truth.py [DATA_DIR]   (prints a JSON summary; evaluate.py calls summary())

- pitch: aubio yinfast (2048-sample window, 256 hop, confidence >= 0.8), median over the frames
  centred in [onset + 50 ms, offset - 20 ms] of every played note of at least 150 ms, in cents
  from the truth's pitch (MIDI key + the cents it was rendered at: detuning, natural partials);
- onsets: aubio specflux onsets (threshold 0.3, 50 ms minimum gap); for every played note, the
  nearest onset within +-50 ms of the truth's audible onset (note-on + fluidsynth's lag).
"""

import glob
import json
import math
import os
import sys

import aubio
import numpy as np
import soundfile as sf

WIN, HOP = 2048, 256


def analyse(path):
    y, sr = sf.read(path, dtype='float32')
    y = np.ascontiguousarray(y)
    p = aubio.pitch('yinfast', WIN, HOP, sr)
    p.set_unit('Hz')
    o = aubio.onset('specflux', 1024, HOP, sr)
    o.set_threshold(0.3)
    o.set_minioi_ms(50)
    n = len(y) // HOP
    f0, conf, ons = np.zeros(n), np.zeros(n), []
    for i in range(n):
        fr = y[i * HOP:(i + 1) * HOP]
        f0[i] = p(fr)[0]
        conf[i] = p.get_confidence()
        if o(fr)[0]:
            ons.append(o.get_last() / sr)
    t = ((np.arange(n) + 1) * HOP - WIN / 2) / sr
    return t, f0, conf, np.array(ons)


def check_take(d):
    truth = json.load(open(os.path.join(d, 'truth.json')))
    t, f0, conf, ons = analyse(os.path.join(d, 'take.wav'))
    t = t - truth['latencyMs'] / 1000.0          # the audio of a latency take is 40 ms late
    ons = ons - truth['latencyMs'] / 1000.0
    rows = []
    for n in truth['notes']:
        p = n.get('performed')
        if not p:
            continue
        r = dict(error=(n['error'] or {}).get('type'))
        if p['offsetSeconds'] - p['noteOnSeconds'] >= 0.15:
            m = (t >= p['noteOnSeconds'] + 0.05) & (t <= p['offsetSeconds'] - 0.02) & (conf >= 0.8)
            if m.sum() >= 2:
                target = 440 * 2 ** ((p['midi'] + p['cents'] / 100 - 69) / 12)
                r['cents'] = 1200 * math.log2(float(np.median(f0[m])) / target)
        if len(ons):
            k = np.argmin(np.abs(ons - p['onsetSeconds']))
            dd = ons[k] - p['onsetSeconds']
            r['onsetMs'] = float(dd * 1000) if abs(dd) <= 0.05 else None
        rows.append(r)
    return truth['instrument'], rows


def summary(data_dir):
    dirs = sorted(d for d in glob.glob(os.path.join(data_dir, '*'))
                  if os.path.isdir(d) and any(c in os.path.basename(d)
                                              for c in ('-dry-', '-latency-', '-drift-')))
    per = {}
    for d in dirs:
        inst, rows = check_take(d)
        per.setdefault(inst, []).extend(rows)
    out = {}
    for inst, rows in sorted(per.items()):
        c = np.array([r['cents'] for r in rows if 'cents' in r])
        cs = np.array([r['cents'] for r in rows if 'cents' in r and r['error'] in
                       ('wrongNote', 'octave', 'partial', 'detune')])
        on = [r.get('onsetMs') for r in rows if 'onsetMs' in r]
        found = np.array([x for x in on if x is not None])
        out[inst] = dict(takes=sum(1 for d in dirs if os.path.basename(d).startswith(inst)),
                         notesPitched=int(len(c)),
                         within20=float(np.mean(np.abs(c) <= 20)) if len(c) else None,
                         within50=float(np.mean(np.abs(c) <= 50)) if len(c) else None,
                         medianAbs=float(np.median(np.abs(c))) if len(c) else None,
                         pitchErrorNotes=int(len(cs)),
                         pitchErrorWithin20=float(np.mean(np.abs(cs) <= 20)) if len(cs) else None,
                         onsetNotes=len(on), onsetFound=int(len(found)),
                         onsetMedianMs=float(np.median(found)) if len(found) else None,
                         onsetMedianAbsMs=float(np.median(np.abs(found))) if len(found) else None)
    return out


if __name__ == '__main__':
    here = os.path.dirname(os.path.abspath(__file__))
    print(json.dumps(summary(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'work', 'data')),
                     indent=1))
