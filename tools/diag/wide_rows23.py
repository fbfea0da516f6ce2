"""Note [wide rows]'s neighbour x[::2].copy() of (8192, 16384) uint8 (64 MiB read, 64 MiB written): how near the
ceiling for that size is it? Interleaved rounds time, in cuarray: the strided copy; a flat copy of as many bytes
(x[:4096].copy(), cudaMemcpyAsync); the same strided rows by cudaMemcpy2DAsync into a preallocated output; and the
f32 row assignment of the benchmark for comparison. Prints medians over rounds in µs and each as a fraction of the
flat copy of the same size.

    python tools/diag/wide_rows23.py [rounds]
"""
import statistics
import sys

import numpy as np
from _events import gpu_us_each

import cuarray as ca

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
x = ca.asarray(np.random.default_rng(5).integers(0, 256, (8192, 16384), dtype=np.uint8))
out = ca.empty((4096, 16384), ca.uint8)
src = ca.asarray(np.ones((4096, 8192), np.float32))
dst = ca.zeros((8192, 8192), ca.float32)
rt = ca.cuda.runtime


def memcpy2d():
    stream = ca.cuda.get_current_stream().ptr
    rt.memcpy2DAsync(out.data.ptr, 16384, x.data.ptr, 2 * 16384, 16384, 4096, rt.memcpyDeviceToDevice, stream)


def assign():
    dst[::2] = src


forms = {
    "x[::2].copy() uint8": lambda: x[::2].copy(),
    "flat copy, same bytes (x[:4096].copy())": lambda: x[:4096].copy(),
    "cudaMemcpy2DAsync, same rows": memcpy2d,
    "dst[::2] = src float32 (2x the bytes)": assign,
    "flat copy, 2x the bytes (x.copy())": lambda: x.copy(),
}
assert np.array_equal(ca.asnumpy(x[::2].copy()[:3, :64]), ca.asnumpy(x)[:6:2, :64])
times = {k: [] for k in forms}
for _ in range(rounds):
    for k, f in forms.items():
        times[k].append(gpu_us_each(f, "cuarray", reps=30))
flat = statistics.median(times["flat copy, same bytes (x[:4096].copy())"])
flat2 = statistics.median(times["flat copy, 2x the bytes (x.copy())"])
for k, ts in times.items():
    m = statistics.median(ts)
    ref = flat2 if "2x" in k else flat
    print(f"{k:45s} {m:8.2f} µs  {ref / m:5.3f} of the flat copy of as many bytes")
