#!/usr/bin/env python3
"""Where Etude's pitch tracker loses frames on the rendered instruments, measured on the signal.

Usage (from the repository root, after run.sh made the set and built etude):
  Evaluation/pitch/work/venv/bin/python Evaluation/pitch/anatomy.py [--data DIR] [--etude PATH]
      [--method pyin] [--noisy snr10]

1. Legato changes (clean renders): every scored frame in the first 250 ms of a note that starts
   as the previous one stops, classed by which note's harmonics are stronger in a 40 ms Hann
   window (energy of partials 1-8 within 1.5 % of each note's frequency): the new note by more
   than 3 dB, the previous note by more than 3 dB, or within 3 dB; lost = not within 50 cents.
2. Local SNR (the --noisy condition): every scored voiced frame by the ratio, over a 35 ms window,
   of the clean render (scaled by least squares into the noisy file) to what is left (the noise);
   lost frames per 5 dB band.
"""
import argparse
import collections
import json
import os
import subprocess

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))


def track(etude, wav, method):
    out = subprocess.run([etude, 'pitch', wav, '--method', method], capture_output=True, text=True,
                         check=True).stdout
    return np.array([[float(x) for x in line.split()] for line in out.splitlines() if line.strip()])


def lost(estimate, truth):
    return not (estimate > 0 and abs(1200 * np.log2(estimate / truth)) < 50)


def harmonic_db(y, sr, centre, f0, window):
    n = int(window * sr)
    a = max(0, centre - n // 2)
    x = y[a:a + n] * np.hanning(len(y[a:a + n]))
    spectrum = np.abs(np.fft.rfft(x, 8 * len(x)))
    freqs = np.fft.rfftfreq(8 * len(x), 1 / sr)
    energy = 0.0
    for h in range(1, 9):
        band = (freqs > f0 * h * 0.985) & (freqs < f0 * h * 1.015)
        if band.any():
            energy += spectrum[band].max() ** 2
    return 10 * np.log10(energy + 1e-12)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=os.path.join(HERE, 'work', 'data'))
    ap.add_argument('--etude', default=os.path.join(HERE, '..', '..', '.build-eval', 'release', 'etude'))
    ap.add_argument('--method', default='pyin')
    ap.add_argument('--noisy', default='snr10')
    args = ap.parse_args()
    with open(os.path.join(args.data, 'manifest.json')) as fh:
        files = json.load(fh)['files']
    renders = [f for f in files if f['kind'] == 'render']

    print('1. Legato changes, clean renders (frames in the first 250 ms of the new note)')
    total = collections.Counter()
    for f in (f for f in renders if f['condition'] == 'clean'):
        y, sr = sf.read(os.path.join(args.data, f['wav']))
        p = track(args.etude, os.path.join(args.data, f['wav']), args.method)
        t = np.loadtxt(os.path.join(args.data, f['truth']), comments='#')
        counts = collections.Counter()
        notes = f['notes']
        for previous, note in zip(notes, notes[1:]):
            if previous['off'] < note['on'] - 0.01:
                continue
            for i in range(min(len(t), len(p))):
                if not (note['on'] <= t[i, 0] < min(note['off'], note['on'] + 0.25)) or t[i, 2] <= 0 or t[i, 1] <= 0:
                    continue
                centre = int(t[i, 0] * sr)
                margin = harmonic_db(y, sr, centre, note['f0'], 0.04) - harmonic_db(y, sr, centre, previous['f0'], 0.04)
                side = 'new > +3 dB' if margin > 3 else ('previous > +3 dB' if margin < -3 else 'within 3 dB')
                counts[side, lost(p[i, 1], t[i, 1])] += 1
        total.update(counts)
        if counts:
            print('  %-14s ' % f['set'] + '  '.join('%s: %d lost of %d' % (s, counts[s, True], counts[s, True] + counts[s, False])
                                                   for s in ('previous > +3 dB', 'within 3 dB', 'new > +3 dB')))
    print('  %-14s ' % 'all' + '  '.join('%s: %d lost of %d' % (s, total[s, True], total[s, True] + total[s, False])
                                          for s in ('previous > +3 dB', 'within 3 dB', 'new > +3 dB')))

    print('2. Local SNR, renders at %s (scored voiced frames)' % args.noisy)
    frames = collections.Counter()
    wrong = collections.Counter()
    for f in (f for f in renders if f['condition'] == args.noisy):
        y, sr = sf.read(os.path.join(args.data, f['wav']))
        c, _ = sf.read(os.path.join(args.data, 'clean', f['set'] + '.wav'))
        n = min(len(y), len(c))
        gain = np.dot(y[:n], c[:n]) / np.dot(c[:n], c[:n])
        noise = y[:n] - gain * c[:n]
        p = track(args.etude, os.path.join(args.data, f['wav']), args.method)
        t = np.loadtxt(os.path.join(args.data, f['truth']), comments='#')
        w = int(0.035 * sr)
        for i in range(min(len(t), len(p))):
            if t[i, 2] <= 0 or t[i, 1] <= 0:
                continue
            a = max(0, int(t[i, 0] * sr) - w // 2)
            snr = 10 * np.log10((np.sum((gain * c[a:a + w]) ** 2) + 1e-20) / (np.sum(noise[a:a + w] ** 2) + 1e-20))
            band = max(-20, min(20, int(np.floor(snr / 5) * 5)))
            frames[band] += 1
            wrong[band] += lost(p[i, 1], t[i, 1])
    for band in sorted(frames):
        print('  local SNR %+3d..%+3d dB: %5d frames, %4d lost (%.2f)' % (band, band + 5, frames[band], wrong[band],
                                                                        wrong[band] / frames[band]))


if __name__ == '__main__':
    main()
