#!/usr/bin/env python3
"""Compare `etude midi2json` with mido on a corpus of real-world MIDI files.

Usage: python3 Evaluation/midi/compare.py [--etude PATH] [--no-timing] [corpus-dir]

For every file under corpus-dir (default Evaluation/midi/work/corpus):
  * mido reads it (`mido.MidiFile(path, clip=True)`); notes are paired per track, channel and
    pitch, first in, first out (note_on with velocity 0 is a note-off); notes never released run
    to the tick of their track's last message and are counted as unreleased;
  * seconds come from mido's own tempo handling: the tick->seconds map is built by walking
    `mido.merge_tracks(tracks)` exactly as `MidiFile.__iter__` does (tempo events of every track,
    500000 us/beat before the first, `mido.tick2second` per delta). Type 2 files (which mido
    refuses to iterate) use the same merged walk and are flagged. SMPTE files are flagged: mido
    ignores SMPTE division, so for them the reference seconds use fps * ticks-per-frame;
  * `etude midi2json FILE` is run and its notes compared: same multiset of
    (track, channel, pitch, ticks, durationTicks), velocities equal, times and durations within
    1 microsecond, same unreleased count, same track count.
Writes Evaluation/midi/results.md (figures + per-file details) and results.json next to it
(results.json goes under work/ as it is bulky).
"""

import argparse
import bisect
import collections
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback

import mido

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TOLERANCE = 1e-6
MIDI_EXTENSIONS = ('.mid', '.midi', '.kar', '.rmi', '.smf')


# --------------------------------------------------------------------------------------------
# Reference: notes from mido
# --------------------------------------------------------------------------------------------

class MidoSeconds:
    """tick -> seconds, exactly as mido's MidiFile.__iter__ accumulates them."""

    def __init__(self, mid):
        self.smpte = None
        division = mid.ticks_per_beat
        if division & 0x8000:
            fps = 256 - (division >> 8)
            tpf = division & 0xFF
            rate = 29.97 if fps == 29 else float(fps)
            self.smpte = (fps, tpf)
            self.per_tick = 1.0 / (rate * tpf) if tpf else 0.0
            return
        # Walk the merged track like MidiFile.__iter__ (works for type 2 too).
        merged = mido.merge_tracks(mid.tracks, skip_checks=True)
        tempo = mido.midifiles.midifiles.DEFAULT_TEMPO
        tick = 0
        seconds = 0.0
        # Breakpoints: (tick, seconds at tick, tempo in force after all events at tick).
        self.ticks = [0]
        self.points = [(0, 0.0, tempo)]
        for msg in merged:
            if msg.time > 0:
                seconds += mido.tick2second(msg.time, division, tempo)
                tick += msg.time
            if msg.type == 'set_tempo':
                tempo = msg.tempo
                if self.ticks[-1] == tick:
                    self.points[-1] = (tick, seconds, tempo)
                else:
                    self.ticks.append(tick)
                    self.points.append((tick, seconds, tempo))
        self.division = division

    def __call__(self, tick):
        if self.smpte is not None:
            return tick * self.per_tick
        i = bisect.bisect_right(self.ticks, tick) - 1
        t0, s0, tempo = self.points[i]
        if tick == t0:
            return s0
        return s0 + mido.tick2second(tick - t0, self.division, tempo)


