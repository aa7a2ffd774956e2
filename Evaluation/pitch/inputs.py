#!/usr/bin/env python3
"""Etude's pitch trackers on the set's files made other inputs (sample rates, a DC offset, quiet,
the faults of real recordings), and aubio's on the same when asked.

Scored as evaluate.py scores the files themselves.

Usage (from the repository root, after run.sh made the set and built etude):
  Evaluation/pitch/work/venv/bin/python Evaluation/pitch/inputs.py [--data DIR] [--etude PATH]
      [--variants 8000,11025,16000,22050,44100,48000,dc,quiet16] [--conditions clean,snr10]
      [--methods pyin,pyin-live,yin,mpm] [--others aubio-yinfft,aubio-yin] [--keep-rumble]

The set is rendered at 44.1 kHz (32-bit float). Each file of each condition is made into each
variant under work/inputs/<data dir's name>/<variant>/ (44100: the file itself): a number is a
sample rate (scipy's polyphase resampler, Kaiser window); `dc` adds 0.05 to every sample (a
microphone's or an interface's offset, -26 dBFS); `quiet16` is the file 40 dB down in 16-bit
PCM (rounded, no dither: a quiet take from a 16-bit interface). The faults of real recordings,
each relative to the file's peak: `rumble` adds sines at 12 and 23 Hz, 0.5 and 0.25 of the peak
(handling, wind, traffic); `clip` clips at 0.25 of the peak (12 dB of the peaks cut off); `8bit`
quantizes to 8 bits at the peak; `telephone` band-passes to 300-3400 Hz (8th-order Butterworth:
the low notes lose their fundamental and more). `--others` adds trackers of evaluate.py (aubio's,
librosa's pyin) on the same files; `--keep-rumble` runs Etude without its high-pass
(`etude pitch --keep-rumble`, PitchConfiguration.removesRumble). Every method tracks each, and the
frames are scored against the same truth as evaluate.py scores them: raw pitch accuracy over the
scored voiced frames of the renders and of the synthesized tones, voicing false alarm over all
files, and held notes of the renders read at two octaves. Prints a markdown table. Below 20 kHz
the trackers resample the input up to ten samples per period of the highest pitch
(PitchConfiguration.analysisSampleRate); a frame's analysis window has its mean taken off where
it holds a fifth of the window's energy and is over 1e-3 (a DC offset read rests as periodic).
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import sys

import numpy as np
import soundfile as sf
from scipy.signal import butter, resample_poly, sosfilt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate  # noqa: E402  (the set's truth, the trackers' runner and the scoring)


def variant_set(data, work, variant, conditions, files):
    """The directory holding the files of `conditions` as `variant` (made once)."""
    if variant == '44100':
        return data
    root = os.path.join(work, variant)
    for f in files:
        if f['condition'] not in conditions:
            continue
        wav = os.path.join(root, f['wav'])
        if os.path.exists(wav):
            continue
        os.makedirs(os.path.dirname(wav), exist_ok=True)
        x, sr = sf.read(os.path.join(data, f['wav']), dtype='float64')
        rate, subtype = sr, 'FLOAT'
        peak = float(np.max(np.abs(x)))
        if variant == 'dc':
            y = (x + 0.05).astype(np.float32)
        elif variant == 'rumble':
            t = np.arange(len(x)) / sr
            rumble = 0.5 * peak * np.sin(2 * np.pi * 12 * t) + 0.25 * peak * np.sin(2 * np.pi * 23 * t + 1)
            y = (x + (rumble[:, None] if x.ndim > 1 else rumble)).astype(np.float32)
        elif variant == 'clip':
            y = np.clip(x, -0.25 * peak, 0.25 * peak).astype(np.float32)
        elif variant == '8bit':
            step = peak / 127 if peak > 0 else 1
            y = (np.round(x / step) * step).astype(np.float32)
        elif variant == 'telephone':
            y = sosfilt(butter(8, [300, 3400], btype='band', fs=sr, output='sos'), x, axis=0).astype(np.float32)
        elif variant == 'quiet16':
            y = np.round(x * 10 ** (-40 / 20) * 32767).astype(np.int16)
            subtype = 'PCM_16'
        else:
            rate = int(variant)
            g = np.gcd(rate, int(sr))
            y = resample_poly(x, rate // g, int(sr) // g, axis=0).astype(np.float32)
        sf.write(wav + '.part', y, rate, format='WAV', subtype=subtype)
        os.replace(wav + '.part', wav)
        shutil.copyfile(os.path.join(data, f['truth']), os.path.join(root, f['truth']))
    return root


def score(etude, root, f, method, etude_args=()):
    """Scores `method`: an Etude method, or another tracker of evaluate.py (aubio-yinfft, ...)."""
    tracker = method if method.startswith(('aubio-', 'librosa-')) else 'etude-' + method
    times, f0, _, _, err = evaluate.run_tracker(tracker, os.path.join(root, f['wav']), etude, etude_args)
    if err:
        raise RuntimeError('%s on %s: %s' % (method, f['wav'], err))
    truth_times, ref, scored, _ = evaluate.load_truth(os.path.join(root, f['truth']))
    est = evaluate.align(truth_times, times, f0)
    counts, _ = evaluate.frame_counts(ref[scored], est[scored])
    notes, jumps = evaluate.octave_jumps(ref, est, scored) if f['kind'] == 'render' else (0, 0)
    return counts, notes, jumps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=os.path.join(HERE, 'work', 'data'))
    ap.add_argument('--etude', default=os.path.join(HERE, '..', '..', '.build-eval', 'release', 'etude'))
    ap.add_argument('--variants', default='8000,11025,16000,22050,44100,48000,dc,quiet16')
    ap.add_argument('--conditions', default='clean,snr10')
    ap.add_argument('--methods', default='pyin,pyin-live,yin,mpm')
    ap.add_argument('--others', default='', help='other trackers of evaluate.py, e.g. aubio-yinfft,aubio-yin')
    ap.add_argument('--keep-rumble', action='store_true', help="Etude without its high-pass before the analysis")
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    with open(os.path.join(args.data, 'manifest.json')) as fh:
        files = json.load(fh)['files']
    conditions = args.conditions.split(',')
    variants = args.variants.split(',')
    methods = args.methods.split(',') + [t for t in args.others.split(',') if t]
    work = os.path.join(HERE, 'work', 'inputs', os.path.basename(os.path.normpath(args.data)))
    roots = {v: variant_set(args.data, work, v, conditions, files) for v in variants}
    chosen = [f for f in files if f['condition'] in conditions]
    jobs = [(v, m, f) for v in variants for m in methods for f in chosen]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        etude_args = ('--keep-rumble',) if args.keep_rumble else ()
        results = list(ex.map(lambda j: score(args.etude, roots[j[0]], j[2], j[1], etude_args), jobs))
    totals = {}
    for (v, m, f), (counts, notes, jumps) in zip(jobs, results):
        t = totals.setdefault((v, m, f['condition']), {})
        kind = f['kind']
        for key in ('pitch_ok', 'voiced'):
            t[kind + key] = t.get(kind + key, 0) + counts[key]
        for key in ('false_alarm', 'unvoiced'):
            t[key] = t.get(key, 0) + counts[key]
        t['notes'] = t.get('notes', 0) + notes
        t['jumps'] = t.get('jumps', 0) + jumps

    def ratio(a, b):
        return '%.3f' % (a / b) if b else 'n/a'

    labels = {'dc': '44.1 kHz + 0.05 DC', 'quiet16': '44.1 kHz, -40 dB, 16-bit', 'rumble': 'rumble 12 + 23 Hz',
              'clip': 'clipped 12 dB', '8bit': '8-bit', 'telephone': 'telephone band'}
    print('| input | method | ' + ' | '.join(
        'RPA renders %s | RPA synth %s | VFA %s | jumps %s' % (c, c, c, c) for c in conditions) + ' |')
    print('|---|---|' + '---:|' * (4 * len(conditions)))
    for v in variants:
        for m in methods:
            cells = []
            for c in conditions:
                t = totals[(v, m, c)]
                cells += [ratio(t.get('renderpitch_ok', 0), t.get('rendervoiced', 0)),
                          ratio(t.get('synthpitch_ok', 0), t.get('synthvoiced', 0)),
                          ratio(t['false_alarm'], t['unvoiced']),
                          '%d / %d' % (t['jumps'], t['notes'])]
            label = labels.get(v) or '%g kHz' % (int(v) / 1000)
            print('| %s | %s | %s |' % (label, m, ' | '.join(cells)))


if __name__ == '__main__':
    main()
