#!/usr/bin/env python3
"""Generate the pitch-tracking evaluation set with exact per-frame ground truth.

Usage: python3 Evaluation/pitch/gen_dataset.py [--quick | --extra] [--out DIR] [--soundfont SF2] [--force]

Writes, under DIR (default Evaluation/pitch/work/data, or work/data-quick with --quick, or
work/data-extra with --extra):
  <condition>/<set>.wav      mono, 44.1 kHz, 32-bit float
  <condition>/<set>.f0.tsv   one line per 10 ms frame: time_s, f0_hz (0 = unvoiced), scored (1/0)
  renders/<set>.mid          the MIDI file rendered by fluidsynth (clean condition)
  throughput.wav             60 s (20 s with --quick) of the clean renders back to back, for timing
  manifest.json              every file, its notes, group, condition, noise, and the soundfont check

Sets: fluidsynth renders of FluidR3_GM for 17 General MIDI instruments (single notes across the
instrument's range separated by silences, a legato phrase, staccato notes) and synthesized
material with exact f0 (steady harmonic tones 40 Hz-2 kHz with three spectra, missing fundamental,
vibrato, glides, attack transients, and unvoiced noise/silence). With --extra, 31 other General
MIDI instruments (EXTRA_INSTRUMENTS) instead of the 17, in the conditions clean, 10 dB SNR and
reverb only.
Conditions: clean, white or pink noise at 20, 10 and 0 dB SNR (SNR over the voiced spans),
room reverb (sox reverb 50 50 100), mains hum (50 or 60 Hz with eight harmonics, 25 dB under
the voiced spans, through the whole file: lead-in, rests and tail included), and the same hum with
white noise as loud as it (hum-noise: a hiss at the hum's level, each 25 dB under the voiced
spans).

Everything is deterministic: every random choice comes from a numpy Generator seeded from the
set's name. The set is regenerated only when this file, the options, the soundfont or the
fluidsynth/sox versions change (or with --force).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

import mido
import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
SR = 44100
HOP_S = 0.010              # ground-truth frame hop
ONSET_GUARD_S = 0.020      # frames in [note-on, note-on + 20 ms) are not scored
OFFSET_GUARD_S = 0.020     # frames in [note-off, note-off + 20 ms) are never scored
DECAY_DB = 60.0            # release tails are not scored until 60 dB below the note's peak
ENV_WIN_S = 0.030          # RMS window of the envelope used to measure tails
ENV_STEP_S = 0.001
DECAY_HOLD_S = 0.050       # the envelope must stay below the threshold this long
F_MIN, F_MAX = 40.0, 2000.0
CONDITIONS = ['clean', 'snr20', 'snr10', 'snr0', 'reverb', 'hum', 'hum-noise']
HUM_DB = -25.0             # hum power against the voiced spans' power
HUM_NOISE_DB = -25.0       # hum-noise: white noise power against the voiced spans' power
HUM_PARTIALS = [1, 0.8, 0.5, 0.4, 0.25, 0.2, 0.12, 0.1]
REVERB_ARGS = ['reverb', '50', '50', '100']     # reverberance %, HF damping %, room scale %
DEFAULT_SF2 = '/usr/share/sounds/sf2/FluidR3_GM.sf2'

# (set name, General MIDI program (0-based), lowest MIDI note, highest MIDI note).
# Ranges are the instrument's usual playable range clipped to 40 Hz-2 kHz
# (MIDI 28 = E1 = 41.2 Hz ... MIDI 95 = B6 = 1975.5 Hz), the range every tracker is set up for.
INSTRUMENTS = [
    ('piano', 0, 28, 95),
    ('guitar-nylon', 24, 40, 83),
    ('electric-bass', 33, 28, 67),
    ('violin', 40, 55, 95),
    ('cello', 42, 36, 76),
    ('contrabass', 43, 28, 57),
    ('choir-aahs', 52, 40, 79),
    ('voice-oohs', 53, 43, 79),
    ('trumpet', 56, 54, 84),
    ('trombone', 57, 40, 74),
    ('tuba', 58, 28, 62),
    ('french-horn', 60, 35, 77),
    ('alto-sax', 65, 49, 80),
    ('oboe', 68, 58, 91),
    ('bassoon', 70, 34, 75),
    ('clarinet', 71, 50, 91),
    ('flute', 73, 60, 95),
]
QUICK_INSTRUMENTS = ['violin', 'trumpet', 'tuba']
# --extra: General MIDI instruments outside the main set, which no change to the trackers was
# measured on before the set was made (stop 41): a check that what was learned on the 17 above
# carries over to other timbres (reeds, flues, free reeds, organ, plucked and struck strings,
# ensembles, synthesizer leads). Ranges as above.
EXTRA_INSTRUMENTS = [
    ('electric-piano', 4, 28, 91),
    ('harpsichord', 6, 29, 89),
    ('vibraphone', 11, 53, 89),
    ('marimba', 12, 45, 95),
    ('church-organ', 19, 36, 91),
    ('accordion', 21, 41, 89),
    ('harmonica', 22, 60, 88),
    ('guitar-steel', 25, 40, 83),
    ('guitar-electric', 27, 40, 83),
    ('acoustic-bass', 32, 28, 55),
    ('fretless-bass', 35, 28, 60),
    ('viola', 41, 48, 88),
    ('strings', 48, 36, 91),
    ('synth-voice', 54, 48, 79),
    ('muted-trumpet', 59, 54, 84),
    ('brass-section', 61, 40, 84),
    ('soprano-sax', 64, 56, 87),
    ('tenor-sax', 66, 44, 75),
    ('baritone-sax', 67, 36, 69),
    ('english-horn', 69, 52, 81),
    ('piccolo', 72, 74, 95),
    ('recorder', 74, 60, 91),
    ('pan-flute', 75, 60, 91),
    ('shakuhachi', 77, 55, 88),
    ('whistle', 78, 72, 95),
    ('ocarina', 79, 60, 88),
    ('square-lead', 80, 36, 95),
    ('saw-lead', 81, 36, 95),
    ('sitar', 104, 48, 84),
    ('banjo', 105, 48, 84),
    ('fiddle', 110, 55, 93),
]
EXTRA_CONDITIONS = ['clean', 'snr10', 'reverb']
# Keys inside a range that FluidR3_GM leaves silent (no sample): skipped. FluidR3's contrabass
# is silent above MIDI 57 (A3), hence its range above.
SILENT_KEYS = {'violin': {94}}

SYNTH_SETS = ['synth-steady-sine', 'synth-steady-saw', 'synth-steady-strong23',
              'synth-missing-fundamental', 'synth-vibrato', 'synth-glide', 'synth-attack',
              'synth-unvoiced']


def seeded(name, salt=''):
    digest = hashlib.sha256((name + '/' + salt).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], 'little'))


def midi_hz(note):
    return 440.0 * 2.0 ** ((note - 69) / 12.0)


def cents(f, ref):
    return 1200.0 * np.log2(f / ref)


# --------------------------------------------------------------------------------------------
# Note lists
# --------------------------------------------------------------------------------------------

def instrument_notes(name, lo, hi, quick):
    """Notes as dicts {pitch, on, off, velocity, part}; times in integer milliseconds."""
    rng = seeded(name, 'notes')
    silent = SILENT_KEYS.get(name, set())
    step = 8 if quick else 4
    start = lo + int(rng.integers(0, step))
    sweep = list(range(start, hi + 1, step))
    if sweep[0] != lo:
        sweep.insert(0, lo)
    if sweep[-1] != hi:
        sweep.append(hi)
    sweep = [p if p not in silent else p - 1 for p in sweep]
    rng.shuffle(sweep)
    notes = []
    t = 300
    for p in sweep:
        dur = int(rng.uniform(300, 800))
        notes.append(dict(pitch=int(p), on=t, off=t + dur, velocity=int(rng.integers(60, 121)),
                          part='sweep'))
        gap = rng.uniform(800, 1200) if rng.random() < 0.12 else rng.uniform(200, 500)
        t += dur + int(gap)
    # legato phrase: adjacent notes, next note-on at the previous note-off
    mid = (lo + hi) // 2
    p = mid + int(rng.integers(-3, 4))
    p = p if p not in silent else p - 1
    for i in range(3 if quick else 6):
        dur = int(rng.uniform(250, 450))
        notes.append(dict(pitch=int(p), on=t, off=t + dur, velocity=int(rng.integers(80, 111)),
                          part='legato'))
        t += dur
        while True:
            q = p + int(rng.choice([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]))
            if lo <= q <= hi and q not in silent:
                break
        p = q
    t += 500
    # staccato notes
    for i in range(1 if quick else 3):
        p = int(rng.integers(max(lo, mid - 7), min(hi, mid + 7) + 1))
        p = p if p not in silent else p - 1
        dur = int(rng.uniform(120, 200))
        notes.append(dict(pitch=p, on=t, off=t + dur, velocity=int(rng.integers(70, 121)),
                          part='staccato'))
        t += dur + int(rng.uniform(150, 250))
    end = t + 1000
    for n in notes:
        n['f0'] = midi_hz(n['pitch'])
    return notes, end


def write_midi(path, program, notes, end_ms):
    mid = mido.MidiFile(ticks_per_beat=1000)       # with 1 s per beat, one tick is 1 ms
    track = mido.MidiTrack()
    mid.tracks.append(track)
    events = [(0, 0, mido.MetaMessage('set_tempo', tempo=1000000)),
              (0, 0, mido.Message('program_change', program=program, channel=0))]
    for n in notes:
        events.append((n['on'], 2, mido.Message('note_on', note=n['pitch'],
                                                velocity=n['velocity'], channel=0)))
        events.append((n['off'], 1, mido.Message('note_off', note=n['pitch'], velocity=64,
                                                 channel=0)))
    events.sort(key=lambda e: (e[0], e[1]))      # at equal times: note-off before note-on
    now = 0
    for tick, _, msg in events:
        track.append(msg.copy(time=tick - now))
        now = tick
    track.append(mido.MetaMessage('end_of_track', time=end_ms - now))
    mid.save(path)


def render(midi_path, sf2):
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, 'render.wav')
        # -R 0 -C 0: fluidsynth's own reverb and chorus off (chorus would modulate the pitch).
        subprocess.run(['fluidsynth', '-ni', '-q', '-R', '0', '-C', '0', '-g', '0.5',
                        '-O', 'float', '-T', 'wav', '-F', raw, '-r', str(SR), sf2, midi_path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        y, sr = sf.read(raw, dtype='float64', always_2d=True)
    assert sr == SR, sr
    return y.mean(axis=1)


# --------------------------------------------------------------------------------------------
# Synthesized material
# --------------------------------------------------------------------------------------------

SAW = [1.0 / k for k in range(1, 31)]
STRONG23 = [0.3, 1.0, 0.85, 0.5, 0.35, 0.25, 0.18, 0.12, 0.08, 0.05, 0.03]   # trumpet-like
MISSING = [0.0] + [1.0 / k for k in range(2, 11)]                             # no fundamental
SINE = [1.0]


def additive(f_inst, amps, rng):
    """Sum of harmonics of the per-sample instantaneous frequency f_inst, random phases,
    smoothly band-limited below 16-18 kHz."""
    phase = 2.0 * np.pi * np.cumsum(f_inst) / SR
    y = np.zeros_like(f_inst)
    for k, a in enumerate(amps, start=1):
        if a == 0.0:
            continue
        fk = k * f_inst
        taper = np.clip((18000.0 - fk) / 2000.0, 0.0, 1.0)
        if not taper.any():
            continue
        y += a * taper * np.sin(k * phase + rng.uniform(0, 2 * np.pi))
    return y


def raised_cosine(n):
    return 0.5 - 0.5 * np.cos(np.pi * np.arange(n) / max(n, 1))


def place_tone(buf, on_s, dur_s, f_of_t, amps, level_db, rng, decay_tau=None, burst_db=None):
    """Write a tone whose f0 is f_of_t(seconds since onset) into buf.
    Sound: 10 ms raised-cosine attack from on_s, sustained (or decaying) to on_s + dur_s,
    then a 20 ms raised-cosine release. Peak normalised to level_db dBFS."""
    n_on = int(round(on_s * SR))
    n_body = int(round(dur_s * SR))
    n_rel = int(round(0.020 * SR))
    n = n_body + n_rel
    t = np.arange(n) / SR
    y = additive(f_of_t(t), amps, rng)
    env = np.ones(n)
    n_att = int(round(0.010 * SR))
    if decay_tau is not None:
        n_att = int(round(0.002 * SR))
        env *= np.exp(-t / decay_tau)
    env[:n_att] *= raised_cosine(n_att)
    env[n_body:] *= raised_cosine(n_rel)[::-1]
    y *= env
    y *= 10 ** (level_db / 20) / np.max(np.abs(y))
    if burst_db is not None:                      # broadband attack transient (~40 ms)
        nb = int(round(0.040 * SR))
        burst = rng.standard_normal(nb) * np.exp(-np.arange(nb) / (0.008 * SR))
        burst *= 10 ** ((level_db + burst_db) / 20) / np.max(np.abs(burst))
        y[:nb] += burst
    buf[n_on:n_on + n] += y


def log_uniform(rng, lo, hi):
    return float(np.exp(rng.uniform(np.log(lo), np.log(hi))))


def synth_set(name, quick):
    """Returns (audio, notes, end_s). notes: dicts with on/off in seconds and f0 either a
    constant (key 'f0') or a function of time since onset (key 'fn', for vibrato and glides)."""
    rng = seeded(name, 'synth')
    notes = []
    tones = []          # (on, dur, f_of_t, amps, level, kwargs)
    t = 0.3
    if name.startswith('synth-steady'):
        # 42 log-spaced frequencies over 40 Hz..2 kHz inclusive, dealt round-robin to the three
        # spectra (sine gets 40 Hz, strong23 gets 2 kHz); order shuffled within the file.
        grid = F_MIN * (F_MAX / F_MIN) ** (np.arange(42) / 41.0)
        which = {'synth-steady-sine': 0, 'synth-steady-saw': 1, 'synth-steady-strong23': 2}[name]
        amps = {0: SINE, 1: SAW, 2: STRONG23}[which]
        freqs = list(grid[which::3])
        if quick:
            freqs = freqs[::3]
        rng.shuffle(freqs)
        for f in freqs:
            dur = 0.6
            tones.append((t, dur, float(f), None, amps, rng.uniform(-30, -6), {}))
            t += dur + (rng.uniform(0.6, 1.0) if rng.random() < 0.12 else 0.25)
    elif name == 'synth-missing-fundamental':
        for i in range(3 if quick else 12):
            dur = 0.6
            tones.append((t, dur, log_uniform(rng, 80, 800), None, MISSING,
                          rng.uniform(-30, -6), {}))
            t += dur + 0.25
    elif name == 'synth-vibrato':
        for i in range(2 if quick else 8):
            fc = log_uniform(rng, 100, 1000)
            rate = rng.uniform(5.0, 6.0)
            ph = rng.uniform(0, 2 * np.pi)
            fn = (lambda fc, rate, ph: lambda s: fc * 2.0 ** (50.0 / 1200.0 *
                                                             np.sin(2 * np.pi * rate * s + ph)))(
                fc, rate, ph)
            dur = 1.2
            tones.append((t, dur, None, fn, SAW[:12], rng.uniform(-30, -6),
                          dict(fc=fc, rate=rate, depth_cents=50.0)))
            t += dur + 0.25
    elif name == 'synth-glide':
        for i in range(2 if quick else 8):
            f1 = log_uniform(rng, 60, 1000)
            semis = rng.uniform(3, 12) * (1 if rng.random() < 0.5 else -1)
            dur = rng.uniform(0.8, 1.4)
            fn = (lambda f1, semis, dur: lambda s: f1 * 2.0 ** (semis / 12.0 * s / dur))(
                f1, semis, dur)
            tones.append((t, dur, None, fn, SAW[:12], rng.uniform(-30, -6),
                          dict(start_hz=f1, semitones=semis)))
            t += dur + 0.25
    elif name == 'synth-attack':
        for i in range(3 if quick else 10):
            f = log_uniform(rng, 60, 1500)
            amps = [a * rng.uniform(0.5, 1.5) for a in SAW[:20]]
            dur = 0.8
            tones.append((t, dur, f, None, amps, rng.uniform(-24, -6),
                          dict(decay_tau=rng.uniform(0.2, 0.5), burst_db=rng.uniform(0, 6))))
            t += dur + 0.25
    elif name == 'synth-unvoiced':
        pass
    else:
        raise ValueError(name)

    if name == 'synth-unvoiced':
        segs = []
        kinds = ['white', 'pink', 'breath', 'silence', 'faint', 'clicks']
        for rep in range(1 if quick else 2):
            for kind in kinds:
                segs.append(kind)
        end = 0.3 + len(segs) * 1.1 + 0.3
        buf = np.zeros(int(round(end * SR)))
        t = 0.3
        for kind in segs:
            n = int(0.9 * SR)
            if kind == 'white':
                seg = rng.standard_normal(n) * 10 ** (rng.uniform(-35, -15) / 20)
            elif kind == 'pink':
                seg = pink_noise(n, rng) * 10 ** (rng.uniform(-35, -15) / 20)
            elif kind == 'breath':
                seg = bandpass_noise(n, rng, 300, 3000)
                seg *= 0.6 + 0.4 * np.sin(2 * np.pi * rng.uniform(2, 4) * np.arange(n) / SR)
                seg *= 10 ** (rng.uniform(-35, -20) / 20) / np.sqrt(np.mean(seg ** 2))
            elif kind == 'silence':
                seg = np.zeros(n)
            elif kind == 'faint':
                seg = rng.standard_normal(n) * 10 ** (-70 / 20)
            else:   # irregular clicks
                seg = np.zeros(n)
                pos = np.sort(rng.choice(n - 200, size=12, replace=False))
                for p in pos:
                    seg[p:p + 200] += rng.uniform(0.05, 0.3) * np.exp(-np.arange(200) / 30.0) * \
                        rng.standard_normal(200)
            ramp = int(0.01 * SR)
            seg[:ramp] *= raised_cosine(ramp)
            seg[-ramp:] *= raised_cosine(ramp)[::-1]
            i0 = int(round(t * SR))
            buf[i0:i0 + n] += seg
            t += 1.1
        return buf, [], end

    end = t + 0.7
    buf = np.zeros(int(round(end * SR)) + SR)
    for on, dur, f, fn, amps, level, extra in tones:
        f_of_t = fn if fn is not None else (lambda f: lambda s: np.full_like(s, f))(f)
        place_tone(buf, on, dur, f_of_t, amps, level, rng,
                   decay_tau=extra.get('decay_tau'), burst_db=extra.get('burst_db'))
        note = dict(on=on, off=on + dur, level_db=level)
        if fn is None:
            note['f0'] = f
        else:
            note['fn'] = fn
        note.update({k: v for k, v in extra.items()})
        notes.append(note)
    buf = buf[:int(round(end * SR))]
    return buf, notes, end


def pink_noise(n, rng):
    white = rng.standard_normal(n)
    spec = np.fft.rfft(white)
    f = np.fft.rfftfreq(n, 1.0 / SR)
    spec /= np.sqrt(np.maximum(f, 20.0))
    y = np.fft.irfft(spec, n)
    return y / np.sqrt(np.mean(y ** 2))


def bandpass_noise(n, rng, lo, hi):
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1.0 / SR)
    spec *= ((f >= lo) & (f <= hi))
    y = np.fft.irfft(spec, n)
    return y / np.sqrt(np.mean(y ** 2))


# --------------------------------------------------------------------------------------------
# Ground truth
# --------------------------------------------------------------------------------------------

def envelope_db(y):
    """Moving RMS (30 ms window) every 1 ms, in dB; index i is the window centred at i ms."""
    win = int(round(ENV_WIN_S * SR))
    c = np.concatenate([[0.0], np.cumsum(y.astype(np.float64) ** 2)])
    centres = np.round(np.arange(int(len(y) / SR / ENV_STEP_S) + 1) * ENV_STEP_S * SR)
    centres = centres.astype(np.int64)
    a = np.clip(centres - win // 2, 0, len(y))
    b = np.clip(centres + win // 2, 0, len(y))
    ms = (c[b] - c[a]) / np.maximum(b - a, 1)
    return 10.0 * np.log10(np.maximum(ms, 1e-30))


def tail_intervals(y, notes):
    """For each note: (start, end, tail length) of the span that is not scored: from note-off to
    the end of its release tail, where the tail ends when the envelope has stayed DECAY_DB below
    the note's own peak for DECAY_HOLD_S (or at the next note-on). A note that has decayed that
    far before its note-off (FluidR3's marimba's high notes) is not scored from there on
    either: the span then starts where the envelope first stays below."""
    env = envelope_db(y)
    n_env = len(env)
    hold = int(round(DECAY_HOLD_S / ENV_STEP_S))
    ons = sorted(n['on'] for n in notes)
    tails = []
    for n in notes:
        i_on = int(round(n['on'] / ENV_STEP_S))
        i_off = int(round(n['off'] / ENV_STEP_S))
        i_peak = i_on + int(np.argmax(env[i_on:max(i_off, i_on + 1)]))
        peak = env[i_peak]
        later = [o for o in ons if o >= n['off']]
        limit = int(round(later[0] / ENV_STEP_S)) if later else n_env
        limit = min(limit, n_env)
        below = env < peak - DECAY_DB
        start = n['off']
        end = limit
        i = i_peak
        while i < limit:
            if below[i]:
                j = min(i + hold, limit)
                run = below[i:j]
                if run.all():
                    end = i
                    break
                i += int(np.argmin(run))      # jump to the first sample above again
            i += 1
        if end < i_off:
            start, end = end * ENV_STEP_S, i_off
        t_end = max(end * ENV_STEP_S, n['off'] + OFFSET_GUARD_S)
        tails.append((start, t_end, t_end - n['off']))
    return tails


def truth_frames(duration, notes, tails):
    """Per-frame truth on the grid t_k = k * 10 ms: (times, f0, scored, f0_nominal)."""
    times = np.arange(int(np.floor(duration / HOP_S)) + 1) * HOP_S
    f0 = np.zeros_like(times)
    f0_nominal = np.zeros_like(times)
    scored = np.ones(len(times), dtype=bool)
    in_note = np.zeros(len(times), dtype=bool)
    for n in notes:
        m = (times >= n['on'] - 1e-9) & (times < n['off'] - 1e-9)
        in_note |= m
        if 'fn' in n:
            f0[m] = n['fn'](times[m] - n['on'])
        else:
            f0[m] = n['f0']
        f0_nominal[m] = n.get('f0_nominal', 0) or f0[m]
        scored[m & (times < n['on'] + ONSET_GUARD_S - 1e-9)] = False
    for n, (a, b, _) in zip(notes, tails):
        # The note's own decayed end, then its tail where no note sounds.
        own = (times >= a - 1e-9) & (times < n['off'] - 1e-9)
        m = (times >= a - 1e-9) & (times < b - 1e-9) & ~in_note
        scored[own | m] = False
    return times, f0, scored, f0_nominal


def write_truth(path, times, f0, scored, f0_nominal):
    with open(path, 'w') as fh:
        fh.write('# time_s\tf0_hz\tscored\tf0_nominal_hz\n')
        for t, f, s, fn in zip(times, f0, scored, f0_nominal):
            fh.write('%.3f\t%.6f\t%d\t%.6f\n' % (t, f, 1 if s else 0, fn))


# --------------------------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------------------------

def voiced_power(y, notes):
    mask = np.zeros(len(y), dtype=bool)
    for n in notes:
        mask[int(round(n['on'] * SR)):int(round(n['off'] * SR))] = True
    return float(np.mean(y[mask] ** 2)), mask


def add_noise(y, notes, snr_db, name):
    rng = seeded(name, 'noise-%g' % snr_db)
    kind = 'pink' if seeded(name, 'noise-kind').random() < 0.5 else 'white'
    noise = pink_noise(len(y), rng) if kind == 'pink' else rng.standard_normal(len(y))
    noise /= np.sqrt(np.mean(noise ** 2))
    p_sig, mask = voiced_power(y, notes)
    noise *= np.sqrt(p_sig / 10 ** (snr_db / 10))
    out = y + noise
    measured = 10 * np.log10(p_sig / np.mean(noise[mask] ** 2))
    return out, kind, float(measured)


def add_hum(y, notes, name):
    """Mains hum (50 or 60 Hz, seeded per set) with HUM_PARTIALS at seeded phases, HUM_DB under
    the voiced spans' power. Returns the signal and the mains frequency."""
    rng = seeded(name, 'hum')
    mains = 50.0 if rng.random() < 0.5 else 60.0
    t = np.arange(len(y)) / SR
    hum = sum(a * np.sin(2 * np.pi * mains * (k + 1) * t + rng.uniform(0, 2 * np.pi))
              for k, a in enumerate(HUM_PARTIALS))
    p_sig, _ = voiced_power(y, notes)
    hum *= np.sqrt(p_sig * 10 ** (HUM_DB / 10) / np.mean(hum ** 2))
    return y + hum, mains


