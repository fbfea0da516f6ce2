"""The host's own cost of small calls, without the driver: with `_core._dry_launches(True)` cuLaunchKernel is a
no-op, so a loop of calls times everything cuarray and Python do per call, to the nanosecond and free of the
device's noise. Optionally profiles the same loops (argument: sampler.so and an output folder, as cpu_profile.py).
Results of the calls are garbage while launches are dry; nothing is checked.

Environment: DRY_ROUNDS (default 15) rounds; DRY_ONLY, comma-separated substrings of the call names to time
(default: all); DRY_JSON=1 prints one JSON object of every round's times instead of the table (ab_dry.sh)."""
import ctypes
import json
import os
import statistics
import sys
import time

import numpy

import cuarray as cp

core = cp._core
dev = cp.cuda.Device()
a1 = cp.ones(1, cp.float32)
b1 = cp.ones(1, cp.float32)
a = cp.ones(1024, cp.float32)
b = cp.ones(1024, cp.float32)
c = cp.empty_like(a)
ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "diag_ek")
rk = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "diag_rk")
touch = cp.RawKernel('extern "C" __global__ void touch(float* x, int n) { if (n < 0) x[0] = n; }', "touch")
targs = (a, numpy.int32(1024))
grid, block = (1,), (32,)
sin, add = cp.sin, cp.add
for _ in range(1000):  # compile and warm up with real launches
    a1 + b1, a + b, a * 2.0, sin(a), ek(a, b), touch(grid, block, targs), add(a, b, out=c), a + 1, a.sum(), rk(a)
dev.synchronize()

calls = {
    "python loop, lambda: None": lambda: None,
    "a+b (1)": lambda: a1 + b1,
    "a+b (1024)": lambda: a + b,
    "a*2.0 (1024)": lambda: a * 2.0,
    "a+1 (1024)": lambda: a + 1,
    "sin(a) (1024)": lambda: sin(a),
    "add(a, b, out=c)": lambda: add(a, b, out=c),
    "ElementwiseKernel (1024)": lambda: ek(a, b),
    "a.sum() (1024)": lambda: a.sum(),
    "a.sum(axis=0) (1024)": lambda: a.sum(axis=0),
    "ReductionKernel (1024)": lambda: rk(a),
    "RawKernel <<<1,32>>>": lambda: touch(grid, block, targs),
    "empty(1024) (no launch)": lambda: cp.empty(1024, cp.float32),
}
N = 20000


def py_loop(fn):
    t0 = time.perf_counter()
    for _ in range(N):
        fn()
    return (time.perf_counter() - t0) / N * 1e9


ONLY = [w for w in os.environ.get("DRY_ONLY", "").split(",") if w]
FLOOR, UFUNC = "C++ loop: floor (dry: the loop itself)", "C++ loop: call_ufunc1 add (1)"


def wanted(name):
    return not ONLY or any(w in name for w in ONLY)


core._dry_launches(True)
try:
    rows = {k: [] for k in [FLOOR, UFUNC, *calls] if wanted(k)}
    for _ in range(int(os.environ.get("DRY_ROUNDS", "15"))):
        if FLOOR in rows:
            rows[FLOOR].append(core._launch_floor_us(N) * 1e3)
        if UFUNC in rows:
            rows[UFUNC].append(core._ufunc_loop_us("add", a1, b1, N, None) * 1e3)
        for k, fn in calls.items():
            if k in rows:
                rows[k].append(py_loop(fn))
    if os.environ.get("DRY_JSON") == "1":
        print(json.dumps(rows), flush=True)
    else:
        for k, xs in rows.items():
            print(f"  {k:40s} {statistics.median(xs):7.0f} ns  (min {min(xs):.0f})", flush=True)
    if len(sys.argv) > 2:
        lib = ctypes.CDLL(sys.argv[1])
        for name, fn in (("dry_add", calls["a+b (1024)"]), ("dry_ek", calls["ElementwiseKernel (1024)"]),
                         ("dry_raw", calls["RawKernel <<<1,32>>>"]),
                         ("dry_sum", calls["a.sum() (1024)"]), ("dry_rk", calls["ReductionKernel (1024)"])):
            lib.sampler_start(int(os.environ.get("PROFILE_PERIOD_US", "40")))
            for _ in range(int(float(os.environ.get("PROFILE_SCALE", "1")) * 50)):
                py_loop(fn)
            n = lib.sampler_dump(os.path.join(sys.argv[2], f"samples_{name}.txt").encode())
            print(f"== {name}: {n} samples", flush=True)
finally:
    core._dry_launches(False)
dev.synchronize()
