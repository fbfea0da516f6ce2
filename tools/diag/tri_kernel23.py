"""Note [one-kernel triangular solves] (src/linalg/lapack.cpp) against cuBLAS's routes, for choosing
tri_kernel_max_k: µs per call of `_core._lapack.trsm`, `potrs` and `getrs` on each route
(`_core._linalg_tri_kernel_max_k`), their largest relative difference, and CuPy's solve_triangular beside them.

    python tri_kernel23.py [n,n,...] [k,k,...]
"""
import sys

import cupy as cp
import cupyx.scipy.linalg as cpx
import numpy as np
from _events import by_route, gpu_us

import cuarray as ca
import cuarray.scipy.linalg as cax
from cuarray import _core


def us(fn, lib):
    return gpu_us(fn, lib, reps=20, warmup=3)


def main():
    sizes = [int(v) for v in sys.argv[1].split(",")] if len(sys.argv) > 1 else [64, 256, 1000, 2048, 4096]
    ks = [int(v) for v in sys.argv[2].split(",")] if len(sys.argv) > 2 else [1, 16, 64, 128, 256]
    lap = _core._lapack
    for dtype in (np.float64, np.float32, np.complex128):
        for n in sizes:
            rng = np.random.default_rng(0)
            x = rng.random((n, n)).astype(dtype)
            h_tri = np.tril(x) + n * np.eye(n, dtype=dtype)
            tri = ca.asarray(h_tri)
            spd = x @ x.conj().T + n * np.eye(n, dtype=dtype)
            c_lo = cax.cho_factor(ca.asarray(spd), lower=True)[0]
            lu, piv = cax.lu_factor(ca.asarray(x + n * np.eye(n, dtype=dtype)))
            piv64 = piv.astype(ca.int64) + 1
            cp_tri = cp.asarray(h_tri)
            for k in ks:
                hb = rng.random((n, k)).astype(dtype)
                b, cb = ca.asarray(hb), cp.asarray(hb)
                cases = {"trsm lower trans 0": lambda: lap.trsm(tri, b, True, 0, False),
                         "trsm lower trans 1": lambda: lap.trsm(tri, b, True, 1, False),
                         "potrs lower": lambda: lap.potrs(c_lo, b, True),
                         "getrs trans 0": lambda: lap.getrs(lu, piv64, b, 0)}
                for name, fn in cases.items():
                    got, err = by_route(fn, _core._linalg_tri_kernel_max_k, (("cublas", 0), ("kernel", 2 ** 62)))
                    extra = ""
                    if name == "trsm lower trans 0":
                        extra = f"  CuPy {us(lambda: cpx.solve_triangular(cp_tri, cb, lower=True, check_finite=False), 'cupy'):8.1f}"
                    print(f"{np.dtype(dtype).name:10} n={n:<5} k={k:<4} {name:20} kernel {got['kernel'][0]:8.1f} µs  "
                          f"cublas {got['cublas'][0]:8.1f} µs  ratio {got['cublas'][0] / got['kernel'][0]:5.2f}  "
                          f"rel diff {err:.1e}{extra}", flush=True)


if __name__ == "__main__":
    main()
