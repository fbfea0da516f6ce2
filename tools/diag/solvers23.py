"""The neighbours of issue 23's solve row (Note [solve by side], src/linalg/decomp_lu.cpp): cuarray.scipy.linalg's
lu_solve, cho_solve and solve_triangular still solve from the left (getrs, potrs, left-side trsm), which inv23.py
found 2.9x slower than the right side for 16 right-hand sides at n = 4096. Times each against CuPy's
cupyx.scipy.linalg and PyTorch's counterparts for k = 1, 16 and n right-hand sides, float64, and checks the answers.

    PYTHONPATH=build-gpu/python python tools/diag/solvers23.py [n]
"""
import sys

import cupy as cp
import cupyx.scipy.linalg as cpx
import numpy as np
from _events import gpu_us, optional

import cuarray as ca
import cuarray.scipy.linalg as cax

torch = optional("torch")


def ms(fn, lib):
    return gpu_us(fn, lib, reps=5, warmup=1) / 1e3


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    rng = np.random.default_rng(0)
    a = rng.random((n, n))
    spd = a @ a.T + n * np.eye(n)
    tri = np.tril(a) + n * np.eye(n)
    for k in (1, 16, n):
        b = rng.random((n, k))
        want = {"lu_solve": np.linalg.solve(a, b), "cho_solve": np.linalg.solve(spd, b),
                "solve_triangular": np.linalg.solve(tri, b)}
        ga, gs, gt, gb = ca.asarray(a), ca.asarray(spd), ca.asarray(tri), ca.asarray(b)
        pa, ps, pt, pb = cp.asarray(a), cp.asarray(spd), cp.asarray(tri), cp.asarray(b)
        g_lu, p_lu = cax.lu_factor(ga), cpx.lu_factor(pa)
        g_ch = cax.cho_factor(gs, lower=True)
        # CuPy may lack cho_factor/cho_solve: then its column shows NaN
        p_ch = cpx.cho_factor(ps, lower=True) if hasattr(cpx, "cho_factor") else None
        cases = {
            "lu_solve": (lambda: cax.lu_solve(g_lu, gb), lambda: cpx.lu_solve(p_lu, pb)),
            "cho_solve": (lambda: cax.cho_solve(g_ch, gb), lambda: cpx.cho_solve(p_ch, pb) if p_ch else None),
            "solve_triangular": (lambda: cax.solve_triangular(gt, gb, lower=True),
                                 lambda: cpx.solve_triangular(pt, pb, lower=True)),
        }
        if torch is not None:
            ta, ts, tt, tb = (torch.as_tensor(x, device="cuda") for x in (a, spd, tri, b))
            t_lu = torch.linalg.lu_factor(ta)
            t_ch = torch.linalg.cholesky(ts)
            peers = {"lu_solve": lambda: torch.linalg.lu_solve(*t_lu, tb),
                     "cho_solve": lambda: torch.cholesky_solve(tb, t_ch),
                     "solve_triangular": lambda: torch.linalg.solve_triangular(tt, tb, upper=False)}
        for name, (mine, cupys) in cases.items():
            err = np.abs(ca.asnumpy(mine()) - want[name]).max() / np.abs(want[name]).max()
            peer_ms = ms(cupys, "cupy") if name != "cho_solve" or p_ch is not None else float("nan")
            line = f"k={k:<5} {name:17} cuarray {ms(mine, 'cuarray'):8.3f} ms  cupy {peer_ms:8.3f} ms"
            if torch is not None:
                line += f"  torch {ms(peers[name], 'torch'):8.3f} ms"
            print(f"{line}  (error {err:.1e})")


if __name__ == "__main__":
    main()