def add_hum_and_noise(y, notes, name):
    """The `hum` condition's hum plus white noise (seeded per set) HUM_NOISE_DB under the voiced
    spans' power. Returns the signal and the mains frequency."""
    p_sig, _ = voiced_power(y, notes)
    hummed, mains = add_hum(y, notes, name)
    noise = seeded(name, 'hum-noise').standard_normal(len(y))
    noise *= np.sqrt(p_sig * 10 ** (HUM_NOISE_DB / 10) / np.mean(noise ** 2))
    return hummed + noise, mains


def add_reverb(y, tmpdir):
    src = os.path.join(tmpdir, 'dry.wav')
    dst = os.path.join(tmpdir, 'wet.wav')
    sf.write(src, y.astype(np.float32), SR, subtype='FLOAT')
    subprocess.run(['sox', '-V1', '-D', src, '-e', 'floating-point', '-b', '32', dst] + REVERB_ARGS,
                   check=True)
    out, sr = sf.read(dst, dtype='float64')
    assert sr == SR and out.ndim == 1
    return out[:len(y)] if len(out) >= len(y) else np.pad(out, (0, len(y) - len(out)))


def limit_peak(y):
    peak = float(np.max(np.abs(y)))
    if peak > 0.98:
        return y * (0.98 / peak), 0.98 / peak
    return y, 1.0


