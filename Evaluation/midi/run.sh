#!/usr/bin/env bash
# One command for the whole MIDI evaluation: collect the corpus, build the CLI, compare with mido
# and time both. Run from anywhere: bash Evaluation/midi/run.sh [extra compare.py options]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

python3 -c 'import mido' 2>/dev/null || pip install -q mido
bash "$HERE/collect.sh"
ETUDE="$(bash "$ROOT/Evaluation/build-etude.sh")"
python3 "$HERE/compare.py" --etude "$ETUDE" "$@" "$HERE/work/corpus"
