"""Does Note [unit-diagonal solves] (src/linalg/lapack.cpp) still pay? Since the one-kernel solve took every
solve of 2 to 128 right-hand sides, only solves past 128 reach the scaling. µs per call of `_core._lapack.trsm`
and `potrs` with the scaling at every order (`_core._linalg_unit_solve_min_n(1)`) and at none, and their largest
relative difference.

    python unit23.py [n,n,...] [k,k,...]
"""
import sys

import numpy as np
from _events import by_route

import cuarray as ca
import cuarray.scipy.linalg as cax
from cuarray import _core


def main():
    sizes = [int(v) for v in sys.argv[1].split(",")] if len(sys.argv) > 1 else [256, 1000, 4096]
    ks = [int(v) for v in sys.argv[2].split(",")] if len(sys.argv) > 2 else [160, 512]
    lap = _core._lapack
    for dtype in (np.float64, np.float32, np.complex128):
        for n in sizes:
            rng = np.random.default_rng(0)
            x = rng.random((n, n)).astype(dtype)
            tri = ca.asarray(np.tril(x) + n * np.eye(n, dtype=dtype))
            spd = x @ x.conj().T + n * np.eye(n, dtype=dtype)
            c_lo = cax.cho_factor(ca.asarray(spd), lower=True)[0]
            c_up = cax.cho_factor(ca.asarray(spd), lower=False)[0]
            for k in ks:
                b = ca.asarray(rng.random((n, k)).astype(dtype))
                cases = {"trsm lower trans 0": lambda: lap.trsm(tri, b, True, 0, False),
                         "trsm lower trans 1": lambda: lap.trsm(tri, b, True, 1, False),
                         "trsm lower trans 2": lambda: lap.trsm(tri, b, True, 2, False),
                         "potrs lower": lambda: lap.potrs(c_lo, b, True),
                         "potrs upper": lambda: lap.potrs(c_up, b, False)}
                for name, fn in cases.items():
                    got, err = by_route(fn, _core._linalg_unit_solve_min_n, (("plain", 2 ** 62), ("scaled", 1)),
                                        reps=10)
                    print(f"{np.dtype(dtype).name:10} n={n:<5} k={k:<4} {name:20} scaled {got['scaled'][0]:8.1f} µs"
                          f"  plain {got['plain'][0]:8.1f} µs  ratio {got['plain'][0] / got['scaled'][0]:5.2f}"
                          f"  rel diff {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
