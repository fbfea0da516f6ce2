"""Where the time of cuarray.scipy.linalg's solve_triangular and cho_solve goes (issue 23's two trailing
neighbours of the solve row: solve_triangular 0.80x CuPy, cho_solve 0.96x PyTorch at n = 1000, k = 16): the whole
call, the cuBLAS/cuSOLVER solve alone (`_core._lapack`), the check_finite and zero-diagonal reads, and a
transposing copy of the matrix, beside CuPy's and PyTorch's whole calls. µs per call (CUDA events around calls
queued back to back, host reads included), float64, lower triangle, C-ordered matrices as the benchmarks make them.

    PYTHONPATH=build-gpu/python python tools/diag/tri_parts23.py [n ...] [--k 1,16,64]
    PYTHONPATH=build-gpu/python python tools/diag/tri_parts23.py --routes [n ...] [--k 8,16,64]

    PYTHONPATH=build-gpu/python python tools/diag/tri_parts23.py --profile [n]

--profile: cProfile of 200 calls of solve_triangular and cho_solve (n = 1000, k = 16): the host time of each Python
function and binding, so that a binding whose host time approaches the call's GPU time (cuBLAS's enqueueing, the
finite check's wait) shows.
--routes: Note [unit-diagonal solves] (src/linalg/lapack.cpp) against the unscaled solves, through
`_core._linalg_unit_solve_min_n`: `_lapack.trsm` (C-ordered lower T, trans 0 and 1) and `_lapack.potrs` (both
factor triangles), µs per call, for choosing unit_solve_min_n.
"""
import sys

import cupy as cp
import cupyx.scipy.linalg as cpx
import numpy as np
from _events import by_route, gpu_us, optional

import cuarray as ca
import cuarray.scipy.linalg as cax
from cuarray import _core
from cuarray.scipy.linalg._util import all_finite

torch = optional("torch")


def us(fn, lib):
    return gpu_us(fn, lib, reps=20, warmup=3)


def routes(sizes, ks):
    lap = _core._lapack
    for n in sizes:
        rng = np.random.default_rng(0)
        x = rng.random((n, n))
        tri = ca.asarray(np.tril(x) + n * np.eye(n))
        spd = x @ x.T + n * np.eye(n)
        c_lo = cax.cho_factor(ca.asarray(spd), lower=True)[0]
        c_up = cax.cho_factor(ca.asarray(spd), lower=False)[0]
        for k in ks:
            b = ca.asarray(rng.random((n, k)))
            cases = {"trsm lower trans 0": lambda: lap.trsm(tri, b, True, 0, False),
                     "trsm lower trans 1": lambda: lap.trsm(tri, b, True, 1, False),
                     "potrs lower": lambda: lap.potrs(c_lo, b, True),
                     "potrs upper": lambda: lap.potrs(c_up, b, False)}
            for name, fn in cases.items():
                got, err = by_route(fn, _core._linalg_unit_solve_min_n, (("unscaled", 2 ** 62), ("unit-scaled", 1)))
                print(f"n={n:<5} k={k:<3} {name:20} unscaled {got['unscaled'][0]:8.1f} µs  "
                      f"unit-scaled {got['unit-scaled'][0]:8.1f} µs  (difference {err:.1e})", flush=True)


def profile(n):
    import cProfile
    import pstats
    import time
    rng = np.random.default_rng(0)
    x = rng.random((n, n))
    tri = ca.asarray(np.tril(x) + n * np.eye(n))
    fac = cax.cho_factor(ca.asarray(x @ x.T + n * np.eye(n)), lower=True)
    b = ca.asarray(rng.random((n, 16)))
    lap = _core._lapack
    for name, fn in (("solve_triangular", lambda: cax.solve_triangular(tri, b, lower=True)),
                     ("cho_solve", lambda: cax.cho_solve(fac, b)),
                     ("_lapack.trsm + sync", lambda: (lap.trsm(tri, b, True, 0, False), ca.cuda.Device().synchronize())),
                     ("_lapack.trsm enqueue only", lambda: lap.trsm(tri, b, True, 0, False))):
        for _ in range(5):
            fn()
        ca.cuda.Device().synchronize()
        reps = 10 if "enqueue" in name else 200  # few enough that the launch queue never fills
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        t1 = time.perf_counter()
        ca.cuda.Device().synchronize()
        print(f"{name}: {(t1 - t0) / reps * 1e6:.1f} µs of host time a call (no final wait)", flush=True)
        if name in ("solve_triangular", "cho_solve"):
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(200):
                fn()
            pr.disable()
            pstats.Stats(pr).sort_stats("tottime").print_stats(12)


