"""Where a small call's time goes: host enqueue time (short loops, no queue back-pressure) against
saturated loops (host blocked by the device's launch queue), for the empty-kernel floor, a C++ loop of
call_ufunc1, and Python calls. Run on the GPU machine after building; prints one line per measurement."""
import statistics
import time

import cuarray as cp
import numpy
from _common import small_operands

core = cp._core
dev = cp.cuda.Device()


def med(f, reps=40):
    xs = []
    for _ in range(reps):
        dev.synchronize()
        xs.append(f())
    dev.synchronize()
    return statistics.median(xs)


def py_loop(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def py_loop_sync(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def cpp_sync(run_n, n):
    t0 = time.perf_counter()
    run_n(n)
    dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


a, b, c, a1k, b1k, copy = small_operands()
empty = cp.RawKernel('extern "C" __global__ void k0() {}', 'k0')
ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "diag_ek")
touch = cp.RawKernel('extern "C" __global__ void touch(float* x, int n) { if (n < 0) x[0] = n; }', 'touch')
targs = (a1k, numpy.int32(1024))
for _ in range(2000):
    ek(a1k, b1k)
    touch((1,), (32,), targs)
    a + b
    copy((1,), (256,), (a, b, c, 1))
    empty((1,), (32,), ())
dev.synchronize()

rows = [
    ("floor: cuLaunchKernel empty, C++ loop, host only (n=200)", lambda: core._launch_floor_us(200)),
    ("floor: same, n=20000 incl. sync", lambda: cpp_sync(core._launch_floor_us, 20000)),
    ("4-param kernel, kernelParams, C++ loop host only (n=200)", lambda: core._launch_params_us(200, 0, a)),
    ("4-param kernel, packed extra, C++ loop host only (n=200)", lambda: core._launch_params_us(200, 1, a)),
    ("ufunc add C++ loop host only (n=200)", lambda: core._ufunc_loop_us("add", a, b, 200, None)),
    ("ufunc add C++ loop n=20000 incl. sync", lambda: cpp_sync(lambda n: core._ufunc_loop_us("add", a, b, n, None), 20000)),
    ("ufunc add C++ loop out= host only (n=200)", lambda: core._ufunc_loop_us("add", a, b, 200, c)),
    ("python a+b host only (n=200)", lambda: py_loop(lambda: a + b, 200)),
    ("python a+b n=20000 incl. sync", lambda: py_loop_sync(lambda: a + b, 20000)),
    ("python a1k+b1k host only (n=200)", lambda: py_loop(lambda: a1k + b1k, 200)),
    ("python a1k+b1k n=20000 incl. sync", lambda: py_loop_sync(lambda: a1k + b1k, 20000)),
    ("python a*2.0 host only (n=200)", lambda: py_loop(lambda: a * 2.0, 200)),
    ("python sin(a) host only (n=200)", lambda: py_loop(lambda: cp.sin(a), 200)),
    ("RawKernel add host only (n=200)", lambda: py_loop(lambda: copy((1,), (256,), (a, b, c, 1)), 200)),
    ("RawKernel add n=20000 incl. sync", lambda: py_loop_sync(lambda: copy((1,), (256,), (a, b, c, 1)), 20000)),
    ("RawKernel empty host only (n=200)", lambda: py_loop(lambda: empty((1,), (32,), ()), 200)),
    ("RawKernel empty n=20000 incl. sync", lambda: py_loop_sync(lambda: empty((1,), (32,), ()), 20000)),
    ("ElementwiseKernel x*y+1 (1024) host only (n=200)", lambda: py_loop(lambda: ek(a1k, b1k), 200)),
    ("ElementwiseKernel x*y+1 (1024) n=20000 incl. sync", lambda: py_loop_sync(lambda: ek(a1k, b1k), 20000)),
    ("RawKernel (float*, int) <<<1,32>>> host only (n=200)", lambda: py_loop(lambda: touch((1,), (32,), targs), 200)),
    ("RawKernel (float*, int) <<<1,32>>> n=20000 incl. sync", lambda: py_loop_sync(lambda: touch((1,), (32,), targs), 20000)),
    ("python empty(1) host only (n=200)", lambda: py_loop(lambda: cp.empty(1, cp.float32), 200)),
]
try:
    import cupy
    ca = cupy.ones(1, cupy.float32)
    cb = cupy.ones(1, cupy.float32)
    for _ in range(2000):
        ca + cb
    cupy.cuda.Device().synchronize()
    rows.append(("cupy a+b host only (n=200)", lambda: py_loop(lambda: ca + cb, 200)))
    rows.append(("cupy a+b n=20000 incl. sync", lambda: py_loop_sync(lambda: ca + cb, 20000)))
except ImportError:
    pass
for name, f in rows:
    print(f"{med(f, 15 if '20000' in name else 40):8.2f} us  {name}", flush=True)
