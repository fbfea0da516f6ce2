"""Dask's own cost on the graph shapes of examples/dask_multi_gpu.py, measured on CPU (no GPU needed).

Each block's GPU work is replaced by a sleep of the same length (a task that waits for its GPU work releases the
GIL as a sleep does), so what remains above the sleeps is Dask's: scheduling, task transitions, transfers.
Two forms of the 32768^2 matmul, by row blocks:
- "map_blocks": A as a dask random array, `A.map_blocks(block).sum()` (the example up to 82f095d): per block a
  fused task, the Alias task blockwise fusion adds, and a share of the sum tree;
- "one task per block": `da.map_blocks(block_sum, chunks=(1, 1) per block).sum(split_every=n)` (the example
  since then).

Run: python tools/diag/dask_overhead.py [--workers 1,2] [--blocks 32,16] [--block-ms 41]
On 2026-11-27 (2 cores, dask 2026.8) "map_blocks" with 32 blocks of 41 ms took 1.70 s on one worker and 0.92 s on
two, within 3% of the GPU times of 03:47 (1.74 and 0.95 s); "one task per block" took 1.41-1.44 and 0.74-0.75 s
(with 16 blocks 1.37-1.38 and 0.71-0.79 s: one block more on one worker costs more).
"""
import argparse
import time

import numpy

BLOCK_S = 0.041


def _block(x):
    time.sleep(BLOCK_S)
    return x[:, :8] * 2


def _block_sum(block_id=None):
    time.sleep(BLOCK_S)
    return numpy.full((1, 1), float(block_id[0]))


def map_blocks_form(n):
    import dask.array as da
    a = da.random.RandomState(0).random_sample((n * 64, 256), chunks=(64, 256))
    return a.map_blocks(_block, dtype=float, chunks=(64, 8)).sum()


def one_task_per_block_form(n):
    import dask.array as da
    x = da.map_blocks(_block_sum, chunks=((1,) * n, (1,)), dtype=float, meta=numpy.empty((0, 0)))
    return x.sum(split_every=n)


def run(workers, blocks, reps):
    from distributed import Client, Nanny, Scheduler, SpecCluster, get_task_stream
    spec = {f"w{g}": {"cls": Nanny, "options": {"nthreads": 1, "memory_limit": 0}} for g in range(workers)}
    cluster = SpecCluster(workers=spec, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}},
                          silence_logs=40)
    with cluster, Client(cluster) as client:
        client.wait_for_workers(workers)
        for name, build in (("map_blocks", map_blocks_form), ("one task per block", one_task_per_block_form)):
            float(build(blocks).compute())
            best = float("inf")
            for _ in range(reps):
                t = time.perf_counter()
                float(build(blocks).compute())
                best = min(best, time.perf_counter() - t)
            with get_task_stream(client) as ts:
                float(build(blocks).compute())
            ideal = blocks * BLOCK_S / workers
            print(f"{name:<20s} workers={workers} blocks={blocks}: {best:.3f} s, sleeps alone {ideal:.3f} s, "
                  f"{(best - ideal) * workers / blocks * 1e3:5.1f} ms per block above them; {len(ts.data)} tasks",
                  flush=True)


def main():
    global BLOCK_S
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--blocks", default="32,16", help="block counts; the total work stays 32 x --block-ms")
    ap.add_argument("--block-ms", type=float, default=41.0, help="GPU time of one of 32 blocks (H100: 41 ms)")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    for blocks in (int(b) for b in args.blocks.split(",")):
        BLOCK_S = args.block_ms / 1e3 * 32 / blocks
        for workers in (int(w) for w in args.workers.split(",")):
            run(workers, blocks, args.reps)


if __name__ == "__main__":
    main()
