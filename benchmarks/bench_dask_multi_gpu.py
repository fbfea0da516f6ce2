"""Dask on several GPUs (issue 21): a 2**32-element float32 reduction and a 32768^2 float32 matmul with cuarray
chunks on 1 and 2 GPUs (one dask.distributed worker per GPU), and plain cuarray on one GPU.

Standalone (not a run.py case): python benchmarks/bench_dask_multi_gpu.py --gpus 1,2 --out DIR [--peer-cupy]
Target: 2 GPUs >= 1.8x one GPU with Dask. Writes DIR/dask_multi_gpu.json.
"""
import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path


def _example():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
    import dask_multi_gpu
    return dask_multi_gpu


def _best(fn, reps, before=None):
    """Seconds of the fastest of `reps` calls of `fn`, after one warm-up call; `before` runs untimed before each."""
    fn()
    best = float("inf")
    for _ in range(reps):
        if before is not None:
            before()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _plain(n_reduce, side, reps):
    """The same work with cuarray alone on device 0 (best of `reps`, synchronised)."""
    import numpy
    import cuarray

    def reduction():
        x = cuarray.random.RandomState(0).random_sample(n_reduce, dtype=numpy.float32)
        return float(x.sum(dtype=numpy.float64))

    def matmul():
        a = cuarray.random.RandomState(0).random_sample((side, side), dtype=numpy.float32)
        b = cuarray.random.RandomState(1).random_sample((side, side), dtype=numpy.float32)
        return float((a @ b).sum(dtype=numpy.float64))

    out = {name: _best(fn, reps, before=cuarray.cuda.Device().synchronize)
           for name, fn in (("reduction", reduction), ("matmul", matmul))}
    # The Dask worker of GPU 0 needs this memory; the client's pool would keep it.
    cuarray.get_default_memory_pool().free_all_blocks()
    return out


def _task_summary(records):
    """Per worker: tasks and seconds of task time by key prefix, and the span from first start to last stop."""
    per = {}
    for r in records:
        w = per.setdefault(r["worker"], {"span": [float("inf"), 0.0], "tasks": {}})
        key = r["key"][0] if isinstance(r["key"], tuple) else r["key"]
        prefix = str(key).rsplit("-", 1)[0]
        for ss in r["startstops"]:
            if ss["action"] != "compute":
                continue
            n, secs = w["tasks"].get(prefix, (0, 0.0))
            w["tasks"][prefix] = (n + 1, secs + ss["stop"] - ss["start"])
            w["span"] = [min(w["span"][0], ss["start"]), max(w["span"][1], ss["stop"])]
    t0 = min((w["span"][0] for w in per.values()), default=0.0)
    return {worker: {"from_s": round(w["span"][0] - t0, 4), "to_s": round(w["span"][1] - t0, 4),
                     "tasks": {p: [n, round(secs, 4)] for p, (n, secs) in sorted(w["tasks"].items())}}
            for worker, w in sorted(per.items())}


def _dask(ex, gpus, n_reduce, side, reps, diag=None):
    from distributed import Client, get_task_stream
    builds = dict(zip(("reduction", "matmul", "pipeline"), (b for _, b in ex.workloads(n_reduce, side))))
    out = {}
    with ex.gpu_cluster(gpus) as cluster, Client(cluster) as client:
        client.wait_for_workers(len(gpus))
        for name in ("reduction", "matmul"):
            out[name] = _best(lambda: float(builds[name]().compute()), reps)
            if diag is not None:  # one more run, recorded: which worker ran what, for how long
                with get_task_stream(client) as ts:
                    float(builds[name]().compute())
                diag[f"{len(gpus)}gpu {name}"] = summary = _task_summary(ts.data)
                print(f"  tasks, {len(gpus)} GPU(s), {name}: {json.dumps(summary)}", flush=True)
    return out


def _cupy_settled(block):
    """The example's `settled` for a CuPy chunk: the task lasts as long as its GPU work."""
    import cupy
    cupy.cuda.get_current_stream().synchronize()
    return block


