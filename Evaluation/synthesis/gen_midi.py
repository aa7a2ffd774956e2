#!/usr/bin/env python3
"""Writes the evaluation's MIDI files (General MIDI melodic programs, no drums) into OUTDIR.

Each file is one program on channel 0 at 120 bpm: single notes across the instrument's range
(0.5 s on, 0.25 s off) and, for the piano and strings, three-note chords at the end. A JSON
sidecar lists every note (time, duration, pitch, whether it is part of a chord).
"""
import json
import os
import sys

import mido

FILES = [
    # name, program, notes, chords
    ("piano", 0, list(range(33, 100, 6)), [(48, 52, 55), (57, 60, 64), (62, 65, 69)]),
    ("nylon_guitar", 24, list(range(40, 80, 4)), []),
    ("steel_guitar", 25, list(range(40, 80, 5)), []),
    ("strings", 48, list(range(36, 96, 6)), [(55, 59, 62), (60, 64, 67)]),
    ("flute", 73, list(range(60, 97, 4)), []),
    ("trumpet", 56, list(range(54, 84, 3)), []),
    ("bass", 33, list(range(28, 56, 3)), []),
    ("clarinet", 71, list(range(50, 90, 4)), []),
]

TPQ = 480
SEC = 2 * TPQ  # ticks per second at 120 bpm


def write(outdir, name, program, notes, chords):
    mid = mido.MidiFile(ticks_per_beat=TPQ)
    track = mido.MidiTrack()
    mid.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=500000, time=0))
    track.append(mido.Message("program_change", program=program, channel=0, time=0))
    events, listed = [], []
    t = SEC // 2  # start at 0.5 s
    for i, n in enumerate(notes):
        velocity = [100, 80, 120, 64][i % 4]
        events += [(t, 1, n, velocity), (t + SEC // 2, 0, n, 0)]
        listed.append({"time": t / SEC, "duration": 0.5, "pitch": n, "velocity": velocity, "chord": False})
        t += SEC * 3 // 4
    for chord in chords:
        for n in chord:
            events += [(t, 1, n, 96), (t + SEC, 0, n, 0)]
            listed.append({"time": t / SEC, "duration": 1.0, "pitch": n, "velocity": 96, "chord": True})
        t += SEC * 3 // 2
    events.sort(key=lambda e: (e[0], e[1]))
    now = 0
    for tick, on, n, v in events:
        kind = "note_on" if on else "note_off"
        track.append(mido.Message(kind, note=n, velocity=v, channel=0, time=tick - now))
        now = tick
    mid.save(os.path.join(outdir, name + ".mid"))
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump({"program": program, "notes": listed}, f)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, program, notes, chords in FILES:
        write(outdir, name, program, notes, chords)


if __name__ == "__main__":
    main()
