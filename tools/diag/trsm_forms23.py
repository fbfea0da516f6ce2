"""Which of cuBLAS's triangular-solve forms is fast (Notes [solve by side] and [LAPACK solvers by side]): float64
dtrsm through CuPy's cuBLAS bindings, for each side, triangle, transpose and diagonal, n x n and k right-hand sides
(left: B column-major n x k; right: the transposed system, B^T column-major k x n). Times in µs per call (CUDA
events around repeated calls, each after a copy of B back to its start, timed alone and subtracted), so the
solvers can take the fastest form of each of their steps.

    python tools/diag/trsm_forms23.py [n ...] [--k 1,4,16,64,n]   (k = n: the inverse's solves)
"""
import sys

import cupy as cp
import numpy as np
from cupy_backends.cuda.libs import cublas
from _events import gpu_us


def main():
    args = sys.argv[1:]
    ks = "1,4,16,64"
    if "--k" in args:
        i = args.index("--k")
        ks = args[i + 1]
        del args[i:i + 2]
    sizes = [int(v) for v in args] or [1000, 4096]
    handle = cp.cuda.device.get_cublas_handle()
    one = np.array(1.0)
    for n in sizes:
        rng = np.random.default_rng(0)
        base = rng.standard_normal((n, n)) / n + np.eye(n)  # well conditioned with or without its diagonal
        for k in (n if v == "n" else int(v) for v in ks.split(",")):
            print(f"n={n} k={k}: side uplo trans diag  µs", flush=True)
            for side in (cublas.CUBLAS_SIDE_LEFT, cublas.CUBLAS_SIDE_RIGHT):
                for uplo in (cublas.CUBLAS_FILL_MODE_LOWER, cublas.CUBLAS_FILL_MODE_UPPER):
                    tri = np.tril(base) if uplo == cublas.CUBLAS_FILL_MODE_LOWER else np.triu(base)
                    a = cp.asarray(np.asfortranarray(tri))
                    for trans in (cublas.CUBLAS_OP_N, cublas.CUBLAS_OP_T):
                        for diag in (cublas.CUBLAS_DIAG_NON_UNIT, cublas.CUBLAS_DIAG_UNIT):
                            left = side == cublas.CUBLAS_SIDE_LEFT
                            b0 = cp.asarray(rng.standard_normal((n, k) if left else (k, n)), order="F")
                            b = b0.copy(order="F")
                            m_, n_ = (n, k) if left else (k, n)
                            reset_us = gpu_us(lambda: b.__setitem__(Ellipsis, b0), "cupy", reps=10, warmup=2)

                            def run():
                                # each call solves the same system: repeated solves in place would drive the
                                # values to zero or to inf, which a solver may treat differently
                                b[...] = b0
                                cublas.dtrsm(handle, side, uplo, trans, diag, m_, n_, one.ctypes.data, a.data.ptr,
                                             n, b.data.ptr, m_)

                            us = gpu_us(run, "cupy", reps=10, warmup=2) - reset_us
                            print(f"  {'L' if left else 'R'} {'lo' if uplo == 0 else 'up'} "
                                  f"{'N' if trans == 0 else 'T'} {'nonunit' if diag == 0 else 'unit'}  {us:9.1f}",
                                  flush=True)


if __name__ == "__main__":
    main()