# --------------------------------------------------------------------------------------------
# Soundfont check: are the renders in tune, and when does the sound start?
# --------------------------------------------------------------------------------------------

def partial_freq(seg, f_guess, search_cents=80.0):
    """Frequency of the strongest spectral peak within +-search_cents of f_guess
    (Hann window, 8x zero padding, parabolic interpolation of the log magnitude),
    and that peak's level relative to the strongest peak of the whole spectrum (dB)."""
    n = len(seg)
    nfft = 1 << int(np.ceil(np.log2(8 * n)))
    mag = np.abs(np.fft.rfft(seg * np.hanning(n), nfft))
    freqs = np.arange(len(mag)) * SR / nfft
    lo = f_guess * 2 ** (-search_cents / 1200)
    hi = f_guess * 2 ** (search_cents / 1200)
    idx = np.nonzero((freqs >= lo) & (freqs <= hi))[0]
    i = idx[np.argmax(mag[idx])]
    a, b, c = np.log(mag[i - 1:i + 2] + 1e-30)
    p = 0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0
    return (i + p) * SR / nfft, 20 * np.log10(mag[i] / mag.max())


def partial_track(y, a, b, f_nom, k):
    """Short-time frequency of partial k over [a, b) seconds: frames of max(100 ms, 10 periods)
    every 20 ms; returns the per-frame estimates of f0 (partial frequency / k) and levels."""
    length = max(0.100, 10.0 / f_nom)
    starts = np.arange(a, b - length + 1e-9, 0.020)
    fs, ls = [], []
    for t0 in starts:
        seg = y[int(round(t0 * SR)):int(round((t0 + length) * SR))]
        f, lev = partial_freq(seg, k * f_nom)
        fs.append(f / k)
        ls.append(lev)
    return np.array(fs), np.array(ls)


