"""Runs every benchmarks/bench_*.py case for cuarray, cupy and torch in one process; prints and saves the table."""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import common  # noqa: E402
import record  # noqa: E402


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _selected(c: common.Case, patterns: list[str] | None) -> bool:
    if not patterns:
        return True
    names = (c.name, c.module, c.module.removeprefix("bench_"), c.module.removeprefix("bench_scipy_"))
    return any(fnmatch.fnmatchcase(n, p) for p in patterns for n in names)


def _warm_up(backends: dict, seconds: float = 0.5) -> None:
    """Small calls of every library for a while before the first case, so that the GPU and the host run at
    their working clocks: without it the first cases of a run measured up to ~1 µs slower per small call
    than the same calls later in the run (seen on the H100 machine, tools/diag/sizes.py)."""
    import numpy as np

    for b in backends.values():
        if not b.available:
            continue
        try:
            x = common.to_device(b, np.ones(1024, dtype=np.float32))
            t_end = time.perf_counter() + seconds
            while time.perf_counter() < t_end:
                for _ in range(200):
                    x + x
                b.sync()
            del x
        except Exception as e:  # a library that cannot run small calls shows its error in the cases
            _log(f"{b.name}: warm-up failed: {type(e).__name__}: {e}")


def _compare(data: dict, baseline: Path) -> str:
    """The run against the last recorded figures (benchmarks/record.py): every case more than 5% slower."""
    try:
        return record.report(data, record.load(baseline))
    except (OSError, ValueError) as e:
        return f"slower than recorded: no comparison ({e})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (whole run < 60 s on the GPU machine)")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="folder for results.json and results.md")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="case names, module names or glob patterns")
    ap.add_argument("--libs", nargs="+", choices=common.LIBRARIES, default=list(common.LIBRARIES),
                    help="libraries to measure (default: all that are installed)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--summarize", type=Path, metavar="RESULTS_JSON",
                    help="print the short summary (name/ratio/target columns) of an earlier run and exit")
    ap.add_argument("--plot", type=Path, metavar="RESULTS_JSON",
                    help="draw the PNG plots of an earlier run into --out/plots (needs matplotlib) and exit")
    ap.add_argument("--no-plots", action="store_true", help="do not draw the PNG plots after the run")
    ap.add_argument("--baseline", type=Path, default=record.RECORD, metavar="RECORD_JSON",
                    help="the record a run (or --summarize) is compared with: cases more than 5%% slower than it on "
                         "the same GPU model are printed (default: benchmarks/recorded.json)")
    ap.add_argument("--record", type=Path, metavar="RESULTS_JSON",
                    help="merge an earlier run's cuarray times into the --baseline record and exit")
    ap.add_argument("--commit", metavar="SHA", help="with --record: the commit measured, where the run's own is wrong")
    args = ap.parse_args(argv)

    if args.record is not None:
        try:
            data = json.loads(args.record.read_text())
            if args.commit:
                data.setdefault("meta", {})["commit"] = args.commit
            rec, n = record.merge(data, record.load(args.baseline))
            record.save(rec, args.baseline)
        except (OSError, ValueError, AttributeError) as e:
            print(f"bench: cannot record ({e})")
            return 1
        print(f"bench: recorded {n} cases of {data['meta'].get('device')} at {data['meta'].get('commit')} "
              f"into {args.baseline}")
        return 0

    if args.plot is not None:
        import plot

        return plot.main([str(args.plot), "--out", str(args.out / "plots")])

    if args.summarize is not None:
        try:
            data = json.loads(args.summarize.read_text())
        except (OSError, ValueError) as e:
            print(f"bench: no results ({e})")
            return 1
        try:
            print(f"bench: {common.summary_line(data)}")
            print(_compare(data, args.baseline))
            print(common.render_short(data))
        except BrokenPipeError:  # piped into head
            pass
        return 0

    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    for m in modules:
        try:
            importlib.import_module(m)
        except Exception as e:
            _log(f"benchmarks: cannot import {m}: {type(e).__name__}: {e}")
    cases = [c for c in common.REGISTRY if _selected(c, args.only)]
    if args.list:
        for c in cases:
            print(f"{c.name:<30} {c.module:<18} {c.doc}")
        return 0
    if not cases:
        print(f"benchmarks: no case matches {args.only}")
        return 2

    t_start = time.perf_counter()
    backends = common.detect_backends(tuple(args.libs))
    for n, b in backends.items():
        _log(f"{n:<8} {'available ' + str(b.version) if b.available else 'unavailable: ' + b.reason}")
    if not any(b.available for b in backends.values()):
        print("benchmarks: no GPU array library is available, nothing to measure:")
        for n, b in backends.items():
            print(f"  {n}: {b.reason}")
        return 0

    _warm_up(backends)
    cfg = common.Config(quick=args.quick)
    data = {"meta": common.collect_meta(backends, args.quick), "cases": []}
    _log(f"device: {data['meta']['device']}; {len(cases)} cases, {'quick' if args.quick else 'full'} mode")
    for i, c in enumerate(cases, 1):
        _log(f"[{i}/{len(cases)}] {c.name}")
        data["cases"].append(common.run_case(c, backends, cfg, _log))
        data["meta"]["elapsed_s"] = round(time.perf_counter() - t_start, 2)
        common.write_results(data, args.out)  # after every case, so a crash or kill keeps what was measured

    cfg.clear(kept=True)
    print(common.render_markdown(data))
    print(_compare(data, args.baseline))
    _log(f"wrote {args.out / 'results.json'} and {args.out / 'results.md'} ({data['meta']['elapsed_s']:.1f} s)")
    if not args.no_plots:
        import plot  # imports matplotlib only inside, and skips with a message without it

        pngs = plot.plot_results(data, args.out / "plots")
        if pngs:
            _log(f"wrote {len(pngs)} plots into {args.out / 'plots'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