def main():
    args = sys.argv[1:]
    if "--profile" in args:
        args.remove("--profile")
        profile(int(args[0]) if args else 1000)
        return
    ks = [16]
    if "--k" in args:
        i = args.index("--k")
        ks = [int(v) for v in args[i + 1].split(",")]
        del args[i:i + 2]
    if "--routes" in args:
        args.remove("--routes")
        routes([int(v) for v in args] or [64, 128, 256, 512, 1000, 4096], ks if ks != [16] else [8, 16, 64])
        return
    sizes = [int(v) for v in args] or [1000, 2048, 4096]
    lap = _core._lapack
    for n in sizes:
        rng = np.random.default_rng(0)
        x = rng.random((n, n))
        tri = np.tril(x) + n * np.eye(n)
        spd = x @ x.T + n * np.eye(n)
        gt, gs = ca.asarray(tri), ca.asarray(spd)
        pt, ps = cp.asarray(tri), cp.asarray(spd)
        g_ch = cax.cho_factor(gs, lower=True)
        p_ch = cpx.cho_factor(ps, lower=True) if hasattr(cpx, "cho_factor") else None
        t_t = torch.as_tensor(tri, device="cuda") if torch else None
        t_ch = torch.linalg.cholesky(torch.as_tensor(spd, device="cuda")) if torch else None
        for k in ks:
            b = rng.random((n, k))
            gb, pb = ca.asarray(b), cp.asarray(b)
            tb = torch.as_tensor(b, device="cuda") if torch else None
            gx = cax.solve_triangular(gt, gb, lower=True)
            rows = [
                ("solve_triangular whole", us(lambda: cax.solve_triangular(gt, gb, lower=True), "cuarray")),
                ("  check_finite=False", us(lambda: cax.solve_triangular(gt, gb, lower=True, check_finite=False),
                                            "cuarray")),
                ("  _lapack.trsm alone", us(lambda: lap.trsm(gt, gb, True, 0, False), "cuarray")),
                ("  all_finite(a, b, x)", us(lambda: all_finite(gt, gb, gx), "cuarray")),
                ("  all_finite(x)", us(lambda: all_finite(gx), "cuarray")),
                ("  isfinite(a).all() no read", us(lambda: ca.isfinite(gt).all(), "cuarray")),
                ("  asfortranarray(a)", us(lambda: ca.asfortranarray(gt), "cuarray")),
                ("  CuPy whole", us(lambda: cpx.solve_triangular(pt, pb, lower=True), "cupy")),
                ("  CuPy asfortranarray(a)", us(lambda: cp.asfortranarray(pt), "cupy")),
            ]
            if torch:
                rows.append(("  PyTorch whole", us(lambda: torch.linalg.solve_triangular(t_t, tb, upper=False),
                                                   "torch")))
            rows += [
                ("cho_solve whole", us(lambda: cax.cho_solve(g_ch, gb), "cuarray")),
                ("  check_finite=False", us(lambda: cax.cho_solve(g_ch, gb, check_finite=False), "cuarray")),
                ("  _lapack.potrs alone", us(lambda: lap.potrs(g_ch[0], gb, True), "cuarray")),
                ("  all_finite(c, b)", us(lambda: all_finite(g_ch[0], gb), "cuarray")),
            ]
            if p_ch is not None:
                rows.append(("  CuPy whole", us(lambda: cpx.cho_solve(p_ch, pb), "cupy")))
            if torch:
                rows.append(("  PyTorch whole", us(lambda: torch.cholesky_solve(tb, t_ch), "torch")))
            print(f"n={n} k={k}", flush=True)
            for name, t in rows:
                print(f"  {name:32} {t:9.1f} µs", flush=True)


if __name__ == "__main__":
    main()
