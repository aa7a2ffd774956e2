#!/usr/bin/env bash
# Runs the audio-path benchmarks with allocation-stack recording and fails if any of them
# allocates in its measured region. Counts are totals over every measured iteration, not scaled.
# Usage: Benchmarks/check-allocations.sh   (needs libkissfft-dev for the KissFFT benchmarks)
set -euo pipefail
cd "$(dirname "$0")"
report=$(swift package benchmark run --allocation-stacks --filter "FFT.*|Resampler.*|Pitch.*|Onset.*|Chroma.*|Chord.*|Performance live.*|Synthesis.*|Shifter.*|Effects.*|Harmonizer.*" 2>/dev/null | grep "^Allocations:")
echo "$report"
total=$(echo "$report" | wc -l)
clean=$(echo "$report" | grep -c ", 0 allocations (" || true)
echo "$clean of $total audio-path benchmarks allocate nothing"
[ "$total" -gt 0 ] && [ "$clean" -eq "$total" ]
