#!/usr/bin/env python3
"""Writes the evaluation melodies as MIDI files, with their note-on times as ground truth.

Six instrument groups (General MIDI programs, FluidR3_GM), four pieces each, all generated from
one fixed seed:

- detached: notes of mixed lengths separated by articulation gaps (55-85 % of each interval);
- repeated: runs of 2-4 notes on one pitch, half of them separated by short gaps, half played
  legato (each note-off on the next note-on);
- legato:   a stepwise line, each note-off on the next note-on (no repeated pitch);
- fast:     sixteenth-note runs at 132 BPM (114 ms between onsets), lightly detached.

Violin, flute and voice pieces carry vibrato (modulation wheel, CC1 = 80) in the legato and
detached pieces. Usage: melodies.py OUTDIR  (writes OUTDIR/<name>.mid and OUTDIR/truth.json)
"""
import json
import random
import sys
from pathlib import Path

import mido

TICKS = 480
INSTRUMENTS = {
    # group: (program, lowest, highest, vibrato)
    "piano": (0, 48, 84, False),
    "guitar": (24, 40, 76, False),
    "trumpet": (56, 55, 82, False),
    "flute": (73, 60, 93, True),
    "violin": (40, 55, 91, True),
    "voice": (53, 53, 77, True),
}
MAJOR = [0, 2, 4, 5, 7, 9, 11]


def scale_notes(low, high, tonic):
    return [n for n in range(low, high + 1) if (n - tonic) % 12 in MAJOR]


def piece(kind, low, high, rng):
    """Returns (bpm, [(start_beats, length_beats, pitch, velocity)])."""
    tonic = rng.choice(range(60, 72))
    pitches = scale_notes(low, high, tonic)
    index = len(pitches) // 2
    notes = []
    beat = 1.0  # a beat of silence first
    if kind == "fast":
        bpm = 132
        for _ in range(48):
            index = max(0, min(len(pitches) - 1, index + rng.choice([-2, -1, -1, 1, 1, 2])))
            notes.append((beat, 0.25 * 0.85, pitches[index], rng.randint(70, 105)))
            beat += 0.25
        return bpm, notes
    bpm = rng.choice([84, 96, 108])
    while len(notes) < 32:
        step = rng.choice([-3, -2, -1, -1, 1, 1, 2, 3])
        index = max(0, min(len(pitches) - 1, index + step))
        pitch = pitches[index]
        if kind == "repeated":
            count = rng.randint(2, 4)
            length = rng.choice([0.5, 0.5, 1.0])
            legato = rng.random() < 0.5
            for _ in range(count):
                articulation = 1.0 if legato else rng.uniform(0.6, 0.85)
                notes.append((beat, length * articulation, pitch, rng.randint(60, 110)))
                beat += length
            if legato:
                beat += 0.5  # a breath between runs
        else:
            length = rng.choice([0.5, 0.5, 1.0, 1.0, 1.5, 2.0])
            if notes and notes[-1][2] == pitch:
                index = max(0, min(len(pitches) - 1, index + (1 if index < len(pitches) - 1 else -1)))
                pitch = pitches[index]
            articulation = 1.0 if kind == "legato" else rng.uniform(0.55, 0.85)
            notes.append((beat, length * articulation, pitch, rng.randint(60, 110)))
            beat += length
    return bpm, notes


def write_midi(path, program, bpm, notes, vibrato):
    midi = mido.MidiFile(ticks_per_beat=TICKS)
    track = mido.MidiTrack()
    midi.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(bpm), time=0))
    track.append(mido.Message("program_change", program=program, time=0))
    track.append(mido.Message("control_change", control=1, value=80 if vibrato else 0, time=0))
    events = []
    for start, length, pitch, velocity in notes:
        on = round(start * TICKS)
        off = round((start + length) * TICKS)
        # Offs sort before ons at the same tick, so a legato repeated pitch re-strikes cleanly.
        events.append((on, 1, mido.Message("note_on", note=pitch, velocity=velocity)))
        events.append((off, 0, mido.Message("note_off", note=pitch, velocity=64)))
    events.sort(key=lambda e: (e[0], e[1]))
    now = 0
    for tick, _, message in events:
        track.append(message.copy(time=tick - now))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=TICKS * 2))
    midi.save(path)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20240603)
    truth = {}
    for group, (program, low, high, vibrato) in INSTRUMENTS.items():
        for kind in ["detached", "repeated", "legato", "fast"]:
            bpm, notes = piece(kind, low, high, rng)
            name = f"{group}-{kind}"
            path = out / f"{name}.mid"
            write_midi(path, program, bpm, notes, vibrato and kind in ("detached", "legato"))
            # Ground truth from the file itself: mido's note-on times in seconds.
            onsets, now = [], 0.0
            for message in mido.MidiFile(path):
                now += message.time
                if message.type == "note_on" and message.velocity > 0:
                    onsets.append(round(now, 6))
            truth[name] = {"group": group, "kind": kind, "bpm": bpm, "onsets": onsets}
    (out / "truth.json").write_text(json.dumps(truth, indent=1))


if __name__ == "__main__":
    main()