def steady_pitch(y, a, b, f_guess):
    """Careful estimate of a steady note's pitch over [a, b) seconds: the median over short-time
    frames of partial 1, or of partial 2 / 2 when partial 1 is more than 30 dB below the
    strongest peak. Returns (cents from f_guess, interquartile range in cents, partial used)."""
    f1, l1 = partial_track(y, a, b, f_guess, 1)
    k, f = 1, f1
    if np.median(l1) < -30:
        f2, _ = partial_track(y, a, b, f_guess, 2)
        k, f = 2, f2
    c = cents(f, f_guess)
    return float(np.median(c)), float(np.subtract(*np.percentile(c, [75, 25]))), k


def calibrate(name, program, pairs, sf2, tmp):
    """The soundfont's own tuning for each (MIDI key, velocity) the set uses: every pair is
    rendered alone for 1 s (1 s of silence between), and its pitch measured over
    [0.15 s, 0.9 s] after note-on (the part the set's notes, 0.12-0.9 s long, mostly play) with
    steady_pitch(). Returns {(key, velocity): record}."""
    notes = []
    t = 500
    for key, vel in pairs:
        notes.append(dict(pitch=key, velocity=vel, on=t, off=t + 1000, f0=midi_hz(key)))
        t += 2000
    path = os.path.join(tmp, name + '-calibration.mid')
    write_midi(path, program, notes, t + 500)
    y = render(path, sf2)
    out = {}
    for n in notes:
        on = n['on'] / 1000
        seg = y[int(on * SR):int((on + 1.0) * SR)]
        level = 20 * np.log10(np.sqrt(np.mean(seg ** 2)) + 1e-20)
        if level < -70:
            raise SystemExit('%s: MIDI key %d at velocity %d is silent in the soundfont (%.0f dB);'
                             ' change the range or SILENT_KEYS' % (name, n['pitch'],
                                                                  n['velocity'], level))
        c, iqr, k = steady_pitch(y, on + 0.15, on + 0.9, n['f0'])
        out[(n['pitch'], n['velocity'])] = dict(key=n['pitch'], velocity=n['velocity'],
                                                cents=round(c, 2), iqr_cents=round(iqr, 2),
                                                partial=k)
    return out


