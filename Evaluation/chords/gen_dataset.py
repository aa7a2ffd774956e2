#!/usr/bin/env python3
"""Writes the chord evaluation set: random chord progressions as MIDI files, rendered with
FluidSynth and the FluidR3 General MIDI soundfont, with Harte reference labels.

Every piece is generated from one seed (--seed; the reported evaluation uses 2026). Per
instrument (piano, electric piano, nylon guitar, steel guitar, drawbar organ, string ensemble)
there are four pieces in tune, each in a different playing style; piece 1 is also rendered 30
cents sharp, piece 2 30 cents flat (pitch bend, the same MIDI otherwise) and piece 3 is also
mixed with white noise at 10 dB SNR, so each altered render has an in-tune twin.

A piece has 12 chords of 1 to 6 seconds (2, 4 or 8 beats at 80-120 BPM) drawn from maj, min,
7, maj7, min7, dim, aug, sus2, sus4 on random roots, after one second of silence. Half the
pieces invert about 40 % of their chords (bass on the third, fifth or seventh; aug and sus
chords stay in root position, since their inversions are other roots' chords). Voicings: a
bass note in octaves 2-3 and the other chord tones, close or spread, between G3 and E5.

Usage: gen_dataset.py --out WORKDIR [--seed N] [--quick]
Writes WORKDIR/midi/*.mid, WORKDIR/audio/*.wav, WORKDIR/labels/*.lab and
WORKDIR/manifest.json (per file: instrument, style, condition, twin, inversions, duration).
"""
import argparse
import json
import random
import subprocess
from pathlib import Path

import mido
import numpy as np
import soundfile

SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
TICKS = 480
RATE = 44100

INSTRUMENTS = {
    # name: (GM program, styles for pieces 1-4)
    "piano": (0, ["block", "arpeggio", "comping", "block"]),
    "epiano": (4, ["comping", "block", "arpeggio", "block"]),
    "nylon-guitar": (24, ["strum", "arpeggio", "strum", "arpeggio"]),
    "steel-guitar": (25, ["strum", "strum", "arpeggio", "strum"]),
    "organ": (16, ["block", "comping", "block", "block"]),
    "strings": (48, ["block", "block", "comping", "block"]),
}
GROUP = {"nylon-guitar": "guitar", "steel-guitar": "guitar"}

# quality: (semitones above the root, Harte shorthand, weight, Harte degrees for inversions)
QUALITIES = {
    "maj": ([0, 4, 7], 0.22, {4: "3", 7: "5"}),
    "min": ([0, 3, 7], 0.20, {3: "b3", 7: "5"}),
    "7": ([0, 4, 7, 10], 0.14, {4: "3", 7: "5", 10: "b7"}),
    "maj7": ([0, 4, 7, 11], 0.10, {4: "3", 7: "5", 11: "7"}),
    "min7": ([0, 3, 7, 10], 0.12, {3: "b3", 7: "5", 10: "b7"}),
    "dim": ([0, 3, 6], 0.05, {3: "b3", 6: "b5"}),
    "aug": ([0, 4, 8], 0.05, {}),
    "sus2": ([0, 2, 7], 0.06, {}),
    "sus4": ([0, 5, 7], 0.06, {}),
}
ROOTS = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]


def voicing(root, quality, bass_interval, spread, rng):
    """MIDI notes: a bass note (octave 2-3), then the chord tones above it."""
    intervals, _, _ = QUALITIES[quality]
    bass_pc = (root + bass_interval) % 12
    bass = 36 + bass_pc if bass_pc >= 4 else 48 + bass_pc  # E2 ... D#3
    upper = []
    base = rng.choice([55, 57, 60])  # lowest upper note at or above G3 / A3 / C4
    for interval in intervals:
        note = base + (root + interval - base) % 12
        upper.append(note)
    upper.sort()
    if spread and len(upper) >= 3:
        upper[1] += 12  # open voicing: lift the middle tone an octave
        upper.sort()
    if rng.random() < 0.5:
        upper.append(upper[0] + 12)  # double the lowest upper note an octave up
    upper = [n for n in upper if n <= 79]
    return bass, sorted(set(upper))


