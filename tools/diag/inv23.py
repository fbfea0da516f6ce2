"""inv of a 4096 x 4096 float64 matrix (issue 23's inv row: cuarray 0.91-0.92x PyTorch, at parity with CuPy): where
the time goes. Times (CUDA events over 5 queued calls) of the whole inverses and of their parts, an LU factorisation
(getrf) and the solve against the identity (getrs, or two triangular solves), in CuPy and PyTorch, with cuarray's
where it imports; then the kernels PyTorch's inv launches (torch.profiler), to see which solver it uses.

Then LAPACK getri's form, which the library could take instead of getrs on the identity (after getrf, getrs on n
right-hand sides is two full triangular solves, 2 n^3 flops; getri is trtri of U, n^3 / 3, and one solve
X L = inv(U), n^3): cusolverDnXtrtri (through ctypes, CuPy has no binding) and
cublasDtrsm (right, lower, unit), then the pivots' column swaps, checked against NumPy.

    python tools/diag/inv23.py [n] [--uniform]        # after a gpu_check build: PYTHONPATH=build-gpu/python for cuarray
"""
import ctypes
import sys

import cupy as cp
import numpy as np
from _events import gpu_us, optional

cpx_linalg = optional("cupyx.scipy.linalg")
torch = optional("torch")
ca = optional("cuarray")




def gpu_ms(fn, lib="cupy"):
    """Milliseconds per call: five timed calls after one untimed (a 4096² inverse takes tens of ms)."""
    return gpu_us(fn, lib, reps=5, warmup=1) / 1e3