def mido_notes(mid, stats=None):
    """Notes (dicts) and the unreleased count, paired FIFO per track, channel and pitch."""
    seconds = MidoSeconds(mid)
    notes = []
    unreleased = 0
    for index, track in enumerate(mid.tracks):
        held = collections.defaultdict(collections.deque)
        tick = 0
        for msg in track:
            tick += msg.time
            if stats is not None:
                if msg.type == 'set_tempo':
                    stats['tempo_events'] += 1
                    stats['tempo_outside_first_track'] += index > 0
                if msg.type == 'note_on' and msg.velocity > 0 and held.get((msg.channel, msg.note)):
                    stats['overlapping_note_ons'] += 1
                if msg.type == 'note_on' and msg.velocity == 0:
                    stats['note_on_velocity_0_offs'] += 1
            if msg.type == 'note_on' and msg.velocity > 0:
                held[(msg.channel, msg.note)].append((tick, msg.velocity))
            elif msg.type in ('note_on', 'note_off'):
                queue = held.get((msg.channel, msg.note))
                if queue:
                    on_tick, velocity = queue.popleft()
                    release = 64 if msg.type == 'note_on' else msg.velocity
                    notes.append((index, msg.channel, msg.note, on_tick, tick - on_tick, velocity, release))
        end = tick  # the track's last message (mido keeps messages after end_of_track)
        for (channel, note), queue in held.items():
            for on_tick, velocity in queue:
                unreleased += 1
                notes.append((index, channel, note, on_tick, end - on_tick, velocity, 0))
    out = []
    for (track, channel, pitch, ticks, duration_ticks, velocity, release) in notes:
        start = seconds(ticks)
        out.append({
            'track': track, 'channel': channel, 'midi': pitch, 'ticks': ticks,
            'durationTicks': duration_ticks, 'velocity': velocity, 'releaseVelocity': release,
            'time': start, 'duration': seconds(ticks + duration_ticks) - start,
        })
    return out, unreleased, seconds.smpte


# --------------------------------------------------------------------------------------------
# Ours: etude midi2json
# --------------------------------------------------------------------------------------------

