"""A few one-kernel triangular solves (Note [one-kernel triangular solves], src/linalg/lapack.cpp) small enough
for compute-sanitizer: every dtype, both triangles, trans 0/1/2, a partial last chunk and column tile, a stack,
strided and reversed views, cho_solve and lu_solve; linalg.solve and the early info reads of inv and solve
(a singular member of a short and a long stack). Prints the largest difference from SciPy and NumPy.

    compute-sanitizer --tool memcheck python tri_kernel_sanitize.py
"""
import numpy as np
import scipy.linalg as sl

import cuarray as ca
import cuarray.scipy.linalg as cax

worst = 0.0
for dtype in (np.float32, np.float64, np.complex64, np.complex128):
    r = np.random.default_rng(0)
    n, k = 70, 19
    a = (r.standard_normal((n, n)) / n + 3 * np.eye(n)).astype(dtype)
    b = r.standard_normal((n, k)).astype(dtype)
    for da, ha in ((ca.asarray(a), a), (ca.asarray(a)[::-1, ::-1], a[::-1, ::-1]), (ca.asarray(a).T, a.T)):
        for lower in (False, True):
            for trans in (0, 1, 2):
                got = cax.solve_triangular(da, ca.asarray(b)[::-1], lower=lower, trans=trans).get()
                want = sl.solve_triangular(ha, b[::-1], lower=lower, trans=trans)
                worst = max(worst, float(np.abs(got - want).max()))
    stack = np.stack([a, a.T])
    got = cax.solve_triangular(ca.asarray(stack), ca.asarray(b), lower=True).get()
    worst = max(worst, float(np.abs(got[1] - sl.solve_triangular(a.T, b, lower=True)).max()))
    s = (a @ a.conj().T).astype(dtype)
    for lower in (False, True):
        got = cax.cho_solve(cax.cho_factor(ca.asarray(s), lower=lower), ca.asarray(b)).get()
        worst = max(worst, float(np.abs(got - sl.cho_solve(sl.cho_factor(s, lower=lower), b)).max()))
    for trans in (0, 1, 2):
        got = cax.lu_solve(cax.lu_factor(ca.asarray(a)), ca.asarray(b), trans=trans).get()
        worst = max(worst, float(np.abs(got - sl.lu_solve(sl.lu_factor(a), b, trans=trans)).max()))
    # linalg.solve through getrs's kernel (Note [solve by side]), and the early info reads of inv and solve
    # (Note [info read during the solve]): a short stack's flags copied whole, a long one's counted.
    got = ca.linalg.solve(ca.asarray(a), ca.asarray(b)).get()
    worst = max(worst, float(np.abs(got - np.linalg.solve(a, b)).max()))
    for m in (10, 100):
        st = np.stack([a[:6, :6]] * m)
        got = ca.linalg.solve(ca.asarray(st), ca.asarray(b[:6, :2])).get()
        worst = max(worst, float(np.abs(got - np.linalg.solve(st, b[:6, :2])).max()))
        st[m - 1] = 0
        for fn in (lambda x: ca.linalg.inv(x), lambda x: ca.linalg.solve(x, ca.asarray(b[:6, :2]))):
            try:
                fn(ca.asarray(st))
                raise AssertionError("a singular member was not reported")
            except np.linalg.LinAlgError:
                pass
print(f"largest difference from SciPy and NumPy: {worst:.2e}")
