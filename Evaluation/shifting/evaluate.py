"""Renders the test signals, shifts them with every tool, and measures pitch error, latency and CPU.

Pitch is measured with one tracker for every tool: Etude's offline probabilistic YIN
(`etude pitch --method pyin`), on the input and on each output. See README.md for the method.
"""
import argparse, os, resource, struct, subprocess, time, wave
import numpy as np

SHIFTS = [-12, -7, -5, -3, -1, 1, 3, 5, 7, 12]
RATE = 44100
SF2 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
# name: (GM program, MIDI notes, each held 1.2 s)
FLUID = {
    "choir-aahs": (52, [57, 60, 64]),
    "voice-oohs": (53, [55, 59, 62]),
    "flute": (73, [72, 76, 79]),
    "violin": (40, [62, 66, 69]),
    "trumpet": (56, [58, 62, 65]),
}


def midi_file(path, program, notes):
    """A format-0 MIDI file: each note held 1.2 s with a 0.15 s gap, at 120 bpm (480 ticks/beat)."""
    def vlq(n):
        out = [n & 0x7F]
        n >>= 7
        while n:
            out.insert(0, 0x80 | (n & 0x7F))
            n >>= 7
        return bytes(out)
    held, gap = 1152, 144
    track = b"\x00\xff\x51\x03\x07\xa1\x20" + b"\x00" + bytes([0xC0, program])
    first = True
    for note in notes:
        track += vlq(0 if first else gap) + bytes([0x90, note, 100])
        track += vlq(held) + bytes([0x80, note, 0])
        first = False
    track += vlq(480) + b"\xff\x2f\x00"
    with open(path, "wb") as f:
        f.write(b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480))
        f.write(b"MTrk" + struct.pack(">I", len(track)) + track)


def write_wav(path, samples):
    data = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2").tobytes()
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE); w.writeframes(data)


def read_wav(path):
    """Mono float samples of a 16-bit WAV (other formats are converted with sox first)."""
    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError
        x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768
        return x.reshape(-1, w.getnchannels()).mean(axis=1)


def sung_vowel(seconds=3.6):
    """An /a/-like vowel at 196 Hz with 5.5 Hz, +-40 cent vibrato: harmonics through three formants."""
    t = np.arange(int(seconds * RATE)) / RATE
    f0 = 196 * 2 ** (0.4 / 12 * np.sin(2 * np.pi * 5.5 * t) * np.minimum(1, t / 0.5))
    phase = 2 * np.pi * np.cumsum(f0) / RATE
    x = np.zeros_like(t)
    for k in range(1, 40):
        f = k * 196.0
        if f > 8000:
            break
        gain = 1.0
        for fc, bw in [(700, 80), (1150, 90), (2700, 120)]:
            gain *= fc * fc / np.sqrt((fc * fc - f * f) ** 2 + (f * bw) ** 2)
        x += gain * np.sin(k * phase)
    env = np.minimum(1, t / 0.05) * np.minimum(1, (t[-1] - t) / 0.1)
    return 0.3 * x * env / np.max(np.abs(x))


def render_signals(work):
    signals = {}
    for name, (program, notes) in FLUID.items():
        mid, raw, out = (os.path.join(work, f"{name}.{e}") for e in ("mid", "raw.wav", "wav"))
        if not os.path.exists(out):
            midi_file(mid, program, notes)
            subprocess.run(["fluidsynth", "-ni", "-R", "0", "-C", "0", "-g", "0.8", "-r", str(RATE), "-F", raw, SF2, mid],
                           check=True, capture_output=True)
            subprocess.run(["sox", raw, "-b", "16", "-c", "1", out, "norm", "-3", "reverse", "silence", "1", "0.05", "0.3%", "reverse"], check=True, capture_output=True)
        signals[name] = out
    out = os.path.join(work, "sung-vowel.wav")
    if not os.path.exists(out):
        write_wav(out, sung_vowel())
    signals["sung-vowel"] = out
    return signals


