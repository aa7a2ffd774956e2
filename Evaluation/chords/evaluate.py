#!/usr/bin/env python3
"""Runs `etude chords` (whole-file and live) and a librosa chroma + template baseline on the
renders of gen_dataset.py, scores them with mir_eval's chord metrics, and writes results.md.

Usage: evaluate.py --work DIR --etude PATH [--out results.md] [--no-librosa] [--only NAMES]

Scores are duration-weighted over all files of a subset (mir_eval.chord's comparisons on the
merged intervals; references a metric leaves out, such as aug for majmin, count for neither
side). Live latency: for each reference chord, the time from its start until the live output
(each change shown `latency` seconds after its time, as `etude chords --live` reports) first
shows a label with the right root, or the right root and quality (mir_eval's tetrads: triad or
seventh, inversion ignored); chords never shown correctly count as misses, not in the median.
CPU: the etude process's user + system time (start-up and WAV reading included), and the
baseline's time in this Python process, per second of audio.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import mir_eval
import numpy as np

METRICS = ["root", "majmin", "sevenths", "mirex"]
QUALITIES = ["maj", "min", "7", "maj7", "min7", "dim", "aug", "sus2", "sus4"]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def self_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def read_lab(path):
    intervals, labels = [], []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        start, end, label = line.split("\t")
        intervals.append((float(start), float(end)))
        labels.append(label.strip())
    return np.array(intervals), labels


def parse_segments(text):
    intervals, labels = [], []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 3:
            continue
        intervals.append((float(parts[0]), float(parts[1])))
        labels.append(parts[2].strip())
    return np.array(intervals), labels


def run_etude(etude, wav, extra):
    before = children_cpu()
    result = subprocess.run([etude, "chords", str(wav)] + extra, capture_output=True, text=True, timeout=600)
    cpu = children_cpu() - before
    if result.returncode != 0:
        sys.exit(f"etude chords {wav} {' '.join(extra)} failed: {result.stderr}")
    latency = None
    match = re.search(r"reported ([0-9.]+) s after", result.stderr)
    if match:
        latency = float(match.group(1))
    intervals, labels = parse_segments(result.stdout)
    return intervals, labels, cpu, latency


# --- the librosa baseline -------------------------------------------------------------------

BASELINE_QUALITIES = {
    "maj": [0, 4, 7], "min": [0, 3, 7], "dim": [0, 3, 6], "aug": [0, 4, 8], "sus2": [0, 2, 7],
    "sus4": [0, 5, 7], "maj7": [0, 4, 7, 11], "min7": [0, 3, 7, 10], "7": [0, 4, 7, 10],
}
ROOTS = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]


def librosa_baseline(wav):
    """librosa's chroma_cqt (with its tuning estimate) against binary templates of the same nine
    types, cosine similarity turned into probabilities, Viterbi with librosa's transition_loop:
    the template method of librosa's own documentation, without any tuning to this set."""
    import librosa

    y, sr = librosa.load(str(wav), sr=22050, mono=True)
    hop = 512
    chroma = librosa.feature.chroma_cqt(y=y, sr=sr, hop_length=hop)
    labels = ["N"]
    templates = [np.ones(12) / np.sqrt(12)]
    for quality, tones in BASELINE_QUALITIES.items():
        for root in range(12):
            t = np.zeros(12)
            t[[(root + x) % 12 for x in tones]] = 1
            templates.append(t / np.linalg.norm(t))
            labels.append(f"{ROOTS[root]}:{quality}")
    templates = np.array(templates)
    norms = np.linalg.norm(chroma, axis=0, keepdims=True)
    similarity = templates @ (chroma / np.maximum(norms, 1e-9))
    rms = librosa.feature.rms(y=y, frame_length=2048, hop_length=hop)[0]
    frames = min(similarity.shape[1], len(rms))
    similarity = similarity[:, :frames]
    silent = rms[:frames] < 1e-3 * max(rms.max(), 1e-9)
    similarity[0, :] = np.where(silent, 1.0, 0.8)  # N wins on silence, else only on flat chroma
    probabilities = np.exp(10 * similarity)
    probabilities /= probabilities.sum(axis=0, keepdims=True)
    transition = librosa.sequence.transition_loop(len(labels), 0.9)
    path = librosa.sequence.viterbi_discriminative(probabilities, transition)
    times = librosa.frames_to_time(np.arange(frames + 1), sr=sr, hop_length=hop)
    intervals, out = [], []
    start = 0
    for i in range(1, frames + 1):
        if i == frames or path[i] != path[start]:
            intervals.append((times[start], times[i]))
            out.append(labels[path[start]])
            start = i
    duration = len(y) / sr
    intervals[-1] = (intervals[-1][0], duration)
    intervals[0] = (0.0, intervals[0][1])
    return np.array(intervals), out


