"""Shared definitions of the grading evaluation: instruments, the trumpet's partial tables, the
rating names of schema etude-grades/1 and how they map to the scored categories."""

import hashlib
import math
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, 'work')
SR = 44100
SF2 = '/usr/share/sounds/sf2/FluidR3_GM.sf2'
SET_VERSION = 'grading-set-1'

# name: GM program (0-based), transposition (sounding = written + semitones), written melody
# range, playable sounding range used for calibration (FluidR3 renders every key in it; so does
# MuseScore_General, the holdout set's soundfont).
INSTRUMENTS = {
    'trumpet': dict(program=56, transpose=-2, melody=(60, 79), sounding=(54, 84)),
    'flute': dict(program=73, transpose=0, melody=(62, 86), sounding=(60, 96)),
    # FluidR3_GM's violin has no sample for MIDI 94 (silent): nothing above 93 is played.
    'violin': dict(program=40, transpose=0, melody=(55, 84), sounding=(55, 93)),
}
VELOCITIES = (78, 88, 98, 108)      # the only velocities used, so each (key, velocity) is calibrated

# Trumpet (written pitch). Valve combinations and the written pitch of their 2nd partial; the
# partials 2..8 lie 0, 7, 12, 16, 19, 22, 24 semitones above it (issue 7's table: open C4 G4 C5
# E5 G5 Bb5 C6; 2: B3 ...; 1+2+3: F#3 C#4 F#4 Bb4 C#5 E5 F#5).
VALVE_P2 = {'0': 60, '2': 59, '1': 58, '12': 57, '23': 56, '13': 55, '123': 54}
PARTIAL_OFFSET = {2: 0, 3: 7, 4: 12, 5: 16, 6: 19, 7: 22, 8: 24}
# Standard fingering chart, written F#3 (54) .. C6 (84): MIDI -> valve combination.
FINGERING = {
    54: '123', 55: '13', 56: '23', 57: '12', 58: '1', 59: '2', 60: '0',
    61: '123', 62: '13', 63: '23', 64: '12', 65: '1', 66: '2', 67: '0',
    68: '23', 69: '12', 70: '1', 71: '2', 72: '0',
    73: '12', 74: '1', 75: '2', 76: '0',
    77: '1', 78: '2', 79: '0',
    80: '23', 81: '12', 82: '1', 83: '2', 84: '0',
}


def natural_cents(n):
    """Cents of natural partial n from the equal-tempered note of its table entry (p2 in tune)."""
    return 1200 * math.log2(n / 2) - 100 * PARTIAL_OFFSET[n]


def trumpet_partial(written):
    """(valve combination, partial number) of a written trumpet note under the standard chart."""
    combo = FINGERING[written]
    offset = written - VALVE_P2[combo]
    for n, o in PARTIAL_OFFSET.items():
        if o == offset:
            return combo, n
    raise ValueError(written)


def combo_partials(combo):
    """{partial number: written MIDI} of a valve combination."""
    return {n: VALVE_P2[combo] + o for n, o in PARTIAL_OFFSET.items()}


def sf2_presets(path):
    """{(bank, program): preset name} from a SoundFont 2 file's preset headers (the pdta list's
    phdr chunk: 38-byte records, the last one the terminal EOP record)."""
    with open(path, 'rb') as fh:
        riff, size, form = struct.unpack('<4sI4s', fh.read(12))
        if riff != b'RIFF' or form != b'sfbk':
            raise ValueError('%s is not a SoundFont 2 file' % path)
        end = 8 + size
        while fh.tell() < end:
            cid, csz = struct.unpack('<4sI', fh.read(8))
            if cid == b'LIST' and fh.read(4) == b'pdta':
                stop = fh.tell() + csz - 4
                while fh.tell() < stop:
                    sid, ssz = struct.unpack('<4sI', fh.read(8))
                    data = fh.read(ssz + (ssz & 1))
                    if sid == b'phdr':
                        out = {}
                        for i in range(ssz // 38 - 1):
                            name, program, bank = struct.unpack('<20sHH', data[38 * i:38 * i + 24])
                            out[(bank, program)] = name.split(b'\0')[0].decode('latin-1').strip()
                        return out
                break
            fh.seek(csz + (csz & 1) - (4 if cid == b'LIST' else 0), 1)
    raise ValueError('%s: no preset headers' % path)


def seeded(*parts):
    h = hashlib.sha256(('|'.join(str(p) for p in (SET_VERSION,) + parts)).encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], 'little'))


def midi_hz(m):
    return 440.0 * 2 ** ((m - 69) / 12)


def cents(f, ref):
    return 1200 * np.log2(np.asarray(f, dtype=float) / ref)


# ---- ratings of schema etude-grades/1 and the categories they count for ----------------------
RATINGS = ['correct', 'aBitEarly', 'veryEarly', 'aBitLate', 'veryLate', 'aBitShort', 'veryShort',
           'tooShort', 'aBitLong', 'veryLong', 'tooLong', 'aBitFlat', 'veryFlat', 'aBitSharp',
           'verySharp', 'wrongNote', 'octave', 'upperPartial', 'lowerPartial', 'wavering', 'missed',
           'soundDuringRest']
TIMING_FLAGS = {'early': {'aBitEarly', 'veryEarly'}, 'late': {'aBitLate', 'veryLate'}}
DURATION_FLAGS = {'short': {'aBitShort', 'veryShort', 'tooShort'},
                  'long': {'aBitLong', 'veryLong', 'tooLong'}}
PITCH_FLAGS = {'flat': {'aBitFlat', 'veryFlat'}, 'sharp': {'aBitSharp', 'verySharp'},
               'wrongNote': {'wrongNote'}, 'octave': {'octave'},
               'upperPartial': {'upperPartial'}, 'lowerPartial': {'lowerPartial'}}
NOT_A_FLAG = {None, 'correct'}
