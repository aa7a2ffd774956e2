#!/usr/bin/env python3
"""Run the pitch trackers on the evaluation set and score them against the ground truth.

Usage: python3 Evaluation/pitch/evaluate.py [--quick] [--data DIR] [--etude PATH]
           [--etude-methods yin,mpm,pyin,pyin-live] [--trackers etude,aubio,pyin] [--jobs 2]
           [--reuse] [--no-throughput] [--results FILE]

Trackers (all on the same files in the same run):
  etude-METHOD   `ETUDE pitch FILE.wav --method METHOD --hop-ms 10`, one stdout line per hop:
                 time_s<TAB>frequency_hz<TAB>confidence, frequency 0 when unvoiced, time at the
                 centre of the analysis frame. A method whose first run exits non-zero (or prints
                 nothing) is reported as not available and skipped.
  aubio-yin      python3-aubio, aubio.pitch('yin', 2048, 441, 44100): default tolerance (0.15)
                 and silence gate (-50 dB); voiced when the output is > 0 Hz and
                 get_confidence() >= 0.8 (the threshold of aubio's demo_pitch.py).
  aubio-yinfft   aubio.pitch('yinfft', 2048, 441, 44100): default tolerance (0.85) and silence
                 gate (-50 dB); voiced when the output is > 0 Hz (yinfft returns 0 when no
                 candidate passes its tolerance). Its confidence is not used: in aubio 0.4.9 it is
                 0 for most mid-range notes (aubio issue #167).
  librosa-pyin   librosa.pyin(y, fmin=40, fmax=2000, sr=44100, frame_length=4096,
                 hop_length=441), voiced = its own voiced_flag.

Each tracker's frames are put on the truth grid (every 10 ms) by nearest frame time; a truth
frame with no tracker frame within 5 ms counts as unvoiced. Metrics are pooled over all scored
frames of a group's files (see README.md). CPU: user+sys time of the child process for CLIs
(process start, WAV reading and output included); time.process_time() around the call for
in-process Python trackers (file reading included, imports and numba JIT warm-up excluded).
Writes results.md (or work/results-quick.md with --quick, or --results) and work/results.json
(work/results-NAME.json for a data folder work/data-NAME).
"""

import os

for _v in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS', 'NUMBA_NUM_THREADS'):
    os.environ.setdefault(_v, '1')      # one thread per tracker process: CPU time is comparable

import argparse
import concurrent.futures
import datetime
import json
import multiprocessing
import platform
import resource
import shutil
import subprocess
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(HERE, 'work')
HOP_S = 0.010
AUBIO_BUF = 2048
AUBIO_YIN_CONFIDENCE = 0.8
PYIN_FRAME = 4096
FMIN, FMAX = 40.0, 2000.0
CONDITIONS = ['clean', 'snr20', 'snr10', 'snr0', 'reverb', 'hum', 'hum-noise']
CONDITION_LABEL = {'clean': 'clean', 'snr20': '20 dB SNR', 'snr10': '10 dB SNR',
                   'snr0': '0 dB SNR', 'reverb': 'reverb', 'hum': 'mains hum',
                   'hum-noise': 'mains hum and noise'}
DEFAULT_ETUDE_METHODS = 'yin,mpm,pyin,pyin-live'
ETUDE_TIMEOUT_S = 600


# --------------------------------------------------------------------------------------------
# Running trackers (in worker processes)
# --------------------------------------------------------------------------------------------

def init_worker(need_pyin):
    """Imports (and the numba JIT of librosa.pyin) happen here, outside any timing. Each worker
    compiles into a cache folder of its own: two workers writing librosa's shared numba cache at
    once left it corrupt, and every later librosa.pyin call segfaulted (seen 2026-12-07)."""
    warnings.filterwarnings('ignore')
    if need_pyin and 'NUMBA_CACHE_DIR' not in os.environ:
        import atexit
        import tempfile
        os.environ['NUMBA_CACHE_DIR'] = tempfile.mkdtemp(prefix='pitch-eval-numba-')
        atexit.register(shutil.rmtree, os.environ['NUMBA_CACHE_DIR'], True)
    import soundfile  # noqa: F401
    try:
        import aubio  # noqa: F401
    except ImportError:
        pass
    if need_pyin:
        import librosa
        sr = 44100
        t = np.arange(sr) / sr
        y = (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)
        librosa.pyin(y, fmin=FMIN, fmax=FMAX, sr=sr, frame_length=PYIN_FRAME,
                     hop_length=int(round(HOP_S * sr)))


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_etude(etude, method, wav, extra_args=()):
    """Returns (times, f0, conf, cpu_s, error). `extra_args` go to `etude pitch` as they are."""
    cmd = [etude, 'pitch', wav, '--method', method, '--hop-ms', '10', *extra_args]
    c0 = children_cpu()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=ETUDE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, None, None, children_cpu() - c0, 'timeout after %d s' % ETUDE_TIMEOUT_S
    except OSError as e:
        return None, None, None, 0.0, str(e)
    cpu = children_cpu() - c0
    if r.returncode != 0:
        lines = [x.strip() for x in r.stderr.splitlines() if x.strip()]
        tail = next((x for x in lines if 'rror' in x), lines[0] if lines else '')[:200]
        return None, None, None, cpu, 'exit %d: %s' % (r.returncode, tail)
    rows = []
    for line in r.stdout.splitlines():
        parts = line.replace(',', ' ').split()
        if len(parts) < 2 or line.lstrip().startswith('#'):
            continue
        try:
            vals = [float(x) for x in parts[:3]]
        except ValueError:
            continue
        rows.append(vals + [float('nan')] * (3 - len(vals)))
    if not rows:
        return None, None, None, cpu, 'no output lines'
    a = np.array(rows)
    f0 = np.where(np.isfinite(a[:, 1]) & (a[:, 1] > 0), a[:, 1], 0.0)
    return a[:, 0], f0, a[:, 2], cpu, None