# --- scoring ----------------------------------------------------------------------------------


def comparisons(ref_intervals, ref_labels, est_intervals, est_labels):
    """Per merged interval: durations and each metric's comparison (−1 = not counted)."""
    est_intervals, est_labels = mir_eval.util.adjust_intervals(
        est_intervals, est_labels, ref_intervals.min(), ref_intervals.max(),
        mir_eval.chord.NO_CHORD, mir_eval.chord.NO_CHORD)
    intervals, refs, ests = mir_eval.util.merge_labeled_intervals(
        ref_intervals, ref_labels, est_intervals, est_labels)
    durations = mir_eval.util.intervals_to_durations(intervals)
    out = {"durations": durations, "refs": refs}
    for metric in METRICS + ["tetrads"]:
        out[metric] = getattr(mir_eval.chord, metric)(refs, ests)
    return out


def aggregate(entries, metric):
    weight = sum(float(np.sum(e["durations"][e[metric] >= 0])) for e in entries)
    hit = sum(float(np.sum(e["durations"][e[metric] >= 0] * e[metric][e[metric] >= 0])) for e in entries)
    return 100 * hit / weight if weight else float("nan")


def quality_scores(entries):
    """Per reference quality: the duration share labelled with its root and quality (tetrads)."""
    out = {}
    for quality in QUALITIES:
        weight = hit = 0.0
        for e in entries:
            for d, ref, ok in zip(e["durations"], e["refs"], e["tetrads"]):
                if ref == "N" or ok < 0:
                    continue
                if ref.split(":")[1].split("/")[0] == quality:
                    weight += d
                    hit += d * ok
        out[quality] = 100 * hit / weight if weight else float("nan")
    return out


