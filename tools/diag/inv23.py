"""inv of a 4096 x 4096 float64 matrix (issue 23's inv row: cuarray 0.91-0.92x PyTorch, at parity with CuPy): where
the time goes. Times (CUDA events over 5 queued calls) of the whole inverses and of their parts, an LU factorisation
(getrf) and the solve against the identity (getrs, or two triangular solves), in CuPy and PyTorch, with cuarray's
where it imports; then the kernels PyTorch's inv launches (torch.profiler), to see which solver it uses.

    python tools/diag/inv23.py [n]        # after a gpu_check build: PYTHONPATH=build-gpu/python for cuarray
"""
import sys

import cupy as cp
import numpy as np
from _events import gpu_us

try:
    import cupyx.scipy.linalg as cpx_linalg
except ImportError:  # pragma: no cover - CuPy has it
    cpx_linalg = None

try:
    import torch
except ImportError:  # pragma: no cover - the GPU machine has it
    torch = None

try:
    import cuarray as ca
except ImportError:
    ca = None




def gpu_ms(fn, lib="cupy"):
    """Milliseconds per call: five timed calls after one untimed (a 4096² inverse takes tens of ms)."""
    return gpu_us(fn, lib, reps=5, warmup=1) / 1e3


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    rng = np.random.default_rng(0)
    h = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
    eye_h = np.eye(n)
    rows = []
    a = cp.asarray(h)
    eye = cp.asarray(eye_h)
    rows.append(("cupy.linalg.inv", gpu_ms(lambda: cp.linalg.inv(a))))
    if cpx_linalg is not None:
        lu = cpx_linalg.lu_factor(a)
        rows.append(("cupyx lu_factor (getrf)", gpu_ms(lambda: cpx_linalg.lu_factor(a))))
        rows.append(("cupyx lu_solve(I) (getrs)", gpu_ms(lambda: cpx_linalg.lu_solve(lu, eye))))
        low = cp.tril(lu[0], -1) + eye
        up = cp.triu(lu[0])
        rows.append(("cupyx two solve_triangular(I) (trsm)",
                     gpu_ms(lambda: cpx_linalg.solve_triangular(
                         up, cpx_linalg.solve_triangular(low, eye, lower=True, unit_diagonal=True)))))
    if ca is not None:
        g = ca.asarray(h)
        rows.append(("cuarray.linalg.inv", gpu_ms(lambda: ca.linalg.inv(g), "cuarray")))
        rows.append(("cuarray.linalg.solve(A, I)", gpu_ms(lambda: ca.linalg.solve(g, ca.eye(n)), "cuarray")))
    if torch is not None:
        t = torch.as_tensor(h, device="cuda")
        te = torch.eye(n, dtype=torch.float64, device="cuda")
        rows.append(("torch.linalg.inv", gpu_ms(lambda: torch.linalg.inv(t), "torch")))
        rows.append(("torch.linalg.solve(A, I)", gpu_ms(lambda: torch.linalg.solve(t, te), "torch")))
        lu_t, piv_t = torch.linalg.lu_factor(t)
        rows.append(("torch.linalg.lu_factor", gpu_ms(lambda: torch.linalg.lu_factor(t), "torch")))
        rows.append(("torch.linalg.lu_solve(I)", gpu_ms(lambda: torch.linalg.lu_solve(lu_t, piv_t, te), "torch")))
    for name, ms in rows:
        print(f"{name:42} {ms:8.2f} ms")
    if torch is not None:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                torch.linalg.inv(t)
            torch.cuda.synchronize()
        avg = prof.key_averages()
        for key in ("device_time_total", "cuda_time_total"):
            try:
                print(avg.table(sort_by=key, row_limit=15, max_name_column_width=70))
                break
            except (AttributeError, KeyError, ValueError):
                continue


if __name__ == "__main__":
    main()
