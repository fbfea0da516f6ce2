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

    cuarray, like CuPy, returns as soon as the GPU work is queued, so a task would "finish" in microseconds and
    the scheduler, which balances workers by how long their tasks take, could not see the GPU time. Waiting here,
    in the worker's task thread with the GIL released, makes each task last as long as its GPU work.
    """
    import cuarray
    cuarray.cuda.get_current_stream().synchronize()
    return block


def matmul_block(rows, side, seed, block_id=None):
    """The sum of rows [i * rows, (i + 1) * rows) of A @ B, as a (1, 1) float64 array on this worker's GPU.

    Row block i of A is RandomState(seed + 2 + i)'s; B, RandomState(seed + 1)'s, is made once per worker on its
    own GPU and kept on the worker object: sent instead, a 4 GiB chunk would travel through host memory and TCP.
    """
    import cuarray
    try:
        from distributed import get_worker
        cache = get_worker().__dict__.setdefault("_example_b", {})
    except (ImportError, ValueError):  # not on a distributed worker
        cache = {}
    if (seed, side) not in cache:
        cache.clear()
        cache[(seed, side)] = cuarray.random.RandomState(seed + 1).random_sample((side, side), dtype=numpy.float32)
    i = block_id[0]
    a_rows = cuarray.random.RandomState(seed + 2 + i).random_sample((min(rows, side - i * rows), side),
                                                                    dtype=numpy.float32)
    return settled((a_rows @ cache[(seed, side)]).sum(dtype=numpy.float64, keepdims=True))


def workloads(n_reduce=2**32, side=32768, seed=0):
    """(name, builder) pairs; each builder returns a dask array of cuarray chunks, made on the workers."""
    import cuarray
    import dask.array as da

    def rs():
        return da.random.RandomState(seed, RandomState=cuarray.random.RandomState)

    def reduction():
        # Few large chunks: each 2**30-element chunk is milliseconds of GPU work, about what Dask spends on a task.
        x = rs().random_sample(n_reduce, chunks=max(n_reduce // 4, 1), dtype=numpy.float32)
        meta = cuarray.empty((0,), dtype=numpy.float32)
        return x.map_blocks(settled, dtype=numpy.float32, meta=meta).sum(dtype=numpy.float64)

    def matmul():
        # C = A @ B, summed, by row blocks of A: one task per block makes its rows of A on its GPU (from the seed
        # and the block's index), multiplies them by B and returns the block's sum, a (1, 1) chunk. One task per
        # block matters: a Dask worker spends a few ms between two tasks, and the form "random A, map_blocks,
        # sum" made three tasks per block (the blocks, the Alias tasks blockwise fusion adds, the sum tree).
        # With sleeping tasks in place of the GPU work, tools/diag/dask_overhead.py shows the difference on CPU.
        # 32 blocks: the GPUs finish at most one 41 ms block apart.
        rows = max(side // 32, 1)
        n = -(-side // rows)
        x = da.map_blocks(matmul_block, rows, side, seed, chunks=((1,) * n, (1,)), dtype=numpy.float64,
                          meta=cuarray.empty((0, 0), dtype=numpy.float64))
        return x.sum(split_every=n)

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
