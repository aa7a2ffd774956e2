#!/usr/bin/env python3
"""Measure a change to the grader quickly, on the three sets at once, and see which notes it moved.

Usage (from the repository root, after the sets exist: run.sh once per set):
  Evaluation/grading/work/venv/bin/python Evaluation/grading/diagnose.py grade TAG [--etude PATH]
  Evaluation/grading/work/venv/bin/python Evaluation/grading/diagnose.py wrong TAG [--set NAME]
  Evaluation/grading/work/venv/bin/python Evaluation/grading/diagnose.py compare TAG_A TAG_B [--list MS]

- `grade` runs `etude grade` on the short takes of work/data, work/data-musescore and
  work/data-timgm6mb (whichever exist; the 3-minute take is left out) into work/diagnose/TAG/SET/
  and prints each set's headline figures and its "any error" true positives, false alarms and
  misses (about 20 s for the three sets on 2 cores). Nothing in results*.md changes.
- `wrong` lists the wrong "any error" flags of a graded TAG: FP (a note played as written,
  flagged), FN (an error left unflagged), WC (an error flagged, but in none of its categories),
  with the truth and the answer's timing, duration and pitch.
- `compare` lists the notes whose ratings, status or onset changed between two graded tags, the
  sets' extra-sound counts that changed, and per set how many onsets moved nearer to the truth or
  further from it (by more than 5 ms); `--list MS` also prints each onset that moved and was, or
  now is, more than MS ms off.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import WORK  # noqa: E402
import evaluate as ev  # noqa: E402

SETS = ['data', 'data-musescore', 'data-timgm6mb']
HEADLINES = ['any', 'intonation', 'partial', 'missed', 'extra', 'driftTiming', 'topIssue', 'onsetMae', 'centsMae']


def tag_dir(tag, data_set):
    return os.path.join(WORK, 'diagnose', tag, data_set)


def short_takes(data_set):
    takes = []
    for d in sorted(glob.glob(os.path.join(WORK, data_set, '*'))):
        path = os.path.join(d, 'truth.json')
        if os.path.isfile(path):
            truth = json.load(open(path))
            if not truth['long']:
                takes.append((d, truth))
    return takes


def answers(tag, data_set):
    """The graded outputs of a tag's set, by take name."""
    result = {}
    for f in sorted(glob.glob(os.path.join(tag_dir(tag, data_set), '*.json'))):
        rec = json.load(open(f))
        result[rec['take']] = rec.get('output') or {}
    return result


def grade(args):
    etude = os.path.abspath(args.etude)
    for data_set in SETS:
        takes = short_takes(data_set)
        if not takes:
            continue
        out = tag_dir(args.tag, data_set)
        os.makedirs(out, exist_ok=True)
        with concurrent.futures.ProcessPoolExecutor(2) as pool:
            jobs = [pool.submit(ev.run_one, 'etude', d, os.path.join(out, t['take'] + '.json'), etude)
                    for d, t in takes]
            records = {j.result()['take']: j.result() for j in jobs}
        res = ev.score_grader(takes, records, {})
        counts = res['overall']['any']
        figures = ' '.join('%s %s' % (k, ev.fmt_head(k, ev.headline_value(res, k))) for k in HEADLINES)
        print('%-15s %s  any TP/FP/FN %s/%s/%s' % (data_set, figures, counts.get('tp'), counts.get('fp'),
                                                   counts.get('fn')))


