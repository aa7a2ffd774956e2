#!/usr/bin/env bash
# Runs the FFT benchmarks once and prints the median time per real forward transform of the
# pure-Swift FFT and of kiss_fft (through Etude's API and called directly), and the ratio of the
# Swift time to the faster of the two kiss_fft times (below 1: the Swift FFT is faster).
# Needs libkissfft-dev. Usage: Benchmarks/fft-ratio.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")"
swift package benchmark --filter "FFT real forward.*" --no-progress 2>/dev/null | python3 -c '
import re, sys
name, times = None, {}
for line in sys.stdin:
    line = line.strip()
    if line.startswith("FFT real forward"):
        name = line
    elif name and line.startswith("│ Time (wall clock)"):
        cells = [c.strip() for c in line.split("│") if c.strip()]
        times[name] = float(cells[3])  # p50
        name = None
sizes = sorted({int(n.split()[-1]) for n in times})
print("| size | swift (ns) | kissfft via FFTBackend (ns) | kissfft native (ns) | swift / faster kissfft |")
print("|---:|---:|---:|---:|---:|")
for s in sizes:
    sw = times.get(f"FFT real forward swift {s}")
    kb = times.get(f"FFT real forward kissfft {s}")
    kn = times.get(f"FFT real forward kissfft-native {s}")
    kiss = min(v for v in (kb, kn) if v) if (kb or kn) else None
    ratio = f"{sw / kiss:.2f}" if sw and kiss else "n/a"
    f = lambda v: f"{v:.0f}" if v else "n/a"
    print(f"| {s} | {f(sw)} | {f(kb)} | {f(kn)} | {ratio} |")
'
