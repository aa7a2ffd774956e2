#!/usr/bin/env bash
# One command for the performance-grading evaluation (issue 7): install what is missing, build the
# CLI, generate the set (MusicXML scores, performances with injected errors rendered with
# fluidsynth + FluidR3_GM, a truth file per take), run `etude grade` and the 2018 reference grader
# on every take, score both, write results.md. Run from anywhere (as root for the apt step):
#   bash Evaluation/grading/run.sh [--quick | --holdout] [--etude PATH] [--graders LIST] [--jobs N]
#                                  [--reuse] [--soundfont SF2] [--data-dir DIR] [--results FILE]
#                                  [--takes-per-instrument N] [--no-long]
#   --quick          12 small takes (+ the 3-minute CPU take): work/results-quick.md, not results.md
#   --holdout        the holdout set: MuseScore_General (musescore-general-soundfont-lossless) instead
#                    of FluidR3_GM, 20 takes per instrument, no 3-minute take, in work/data-holdout,
#                    results in results-holdout.md (the options below override its parts)
#   --etude PATH     use this etude binary instead of building one ("" = Etude not available)
#   --graders LIST   comma list of etude, ref2018, refdp (default all three)
#   --reuse          re-score the saved grader outputs in work/out*/ without running them again
#   --soundfont SF2  render the set with this soundfont (give it its own --data-dir)
#   --data-dir DIR   the set's folder (relative paths: from Evaluation/grading); default work/data.
#                    Another folder's results go to work/results-NAME.md unless --results is given
#   --results FILE   the results markdown (relative paths: from Evaluation/grading)
#   --takes-per-instrument N   N takes per instrument (the full plan's mix in proportion)
#   --no-long        no 3-minute CPU take
# Other options go to evaluate.py (see its --help).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$HERE/work"
export GRADING_EVAL_START="$(date +%s)"
export GRADING_EVAL_COMMAND="bash Evaluation/grading/run.sh${*:+ $*}"
export PYTHONDONTWRITEBYTECODE=1   # no __pycache__ in the repository

ETUDE="__build__"
QUICK=()
GRADERS="etude,ref2018,refdp"
PASS=()
HOLDOUT=0
SOUNDFONT=""
DATA_DIR=""
RESULTS=""
PER_INSTRUMENT=""
NO_LONG=0
from_here() { case "$1" in /*) echo "$1" ;; *) echo "$HERE/$1" ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --etude) ETUDE="$2"; shift 2 ;;
    --etude=*) ETUDE="${1#*=}"; shift ;;
    --quick) QUICK=(--quick); PASS+=(--quick); shift ;;
    --holdout) HOLDOUT=1; shift ;;
    --graders) GRADERS="$2"; PASS+=(--graders "$2"); shift 2 ;;
    --graders=*) GRADERS="${1#*=}"; PASS+=("$1"); shift ;;
    --soundfont) SOUNDFONT="$2"; shift 2 ;;
    --soundfont=*) SOUNDFONT="${1#*=}"; shift ;;
    --data-dir) DATA_DIR="$2"; shift 2 ;;
    --data-dir=*) DATA_DIR="${1#*=}"; shift ;;
    --results) RESULTS="$2"; shift 2 ;;
    --results=*) RESULTS="${1#*=}"; shift ;;
    --takes-per-instrument) PER_INSTRUMENT="$2"; shift 2 ;;
    --takes-per-instrument=*) PER_INSTRUMENT="${1#*=}"; shift ;;
    --no-long) NO_LONG=1; shift ;;
    *) PASS+=("$1"); shift ;;
  esac
done
if [ "$HOLDOUT" = 1 ]; then
  [ ${#QUICK[@]} -eq 0 ] || { echo "--holdout and --quick do not go together" >&2; exit 2; }
  : "${SOUNDFONT:=/usr/share/sounds/sf2/MuseScore_General_Full.sf2}"
  : "${DATA_DIR:=work/data-holdout}"
  : "${RESULTS:=results-holdout.md}"
  : "${PER_INSTRUMENT:=20}"
  NO_LONG=1
fi
GEN=("${QUICK[@]}")
[ -z "$SOUNDFONT" ] || GEN+=(--soundfont "$SOUNDFONT")
[ -z "$PER_INSTRUMENT" ] || GEN+=(--takes-per-instrument "$PER_INSTRUMENT")
[ "$NO_LONG" = 0 ] || GEN+=(--no-long)
if [ -n "$DATA_DIR" ]; then
  GEN+=(--data "$(from_here "$DATA_DIR")")
  PASS+=(--data "$(from_here "$DATA_DIR")")
elif [ -n "$SOUNDFONT" ]; then
  echo "--soundfont needs its own --data-dir (work/data is the FluidR3_GM set)" >&2
  exit 2
fi
[ -z "$RESULTS" ] || PASS+=(--results "$(from_here "$RESULTS")")

# --- system packages (Debian): fluidsynth + FluidR3_GM, sox, aubio's Python module, venv
need=()
command -v fluidsynth >/dev/null || need+=(fluidsynth)
[ -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ] || need+=(fluid-soundfont-gm)
if [ -n "$SOUNDFONT" ] && [ ! -f "$SOUNDFONT" ]; then
  case "$(basename "$SOUNDFONT")" in
    MuseScore_General_Full.sf2) need+=(musescore-general-soundfont-lossless) ;;
    TimGM6mb.sf2) need+=(timgm6mb-soundfont) ;;
    *) echo "no soundfont at $SOUNDFONT" >&2; exit 2 ;;
  esac
fi
command -v sox >/dev/null || need+=(sox)
/usr/bin/python3 -c 'import aubio' 2>/dev/null || need+=(python3-aubio)
/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- Python: a venv on Debian's python3 that sees python3-aubio (built against Debian's numpy,
# so numpy stays at that version), with mido and soundfile from PyPI.
VENV="$WORK/venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
  mkdir -p "$WORK"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
fi
if ! "$PY" -c 'import mido, soundfile, numpy, aubio' 2>/dev/null; then
  NUMPY="$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
  echo "numpy==$NUMPY" >"$WORK/constraints.txt"
  "$PY" -m pip install -q --disable-pip-version-check -c "$WORK/constraints.txt" mido soundfile
fi

# --- the etude binary (skipped when Etude is not asked for). A failed build, or a binary without
# the `grade` command, is reported as "Etude not available", not as a failed run.
if [[ ",$GRADERS," != *",etude,"* ]]; then
  ETUDE=""
elif [ "$ETUDE" = "__build__" ]; then
  if ! ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"; then
    echo "warning: building etude failed; Etude is reported as not available" >&2
    ETUDE=""
  fi
fi

"$PY" "$HERE/gen_set.py" "${GEN[@]}"
"$PY" "$HERE/evaluate.py" --etude "$ETUDE" "${PASS[@]}"
echo "run time: $(( $(date +%s) - GRADING_EVAL_START )) s"