def getri_form(a, h):
    """inv by getrf, trtri(U) and X L = inv(U) (LAPACK getri's steps), timed by part; checked against NumPy."""
    from cupy_backends.cuda.libs import cublas
    lib = None
    for name in ("libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"):
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        return []
    n = a.shape[0]
    i64, vp, sz = ctypes.c_int64, ctypes.c_void_p, ctypes.c_size_t
    lib.cusolverDnXtrtri_bufferSize.argtypes = [vp, ctypes.c_int, ctypes.c_int, i64, ctypes.c_int, vp, i64,
                                                ctypes.POINTER(sz), ctypes.POINTER(sz)]
    lib.cusolverDnXtrtri.argtypes = [vp, ctypes.c_int, ctypes.c_int, i64, ctypes.c_int, vp, i64, vp, sz, vp, sz, vp]
    upper, lower, non_unit, unit, r64f, right = 1, 0, 0, 1, 1, 1
    hs = cp.cuda.device.get_cusolver_handle()
    hb = cp.cuda.device.get_cublas_handle()
    lu, piv = cpx_linalg.lu_factor(a)
    dev_b, host_b = sz(), sz()
    lib.cusolverDnXtrtri_bufferSize(hs, upper, non_unit, n, r64f, lu.data.ptr, n, ctypes.byref(dev_b),
                                    ctypes.byref(host_b))
    work = cp.empty(max(dev_b.value, 1), cp.uint8)
    host_work = ctypes.create_string_buffer(max(host_b.value, 1))
    info = cp.zeros(1, cp.int32)
    one = np.array(1.0)
    w = cp.empty_like(lu, order="F")

    def trtri():
        lib.cusolverDnXtrtri(hs, upper, non_unit, n, r64f, w.data.ptr, n, work.data.ptr, dev_b.value,
                             ctypes.addressof(host_work), host_b.value, info.data.ptr)

    def trsm(x):
        cublas.dtrsm(hb, right, lower, 0, unit, n, n, one.ctypes.data, w.data.ptr, n, x.data.ptr, n)

    rows = []
    w[...] = lu
    rows.append(("getri form: Xtrtri(U)", gpu_ms(lambda: (w.__setitem__(Ellipsis, lu), trtri()))))
    w[...] = lu
    trtri()
    x = cp.asfortranarray(cp.triu(w))
    rows.append(("getri form: triu copy", gpu_ms(lambda: cp.asfortranarray(cp.triu(w)))))
    x0 = x.copy(order="F")
    rows.append(("getri form: dtrsm X L = inv(U)", gpu_ms(lambda: (x.__setitem__(Ellipsis, x0), trsm(x)))))
    x[...] = x0
    trsm(x)
    cols = np.arange(n)
    for j, jp in reversed(list(enumerate(cp.asnumpy(piv)))):
        cols[j], cols[jp] = cols[jp], cols[j]
    dcols = cp.asarray(cols)
    rows.append(("getri form: column permutation", gpu_ms(lambda: cp.take(x, dcols, axis=1))))
    got = cp.asnumpy(cp.take(x, dcols, axis=1))
    want = np.linalg.inv(h)
    err = np.abs(got - want).max() / np.abs(want).max()
    rows.append((f"getri form: max error over max |inv| {err:.1e}", 0.0))
    rows.append(("(the copies of lu and x0 are inside the timed parts)", 0.0))
    # cuBLAS trsm on n right-hand sides, each side, triangle and transpose (getrs takes left, N, lower then upper)
    b0 = cp.asfortranarray(cp.asarray(np.random.default_rng(1).standard_normal((n, n))))
    b = b0.copy(order="F")
    for side, uplo, trans, diag, name in ((0, lower, 0, unit, "left lower N unit"),
                                          (0, upper, 0, non_unit, "left upper N"),
                                          (right, lower, 0, unit, "right lower N unit"),
                                          (right, upper, 0, non_unit, "right upper N"),
                                          (right, lower, 1, unit, "right lower T unit"),
                                          (right, upper, 1, non_unit, "right upper T")):
        rows.append((f"dtrsm {name} (with a copy of B)", gpu_ms(lambda: (
            b.__setitem__(Ellipsis, b0),
            cublas.dtrsm(hb, side, uplo, trans, diag, n, n, one.ctypes.data, lu.data.ptr, n, b.data.ptr, n)))))
    # inv(A)^T = P^T L^-T U^-T by two right-side solves from B = P^T: its column-major memory is inv(A) in C order
    p = np.arange(n)
    for j, jp in enumerate(cp.asnumpy(piv)):
        p[j], p[jp] = p[jp], p[j]
    pt = cp.asfortranarray(cp.eye(n)[:, cp.asarray(p)])

    def right_solves():
        b[...] = pt
        cublas.dtrsm(hb, right, lower, 1, unit, n, n, one.ctypes.data, lu.data.ptr, n, b.data.ptr, n)
        cublas.dtrsm(hb, right, upper, 1, non_unit, n, n, one.ctypes.data, lu.data.ptr, n, b.data.ptr, n)

    rows.append(("right solves from P^T (with its copy)", gpu_ms(right_solves)))
    right_solves()
    err = np.abs(cp.asnumpy(b).T - want).max() / np.abs(want).max()
    rows.append((f"right solves: max error over max |inv| {err:.1e}", 0.0))
    # solve with few right-hand sides (the benchmarks' 16): getrs against cuBLAS trsm from either side
    for k in (1, 16):
        bk = cp.asfortranarray(cp.asarray(np.random.default_rng(2).standard_normal((n, k))))
        rows.append((f"k={k}: cupyx lu_solve (getrs)", gpu_ms(lambda: cpx_linalg.lu_solve((lu, piv), bk))))
        c = bk.copy(order="F")
        rows.append((f"k={k}: dtrsm left lower + left upper", gpu_ms(lambda: (
            cublas.dtrsm(hb, 0, lower, 0, unit, n, k, one.ctypes.data, lu.data.ptr, n, c.data.ptr, n),
            cublas.dtrsm(hb, 0, upper, 0, non_unit, n, k, one.ctypes.data, lu.data.ptr, n, c.data.ptr, n)))))
        ct = cp.asfortranarray(bk.T)  # k x n
        rows.append((f"k={k}: dtrsm right lower T + right upper T", gpu_ms(lambda: (
            cublas.dtrsm(hb, right, lower, 1, unit, k, n, one.ctypes.data, lu.data.ptr, n, ct.data.ptr, k),
            cublas.dtrsm(hb, right, upper, 1, non_unit, k, n, one.ctypes.data, lu.data.ptr, n, ct.data.ptr, k)))))
        if ca is not None:
            ga, gb = ca.asarray(h), ca.asarray(cp.asnumpy(bk))
            rows.append((f"k={k}: cuarray.linalg.solve", gpu_ms(lambda: ca.linalg.solve(ga, gb), "cuarray")))
        if torch is not None:
            ta, tb = torch.as_tensor(h, device="cuda"), torch.as_tensor(cp.asnumpy(bk), device="cuda")
            rows.append((f"k={k}: torch.linalg.solve", gpu_ms(lambda: torch.linalg.solve(ta, tb), "torch")))
            lu_t, piv_t = torch.linalg.lu_factor(ta)
            rows.append((f"k={k}: torch.linalg.lu_solve", gpu_ms(lambda: torch.linalg.lu_solve(lu_t, piv_t, tb),
                                                                  "torch")))
    return rows


def main():
    sizes = [a for a in sys.argv[1:] if a.isdigit()]
    n = int(sizes[0]) if sizes else 4096
    rng = np.random.default_rng(0)
    # the benchmarks' matrices: uniform entries, no dominant diagonal (partial pivoting swaps rows at most steps)
    h = rng.random((n, n)) if "--uniform" in sys.argv else rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
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
    if cpx_linalg is not None:
        rows.extend(getri_form(a, h))
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