def run_aubio(method, wav):
    import aubio
    t0 = time.process_time()
    sr = 44100                               # every file of the set is 44.1 kHz
    hop = int(round(HOP_S * sr))
    src = aubio.source(wav, 0, hop)          # 0: the file's own rate
    if src.samplerate != sr:
        return None, None, None, 0.0, 'unexpected sample rate %d' % src.samplerate
    p = aubio.pitch(method, AUBIO_BUF, hop, sr)
    p.set_unit('Hz')
    f, c = [], []
    while True:
        x, n = src()
        f.append(float(p(x)[0]))
        c.append(float(p.get_confidence()))
        if n < hop:
            break
    cpu = time.process_time() - t0
    f = np.array(f)
    c = np.array(c)
    # Block i ends at sample (i + 1) * hop and aubio keeps the last AUBIO_BUF samples.
    # yinfft windows all of them: time = their centre. yin's difference function compares
    # x[j] with x[j + tau] for j < AUBIO_BUF / 2, so it looks at the first AUBIO_BUF / 2 + tau
    # samples of the buffer: time = the centre of those (tau = the period it found).
    start = (np.arange(len(f)) + 1) * hop - AUBIO_BUF
    if method == 'yin':
        tau = np.where(f > 0, sr / np.maximum(f, 1e-9), 0.0)
        times = (start + (AUBIO_BUF / 2 + tau) / 2) / sr
    else:
        times = (start + AUBIO_BUF / 2) / sr
    voiced = f > 0
    if method == 'yin':
        voiced &= c >= AUBIO_YIN_CONFIDENCE
    return times, np.where(voiced, f, 0.0), c, cpu, None


def run_pyin(wav):
    import librosa
    import soundfile as sf
    t0 = time.process_time()
    y, sr = sf.read(wav, dtype='float32')
    hop = int(round(HOP_S * sr))
    f0, vflag, vprob = librosa.pyin(y, fmin=FMIN, fmax=FMAX, sr=sr, frame_length=PYIN_FRAME,
                                    hop_length=hop)
    cpu = time.process_time() - t0
    times = np.arange(len(f0)) * hop / sr       # center=True: frame i is centred at i * hop
    f = np.where(vflag & np.isfinite(f0), f0, 0.0)
    return times, f, vprob, cpu, None


def run_tracker(tracker, wav, etude=None, etude_args=()):
    if tracker.startswith('etude-'):
        return run_etude(etude, tracker[len('etude-'):], wav, etude_args)
    if tracker.startswith('aubio-'):
        return run_aubio(tracker[len('aubio-'):], wav)
    if tracker == 'librosa-pyin':
        return run_pyin(wav)
    raise ValueError(tracker)


def job(args):
    tracker, wav, out_path, etude = args
    times, f0, conf, cpu, err = run_tracker(tracker, wav, etude)
    if err is None:
        save_output(out_path, times, f0, conf, cpu)
    return dict(tracker=tracker, wav=wav, cpu=cpu, error=err)


def throughput_job(args):
    """CPU seconds of one run of a tracker on the long file (the caller runs each tracker once
    per round, in turn, and keeps the best); with `cross_check`, also the frequencies the aubio
    CLI and python3-aubio give, for comparing the two."""
    tracker, wav, etude, cross_check = args
    if tracker.startswith('aubiopitch-'):
        c0 = children_cpu()
        r = subprocess.run(['aubiopitch', '-i', wav, '-p', tracker.split('-', 1)[1],
                            '-B', str(AUBIO_BUF), '-H', '441'], capture_output=True,
                           text=True)
        cpu = children_cpu() - c0
        err = None if r.returncode == 0 else 'exit %d' % r.returncode
        out = np.array([[float(x) for x in line.split()[:2]]
                        for line in r.stdout.splitlines() if line.strip()])
    else:
        _, _, _, cpu, err = run_tracker(tracker, wav, etude)
    if err:
        return dict(tracker=tracker, error=err)
    res = dict(tracker=tracker, cpu=cpu)
    if not cross_check:
        return res
    if tracker.startswith('aubiopitch-'):
        res['cli_freqs'] = out[:, 1].tolist()
    elif tracker.startswith('aubio-'):
        # raw aubio output (before the confidence gate) for the CLI cross-check
        import aubio
        src = aubio.source(wav, 44100, 441)
        p = aubio.pitch(tracker.split('-', 1)[1], AUBIO_BUF, 441, 44100)
        raw = []
        while True:
            x, n = src()
            raw.append(float(p(x)[0]))
            if n < 441:
                break
        res['py_freqs'] = raw
    return res


def save_output(path, times, f0, conf, cpu):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    conf = np.full(len(times), np.nan) if conf is None else conf
    with open(path + '.tmp', 'w') as fh:
        fh.write('# cpu_s=%.6f\n' % cpu)
        for t, f, c in zip(times, f0, conf):
            fh.write('%.6f\t%.4f\t%.4f\n' % (t, f, c))
    os.replace(path + '.tmp', path)


def load_output(path):
    with open(path) as fh:
        first = fh.readline()
    cpu = float(first.split('=')[1])
    a = np.loadtxt(path, comments='#', ndmin=2)
    if a.size == 0:
        return np.zeros(0), np.zeros(0), cpu
    return a[:, 0], a[:, 1], cpu


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------

def load_truth(path):
    a = np.loadtxt(path, comments='#', ndmin=2)
    return a[:, 0], a[:, 1], a[:, 2] > 0, a[:, 3]


