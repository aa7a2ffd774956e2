#!/usr/bin/env python3
"""Run `etude grade` and the two reference graders on every take of the set, score them against
the truth files, and write results.md and work/results.json.

Usage: python3 Evaluation/grading/evaluate.py [--quick] [--data DIR] [--results FILE] [--etude PATH]
                                              [--graders etude,ref2018,refdp] [--jobs N] [--reuse]

--data DIR     a set other than work/data (e.g. the holdout set work/data-holdout, rendered with
               another soundfont). Its graders' answers go to work/out-NAME/ and its results to
               work/results-NAME.md and .json (NAME: the folder's name without "data-"), never to
               results.md, which belongs to the main set work/data.
--results FILE where the markdown goes instead (e.g. Evaluation/grading/results-holdout.md); the
               JSON goes to work/STEM.json.

--etude PATH   the etude binary; "" = not available. Etude is "not available" (not a failed
               run) when the binary is missing or has no `grade` command; a take on which
               `etude grade` exits non-zero is a failure and counts as an empty answer.
--reuse        re-score the graders' saved outputs (work/out/) without running them again.
With --quick the set is work/data-quick, the answers go to work/out-quick/ and the results to
work/results-quick.{md,json}.
The matching rules are in README.md ("How a grade is matched to the truth").
"""

import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (DURATION_FLAGS, HERE, NOT_A_FLAG, PITCH_FLAGS, TIMING_FLAGS,  # noqa: E402
                    WORK)

GRADERS = {'etude': 'Etude (`etude grade`)', 'ref2018': 'reference, 2018 rules (Python + aubio)',
           'refdp': 'reference, DP alignment + narrow zones'}
SUB = ['early', 'late', 'short', 'long', 'flat', 'sharp', 'wrongNote', 'octave', 'upperPartial',
       'lowerPartial', 'missed']
DIMS = {'timing': ['early', 'late'], 'duration': ['short', 'long'],
        'pitch': ['flat', 'sharp', 'wrongNote', 'octave', 'upperPartial', 'lowerPartial'],
        'presence': ['missed']}
DIM_OF = {c: d for d, cs in DIMS.items() for c in cs}
COMBINED = {'timing': ['early', 'late'], 'duration': ['short', 'long'],
            'intonation': ['flat', 'sharp'], 'partial': ['upperPartial', 'lowerPartial']}
RENDER_TOL_CENTS = 10.0     # intonation is not scored where the render is off by more than this
EXTRA_SLACK_S = 0.10
WRONG_NOTE_OK_CENTS = 55.0  # a note detuned this far may be called a wrong note (nearest semitone)
TARGETS = [('any error F1', 'any', '>= 0.98'), ('intonation F1', 'intonation', '>= 0.95'),
           ('partial F1', 'partial', '= 1.0'), ('missed F1', 'missed', '>= 0.90'),
           ('extra F1', 'extra', '>= 0.90'),
           ('timing F1 under tempo drift (local rating)', 'driftTiming', '>= 0.85'),
           ('top-ranked issue is a real error', 'topIssue', '>= 0.98'),
           ('onset mean absolute error, correct notes (ms)', 'onsetMae', '<= 10'),
           ('cents mean absolute error, correct or detuned notes', 'centsMae', '<= 3'),
           ('CPU seconds to grade a 3-minute take', 'cpu3min', '< 1')]


# ------------------------------------------------------------------------------------------------
# Running the graders
# ------------------------------------------------------------------------------------------------

def run_timed(cmd, timeout=300):
    """Run cmd; returns (rc, stdout, stderr, cpu seconds of the child, wall seconds)."""
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return -9, out.decode(errors='replace'), 'timeout after %d s' % timeout, None, time.time() - t0
    # communicate() reaped the child; its rusage is in RUSAGE_CHILDREN of this worker, so take
    # the difference around the call instead.
    return p.returncode, out.decode(errors='replace'), err.decode(errors='replace'), None, time.time() - t0


def child_cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def etude_cmd(etude, take_dir, truth, report=None):
    cmd = [etude, 'grade', '--score', os.path.join(take_dir, 'score.musicxml'),
           '--audio', os.path.join(take_dir, 'take.wav'), '--instrument', truth['instrument'],
           '--latency-ms', '%g' % truth['latencyMs'], '--criterion', 'overall']
    if report:
        cmd += ['--report', report]
    return cmd


def run_one(grader, take_dir, out_path, etude):
    truth = json.load(open(os.path.join(take_dir, 'truth.json')))
    rec = dict(take=truth['take'], grader=grader)
    if grader == 'etude':
        cmd = etude_cmd(etude, take_dir, truth)
        c0 = child_cpu()
        rc, out, err, _, wall = run_timed(cmd)
        rec.update(cmd=' '.join(cmd), rc=rc, stderr=err[-2000:], cpu=child_cpu() - c0, wall=wall)
        if rc == 0:
            try:
                rec['output'] = json.loads(out)
            except ValueError as e:
                rec.update(rc=-1, stderr='output is not JSON: %s; %s' % (e, out[:300]))
    else:
        import ref_grader
        t0, w0 = time.process_time(), time.time()
        try:
            rec['output'] = ref_grader.grade(ref_grader.score_view(truth),
                                             os.path.join(take_dir, 'take.wav'),
                                             truth['instrument'], truth['latencyMs'],
                                             'dp' if grader == 'refdp' else '2018')
            rec['rc'] = 0
        except Exception as e:      # noqa: BLE001 - a failure is reported, not raised
            rec.update(rc=-1, stderr=repr(e))
        rec.update(cpu=time.process_time() - t0, wall=time.time() - w0)
    with open(out_path, 'w') as fh:
        json.dump(rec, fh)
    return rec


