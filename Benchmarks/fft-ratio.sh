#!/usr/bin/env bash
# Runs the FFT benchmarks once and prints the median time per real forward transform of the
# pure-Swift FFT and of kiss_fft (through Etude's API and called directly), with their ratios.
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
print("| size | swift (ns) | kissfft via FFTBackend (ns) | kissfft native (ns) | swift / kissfft native |")
print("|---:|---:|---:|---:|---:|")
for s in sizes:
    sw = times.get(f"FFT real forward swift {s}")
    kb = times.get(f"FFT real forward kissfft {s}")
    kn = times.get(f"FFT real forward kissfft-native {s}")
    ratio = f"{sw / kn:.2f}" if sw and kn else "n/a"
    f = lambda v: f"{v:.0f}" if v else "n/a"
    print(f"| {s} | {f(sw)} | {f(kb)} | {f(kn)} | {ratio} |")
'