def align(truth_times, est_times, est_f0):
    """Nearest estimate frame for each truth frame; none within half a hop -> unvoiced."""
    if len(est_times) == 0:
        return np.zeros(len(truth_times))
    order = np.argsort(est_times)
    et, ef = est_times[order], est_f0[order]
    i = np.clip(np.searchsorted(et, truth_times), 1, max(len(et) - 1, 1))
    if len(et) == 1:
        i = np.zeros(len(truth_times), dtype=int)
        nearest = i
    else:
        left = et[i - 1]
        right = et[i]
        nearest = np.where(np.abs(truth_times - left) <= np.abs(right - truth_times), i - 1, i)
    ok = np.abs(et[nearest] - truth_times) <= HOP_S / 2 + 1e-6
    return np.where(ok, ef[nearest], 0.0)


FAR_FRAMES = 5     # "far" unvoiced frames: more than 50 ms from any voiced or unscored frame


def far_mask(ref, scored):
    """Unvoiced scored frames more than FAR_FRAMES frames away from every frame that is voiced
    or not scored (notes, onsets, release tails): silence and noise well away from any note."""
    near = ~(scored & (ref == 0))
    k = np.ones(2 * FAR_FRAMES + 1)
    dil = np.convolve(near.astype(float), k, mode='same') > 0
    return scored & (ref == 0) & ~dil


def frame_counts(ref, est, ref_nominal=None, far=None):
    """Counts over scored frames. ref/est in Hz, 0 = unvoiced. far: mask of far unvoiced
    frames (same length)."""
    rv = ref > 0
    ev = est > 0
    both = rv & ev
    err = 1200.0 * np.log2(est[both] / ref[both])
    chroma = err - 1200.0 * np.floor(err / 1200.0 + 0.5)
    octs = np.round(err / 1200.0)
    octave_err = (np.abs(octs) >= 1) & (np.abs(octs) <= 2) & (np.abs(err - 1200.0 * octs) < 50)
    c = dict(voiced=int(rv.sum()), unvoiced=int((~rv).sum()), voiced_est_voiced=int(both.sum()),
             pitch_ok=int(np.sum(np.abs(err) < 50)), chroma_ok=int(np.sum(np.abs(chroma) < 50)),
             octave=int(octave_err.sum()), false_alarm=int(np.sum(~rv & ev)))
    if ref_nominal is not None:
        errn = 1200.0 * np.log2(est[both] / ref_nominal[both])
        c['pitch_ok_nominal'] = int(np.sum(np.abs(errn) < 50))
    if far is not None:
        c['unvoiced_far'] = int(far.sum())
        c['false_alarm_far'] = int(np.sum(far & ev))
    return c, np.abs(err).astype(np.float32)


NOTE_MIN_FRAMES = 5  # a held note: at least 50 ms of scored frames


def octave_jumps(ref, est, scored):
    """(held notes, held notes with an octave jump). A note is a run of consecutive voiced truth
    frames whose truth moves less than 50 cents from one frame to the next (a glide or a vibrato
    stays one note: at most 12 and 17 cents per frame in the synthesized sets; the renders' notes
    are at least 90 cents apart) with at least NOTE_MIN_FRAMES of them scored. It jumps when its
    scored voiced estimates within 50 cents of the truth's pitch class fall in more than one
    octave: read at one octave, then at another, which the issue rules out ("no octave jumps
    inside a held note"). Estimates off by other intervals (the previous note, a fifth) do not
    count here."""
    notes = jumps = 0
    n = len(ref)
    i = 0
    while i < n:
        if ref[i] <= 0:
            i += 1
            continue
        j = i + 1
        while j < n and ref[j] > 0 and abs(1200.0 * np.log2(ref[j] / ref[j - 1])) < 50:
            j += 1
        m = scored[i:j]
        if m.sum() >= NOTE_MIN_FRAMES:
            notes += 1
            r, e = ref[i:j][m], est[i:j][m]
            v = e > 0
            err = 1200.0 * np.log2(e[v] / r[v])
            k = np.round(err / 1200.0)
            octaves = set(k[np.abs(err - 1200.0 * k) < 50].astype(int).tolist())
            jumps += int(len(octaves) > 1)
        i = j
    return notes, jumps


def mir_eval_check(ref, est, c):
    """The same file scored by mir_eval.melody; True when all four agree to 1e-9."""
    import mir_eval
    rv = (ref > 0).astype(float)
    ev = (est > 0).astype(float)
    rc = mir_eval.melody.hz2cents(ref)
    ec = mir_eval.melody.hz2cents(est)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        rpa = mir_eval.melody.raw_pitch_accuracy(rv, rc, ev, ec)
        rca = mir_eval.melody.raw_chroma_accuracy(rv, rc, ev, ec)
        vr, vfa = mir_eval.melody.voicing_measures(rv, ev)
    mine = (c['pitch_ok'] / c['voiced'], c['chroma_ok'] / c['voiced'],
            c['voiced_est_voiced'] / c['voiced'], c['false_alarm'] / c['unvoiced'])
    theirs = (rpa, rca, vr, vfa)
    return all(abs(a - b) < 1e-9 for a, b in zip(mine, theirs)), mine, theirs


def timing_check(data, files, outdir, tracker):
    """Time-stamp check on the clean glide and vibrato files: the shift d (ms, -30..30) that
    minimises the mean |cents| between the tracker at time t and the truth at t + d, over frames
    voiced in both, within 100 cents, well inside a note. 0 means the tracker's time stamps are
    where its estimates belong."""
    errs = {}
    for f in files:
        if f['condition'] != 'clean' or f['set'] not in ('synth-glide', 'synth-vibrato'):
            continue
        path = os.path.join(outdir, tracker, f['wav'][:-4] + '.tsv')
        if not os.path.exists(path):
            continue
        times, ref, scored, _ = load_truth(os.path.join(data, f['truth']))
        et, ef, _ = load_output(path)
        inside = scored.astype(float)
        for d in range(-30, 31):
            r = np.interp(et + d / 1000, times, ref)
            ok = (ef > 0) & (r > 0) & (np.interp(et + d / 1000, times, inside) > 0.999)
            c = np.abs(1200 * np.log2(ef[ok] / r[ok]))
            c = c[c < 100]
            e = errs.setdefault(d, [0.0, 0])
            e[0] += c.sum()
            e[1] += len(c)
    if not errs or not errs[0][1]:
        return None
    mean = {d: v[0] / v[1] for d, v in errs.items() if v[1]}
    best = min(mean, key=mean.get)
    return dict(best_shift_ms=best, mean_cents_at_best=mean[best], mean_cents_at_0=mean[0])


