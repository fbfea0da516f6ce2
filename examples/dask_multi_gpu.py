"""Multi-GPU dask.array with cuarray chunks: one dask.distributed worker process per GPU.

Run: python examples/dask_multi_gpu.py [--gpus N]   (needs `pip install cuarray[dask]`)
Each worker gets CUDA_VISIBLE_DEVICES=<its GPU> in its environment before it starts, so the cuarray it imports
sees one device, its device 0. Computes a 2**32-element float32 reduction, a 32768^2 float32 matmul and a chunked
elementwise pipeline on all GPUs, then on one GPU, and prints the times.
"""
import argparse
import os
import subprocess
import time

import numpy


def gpu_count():
    """GPUs on this machine, from nvidia-smi, so that the client process need not touch a device."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return len([d for d in os.environ["CUDA_VISIBLE_DEVICES"].split(",") if d.strip()])
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=True).stdout
    return sum(1 for line in out.splitlines() if line.startswith("GPU "))


def gpu_cluster(gpus):
    """A local cluster of one single-threaded Nanny-managed worker per GPU id in `gpus`."""
    from distributed import Nanny, Scheduler, SpecCluster
    workers = {f"gpu{g}": {"cls": Nanny, "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(g)},
                                                     "memory_limit": 0}}
               for g in gpus}
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    return SpecCluster(workers=workers, scheduler=scheduler, silence_logs=40)


def timed(label, fn):
    t = time.perf_counter()
    value = fn()
    dt = time.perf_counter() - t
    print(f"  {label:<28s} {dt:8.3f} s")
    return value, dt


def settled(block):
    """`block` once the GPU has computed it.

    cuarray, like CuPy, returns as soon as the GPU work is queued, so a task "finishes" in microseconds and the
    scheduler, which balances workers by how long their tasks take, cannot see the GPU time: one worker could be
    handed most of the blocks while the other waits (2 GPUs gave 1.45-1.54x instead of 2x). Waiting here, in the
    worker's task thread with the GIL released, makes each task last as long as its GPU work.
    """
    import cuarray
    cuarray.cuda.get_current_stream().synchronize()
    return block


def workloads(n_reduce=2**32, side=32768, seed=0):
    """(name, builder) pairs; each builder returns a dask array of cuarray chunks, made on the workers."""
    import cuarray
    import dask.array as da
    meta = cuarray.empty((0,) * 2, dtype=numpy.float32)

    def rs():
        return da.random.RandomState(seed, RandomState=cuarray.random.RandomState)

    def reduction():
        # Few large chunks: each 2**30-element chunk is milliseconds of GPU work, about what Dask spends on a task.
        x = rs().random_sample(n_reduce, chunks=max(n_reduce // 4, 1), dtype=numpy.float32)
        return x.map_blocks(settled, dtype=numpy.float32, meta=meta.reshape(0)).sum(dtype=numpy.float64)

    def matmul():
        # C = A @ B by row blocks of A. Every worker makes the same B from the same seed on its own GPU instead
        # of receiving it: distributed would move a 4 GiB chunk through host memory and TCP.
        # 16 row blocks of about 80 ms each on an H100: a worker spends 10-15 ms between two tasks (the task
        # streams of 2026-11-27), so fewer, larger blocks lose less; as tasks last as long as their GPU work
        # (`settled`), the scheduler hands them out so that both GPUs finish together.
        a = rs().random_sample((side, side), chunks=(max(side // 16, 1), side), dtype=numpy.float32)

        def block(a_rows):
            # B is made once per worker, on its own GPU from the same seed, and kept on the worker object.
            try:
                from distributed import get_worker
                cache = get_worker().__dict__.setdefault("_example_b", {})
            except (ImportError, ValueError):  # not on a distributed worker
                cache = {}
            if (seed, side) not in cache:
                cache.clear()
                cache[(seed, side)] = cuarray.random.RandomState(seed + 1).random_sample((side, side), dtype=numpy.float32)
            return settled(a_rows @ cache[(seed, side)])

        # meta given: otherwise dask calls `block` on an empty chunk in the client to infer it.
        return a.map_blocks(block, dtype=numpy.float32, meta=meta).sum(dtype=numpy.float64)

    def pipeline():
        x = rs().standard_normal((side, side), chunks=(side // 8, side), dtype=numpy.float32)
        y = da.exp(-x * x / 2) * 0.5 + da.sqrt(abs(x))
        return (y - y.mean(axis=0)).std(axis=1).sum(dtype=numpy.float64)

    return [("reduction 2**32 float32", reduction), (f"matmul {side}^2 float32", matmul),
            ("elementwise pipeline", pipeline)]


def run(gpus, **sizes):
    from distributed import Client
    times = {}
    with gpu_cluster(gpus) as cluster, Client(cluster) as client:
        client.wait_for_workers(len(gpus))
        print(f"{len(gpus)} GPU(s): workers {sorted(client.scheduler_info()['workers'])}")
        for name, build in workloads(**sizes):
            build().compute()  # warm-up: kernel compilation and pools on every worker
            value, times[name] = timed(name, lambda: float(build().compute()))
            print(f"  {'':<28s} = {value:.6g}")
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpus", type=int, default=0, help="GPUs to use (default: all)")
    ap.add_argument("--small", action="store_true", help="small sizes, for a quick check")
    args = ap.parse_args()
    n = args.gpus or gpu_count()
    sizes = {"n_reduce": 2**24, "side": 2048} if args.small else {}
    multi = run(list(range(n)), **sizes)
    if n > 1:
        one = run([0], **sizes)
        for name in multi:
            print(f"{name:<28s} {n} GPUs vs 1: {one[name] / multi[name]:.2f}x")


if __name__ == "__main__":
    main()
