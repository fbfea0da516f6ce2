"""Stacks of small matrices (Note [batched small LU], src/linalg/decomp_common.hpp): inv, solve and det of
(batch, n, n) float64 through cuarray's batched route and its per-matrix loop (forced with
_core._linalg_batched_max_n), against CuPy and PyTorch, to place the order where the loop takes over.
Each figure is the time per call in µs (events around repeated calls; every call reads LAPACK's info on the host,
so host time counts too).

    PYTHONPATH=$PWD/build-gpu/python python tools/diag/batched23.py
"""
import cupy as cp
import numpy as np
from _events import gpu_us, optional

import cuarray as ca
from cuarray import _core

torch = optional("torch")


def main():
    rng = np.random.default_rng(0)
    print(f"{'op':6} {'batch':>6} {'n':>4} {'batched':>10} {'loop':>10} {'cupy':>10} {'torch':>10}")
    for n, batch in ((2, 16384), (8, 16384), (8, 16), (32, 1024), (64, 256), (128, 64), (128, 2), (256, 8),
                     (256, 3), (512, 8), (1024, 16)):
        a = rng.standard_normal((batch, n, n)) + n * np.eye(n)
        b = rng.standard_normal((batch, n, 1))
        ga, gb, pa, pb = ca.asarray(a), ca.asarray(b), cp.asarray(a), cp.asarray(b)
        reps = 5 if batch * n >= 8192 and n >= 128 else 10
        cases = {
            "inv": (lambda: ca.linalg.inv(ga), lambda: cp.linalg.inv(pa)),
            "solve": (lambda: ca.linalg.solve(ga, gb), lambda: cp.linalg.solve(pa, pb)),
            "det": (lambda: ca.linalg.det(ga), lambda: cp.linalg.det(pa)),
        }
        if torch is not None:
            ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
            peers = {"inv": lambda: torch.linalg.inv(ta), "solve": lambda: torch.linalg.solve(ta, tb),
                     "det": lambda: torch.linalg.det(ta)}
        want = {"inv": np.linalg.inv(a), "solve": np.linalg.solve(a, b), "det": np.linalg.det(a)}
        for name, (mine, cupys) in cases.items():
            row = []
            for limit in (1 << 30, 0):
                old = _core._linalg_batched_max_n(limit)
                try:
                    got = ca.asnumpy(mine())
                    assert np.allclose(got, want[name], rtol=1e-9, atol=1e-12), (name, n, batch, limit)
                    row.append(gpu_us(mine, "cuarray", reps=reps, warmup=1))
                finally:
                    _core._linalg_batched_max_n(old)
            row.append(gpu_us(cupys, "cupy", reps=reps, warmup=1))
            row.append(gpu_us(peers[name], "torch", reps=reps, warmup=1) if torch is not None else float("nan"))
            print(f"{name:6} {batch:6d} {n:4d} " + " ".join(f"{v:10.1f}" for v in row), flush=True)


if __name__ == "__main__":
    main()