def pooled(records):
    """Metrics of a group from its files' counts (pooled frames)."""
    keys = ['voiced', 'unvoiced', 'voiced_est_voiced', 'pitch_ok', 'chroma_ok', 'octave',
            'false_alarm', 'pitch_ok_nominal', 'unvoiced_far', 'false_alarm_far', 'notes',
            'octave_jump_notes']
    tot = {k: sum(r['counts'].get(k, 0) for r in records) for k in keys}
    has_nominal = all('pitch_ok_nominal' in r['counts'] for r in records)
    errs = [r['abs_err'] for r in records if len(r['abs_err'])]
    errs = np.concatenate(errs) if errs else np.zeros(0)
    dur = sum(r['duration'] for r in records)
    cpu = sum(r['cpu'] for r in records)
    v, u = tot['voiced'], tot['unvoiced']
    return dict(files=len(records), duration_s=round(dur, 2), voiced_frames=v,
                unvoiced_frames=u,
                rpa=tot['pitch_ok'] / v if v else None,
                rca=tot['chroma_ok'] / v if v else None,
                voicing_recall=tot['voiced_est_voiced'] / v if v else None,
                voicing_false_alarm=tot['false_alarm'] / u if u else None,
                unvoiced_far_frames=tot['unvoiced_far'],
                voicing_false_alarm_far=(tot['false_alarm_far'] / tot['unvoiced_far']
                                         if tot['unvoiced_far'] else None),
                octave_error_rate=tot['octave'] / v if v else None,
                notes=tot['notes'], octave_jump_notes=tot['octave_jump_notes'],
                median_abs_cents=float(np.median(errs)) if len(errs) else None,
                rpa_nominal=(tot['pitch_ok_nominal'] / v if v and has_nominal else None),
                cpu_s=round(cpu, 4), cpu_per_audio_s=cpu / dur if dur else None,
                errors=sum(1 for r in records if r.get('error')))


# --------------------------------------------------------------------------------------------
# Groups
# --------------------------------------------------------------------------------------------

def build_groups(files):
    """Ordered list of (group id, label, predicate over a manifest file entry)."""
    groups = []
    instruments = []
    for f in files:
        if f['kind'] == 'render' and f['set'] not in instruments:
            instruments.append(f['set'])
    synth_sets = []
    for f in files:
        if f['kind'] == 'synth' and f['set'] not in synth_sets:
            synth_sets.append(f['set'])
    conds = [c for c in CONDITIONS if any(f['condition'] == c for f in files)]
    for inst in instruments:
        groups.append(('%s/clean' % inst, '%s, clean' % inst,
                       lambda f, inst=inst: f['set'] == inst and f['condition'] == 'clean'))
    for c in conds:
        groups.append(('renders/%s' % c, 'all renders, %s' % CONDITION_LABEL[c],
                       lambda f, c=c: f['kind'] == 'render' and f['condition'] == c))
    for s in synth_sets:
        groups.append(('%s/clean' % s, '%s, clean' % s,
                       lambda f, s=s: f['set'] == s and f['condition'] == 'clean'))
    groups.append(('synth-steady/clean', 'synth-steady (all three spectra), clean',
                   lambda f: f['set'].startswith('synth-steady') and f['condition'] == 'clean'))
    for c in conds:
        groups.append(('synth/%s' % c, 'all voiced synth sets, %s' % CONDITION_LABEL[c],
                       lambda f, c=c: f['kind'] == 'synth' and f['set'] != 'synth-unvoiced'
                       and f['condition'] == c))
    for c in conds:
        groups.append(('all/%s' % c, 'everything, %s' % CONDITION_LABEL[c],
                       lambda f, c=c: f['condition'] == c))
    groups.append(('all', 'everything', lambda f: True))
    return groups, instruments, synth_sets, conds


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------

def fmt(x, nd=3):
    if x is None:
        return 'n/a'
    if isinstance(x, float):
        return '%.*f' % (nd, x)
    return str(x)


def jumps_cell(g):
    """Held notes with an octave jump, as `jumps / notes`."""
    return '%d / %d' % (g['octave_jump_notes'], g['notes']) if g.get('notes') else 'n/a'


def fmt_cpu(x):
    if x is None:
        return 'n/a'
    return '%.4f' % x if x < 0.1 else '%.3f' % x


def versions(etude, soundfont):
    def dpkg(name):
        try:
            return subprocess.run(['dpkg-query', '-W', '-f=${Version}', name],
                                  capture_output=True, text=True).stdout.strip() or 'missing'
        except OSError:
            return 'unknown'
    import importlib.metadata
    v = {}
    for mod in ('numpy', 'scipy', 'librosa', 'numba', 'mir_eval', 'soundfile', 'mido'):
        try:
            v[mod] = importlib.metadata.version(mod)
        except Exception:
            v[mod] = 'missing'
    v['aubio (python3-aubio / aubio-tools)'] = dpkg('python3-aubio') + ' / ' + dpkg('aubio-tools')
    v['fluidsynth'] = dpkg('fluidsynth')
    try:
        owner = subprocess.run(['dpkg-query', '-S', soundfont], capture_output=True,
                               text=True).stdout.split(':')[0].strip() or 'fluid-soundfont-gm'
    except OSError:
        owner = 'fluid-soundfont-gm'
    v[owner] = dpkg(owner)
    v['sox'] = dpkg('sox')
    v['python'] = platform.python_version()
    try:
        v['etude commit'] = subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'],
                                           capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return v


