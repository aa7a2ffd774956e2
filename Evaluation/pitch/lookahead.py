#!/usr/bin/env python3
"""pyin-live's look-ahead against its accuracy: RPA on the rendered instruments per look-ahead.

Usage (from the repository root, after run.sh made the set and built etude):
  Evaluation/pitch/work/venv/bin/python Evaluation/pitch/lookahead.py [--data DIR] [--etude PATH]
      [--look-ahead-ms 10,40,80,120,160,320] [--conditions clean,snr10,reverb]

Runs `etude pitch FILE --method pyin-live --look-ahead-ms N` (and the offline `pyin`, the limit a
longer look-ahead tends to) on every render of each condition, scores the frames as evaluate.py
does (raw pitch accuracy over the scored voiced frames, pooled over the instruments) and prints
a markdown table; latency = half the analysis frame (44 ms at 44.1 kHz with the default 40 Hz
floor) plus the look-ahead.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evaluate  # noqa: E402  (the set's truth and scoring)


def track(etude, wav, method, look_ahead):
    command = [etude, 'pitch', wav, '--method', method]
    if look_ahead is not None:
        command += ['--look-ahead-ms', str(look_ahead)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    a = np.array([[float(x) for x in line.split()[:2]] for line in out.splitlines() if line.strip()])
    return a[:, 0], a[:, 1]


def score(etude, data, condition, name, method, look_ahead):
    wav = os.path.join(data, condition, name + '.wav')
    times, f0 = track(etude, wav, method, look_ahead)
    truth_times, ref, scored, _ = evaluate.load_truth(os.path.join(data, condition, name + '.f0.tsv'))
    est = evaluate.align(truth_times, times, f0)
    counts, _ = evaluate.frame_counts(ref[scored], est[scored])
    return counts['pitch_ok'], counts['voiced']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', default=os.path.join(HERE, 'work', 'data'))
    ap.add_argument('--etude', default=os.path.join(HERE, '..', '..', '.build-eval', 'release', 'etude'))
    ap.add_argument('--look-ahead-ms', default='10,40,80,120,160,320')
    ap.add_argument('--conditions', default='clean,snr10,reverb')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    with open(os.path.join(args.data, 'manifest.json')) as fh:
        manifest = json.load(fh)
    names = sorted({f['set'] for f in manifest['files'] if f['kind'] == 'render'})
    conditions = args.conditions.split(',')
    rows = [('pyin-live', int(ms)) for ms in args.look_ahead_ms.split(',')] + [('pyin', None)]
    jobs = [(method, ms, c, n) for method, ms in rows for c in conditions for n in names]
    totals = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda j: score(args.etude, args.data, j[2], j[3], j[0], j[1]), jobs)
        for (method, ms, c, _), (ok, voiced) in zip(jobs, results):
            t = totals.setdefault((method, ms, c), [0, 0])
            t[0] += ok
            t[1] += voiced
    print('| method | look-ahead | ' + ' | '.join('RPA ' + c for c in conditions) + ' |')
    print('|---|---:|' + '---:|' * len(conditions))
    for method, ms in rows:
        label = '%d ms' % ms if ms is not None else 'whole file'
        cells = ['%.3f' % (totals[(method, ms, c)][0] / totals[(method, ms, c)][1]) for c in conditions]
        print('| %s | %s | %s |' % (method, label, ' | '.join(cells)))


if __name__ == '__main__':
    main()
