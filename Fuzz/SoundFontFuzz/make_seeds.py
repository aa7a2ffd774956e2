#!/usr/bin/env python3
"""Writes a few tiny SoundFont 2 files as the fuzzer's seed corpus (no binaries are checked in).

Usage: make_seeds.py OUTDIR. The layout mirrors Tests/SynthesisTests/SoundFontBuilder.swift: a
looped sine sample, an instrument with a global zone and key ranges, presets in banks 0 and 128.
"""
import math
import os
import struct
import sys


def chunk(cid, body):
    pad = b"\0" if len(body) & 1 else b""
    return cid + struct.pack("<I", len(body)) + body + pad


def name20(s):
    b = s.encode("latin-1")[:19]
    return b + b"\0" * (20 - len(b))


def font(samples, instruments, presets, sm24=False, fname="Seed"):
    smpl, shdr, pos = b"", b"", 0
    for sname, frames, loop, root in samples:
        smpl += b"".join(struct.pack("<h", f) for f in frames + [0] * 46)
        shdr += name20(sname) + struct.pack("<IIIIIBbHH", pos, pos + len(frames), pos + loop[0], pos + loop[1],
                                            44100, root, 0, 0, 1)
        pos += len(frames) + 46
    shdr += name20("EOS") + b"\0" * 26

    def hydra(items, terminal):
        bags, gens, firsts, nb, ng = b"", b"", [], 0, 0
        for zones in items:
            firsts.append(nb)
            for gl, link in zones:
                bags += struct.pack("<HH", ng, 0)
                nb += 1
                for op, amt in gl + ([(terminal, link)] if link is not None else []):
                    gens += struct.pack("<Hh" if op != terminal else "<HH", op, amt)
                    ng += 1
        firsts.append(nb)
        bags += struct.pack("<HH", ng, 0)
        return bags, b"\0" * 10, gens + b"\0" * 4, firsts

    ib, im, ig, ifirst = hydra([z for _, z in instruments], 53)
    inst = b"".join(name20(n) + struct.pack("<H", ifirst[i]) for i, (n, _) in enumerate(instruments))
    inst += name20("EOI") + struct.pack("<H", ifirst[-1])
    pb, pm, pg, pfirst = hydra([z for _, _, _, z in presets], 41)
    phdr = b"".join(name20(n) + struct.pack("<HHH", prog, bank, pfirst[i]) + b"\0" * 12
                    for i, (n, bank, prog, _) in enumerate(presets))
    phdr += name20("EOP") + struct.pack("<HHH", 0, 0, pfirst[-1]) + b"\0" * 12
    info = chunk(b"LIST", b"INFO" + chunk(b"ifil", struct.pack("<HH", 2, 4)) + chunk(b"INAM", fname.encode() + b"\0"))
    sdta_body = chunk(b"smpl", smpl) + (chunk(b"sm24", bytes(len(smpl) // 2)) if sm24 else b"")
    sdta = chunk(b"LIST", b"sdta" + sdta_body)
    pdta = chunk(b"LIST", b"pdta" + chunk(b"phdr", phdr) + chunk(b"pbag", pb) + chunk(b"pmod", pm) + chunk(b"pgen", pg)
                 + chunk(b"inst", inst) + chunk(b"ibag", ib) + chunk(b"imod", im) + chunk(b"igen", ig)
                 + chunk(b"shdr", shdr))
    return chunk(b"RIFF", b"sfbk" + info + sdta + pdta)


def sine(period, periods):
    return [int(round(12000 * math.sin(2 * math.pi * i / period))) for i in range(period * periods)]


def rng(lo, hi):
    return lo | hi << 8


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    samples = [("Sine", sine(50, 8), (200, 400), 69), ("Low", sine(100, 4), (200, 400), 57)]
    instruments = [
        ("Lead", [([(34, -2400), (38, -1200), (54, 1)], None), ([(43, rng(0, 59))], 1), ([(43, rng(60, 127))], 0)]),
        ("Shot", [([(54, 3), (48, 100), (17, -300), (8, 9000), (9, 100)], 0)]),
    ]
    presets = [("Lead", 0, 0, [([], 0)]), ("Shot", 0, 1, [([(51, 1)], None), ([], 1)]),
               ("Kit", 128, 0, [([(43, rng(35, 81))], 1)])]
    seeds = {
        "standard.sf2": font(samples, instruments, presets),
        "sm24.sf2": font(samples, instruments, presets, sm24=True),
        "one-preset.sf2": font(samples[:1], instruments[1:2] and [("Shot", [([(54, 1)], 0)])], [("A", 0, 0, [([], 0)])]),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
