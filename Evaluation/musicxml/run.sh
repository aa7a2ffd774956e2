#!/usr/bin/env bash
# One command for the MusicXML evaluation: set up music21 in a venv, collect the real-world
# scores, build the etude CLI, compare its notes with music21's reading and time both.
#
#   bash Evaluation/musicxml/run.sh                    # builds etude (release) and compares
#   bash Evaluation/musicxml/run.sh --etude PATH       # uses an etude binary already built
#   bash Evaluation/musicxml/run.sh --no-etude         # music21's side only (no Swift build)
#   bash Evaluation/musicxml/run.sh ... --no-timing    # other options go to compare.py
#
# Writes Evaluation/musicxml/results.md. About 15 min on 2 cores for music21's first pass over
# the corpus (its readings are cached in work/reference/ for later runs).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VENV="$HERE/work/venv"
MUSIC21_VERSION="${MUSIC21_VERSION:-10.5.1}"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c "import music21, sys; sys.exit(music21.__version__ != '$MUSIC21_VERSION')" 2>/dev/null \
  || "$VENV/bin/pip" install -q "music21==$MUSIC21_VERSION"

ETUDE=""
BUILD=1
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --etude) ETUDE="$2"; BUILD=0; shift 2 ;;
    --no-etude) BUILD=0; shift ;;
    *) ARGS+=("$1"); shift ;;
  esac
done

bash "$HERE/collect.sh"
if [ "$BUILD" = 1 ]; then
  ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")" \
    || echo "run: the etude build failed; comparing music21's side only" >&2
fi
"$VENV/bin/python" "$HERE/compare.py" ${ETUDE:+--etude "$ETUDE"} "${ARGS[@]+"${ARGS[@]}"}" "$HERE/work/corpus"
