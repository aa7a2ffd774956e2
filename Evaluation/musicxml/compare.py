#!/usr/bin/env python3
"""Compare `etude score` with music21's reading of real-world MusicXML, and time both.

    work/venv/bin/python Evaluation/musicxml/compare.py [--etude PATH] [corpus-dir ...]
    work/venv/bin/python Evaluation/musicxml/compare.py --fuzz-out DIR [--etude PATH] [FILE ...]

For every .xml/.musicxml/.mxl under the corpus dirs (default Evaluation/musicxml/work/corpus):
  * music21's reading comes from m21ref.reference(path) (the same code as the fixture
    expectations: repeats expanded by music21, ties merged, sounding pitch); when music21 cannot
    expand a file's repeats, the file is compared in notation order (`etude score FILE
    --no-expand-repeats`) and flagged;
  * `etude score FILE` is run and its notes compared as multisets of
    (part, onsetQuarters, durationQuarters, soundingPitch) over pitched notes (grace notes
    included, duration 0); rests are compared the same way but reported apart. A file's share
    is identical / max(music21 notes, etude notes); the overall share sums both over files;
  * the same share against music21's own stripTies() merge is reported too (music21's stripTies
    drops or mis-joins notes in measures with several voices: see README);
  * timing: music21 `converter.parse(path, forceSource=True)` (best of 3 under 1 s, else one
    run) against the wall time of the `etude score` process (best of 3 under 1 s); the process
    start is measured on the smallest fixture and reported, and the ratio is given with and
    without it.
If --etude is missing, not executable or has no `score` command, Etude is reported as not
available and only music21's side is written. Writes Evaluation/musicxml/results.md; per-file
details go to work/results.json; music21's readings are cached in work/reference/ (keyed by the
file's bytes and the reference code) so a rerun with a new etude binary skips music21's reading
but times converter.parse again.

--diff FILE... (with --etude) diagnoses files one by one: how music21 expanded the repeats,
where the first part's measure order differs, which measures hold the notes only one reader has.

--fixtures checks `etude score` against every NAME.expected.json of the fixture folder, all
fields (part, measure, voice, staff, quarters, seconds within 1e-6, pitches, name, flags, tempos,
time signatures, parts) and prints what differs.

--fuzz-out DIR writes byte-flipped and truncated variants of the inputs (default: every fixture
in Tests/ScoreModelTests/Fixtures/musicxml) for fuzzing the importer; with --etude it also runs
`etude score` on each and counts crashes (killed by a signal), time-outs, clean errors and
successes.
"""

import argparse
import collections
import datetime
import hashlib
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import time
import traceback
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(HERE, 'work')
FIXTURES = os.path.join(REPO, 'Tests', 'ScoreModelTests', 'Fixtures', 'musicxml')
EXTENSIONS = ('.xml', '.musicxml', '.mxl')
sys.path.insert(0, HERE)


def code_version():
    digest = hashlib.sha256()
    for name in ('m21ref.py', 'plainreader.py', 'musicxml_io.py'):
        with open(os.path.join(HERE, name), 'rb') as handle:
            digest.update(handle.read())
    return digest.hexdigest()[:16]


def files_under(dirs):
    out = []
    for d in dirs:
        if os.path.isfile(d):
            out.append(d)
            continue
        for base, subdirs, names in os.walk(d):
            subdirs.sort()
            for name in sorted(names):
                if name.lower().endswith(EXTENSIONS) and not name.endswith('.expected.json'):
                    out.append(os.path.join(base, name))
    return out


# ----------------------------------------------------------------------------------------------
# music21 side
# ----------------------------------------------------------------------------------------------

