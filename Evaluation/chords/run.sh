#!/usr/bin/env bash
# One command for the chord evaluation: install what is missing, build the CLI, render the
# chord progressions with fluidsynth, run Etude and the librosa baseline, score with mir_eval,
# write results.md. Run from anywhere (as root for the apt step):
#   bash Evaluation/chords/run.sh [--seed N] [--quick] [--etude PATH] [--no-librosa]
#   --seed N      the set to generate (default 2026, the reported one; development used 1)
#   --quick       piano and nylon guitar in tune only, results to work/results-quick.md
#   --etude PATH  use this etude binary instead of building one
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$HERE/work"

SEED=2026
QUICK=()
ETUDE=""
PASS=()
OUT="$HERE/results.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) SEED="$2"; shift 2 ;;
    --quick) QUICK=(--quick); OUT="$WORK/results-quick.md"; shift ;;
    --etude) ETUDE="$2"; shift 2 ;;
    *) PASS+=("$1"); shift ;;
  esac
done

# --- system packages (Debian): fluidsynth and the FluidR3 General MIDI soundfont
need=()
command -v fluidsynth >/dev/null || need+=(fluidsynth)
[ -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ] || need+=(fluid-soundfont-gm)
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- Python: a venv under work/ with mir_eval, librosa, mido and soundfile (numpy pinned to
# Debian's, which the system site packages already provide)
VENV="$WORK/venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
  mkdir -p "$WORK"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
if ! "$PY" -c 'import librosa, mido, soundfile, scipy, mir_eval' 2>/dev/null; then
  NUMPY="$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
  CONSTRAINT=()
  if [ -n "$NUMPY" ]; then
    echo "numpy==$NUMPY" >"$WORK/constraints.txt"
    CONSTRAINT=(-c "$WORK/constraints.txt")
  fi
  "$PY" -m pip install -q --disable-pip-version-check "${CONSTRAINT[@]}" \
    librosa==0.11.0 mir_eval==0.8.2 mido soundfile scipy
fi

# --- the etude binary
if [ -z "$ETUDE" ]; then
  ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"
fi

SET="$WORK/set-$SEED${QUICK:+-quick}"
rm -rf "$SET"
"$PY" "$HERE/gen_dataset.py" --out "$SET" --seed "$SEED" "${QUICK[@]}"
"$PY" "$HERE/evaluate.py" --work "$SET" --etude "$ETUDE" --out "$OUT" \
  --command "bash Evaluation/chords/run.sh$([ "$SEED" = 2026 ] || echo " --seed $SEED")${QUICK:+ --quick}" "${PASS[@]}"
