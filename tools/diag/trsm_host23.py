"""Why one cuBLAS triangular solve costs as much host time as GPU time (issue 23's trailing solvers: tri_parts23.py
--profile found 314 µs of host time to enqueue one `_core._lapack.trsm` of order 1000 with 16 right-hand sides on
an H200, as long as its GPU time, so the GPU starves while it is enqueued).

Two suspects, told apart here:
- cuBLAS's own launches: a blocked trsm launches a few kernels per block. Then CuPy's direct `cublas.dtrsm` call,
  which sets no workspace, costs as much host time as cuarray's.
- cuarray's wrapper: `ready_handle` (src/linalg/cublas.cpp) sets a freshly pooled 32 MiB workspace on the handle
  at every call. Then CuPy's direct call enqueues much faster.
It prints the host time of enqueueing (no wait) and the GPU time (events) of each, and, where PyTorch is
installed, the kernels and CUDA runtime calls one call makes (torch.profiler records the whole process through
CUPTI, cuarray's and CuPy's launches included).

    PYTHONPATH=build-gpu/python python tools/diag/trsm_host23.py [n] [k]
"""
import sys

import cupy as cp
import numpy as np
from _events import gpu_us, host_us, optional, print_launches
from cupy_backends.cuda.libs import cublas

import cuarray as ca
from cuarray import _core

torch = optional("torch")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    rng = np.random.default_rng(0)
    tri = np.tril(rng.random((n, n))) + n * np.eye(n)
    b = rng.random((n, k))
    lap = _core._lapack
    g_t, g_b = ca.asarray(tri), ca.asarray(b)
    # CuPy's form of the same left-side solve: T's column-major image (op N, lower), B column-major.
    p_t, p_b = cp.asarray(np.asfortranarray(tri)), cp.asarray(np.asfortranarray(b))
    handle = cp.cuda.device.get_cublas_handle()
    one = np.array(1.0)

    def cupy_trsm(diag=cublas.CUBLAS_DIAG_NON_UNIT):
        cublas.dtrsm(handle, cublas.CUBLAS_SIDE_LEFT, cublas.CUBLAS_FILL_MODE_LOWER, cublas.CUBLAS_OP_N, diag, n, k,
                     one.ctypes.data, p_t.data.ptr, n, p_b.data.ptr, n)

    ca_sync, cp_sync = ca.cuda.Device().synchronize, cp.cuda.Device().synchronize
    cases = [
        ("cuarray _lapack.trsm, non-unit (scaled route)", lambda: lap.trsm(g_t, g_b, True, 0, False), "cuarray",
         ca_sync),
        ("cuarray _lapack.trsm, unit diagonal", lambda: lap.trsm(g_t, g_b, True, 0, True), "cuarray", ca_sync),
        ("CuPy cublas.dtrsm L lo N non-unit", cupy_trsm, "cupy", cp_sync),
        ("CuPy cublas.dtrsm L lo N unit", lambda: cupy_trsm(cublas.CUBLAS_DIAG_UNIT), "cupy", cp_sync),
    ]
    if torch is not None:
        t_t, t_b = torch.as_tensor(tri, device="cuda"), torch.as_tensor(b, device="cuda")
        cases.append(("PyTorch linalg.solve_triangular", lambda: torch.linalg.solve_triangular(t_t, t_b, upper=False),
                      "torch", torch.cuda.synchronize))
    print(f"n={n} k={k}: host µs to enqueue one call / GPU µs a call (back to back)", flush=True)
    for name, fn, lib, sync in cases:
        print(f"  {name:48} {host_us(fn, sync):8.1f} / {gpu_us(fn, lib, reps=20, warmup=3):8.1f}", flush=True)
    for name, fn, lib, sync in cases:
        print_launches(name, fn, sync)


if __name__ == "__main__":
    main()