def reference_cached(path, version, use_cache=True):
    import m21ref
    with open(path, 'rb') as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    cache = os.path.join(WORK, 'reference', f'{digest[:24]}-{version}.json')
    if use_cache and os.path.exists(cache):
        with open(cache) as handle:
            return json.load(handle), True
    start = time.perf_counter()
    entry = {'path': path}
    try:
        result, info = m21ref.reference(path, expand=True)
        entry['notes'] = [[n['part'], n['onsetQuarters'], n['durationQuarters'], n['soundingPitch'],
                           n['isRest'], n['isGrace']] for n in result['notes']]
        entry['stripTies'] = None if info['stripTiesNotes'] is None else [
            [n['part'], m21ref.frac_str(n['onset']), m21ref.frac_str(n['duration']), n['sounding'], n['isRest'],
             n['isGrace']] for n in info['stripTiesNotes']]
        entry['expanded'] = info['music21Expanded']
        entry['expandError'] = info.get('expandError')
        entry['stripTiesDisagreements'] = len(info['stripTiesDisagreements'])
        entry['rewrites'] = info['rewrites']
        entry['notesNotMatchedToXML'] = info.get('notesNotMatchedToXML', 0)
        entry['parts'] = len(result['parts'])
        entry['soundingError'] = info.get('soundingError')
        entry['jumpWithVoltas'] = bool(info.get('jumpWithVoltas'))
    except Exception as error:
        entry['error'] = f'{type(error).__name__}: {error}'
        entry['trace'] = traceback.format_exc(limit=3)
    entry['referenceSeconds'] = time.perf_counter() - start
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, 'w') as handle:
        json.dump(entry, handle)
    return entry, False


def time_music21(path):
    from music21 import converter
    best = None
    for attempt in range(3):
        start = time.perf_counter()
        try:
            converter.parse(path, forceSource=True)
        except Exception:
            return None
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
        if best >= 1.0:
            break
    return best


# ----------------------------------------------------------------------------------------------
# Etude side
# ----------------------------------------------------------------------------------------------

