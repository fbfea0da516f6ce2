"""CPU profile of small calls with tools/diag/sampler.c (no perf on the GPU machine).
Usage: python cpu_profile.py <sampler.so> <outdir>; writes samples_<workload>.txt there, for symbolize.py."""
import ctypes
import os
import sys

import cuarray as cp

lib = ctypes.CDLL(sys.argv[1])
out = sys.argv[2]
a = cp.ones(1, cp.float32)
b = cp.ones(1, cp.float32)
c = cp.empty_like(a)
core = cp._core
for _ in range(2000):
    a + b
cp.cuda.Device().synchronize()


SCALE = float(os.environ.get("PROFILE_SCALE", "1"))  # longer loops: more samples
PERIOD_US = int(os.environ.get("PROFILE_PERIOD_US", "40"))
ONLY = os.environ.get("PROFILE_ONLY", "").split()


# Each workload runs in blocks of BLOCK calls and one synchronize, so that the launch queue never fills: the
# samples show the host's own cost, and the wait for the device is all under the synchronize.
BLOCK = int(os.environ.get("PROFILE_BLOCK", "256"))
dev = cp.cuda.Device()


def blocks(calls, body):
    for _ in range(max(1, int(calls * SCALE) // BLOCK)):
        body()
        dev.synchronize()


def py_block(fn):
    def body():
        for _ in range(BLOCK):
            fn()
    return body


ek = cp.ElementwiseKernel("T x, T y", "T z", "z = x * y + (T)1", "diag_ek")
a1k = cp.ones(1024, cp.float32)
ek(a1k, a1k)
touch = cp.RawKernel('extern "C" __global__ void touch(float* x, int n) { if (n < 0) x[0] = n; }', 'touch')
targs = (a1k, 1024)

WORK = {
    "floor": (300000, lambda: core._launch_floor_us(BLOCK)),
    "cpp": (300000, lambda: core._ufunc_loop_us("add", a, b, BLOCK, None)),
    "py": (200000, py_block(lambda: a + b)),
    "mul": (200000, py_block(lambda: a * 2.0)),
    "ek": (200000, py_block(lambda: ek(a1k, a1k))),
    "raw": (200000, py_block(lambda: touch((1,), (32,), targs))),
}

for name, (calls, body) in WORK.items():
    if ONLY and name not in ONLY:
        continue
    lib.sampler_start(PERIOD_US)
    blocks(calls, body)
    path = os.path.join(out, f"samples_{name}.txt")
    n = lib.sampler_dump(path.encode())
    print(f"== {name}: {n} samples in {path} (symbolize.py reads them)", flush=True)