def run_etude(etude, path, timeout=120):
    start = time.perf_counter()
    try:
        proc = subprocess.run([etude, 'midi2json', path], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {'status': 'hang', 'seconds': timeout, 'stderr': f'timed out after {timeout}s'}
    elapsed = time.perf_counter() - start
    stderr = proc.stderr.decode('utf-8', 'replace')
    result = {'seconds': elapsed, 'returncode': proc.returncode, 'stderr': stderr.strip()}
    if proc.returncode == 0:
        try:
            result['json'] = json.loads(proc.stdout)
            result['status'] = 'ok'
        except ValueError as error:
            result['status'] = 'badjson'
            result['stderr'] = f'invalid JSON on stdout: {error}'
    elif proc.returncode < 0 or 'Fatal error' in stderr or 'Stack dump' in stderr or '#0 ' in stderr \
            or not stderr.startswith('Error:') or stderr.count('\n') > 2:
        # A signal, a Swift runtime trap or a trace: anything other than one clean error line.
        result['status'] = 'crash'
    else:
        result['status'] = 'error'
    return result


def etude_notes(document):
    out = []
    for index, track in enumerate(document['tracks']):
        for note in track['notes']:
            out.append(dict(note, track=index))
    return out


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

KEY = ('track', 'channel', 'midi', 'ticks', 'durationTicks')


def key(note):
    return tuple(note[k] for k in KEY)


def compare_notes(ref, ours):
    """Returns a list of (class, detail) problems; empty when everything matches."""
    problems = []
    ref_sorted = sorted(ref, key=lambda n: key(n) + (n['velocity'], n['releaseVelocity']))
    our_sorted = sorted(ours, key=lambda n: key(n) + (n['velocity'], n['releaseVelocity']))
    ref_keys = collections.Counter(key(n) for n in ref)
    our_keys = collections.Counter(key(n) for n in ours)
    if ref_keys != our_keys:
        missing = list((ref_keys - our_keys).elements())
        extra = list((our_keys - ref_keys).elements())
        problems.append(('notes differ', {
            'mido': len(ref), 'etude': len(ours),
            'only_mido': len(missing), 'only_etude': len(extra),
            'sample_only_mido': [dict(zip(KEY, k)) for k in sorted(missing)[:3]],
            'sample_only_etude': [dict(zip(KEY, k)) for k in sorted(extra)[:3]],
        }))
        return problems, 0.0
    velocity_diffs = [(r, o) for r, o in zip(ref_sorted, our_sorted)
                      if (r['velocity'], r['releaseVelocity']) != (o['velocity'], o['releaseVelocity'])]
    if velocity_diffs:
        r, o = velocity_diffs[0]
        problems.append(('velocities differ', {
            'count': len(velocity_diffs),
            'sample': {'note': dict(zip(KEY, key(r))),
                       'mido': [r['velocity'], r['releaseVelocity']],
                       'etude': [o['velocity'], o['releaseVelocity']]}}))
    worst = 0.0
    worst_pair = None
    bad = 0
    for r, o in zip(ref_sorted, our_sorted):
        error = max(abs(r['time'] - o['time']), abs(r['duration'] - o['duration']))
        if error > TOLERANCE:
            bad += 1
        if error > worst:
            worst, worst_pair = error, (r, o)
    if bad:
        r, o = worst_pair
        problems.append(('seconds differ', {
            'count': bad, 'worst_error_s': worst,
            'sample': {'note': dict(zip(KEY, key(r))),
                       'mido': [r['time'], r['duration']], 'etude': [o['time'], o['duration']]}}))
    return problems, worst


def check_writer(etude, path, full_document, ref, smpte):
    """Writes the file back through both JSON forms with `etude json2midi` and reads the result
    with mido. Full: the same notes per track (release velocities of notes the source never
    released become 0, which mido reports for them too). Compact: the same notes per channel
    (compact JSON keeps channels, not tracks; release velocities are not kept)."""
    work = os.path.join(HERE, 'work', 'writer')
    os.makedirs(work, exist_ok=True)
    result = {}
    forms = [('full', json.dumps(full_document).encode())]
    if not smpte:  # compact JSON counts SMPTE files at 60 BPM without ppq: not a tick-exact form
        proc = subprocess.run([etude, 'midi2json', '--format', 'compact', path], capture_output=True, timeout=120)
        forms.append(('compact', proc.stdout if proc.returncode == 0 else None))
    for form, document in forms:
        if document is None:
            result[form] = 'midi2json failed'
            continue
        source = os.path.join(work, f'{form}.json')
        target = os.path.join(work, f'{form}.mid')
        with open(source, 'wb') as f:
            f.write(document)
        if os.path.exists(target):
            os.remove(target)
        proc = subprocess.run([etude, 'json2midi', source, target], capture_output=True, timeout=120)
        if proc.returncode != 0:
            result[form] = 'json2midi failed: ' + proc.stderr.decode('utf-8', 'replace')[:300]
            continue
        try:
            again, _, _ = mido_notes(mido.MidiFile(target, clip=True))
        except Exception as error:  # noqa: BLE001
            result[form] = f'mido cannot read it: {error}'
            continue
        if form == 'full':
            problems, _ = compare_notes(ref, again)
        else:
            strip = lambda notes: [dict(n, track=0, releaseVelocity=0) for n in notes]
            problems, _ = compare_notes(strip(ref), strip(again))
        result[form] = 'same' if not problems else json.dumps(problems, default=str)[:400]
    return result


def mido_events(mid):
    """Per track, every message as (absolute tick, its fields without the delta), up to and
    including end_of_track (etude stops a track there; bytes after it are a repaired defect)."""
    tracks = []
    for track in mid.tracks:
        tick, events = 0, []
        for msg in track:
            tick += msg.time
            fields = msg.dict()
            fields.pop('time', None)
            events.append((tick, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in fields.items()))))
            if msg.type == 'end_of_track':
                break
        tracks.append(events)
    return tracks


def check_events(etude, path, mid):
    """`etude midi-repair` rewrites the file; mido must read back the same messages per track
    (the encoding may differ: etude writes no running status and the shortest lengths)."""
    target = os.path.join(HERE, 'work', 'writer', 'repaired.mid')
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.exists(target):
        os.remove(target)
    proc = subprocess.run([etude, 'midi-repair', path, target], capture_output=True, timeout=120)
    if proc.returncode != 0:
        return 'midi-repair failed: ' + proc.stderr.decode('utf-8', 'replace')[:300]
    try:
        again = mido.MidiFile(target, clip=True)
    except Exception as error:  # noqa: BLE001
        return f'mido cannot read it: {error}'
    before, after = mido_events(mid), mido_events(again)
    if len(before) != len(after):
        return f'track count {len(before)} -> {len(after)}'
    for index, (a, b) in enumerate(zip(before, after)):
        if a != b:
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            return (f'track {index}: {len(a)} -> {len(b)} messages; first difference at message {first}: '
                    f'{a[first] if first < len(a) else None} -> {b[first] if first < len(b) else None}')[:400]
    return 'same'