def etude_status(etude):
    if not etude:
        return False, 'no etude binary (the build failed or --etude "" was given)'
    if not os.path.exists(etude):
        return False, 'no etude binary at %s' % etude
    rc, out, err, _, _ = run_timed([etude, 'grade', '--help'], timeout=60)
    if rc != 0 or '--score' not in out + err:
        first = (err or out).strip().splitlines()
        return False, ('the binary has no `grade` command (`etude grade --help` exits %d and does '
                       'not list --score: "%s")' % (rc, first[0] if first else ''))
    return True, 'etude grade available (%s)' % etude


def score_check(etude, take_dir, truth):
    """Compare `etude score` with the truth's note list; returns (agrees, map etude index ->
    truth index, message)."""
    rc, out, err, _, _ = run_timed([etude, 'score', os.path.join(take_dir, 'score.musicxml')], 60)
    if rc != 0:
        return None, None, 'etude score failed: %s' % err.strip()[:200]
    notes = json.loads(out)['notes']
    tn = truth['notes']
    key = {(Fraction(n['onsetQuarters']), n['isRest'], n.get('writtenPitch')): n['index'] for n in tn}
    mapping, same = {}, len(notes) == len(tn)
    for i, n in enumerate(notes):
        k = (Fraction(n['onsetQuarters']), n['isRest'], n['writtenPitch'])
        if k in key:
            mapping[i] = key[k]
        if i >= len(tn):
            same = False
            continue
        t = tn[i]
        ok = (Fraction(n['onsetQuarters']) == Fraction(t['onsetQuarters'])
              and Fraction(n['durationQuarters']) == Fraction(t['durationQuarters'])
              and n['isRest'] == t['isRest'] and n['measure'] == t['measure']
              and abs(n['onsetSeconds'] - t['onsetSeconds']) < 1e-6
              and (t['isRest'] or (n['writtenPitch'] == t['writtenPitch']
                                   and n['soundingPitch'] == t['soundingPitch']
                                   and n['isTied'] == t['tied'])))
        same = same and ok
    return same, mapping, ''


# ------------------------------------------------------------------------------------------------
# Scoring
# ------------------------------------------------------------------------------------------------

def truth_labels(tn):
    """{category: 'pos' | 'neg' | 'dc'} for one pitched score note (README: matching rules)."""
    lab = {c: 'neg' for c in SUB}
    e = tn['error']
    reason = None
    if e is not None:
        t = e['type']
        if t == 'missed':
            for c in SUB:
                lab[c] = 'dc'
            lab['missed'] = 'pos'
        elif tn['subThreshold']:
            dim = 'timing' if t in ('early', 'late') else 'pitch'
            for c in (DIMS['timing'] if dim == 'timing' else ['flat', 'sharp']):
                lab[c] = 'dc'
            if dim == 'timing':
                lab['short'] = lab['long'] = 'dc'
            reason = 'sub'
        else:
            if t == 'detune':
                cat = 'sharp' if e['cents'] > 0 else 'flat'
            elif t == 'partial':
                cat = e['direction'] + 'Partial'
            else:
                cat = t
            for c in DIMS[DIM_OF[cat]]:
                lab[c] = 'dc'
            lab[cat] = 'pos'
            if t in ('early', 'late'):        # the whole note moved: its duration is not judged
                lab['short'] = lab['long'] = 'dc'
    if 'duration' in tn['dontCare']:
        for c in ('short', 'long'):
            if lab[c] == 'neg':
                lab[c] = 'dc'
        reason = reason or 'side'
    p = tn.get('performed')
    if p and p.get('renderedCents') is not None and abs(p['renderedCents'] - p['cents']) > RENDER_TOL_CENTS:
        for c in ('flat', 'sharp'):
            if lab[c] == 'neg' or (lab[c] == 'pos' and e and e['type'] == 'detune'):
                lab[c] = 'dc'
        reason = reason or 'render'
    if any(v == 'pos' for v in lab.values()):
        lab['any'] = 'pos'
    elif reason:
        lab['any'] = 'dc'
    else:
        lab['any'] = 'neg'
    return lab


def pred_flags(gn, local):
    """{category: bool} from one note of a grader's answer (None: the note is not in it)."""
    f = {c: False for c in SUB + ['any']}
    if gn is None:
        return f
    if gn.get('status') == 'missed':
        f['missed'] = f['any'] = True
        return f
    timing = gn.get('timing') or {}
    tr = timing.get('localRating', timing.get('rating')) if local else timing.get('rating')
    dr = (gn.get('duration') or {}).get('rating')
    pr = (gn.get('pitch') or {}).get('rating')
    for c, s in TIMING_FLAGS.items():
        f[c] = tr in s
    for c, s in DURATION_FLAGS.items():
        f[c] = dr in s
    for c, s in PITCH_FLAGS.items():
        f[c] = pr in s
    f['missed'] = 'missed' in (tr, dr, pr)
    f['any'] = any(r not in NOT_A_FLAG for r in (tr, dr, pr))
    return f


