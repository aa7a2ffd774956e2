"""Mains hum under steady noise: a check the set's conditions do not cover yet.

Takes the `hum` condition's files of a generated set (50 or 60 Hz hum 25 dB under the notes),
adds white noise NOISE_DB under the notes' power (seeded per file, so every run hears the same
noise), writes them to work/hum-noise<NOISE_DB>/ and scores Etude's methods on them against the
hum files' truth: raw pitch accuracy on the voiced frames, false alarms on the unvoiced ones, the
worst files. With the default -20 dB the noise is 5 dB over the hum; with -30 dB, 5 dB under it.

    Evaluation/pitch/work/venv/bin/python Evaluation/pitch/hum_noise.py --etude PATH \
        [--data Evaluation/pitch/work/data] [--noise-db -20] [--methods pyin,pyin-live]
"""

import argparse
import concurrent.futures
import hashlib
import json
import os

import numpy as np
import soundfile as sf

import evaluate as E

HERE = os.path.dirname(os.path.abspath(__file__))


def make_files(data, noise_db, out):
    """Writes each hum file with noise added to `out`; returns (wav, truth) pairs."""
    with open(os.path.join(data, 'manifest.json')) as fh:
        manifest = json.load(fh)
    os.makedirs(out, exist_ok=True)
    pairs = []
    for f in manifest['files']:
        if f['condition'] != 'hum':
            continue
        truth = os.path.join(data, f['truth'])
        wav = os.path.join(out, os.path.basename(f['wav']))
        pairs.append((wav, truth))
        if os.path.exists(wav):
            continue
        y, sr = sf.read(os.path.join(data, f['wav']))
        times, ref, _, _ = E.load_truth(truth)
        # The notes' power: the samples at the voiced truth frames' centres.
        centres = np.clip((times[ref > 0] * sr).astype(int), 0, len(y) - 1)
        power = np.mean(y[centres] ** 2)
        seed = int.from_bytes(hashlib.sha256((f['wav'] + '/noise').encode()).digest()[:8], 'little')
        noise = np.random.default_rng(seed).standard_normal(len(y)) * np.sqrt(power * 10 ** (noise_db / 10))
        sf.write(wav, (y + noise).astype(np.float32), sr, subtype='FLOAT')
    return pairs


def score(etude, method, pairs):
    def one(pair):
        wav, truth = pair
        t, f0, _, _, err = E.run_etude(etude, method, wav)
        if err:
            raise RuntimeError('%s: %s' % (wav, err))
        times, ref, scored, _ = E.load_truth(truth)
        counts, _ = E.frame_counts(ref[scored], E.align(times, t, f0)[scored])
        return os.path.basename(wav)[:-4], counts

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        results = list(ex.map(one, pairs))
    total = lambda key: sum(c[key] for _, c in results)
    worst = sorted(results, key=lambda r: -r[1]['false_alarm'] / max(1, r[1]['unvoiced']))[:3]
    print('%-10s RPA %.4f  VFA %.4f  worst VFA %s' % (
        method, total('pitch_ok') / total('voiced'), total('false_alarm') / total('unvoiced'),
        ', '.join('%s %.2f' % (n, c['false_alarm'] / max(1, c['unvoiced'])) for n, c in worst)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--etude', required=True, help='the etude binary')
    ap.add_argument('--data', default=os.path.join(HERE, 'work', 'data'))
    ap.add_argument('--noise-db', type=float, default=-20.0, help='noise power under the notes, dB')
    ap.add_argument('--methods', default='pyin,pyin-live')
    args = ap.parse_args()
    out = os.path.join(HERE, 'work', 'hum-noise%g-%s' % (args.noise_db, os.path.basename(args.data)))
    pairs = make_files(args.data, args.noise_db, out)
    print('%d hum files with white noise %g dB under the notes (%s)' % (len(pairs), args.noise_db, out))
    for method in args.methods.split(','):
        score(args.etude, method, pairs)


if __name__ == '__main__':
    main()