def corpus_files(root):
    files = []
    for directory, _, names in os.walk(root):
        for name in names:
            if name.lower().endswith(MIDI_EXTENSIONS):
                files.append(os.path.join(directory, name))
    return sorted(files)


def best_of(n, fn):
    best = float('inf')
    for _ in range(n):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def minimal_midi(path):
    """A valid one-track MIDI file with no events but end-of-track: process-start baseline."""
    with open(path, 'wb') as f:
        f.write(b'MThd' + (6).to_bytes(4, 'big') + (0).to_bytes(2, 'big') + (1).to_bytes(2, 'big')
                + (96).to_bytes(2, 'big'))
        f.write(b'MTrk' + (4).to_bytes(4, 'big') + b'\x00\xff\x2f\x00')


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--etude', default=os.path.join(REPO, '.build-eval', 'release', 'etude'))
    parser.add_argument('--no-timing', action='store_true', help='skip the best-of-3 timing runs')
    parser.add_argument('--results', default=os.path.join(HERE, 'results.md'))
    parser.add_argument('corpus', nargs='?', default=os.path.join(HERE, 'work', 'corpus'))
    args = parser.parse_args()
    if not os.path.exists(args.etude):
        sys.exit(f'no etude binary at {args.etude}: build it (see Evaluation/midi/run.sh)')
    files = corpus_files(args.corpus)
    if not files:
        sys.exit(f'no MIDI files under {args.corpus}: run Evaluation/midi/collect.sh')

    records = []
    for number, path in enumerate(files, 1):
        rel = os.path.relpath(path, args.corpus)
        record = {'file': rel, 'source': rel.split(os.sep)[0], 'size': os.path.getsize(path)}
        # mido
        try:
            mid = mido.MidiFile(path, clip=True)
            record['mido'] = 'ok'
            record['type'] = mid.type
        except Exception as error:  # noqa: BLE001 - every failure is a finding
            mid = None
            record['mido'] = 'error'
            record['mido_error'] = f'{type(error).__name__}: {error}'
        # etude
        ours = run_etude(args.etude, path)
        record['etude'] = ours['status']
        record['etude_seconds'] = ours['seconds']
        if ours['status'] != 'ok':
            record['etude_error'] = ours['stderr'][:2000]
        else:
            record['warnings'] = len(ours['json'].get('warnings', []))
            record['warning_sample'] = [w for w in ours['json'].get('warnings', []) if 'never released' not in w][:3]
        # comparison
        if mid is not None and ours['status'] == 'ok':
            try:
                stats = collections.Counter()
                ref, ref_unreleased, smpte = mido_notes(mid, stats)
                record['stats'] = dict(stats)
                record['smpte'] = smpte is not None
                doc = ours['json']
                problems = []
                if len(doc['tracks']) != len(mid.tracks):
                    problems.append(('track count differs', {'mido': len(mid.tracks), 'etude': len(doc['tracks'])}))
                got = etude_notes(doc)
                note_problems, worst = compare_notes(ref, got)
                problems += note_problems
                if doc.get('unreleasedNotes') != ref_unreleased:
                    problems.append(('unreleased count differs', {'mido': ref_unreleased, 'etude': doc.get('unreleasedNotes')}))
                record['notes'] = len(ref)
                record['unreleased'] = ref_unreleased
                record['worst_seconds_error'] = worst
                record['problems'] = problems
                record['match'] = not problems
                record['writer'] = check_writer(args.etude, path, doc, ref, smpte is not None)
                record['writer']['events'] = check_events(args.etude, path, mid)
            except Exception:  # noqa: BLE001
                record['match'] = False
                record['problems'] = [('comparison raised', traceback.format_exc(limit=3))]
        records.append(record)
        state = 'match' if record.get('match') else ('-' if 'match' not in record else 'MISMATCH')
        print(f'[{number}/{len(files)}] {rel}: mido {record["mido"]}, etude {record["etude"]}, {state}', file=sys.stderr)

    # ---- timing -------------------------------------------------------------------------------
    timing = None
    if not args.no_timing:
        timing = measure(args.etude, files, records)

    write_results(args, files, records, timing)


