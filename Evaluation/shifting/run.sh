#!/usr/bin/env bash
# Pitch-shifting evaluation: Etude (PSOLA and delay line), Rubber Band (R2 and R3) and SoundTouch
# on voice-like and instrument signals, shifted by -12...+12 semitones in one run.
# Usage: bash Evaluation/shifting/run.sh [--etude PATH]
# Needs: fluidsynth, fluid-soundfont-gm, rubberband-cli, soundstretch, sox, python3 with numpy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
etude=""
while [ $# -gt 0 ]; do
  case "$1" in
    --etude) etude="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$etude" ]; then
  etude="$(bash "$root/Evaluation/build-etude.sh")"
fi
for tool in fluidsynth rubberband soundstretch sox python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y fluidsynth fluid-soundfont-gm rubberband-cli soundstretch sox)" >&2; exit 1; }
done
mkdir -p "$here/work"
python3 "$here/evaluate.py" --etude "$etude" --work "$here/work" --results "$here/results.md"
