"""Where the time of `inv` and `solve` of a stack of small matrices goes (issue 23: on an H100 at b307643,
`inv` of 16384 x 8 x 8 float64 took 117-124 µs against CuPy's 110-111, `solve` with one right-hand side 122-127
against PyTorch's 120-123; on an H200 at 85fa14d they led by 1.15x and 1.24x).

For each library: the whole call; CuPy with its info check turned on (`cupyx.errstate(linalg='raise')`, which
reads getrf's info on the host as cuarray always does, NumPy's LinAlgError); PyTorch's `inv_ex`/`solve_ex`, which
check nothing; and the floor: CuPy's direct cuBLAS getrfBatched + getriBatched (or getrsBatched) on prepared
pointer arrays, with no copies and no check. Then the host time to enqueue one call, and, where PyTorch is
installed, the kernels and runtime calls one call makes.

    PYTHONPATH=build-gpu/python python tools/diag/stack_parts23.py [batch] [n]
"""
import sys

import cupy as cp
import cupyx
import numpy as np
from _events import gpu_us, host_us, optional, print_launches
from cupy_backends.cuda.libs import cublas

import cuarray as ca

torch = optional("torch")


def pointers(x):
    """Device array of the matrices' addresses of the C-ordered stack x."""
    step = x.shape[-1] * x.shape[-2] * x.itemsize
    return cp.arange(x.shape[0], dtype=cp.uint64) * step + x.data.ptr


def main():
    batch = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    rng = np.random.default_rng(0)
    a = rng.standard_normal((batch, n, n)) + n * np.eye(n)
    b = rng.standard_normal((batch, n, 1))
    ga, gb, pa, pb = ca.asarray(a), ca.asarray(b), cp.asarray(a), cp.asarray(b)

    def cupy_checked(fn):
        def run():
            with cupyx.errstate(linalg="raise"):
                return fn()
        return run

    # The floor: getrf/getri (getrs) in place on prepared copies, CuPy's handle, nothing else. Each call factors
    # the last call's output again: the values drift, the work does not (timing only).
    lu, out, rhs = pa.copy(), cp.empty_like(pa), pb.reshape(batch, n, 1).copy()
    p_lu, p_out, p_rhs = pointers(lu), pointers(out), pointers(rhs)
    piv = cp.empty((batch, n), dtype=cp.int32)
    info = cp.empty(batch, dtype=cp.int32)
    handle = cp.cuda.device.get_cublas_handle()

    def floor_inv():
        cublas.dgetrfBatched(handle, n, p_lu.data.ptr, n, piv.data.ptr, info.data.ptr, batch)
        cublas.dgetriBatched(handle, n, p_lu.data.ptr, n, piv.data.ptr, p_out.data.ptr, n, info.data.ptr, batch)

    def floor_solve():
        cublas.dgetrfBatched(handle, n, p_lu.data.ptr, n, piv.data.ptr, info.data.ptr, batch)
        host_info = np.empty(1, dtype=np.int32)
        cublas.dgetrsBatched(handle, cublas.CUBLAS_OP_T, n, 1, p_lu.data.ptr, n, piv.data.ptr, p_rhs.data.ptr, n,
                             host_info.ctypes.data, batch)

    cases = [("cuarray inv", lambda: ca.linalg.inv(ga), "cuarray", ca.cuda.Device().synchronize),
             ("CuPy inv", lambda: cp.linalg.inv(pa), "cupy", cp.cuda.Device().synchronize),
             ("CuPy inv, info checked", cupy_checked(lambda: cp.linalg.inv(pa)), "cupy", cp.cuda.Device().synchronize),
             ("cuBLAS getrf+getri floor", floor_inv, "cupy", cp.cuda.Device().synchronize),
             ("cuarray solve", lambda: ca.linalg.solve(ga, gb), "cuarray", ca.cuda.Device().synchronize),
             ("CuPy solve", lambda: cp.linalg.solve(pa, pb), "cupy", cp.cuda.Device().synchronize),
             ("CuPy solve, info checked", cupy_checked(lambda: cp.linalg.solve(pa, pb)), "cupy",
              cp.cuda.Device().synchronize),
             ("cuBLAS getrf+getrs floor", floor_solve, "cupy", cp.cuda.Device().synchronize)]
    if torch is not None:
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        cases += [("PyTorch inv", lambda: torch.linalg.inv(ta), "torch", torch.cuda.synchronize),
                  ("PyTorch inv_ex", lambda: torch.linalg.inv_ex(ta), "torch", torch.cuda.synchronize),
                  ("PyTorch solve", lambda: torch.linalg.solve(ta, tb), "torch", torch.cuda.synchronize),
                  ("PyTorch solve_ex", lambda: torch.linalg.solve_ex(ta, tb), "torch", torch.cuda.synchronize)]
    print(f"batch={batch} n={n} float64: GPU µs a call (back to back) / host µs to enqueue one", flush=True)
    for name, fn, lib, sync in cases:
        try:
            print(f"  {name:32} {gpu_us(fn, lib, reps=30, warmup=3):8.1f} / {host_us(fn, sync):8.1f}", flush=True)
        except Exception as e:  # a peer's missing entry point must not hide the other figures
            print(f"  {name:32} failed: {type(e).__name__}: {e}", flush=True)
    for name, fn, lib, sync in cases:
        try:
            print_launches(name, fn, sync)
        except Exception as e:
            print(f"{name}: profile failed: {type(e).__name__}: {e}", flush=True)


if __name__ == "__main__":
    main()