class Counts:
    def __init__(self):
        self.c = {}

    def add(self, cat, lab, pred):
        tp, fp, fn = self.c.get(cat, (0, 0, 0))
        if lab == 'pos':
            tp, fn = tp + pred, fn + (not pred)
        elif lab == 'neg':
            fp += pred
        self.c[cat] = (tp, fp, fn)

    def get(self, cat):
        if cat in COMBINED:
            parts = [self.c.get(c, (0, 0, 0)) for c in COMBINED[cat]]
            return tuple(sum(p[i] for p in parts) for i in range(3))
        return self.c.get(cat, (0, 0, 0))

    def prf(self, cat):
        tp, fp, fn = self.get(cat)
        p = tp / (tp + fp) if tp + fp else None
        r = tp / (tp + fn) if tp + fn else None
        f = (2 * tp / (2 * tp + fp + fn)) if (2 * tp + fp + fn) else None
        return dict(tp=tp, fp=fp, fn=fn, precision=p, recall=r, f1=f)


def match_extras(truth, out, counts):
    """Truth extra notes against the answer's extraSounds and rests rated soundDuringRest."""
    extras = truth['extras']
    preds = [dict(on=x.get('onsetSeconds'), off=x.get('offsetSeconds') or x.get('onsetSeconds'),
                  used=False) for x in (out or {}).get('extraSounds', []) or []
             if x.get('onsetSeconds') is not None]
    rest_flags = set()
    rests = {n['index'] for n in truth['notes'] if n['isRest']}
    for gn in (out or {}).get('notes', []) or []:
        if gn.get('index') in rests and any(
                (gn.get(k) or {}).get('rating') == 'soundDuringRest' for k in ('timing', 'duration', 'pitch', 'rest')):
            rest_flags.add(gn['index'])
    # "don't care" windows: a note played too long rings into the rest after it
    dc_windows, dc_rests = [], set()
    notes = truth['notes']
    for k, n in enumerate(notes):
        if n.get('error') and n['error']['type'] == 'long' and n.get('performed'):
            dc_windows.append((n['onsetSeconds'] + n['durationSeconds'] - 0.1,
                               n['performed']['offsetSeconds'] + 0.3))
            if k + 1 < len(notes) and notes[k + 1]['isRest']:
                dc_rests.add(notes[k + 1]['index'])
    used_rests = set()
    for x in extras:
        hit = False
        for p in preds:
            if (p['on'] <= x['offsetSeconds'] + EXTRA_SLACK_S and p['off'] >= x['onsetSeconds'] - EXTRA_SLACK_S):
                if not hit:
                    hit = True
                p['used'] = True      # a second piece of the same extra is neither hit nor false alarm
        if not hit and x['restIndex'] in rest_flags:
            hit = True
        if x['restIndex'] in rest_flags:
            used_rests.add(x['restIndex'])
        counts.add('extra', 'pos', hit)
    for p in preds:
        if p['used']:
            continue
        if any(a <= p['on'] <= b for a, b in dc_windows):
            continue
        counts.add('extra', 'neg', True)
    for r in rest_flags - used_rests - dc_rests:
        counts.add('extra', 'neg', True)


def magnitude_key(e):
    t = e['type']
    if t in ('early', 'late'):
        return '%s %d ms' % (t, e['ms'])
    if t == 'detune':
        return 'detuned %+d cents' % e['cents']
    if t in ('short', 'long'):
        return '%s (ratio %.1f)' % (t, e['ratio'])
    if t == 'wrongNote':
        return 'wrong note %+d' % e['semitones']
    if t == 'octave':
        return 'octave %+d' % e['semitones']
    if t == 'partial':
        return '%s partial' % e['direction']
    return t


def hit_for(e, f):
    t = e['type']
    if t == 'detune':
        return f['sharp'] if e['cents'] > 0 else f['flat']
    if t == 'partial':
        return f[e['direction'] + 'Partial']
    return f[t]


