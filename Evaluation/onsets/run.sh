#!/usr/bin/env bash
# One command for the onset evaluation: render the melodies with fluidsynth, build the CLI, run
# Etude's two methods and aubio's aubioonset, score with mir_eval. Run from anywhere:
#   bash Evaluation/onsets/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

if ! command -v fluidsynth >/dev/null || ! command -v aubioonset >/dev/null \
  || [ ! -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ]; then
  apt-get install -y fluidsynth fluid-soundfont-gm aubio-tools
fi
python3 -c 'import mir_eval, mido' 2>/dev/null || pip install -q mir_eval mido
ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"
python3 "$HERE/melodies.py" "$HERE/work/midi"
rm -rf "$HERE/work/audio"   # render afresh: the MIDI files may have changed
python3 "$HERE/evaluate.py" --etude "$ETUDE" "$HERE/work"