def etude_available(etude):
    """(True, None) or (False, reason)."""
    if not etude:
        return False, 'no --etude given'
    if not (os.path.isfile(etude) and os.access(etude, os.X_OK)):
        return False, f'{etude} is not an executable file'
    probe = os.path.join(FIXTURES, '01c-Pitches-NoVoiceElement.xml')
    try:
        run = subprocess.run([etude, 'score', probe], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, f'`etude score` failed to run: {error}'
    if run.returncode != 0:
        message = (run.stderr or run.stdout).decode('utf-8', 'replace').strip().splitlines()
        return False, f'`etude score` exits {run.returncode}: ' + (message[0] if message else '')
    try:
        json.loads(run.stdout)
    except ValueError:
        return False, '`etude score` does not print JSON'
    return True, None


def run_etude(etude, path, expand=True, repeats=3):
    args = [etude, 'score', path] + ([] if expand else ['--no-expand-repeats'])
    best = None
    out = None
    for attempt in range(repeats):
        start = time.perf_counter()
        try:
            run = subprocess.run(args, capture_output=True, timeout=300)
        except subprocess.TimeoutExpired:
            return None, None, 'timed out after 300 s'
        elapsed = time.perf_counter() - start
        if run.returncode != 0:
            message = run.stderr.decode('utf-8', 'replace').strip().splitlines()
            return None, elapsed, f'exit {run.returncode}: ' + (message[0] if message else '')
        out = run.stdout
        best = elapsed if best is None else min(best, elapsed)
        if best >= 1.0:
            break
    try:
        return json.loads(out), best, None
    except ValueError as error:
        return None, best, f'not JSON: {error}'


def process_start_seconds(etude):
    probe = os.path.join(FIXTURES, '01c-Pitches-NoVoiceElement.xml')
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([etude, 'score', probe], capture_output=True, timeout=60)
        times.append(time.perf_counter() - start)
    return min(times)


# ----------------------------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------------------------

def note_key(part, onset, duration, pitch):
    return (str(part), Fraction(str(onset)), Fraction(str(duration)), pitch)


def multisets(rows):
    """rows: [part, onset, duration, sounding, isRest, isGrace] -> (pitched Counter, rest Counter)."""
    pitched, rests = collections.Counter(), collections.Counter()
    for part, onset, duration, pitch, is_rest, _grace in rows:
        if is_rest:
            rests[note_key(part, onset, duration, None)] += 1
        else:
            pitched[note_key(part, onset, duration, pitch)] += 1
    return pitched, rests


def share(a, b):
    same = sum((a & b).values())
    total = max(sum(a.values()), sum(b.values()))
    return same, total


def etude_rows(data):
    rows = []
    for n in data.get('notes', []):
        rows.append([n.get('part'), n.get('onsetQuarters'), n.get('durationQuarters'), n.get('soundingPitch'),
                     bool(n.get('isRest')), bool(n.get('isGrace'))])
    return rows


# ----------------------------------------------------------------------------------------------
# Fuzz variants
# ----------------------------------------------------------------------------------------------

def fuzz_variants(data, count, rng):
    """Truncations at fixed fractions and random points, and byte flips (1-8 bytes, random
    values and bit flips); deterministic for a given rng."""
    out = []
    n = len(data)
    for fraction in (0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99):
        out.append((f'trunc{int(fraction * 1000):04d}', data[:int(n * fraction)]))
    for i in range(count):
        cut = rng.randrange(0, max(1, n))
        out.append((f'truncr{i:03d}', data[:cut]))
    for i in range(count):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if not mutated:
                break
            position = rng.randrange(len(mutated))
            if rng.random() < 0.5:
                mutated[position] ^= 1 << rng.randrange(8)
            else:
                mutated[position] = rng.randrange(256)
        out.append((f'flip{i:03d}', bytes(mutated)))
    return out


def fuzz(args):
    inputs = files_under(args.inputs) if args.inputs else files_under([FIXTURES])
    rng = random.Random(args.fuzz_seed)
    os.makedirs(args.fuzz_out, exist_ok=True)
    written = []
    for path in inputs:
        with open(path, 'rb') as handle:
            data = handle.read()
        stem, ext = os.path.splitext(os.path.basename(path))
        for tag, variant in fuzz_variants(data, args.fuzz_per_file, rng):
            target = os.path.join(args.fuzz_out, f'{stem}.{tag}{ext}')
            with open(target, 'wb') as handle:
                handle.write(variant)
            written.append(target)
    print(f'fuzz: {len(written)} variants of {len(inputs)} files in {args.fuzz_out}')
    ok, reason = etude_available(args.etude)
    if not ok:
        print(f'fuzz: Etude not available ({reason}); variants written only')
        return
    outcome = collections.Counter()
    bad = []
    start = time.perf_counter()
    for target in written:
        try:
            run = subprocess.run([args.etude, 'score', target], capture_output=True, timeout=10)
            if run.returncode == 0:
                outcome['parsed'] += 1
            elif run.returncode < 0 or run.returncode >= 128:
                outcome['crashed'] += 1
                bad.append((target, f'signal/exit {run.returncode}'))
            else:
                outcome['typed error'] += 1
        except subprocess.TimeoutExpired:
            outcome['timed out'] += 1
            bad.append((target, 'timed out (10 s)'))
    print(f'fuzz: {dict(outcome)} in {time.perf_counter() - start:.1f} s')
    for target, what in bad[:50]:
        print(f'  {what}: {target}')
    with open(os.path.join(WORK, 'fuzz-results.json'), 'w') as handle:
        json.dump({'outcome': outcome, 'bad': bad}, handle, indent=1)
    if outcome['crashed'] or outcome['timed out']:
        sys.exit(1)


# ----------------------------------------------------------------------------------------------
# Fixture conformance (--fixtures)
# ----------------------------------------------------------------------------------------------

FIELDS = ('part', 'measure', 'voice', 'staff', 'onsetQuarters', 'durationQuarters', 'writtenPitch',
          'soundingPitch', 'name', 'isRest', 'isGrace')


def fixture_key(n):
    out = []
    for field in FIELDS:
        value = n.get(field)
        if field in ('onsetQuarters', 'durationQuarters') and value is not None:
            value = Fraction(str(value))
        out.append(value)
    return tuple(out)


def check_fixtures(etude):
    """Every expectation file against `etude score` (all fields of FIELDS, as multisets, and
    onsetSeconds/durationSeconds within 1e-6); tempos and time signatures too."""
    ok, reason = etude_available(etude)
    if not ok:
        print(f'fixtures: Etude not available ({reason})')
        sys.exit(2)
    import glob
    passed = failed = 0
    for expected_path in sorted(glob.glob(os.path.join(FIXTURES, '*.expected.json'))):
        base = os.path.basename(expected_path)
        expand = not base.endswith('.no-expand-repeats.expected.json')
        stem = base[:-len('.no-expand-repeats.expected.json')] if not expand else base[:-len('.expected.json')]
        source = next((os.path.join(FIXTURES, stem + ext) for ext in EXTENSIONS
                       if os.path.exists(os.path.join(FIXTURES, stem + ext))), None)
        with open(expected_path) as handle:
            expected = json.load(handle)
        data, _, error = run_etude(etude, source, expand=expand, repeats=1)
        problems = []
        if error:
            problems.append(error)
        else:
            want = collections.Counter(fixture_key(n) for n in expected['notes'])
            got = collections.Counter(fixture_key(n) for n in data.get('notes', []))
            for key, count in sorted((want - got).items(), key=lambda kv: str(kv[0]))[:6]:
                problems.append('missing ' + ' '.join(f'{f}={v}' for f, v in zip(FIELDS, key)))
            for key, count in sorted((got - want).items(), key=lambda kv: str(kv[0]))[:6]:
                problems.append('extra   ' + ' '.join(f'{f}={v}' for f, v in zip(FIELDS, key)))
            if not problems:
                seconds = {(fixture_key(n)): (n['onsetSeconds'], n['durationSeconds']) for n in expected['notes']}
                for n in data.get('notes', []):
                    e = seconds.get(fixture_key(n))
                    if e and (abs(e[0] - n.get('onsetSeconds', 0)) > 1e-6 or abs(e[1] - n.get('durationSeconds', 0)) > 1e-6):
                        problems.append(f'seconds differ at {n["onsetQuarters"]}: {e} vs '
                                        f'{(n.get("onsetSeconds"), n.get("durationSeconds"))}')
                        break
            tempos = [(Fraction(str(t['quarters'])), round(float(t['bpm']), 6)) for t in data.get('tempos', [])]
            want_tempos = [(Fraction(t['quarters']), round(t['bpm'], 6)) for t in expected['tempos']]
            if tempos != want_tempos:
                problems.append(f'tempos {tempos} != {want_tempos}')
            sigs = [(Fraction(str(t['quarters'])), t['numerator'], t['denominator']) for t in data.get('timeSignatures', [])]
            want_sigs = [(Fraction(t['quarters']), t['numerator'], t['denominator']) for t in expected['timeSignatures']]
            if sigs != want_sigs:
                problems.append(f'time signatures {sigs} != {want_sigs}')
            parts = [(p.get('id'), p.get('name'), p.get('transposeSemitones')) for p in data.get('parts', [])]
            want_parts = [(p['id'], p['name'], p['transposeSemitones']) for p in expected['parts']]
            if parts != want_parts:
                problems.append(f'parts {parts} != {want_parts}')
        confidence = expected.get('_meta', {}).get('confidence', 'music21')
        if problems:
            failed += 1
            print(f'FAIL {base} ({confidence})')
            for problem in problems[:12]:
                print(f'     {problem}')
        else:
            passed += 1
    print(f'fixtures: {passed} passed, {failed} failed')


# ----------------------------------------------------------------------------------------------
# Per-file diagnosis (--diff)
# ----------------------------------------------------------------------------------------------

def measure_runs(notes, part):
    """The measure numbers of one part in timeline order, one entry per run of notes in the same
    measure: [(measure, first onset)]; from the notes alone, so both readers give the same shape."""
    runs = []
    for n in sorted((n for n in notes if n['part'] == part), key=lambda n: Fraction(str(n['onsetQuarters']))):
        onset = Fraction(str(n['onsetQuarters']))
        if not runs or runs[-1][0] != n['measure']:
            runs.append((n['measure'], onset))
    return runs


def describe(n):
    kind = 'rest' if n['isRest'] else str(n['soundingPitch']) + (' grace' if n['isGrace'] else '')
    return (f'{n["part"]} m{n["measure"]} v{n["voice"]} s{n["staff"]} @{n["onsetQuarters"]} '
            f'+{n["durationQuarters"]} {kind}')


def diagnose(etude, paths, show=12):
    """For each file: how music21 expanded it, where the measure orders of the first part part
    ways, and the first notes that only one reader has, with measure, voice and staff."""
    import m21ref
    for path in paths:
        print(f'== {path}')
        try:
            result, info = m21ref.reference(path, expand=True)
        except Exception as error:
            print(f'   music21 failed: {type(error).__name__}: {error}')
            continue
        expanded = info['music21Expanded']
        print(f'   music21 expanded: {expanded}' + (f' ({info.get("expandError")})' if info.get('expandError') else '')
              + (f'; rewrites: {info["rewrites"]}' if info['rewrites'] else ''))
        data, _, error = run_etude(etude, path, expand=expanded is not False, repeats=1)
        if error:
            print(f'   etude: {error}')
            continue
        ours = data['notes']
        theirs = result['notes']
        first = result['parts'][0]['id'] if result['parts'] else None
        a, b = measure_runs(theirs, first), measure_runs(ours, first)
        if [m for m, _ in a] != [m for m, _ in b]:
            k = next((i for i, (x, y) in enumerate(zip(a, b)) if x[0] != y[0]), min(len(a), len(b)))
            print(f'   measure order of {first} differs at run {k} (music21 {len(a)} runs, etude {len(b)}):')
            print(f'     music21: {" ".join(str(m) for m, _ in a[max(0, k - 4):k + 16])}')
            print(f'     etude:   {" ".join(str(m) for m, _ in b[max(0, k - 4):k + 16])}')
        else:
            shifted = [(x, y) for x, y in zip(a, b) if x[1] != y[1]]
            if shifted:
                print(f'   same measure order, {len(shifted)} runs start elsewhere; first: m{shifted[0][0][0]} '
                      f'music21 @{shifted[0][0][1]} etude @{shifted[0][1][1]}')
        key = lambda n: (n['part'], Fraction(str(n['onsetQuarters'])), Fraction(str(n['durationQuarters'])),
                         n['soundingPitch'], n['isRest'])  # noqa: E731
        want = collections.Counter(key(n) for n in theirs)
        got = collections.Counter(key(n) for n in ours)
        only_m21 = want - got
        only_etude = got - want
        pitched = lambda c: sum(v for k, v in c.items() if not k[4])  # noqa: E731
        print(f'   pitched notes: music21 {pitched(want)}, etude {pitched(got)}, only music21 {pitched(only_m21)}, '
              f'only etude {pitched(only_etude)}')
        by_measure = collections.Counter()
        for n in theirs:
            if key(n) in only_m21:
                by_measure[(n['part'], n['measure'])] += 1
        if by_measure:
            print('   measures with music21-only notes: ' + ', '.join(
                f'{p} m{m}: {c}' for (p, m), c in sorted(by_measure.items(), key=lambda kv: (-kv[1], str(kv[0])))[:12]))
        for label, notes, other in (('music21 only', theirs, only_m21), ('etude only  ', ours, only_etude)):
            left = collections.Counter(other)
            shown = 0
            for n in sorted(notes, key=lambda n: Fraction(str(n['onsetQuarters']))):
                if left[key(n)] > 0 and shown < show:
                    left[key(n)] -= 1
                    shown += 1
                    print(f'   {label}: {describe(n)}')


# ----------------------------------------------------------------------------------------------
# Main
# ----------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('inputs', nargs='*', help='corpus folders or files')
    parser.add_argument('--etude', help='path of the etude binary')
    parser.add_argument('--no-cache', action='store_true', help="recompute music21's readings")
    parser.add_argument('--no-timing', action='store_true', help='skip the timing runs')
    parser.add_argument('--limit', type=int, help='only the first N files')
    parser.add_argument('--results', default=os.path.join(HERE, 'results.md'))
    parser.add_argument('--fuzz-out', help='write fuzz variants here (and run etude on them)')
    parser.add_argument('--fuzz-per-file', type=int, default=12, help='random truncations and flips per file')
    parser.add_argument('--fuzz-seed', type=int, default=4)
    parser.add_argument('--fixtures', action='store_true',
                        help='check `etude score` against every fixture expectation (all fields) and stop')
    parser.add_argument('--diff', action='store_true',
                        help='diagnose the given files: repeat expansion, measure order, notes only one reader has')
    args = parser.parse_args()
    if args.diff:
        diagnose(args.etude, files_under(args.inputs))
        return
    if args.fixtures:
        check_fixtures(args.etude)
        return
    if args.fuzz_out:
        fuzz(args)
        return

    import music21
    import m21ref  # noqa: F401  (imports music21 and installs the hooks)
    paths = files_under(args.inputs or [os.path.join(WORK, 'corpus')])
    if args.limit:
        paths = paths[:args.limit]
    if not paths:
        sys.exit('compare: no MusicXML files (run collect.sh first)')
    version = code_version()
    available, reason = etude_available(args.etude)
    start_overhead = process_start_seconds(args.etude) if available and not args.no_timing else None
    root = args.inputs[0] if args.inputs and os.path.isdir(args.inputs[0]) else os.path.join(WORK, 'corpus')

    rows = []
    wall = time.perf_counter()
    reference_seconds = 0.0
    for index, path in enumerate(paths):
        name = os.path.relpath(path, root) if path.startswith(root) else path
        entry, cached = reference_cached(path, version, use_cache=not args.no_cache)
        if not cached:
            reference_seconds += entry['referenceSeconds']
        row = {'file': name, 'music21Error': entry.get('error'), 'expanded': entry.get('expanded'),
               'expandError': entry.get('expandError'), 'stripTiesDisagreements': entry.get('stripTiesDisagreements'),
               'rewrites': entry.get('rewrites', []), 'referenceSeconds': entry['referenceSeconds'],
               'notesNotMatchedToXML': entry.get('notesNotMatchedToXML', 0), 'size': os.path.getsize(path),
               'jumpWithVoltas': entry.get('jumpWithVoltas', False)}
        ref_pitched, ref_rests = multisets(entry.get('notes', []))
        row['stripTiesSkipped'] = entry.get('stripTies', []) is None
        st_pitched, _ = multisets(entry.get('stripTies') or [])
        row['notes'] = sum(ref_pitched.values())
        row['rests'] = sum(ref_rests.values())
        same, total = share(ref_pitched, st_pitched) if not row['stripTiesSkipped'] else (0, 0)
        row['stripTiesSame'], row['stripTiesTotal'] = same, total
        if not args.no_timing:
            row['music21Seconds'] = time_music21(path)
        if available and 'error' not in entry:
            expand = entry.get('expanded') is not False
            data, seconds, error = run_etude(args.etude, path, expand=expand,
                                             repeats=1 if args.no_timing else 3)
            row['etudeSeconds'] = seconds
            row['etudeExpand'] = expand
            if error:
                row['etudeError'] = error
                row['same'], row['total'] = 0, row['notes']
            else:
                e_pitched, e_rests = multisets(etude_rows(data))
                row['same'], row['total'] = share(ref_pitched, e_pitched)
                row['restsSame'], row['restsTotal'] = share(ref_rests, e_rests)
                if not row['stripTiesSkipped']:
                    row['sameVsStripTies'], row['totalVsStripTies'] = share(st_pitched, e_pitched)
        rows.append(row)
        if (index + 1) % 25 == 0 or index + 1 == len(paths):
            print(f'compare: {index + 1}/{len(paths)} files, {time.perf_counter() - wall:.0f} s', flush=True)
    wall = time.perf_counter() - wall

    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, 'results.json'), 'w') as handle:
        json.dump({'rows': rows, 'etudeAvailable': available, 'reason': reason,
                   'processStartSeconds': start_overhead}, handle, indent=1)
    write_markdown(args, rows, available, reason, start_overhead, wall, reference_seconds, music21.__version__)
    print(f'compare: wrote {args.results}')