def score_grader(takes, answers, mappings):
    """All figures for one grader. takes: [(take dir, truth)], answers: {take: record}."""
    overall = Counts()
    by = {}                   # (group kind, group value) -> Counts
    drift_local, drift_abs = Counts(), Counts()
    mags = {}                 # magnitude -> [hits, total]
    sub_flag = {}             # sub-threshold magnitude -> [flagged in its dimension, total]
    onset_err, onset_err_noteon, cents_err, cents_err_int, cents60 = [], [], [], [], []
    onset_by_inst = {}
    cents_by_inst = {}
    top = [0, 0]
    clean_takes = [0, 0, 0]   # takes, takes without any flag, notes flagged
    clean_notes = 0
    failures, absent, cpu, on_rests = [], 0, [], 0
    for take_dir, truth in takes:
        name = truth['take']
        rec = answers.get(name)
        out = rec.get('output') if rec and rec.get('rc') == 0 else None
        if rec and rec.get('rc') != 0:
            failures.append((name, rec.get('rc'), (rec.get('stderr') or '').strip()[:200]))
        if rec and rec.get('cpu') is not None:
            cpu.append((rec['cpu'], truth['audioSeconds']))
        mp = mappings.get(name)
        gnotes = {}
        for gn in (out or {}).get('notes', []) or []:
            idx = gn.get('index')
            if mp is not None:
                idx = mp.get(idx, -1 - (idx or 0))
            gnotes[idx] = gn
        rest_idx = {n['index'] for n in truth['notes'] if n['isRest']}
        on_rests += sum(1 for i in gnotes if i in rest_idx)
        drift = truth['condition'] == 'drift'
        groups = [('condition', truth['condition']), ('instrument', truth['instrument']),
                  ('kind', truth['kind'])]
        cs = [by.setdefault(g, Counts()) for g in groups]
        take_flags = 0
        any_pos = False
        labels = {}
        for tn in truth['notes']:
            if tn['isRest']:
                continue
            gn = gnotes.get(tn['index'])
            if out is not None and gn is None:
                absent += 1
            lab = truth_labels(tn)
            labels[tn['index']] = lab
            f = pred_flags(gn, local=drift)
            e = tn['error']
            if e and e['type'] == 'detune' and abs(e['cents']) >= WRONG_NOTE_OK_CENTS and f['wrongNote']:
                # 60 cents off is nearer the next semitone: "wrong note" is a right answer too
                f['sharp' if e['cents'] > 0 else 'flat'] = True
            any_pos |= lab['any'] == 'pos'
            take_flags += f['any']
            for c in SUB + ['any']:
                overall.add(c, lab[c], f[c])
                for cc in cs:
                    cc.add(c, lab[c], f[c])
            if drift:
                fa = pred_flags(gn, local=False)
                for c in ('early', 'late'):
                    drift_local.add(c, lab[c], f[c])
                    drift_abs.add(c, lab[c], fa[c])
            if e and e['type'] != 'missed':
                m = magnitude_key(e)
                if tn['subThreshold']:
                    dim = ('early', 'late') if e['type'] in ('early', 'late') else ('flat', 'sharp')
                    s = sub_flag.setdefault(m, [0, 0])
                    s[0] += any(f[c] for c in dim)
                    s[1] += 1
                else:
                    s = mags.setdefault(m, [0, 0])
                    s[0] += hit_for(e, f)
                    s[1] += 1
            # measurement errors
            p = tn.get('performed')
            if gn is not None and gn.get('status') == 'played' and p:
                clean = e is None and not tn['dontCare']
                if clean and gn.get('onsetSeconds') is not None:
                    err = (gn['onsetSeconds'] - p['onsetSeconds']) * 1000
                    onset_err.append(err)
                    onset_err_noteon.append((gn['onsetSeconds'] - p['noteOnSeconds']) * 1000)
                    onset_by_inst.setdefault(truth['instrument'], []).append(err)
                pc = (gn.get('pitch') or {}).get('cents')
                pitch_ok = e is None or e['type'] in ('early', 'late', 'short', 'long') or (
                    e['type'] == 'detune' and abs(e['cents']) <= 45)
                if pc is not None and pitch_ok:
                    ref = p['renderedCents'] if p.get('renderedCents') is not None else p['cents']
                    cents_err.append(pc - ref)
                    cents_err_int.append(pc - p['cents'])
                    cents_by_inst.setdefault(truth['instrument'], []).append(pc - ref)
                elif pc is not None and e and e['type'] == 'detune':
                    cents60.append(pc - p['cents'])
        match_extras(truth, out, overall)
        for cc in cs:
            match_extras(truth, out, cc)
        # top-ranked issue
        if any_pos or truth['extras']:
            top[1] += 1
            issues = (out or {}).get('issues') or []
            if issues:
                i0 = issues[0].get('index')
                if mp is not None:
                    i0 = mp.get(i0, -1)
                real = (i0 in labels and labels[i0]['any'] == 'pos') or any(
                    x['restIndex'] == i0 for x in truth['extras'])
                top[0] += bool(real) and issues[0].get('rating') not in NOT_A_FLAG
        if truth['kind'] == 'clean':
            clean_takes[0] += 1
            extras_n = len((out or {}).get('extraSounds') or [])
            clean_takes[1] += (take_flags == 0 and extras_n == 0)
            clean_takes[2] += take_flags
            clean_notes += sum(1 for n in truth['notes'] if not n['isRest'])

    def stats(v):
        v = np.asarray(v, float)
        if not len(v):
            return None
        a = np.abs(v)
        return dict(n=int(len(v)), mae=float(a.mean()), median=float(np.median(v)),
                    p90abs=float(np.percentile(a, 90)), over50=int((a > 50).sum()),
                    maeWithin50=float(a[a <= 50].mean()) if (a <= 50).any() else None)

    res = dict(overall={c: overall.prf(c) for c in SUB + list(COMBINED) + ['any', 'extra']},
               by={'%s=%s' % g: {c: cnt.prf(c) for c in ['any', 'timing', 'duration', 'intonation',
                                                          'wrongNote', 'octave', 'partial', 'missed',
                                                          'extra']}
                   for g, cnt in sorted(by.items())},
               driftTiming=drift_local.prf('timing'), driftTimingAbsolute=drift_abs.prf('timing'),
               magnitudes={k: dict(hits=v[0], total=v[1]) for k, v in sorted(mags.items())},
               subThreshold={k: dict(flagged=v[0], total=v[1]) for k, v in sorted(sub_flag.items())},
               onset=stats(onset_err), onsetVsNoteOn=stats(onset_err_noteon),
               onsetByInstrument={k: stats(v) for k, v in sorted(onset_by_inst.items())},
               cents=stats(cents_err), centsVsIntended=stats(cents_err_int),
               centsByInstrument={k: stats(v) for k, v in sorted(cents_by_inst.items())},
               cents60=stats(cents60),
               topIssue=dict(real=top[0], takes=top[1], rate=top[0] / top[1] if top[1] else None),
               cleanTakes=dict(takes=clean_takes[0], withoutFlag=clean_takes[1],
                               notesFlagged=clean_takes[2], notes=clean_notes),
               failures=failures, absentNotes=absent, entriesOnRests=on_rests,
               cpu=dict(perTakeMean=float(np.mean([c for c, _ in cpu])) if cpu else None,
                        perTakeMax=float(np.max([c for c, _ in cpu])) if cpu else None,
                        perAudioSecond=(sum(c for c, _ in cpu) / sum(a for _, a in cpu)) if cpu else None,
                        takes=len(cpu)))
    return res