def measure(etude, files, records):
    """Best of 3 per file for: mido parse; mido parse + pairing + JSON; the etude CLI."""
    baseline_file = os.path.join(HERE, 'work', 'empty.mid')
    os.makedirs(os.path.dirname(baseline_file), exist_ok=True)
    minimal_midi(baseline_file)
    baseline = best_of(10, lambda: subprocess.run([etude, 'midi2json', baseline_file], capture_output=True))
    mido_parse, mido_full, ours = [], [], []
    for path, record in zip(files, records):
        if record['mido'] != 'ok' or record['etude'] != 'ok':
            continue
        mido_parse.append(best_of(3, lambda: mido.MidiFile(path, clip=True)))

        mido_full.append(best_of(3, lambda: mido_notes(mido.MidiFile(path, clip=True))))
        ours.append(best_of(3, lambda: subprocess.run([etude, 'midi2json', path], capture_output=True)))
    return {
        'files': len(ours), 'baseline': baseline,
        'mido_parse': mido_parse, 'mido_full': mido_full, 'etude': ours,
        'bytes': sum(r['size'] for r in records if r['mido'] == 'ok' and r['etude'] == 'ok'),
        'swift': swift_benchmark(),
    }


def swift_benchmark():
    """In-process Swift timings over the same corpus: the median of `MIDI parse corpus` and
    `MIDI notes corpus` (Benchmarks/Benchmarks/MIDIJSONBenchmarks, release build), in seconds
    per pass over every file; None when the benchmark package cannot run."""
    corpus = os.path.join(HERE, 'work', 'corpus')
    try:
        proc = subprocess.run(
            ['swift', 'package', 'benchmark', '--target', 'MIDIJSONBenchmarks', '--filter', 'MIDI .* corpus', '--no-progress'],
            cwd=os.path.join(REPO, 'Benchmarks'), capture_output=True, timeout=3600,
            env=dict(os.environ, ETUDE_MIDI_CORPUS=corpus))
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f'swift benchmark did not run: {error}', file=sys.stderr)
        return None
    times, name, unit = {}, None, 1e-6
    for line in proc.stdout.decode('utf-8', 'replace').splitlines():
        line = line.strip()
        if line.startswith('MIDI ') and line.endswith('corpus'):
            name = line
        elif name and line.startswith('│ Metric'):
            unit = {'(ns)': 1e-9, '(μs)': 1e-6, '(us)': 1e-6, '(ms)': 1e-3, '(s)': 1.0}.get(
                next((w for w in line.split() if w.startswith('(')), '(μs)'), 1e-6)
        elif name and line.startswith('│ Time (wall clock)'):
            cells = [c.strip() for c in line.split('│') if c.strip()]
            times[name] = float(cells[3].replace(',', '')) * unit  # p50
            name = None
    if not times:
        print('swift benchmark printed no timings:\n' + proc.stderr.decode('utf-8', 'replace')[-2000:], file=sys.stderr)
        return None
    return times


def fmt_ms(seconds):
    return f'{seconds * 1000:.2f} ms'