def wrong(args):
    for data_set in [args.set] if args.set else SETS:
        graded = answers(args.tag, data_set)
        if not graded:
            continue
        fp = fn = 0
        for d, truth in short_takes(data_set):
            if truth['take'] not in graded:
                continue
            notes = {n['index']: n for n in graded[truth['take']].get('notes', [])}
            drift = truth['condition'] == 'drift'
            for tn in truth['notes']:
                if tn['isRest']:
                    continue
                labels = ev.truth_labels(tn)
                gn = notes.get(tn['index'])
                flags = ev.pred_flags(gn, local=drift)
                e = tn['error']
                if e and e['type'] == 'detune' and abs(e['cents']) >= ev.WRONG_NOTE_OK_CENTS and flags['wrongNote']:
                    flags['sharp' if e['cents'] > 0 else 'flat'] = True
                if labels['any'] == 'neg' and flags['any']:
                    kind = 'FP'
                    fp += 1
                elif labels['any'] == 'pos' and not flags['any']:
                    kind = 'FN'
                    fn += 1
                elif labels['any'] == 'pos' and flags['any'] and not any(flags[c] for c in ev.SUB if labels[c] == 'pos'):
                    kind = 'WC'
                else:
                    continue
                gn = gn or {}
                t, du, pi = gn.get('timing') or {}, gn.get('duration') or {}, gn.get('pitch') or {}
                played = tn.get('performed') or {}
                print('%s %-15s %-34s n%-3d error=%-40s timing=%s/%s(%s) duration=%s(%s) pitch=%s(%s) onset=%s played=%s' % (
                    kind, data_set, truth['take'], tn['index'], json.dumps(e) if e else '-', t.get('rating'),
                    t.get('localRating'), t.get('offsetMs'), du.get('rating'), du.get('ratio'), pi.get('rating'),
                    pi.get('cents'), gn.get('onsetSeconds'), played.get('onsetSeconds')))
        print('%s: %d FP, %d FN' % (data_set, fp, fn))


def compare(args):
    def ratings(n):
        return (n.get('status'), (n.get('timing') or {}).get('rating'), (n.get('timing') or {}).get('localRating'),
                (n.get('duration') or {}).get('rating'), (n.get('pitch') or {}).get('rating'))
    for data_set in SETS:
        a, b = answers(args.a, data_set), answers(args.b, data_set)
        if not a or not b:
            continue
        nearer = further = 0
        for d, truth in short_takes(data_set):
            name = truth['take']
            if name not in a or name not in b:
                continue
            na = {n['index']: n for n in a[name].get('notes', [])}
            nb = {n['index']: n for n in b[name].get('notes', [])}
            for tn in truth['notes']:
                x, y = na.get(tn['index'], {}), nb.get(tn['index'], {})
                ox, oy = x.get('onsetSeconds'), y.get('onsetSeconds')
                moved = ox is not None and oy is not None and abs(ox - oy) > 0.003
                if ratings(x) != ratings(y) or moved:
                    print('%-15s %-34s n%-3d %s %s -> %s %s' % (data_set, name, tn['index'], ratings(x), ox,
                                                                ratings(y), oy))
                played = tn.get('performed')
                if tn['isRest'] or not played or ox is None or oy is None or abs(ox - oy) < 0.005:
                    continue
                ex, ey = (ox - played['onsetSeconds']) * 1000, (oy - played['onsetSeconds']) * 1000
                nearer += abs(ey) < abs(ex)
                further += abs(ey) >= abs(ex)
                if args.list is not None and max(abs(ex), abs(ey)) > args.list:
                    print('    onset %s %.1f -> %.1f ms' % ('nearer' if abs(ey) < abs(ex) else 'FURTHER', ex, ey))
            extras_a, extras_b = len(a[name].get('extraSounds', [])), len(b[name].get('extraSounds', []))
            if extras_a != extras_b:
                print('%-15s %-34s extra sounds %d -> %d' % (data_set, name, extras_a, extras_b))
        print('%s: onsets nearer the truth %d, further %d (moved by more than 5 ms)' % (data_set, nearer, further))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    g = sub.add_parser('grade', help='grade the short takes of the three sets under TAG')
    g.add_argument('tag')
    g.add_argument('--etude', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                                                   '.build-eval', 'release', 'etude'))
    w = sub.add_parser('wrong', help="list a tag's wrong flags")
    w.add_argument('tag')
    w.add_argument('--set', choices=SETS)
    c = sub.add_parser('compare', help='what changed between two tags')
    c.add_argument('a')
    c.add_argument('b')
    c.add_argument('--list', type=float, metavar='MS')
    args = parser.parse_args()
    {'grade': grade, 'wrong': wrong, 'compare': compare}[args.command](args)


if __name__ == '__main__':
    main()
