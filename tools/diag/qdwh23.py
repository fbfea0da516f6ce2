"""Can a polar SVD of our own (QDWH, then an eigensolver on H) match CuPy's peak memory and keep Xgesvdp's speed?

Prints, for one n x n float64 matrix: the device workspace of each cuSOLVER eigensolver and of the QR pieces, in
units of n^2 doubles; the time of the eigensolvers; and a QDWH polar decomposition built from cuarray's own
calls (qr, cholesky, solve_triangular, matmul) with its iteration count, time and the SVD's reconstruction error.

    python tools/diag/qdwh23.py [n] [kappa]
"""
import ctypes
import math
import sys

import numpy as np
from _events import host_timed

import cuarray as ca
import cuarray.scipy.linalg as cla

VECTOR = 1
LOWER = 0
R_64F = 1


def cusolver_lib():
    ca.linalg.svd(ca.ones((2, 2)))
    with open("/proc/self/maps") as f:
        for line in f:
            if "libcusolver.so" in line and "Mg" not in line:
                return ctypes.CDLL(line.split()[-1])
    raise RuntimeError("cuSOLVER is not loaded")


def timed(label, body, reps=2):
    return host_timed(label, body, reps)


def qdwh(a, l0, alpha=None):
    """Polar factor of a (n x n) by QDWH (Nakatsukasa, Bai and Gygi 2010); returns (U_p, iterations)."""
    n = a.shape[1]
    if alpha is None:
        alpha = float(ca.linalg.norm(a))  # Frobenius: an upper bound of the 2-norm
    x = a / alpha
    l = l0
    eye = ca.eye(n)
    it = 0
    while True:
        l2 = l * l
        g = (4.0 * (1.0 - l2) / (l2 * l2)) ** (1.0 / 3.0)
        sq = math.sqrt(1.0 + g)
        aa = sq + 0.5 * math.sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - l2) / (l2 * sq))
        bb = (aa - 1.0) ** 2 / 4.0
        cc = aa + bb - 1.0
        if cc > 100.0:
            w = ca.concatenate([math.sqrt(cc) * x, eye], axis=0)
            q, _ = ca.linalg.qr(w)
            xn = (bb / cc) * x + (aa - bb / cc) / math.sqrt(cc) * (q[:n] @ q[n:].T)
        else:
            z = eye + cc * (x.T @ x)
            c = ca.linalg.cholesky(z)  # lower: z = c c^T
            # x z^{-1} = ((c^T)^{-1} c^{-1} x^T)^T
            y = cla.solve_triangular(c, x.T, lower=True)
            y = cla.solve_triangular(c, y, lower=True, trans=1)
            xn = (bb / cc) * x + (aa - bb / cc) * y.T
        l = l * (aa + bb * l2) / (1.0 + cc * l2)
        it += 1
        d = float(ca.linalg.norm(xn - x))
        x = xn
        if (abs(1.0 - l) < 10 * np.finfo(np.float64).eps and d < np.finfo(np.float64).eps ** (1 / 3)) or it >= 12:
            return x, it


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    kappa = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    lib = cusolver_lib()
    h = ctypes.c_void_p()
    assert lib.cusolverDnCreate(ctypes.byref(h)) == 0
    params = ctypes.c_void_p()
    assert lib.cusolverDnCreateParams(ctypes.byref(params)) == 0
    assert lib.cusolverDnSetStream(h, ctypes.c_void_p(ca.cuda.get_current_stream().ptr)) == 0
    n2 = n * n
    p = lambda x: ctypes.c_void_p(x.data.ptr)  # noqa: E731
    rng = np.random.default_rng(0)
    host = rng.standard_normal((n, n))
    if kappa:
        uq, _ = np.linalg.qr(rng.standard_normal((n, n)))
        vq, _ = np.linalg.qr(rng.standard_normal((n, n)))
        host = (uq * np.geomspace(1.0, 1.0 / kappa, n)) @ vq.T
    a = ca.asarray(host)
    sym = ca.asfortranarray(a + a.T)
    w = ca.empty(n)
    lw = ctypes.c_int()
    st = lib.cusolverDnDsyevd_bufferSize(h, VECTOR, LOWER, n, p(sym), n, p(w), ctypes.byref(lw))
    print(f"n = {n}")
    print(f"Dsyevd (legacy): status {st}, workspace {lw.value / n2:.3f} n^2")
    lwd = lw.value
    meig = ctypes.c_int()
    st = lib.cusolverDnDsyevdx_bufferSize(h, VECTOR, 0, LOWER, n, p(sym), n, ctypes.c_double(0), ctypes.c_double(0),
                                          0, 0, ctypes.byref(meig), p(w), ctypes.byref(lw))
    print(f"Dsyevdx (legacy, all): status {st}, workspace {lw.value / n2:.3f} n^2")
    sj = ctypes.c_void_p()
    lib.cusolverDnCreateSyevjInfo(ctypes.byref(sj))
    st = lib.cusolverDnDsyevj_bufferSize(h, VECTOR, LOWER, n, p(sym), n, p(w), ctypes.byref(lw), sj)
    print(f"Dsyevj: status {st}, workspace {lw.value / n2:.3f} n^2")
    d, hb = ctypes.c_size_t(), ctypes.c_size_t()
    st = lib.cusolverDnXsyevd_bufferSize(h, params, VECTOR, LOWER, ctypes.c_int64(n), R_64F, p(sym), ctypes.c_int64(n),
                                         R_64F, p(w), R_64F, ctypes.byref(d), ctypes.byref(hb))
    print(f"Xsyevd: status {st}, workspace {d.value / 8 / n2:.3f} n^2, host {hb.value} B")
    st = lib.cusolverDnDsytrd_bufferSize(h, LOWER, n, p(sym), n, p(w), p(w), p(w), ctypes.byref(lw))
    print(f"Dsytrd: status {st}, workspace {lw.value / n2:.3f} n^2")
    tall = ca.empty((2 * n, n), order="F")
    st = lib.cusolverDnDgeqrf_bufferSize(h, 2 * n, n, p(tall), 2 * n, ctypes.byref(lw))
    print(f"Dgeqrf 2n x n: status {st}, workspace {lw.value / n2:.3f} n^2")
    st = lib.cusolverDnDorgqr_bufferSize(h, 2 * n, n, n, p(tall), 2 * n, p(w), ctypes.byref(lw))
    print(f"Dorgqr 2n x n: status {st}, workspace {lw.value / n2:.3f} n^2")
    st = lib.cusolverDnDpotrf_bufferSize(h, LOWER, n, p(sym), n, ctypes.byref(lw))
    print(f"Dpotrf: status {st}, workspace {lw.value / n2:.3f} n^2")
    del tall

    info = ca.zeros(1, dtype=ca.int32)
    work = ca.empty(max(lwd, 1))
    sym0 = sym.copy()

    def legacy():
        sym[...] = sym0
        lib.cusolverDnDsyevd(h, VECTOR, LOWER, n, p(sym), n, p(w), p(work), lwd, p(info))

    timed("Dsyevd (legacy)", legacy)
    print(f"    info {int(info.get()[0])}")
    del work
    timed("cuarray.linalg.eigh", lambda: ca.linalg.eigh(sym0))
    timed("cuarray.linalg.svd", lambda: ca.linalg.svd(a, full_matrices=False))

    for l0 in (1e-8, 1e-4, 1e-2):
        print(f"QDWH, l0 = {l0:g}")
        up, it = timed("polar", lambda: qdwh(a, l0))
        print(f"    iterations {it}, |U^T U - I| {float(ca.linalg.norm(up.T @ up - ca.eye(n))):.3g}")

        def rest():
            hh = up.T @ a
            hh = (hh + hh.T) / 2
            s, v = ca.linalg.eigh(hh)
            return up @ v, s, v.T

        u, s, vt = timed("H, eigh, U", rest)
        err = float(ca.linalg.norm((u * s[None, :]) @ vt - a)) / float(ca.linalg.norm(a))
        ref = np.linalg.svd(host, compute_uv=False)
        serr = float(np.max(np.abs(np.sort(s.get())[::-1] - ref))) / ref[0]
        print(f"    reconstruction {err:.3g}, singular values {serr:.3g}, "
              f"|U^T U - I| {float(ca.linalg.norm(u.T @ u - ca.eye(n))):.3g}")
        sh = s.get()
        smax, smin = float(sh.max()), float(sh.min())
        up2, it2 = timed("second polar, exact bounds", lambda: qdwh(a, 0.9 * smin / smax, smax * 1.0000001))
        print(f"    iterations {it2}, |U2 - U| {float(ca.linalg.norm(up2 - up)):.3g}")
        hb = timed("U_p to host and back", lambda: ca.asarray(up.get()))
        del hb


if __name__ == "__main__":
    main()