def _cupy_reduction(n_reduce, seed=0):
    """The example's reduction with CuPy chunks: the same chunks, the same graph."""
    import cupy
    import dask.array as da
    import numpy
    x = da.random.RandomState(seed, RandomState=cupy.random.RandomState).random_sample(
        n_reduce, chunks=max(n_reduce // 4, 1), dtype=numpy.float32)
    return x.map_blocks(_cupy_settled, dtype=numpy.float32, meta=cupy.empty((0,), dtype=numpy.float32)).sum(
        dtype=numpy.float64)


def _cupy_peer(ex, counts, available, n_reduce, reps):
    """CuPy with Dask on the same cluster shapes (reduction only): plain CuPy on one GPU and Dask on each count."""
    import cupy
    import numpy
    from distributed import Client

    def plain():
        x = cupy.random.RandomState(0).random_sample(n_reduce, dtype=numpy.float32)
        return float(x.sum(dtype=numpy.float64))

    out = {"cupy_1gpu": {"reduction": _best(plain, reps, before=cupy.cuda.Device().synchronize)}}
    cupy.get_default_memory_pool().free_all_blocks()
    for n in counts:
        if n > available:
            continue
        with ex.gpu_cluster(list(range(n))) as cluster, Client(cluster) as client:
            client.wait_for_workers(n)
            best = _best(lambda: float(_cupy_reduction(n_reduce).compute()), reps)
        out[f"cupy_dask_{n}gpu"] = {"reduction": best}
        print(f"cupy + dask, {n} GPU(s): reduction {best:.4f} s", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpus", default="1,2", help="comma-separated GPU counts to run Dask with")
    ap.add_argument("--out", default=".", help="directory for dask_multi_gpu.json")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="2**24 elements and 2048^2, for a quick check")
    ap.add_argument("--time-limit", type=int, default=540, help="seconds before the run gives up (SIGALRM)")
    ap.add_argument("--diag", action="store_true",
                    help="also record one run's task stream per worker, and sample nvidia-smi's clocks and power")
    ap.add_argument("--peer-cupy", action="store_true",
                    help="also run the reduction with CuPy chunks (plain CuPy and CuPy with Dask on each GPU count)")
    args = ap.parse_args()
    smi = None
    if args.diag:
        os.makedirs(args.out, exist_ok=True)
        import subprocess
        smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,index,clocks.sm,power.draw,temperature.gpu,"
                                "clocks_event_reasons.active", "--format=csv", "-lms", "250"],
                               stdout=open(Path(args.out, "smi.csv"), "w"), stderr=subprocess.DEVNULL)
    signal.alarm(args.time_limit)
    n_reduce, side = (2**24, 2048) if args.small else (2**32, 32768)
    ex = _example()
    counts = [int(c) for c in args.gpus.split(",") if c]
    available = ex.gpu_count()
    result = {"n_reduce": n_reduce, "side": side, "reps": args.reps, "gpus_available": available, "seconds": {}}
    result["seconds"]["cuarray_1gpu"] = _plain(n_reduce, side, args.reps)
    print(f"plain cuarray, 1 GPU: {result['seconds']['cuarray_1gpu']}", flush=True)
    for n in counts:
        if n > available:
            print(f"skip {n} GPUs: only {available}")
            continue
        print(f"dask, {n} GPU(s) from {time.strftime('%H:%M:%S')}", flush=True)
        result["seconds"][f"dask_{n}gpu"] = _dask(ex, list(range(n)), n_reduce, side, args.reps,
                                                  result.setdefault("tasks", {}) if args.diag else None)
        print(f"dask, {n} GPU(s): {result['seconds'][f'dask_{n}gpu']} until {time.strftime('%H:%M:%S')}", flush=True)
    if args.peer_cupy:
        result["seconds"].update(_cupy_peer(ex, counts, available, n_reduce, args.reps))
    if smi is not None:
        smi.terminate()
    secs = result["seconds"]
    ratios = {}
    for name in ("reduction", "matmul"):
        if "dask_1gpu" in secs:
            for n in counts:
                if n > 1 and f"dask_{n}gpu" in secs:
                    ratios[f"{name}: dask {n} GPUs vs dask 1 GPU"] = secs["dask_1gpu"][name] / secs[f"dask_{n}gpu"][name]
        for n in counts:
            if f"dask_{n}gpu" in secs:
                ratios[f"{name}: dask {n} GPUs vs plain cuarray"] = secs["cuarray_1gpu"][name] / secs[f"dask_{n}gpu"][name]
    if "cupy_dask_1gpu" in secs:  # the same reduction with CuPy chunks: how far Dask itself scales it
        for n in counts:
            if n > 1 and f"cupy_dask_{n}gpu" in secs:
                ratios[f"reduction (CuPy): dask {n} GPUs vs dask 1 GPU"] = (
                    secs["cupy_dask_1gpu"]["reduction"] / secs[f"cupy_dask_{n}gpu"]["reduction"])
        for n in counts:
            if f"cupy_dask_{n}gpu" in secs:
                ratios[f"reduction (CuPy): dask {n} GPUs vs plain CuPy"] = (
                    secs["cupy_1gpu"]["reduction"] / secs[f"cupy_dask_{n}gpu"]["reduction"])
    result["ratios"] = ratios
    result["target_met"] = all(v >= 1.8 for k, v in ratios.items() if "vs dask 1 GPU" in k and "CuPy" not in k) if any(
        "vs dask 1 GPU" in k for k in ratios) else None
    for k, v in ratios.items():
        print(f"{k:<45s} {v:6.2f}x")
    print(f"target (2 GPUs >= 1.8x 1 GPU): {result['target_met']}")
    os.makedirs(args.out, exist_ok=True)
    Path(args.out, "dask_multi_gpu.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
