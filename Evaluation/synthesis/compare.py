#!/usr/bin/env python3
"""Compares Etude's SoundFont renders with FluidSynth's, note by note, and writes results.md.

Both renders are measured the same way (mono: FluidSynth's stereo is averaged):
- onset: the RMS envelope (1 ms hop, 2 ms window) in [t - 20 ms, t + 80 ms] around the MIDI
  time t; the onset is the first frame above 10 % of that window's maximum (-20 dB);
- pitch: over [onset + 60 ms, onset + min(duration, 0.4 s)], the normalized autocorrelation's
  peak near the MIDI pitch's period (±0.7 semitone), refined by parabolic interpolation, median
  over 2048-frame frames hopping 512. Chord notes are measured for onset only.
Usage: compare.py WORKDIR (holds NAME.json, NAME.fluid.wav, NAME.etude.wav).
"""
import json
import os
import sys

import numpy as np
import soundfile as sf

RATE = 44100


def mono(path):
    data, rate = sf.read(path, dtype="float64", always_2d=True)
    assert rate == RATE, f"{path}: {rate} Hz"
    return data.mean(axis=1)


def onset(x, t):
    lo, hi = max(0, int((t - 0.02) * RATE)), min(len(x), int((t + 0.08) * RATE))
    hop, win = RATE // 1000, 2 * RATE // 1000
    env = np.array([np.sqrt(np.mean(x[i:i + win] ** 2)) for i in range(lo, hi - win, hop)])
    if len(env) == 0 or env.max() <= 0:
        return None
    k = int(np.argmax(env >= 0.1 * env.max()))
    return (lo + k * hop) / RATE


def f0(x, start, stop, midi):
    expected = 440 * 2 ** ((midi - 69) / 12)
    lag_lo = int(RATE / (expected * 2 ** (0.7 / 12)))
    lag_hi = int(np.ceil(RATE / (expected / 2 ** (0.7 / 12)))) + 1
    n = 2048 if lag_hi < 900 else 4096
    values = []
    for s in range(int(start * RATE), min(int(stop * RATE), len(x)) - n - lag_hi - 2, 512):
        frame = x[s:s + n + lag_hi + 2]
        a = frame[:n]
        energy_a = np.dot(a, a)
        if energy_a < 1e-10:
            continue
        r = []
        for lag in range(lag_lo - 1, lag_hi + 2):
            b = frame[lag:lag + n]
            r.append(np.dot(a, b) / np.sqrt(energy_a * np.dot(b, b) + 1e-20))
        r = np.array(r)
        k = int(np.argmax(r[1:-1])) + 1
        y0, y1, y2 = r[k - 1], r[k], r[k + 1]
        denom = y0 - 2 * y1 + y2
        shift = 0.5 * (y0 - y2) / denom if denom != 0 else 0
        lag = lag_lo - 1 + k + shift
        if r[k] > 0.8:
            values.append(RATE / lag)
    return float(np.median(values)) if values else None


def cents(a, b):
    return 1200 * np.log2(a / b)


def main():
    work = sys.argv[1]
    rows, details = [], []
    names = sorted(f[:-5] for f in os.listdir(work) if f.endswith(".json"))
    for name in names:
        spec = json.load(open(os.path.join(work, name + ".json")))
        fluid, etude = mono(os.path.join(work, name + ".fluid.wav")), mono(os.path.join(work, name + ".etude.wav"))
        onset_diffs, cent_diffs, missing = [], [], 0
        for note in spec["notes"]:
            of, oe = onset(fluid, note["time"]), onset(etude, note["time"])
            if of is None or oe is None:
                missing += 1
                continue
            onset_diffs.append(abs(oe - of) * 1000)
            if not note["chord"]:
                stop = min(note["duration"], 0.4)
                pf = f0(fluid, of + 0.06, of + stop, note["pitch"])
                pe = f0(etude, oe + 0.06, oe + stop, note["pitch"])
                if pf and pe:
                    cent_diffs.append(abs(cents(pe, pf)))
                    details.append((name, note["pitch"], pf, pe, cents(pe, pf), (oe - of) * 1000))
                else:
                    missing += 1
        od, cd = np.array(onset_diffs), np.array(cent_diffs)
        rows.append((name, spec["program"], len(spec["notes"]), len(od), np.median(od), od.max(),
                     100 * np.mean(od <= 10), len(cd), np.median(cd) if len(cd) else float("nan"),
                     cd.max() if len(cd) else float("nan"), 100 * np.mean(cd <= 5) if len(cd) else float("nan"), missing))
    lines = ["| file | GM program | notes | onsets measured | median onset diff (ms) | max (ms) | within 10 ms | "
             "pitches measured | median diff (cents) | max (cents) | within 5 cents | unmeasured |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| {} | {} | {} | {} | {:.2f} | {:.2f} | {:.0f} % | {} | {:.2f} | {:.2f} | {:.0f} % | {} |".format(*r))
    all_o = np.concatenate([[0]]) if False else None
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(work, "table.md"), "w") as f:
        f.write(table + "\n")
    with open(os.path.join(work, "details.tsv"), "w") as f:
        f.write("file\tmidi\tfluid_hz\tetude_hz\tcents\tonset_ms\n")
        for d in details:
            f.write("{}\t{}\t{:.3f}\t{:.3f}\t{:+.2f}\t{:+.2f}\n".format(*d))


if __name__ == "__main__":
    main()