def cpu_of(cmd):
    """Runs `cmd`; returns the child's user + system CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tools(etude):
    def etude_cmd(method):
        return lambda i, o, n: [etude, "shift", i, o, "--semitones", str(n), "--shifter", method]
    return {
        "Etude PSOLA": etude_cmd("psola"),
        "Etude delay line": etude_cmd("delay"),
        "Rubber Band R2": lambda i, o, n: ["rubberband", "-q", "-p", str(n), i, o],
        "Rubber Band R3": lambda i, o, n: ["rubberband", "-q", "-3", "-p", str(n), i, o],
        "SoundTouch": lambda i, o, n: ["soundstretch", i, o, f"-pitch={n}"],
    }


def normalized(path, work):
    """`path` as 16-bit mono (converted with sox when needed)."""
    try:
        read_wav(path)
        return path
    except Exception:
        fixed = path[:-4] + ".s16.wav"
        subprocess.run(["sox", path, "-b", "16", "-c", "1", fixed], check=True, capture_output=True)
        return fixed


def pitch_track(etude, path):
    out = subprocess.run([etude, "pitch", path, "--method", "pyin", "--min-hz", "60", "--max-hz", "1600"],
                         check=True, capture_output=True, text=True).stdout
    rows = [tuple(map(float, line.split("\t"))) for line in out.strip().splitlines()]
    return np.array([r[1] for r in rows])  # one per 10 ms


def envelope(x, hop=441):
    n = len(x) // hop
    return np.sqrt(np.mean(x[: n * hop].reshape(n, hop) ** 2, axis=1) + 1e-12)


def lag_frames(reference, shifted, limit=30):
    """The lag (in 10 ms frames) maximizing the correlation of the log envelopes."""
    a, b = np.log(envelope(reference)), np.log(envelope(shifted))
    n = min(len(a), len(b))
    a, b = a[:n] - a[:n].mean(), b[:n] - b[:n].mean()
    best, score = 0, -np.inf
    for lag in range(-limit, limit + 1):
        s = np.dot(a[max(0, -lag): n - max(0, lag)], b[max(0, lag): n - max(0, -lag)])
        if s > score:
            best, score = lag, s
    return best


def lag_samples(reference, shifted, frames):
    """Refines a frame lag to samples by cross-correlating the sample envelopes (5 ms smoothing)."""
    kernel = np.ones(220) / 220
    a = np.convolve(np.abs(reference), kernel, "same")
    b = np.convolve(np.abs(shifted), kernel, "same")
    best, score = 0, -np.inf
    n = min(len(a), len(b)) - 2000
    for lag in range(frames * 441 - 441, frames * 441 + 442, 4):
        lo = max(0, -lag) + 1000
        s = np.dot(a[lo: lo + n - abs(lag)], b[lo + lag: lo + lag + n - abs(lag)])
        if s > score:
            best, score = lag, s
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--etude", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--results", required=True)
    args = parser.parse_args()
    work = args.work
    signals = render_signals(work)
    all_tools = tools(args.etude)
    errors = {t: {n: [] for n in SHIFTS} for t in all_tools}
    lags = {t: [] for t in all_tools}
    cpu = {t: [0.0, 0.0] for t in all_tools}
    detail = []
    for name, path in signals.items():
        x = read_wav(path)
        seconds = len(x) / RATE
        f_in = pitch_track(args.etude, path)
        for tool, command in all_tools.items():
            for n in SHIFTS:
                out = os.path.join(work, f"{name}.{tool.replace(' ', '_')}.{n:+d}.wav")
                cpu[tool][0] += cpu_of(command(path, out, n))
                cpu[tool][1] += seconds
                out = normalized(out, work)
                y = read_wav(out)
                f_out = pitch_track(args.etude, out)
                lag = lag_frames(x, y)
                lags[tool].append(lag_samples(x, y, lag))
                m = min(len(f_in), len(f_out)) - abs(lag)
                a = f_in[max(0, -lag): max(0, -lag) + m]
                b = f_out[max(0, lag): max(0, lag) + m]
                voiced = (a > 0) & (b > 0)
                cents = 1200 * np.log2(b[voiced] / (a[voiced] * 2 ** (n / 12)))
                median = float(np.median(cents)) if len(cents) else float("nan")
                errors[tool][n].append(abs(median))
                detail.append((name, tool, n, median, int(voiced.sum())))
            print(f"{name}: {tool} done", flush=True)
    write_results(args.results, signals, errors, lags, cpu, detail)


def write_results(path, signals, errors, lags, cpu, detail):
    lines = ["# Pitch-shifting evaluation: results", "",
             "Written by `bash Evaluation/shifting/run.sh`; the method is in README.md. Signals: "
             + ", ".join(signals) + f"; shifts {SHIFTS} semitones.", "",
             "## Median output pitch error (cents, |median over voiced frames|, median over the 6 signals)", ""]
    head = "| tool | " + " | ".join(f"{n:+d}" for n in SHIFTS) + " | all | worst signal×shift |"
    lines += [head, "|" + "---|" * (len(SHIFTS) + 3)]
    for tool, per in errors.items():
        cells = [f"{np.median(per[n]):.2f}" for n in SHIFTS]
        every = [e for n in SHIFTS for e in per[n]]
        lines.append(f"| {tool} | " + " | ".join(cells) + f" | **{np.median(every):.2f}** | {np.max(every):.1f} |")
    lines += ["", "## Offset in the written file and CPU", "",
              "| tool | median offset of the output (samples at 44.1 kHz) | CPU s per audio s (whole process) |",
              "|---|---|---|"]
    for tool in errors:
        lines.append(f"| {tool} | {int(np.median(lags[tool]))} | {cpu[tool][0] / cpu[tool][1]:.4f} |")
    lines += ["", "## Every signal and shift (signed median error in cents, voiced frames compared)", "",
              "| signal | tool | shift | error | frames |", "|---|---|---|---|---|"]
    for name, tool, n, median, count in detail:
        lines.append(f"| {name} | {tool} | {n:+d} | {median:+.2f} | {count} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[:20]))


if __name__ == "__main__":
    main()