def check_render(y, notes):
    """In-context check of the renders against the (soundfont-tuned) truth: for each note long
    enough, the pitch over [on + 150 ms, min(off, on + 750 ms)] with steady_pitch(), in cents
    from the truth f0; and the onset delay: the first sample after note-on whose magnitude is
    within 40 dB of the note's peak magnitude (notes that start after a silence only)."""
    out = []
    for n in notes:
        rec = dict(pitch=n['pitch'], part=n['part'])
        on, off = n['on'] / 1000, n['off'] / 1000
        a, b = on + 0.150, min(off, on + 0.750)
        if b - a >= max(0.100, 10.0 / n['f0']) + 0.04:
            rec['cents_vs_truth'] = steady_pitch(y, a, b, n['f0'])[0]
        i_on, i_off = int(round(on * SR)), int(round(off * SR))
        peak = np.max(np.abs(y[i_on:i_off]))
        thr = peak * 10 ** (-40 / 20)
        before = np.abs(y[i_on - int(0.020 * SR):i_on])
        if before.max() < thr * 0.1:
            k = np.nonzero(np.abs(y[i_on:i_off]) > thr)[0]
            if len(k):
                rec['onset_delay_ms'] = round(float(k[0] / SR * 1000), 2)
        out.append(rec)
    return out