def write_results(args, files, records, timing):
    total = len(records)
    mido_ok = [r for r in records if r['mido'] == 'ok']
    compared = [r for r in records if 'match' in r]
    matched = [r for r in compared if r['match']]
    mismatched = [r for r in compared if not r['match']]
    only_ours = [r for r in records if r['mido'] != 'ok' and r['etude'] == 'ok']
    neither = [r for r in records if r['mido'] != 'ok' and r['etude'] != 'ok']
    only_mido = [r for r in records if r['mido'] == 'ok' and r['etude'] != 'ok']
    crashes = [r for r in records if r['etude'] in ('crash', 'hang', 'badjson')]
    type2 = [r for r in compared if r.get('type') == 2]
    smpte = [r for r in compared if r.get('smpte')]
    notes = sum(r.get('notes', 0) for r in compared)
    sources = collections.Counter(r['source'] for r in records)
    worst = max((r.get('worst_seconds_error', 0.0) for r in matched), default=0.0)

    classes = collections.defaultdict(list)
    for r in mismatched:
        for name, detail in r['problems']:
            classes[name].append((r['file'], detail))

    lines = []
    add = lines.append
    add('# MIDI reading: etude vs mido')
    add('')
    add('Generated by `Evaluation/midi/compare.py` (rerun everything with `bash Evaluation/midi/run.sh`; '
        'compare only with `python3 Evaluation/midi/compare.py`).')
    add('')
    add(f'mido {getattr(mido, "__version__", None) or _mido_version()}, Python {platform.python_version()}, '
        f'etude binary `{os.path.relpath(args.etude, REPO)}`, {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}.')
    add('')
    add('## Summary')
    add('')
    add('| figure | count |')
    add('| --- | ---: |')
    add(f'| files | {total} |')
    add(f'| mido-readable (`clip=True`) | {len(mido_ok)} |')
    add(f'| compared (both read) | {len(compared)} ({notes} notes) |')
    add(f'| exact note match | {len(matched)} |')
    add(f'| mismatches | {len(mismatched)} |')
    add(f'| only etude reads (mido raises) | {len(only_ours)} |')
    add(f'| only mido reads (etude clean error) | {len(only_mido)} |')
    add(f'| neither reads | {len(neither)} |')
    add(f'| etude crashes / hangs / bad JSON | {len(crashes)} |')
    add(f'| type 2 among compared (mido cannot iterate; merged tempo map used) | {len(type2)} |')
    add(f'| SMPTE among compared (mido ignores SMPTE; fps*tpf used) | {len(smpte)} |')
    add(f'| worst seconds error among matches | {worst:.3g} s |')
    writer = [r for r in compared if r.get('writer')]
    for form in ('full', 'compact'):
        checked = [r for r in writer if form in r['writer']]
        same = [r for r in checked if r['writer'][form] == 'same']
        add(f'| writer: etude\'s {form} JSON → `json2midi` → mido reads the same notes | {len(same)} / {len(checked)} |')
    checked = [r for r in writer if 'events' in r['writer']]
    same = [r for r in checked if r['writer']['events'] == 'same']
    add(f'| writer: `midi-repair` rewrite → mido reads the same messages, track by track | {len(same)} / {len(checked)} |')
    add('')
    add('Match = same multiset of (track, channel, pitch, ticks, durationTicks), same velocities, '
        f'times and durations within {TOLERANCE:g} s, same unreleased count and track count.')
    add('')
    types = collections.Counter(r.get('type') for r in compared)
    def having(name):
        return sum(1 for r in compared if r.get('stats', {}).get(name))
    add(f'Corpus coverage (compared files): type 0: {types.get(0, 0)}, type 1: {types.get(1, 0)}, type 2: {types.get(2, 0)}; '
        f'with tempo changes: {sum(1 for r in compared if r.get("stats", {}).get("tempo_events", 0) > 1)}; '
        f'with tempo events outside the first track: {having("tempo_outside_first_track")}; '
        f'with a pitch re-struck while held (FIFO matters): {having("overlapping_note_ons")}; '
        f'with note-on velocity 0 as note-off: {having("note_on_velocity_0_offs")}; '
        f'with unreleased notes: {sum(1 for r in compared if r.get("unreleased"))}.')
    add('')
    add('Corpus by source: ' + ', '.join(f'{name} {count}' for name, count in sorted(sources.items())) + '.')
    add('')
    if classes:
        add('## Mismatch classes')
        add('')
        for name, items in sorted(classes.items(), key=lambda kv: -len(kv[1])):
            add(f'### {name} ({len(items)} files)')
            add('')
            for file, detail in items[:5]:
                add(f'- `{file}`: `{json.dumps(detail, default=str)[:600]}`')
            add('')
    writer_failures = [(r['file'], form, outcome) for r in writer for form, outcome in r['writer'].items() if outcome != 'same']
    if writer_failures:
        add('## Writer round-trip failures')
        add('')
        for file, form, outcome in writer_failures[:15]:
            add(f'- `{file}` ({form}): {outcome[:300]}')
        add('')
    if only_ours:
        add('## Files only etude reads')
        add('')
        add('| file | mido error | etude warnings | sample |')
        add('| --- | --- | ---: | --- |')
        for r in only_ours:
            add(f'| `{r["file"]}` | {r["mido_error"][:120]} | {r.get("warnings", 0)} | {"; ".join(r.get("warning_sample", []))[:200]} |')
        add('')
    if only_mido or neither:
        add('## Files etude rejects')
        add('')
        for r in only_mido + neither:
            add(f'- `{r["file"]}`: etude `{r.get("etude_error", "")[:200]}`; mido `{r.get("mido_error", "ok")[:120]}`')
        add('')
    if crashes:
        add('## Crashes')
        add('')
        for r in crashes:
            add(f'- `{r["file"]}` ({r["etude"]}): `{r.get("etude_error", "")[:400]}`')
        add('')
    warned = [r for r in compared if r.get('warning_sample')]
    if warned:
        add(f'## Files read with repairs (etude warnings other than unreleased notes): {len(warned)}')
        add('')
        for r in warned[:15]:
            add(f'- `{r["file"]}` ({"match" if r["match"] else "mismatch"}): {"; ".join(r["warning_sample"])[:300]}')
        add('')
    if timing and timing['files']:
        t = timing
        add('## Timing')
        add('')
        add(f'{t["files"]} files read by both ({t["bytes"] / 1e6:.2f} MB), best of 3 per file, on this machine (2 cores, shared).')
        add('')
        add('| measure | total over corpus | per-file median |')
        add('| --- | ---: | ---: |')
        add(f'| mido `MidiFile(path)` (parse only) | {fmt_ms(sum(t["mido_parse"]))} | {fmt_ms(statistics.median(t["mido_parse"]))} |')
        add(f'| mido parse + FIFO pairing + seconds (`mido_notes`) | {fmt_ms(sum(t["mido_full"]))} | {fmt_ms(statistics.median(t["mido_full"]))} |')
        add(f'| `etude midi2json` process (parse + full JSON + write) | {fmt_ms(sum(t["etude"]))} | {fmt_ms(statistics.median(t["etude"]))} |')
        net = [max(0.0, x - t['baseline']) for x in t['etude']]
        add(f'| `etude midi2json` minus process start ({fmt_ms(t["baseline"])} on a 26-byte file) | {fmt_ms(sum(net))} | {fmt_ms(statistics.median(net))} |')
        add('')
        add('The last row subtracts the process start-up (the same command on an empty one-track file); '
            'what remains is parse, building the document, JSON encoding and printing.')
        add('')
        swift = t.get('swift')
        if swift:
            parse = swift.get('MIDI parse corpus')
            notes_time = swift.get('MIDI notes corpus')
            add('In-process, same files, one pass over the corpus (Swift: median of the `MIDIJSONBenchmarks` '
                'runs in a release build; mido: the sum of each file\'s best of 3):')
            add('')
            add('| work | mido | etude | mido / etude |')
            add('| --- | ---: | ---: | ---: |')
            if parse:
                add(f'| parse (bytes to events) | {fmt_ms(sum(t["mido_parse"]))} | {fmt_ms(parse)} | {sum(t["mido_parse"]) / parse:.0f}x |')
            if notes_time:
                add(f'| parse + FIFO note pairing + seconds | {fmt_ms(sum(t["mido_full"]))} | {fmt_ms(notes_time)} | {sum(t["mido_full"]) / notes_time:.0f}x |')
            add('')
    add('## Per-file results')
    add('')
    add('Per-file details (mido errors, problems, timings) are in `work/results.json` after a run.')
    add('')
    with open(args.results, 'w') as f:
        f.write('\n'.join(lines))
    with open(os.path.join(HERE, 'work', 'results.json'), 'w') as f:
        json.dump({'records': records, 'timing': timing}, f, indent=1, default=str)

    # Console summary
    print('\n'.join(lines[:lines.index('## Per-file results')]))


def _mido_version():
    try:
        from importlib.metadata import version
        return version('mido')
    except Exception:  # noqa: BLE001
        return 'unknown'


if __name__ == '__main__':
    main()
