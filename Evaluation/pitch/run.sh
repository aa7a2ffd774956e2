#!/usr/bin/env bash
# One command for the whole pitch-tracking evaluation: install what is missing, build the CLI,
# generate the set, run Etude, aubio and librosa pyin on it, score them, write results.md.
# Run from anywhere (as root for the apt step):
#   bash Evaluation/pitch/run.sh [--quick | --holdout | --extra] [--etude PATH] [--trackers LIST]
#                                [--etude-methods LIST] [--jobs N] [--reuse] [--no-throughput]
#                                [--soundfont SF2] [--data-dir DIR] [--results FILE]
#   --quick            small subset (3 instruments, clean and 10 dB), writes work/results-quick.md
#   --holdout          the same set rendered with MuseScore_General (musescore-general-soundfont-
#                      lossless) instead of FluidR3_GM, in work/data-holdout, results in
#                      results-holdout.md (the options below override its parts)
#   --extra            31 other General MIDI instruments (clean, 10 dB SNR, reverb) rendered with
#                      FluidR3_GM, in work/data-extra, results in results-extra.md: a check on
#                      timbres the trackers were not developed on
#   --soundfont SF2    render the set with this soundfont (give it its own --data-dir)
#   --data-dir DIR     the set's folder (default work/data); outputs go to work/out-NAME and
#                      work/results-NAME.json for a folder work/data-NAME
#   --results FILE     the markdown report (default results.md for work/data, else
#                      work/results-NAME.md)
#   --etude PATH       use this etude binary instead of building one ("" = skip Etude)
#   --trackers LIST    comma list: etude, etude-METHOD, aubio, aubio-yin, aubio-yinfft, pyin
#   --etude-methods    Etude methods to run (default yin,mpm,pyin,pyin-live)
# Other options go to evaluate.py (see its --help).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$HERE/work"
export PITCH_EVAL_START="$(date +%s)"
export PITCH_EVAL_COMMAND="bash Evaluation/pitch/run.sh${*:+ $*}"

ETUDE="__build__"
QUICK=()
TRACKERS="etude,aubio,pyin"
PASS=()
HOLDOUT=0
EXTRA=0
SOUNDFONT=""
DATA_DIR=""
RESULTS=""
while [ $# -gt 0 ]; do
  case "$1" in
    --holdout) HOLDOUT=1; shift ;;
    --extra) EXTRA=1; shift ;;
    --soundfont) SOUNDFONT="$2"; shift 2 ;;
    --soundfont=*) SOUNDFONT="${1#*=}"; shift ;;
    --data-dir) DATA_DIR="$2"; shift 2 ;;
    --data-dir=*) DATA_DIR="${1#*=}"; shift ;;
    --results) RESULTS="$2"; shift 2 ;;
    --results=*) RESULTS="${1#*=}"; shift ;;
    --etude) ETUDE="$2"; shift 2 ;;
    --etude=*) ETUDE="${1#*=}"; shift ;;
    --quick) QUICK=(--quick); PASS+=(--quick); shift ;;
    --trackers) TRACKERS="$2"; PASS+=(--trackers "$2"); shift 2 ;;
    --trackers=*) TRACKERS="${1#*=}"; PASS+=("$1"); shift ;;
    *) PASS+=("$1"); shift ;;
  esac
done
if [ "$HOLDOUT" = 1 ]; then
  [ ${#QUICK[@]} -eq 0 ] || { echo "--holdout and --quick do not go together" >&2; exit 2; }
  : "${SOUNDFONT:=/usr/share/sounds/sf2/MuseScore_General_Full.sf2}"
  : "${DATA_DIR:=$WORK/data-holdout}"
  : "${RESULTS:=$HERE/results-holdout.md}"
fi
if [ "$EXTRA" = 1 ]; then
  [ ${#QUICK[@]} -eq 0 ] && [ "$HOLDOUT" = 0 ] || { echo "--extra goes with neither --quick nor --holdout" >&2; exit 2; }
  : "${DATA_DIR:=$WORK/data-extra}"
  : "${RESULTS:=$HERE/results-extra.md}"
fi
if [ -n "$SOUNDFONT" ] && [ -z "$DATA_DIR" ]; then
  echo "--soundfont needs its own --data-dir (work/data is the FluidR3_GM set)" >&2
  exit 2
fi
GEN=()
[ "$EXTRA" = 0 ] || GEN+=(--extra)
[ -z "$SOUNDFONT" ] || GEN+=(--soundfont "$SOUNDFONT")
[ -z "$DATA_DIR" ] || { GEN+=(--out "$DATA_DIR"); PASS+=(--data "$DATA_DIR"); }
[ -z "$RESULTS" ] || PASS+=(--results "$RESULTS")

# --- system packages (Debian): fluidsynth + FluidR3_GM, sox, aubio CLI and Python module
need=()
command -v fluidsynth >/dev/null || need+=(fluidsynth)
[ -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ] || need+=(fluid-soundfont-gm)
if [ -n "$SOUNDFONT" ] && [ ! -f "$SOUNDFONT" ]; then
  case "$(basename "$SOUNDFONT")" in
    MuseScore_General_Full.sf2) need+=(musescore-general-soundfont-lossless) ;;
    TimGM6mb.sf2) need+=(timgm6mb-soundfont) ;;
    sf_GMbank.sf2) need+=(csound-soundfont) ;;
    *) echo "no soundfont at $SOUNDFONT" >&2; exit 2 ;;
  esac
fi
command -v sox >/dev/null || need+=(sox)
command -v aubiopitch >/dev/null || need+=(aubio-tools)
/usr/bin/python3 -c 'import aubio' 2>/dev/null || need+=(python3-aubio)
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- Python: a venv on Debian's python3 that sees python3-aubio (built against Debian's numpy,
# so numpy stays at that version), with librosa, mido, soundfile, scipy and mir_eval from PyPI.
VENV="$WORK/venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
  mkdir -p "$WORK"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
if ! "$PY" -c 'import librosa, mido, soundfile, scipy, mir_eval, aubio' 2>/dev/null; then
  NUMPY="$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
  echo "numpy==$NUMPY" >"$WORK/constraints.txt"
  "$PY" -m pip install -q --disable-pip-version-check -c "$WORK/constraints.txt" \
    librosa==0.11.0 mir_eval==0.8.2 mido soundfile scipy
fi

# --- the etude binary (skipped when no Etude tracker is asked for)
if [[ ",$TRACKERS," != *",etude"* ]]; then
  ETUDE=""
elif [ "$ETUDE" = "__build__" ]; then
  if ! ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"; then
    echo "warning: building etude failed; Etude is reported as not available" >&2
    ETUDE=""
  fi
fi

"$PY" "$HERE/gen_dataset.py" "${QUICK[@]}" "${GEN[@]}"
"$PY" "$HERE/evaluate.py" --etude "$ETUDE" "${PASS[@]}"