def summarize_check(calib, recs):
    offs = np.array([c['cents'] for c in calib.values()])
    iqrs = np.array([c['iqr_cents'] for c in calib.values()])
    dev = np.array([r['cents_vs_truth'] for r in recs if 'cents_vs_truth' in r])
    delays = [r['onset_delay_ms'] for r in recs if 'onset_delay_ms' in r]
    worst = sorted(calib.values(), key=lambda c: -abs(c['cents']))[:3]
    return dict(keys_calibrated=len(offs),
                tuning_median_cents=float(np.median(offs)),
                tuning_min_cents=float(offs.min()), tuning_max_cents=float(offs.max()),
                keys_over_10_cents=int(np.sum(np.abs(offs) > 10)),
                keys_over_25_cents=int(np.sum(np.abs(offs) > 25)),
                worst=[(c['key'], c['cents']) for c in worst],
                spread_iqr_cents_median=float(np.median(iqrs)),
                in_context_notes=len(dev),
                in_context_abs_dev_median=float(np.median(np.abs(dev))) if len(dev) else None,
                in_context_abs_dev_max=float(np.max(np.abs(dev))) if len(dev) else None,
                onset_delay_ms_median=float(np.median(delays)) if delays else None,
                onset_delay_ms_max=float(np.max(delays)) if delays else None)


