#!/usr/bin/env bash
# One command for the SoundFont evaluation: generate MIDI files, render each with FluidSynth
# (reverb and chorus off) and with Etude, compare per note onsets and pitches, print the table.
#   bash Evaluation/synthesis/run.sh [--etude PATH] [--soundfont FILE.sf2]
# --etude PATH: an `etude` binary already built; without it a release build is made in .build-eval.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/work"
FONT=/usr/share/sounds/sf2/FluidR3_GM.sf2
ETUDE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --etude) ETUDE="$2"; shift 2 ;;
    --soundfont) FONT="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v fluidsynth >/dev/null || { echo "needs fluidsynth (apt-get install -y fluidsynth fluid-soundfont-gm)" >&2; exit 1; }
[ -f "$FONT" ] || { echo "needs $FONT (apt-get install -y fluid-soundfont-gm)" >&2; exit 1; }
mkdir -p "$WORK"
if [ ! -x "$WORK/venv/bin/python" ]; then
  python3 -m venv "$WORK/venv"
  "$WORK/venv/bin/pip" install -q mido numpy soundfile
fi
PY="$WORK/venv/bin/python"
if [ -z "$ETUDE" ]; then
  ROOT="$(cd "$HERE/../.." && pwd)"
  ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"
fi
RENDER=("$ETUDE" render)
"$PY" "$HERE/gen_midi.py" "$WORK/files"
for mid in "$WORK"/files/*.mid; do
  name="$(basename "$mid" .mid)"
  fluidsynth -ni -R 0 -C 0 -g 0.2 -r 44100 -F "$WORK/files/$name.fluid.wav" "$FONT" "$mid" >/dev/null 2>&1
  "${RENDER[@]}" "$mid" "$WORK/files/$name.etude.wav" --soundfont "$FONT"
done
"$PY" "$HERE/compare.py" "$WORK/files"
