"""Small calls against the launch floor, measured in interleaved rounds: each round times the floor (a C++
loop of cuLaunchKernel) and then every call, so that drift of the machine falls on both alike. Prints, per
call, the median time and the median of the per-round differences to the floor, for short loops (host cost,
no queue back-pressure) and long loops with a final synchronize (what the benchmarks time)."""
import os
import statistics
import time

import numpy

import cuarray as cp
from _common import dev

core = cp._core
ROUNDS = int(os.environ.get("PAIRED_ROUNDS", "15"))
N_LONG = int(os.environ.get("PAIRED_N", "20000"))

a1 = cp.ones(1, cp.float32)
b1 = cp.ones(1, cp.float32)
a = cp.ones(1024, cp.float32)
b = cp.ones(1024, cp.float32)
ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "diag_ek")
rk = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "diag_rk")
touch = cp.RawKernel('extern "C" __global__ void touch(float* x, int n) { if (n < 0) x[0] = n; }', "touch")
targs = (a, numpy.int32(1024))
grid, block = (1,), (32,)
sin = cp.sin

calls = {
    "a+b (1)": lambda: a1 + b1,
    "a+b (1024)": lambda: a + b,
    "a*2.0 (1024)": lambda: a * 2.0,
    "sin(a) (1024)": lambda: sin(a),
    "ElementwiseKernel (1024)": lambda: ek(a, b),
    "a.sum() (1024)": lambda: a.sum(),
    "ReductionKernel (1024)": lambda: rk(a),
    "RawKernel <<<1,32>>>": lambda: touch(grid, block, targs),
}


def py_loop(fn, n, sync):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    if sync:
        dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def cpp_loop(n, sync):
    t0 = time.perf_counter()
    core._launch_floor_us(n)
    if sync:
        dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


for _ in range(3):  # warm up every path
    cpp_loop(2000, True)
    for fn in calls.values():
        py_loop(fn, 2000, True)

for label, n, sync in (("short loops (n=200, host only)", 200, False), (f"long loops (n={N_LONG}, then synchronize)", N_LONG, True)):
    floors, times = [], {k: [] for k in calls}
    for _ in range(ROUNDS):
        dev.synchronize()
        floors.append(cpp_loop(n, sync))
        for k, fn in calls.items():
            dev.synchronize()
            times[k].append(py_loop(fn, n, sync))
    dev.synchronize()
    print(f"== {label}: floor median {statistics.median(floors):.2f} us (min {min(floors):.2f}, max {max(floors):.2f})")
    for k, ts in times.items():
        diffs = [t - f for t, f in zip(ts, floors)]
        print(f"  {k:26s} {statistics.median(ts):6.2f} us   above floor: median {statistics.median(diffs):+.2f}"
              f"  (min {min(diffs):+.2f}, max {max(diffs):+.2f})", flush=True)