def latencies(ref_intervals, ref_labels, est_intervals, est_labels, latency):
    """Per reference chord: seconds until the live display shows a correct root, and a correct
    root and quality (None when never within the chord)."""
    out = []
    for (start, end), ref in zip(ref_intervals, ref_labels):
        if ref == "N":
            continue
        found = {"root": None, "tetrads": None}
        for (s, e), est in zip(est_intervals, est_labels):
            shown_start, shown_end = s + latency, e + latency
            if shown_end <= start or shown_start >= end:
                continue
            for key in found:
                if found[key] is None and getattr(mir_eval.chord, key)([ref], [est])[0] == 1:
                    found[key] = max(start, shown_start) - start
        out.append(found)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--etude", required=True)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("results.md"))
    parser.add_argument("--no-librosa", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated substrings of file names")
    parser.add_argument("--command", default="bash Evaluation/chords/run.sh")
    parser.add_argument("--systems", default="", help="comma-separated subset of: etude, live, stark")
    args = parser.parse_args()
    manifest = json.loads((args.work / "manifest.json").read_text())
    names = sorted(manifest)
    if args.only:
        keys = args.only.split(",")
        names = [n for n in names if any(k in n for k in keys)]

    systems = {
        "Etude": [],
        "Etude live": ["--live"],
        "Etude, Stark-style (live)": ["--live", "--chroma", "stark", "--decision", "distance", "--smoothing", "repeated"],
    }
    if args.systems:
        wanted = args.systems.split(",")
        keys = {"etude": "Etude", "live": "Etude live", "stark": next(k for k in systems if "Stark" in k)}
        systems = {keys[w]: systems[keys[w]] for w in wanted if w in keys}
    results = {system: {} for system in systems}
    if not args.no_librosa:
        results["librosa chroma_cqt + templates"] = {}
    cpu = {system: 0.0 for system in results}
    live_latency = None
    lat = []
    total_audio = 0.0
    for i, name in enumerate(names):
        info = manifest[name]
        wav = args.work / "audio" / f"{name}.wav"
        ref_intervals, ref_labels = read_lab(args.work / "labels" / f"{name}.lab")
        total_audio += info["duration"]
        for system, extra in systems.items():
            intervals, labels, seconds, latency = run_etude(args.etude, wav, extra)
            cpu[system] += seconds
            results[system][name] = comparisons(ref_intervals, ref_labels, intervals, labels)
            if latency is not None and system == "Etude live":
                live_latency = latency
                if info["condition"] == "clean":
                    lat += latencies(ref_intervals, ref_labels, intervals, labels, latency)
        if not args.no_librosa:
            before = self_cpu()
            intervals, labels = librosa_baseline(wav)
            cpu["librosa chroma_cqt + templates"] += self_cpu() - before
            results["librosa chroma_cqt + templates"][name] = comparisons(ref_intervals, ref_labels, intervals, labels)
        print(f"[{i + 1}/{len(names)}] {name}: " + ", ".join(
            f"{s.split(',')[0]} {aggregate([results[s][name]], 'majmin'):.1f}" for s in results), flush=True)

    def subset(predicate):
        return [n for n in names if predicate(manifest[n])]

    groups = sorted({manifest[n]["group"] for n in names})
    subsets = [(f"{g}, in tune", subset(lambda m, g=g: m["group"] == g and m["condition"] == "clean")) for g in groups]
    subsets += [
        ("inversions (in tune)", subset(lambda m: m["condition"] == "clean" and m["inversions"])),
        ("30 cents sharp", subset(lambda m: m["condition"] == "sharp30")),
        ("30 cents flat", subset(lambda m: m["condition"] == "flat30")),
        ("white noise, 10 dB SNR", subset(lambda m: m["condition"] == "noise10")),
        ("all in tune", subset(lambda m: m["condition"] == "clean")),
        ("all", names),
    ]
    subsets = [(label, members) for label, members in subsets if members]
    # Twins: the in-tune renders of the detuned pieces, for the detuning comparison.
    twins = {
        "30 cents sharp": [manifest[n]["twin"] for n in subset(lambda m: m["condition"] == "sharp30")],
        "30 cents flat": [manifest[n]["twin"] for n in subset(lambda m: m["condition"] == "flat30")],
        "white noise, 10 dB SNR": [manifest[n]["twin"] for n in subset(lambda m: m["condition"] == "noise10")],
    }

    lines = ["# Chord recognition: Etude vs a librosa baseline on FluidR3 renders", ""]
    lines.append(
        f"{len(names)} renders ({total_audio:.0f} s of audio) of random chord progressions "
        "(gen_dataset.py); mir_eval chord metrics, duration-weighted over each subset. "
        f"Generated by `{args.command}`.")
    lines.append("")
    for metric in METRICS:
        lines.append(f"## {metric}")
        lines.append("")
        lines.append("| subset | files | " + " | ".join(results) + " |")
        lines.append("|---|---:|" + "---:|" * len(results))
        for label, members in subsets:
            row = [f"{aggregate([results[s][n] for n in members], metric):.1f}" for s in results]
            lines.append(f"| {label} | {len(members)} | " + " | ".join(row) + " |")
        lines.append("")
    lines.append("## Detuned and noisy renders against their in-tune twins (same MIDI)")
    lines.append("")
    lines.append("| subset | metric | " + " | ".join(f"{s} (altered − in tune)" for s in results) + " |")
    lines.append("|---|---|" + "---:|" * len(results))
    for label, members in subsets:
        if label not in twins or not members:
            continue
        for metric in ["root", "majmin", "sevenths"]:
            cells = []
            for s in results:
                altered = aggregate([results[s][n] for n in members], metric)
                tuned = aggregate([results[s][n] for n in twins[label]], metric)
                cells.append(f"{altered:.1f} − {tuned:.1f} = {altered - tuned:+.1f}")
            lines.append(f"| {label} | {metric} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("## Root and quality by reference chord type (tetrads comparison, all renders)")
    lines.append("")
    lines.append("| system | " + " | ".join(QUALITIES) + " |")
    lines.append("|---|" + "---:|" * len(QUALITIES))
    for s in results:
        scores = quality_scores([results[s][n] for n in names])
        lines.append(f"| {s} | " + " | ".join(f"{scores[q]:.1f}" for q in QUALITIES) + " |")
    lines.append("")
    lines.append("## Cost and live latency")
    lines.append("")
    lines.append("| system | CPU s per audio s |")
    lines.append("|---|---:|")
    for s in results:
        lines.append(f"| {s} | {cpu[s] / total_audio:.4f} |")
    lines.append("")
    if lat:
        roots = [x["root"] for x in lat if x["root"] is not None]
        full = [x["tetrads"] for x in lat if x["tetrads"] is not None]
        lines.append(
            f"Live (`etude chords --live`, fixed reporting delay {live_latency:.3f} s included), over the "
            f"{len(lat)} chords of the in-tune renders: median latency to a correct root "
            f"{np.median(roots):.3f} s ({len(lat) - len(roots)} never correct), to a correct root and quality "
            f"{np.median(full):.3f} s ({len(lat) - len(full)} never correct); 90th percentiles "
            f"{np.percentile(roots, 90):.3f} s and {np.percentile(full, 90):.3f} s.")
        lines.append("")
    args.out.write_text("\n".join(lines) + "\n")
    summary = {
        s: {label: {m: aggregate([results[s][n] for n in members], m) for m in METRICS} for label, members in subsets}
        for s in results
    }
    (args.work / "results.json").write_text(json.dumps(
        {"scores": summary, "cpu_per_audio_second": {s: cpu[s] / total_audio for s in results},
         "latencies": lat, "latency": live_latency}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