def progression(rng, inversions):
    qualities = list(QUALITIES)
    weights = [QUALITIES[q][1] for q in qualities]
    chords = []
    previous = None
    while len(chords) < 12:
        root = rng.randrange(12)
        quality = rng.choices(qualities, weights)[0]
        if previous == (root, quality):
            continue
        inversion = 0
        degrees = QUALITIES[quality][2]
        if inversions and degrees and rng.random() < 0.4:
            inversion = rng.choice(sorted(degrees))
        beats = rng.choice([2, 4, 4, 8])
        chords.append((root, quality, inversion, beats))
        previous = (root, quality)
    return chords


def harte(root, quality, inversion):
    label = f"{ROOTS[root]}:{quality}"
    if inversion:
        label += "/" + QUALITIES[quality][2][inversion]
    return label


def write_piece(path, program, style, chords, bpm, bend_cents, rng):
    """Writes the MIDI file; returns [(start_s, end_s, label)] for the chords and the end time."""
    beat = 60.0 / bpm
    mid = mido.MidiFile(ticks_per_beat=TICKS)
    track = mido.MidiTrack()
    mid.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=int(beat * 1e6), time=0))
    track.append(mido.Message("program_change", program=program, channel=0, time=0))
    if bend_cents:
        # FluidSynth's default bend range is 2 semitones.
        track.append(mido.Message("pitchwheel", pitch=int(round(bend_cents / 200 * 8191)), channel=0, time=0))
    events = []  # (tick, order, message)
    t = TICKS  # one beat... then more silence below
    lead = int(round(1.0 / beat * TICKS))  # one second of silence
    t = lead
    segments = []
    spread = style in ("block", "comping") and rng.random() < 0.5
    for root, quality, inversion, beats in chords:
        length = beats * TICKS
        bass, upper = voicing(root, quality, inversion, spread, rng)
        velocity = rng.randint(70, 100)
        end = t + length - TICKS // 16
        if style == "block":
            for n in [bass] + upper:
                events.append((t, 1, n, velocity))
                events.append((end, 0, n, 0))
        elif style == "comping":
            events.append((t, 1, bass, velocity))
            events.append((end, 0, bass, 0))
            for hit in range(0, beats, 2):
                start = t + hit * TICKS
                stop = min(end, start + 2 * TICKS - TICKS // 8)
                for n in upper:
                    events.append((start, 1, n, velocity - 5))
                    events.append((stop, 0, n, 0))
        elif style == "arpeggio":
            notes = [bass] + upper
            step = TICKS // 2
            k = 0
            start = t
            while start < end:
                n = notes[k % len(notes)]
                events.append((start, 1, n, velocity))
                events.append((end, 0, n, 0))
                start += step
                k += 1
        elif style == "strum":
            notes = [bass] + upper
            for hit in range(beats):
                start = t + hit * TICKS
                order = notes if hit % 2 == 0 else list(reversed(notes))
                stop = min(end, start + TICKS - TICKS // 16)
                for i, n in enumerate(order):
                    offset = int(i * rng.uniform(0.012, 0.025) / beat * TICKS)
                    events.append((start + offset, 1, n, velocity - (0 if hit % 2 == 0 else 12)))
                    events.append((stop, 0, n, 0))
        segments.append((t * beat / TICKS, (t + length) * beat / TICKS, harte(root, quality, inversion)))
        t += length
    last_off = max(tick for tick, on, _, _ in events if on == 0)
    # Merge overlapping on/off of the same note: sort offs before ons at the same tick.
    events.sort(key=lambda e: (e[0], e[1]))
    active = {}
    now = 0
    for tick, on, note, velocity in events:
        delta = tick - now
        if on:
            if active.get(note, 0) > 0:
                track.append(mido.Message("note_off", note=note, velocity=0, channel=0, time=delta))
                delta = 0
            active[note] = 1
            track.append(mido.Message("note_on", note=note, velocity=velocity, channel=0, time=delta))
        else:
            if active.get(note, 0) == 0:
                continue
            active[note] = 0
            track.append(mido.Message("note_off", note=note, velocity=0, channel=0, time=delta))
        now = tick
    end_tick = last_off + int(round(1.5 / beat * TICKS))
    track.append(mido.MetaMessage("end_of_track", time=end_tick - now))
    mid.save(path)
    # The last chord sounds until its notes are released.
    segments[-1] = (segments[-1][0], last_off * beat / TICKS, segments[-1][2])
    return segments, end_tick * beat / TICKS


def render(midi, wav):
    subprocess.run(
        ["fluidsynth", "-ni", "-q", "-r", str(RATE), "-F", str(wav), SOUNDFONT, str(midi)],
        check=True, capture_output=True)


def add_noise(wav, segments, snr_db, seed):
    """White Gaussian noise at `snr_db` below the RMS of the music (from first chord to last release)."""
    audio, rate = soundfile.read(wav, dtype="float64")
    mono = audio.mean(axis=1) if audio.ndim == 2 else audio
    first, last = int(segments[0][0] * rate), int(segments[-1][1] * rate)
    rms = np.sqrt(np.mean(mono[first:last] ** 2))
    noise = np.random.default_rng(seed).standard_normal(len(mono)) * rms / 10 ** (snr_db / 20)
    out = mono + noise
    soundfile.write(wav, out.astype(np.float32), rate, subtype="FLOAT")


def write_lab(path, segments, duration):
    lines = []
    now = 0.0
    for start, end, label in segments:
        if start > now + 1e-6:
            lines.append((now, start, "N"))
        lines.append((start, end, label))
        now = end
    if duration > now + 1e-6:
        lines.append((now, duration, "N"))
    path.write_text("".join(f"{s:.6f}\t{e:.6f}\t{label}\n" for s, e, label in lines))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="piano and guitar only, in tune")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for sub in ("midi", "audio", "labels"):
        (args.out / sub).mkdir(parents=True, exist_ok=True)
    manifest = {}
    instruments = ["piano", "nylon-guitar"] if args.quick else list(INSTRUMENTS)
    for instrument in instruments:
        program, styles = INSTRUMENTS[instrument]
        for piece, style in enumerate(styles, start=1):
            inversions = piece % 2 == 0
            chords = progression(rng, inversions)
            bpm = rng.choice([80, 90, 100, 110, 120])
            piece_seed = rng.randrange(1 << 30)
            conditions = [("clean", 0, None)]
            if not args.quick:
                conditions += {1: [("sharp30", 30, None)], 2: [("flat30", -30, None)], 3: [("noise10", 0, 10)]}.get(piece, [])
            twin = f"{instrument}-{piece}-clean"
            for condition, cents, snr in conditions:
                name = f"{instrument}-{piece}-{condition}"
                midi = args.out / "midi" / f"{name}.mid"
                segments, duration = write_piece(
                    midi, program, style, chords, bpm, cents, random.Random(piece_seed))
                wav = args.out / "audio" / f"{name}.wav"
                render(midi, wav)
                if snr is not None:
                    add_noise(wav, segments, snr, piece_seed)
                info = soundfile.info(str(wav))
                write_lab(args.out / "labels" / f"{name}.lab", segments, info.duration)
                manifest[name] = {
                    "instrument": instrument, "group": GROUP.get(instrument, instrument), "style": style,
                    "condition": condition, "twin": twin, "inversions": inversions,
                    "duration": info.duration, "bpm": bpm,
                }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    print(f"{len(manifest)} files, {sum(m['duration'] for m in manifest.values()):.0f} s of audio in {args.out}")


if __name__ == "__main__":
    main()
