#!/usr/bin/env python3
"""Differential fuzzing of cuarray against NumPy: N seeded cases over every function family, in worker processes.

    python tools/fuzz.py --cases 10000 --seed 0 --out DIR [--families a,b] [--time-limit S] [--jobs J]

Case i of seed S is drawn from random.Random('S:i') by the generators of tests/python/_fuzz.py (families take
turns), so the same seed gives the same cases; its id is 'S:i:family', and `--replay S:i:family` runs it again in
this process and prints it.
Cases run in batches (--batch, default 250) in child processes with CUARRAY_CHECK_INDEX=1, several at once
(--jobs). When a child dies during a case, that case runs again alone in a fresh child; if it survives there, the
cases before it in the batch are added back (1, 2, 4, ...) until the crash comes back, and the case is recorded
as a `crash` with what it needs; the batch then goes on in a new child.

Writes DIR/fuzz_report.json (every non-matching case with its description, NumPy's and cuarray's outcome) and
DIR/fuzz_summary.txt, prints the first mismatches grouped by family and ends with one line:

    fuzz: N cases, C crashes, W wrong results, S silent successes, T wrong exception types, E errors where NumPy
    succeeds (per family: creation 2/834, ...)

("family m/n": m mismatches in n cases). Exit status: 0 no mismatch, 1 mismatches, 2 no GPU or cuarray missing.
`--against-numpy` runs the whole pipeline with NumPy in place of cuarray (no GPU needed): it must find nothing.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'python'))

import _fuzz  # noqa: E402

KIND_NAMES = (('crash', 'crashes'), ('wrong_result', 'wrong results'), ('silent_success', 'silent successes'),
              ('wrong_exception_type', 'wrong exception types'),
              ('error_where_numpy_succeeds', 'errors where NumPy succeeds'))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--cases', type=int, default=10000, help='number of cases (default 10000)')
    p.add_argument('--seed', type=int, default=0, help='seed of the run (default 0)')
    p.add_argument('--out', default='fuzz_out', help='directory for fuzz_report.json and fuzz_summary.txt')
    p.add_argument('--families', default=','.join(_fuzz.FAMILIES),
                   help='comma-separated families (default all: {})'.format(', '.join(_fuzz.FAMILIES)))
    p.add_argument('--time-limit', type=float, default=None,
                   help='stop starting new cases after S seconds and report what ran')
    p.add_argument('--batch', type=int, default=250, help='cases per child process (default 250)')
    p.add_argument('--jobs', type=int, default=min(4, os.cpu_count() or 1),
                   help='child processes at once (default min(4, CPUs))')
    p.add_argument('--case-timeout', type=float, default=120.0,
                   help='seconds one case may take before its child is killed and the case counts as a crash')
    p.add_argument('--show', type=int, default=40, help='mismatches to print (default 40)')
    p.add_argument('--replay', nargs='+', metavar='SEED:INDEX:FAMILY',
                   help='run these cases (ids from the report) in this process and print them')
    p.add_argument('--against-numpy', action='store_true',
                   help='test the harness: NumPy in place of cuarray, no GPU needed; every case must match')
    return p.parse_args(argv)


def check_cuarray():
    """None when cuarray imports and has a device, else the reason."""
    try:
        import cuarray
    except Exception as e:  # noqa: BLE001
        return 'cannot import cuarray ({}: {}); build it and put build/python on PYTHONPATH'.format(
            type(e).__name__, e)
    try:
        ok = cuarray.is_available()
    except Exception as e:  # noqa: BLE001
        return 'cuarray.is_available() raised {}: {}'.format(type(e).__name__, e)
    if not ok:
        return 'no CUDA device: cuarray.is_available() is False (run this on a GPU machine, or use --against-numpy)'
    return None


class Runner:
    """Runs batches of case indices in worker processes; finds crashing cases."""

    def __init__(self, args, families):
        self.args = args
        self.families = families
        self.env = _fuzz.worker_env({'CUARRAY_FUZZ_AGAINST_NUMPY': '1'} if args.against_numpy else None)
        self.deadline = None if args.time_limit is None else time.monotonic() + args.time_limit
        self.lock = threading.Lock()
        self.records = {}
        self.done = 0
        self.stopped = False
        self.fatal = None
        self.started = time.monotonic()

    def case(self, i):
        return _fuzz.case_for(self.args.seed, i, self.families)

    def out_of_time(self):
        return self.deadline is not None and time.monotonic() > self.deadline

    def worker(self):
        return _fuzz.Worker(timeout=self.args.case_timeout, env=self.env)

    def record(self, i, rec):
        with self.lock:
            self.records[i] = rec
            self.done += 1
            if self.done % 1000 == 0:
                print('fuzz: {} cases done ({:.0f} s)'.format(self.done, time.monotonic() - self.started),
                      file=sys.stderr, flush=True)

    def run_batch(self, indices):
        w = self.worker()
        try:
            for pos, i in enumerate(indices):
                if self.fatal:
                    return
                if self.out_of_time():
                    self.stopped = True
                    return
                try:
                    case = self.case(i)
                except Exception as e:  # noqa: BLE001 - a generator bug: reported, not fatal
                    fam = self.families[i % len(self.families)]
                    self.record(i, {'family': fam, 'case': '{}:{}:{}'.format(self.args.seed, i, fam),
                                    'desc': '(generation failed)',
                                    'outcome': 'harness_error', 'numpy': '', 'cuarray': '',
                                    'detail': '{}: {}'.format(type(e).__name__, e)})
                    continue
                try:
                    rec = w.run(case)
                except _fuzz.WorkerError as e:
                    self.fatal = str(e)
                    return
                if rec['outcome'] == 'crash':
                    rec = self.explain_crash(indices[:pos], i, rec)
                self.record(i, rec)
        finally:
            w.close()

    def _crashes(self, indices):
        """Run `indices` in one fresh worker; True when it dies on the last one."""
        w = self.worker()
        try:
            for i in indices:
                rec = w.run(self.case(i))
                if rec['outcome'] == 'crash':
                    return i == indices[-1], rec
            return False, None
        except _fuzz.WorkerError:
            return False, None
        finally:
            w.close()

    def explain_crash(self, before, i, rec):
        """The child died during case i: is it the case alone, or the case after some earlier ones?"""
        alone, again = self._crashes([i])
        if alone:
            rec = again
            rec['detail'] = ('reproduced alone in a fresh process. ' + rec.get('detail', '')).strip()
            return rec
        k, missed = 1, 0
        while k <= len(before):
            hit, again = self._crashes(list(before[-k:]) + [i])
            if hit:
                # The shortest run of preceding cases that still crashes (binary search between missed and k).
                lo, hi = missed, k
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    h2, a2 = self._crashes(list(before[-mid:]) + [i])
                    if h2:
                        hi, again = mid, a2
                    else:
                        lo = mid
                first = self.case(before[-hi])
                rec = again
                rec['detail'] = ('crashes only after the {} case(s) before it in the same process, the first of '
                                 'them {} ({}). '.format(hi, first.cid, _fuzz.describe(first)) +
                                 rec.get('detail', '')).strip()
                return rec
            if k == len(before):
                break
            missed = k
            k = min(2 * k, len(before))
        rec['detail'] = ('not reproducible (alone or after the cases before it): a flaky crash. ' +
                         rec.get('detail', '')).strip()
        return rec


def replay(args, families):
    if not args.against_numpy:
        os.environ.setdefault('CUARRAY_CHECK_INDEX', '1')
        reason = check_cuarray()
        if reason:
            print('fuzz: ' + reason)
            return 2
    import numpy
    cu = numpy if args.against_numpy else None
    status = 0
    for cid in args.replay:
        parts = cid.split(':')
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] not in _fuzz.GENERATORS):
            print('fuzz: a case id is SEED:INDEX:FAMILY (or SEED:INDEX with --families as in its run), not ' + cid)
            return 2
        case = _fuzz.case_for(int(parts[0]), int(parts[1]), parts[2] if len(parts) == 3 else families)
        rec = _fuzz.compare(case, cu)
        print(_fuzz.format_record(rec))
        print('    outcome: ' + rec['outcome'])
        if rec['outcome'] not in _fuzz.OK_OUTCOMES:
            status = 1
    return status


def summarize(args, families, runner, n_requested, elapsed):
    recs = [runner.records[i] for i in sorted(runner.records)]
    counts = collections.Counter(r['outcome'] for r in recs)
    per_family = collections.OrderedDict((f, collections.Counter()) for f in families)
    for r in recs:
        per_family.setdefault(r['family'], collections.Counter())[r['outcome']] += 1
    mismatches = [r for r in recs if r['outcome'] in _fuzz.MISMATCHES]
    harness = [r for r in recs if r['outcome'] not in _fuzz.MISMATCHES + _fuzz.OK_OUTCOMES]
    fam_text = ', '.join('{} {}/{}'.format(f, sum(c[k] for k in _fuzz.MISMATCHES), sum(c.values()))
                         for f, c in per_family.items())
    closing = 'fuzz: {} cases, {} crashes, {} wrong results, {} silent successes, {} wrong exception types, ' \
              '{} errors where NumPy succeeds (per family: {})'.format(
                  len(recs), counts['crash'], counts['wrong_result'], counts['silent_success'],
                  counts['wrong_exception_type'], counts['error_where_numpy_succeeds'], fam_text)
    by_family = collections.OrderedDict()
    for r in mismatches:
        by_family.setdefault(r['family'], []).append(r)
    report = {
        'seed': args.seed, 'cases_requested': n_requested, 'cases_run': len(recs),
        'stopped_by_time_limit': runner.stopped, 'time_limit_s': args.time_limit, 'elapsed_s': round(elapsed, 1),
        'families': list(families), 'against_numpy': args.against_numpy,
        'counts': dict(counts), 'per_family': {f: dict(c) for f, c in per_family.items()},
        'skip_reasons': dict(collections.Counter(r['detail'] for r in recs if r['outcome'] == 'skip')),
        'mismatches': mismatches, 'harness_errors': harness,
        'replay': 'python tools/fuzz.py --replay ID (ID: the "case" field)',
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'fuzz_report.json'), 'w') as f:
        json.dump(report, f, indent=1)
    head = ['cuarray fuzz run: seed {}, {} of {} cases in {:.0f} s{}{}'.format(
        args.seed, len(recs), n_requested, elapsed, ' (stopped by --time-limit)' if runner.stopped else '',
        ' (NumPy against itself)' if args.against_numpy else ''),
        'outcomes: ' + ', '.join('{} {}'.format(k, v) for k, v in sorted(counts.items())),
        '"family m/n" below: m mismatches among n cases; replay a case with: python tools/fuzz.py --replay ID', '']
    body = []
    for fam, rs in by_family.items():
        body.append('== {} ({} mismatches) =='.format(fam, len(rs)))
        body.extend(_fuzz.format_record(r) for r in rs[:200])
        if len(rs) > 200:
            body.append('... {} more in fuzz_report.json'.format(len(rs) - 200))
        body.append('')
    if harness:
        body.append('== harness errors ({}) =='.format(len(harness)))
        body.extend(_fuzz.format_record(r) for r in harness[:50])
        body.append('')
    with open(os.path.join(args.out, 'fuzz_summary.txt'), 'w') as f:
        f.write('\n'.join(head + body + [closing]) + '\n')
    # stdout: the first mismatches grouped by family, then the closing line.
    shown = 0
    for fam, rs in by_family.items():
        if shown >= args.show:
            break
        take = rs[:max(1, min(len(rs), args.show - shown))]
        print('== {} ({} mismatches{}) =='.format(fam, len(rs), ', first {}'.format(len(take))
                                                   if len(take) < len(rs) else ''))
        for r in take:
            print(_fuzz.format_record(r))
        shown += len(take)
    if harness:
        print('fuzz: {} harness errors (bugs of the fuzzer, see {}):'.format(
            len(harness), os.path.join(args.out, 'fuzz_report.json')))
        for r in harness[:3]:
            print(_fuzz.format_record(r))
    if runner.stopped:
        print('fuzz: stopped by --time-limit after {} of {} cases'.format(len(recs), n_requested))
    print(closing)
    return 1 if mismatches or harness else 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    families = tuple(f.strip() for f in args.families.split(',') if f.strip())
    unknown = [f for f in families if f not in _fuzz.GENERATORS]
    if unknown or not families:
        print('fuzz: unknown families {} (known: {})'.format(unknown, ', '.join(_fuzz.FAMILIES)))
        return 2
    if args.replay:
        return replay(args, families)
    if not args.against_numpy:
        reason = check_cuarray()
        if reason:
            print('fuzz: ' + reason)
            return 2
    n = max(0, args.cases)
    batch = max(1, args.batch)
    batches = [list(range(s, min(n, s + batch))) for s in range(0, n, batch)]
    runner = Runner(args, families)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(runner.run_batch, b) for b in batches]
        try:
            for fut in concurrent.futures.as_completed(futures):
                fut.result()
        except KeyboardInterrupt:
            runner.stopped = True
            runner.deadline = time.monotonic()
            raise
    if runner.fatal:
        print('fuzz: ' + runner.fatal)
        return 2
    return summarize(args, families, runner, n, time.monotonic() - start)


if __name__ == '__main__':
    sys.exit(main())
