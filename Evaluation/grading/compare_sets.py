#!/usr/bin/env python3
"""Compare one grader's answers on two renders of the same takes, note by note: the holdout set
(another soundfont) against the FluidR3_GM set of the same take names, which holds the same scores,
performances and injected errors (the generator is seeded by the take's name).

Usage: python3 Evaluation/grading/compare_sets.py A_DATA B_DATA [--grader etude] [--list N]
   e.g. compare_sets.py work/data-fluidr3-20 work/data-holdout

Both sets must have been scored by evaluate.py (their answers in work/out-NAME/GRADER/). Prints,
per category, TP / FP / FN on A and on B and, per instrument and condition, the "any error"
counts; then the notes whose outcome differs between the two renders (a hit on A that is a miss
on B, a false alarm on B only, ...) with the truth and both answers; then the onset error of
correct notes per instrument on each render.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.dont_write_bytecode = True      # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import WORK  # noqa: E402
from evaluate import SUB, WRONG_NOTE_OK_CENTS, pred_flags, truth_labels  # noqa: E402


def out_dir(data, grader):
    data = os.path.abspath(data)
    if data == os.path.join(WORK, 'data'):
        return os.path.join(WORK, 'out', grader)
    name = os.path.basename(data.rstrip(os.sep))
    name = name[len('data-'):] if name.startswith('data-') and len(name) > 5 else name
    return os.path.join(WORK, 'out-' + name, grader)


def load(data, grader):
    takes = {}
    for name in sorted(os.listdir(data)):
        tp = os.path.join(data, name, 'truth.json')
        if not os.path.exists(tp):
            continue
        truth = json.load(open(tp))
        if truth.get('long'):
            continue
        ap = os.path.join(out_dir(data, grader), name + '.json')
        rec = json.load(open(ap)) if os.path.exists(ap) else None
        out = rec.get('output') if rec and rec.get('rc') == 0 else None
        takes[name] = (truth, {gn.get('index'): gn for gn in (out or {}).get('notes') or []})
    return takes


def outcome(lab, pred):
    if lab == 'pos':
        return 'TP' if pred else 'FN'
    if lab == 'neg':
        return 'FP' if pred else 'TN'
    return None


def said(gn):
    """What the grader said about one note, briefly."""
    if gn is None:
        return 'absent'
    if gn.get('status') == 'missed':
        return 'missed'
    t, d, p = gn.get('timing') or {}, gn.get('duration') or {}, gn.get('pitch') or {}
    parts = []
    if t:
        parts.append('%s %s ms%s' % (t.get('rating'), fmt(t.get('offsetMs')),
                                     ' (local %s %s)' % (t.get('localRating'), fmt(t.get('localOffsetMs')))
                                     if t.get('localRating') not in (None, t.get('rating')) else ''))
    if d:
        parts.append('%s x%s' % (d.get('rating'), fmt(d.get('ratio'), 2)))
    if p:
        parts.append('%s %s c' % (p.get('rating'), fmt(p.get('cents'))))
    return ', '.join(parts)


def fmt(x, nd=0):
    return '-' if x is None else ('%.*f' % (nd, x))


def truth_text(tn):
    e = tn['error']
    p = tn.get('performed') or {}
    s = 'm%d %s %s %.2fs' % (tn['measure'], tn['name'], tn['articulation'], tn['durationSeconds'])
    if e:
        s += ' | error %s' % ','.join('%s=%s' % (k, v) for k, v in e.items() if k in (
            'type', 'ms', 'cents', 'ratio', 'semitones', 'direction'))
    elif tn['dontCare']:
        s += ' | no error (dc %s)' % ','.join(tn['dontCare'])
    else:
        s += ' | no error'
    if p:
        s += ' | played %.2fx, local offset %+.0f ms' % (p['durationRatio'], p['localOffsetMs'])
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('a')
    ap.add_argument('b')
    ap.add_argument('--grader', default='etude')
    ap.add_argument('--list', type=int, default=200, help='at most this many differing notes')
    args = ap.parse_args()
    A, B = load(args.a, args.grader), load(args.b, args.grader)
    names = sorted(set(A) & set(B))
    cats = SUB + ['any']
    tot = {s: {c: [0, 0, 0] for c in cats} for s in 'AB'}
    groups = {}
    diffs = []
    onset = {s: {} for s in 'AB'}
    for name in names:
        (ta, ga), (tb, gb) = A[name], B[name]
        drift = ta['condition'] == 'drift'
        for na, nb in zip(ta['notes'], tb['notes']):
            if na['isRest']:
                continue
            assert na['index'] == nb['index'] and na.get('error') == nb.get('error'), name
            row = {}
            for s, tn, g in (('A', na, ga), ('B', nb, gb)):
                lab = truth_labels(tn)
                gn = g.get(tn['index'])
                f = pred_flags(gn, local=drift)
                e = tn['error']
                if e and e['type'] == 'detune' and abs(e['cents']) >= WRONG_NOTE_OK_CENTS and f['wrongNote']:
                    f['sharp' if e['cents'] > 0 else 'flat'] = True
                row[s] = {c: outcome(lab[c], f[c]) for c in cats}
                for c in cats:
                    o = row[s][c]
                    if o in ('TP', 'FP', 'FN'):
                        tot[s][c][('TP', 'FP', 'FN').index(o)] += 1
                for key in (('instrument', ta['instrument']), ('condition', ta['condition'])):
                    o = row[s]['any']
                    if o in ('TP', 'FP', 'FN'):
                        groups.setdefault(key, {'A': [0, 0, 0], 'B': [0, 0, 0]})[s][
                            ('TP', 'FP', 'FN').index(o)] += 1
                p = tn.get('performed')
                if (gn and gn.get('status') == 'played' and p and tn['error'] is None
                        and not tn['dontCare'] and gn.get('onsetSeconds') is not None):
                    onset[s].setdefault(ta['instrument'], []).append(
                        (gn['onsetSeconds'] - p['onsetSeconds']) * 1000)
            changed = [c for c in cats if c != 'any' and row['A'][c] != row['B'][c]
                       and {row['A'][c], row['B'][c]} - {'TN', None}]
            if changed:
                diffs.append((name, na['index'], changed, row, truth_text(na),
                              said(ga.get(na['index'])), said(gb.get(nb['index']))))

    def prf(t):
        tp, fp, fn = t
        return 'P %s R %s F1 %s (%d, %d, %d)' % (
            fmt(tp / (tp + fp), 3) if tp + fp else '-', fmt(tp / (tp + fn), 3) if tp + fn else '-',
            fmt(2 * tp / (2 * tp + fp + fn), 3) if tp + fp + fn else '-', tp, fp, fn)
    print('%d takes in both sets; A = %s, B = %s, grader %s\n' % (len(names), args.a, args.b,
                                                                   args.grader))
    print('%-13s %-40s %-40s' % ('category', 'A', 'B'))
    for c in cats:
        print('%-13s %-40s %-40s' % (c, prf(tot['A'][c]), prf(tot['B'][c])))
    print('\n"any error" by group')
    for key in sorted(groups):
        print('%-22s %-40s %-40s' % ('%s=%s' % key, prf(groups[key]['A']), prf(groups[key]['B'])))
    print('\nonset error of correct notes (grader - truth audible onset), ms: median / MAE / p90')
    for inst in sorted(set(onset['A']) | set(onset['B'])):
        cells = []
        for s in 'AB':
            v = np.array(onset[s].get(inst, []))
            cells.append('%+.1f / %.1f / %.1f (n %d)' % (np.median(v), np.abs(v).mean(),
                                                          np.percentile(np.abs(v), 90), len(v))
                         if len(v) else '-')
        print('%-8s A %-32s B %s' % (inst, cells[0], cells[1]))
    print('\n%d notes whose outcome differs (A -> B):' % len(diffs))
    for name, idx, changed, row, tt, sa, sb in diffs[:args.list]:
        print('%s #%d  %s' % (name, idx, ', '.join('%s %s->%s' % (c, row['A'][c], row['B'][c])
                                                  for c in changed)))
        print('    truth: %s' % tt)
        print('    A: %s' % sa)
        print('    B: %s' % sb)


if __name__ == '__main__':
    main()
