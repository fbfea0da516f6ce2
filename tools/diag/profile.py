"""Flat CPU profile of small calls with tools/diag/sampler.c (no perf on the GPU machine).
Usage: python profile.py <sampler.so> <outdir>; prints the top functions per workload."""
import collections
import ctypes
import os
import subprocess
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


SCALE = float(os.environ.get("PROFILE_SCALE", "1"))  # longer loops: more samples (the timer ticks at HZ)
TOP = int(os.environ.get("PROFILE_TOP", "28"))
ONLY = os.environ.get("PROFILE_ONLY", "").split()


def work_cpp():
    core._ufunc_loop_us("add", a, b, int(1500000 * SCALE), None)


def work_py():
    for _ in range(int(1000000 * SCALE)):
        a + b


def work_floor():
    core._launch_floor_us(1500000)


def work_mul():
    for _ in range(1000000):
        a * 2.0


def symbolize(path):
    rows = [l.split() for l in open(path)]
    by_obj = collections.defaultdict(list)
    for obj, off, sym in rows:
        by_obj[obj].append((off, sym))
    counts = collections.Counter()
    for obj, items in by_obj.items():
        names = None
        if obj.endswith(".so") or ".so." in obj or obj.endswith("python3") or "python3." in obj:
            try:
                r = subprocess.run(["addr2line", "-f", "-C", "-e", obj] + [o for o, _ in items],
                                   capture_output=True, text=True, timeout=120)
                lines = r.stdout.splitlines()
                names = lines[0::2]
            except Exception:
                names = None
        base = os.path.basename(obj)
        for k, (off, sym) in enumerate(items):
            n = names[k] if names and k < len(names) and names[k] != "??" else sym
            counts[(base, n[:110])] += 1
    return counts, len(rows)


for name, fn in [("floor", work_floor), ("cpp", work_cpp), ("py", work_py), ("mul", work_mul)]:
    if ONLY and name not in ONLY:
        continue
    lib.sampler_start(50)
    fn()
    cp.cuda.Device().synchronize()
    path = os.path.join(out, f"samples_{name}.txt")
    lib.sampler_dump(path.encode())
    counts, total = symbolize(path)
    by_lib = collections.Counter()
    for (base, n), k in counts.items():
        by_lib[base] += k
    print(f"== {name}: {total} samples; by object: " +
          ", ".join(f"{b} {100 * k / total:.1f}%" for b, k in by_lib.most_common(6)))
    for (base, n), k in counts.most_common(TOP):
        print(f"  {100 * k / total:5.1f}%  {base:28s} {n}")
    sys.stdout.flush()