# --------------------------------------------------------------------------------------------

def tool_version(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except Exception:
        return 'unknown'


def fingerprint(args):
    h = hashlib.sha256()
    with open(os.path.abspath(__file__), 'rb') as fh:
        h.update(fh.read())
    h.update(repr((args.quick, args.extra, os.path.getsize(args.soundfont),
                   tool_version(['fluidsynth', '--version']),
                   tool_version(['sox', '--version']))).encode())
    return h.hexdigest()


def make_source(spec, sf2, quick, tmp):
    """Audio and notes of one set (render or synth); for renders also the soundfont check."""
    if spec[0] == 'render':
        _, name, program, lo, hi = spec
        notes, end_ms = instrument_notes(name, lo, hi, quick)
        pairs = sorted({(n['pitch'], n['velocity']) for n in notes})
        calib = calibrate(name, program, pairs, sf2, tmp)
        for n in notes:
            c = calib[(n['pitch'], n['velocity'])]
            n['f0_nominal'] = n['f0']
            n['tuning_cents'] = c['cents']
            n['f0'] = n['f0_nominal'] * 2 ** (c['cents'] / 1200)
        midi_path = os.path.join(tmp, name + '.mid')
        write_midi(midi_path, program, notes, end_ms)
        y = render(midi_path, sf2)
        checks = check_render(y, notes)
        summary = summarize_check(calib, checks)
        check = dict(program=program, range=[lo, hi], summary=summary,
                     calibration=list(calib.values()), notes=checks)
        # level: peak normalised to a seeded value between -12 and -3 dBFS
        y *= 10 ** (seeded(name, 'level').uniform(-12, -3) / 20) / np.max(np.abs(y))
        sec_notes = [dict(on=n['on'] / 1000, off=n['off'] / 1000, f0=n['f0'],
                          f0_nominal=n['f0_nominal'], tuning_cents=n['tuning_cents'],
                          pitch=n['pitch'], velocity=n['velocity'], part=n['part'])
                     for n in notes]
        msg = ('rendered %-14s %5.1f s, %2d notes; soundfont tuning median %+.1f cents '
               '(%+.1f..%+.1f); in-context check |dev| median %.1f, max %.1f cents'
               % (name, len(y) / SR, len(notes), summary['tuning_median_cents'],
                  summary['tuning_min_cents'], summary['tuning_max_cents'],
                  summary['in_context_abs_dev_median'], summary['in_context_abs_dev_max']))
        return dict(set=name, kind='render', instrument=name, program=program, audio=y,
                    notes=sec_notes, check=check, midi=midi_path, msg=msg)
    _, name = spec
    y, notes, end = synth_set(name, quick)
    return dict(set=name, kind='synth', audio=y, notes=notes,
                msg='synthesized %-26s %5.1f s, %2d tones' % (name, len(y) / SR, len(notes)))


def process_set(spec, sf2, quick, conditions, out):
    """Everything for one set: audio, each condition's WAV and truth. Returns the manifest
    entries, the soundfont check (renders) and the clean audio (renders, for throughput.wav)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = make_source(spec, sf2, quick, tmp)
        if src['kind'] == 'render':
            shutil.copy(src['midi'], os.path.join(out, 'renders', src['set'] + '.mid'))
        y0 = src['audio']
        clean_tails = tail_intervals(y0, src['notes'])
        entries = []
        for cond in conditions:
            if src['set'] == 'synth-unvoiced' and cond != 'clean':
                continue        # noise is already what this set is made of
            info = dict(set=src['set'], kind=src['kind'], condition=cond)
            tails = clean_tails
            if cond == 'clean':
                y = y0
            elif cond.startswith('snr'):
                y, kind, measured = add_noise(y0, src['notes'], float(cond[3:]), src['set'])
                info.update(noise=kind, snr_db=round(measured, 3))
            elif cond == 'hum':
                y, mains = add_hum(y0, src['notes'], src['set'])
                info.update(hum_hz=mains, hum_db=HUM_DB)
            elif cond == 'hum-noise':
                y, mains = add_hum_and_noise(y0, src['notes'], src['set'])
                info.update(hum_hz=mains, hum_db=HUM_DB, noise='white', noise_db=HUM_NOISE_DB)
            else:
                y = add_reverb(y0, tmp)
                tails = tail_intervals(y, src['notes'])
                info.update(reverb=' '.join(REVERB_ARGS))
            y, gain = limit_peak(y)
            if gain != 1.0:
                info['gain'] = gain
            duration = len(y) / SR
            times, f0, scored, f0_nom = truth_frames(duration, src['notes'], tails)
            rel = os.path.join(cond, src['set'])
            sf.write(os.path.join(out, rel + '.wav'), y.astype(np.float32), SR, subtype='FLOAT')
            write_truth(os.path.join(out, rel + '.f0.tsv'), times, f0, scored, f0_nom)
            info.update(wav=rel + '.wav', truth=rel + '.f0.tsv', duration=duration,
                        frames=len(times), voiced=int(np.sum((f0 > 0) & scored)),
                        unvoiced=int(np.sum((f0 == 0) & scored)), ignored=int(np.sum(~scored)),
                        tail_s_median=float(np.median([t[2] for t in tails])) if tails else None)
            if src['kind'] == 'render':
                info.update(instrument=src['instrument'], program=src['program'])
            info['notes'] = [{k: (round(v, 6) if isinstance(v, float) else v)
                              for k, v in n.items() if k != 'fn'} for n in src['notes']]
            entries.append(info)
    return dict(set=src['set'], entries=entries, check=src.get('check'), msg=src['msg'],
                clean=y0 if src['kind'] == 'render' else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--quick', action='store_true', help='small subset for smoke tests')
    ap.add_argument('--extra', action='store_true',
                    help='the other instruments (EXTRA_INSTRUMENTS) in %s' % ', '.join(EXTRA_CONDITIONS))
    ap.add_argument('--out', help='output folder (default work/data, work/data-quick or work/data-extra)')
    ap.add_argument('--soundfont', default=DEFAULT_SF2)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--force', action='store_true', help='regenerate even if up to date')
    args = ap.parse_args()
    if args.quick and args.extra:
        raise SystemExit('--quick and --extra do not go together')
    out = args.out or os.path.join(HERE, 'work', 'data-quick' if args.quick else
                                   'data-extra' if args.extra else 'data')
    fp = fingerprint(args)
    manifest_path = os.path.join(out, 'manifest.json')
    if not args.force and os.path.exists(manifest_path):
        with open(manifest_path) as fh:
            old = json.load(fh)
        if old.get('fingerprint') == fp and all(
                os.path.exists(os.path.join(out, f['wav'])) for f in old['files']):
            print('dataset up to date: %s (%d files)' % (out, len(old['files'])))
            return
    if os.path.isdir(out):
        shutil.rmtree(out)
    for c in CONDITIONS + ['renders']:
        os.makedirs(os.path.join(out, c), exist_ok=True)

    if args.extra:
        instruments, conditions = EXTRA_INSTRUMENTS, EXTRA_CONDITIONS
    else:
        instruments = [i for i in INSTRUMENTS if not args.quick or i[0] in QUICK_INSTRUMENTS]
        conditions = ['clean', 'snr10'] if args.quick else CONDITIONS
    specs = [('render',) + i for i in instruments] + [('synth', s) for s in SYNTH_SETS]
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futures = [ex.submit(process_set, spec, args.soundfont, args.quick, conditions, out)
                   for spec in specs]
        results = []
        for fut in futures:
            r = fut.result()
            print(r['msg'], flush=True)
            results.append(r)
    files = [e for r in results for e in r['entries']]
    render_check = {r['set']: r['check'] for r in results if r['check']}
    # throughput file: the clean renders back to back
    long = np.concatenate([r['clean'] for r in results if r['clean'] is not None])
    long = long[:int((20 if args.quick else 30) * SR)]
    sf.write(os.path.join(out, 'throughput.wav'), long.astype(np.float32), SR, subtype='FLOAT')

    manifest = dict(fingerprint=fp, quick=args.quick, extra=args.extra, sample_rate=SR, hop_s=HOP_S,
                    onset_guard_s=ONSET_GUARD_S, offset_guard_s=OFFSET_GUARD_S,
                    decay_db=DECAY_DB, soundfont=args.soundfont,
                    fluidsynth=tool_version(['fluidsynth', '--version']),
                    sox=tool_version(['sox', '--version']),
                    throughput=dict(wav='throughput.wav', duration=len(long) / SR),
                    render_check=render_check, files=files)
    with open(manifest_path, 'w') as fh:
        json.dump(manifest, fh, indent=1)
    total = sum(f['duration'] for f in files)
    print('wrote %d files, %.0f s of audio, to %s' % (len(files), total, out))


if __name__ == '__main__':
    main()
