#!/usr/bin/env bash
# One command for the fixture expectations: music21 in a venv under work/ (git-ignored), then
# make_expectations.py over every fixture (about 5 s). Extra options go to the script
# (--check: fail if an expectation would change, writing nothing).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/work/venv"
MUSIC21_VERSION="${MUSIC21_VERSION:-10.5.1}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -c "import music21, sys; sys.exit(music21.__version__ != '$MUSIC21_VERSION')" 2>/dev/null \
  || "$VENV/bin/pip" install -q "music21==$MUSIC21_VERSION"
"$VENV/bin/python" "$HERE/make_expectations.py" "$@"
"$VENV/bin/python" "$HERE/xmlcheck.py"