def pct(a, b):
    return f'{100.0 * a / b:.2f} %' if b else 'n/a'


def write_markdown(args, rows, available, reason, start_overhead, wall, reference_seconds, m21_version):
    ok = [r for r in rows if not r['music21Error']]
    notes = sum(r['notes'] for r in ok)
    rests = sum(r['rests'] for r in ok)
    by_source = collections.Counter(r['file'].split(os.sep)[0] for r in rows)
    expanded = collections.Counter(str(r['expanded']) for r in ok)
    st_same = sum(r['stripTiesSame'] for r in ok)
    st_total = sum(r['stripTiesTotal'] for r in ok)
    st_files = [r for r in ok if r['stripTiesSame'] != r['stripTiesTotal']]
    m21_times = [r.get('music21Seconds') for r in ok if r.get('music21Seconds') is not None]
    lines = []
    lines.append('# MusicXML: Etude against music21 on real-world scores')
    lines.append('')
    lines.append(f'Made by `bash Evaluation/musicxml/run.sh` ({datetime.date.today().isoformat()}, '
                 f'{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, '
                 f'music21 {m21_version}). What is compared and how: `Evaluation/musicxml/README.md`.')
    lines.append('')
    lines.append('## Corpus')
    lines.append('')
    lines.append(f'{len(rows)} files (' + ', '.join(f'{k}: {v}' for k, v in sorted(by_source.items()))
                 + f'), {sum(r["size"] for r in rows) / 1e6:.1f} MB; music21 read {len(ok)} of them: '
                 f'{notes} pitched notes and {rests} rests on the performance timeline.')
    lines.append('')
    lines.append('| music21 | files |')
    lines.append('|---|---:|')
    lines.append(f'| repeats expanded by music21 | {expanded.get("True", 0)} |')
    lines.append(f'| no repeat marks | {expanded.get("nothing to expand", 0)} |')
    lines.append(f'| music21 could not expand (compared in notation order, `--no-expand-repeats`) | {expanded.get("False", 0)} |')
    lines.append(f'| music21 failed to read | {len(rows) - len(ok)} |')
    lines.append(f'| rewritten before music21 (cue notes, chord-splitting directions, missing `<staff>`, '
                 f'visual `<offset>`, sound tempo, jumps music21 cannot see, repeat marks in one part only, lone first endings, '
                 f'forward repeats on right barlines, zero `<forward>`s) | '
                 f'{sum(1 for r in ok if r["rewrites"])} |')
    lines.append(f'| music21 notes not matched to a note of the plain reader at the same onset and pitch '
                 f'(music21 times them differently; voice/staff taken from music21) | '
                 f'{sum(1 for r in ok if r["notesNotMatchedToXML"])} files, {sum(r["notesNotMatchedToXML"] for r in ok)} notes |')
    lines.append('')
    skipped = [r for r in ok if r.get('stripTiesSkipped')]
    lines.append(f"music21's own `stripTies()` agrees with the onset-based tie merge on {pct(st_same, st_total)} "
                 f'of the notes ({st_total - st_same} differ, in {len(st_files)} files): those are notes the '
                 'reference would get wrong if it used stripTies (see README, "music21 limitations").'
                 + (f' Not run on {len(skipped)} file(s) of more than 20,000 notes (stripTies is quadratic): '
                    + ', '.join(f'`{r["file"]}`' for r in skipped) + '.' if skipped else ''))
    lines.append('')
    lines.append('## Etude')
    lines.append('')
    if available:
        kind = 'a debug build: its times are not representative' if os.sep + 'debug' + os.sep in os.path.realpath(args.etude) \
            or 'debug' in os.path.basename(args.etude) else 'release build expected'
        lines.append(f'Binary: `{args.etude}` ({kind}).')
        lines.append('')
    if not available:
        lines.append(f'**Etude not available**: {reason}. Only music21\'s side was measured; rerun '
                     '`bash Evaluation/musicxml/run.sh` once `etude score` exists.')
    else:
        compared = [r for r in ok if 'same' in r]
        same = sum(r['same'] for r in compared)
        total = sum(r['total'] for r in compared)
        s2 = sum(r.get('sameVsStripTies', 0) for r in compared)
        t2 = sum(r.get('totalVsStripTies', 0) for r in compared)
        rs = sum(r.get('restsSame', 0) for r in compared)
        rt = sum(r.get('restsTotal', 0) for r in compared)
        perfect = sum(1 for r in compared if r['same'] == r['total'])
        errors = [r for r in compared if r.get('etudeError')]
        lines.append('| figure | result | target |')
        lines.append('|---|---:|---:|')
        lines.append(f'| pitched notes identical to music21 (part, onset, duration, sounding pitch) | '
                     f'**{pct(same, total)}** ({same} / {total}) | ≥ 99.5 % |')
        lines.append(f'| files with every note identical | {perfect} / {len(compared)} | |')
        agree = [r for r in compared if not r.get('notesNotMatchedToXML')]
        lines.append(f'| the same over the {len(agree)} files where music21 and the plain reader agree on every note '
                     f'(timing questions of music21 left out) | {pct(sum(r["same"] for r in agree), sum(r["total"] for r in agree))} | |')
        clean = [r for r in agree if not r.get('jumpWithVoltas')]
        left_out = [r for r in compared if r not in clean]
        lines.append(f'| the same over the {len(clean)} files without a known music21 limitation (the plain reader agrees on '
                     f'every note, and no part has a D.C./D.S. with voltas); left out: {len(left_out)} files, '
                     f'{sum(r["total"] for r in left_out)} notes, {sum(r["total"] - r["same"] for r in left_out)} of them '
                     f'different | {pct(sum(r["same"] for r in clean), sum(r["total"] for r in clean))} | |')
        lines.append(f"| the same against music21's stripTies merge (files where it ran) | {pct(s2, t2)} | |")
        lines.append(f'| rests identical | {pct(rs, rt)} | |')
        lines.append(f'| files Etude failed on | {len(errors)} | 0 |')
        e_times = [r['etudeSeconds'] for r in compared if r.get('etudeSeconds') is not None and r.get('music21Seconds')]
        m_times = [r['music21Seconds'] for r in compared if r.get('etudeSeconds') is not None and r.get('music21Seconds')]
        if e_times:
            total_e = sum(e_times)
            total_m = sum(m_times)
            net = sum(max(t - (start_overhead or 0), 1e-6) for t in e_times)
            lines.append(f'| parse time, whole corpus: music21 `converter.parse` | {total_m:.1f} s | |')
            lines.append(f'| parse time, whole corpus: `etude score` processes (wall) | {total_e:.1f} s | |')
            lines.append(f'| speed ratio, processes as they are | **{total_m / total_e:.1f}×** | ≥ 20× |')
            lines.append(f'| speed ratio, less the process start ({start_overhead * 1000:.0f} ms each, '
                         f'`etude score` on the smallest fixture) | {total_m / net:.1f}× | |')
        for r in errors[:20]:
            lines.append('')
            lines.append(f'- `{r["file"]}`: {r["etudeError"]}')
    lines.append('')
    lines.append('## Timing')
    lines.append('')
    if m21_times:
        lines.append(f'music21 `converter.parse(path, forceSource=True)`: {sum(m21_times):.1f} s for {len(m21_times)} files '
                     f'(median {sorted(m21_times)[len(m21_times) // 2]:.3f} s, slowest {max(m21_times):.1f} s; best of 3 '
                     'for files under 1 s). ')
    lines.append(f'This run: {wall:.0f} s in all; music21 reference readings computed in this run: '
                 f'{reference_seconds:.0f} s (cached ones are reused).')
    lines.append('')
    lines.append('## Files')
    lines.append('')
    lines.append('"plain ≠" counts music21 notes that the plain reader times differently (see README).')
    lines.append('')
    lines.append('| file | notes | music21 s | repeats | stripTies differs | plain ≠ | Etude identical | Etude s |')
    lines.append('|---|---:|---:|---|---:|---:|---:|---:|')
    for r in rows:
        if r['music21Error']:
            lines.append(f'| `{r["file"]}` | music21 error: {r["music21Error"][:80]} | | | | | | |')
            continue
        rep = {'True': 'expanded', 'nothing to expand': '-', 'False': 'not expanded'}.get(str(r['expanded']), str(r['expanded']))
        if r.get('jumpWithVoltas'):
            rep += ' (D.C./D.S. with voltas)'
        if r.get('etudeError'):
            rep += f' (Etude: {r["etudeError"][:60]})'
        rewrites = ' '.join(r.get('rewrites') or [])
        if 'jump(s) given by' in rewrites:
            rep += ' [jumps spelled out for music21]'
        if 'copied into the parts' in rewrites:
            rep += ' [repeat marks copied to every part]'

        m = f'{r["music21Seconds"]:.3f}' if r.get('music21Seconds') is not None else ''
        diff = 'not run' if r.get('stripTiesSkipped') else r['stripTiesTotal'] - r['stripTiesSame']
        e = pct(r['same'], r['total']) if 'same' in r else 'n/a'
        es = f'{r["etudeSeconds"]:.3f}' if r.get('etudeSeconds') is not None else ''
        lines.append(f'| `{r["file"]}` | {r["notes"]} | {m} | {rep} | {diff or ""} | {r.get("notesNotMatchedToXML") or ""} | {e} | {es} |')
    with open(args.results, 'w') as handle:
        handle.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