# ------------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------------

def f3(x):
    return '—' if x is None else '%.3f' % x


def f1d(x):
    return '—' if x is None else '%.1f' % x


def headline_value(res, key):
    if res is None:
        return None
    if key in ('any', 'intonation', 'partial', 'missed', 'extra'):
        return res['overall'][key]['f1']
    if key == 'driftTiming':
        return res['driftTiming']['f1']
    if key == 'topIssue':
        return res['topIssue']['rate']
    if key == 'onsetMae':
        return res['onset']['mae'] if res['onset'] else None
    if key == 'centsMae':
        return res['cents']['mae'] if res['cents'] else None
    if key == 'cpu3min':
        return res.get('cpu3min')
    return None


def fmt_head(key, v):
    if v is None:
        return '—'
    if key in ('onsetMae', 'centsMae'):
        return '%.1f' % v
    if key == 'cpu3min':
        return '%.3f s' % v
    return '%.3f' % v


def write_report(path, ctx, results, names):
    L = []
    w = L.append
    w('# Grading evaluation: `etude grade` against injected errors\n')
    w('Generated by `%s` on %s; the whole run took %s. Set: `%s` (%d takes, %.0f s of audio, %d '
      'score notes of which %d carry an injected error, %d extra notes%s), rendered with `%s`. See '
      '[README.md](README.md) for the set, the injection rules, the truth format and the matching '
      'rules.\n'
      % (ctx['command'], ctx['date'], ctx['runTime'], ctx['data'], ctx['takes'], ctx['audioSeconds'],
         ctx['notes'], ctx['errors'], ctx['extras'],
         '; one more 3-minute take only for the CPU figure' if ctx.get('longTakes', 1) else
         '; no 3-minute take, so no CPU figure for it', ctx.get('soundfont', 'FluidR3_GM.sf2')))
    w('**Etude: %s.** %s\n' % ('available' if ctx['etudeAvailable'] else 'not available',
                               ctx['etudeMessage']))
    cols = [g for g in names]
    w('## Targets (issue 7)\n')
    w('| figure | target | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
    w('|---|---|' + '---:|' * len(cols))
    for label, key, target in TARGETS:
        w('| %s | %s | ' % (label, target)
          + ' | '.join(fmt_head(key, headline_value(results.get(g), key)) for g in cols) + ' |')
    w('')
    w('The 2018-rules reference is the baseline; the DP reference (same analysis, order-preserving '
      'alignment, local tempo, narrow cents zones, articulation-aware durations; parameters chosen '
      'up front) is a check that the set\'s errors can be found by simple means, not a target.\n')
    w('"—": not measured (the grader is not available or the figure has no data). Onset error: '
      'on notes without any injected error, against the audible onset (note-on + fluidsynth\'s '
      'measured lag); cents error: on notes whose pitch is correct or detuned by 15-45 cents, '
      'against the pitch measured in the render.\n')
    w('## Per category: precision / recall / F1 (TP, FP, FN)\n')
    w('| category | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
    w('|---|' + '---|' * len(cols))
    cats = ['any', 'timing', 'early', 'late', 'duration', 'short', 'long', 'intonation', 'flat',
            'sharp', 'wrongNote', 'octave', 'partial', 'upperPartial', 'lowerPartial', 'missed',
            'extra']
    for c in cats:
        row = []
        for g in cols:
            r = results.get(g)
            if r is None:
                row.append('—')
                continue
            x = r['overall'][c]
            row.append('%s / %s / **%s** (%d, %d, %d)' % (f3(x['precision']), f3(x['recall']),
                                                         f3(x['f1']), x['tp'], x['fp'], x['fn']))
        w('| %s | %s |' % (c, ' | '.join(row)))
    w('')
    w('Timing on the drift takes is judged with the grader\'s local (tempo-relative) rating; the '
      'absolute rating on the same notes gives: '
      + '; '.join('%s F1 %s (P %s, R %s)' % (g, f3(results[g]['driftTimingAbsolute']['f1']),
                                               f3(results[g]['driftTimingAbsolute']['precision']),
                                               f3(results[g]['driftTimingAbsolute']['recall']))
                  for g in cols if results.get(g)) + '.\n')
    w('## F1 by condition, instrument and kind of take\n')
    groups = sorted({k for g in cols if results.get(g) for k in results[g]['by']})
    show = ['any', 'timing', 'duration', 'intonation', 'wrongNote', 'octave', 'partial', 'missed',
            'extra']
    for g in cols:
        r = results.get(g)
        if r is None:
            continue
        w('**%s**\n' % GRADERS[g])
        w('| group | ' + ' | '.join(show) + ' |')
        w('|---|' + '---:|' * len(show))
        for k in groups:
            w('| %s | %s |' % (k, ' | '.join(f3(r['by'][k][c]['f1']) for c in show)))
        w('')
    w('## Detection by injected magnitude (recall in the injected category, right direction)\n')
    mk = sorted({k for g in cols if results.get(g) for k in results[g]['magnitudes']})
    w('| injected | notes | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
    w('|---|---:|' + '---:|' * len(cols))
    for k in mk:
        tot = next(results[g]['magnitudes'][k]['total'] for g in cols if results.get(g))
        w('| %s | %d | %s |' % (k, tot, ' | '.join(
            f3(results[g]['magnitudes'][k]['hits'] / max(1, results[g]['magnitudes'][k]['total']))
            if results.get(g) else '—' for g in cols)))
    sk = sorted({k for g in cols if results.get(g) for k in results[g]['subThreshold']})
    if sk:
        w('\nSub-threshold injections ("don\'t care" in every F1): share flagged in their dimension.\n')
        w('| injected | notes | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
        w('|---|---:|' + '---:|' * len(cols))
        for k in sk:
            tot = next(results[g]['subThreshold'][k]['total'] for g in cols if results.get(g))
            w('| %s | %d | %s |' % (k, tot, ' | '.join(
                f3(results[g]['subThreshold'][k]['flagged'] / max(1, results[g]['subThreshold'][k]['total']))
                if results.get(g) else '—' for g in cols)))
    w('\n## Measurement errors\n')
    w('| figure | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
    w('|---|' + '---|' * len(cols))

    def srow(label, key, unit=''):
        vals = []
        for g in cols:
            r = results.get(g)
            s = r.get(key) if r else None
            vals.append('—' if not s else 'MAE %.1f%s, median %+.1f, p90 %.1f; %d of %d over 50 '
                        '(MAE without them %s)' % (s['mae'], unit, s['median'], s['p90abs'],
                                                   s['over50'], s['n'], f1d(s['maeWithin50'])))
        w('| %s | %s |' % (label, ' | '.join(vals)))
    srow('onset error vs audible onset (ms), notes without error', 'onset')
    srow('onset error vs MIDI note-on (ms)', 'onsetVsNoteOn')
    srow('cents error vs rendered pitch', 'cents')
    srow('cents error vs intended pitch', 'centsVsIntended')
    srow('cents error on notes detuned by 60 (vs intended)', 'cents60')
    for inst in ('trumpet', 'flute', 'violin'):
        vals = []
        for g in cols:
            r = results.get(g)
            o = r['onsetByInstrument'].get(inst) if r else None
            c = r['centsByInstrument'].get(inst) if r else None
            vals.append('—' if not (o or c) else 'onset MAE %s ms, cents MAE %s' % (
                f1d(o['mae'] if o else None), f1d(c['mae'] if c else None)))
        w('| %s | %s |' % (inst, ' | '.join(vals)))
    w('\n## Clean takes, ranking, failures, CPU\n')
    w('| figure | ' + ' | '.join(GRADERS[g] for g in cols) + ' |')
    w('|---|' + '---|' * len(cols))
    rows = [
        ('clean takes with no flag and no extra sound',
         lambda r: '%d of %d' % (r['cleanTakes']['withoutFlag'], r['cleanTakes']['takes'])),
        ('notes flagged in clean takes',
         lambda r: '%d of %d' % (r['cleanTakes']['notesFlagged'], r['cleanTakes']['notes'])),
        ('top-ranked issue is a real error',
         lambda r: '%d of %d takes' % (r['topIssue']['real'], r['topIssue']['takes'])),
        ('takes that failed (non-zero exit)', lambda r: '%d' % len(r['failures'])),
        ('score notes missing from the answer', lambda r: '%d' % r['absentNotes']),
        ('answer entries whose index is a rest (fine if they are rests\' own ratings)',
         lambda r: '%d' % r['entriesOnRests']),
        ('CPU s per take (mean / max)', lambda r: '%.3f / %.3f' % (r['cpu']['perTakeMean'], r['cpu']['perTakeMax'])
         if r['cpu']['perTakeMean'] is not None else '—'),
        ('CPU s per audio second', lambda r: '%.4f' % r['cpu']['perAudioSecond']
         if r['cpu']['perAudioSecond'] is not None else '—'),
        ('CPU s, 3-minute take', lambda r: ('%.3f (%.0f s of audio)' % (r['cpu3min'], r['cpu3minAudio']))
         if r.get('cpu3min') is not None else '—'),
    ]
    for label, fn in rows:
        w('| %s | %s |' % (label, ' | '.join(fn(results[g]) if results.get(g) else '—' for g in cols)))
    w('')
    rep = (results.get('etude') or {}).get('report')
    if rep:
        w('`--report` smoke test on %s: %s.\n' % (rep['take'], 'wrote %d bytes of HTML' % rep['bytes']
                                                   if rep['ok'] else 'failed: %s' % rep['error']))
    w('Etude runs as `etude grade --score TAKE/score.musicxml --audio TAKE/take.wav --instrument '
      'NAME --latency-ms L --criterion overall` (L = 40 on the latency takes, 0 elsewhere); its '
      'output is read from stdout.\n')
    w('CPU: Etude is timed as a process (user + system of `etude grade`, process start included); '
      'the reference graders in process (`time.process_time()` around its grade call, Python '
      'start-up and imports excluded). 2 worker processes ran at once.\n')
    for g in cols:
        r = results.get(g)
        if r and r['failures']:
            w('%s failures (first 5): %s\n' % (GRADERS[g], '; '.join(
                '%s exit %s: %s' % f for f in r['failures'][:5])))
    w('## The renders (checked)\n')
    w(ctx['renderCheck'] + '\n')
    w('## Index mapping\n')
    w(ctx['indexCheck'] + '\n')
    with open(path, 'w') as fh:
        fh.write('\n'.join(L))


def render_check_text(data_dir, takes):
    cal = json.load(open(os.path.join(data_dir, 'calibration.json')))['instruments']
    man = json.load(open(os.path.join(data_dir, 'manifest.json')))
    sf2 = os.path.basename(man.get('soundfont') or 'FluidR3_GM.sf2')
    presets = man.get('presets') or {}
    rows = ['Soundfont `%s`%s.\n' % (sf2, (', bank-0 presets ' + ', '.join(
                '%s %s' % (inst, repr(name)) for inst, name in presets.items())) if presets else ''),
            '| instrument | soundfont tuning (cents from ET), all keys x 4 velocities | onset lag, isolated notes (median, range) | rise to -12 dB (median) | release after note-off to -20 / -40 dB (median) | rendered notes checked | \\|rendered - intended\\| median / p95 / max (cents) | notes off by > 10 cents | onset lag in the takes (median, range) |',
            '|---|---|---|---:|---|---:|---|---:|---|']
    for inst, c in cal.items():
        tun = np.array(list(c['tuning'].values()))
        dev = np.array([r['dev'] for t in man['takes'] if t['instrument'] == inst
                        for r in t['checks'] if 'dev' in r])
        lag = np.array([r['lagMs'] for t in man['takes'] if t['instrument'] == inst
                        for r in t['checks'] if 'lagMs' in r])
        rows.append('| %s | median %+.1f, %+.1f..%+.1f (compensated by pitch bend) | %.1f ms, %.1f-%.1f | %.0f ms | %.0f / %.0f ms | %d | %.1f / %.1f / %.1f | %d | %.1f ms, %.1f-%.1f |' % (
            inst, np.median(tun), tun.min(), tun.max(), c['lagMs'], c['lagMsRange'][0],
            c['lagMsRange'][1], c['rise12MsMedian'], c['release20MsMedian'], c['release40MsMedian'],
            len(dev), np.median(np.abs(dev)),
            np.percentile(np.abs(dev), 95), np.abs(dev).max(), int((np.abs(dev) > 10).sum()),
            np.median(lag), lag.min(), lag.max()))
    return ('\n'.join(rows) + '\n\nTuning: each (key, velocity) rendered alone, median frequency of '
            'partial 1 over 0.15-0.75 s; every note of the set is bent by its intended cents minus '
            'this. Rendered: each played note\'s median pitch over [on + 40 ms, off) in the dry '
            'render, against what was intended; intonation is not scored where they differ by more '
            'than %g cents (FluidR3\'s violin has vibrato in its samples, its trumpet a pitch '
            'scoop in its first ~100 ms, so short notes sit off). Onset lag: note-on to the first '
            'sample within 40 dB of the note\'s peak; the truth\'s onsets are note-on + the '
            'instrument\'s median lag. Release: note-off to where the level falls 20 / 40 dB under '
            'the note\'s last 100 ms; the truth\'s offsets are the note-offs, so a grader that '
            'ends a sound at a fixed level sees notes longer than they were played, and across a '
            'change of note the previous note still sounds while a flute or violin note rises.'
            % RENDER_TOL_CENTS) + verify_text(data_dir)


def verify_text(data_dir):
    import verify_truth
    v = verify_truth.summary(data_dir)
    rows = ['\n\nIndependent check with aubio on the takes without reverb or noise (dry, latency, drift; `verify_truth.py`): yinfast pitch '
            '(confidence >= 0.8) over each played note of at least 150 ms against the truth\'s '
            'pitch, and the nearest specflux onset within 50 ms of each truth onset.\n',
            '| instrument | takes | notes | pitch within 20 / 50 cents | median \\|cents\\| | '
            'notes with a pitch error: within 20 cents | onsets found | onset error median '
            '(signed / absolute) |', '|---|---:|---:|---|---:|---|---|---|']
    for inst, r in v.items():
        rows.append('| %s | %d | %d | %.3f / %.3f | %.1f | %d: %.3f | %d of %d | %+.1f / %.1f ms |' % (
            inst, r['takes'], r['notesPitched'], r['within20'], r['within50'], r['medianAbs'],
            r['pitchErrorNotes'], r['pitchErrorWithin20'] or 0, r['onsetFound'], r['onsetNotes'],
            r['onsetMedianMs'], r['onsetMedianAbsMs']))
    return '\n'.join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--data')
    ap.add_argument('--results')
    ap.add_argument('--etude', default='')
    ap.add_argument('--graders', default='etude,ref2018,refdp')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--reuse', action='store_true')
    args = ap.parse_args()
    data = os.path.abspath(args.data or os.path.join(WORK, 'data-quick' if args.quick else 'data'))
    main_set = data == os.path.join(WORK, 'data')
    name = os.path.basename(data.rstrip(os.sep))
    name = name[len('data-'):] if name.startswith('data-') and len(name) > 5 else name
    suffix = '' if main_set else '-' + name
    out_root = os.path.join(WORK, 'out' + suffix)
    md = os.path.abspath(args.results) if args.results else (
        os.path.join(HERE, 'results.md') if main_set else os.path.join(WORK, 'results%s.md' % suffix))
    if md == os.path.join(HERE, 'results.md') and not main_set:
        raise SystemExit('results.md is the main set\'s (work/data): give this set another '
                         '--results file')
    json_path = os.path.join(WORK, os.path.splitext(os.path.basename(md))[0] + '.json')
    names = [g for g in args.graders.split(',') if g]
    take_dirs = sorted(d for d in glob.glob(os.path.join(data, '*')) if os.path.isdir(d))
    takes = [(d, json.load(open(os.path.join(d, 'truth.json')))) for d in take_dirs]
    scored = [(d, t) for d, t in takes if not t['long']]
    long_takes = [(d, t) for d, t in takes if t['long']]
    etude = os.path.abspath(args.etude) if args.etude else ''
    available, message = etude_status(etude) if 'etude' in names else (False, 'not asked for')
    if args.reuse and 'etude' in names:
        available = os.path.isdir(os.path.join(out_root, 'etude')) and bool(
            glob.glob(os.path.join(out_root, 'etude', '*.json')))
        message = 'outputs reused from %s' % os.path.join(out_root, 'etude') if available else message
    print('etude: %s' % message)
    # index mapping against `etude score`
    mappings, index_msgs = {}, []
    has_score = bool(etude) and os.path.exists(etude) and run_timed([etude, 'score', '--help'], 60)[0] == 0
    if has_score:
        agree = 0
        for d, t in takes:
            same, mp, msg = score_check(etude, d, t)
            if same:
                agree += 1
            elif mp is not None:
                mappings[t['take']] = mp
                index_msgs.append('%s: note lists differ, mapped by onset and pitch' % t['take'])
            else:
                index_msgs.append('%s: %s' % (t['take'], msg))
        index_text = ('`etude score` lists the same notes as the truth files (index, onset and '
                      'duration in quarters and seconds, rest flag, measure, written and sounding '
                      'pitch, tie flag) for %d of %d scores.%s' % (
                          agree, len(takes), (' ' + '; '.join(index_msgs[:5])) if index_msgs else ''))
    else:
        index_text = ('`etude score` was not available: the truth\'s own note list (rests '
                      'included, ties merged, in score order) is taken as the score\'s index.')
    print(index_text)
    # run the graders
    run = [g for g in names if g != 'etude' or available]
    answers = {g: {} for g in run}
    jobs = []
    for g in run:
        os.makedirs(os.path.join(out_root, g), exist_ok=True)
        for d, t in scored:
            p = os.path.join(out_root, g, t['take'] + '.json')
            if args.reuse and os.path.exists(p):
                answers[g][t['take']] = json.load(open(p))
            elif not (args.reuse and g == 'etude'):
                jobs.append((g, d, p))
    t0 = time.time()
    if jobs:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as ex:
            futs = {ex.submit(run_one, g, d, p, etude): g for g, d, p in jobs}
            for k, f in enumerate(concurrent.futures.as_completed(futs)):
                r = f.result()
                answers[futs[f]][r['take']] = r
                if (k + 1) % 25 == 0:
                    print('  graded %d of %d (%.0f s)' % (k + 1, len(jobs), time.time() - t0))
    print('graders ran in %.0f s' % (time.time() - t0))
    results = {}
    for g in run:
        results[g] = score_grader(scored, answers[g], mappings)
        # CPU of a 3-minute take: median of 3 runs (Etude, as a process), 1 run (reference)
        for d, t in long_takes:
            cpus = []
            for rep in range(3 if g == 'etude' else 1):
                p = os.path.join(out_root, g, t['take'] + ('-%d' % rep) + '.json')
                if args.reuse and os.path.exists(p):
                    r = json.load(open(p))
                elif args.reuse and g == 'etude':
                    continue
                else:
                    r = run_one(g, d, p, etude)
                if r.get('rc') == 0:
                    cpus.append(r['cpu'])
            results[g]['cpu3min'] = float(np.median(cpus)) if cpus else None
            results[g]['cpu3minAudio'] = t['audioSeconds']
    # one HTML report from Etude, as a smoke test of --report
    if 'etude' in run and not args.reuse:
        d, t = next(((d, t) for d, t in scored if t['kind'] == 'mixed'), scored[0])
        rep = os.path.join(out_root, 'etude', 'report-%s.html' % t['take'])
        rc, _, err, _, _ = run_timed(etude_cmd(etude, d, t, report=rep))
        ok = rc == 0 and os.path.exists(rep)
        results['etude']['report'] = dict(take=t['take'], ok=ok, bytes=os.path.getsize(rep) if ok else 0,
                                          error=None if ok else err.strip()[:200])
    audio = sum(t['audioSeconds'] for _, t in scored)
    ctx = dict(command=os.environ.get('GRADING_EVAL_COMMAND', 'python3 Evaluation/grading/evaluate.py'),
               date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
               runTime=('%.1f min' % ((time.time() - float(os.environ['GRADING_EVAL_START'])) / 60)
                        if os.environ.get('GRADING_EVAL_START') else 'n/a (evaluate.py alone)'),
               data=os.path.relpath(data, HERE), takes=len(scored), audioSeconds=audio,
               notes=sum(1 for _, t in scored for n in t['notes'] if not n['isRest']),
               errors=sum(1 for _, t in scored for n in t['notes'] if n.get('error')),
               extras=sum(len(t['extras']) for _, t in scored),
               etudeAvailable=available, etudeMessage=message, longTakes=len(long_takes),
               soundfont=os.path.basename(json.load(open(os.path.join(data, 'manifest.json'))).get(
                   'soundfont') or 'FluidR3_GM.sf2'),
               renderCheck=render_check_text(data, takes), indexCheck=index_text)
    write_report(md, ctx, results, names)
    with open(json_path, 'w') as fh:
        json.dump(dict(context=ctx, results=results, unavailable=[g for g in names if g not in run]),
                  fh, indent=1, default=str)
    print('wrote %s' % md)
    for g in names:
        r = results.get(g)
        if r is None:
            print('%-8s not available' % g)
            continue
        print('%-8s ' % g + ', '.join('%s %s' % (key, fmt_head(key, headline_value(r, key)))
                                      for _, key, _ in TARGETS))


if __name__ == '__main__':
    main()