def cpu_model():
    try:
        with open('/proc/cpuinfo') as fh:
            for line in fh:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or 'unknown'


def write_report(path, R):
    trackers = R['trackers_run']
    G = R['groups']
    L = []
    w = L.append
    w('# Pitch tracking: Etude vs aubio vs librosa pyin')
    w('')
    w('Generated by `%s` on %s (%s, %d cores). Whole run: %s; tracking and scoring: %.1f min. '
      'Details: [README.md](README.md); per-file numbers in `%s`.'
      % (R['command'], R['date'], R['cpu_model'], R['cores'],
         ('%.1f min' % (R['run_wall_s'] / 60)) if R.get('run_wall_s') else 'n/a',
         R['eval_wall_s'] / 60, R['json_path']))
    w('')
    ds = R['dataset']
    w('Set: %d files, %.0f s of audio (renders of %d instruments and %d synthesized sets, each '
      'in the conditions %s; `synth-unvoiced` clean only); %d scored voiced frames, '
      '%d scored unvoiced frames, %d frames not scored.'
      % (ds['files'], ds['audio_s'], ds['instruments'], ds['synth_sets'],
         ', '.join(CONDITION_LABEL[c] for c in ds['conditions']), ds['voiced'], ds['unvoiced'],
         ds['ignored']))
    w('')
    if R['not_available']:
        for t, why in R['not_available'].items():
            w('- **%s: not available** (%s).' % (t, why))
        w('')
    if not trackers:
        w('No tracker ran.')
        with open(path, 'w') as fh:
            fh.write('\n'.join(L) + '\n')
        return

    # ---- summary
    w('## Summary')
    w('')
    w('RPA = raw pitch accuracy (voiced truth frames estimated voiced and within 50 cents), '
      'VFA = voicing false alarm, ¢ = median absolute error in cents (voiced frames estimated '
      'voiced), CPU = CPU seconds per audio second.')
    w('')
    w('| tracker | RPA clean renders | worst clean instrument (RPA) | RPA renders 10 dB | '
      'RPA synth 10 dB | VFA clean | VFA clean, far | VFA 10 dB | VFA 10 dB, far | VFA mains hum | '
      '¢ synth steady | octave errors clean renders | held notes with an octave jump, clean renders | '
      'CPU (all files) | CPU (%s) |'
      % ('%d s file' % round(R['throughput']['duration_s']) if R['throughput'] else 'long file'))
    w('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    insts = R['instruments']
    for t in trackers:
        g = G[t]
        worst = min(insts, key=lambda i: g['%s/clean' % i]['rpa'] if g['%s/clean' % i]['rpa']
                    is not None else 2)
        tp = R['throughput']['cpu_per_audio_s'].get(t) if R['throughput'] else None
        w('| %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            t, fmt(g['renders/clean']['rpa']), worst, fmt(g['%s/clean' % worst]['rpa']),
            fmt(g.get('renders/snr10', {}).get('rpa')), fmt(g.get('synth/snr10', {}).get('rpa')),
            fmt(g['all/clean']['voicing_false_alarm']),
            fmt(g['all/clean']['voicing_false_alarm_far']),
            fmt(g.get('all/snr10', {}).get('voicing_false_alarm')),
            fmt(g.get('all/snr10', {}).get('voicing_false_alarm_far')),
            fmt(g.get('all/hum', {}).get('voicing_false_alarm')),
            fmt(g['synth-steady/clean']['median_abs_cents'], 2),
            fmt(g['renders/clean']['octave_error_rate']), jumps_cell(g['renders/clean']),
            fmt_cpu(g['all']['cpu_per_audio_s']), fmt_cpu(tp)))
    w('')
    w('VFA clean covers the silences and decayed release tails of all clean files plus '
      '`synth-unvoiced` (noise, breath, clicks, silence); VFA 10 dB is the same silences with '
      'the added noise, VFA mains hum with 50 or 60 Hz hum 25 dB under the notes. "far" counts only unvoiced frames more than 50 ms from any note or '
      'unscored frame: phantom pitches in silence and noise, without the frames where a long '
      'analysis window still (or already) reaches into a note.')
    w('')

    # ---- per group, tracker rows
    w('## Every metric by group')
    w('')
    w('Pooled over the scored frames of all files in the group. RCA = raw chroma accuracy, '
      'VR = voicing recall, VFA far = false alarms on far unvoiced frames only, oct = octave-error rate (share of voiced frames off by 1 or 2 octaves '
      '±50 cents), jumps = held notes (50 ms or more scored) whose estimates within 50 cents of the '
      'pitch class fall in more than one octave, of all held notes, RPA nom. = RPA against the nominal equal-tempered MIDI frequency instead of '
      'the soundfont-tuned truth (renders only).')
    w('')
    w('| group | tracker | voiced | unvoiced | RPA | RCA | VR | VFA | VFA far | oct | jumps | ¢ | '
      'RPA nom. | CPU |')
    w('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    for gid, label in R['group_order']:
        for t in trackers:
            g = G[t].get(gid)
            if g is None:
                continue
            w('| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                label, t, g['voiced_frames'], g['unvoiced_frames'], fmt(g['rpa']), fmt(g['rca']),
                fmt(g['voicing_recall']), fmt(g['voicing_false_alarm']),
                fmt(g['voicing_false_alarm_far']),
                fmt(g['octave_error_rate']), jumps_cell(g), fmt(g['median_abs_cents'], 1),
                fmt(g['rpa_nominal']), fmt_cpu(g['cpu_per_audio_s'])))
    w('')

    # ---- RPA by set and condition
    w('## RPA by set and condition')
    w('')
    for c in R['conditions']:
        w('**%s**' % CONDITION_LABEL[c])
        w('')
        w('| set | ' + ' | '.join(trackers) + ' |')
        w('|---|' + '---:|' * len(trackers))
        for s in R['instruments'] + R['synth_sets']:
            key = '%s@%s' % (s, c)
            if key not in R['set_condition'][trackers[0]]:
                continue
            cells = [fmt(R['set_condition'][t][key]['rpa']) for t in trackers]
            w('| %s | %s |' % (s, ' | '.join(cells)))
        w('')
    w('Voicing false alarm by condition (all files of the condition; in brackets: far frames '
      'only):')
    w('')
    w('| condition | ' + ' | '.join(trackers) + ' |')
    w('|---|' + '---:|' * len(trackers))
    for c in R['conditions']:
        w('| %s | %s |' % (CONDITION_LABEL[c], ' | '.join(
            '%s (%s)' % (fmt(G[t]['all/%s' % c]['voicing_false_alarm']),
                         fmt(G[t]['all/%s' % c]['voicing_false_alarm_far'])) for t in trackers)))
    w('')

    # ---- throughput
    if R['throughput']:
        tp = R['throughput']
        w('## CPU on one %.0f s file' % tp['duration_s'])
        w('')
        w('`throughput.wav`: the clean renders back to back. CLIs: user+sys CPU of the process, '
          'best of %d runs; in-process Python: `time.process_time()`, best of %d (pyin: one run); '
          'the trackers take turns, one run each per round.' % (tp['repeat'], tp['repeat']))
        w('')
        w('| tracker | CPU s | CPU s / audio s | how |')
        w('|---|---:|---:|---|')
        for t, v in tp['cpu_per_audio_s'].items():
            how = ('child process (CLI)' if t.startswith(('etude-', 'aubiopitch-'))
                   else 'in-process Python')
            w('| %s | %s | %s | %s |' % (t, fmt(tp['cpu_s'][t], 3), fmt_cpu(v), how))
        if tp.get('cli_agreement'):
            w('')
            for k, v in tp['cli_agreement'].items():
                w('- `%s` (CLI) and `%s` (python3-aubio, before the confidence gate) give the same '
                  'frequency (within 0.01 Hz) on %.1f %% of frames.' % (k, 'aubio-' + k.split('-')[1],
                                                                        100 * v))
        w('')

    # ---- soundfont
    w('## Soundfont check (%s)' % os.path.splitext(R['soundfont'])[0])
    w('')
    w('Tuning: every (key, velocity) the set uses, rendered alone, median short-time frequency '
      'of partial 1 (partial 2 / 2 when partial 1 is 30 dB down) over 0.15-0.9 s, in cents from '
      'equal temperament; the truth of the renders uses these values. Spread: median over keys '
      'of the interquartile range of that short-time frequency (vibrato and wobble in the '
      'samples). In context: the same measure on the set\'s own notes (at least ~0.3 s long) '
      'against the truth. Onset delay: note-on to the first sample within 40 dB of the note\'s '
      'peak.')
    w('')
    w('| instrument | GM program | keys | keys measured | tuning median ¢ | min..max ¢ | '
      '>10 ¢ | >25 ¢ | spread ¢ | in context \\|dev\\| median / max ¢ | onset delay median / '
      'max ms |')
    w('|---|---:|---|---:|---:|---|---:|---:|---:|---|---|')
    for inst, rc in R['render_check'].items():
        s = rc['summary']
        w('| %s | %d | %d-%d | %d | %+.1f | %+.1f..%+.1f | %d | %d | %.1f | %s / %s | %s / %s |' % (
            inst, rc['program'], rc['range'][0], rc['range'][1], s['keys_calibrated'],
            s['tuning_median_cents'], s['tuning_min_cents'], s['tuning_max_cents'],
            s['keys_over_10_cents'], s['keys_over_25_cents'], s['spread_iqr_cents_median'],
            fmt(s['in_context_abs_dev_median'], 1), fmt(s['in_context_abs_dev_max'], 1),
            fmt(s['onset_delay_ms_median'], 1), fmt(s['onset_delay_ms_max'], 1)))
    w('')

    # ---- checks
    w('## Checks')
    w('')
    for t in trackers:
        mc = R['mir_eval'][t]
        w('- %s: own metrics equal mir_eval.melody (RPA, RCA, voicing recall and false alarm, '
          'to 1e-9) on %d of %d files with both voiced and unvoiced frames; %d tracker errors.'
          % (t, mc['agree'], mc['checked'], G[t]['all']['errors']))
    for t in trackers:
        tc = R['timing'].get(t)
        if tc:
            w('- %s time stamps: on the clean glides and vibrato, the error is smallest with the '
              'estimates shifted by %+d ms (mean %.2f cents there, %.2f cents unshifted).'
              % (t, tc['best_shift_ms'], tc['mean_cents_at_best'], tc['mean_cents_at_0']))
    w('')
    w('Versions: ' + ', '.join('%s %s' % (k, v) for k, v in R['versions'].items()) + '.')
    w('')
    with open(path, 'w') as fh:
        fh.write('\n'.join(L) + '\n')


