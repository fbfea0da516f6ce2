"""The device's own time per small call, free of the host: a spin kernel holds the stream while N calls are queued
behind it, then events around the N measure how fast the GPU runs them back to back. If a small call's device time
approaches the host's launch interval (the floor, ~3.5 µs on an H200 host), a loop of it is bound by the device
whenever the GPU is slower, and its margin over the floor grows with the machine's state rather than with the
host's work. Prints, per call, the median device µs per call over rounds, beside the host-loop time per call of the
same call (a Python loop, synchronized at the end) less the C++ launch floor of the same round; the calls run in a
new random order each round.

    python tools/diag/device_time23.py [rounds] [n]
"""
import random
import statistics
import sys
import time

import numpy

import cuarray as cp
from _common import dev

core = cp._core
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
N = int(sys.argv[2]) if len(sys.argv) > 2 else 400  # under the driver's pending-launch queue depth

spin = cp.RawKernel(
    r"""extern "C" __global__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}""",
    "spin",
)
empty = cp.RawKernel('extern "C" __global__ void empty_k() {}', "empty_k")
touch = cp.RawKernel('extern "C" __global__ void touch(float* x, int n) { if (n < 0) x[0] = n; }', "touch")
a = cp.ones(1024, cp.float32)
b = cp.ones(1024, cp.float32)
rk = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "diag_rk")
targs = (a, numpy.int32(1024))

calls = {
    "empty kernel <<<1,32>>> (the floor's)": lambda: empty((1,), (32,), ()),
    "RawKernel touch <<<1,32>>>": lambda: touch((1,), (32,), targs),
    "a+b (1024)": lambda: a + b,
    "a.sum() (1024)": lambda: a.sum(),
    "ReductionKernel (1024)": lambda: rk(a),
    "a.max() (1024)": lambda: a.max(),
    "a.min() (1024)": lambda: a.min(),
    "b.sum() (1024)": lambda: b.sum(),
}


def device_us(fn):
    e0, e1 = cp.cuda.Event(), cp.cuda.Event()
    dev.synchronize()
    spin((1,), (1,), (numpy.int64(40_000_000),))  # ~20 ms at ~2 GHz: longer than queuing N calls
    e0.record()
    for _ in range(N):
        fn()
    e1.record()
    e1.synchronize()
    return cp.cuda.get_elapsed_time(e0, e1) * 1e3 / N


def host_us(fn, n=20000):
    dev.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def floor_us(n=20000):
    dev.synchronize()
    t0 = time.perf_counter()
    core._launch_floor_us(n)
    dev.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


for fn in calls.values():  # compile and warm up
    for _ in range(50):
        fn()
dev.synchronize()
dt = {k: [] for k in calls}
ht = {k: [] for k in calls}
fl = []
order = list(calls)
for _ in range(ROUNDS):  # a new order each round, so that no call always follows the same one
    random.shuffle(order)
    fl.append(floor_us())
    for k in order:
        dt[k].append(device_us(calls[k]))
        ht[k].append(host_us(calls[k]) - fl[-1])
print(f"launch floor (C++ loop, host): {statistics.median(fl):.3f} µs")
for k in calls:
    print(f"{k:40s} device {statistics.median(dt[k]):6.3f} µs/call   host loop: floor + {statistics.median(ht[k]):6.3f} µs "
          f"(rounds {min(ht[k]):.3f} to {max(ht[k]):.3f})")
