"""svd's two economy-size routes side by side (Note [polar svd]): the polar route (QDWH, then Xsyevd) and
cuSOLVER's Xgesvdp, forced with _core._linalg_polar_svd_min_n; time per order, square float64 (and float32 /
complex128 at one order), the peak extra pool memory in n^2 elements, and CuPy's time where it is installed.

    python tools/diag/svd_routes23.py [orders, comma separated]
"""
import sys
import time

import numpy as np

import cuarray as ca
from cuarray import _core

try:
    import cupy
except ImportError:  # pragma: no cover
    cupy = None


def timed(fn, sync, reps):
    fn()
    sync()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def peak(fn):
    pool = ca.get_default_memory_pool()
    ca.cuda.Device().synchronize()
    pool.free_all_blocks()
    before = pool.total_bytes()
    res = fn()
    ca.cuda.Device().synchronize()
    out = pool.total_bytes() - before
    del res
    pool.free_all_blocks()
    return out


def segments(n):
    """The new pool segments one polar-route svd of n x n float64 takes, in order (after a warm-up call)."""
    from cuarray.cuda.memory_hook import MemoryHook

    class Log(MemoryHook):
        name = "svd_segments"

        def __init__(self):
            self.sizes, self.live = [], []

        def alloc_postprocess(self, **kw):
            self.sizes.append(kw["mem_size"])

    a = ca.asarray(np.random.default_rng(1).standard_normal((n, n)))
    ca.linalg.svd(a, full_matrices=False)
    pool = ca.get_default_memory_pool()
    ca.cuda.Device().synchronize()
    pool.free_all_blocks()
    before = pool.total_bytes()
    log = Log()
    with log:
        res = ca.linalg.svd(a, full_matrices=False)
        ca.cuda.Device().synchronize()
    n2 = n * n * 8
    print(f"segments at n = {n}: " + ", ".join(f"{v / n2:.3f}" for v in log.sizes) +
          f" (n^2); total {(pool.total_bytes() - before) / n2:.3f} n^2", flush=True)
    del res


def main():
    for n in (2048, 4096):
        segments(n)
    orders = [int(v) for v in sys.argv[1].split(",")] if len(sys.argv) > 1 else [64, 128, 256, 512, 1024, 2048, 4096]
    sync = ca.cuda.Device().synchronize
    for dt in ("float64", "float32", "complex128"):
        for n in orders if dt == "float64" else [1024]:
            rng = np.random.default_rng(n)
            host = rng.standard_normal((n, n))
            if dt == "complex128":
                host = host + 1j * rng.standard_normal((n, n))
            host = host.astype(dt)
            a = ca.asarray(host)
            reps = 5 if n <= 1024 else 2
            row = [f"{dt} {n}:"]
            for name, limit in (("polar", 0), ("gesvdp", 1 << 40)):
                old = _core._linalg_polar_svd_min_n(limit)
                try:
                    fn = lambda: ca.linalg.svd(a, full_matrices=False)  # noqa: E731
                    ms = timed(fn, sync, reps)
                    pk = peak(fn) / (n * n * host.itemsize)
                    u, s, vh = fn()
                    err = float(ca.linalg.norm((u * s) @ vh - a) / ca.linalg.norm(a))
                    orth = float(abs(u.conj().T @ u - ca.eye(n)).max())
                finally:
                    _core._linalg_polar_svd_min_n(old)
                row.append(f"{name} {ms:8.2f} ms peak {pk:5.2f} n^2 err {err:.1e} orth {orth:.1e} |")
            if cupy is not None and n in (1024, 4096) or (cupy is not None and dt != "float64"):
                c = cupy.asarray(host)
                cs = cupy.cuda.Device().synchronize
                row.append(f"cupy {timed(lambda: cupy.linalg.svd(c, full_matrices=False), cs, 2):8.2f} ms")
            print(" ".join(row), flush=True)


if __name__ == "__main__":
    main()