# --------------------------------------------------------------------------------------------

def main():
    t_start = time.time()
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--data', help='dataset folder (default work/data or work/data-quick)')
    ap.add_argument('--etude', default='', help='path to the etude binary ("" = not available)')
    ap.add_argument('--etude-methods', default=DEFAULT_ETUDE_METHODS)
    ap.add_argument('--trackers', default='etude,aubio,pyin',
                    help='comma list of tracker names or families: etude, etude-METHOD, aubio, '
                         'aubio-yin, aubio-yinfft, pyin (= librosa-pyin)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--reuse', action='store_true',
                    help='reuse tracker outputs already in work/out* (re-score only)')
    ap.add_argument('--no-throughput', action='store_true')
    ap.add_argument('--results', help='markdown output (default results.md for work/data, '
                                      'work/results-NAME.md for a data folder work/data-NAME, '
                                      'so work/results-quick.md with --quick)')
    args = ap.parse_args()

    data = args.data or os.path.join(WORK, 'data-quick' if args.quick else 'data')
    # Each data folder keeps its own tracker outputs and JSON: work/data → work/out and
    # work/results.json, work/data-NAME (or any folder NAME) → work/out-NAME, work/results-NAME.json.
    name = os.path.basename(os.path.normpath(data))
    tag = '' if name == 'data' else '-' + (name[len('data-'):] if name.startswith('data-') else name)
    outdir = os.path.join(WORK, 'out' + tag)
    # results.md is the FluidR3 set's: another folder's report goes to work/ unless named.
    results_md = args.results or (os.path.join(HERE, 'results.md') if tag == ''
                                  else os.path.join(WORK, 'results%s.md' % tag))
    results_json = os.path.join(WORK, 'results%s.json' % tag)
    with open(os.path.join(data, 'manifest.json')) as fh:
        manifest = json.load(fh)
    files = manifest['files']

    # ---- which trackers
    etude_methods = [m for m in args.etude_methods.split(',') if m]
    wanted = []
    for name in args.trackers.split(','):
        name = name.strip()
        if name == 'etude':
            wanted += ['etude-' + m for m in etude_methods]
        elif name == 'aubio':
            wanted += ['aubio-yin', 'aubio-yinfft']
        elif name in ('pyin', 'librosa-pyin', 'librosa'):
            wanted.append('librosa-pyin')
        elif name.startswith('etude-') or name in ('aubio-yin', 'aubio-yinfft'):
            wanted.append(name)
        elif name:
            sys.exit('unknown tracker %r' % name)
    wanted = list(dict.fromkeys(wanted))

    not_available = {}
    probe = min(files, key=lambda f: f['duration'])
    probe_wav = os.path.join(data, probe['wav'])
    etude = os.path.abspath(args.etude) if args.etude else ''
    trackers = []
    for t in wanted:
        if t.startswith('etude-'):
            if not etude or not os.path.isfile(etude):
                not_available[t] = 'no etude binary' + (' at %s' % etude if etude else '')
                continue
            _, f0, _, _, err = run_etude(etude, t[len('etude-'):], probe_wav)
            if err:
                not_available[t] = '`etude pitch --method %s` on %s: %s' % (
                    t[len('etude-'):], probe['wav'], err)
                continue
        elif t.startswith('aubio-'):
            try:
                import aubio  # noqa: F401
            except ImportError:
                not_available[t] = 'python3-aubio not importable'
                continue
        elif t == 'librosa-pyin':
            try:
                import librosa  # noqa: F401
            except ImportError:
                not_available[t] = 'librosa not importable'
                continue
        trackers.append(t)
    for t, why in not_available.items():
        print('%s: not available (%s)' % (t, why), flush=True)

    # ---- run
    cost = {'librosa-pyin': 40.0, 'aubio-yin': 1.0, 'aubio-yinfft': 0.3}
    jobs = []
    for t in trackers:
        for f in files:
            out_path = os.path.join(outdir, t, f['wav'][:-4] + '.tsv')
            if args.reuse and os.path.exists(out_path):
                continue
            jobs.append((t, os.path.join(data, f['wav']), out_path, etude))
    jobs.sort(key=lambda j: -cost.get(j[0], 2.0) * os.path.getsize(j[1]))
    errors = {}
    if jobs:
        print('running %d tracker jobs on %d workers ...' % (len(jobs), args.jobs), flush=True)
        ctx = multiprocessing.get_context('spawn')
        need_pyin = any(j[0] == 'librosa-pyin' for j in jobs)
        done = 0
        t0 = time.time()
        with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs, mp_context=ctx,
                                                    initializer=init_worker,
                                                    initargs=(need_pyin,)) as ex:
            for res in ex.map(job, jobs, chunksize=1):
                done += 1
                if res['error']:
                    errors[(res['tracker'], res['wav'])] = res['error']
                if done % 50 == 0 or done == len(jobs):
                    print('  %d/%d jobs (%.0f s)' % (done, len(jobs), time.time() - t0),
                          flush=True)

    # ---- throughput on one long file
    throughput = None
    if not args.no_throughput and trackers:
        wav = os.path.join(data, manifest['throughput']['wav'])
        # Rounds: every tracker once per round, in turn, best of `repeat` rounds (pyin: one run),
        # so that a slow spell of the machine costs every tracker alike; the VM's speed drifts
        # by up to 2x over minutes, and three runs of one tracker in a row caught it unevenly.
        repeat = 7
        names = list(trackers) + ['aubiopitch-' + t.split('-')[1] for t in trackers
                                  if t.startswith('aubio-') and shutil.which('aubiopitch')]
        tjobs = [(t, wav, etude, r == 0) for r in range(repeat) for t in names
                 if r == 0 or t != 'librosa-pyin']
        print('timing %d trackers on %s, %d rounds ...' % (len(names), wav, repeat), flush=True)
        ctx = multiprocessing.get_context('spawn')
        with concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=ctx, initializer=init_worker,
                initargs=('librosa-pyin' in trackers,)) as ex:
            runs = list(ex.map(throughput_job, tjobs))
        tres = []
        for t in names:
            mine = [r for r in runs if r['tracker'] == t]
            failed = next((r for r in mine if r.get('error')), None)
            if failed:
                tres.append(failed)
                continue
            best = dict(mine[0])  # the first round's, with the cross-check's frequencies
            best['cpu'] = min(r['cpu'] for r in mine)
            best['runs'] = len(mine)
            tres.append(best)
        dur = manifest['throughput']['duration']
        throughput = dict(duration_s=dur, repeat=repeat, cpu_s={}, cpu_per_audio_s={},
                          cli_agreement={})
        for r in tres:
            if r.get('error'):
                print('throughput %s: %s' % (r['tracker'], r['error']))
                continue
            throughput['cpu_s'][r['tracker']] = r['cpu']
            throughput['cpu_per_audio_s'][r['tracker']] = r['cpu'] / dur
        for r in tres:
            if r['tracker'].startswith('aubiopitch-') and 'cli_freqs' in r:
                py = next((x for x in tres if x['tracker'] == 'aubio-' +
                           r['tracker'].split('-')[1] and 'py_freqs' in x), None)
                if py:
                    a = np.array(r['cli_freqs'])
                    b = np.array(py['py_freqs'])
                    n = min(len(a), len(b))
                    throughput['cli_agreement'][r['tracker']] = float(
                        np.mean(np.abs(a[:n] - b[:n]) < 0.01)) if n else 0.0

    # ---- score
    groups, instruments, synth_sets, conds = build_groups(files)
    per_file = {t: [] for t in trackers}
    mir = {t: dict(agree=0, checked=0, disagreements=[]) for t in trackers}
    for f in files:
        times, ref, scored, ref_nom = load_truth(os.path.join(data, f['truth']))
        far = far_mask(ref, scored)
        for t in trackers:
            out_path = os.path.join(outdir, t, f['wav'][:-4] + '.tsv')
            err = errors.get((t, os.path.join(data, f['wav'])))
            if err or not os.path.exists(out_path):
                est_t, est_f, cpu = np.zeros(0), np.zeros(0), 0.0
                err = err or 'no output'
            else:
                est_t, est_f, cpu = load_output(out_path)
            est = align(times, est_t, est_f)
            c, abs_err = frame_counts(ref[scored], est[scored],
                                      ref_nom[scored] if f['kind'] == 'render' else None,
                                      far[scored])
            c['notes'], c['octave_jump_notes'] = octave_jumps(ref, est, scored)
            rec = dict(file=f['wav'], set=f['set'], condition=f['condition'], kind=f['kind'],
                       duration=f['duration'], cpu=cpu, counts=c, abs_err=abs_err, error=err,
                       entry=f)
            per_file[t].append(rec)
            if c['voiced'] and c['unvoiced']:
                ok, mine, theirs = mir_eval_check(ref[scored], est[scored], c)
                mir[t]['checked'] += 1
                mir[t]['agree'] += int(ok)
                if not ok:
                    mir[t]['disagreements'].append(dict(file=f['wav'], mine=mine, mir_eval=theirs))

    timing = {t: timing_check(data, files, outdir, t) for t in trackers}
    G = {}
    SC = {}
    for t in trackers:
        G[t] = {}
        for gid, label, pred in groups:
            recs = [r for r in per_file[t] if pred(r['entry'])]
            if recs:
                G[t][gid] = pooled(recs)
        SC[t] = {}
        for s in instruments + synth_sets:
            for c in conds:
                recs = [r for r in per_file[t] if r['set'] == s and r['condition'] == c]
                if recs:
                    SC[t]['%s@%s' % (s, c)] = pooled(recs)

    ds = dict(files=len(files), audio_s=sum(f['duration'] for f in files),
              instruments=len(instruments), synth_sets=len(synth_sets), conditions=conds,
              voiced=sum(f['voiced'] for f in files), unvoiced=sum(f['unvoiced'] for f in files),
              ignored=sum(f['ignored'] for f in files))
    run_wall = None
    if os.environ.get('PITCH_EVAL_START'):
        run_wall = time.time() - float(os.environ['PITCH_EVAL_START'])
    cmd = os.environ.get('PITCH_EVAL_COMMAND') or 'python3 Evaluation/pitch/evaluate.py ' + \
        ' '.join(sys.argv[1:])
    R = dict(command=cmd, date=datetime.datetime.now().strftime('%Y-%m-%d %H:%M'),
             cpu_model=cpu_model(), cores=os.cpu_count() or 0, quick=args.quick,
             run_wall_s=run_wall, eval_wall_s=time.time() - t_start, dataset=ds,
             trackers_run=trackers, not_available=not_available, instruments=instruments,
             synth_sets=synth_sets, conditions=conds,
             group_order=[(gid, label) for gid, label, _ in groups], groups=G,
             set_condition=SC, throughput=throughput, render_check=manifest['render_check'],
             mir_eval={t: dict(agree=m['agree'], checked=m['checked']) for t, m in mir.items()},
             timing=timing, soundfont=os.path.basename(manifest.get('soundfont', 'FluidR3_GM.sf2')),
             json_path=os.path.relpath(results_json, HERE),
             versions=versions(etude, manifest.get('soundfont', '/usr/share/sounds/sf2/FluidR3_GM.sf2')))
    write_report(results_md, R)
    J = dict(R)
    J['render_check'] = manifest['render_check']
    J['mir_eval'] = mir
    J['per_file'] = {t: [dict(file=r['file'], set=r['set'], condition=r['condition'],
                              duration=r['duration'], cpu=r['cpu'], error=r['error'],
                              **r['counts'],
                              median_abs_cents=float(np.median(r['abs_err']))
                              if len(r['abs_err']) else None)
                         for r in per_file[t]] for t in trackers}
    J['manifest'] = dict((k, v) for k, v in manifest.items() if k not in ('files', 'render_check'))
    os.makedirs(os.path.dirname(results_json), exist_ok=True)
    with open(results_json, 'w') as fh:
        json.dump(J, fh, indent=1, default=float)
    print('wrote %s and %s (%.0f s)' % (results_md, results_json, time.time() - t_start))
    for t in trackers:
        g = G[t]
        print('%-14s RPA clean renders %s, 10 dB %s, VFA clean %s, steady median %s cents, '
              'CPU %s s/s' % (t, fmt(g['renders/clean']['rpa']),
                              fmt(g.get('renders/snr10', {}).get('rpa')),
                              fmt(g['all/clean']['voicing_false_alarm']),
                              fmt(g['synth-steady/clean']['median_abs_cents'], 2),
                              fmt_cpu(g['all']['cpu_per_audio_s'])))


if __name__ == '__main__':
    main()
