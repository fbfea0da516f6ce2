"""Device workspace and time of cuSOLVER's SVD routes for one n x n float64 matrix, in units of n^2 doubles:
Xgesvdp (the polar SVD svd uses), QR-iteration Xgesvd, Jacobi gesvdj, and the polar decomposition Xpolar followed
by Xsyevd and a matmul (where the loaded cuSOLVER has Xpolar). Each route's peak is its own buffers (the working
copy, outputs) plus its workspace; the reconstruction error says whether the route is usable.

    python tools/diag/svd_memory.py [n]

Found on 2026-11-27 (one H200, n = 4096, cuSOLVER 12004, which has no Xpolar): Xgesvdp's workspace is 5.19 n^2
(peak 8.19 n^2 with the copy, U and V; 280-308 ms), Xgesvd's 3.07 n^2 (jobu 'O' writes U over the copy: peak
5.07 n^2, CuPy's; 1743 ms), gesvdj's 2.02 n^2 (peak 5.02 n^2; 1600 ms, error 2.6e-12), and Xsyevd's alone
4.03 n^2, so a polar route of our own (Newton iteration, then Xsyevd, as tried that day: 380 ms, error 3e-13)
peaked at 7.4 n^2.
"""
import ctypes
import sys

import numpy as np
from _events import host_timed

import cuarray as ca

R_64F = 1
VECTOR = 1
LOWER = 0


def cusolver_path() -> str:
    ca.linalg.svd(ca.ones((2, 2)))  # loads cuSOLVER
    with open("/proc/self/maps") as f:
        for line in f:
            if "libcusolver.so" in line and "Mg" not in line:
                return line.split()[-1]
    raise RuntimeError("cuSOLVER is not loaded")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    path = cusolver_path()
    lib = ctypes.CDLL(path)
    print(f"cuSOLVER: {path}")
    ver = ctypes.c_int()
    lib.cusolverGetVersion(ctypes.byref(ver))
    print(f"version {ver.value}; n = {n}, n^2 doubles = {n * n * 8} bytes")
    h = ctypes.c_void_p()
    params = ctypes.c_void_p()
    assert lib.cusolverDnCreate(ctypes.byref(h)) == 0
    assert lib.cusolverDnCreateParams(ctypes.byref(params)) == 0
    assert lib.cusolverDnSetStream(h, ctypes.c_void_p(ca.cuda.get_current_stream().ptr)) == 0
    n2 = n * n * 8
    rng = np.random.default_rng(0)
    host = rng.standard_normal((n, n))
    a = ca.asarray(host)
    anorm = float(ca.linalg.norm(a))
    i64 = ctypes.c_int64
    sz = ctypes.c_size_t
    p = lambda x: ctypes.c_void_p(x.data.ptr)  # noqa: E731

    def ws(fn, *args):
        d, hh = sz(), sz()
        st = fn(*args, ctypes.byref(d), ctypes.byref(hh))
        return st, d.value, hh.value

    def sync():
        ca.cuda.Device().synchronize()

    run_timed = host_timed

    def err(u, s, vt):
        return float(ca.linalg.norm((u * s[None, :]) @ vt - a)) / anorm

    s = ca.empty(n)
    info = ca.zeros(1, dtype=ca.int32)

    # Xgesvdp, econ
    w = ca.asfortranarray(a.copy())
    u = ca.empty((n, n), order="F")
    v = ca.empty((n, n), order="F")
    st, d, hb = ws(lib.cusolverDnXgesvdp_bufferSize, h, params, VECTOR, 1, i64(n), i64(n), R_64F, p(w), i64(n), R_64F,
                   p(s), R_64F, p(u), i64(n), R_64F, p(v), i64(n), R_64F)
    print(f"Xgesvdp: status {st}, device workspace {d / n2:.3f} n^2, host {hb} B; peak with A, U, V: {3 + d / n2:.3f}")
    for rep in range(2):
        work = ca.empty(max(d, 1) // 8 + 1)
        hw = ctypes.create_string_buffer(max(hb, 1))
        es = ctypes.c_double()
        run_timed(f"Xgesvdp run {rep}", lambda: lib.cusolverDnXgesvdp(
            h, params, VECTOR, 1, i64(n), i64(n), R_64F, p(w), i64(n), R_64F, p(s), R_64F, p(u), i64(n), R_64F, p(v),
            i64(n), R_64F, p(work), sz(d), hw, sz(hb), p(info), ctypes.byref(es)))
        print(f"    info {int(info.get()[0])}, err_sigma {es.value:.3g}, error {err(u, s, v.T):.3g}")
        w = ca.asfortranarray(a.copy())
        del work

    # Xgesvd 'S','S' and 'O','S'
    for ju in (b"S", b"O"):
        vt = ca.empty((n, n), order="F")
        st, d, hb = ws(lib.cusolverDnXgesvd_bufferSize, h, params, ctypes.c_char(ju), ctypes.c_char(b"S"), i64(n),
                       i64(n), R_64F, p(w), i64(n), R_64F, p(s), R_64F, p(u), i64(n), R_64F, p(vt), i64(n), R_64F)
        bufs = 2 if ju == b"O" else 3
        print(f"Xgesvd jobu={ju.decode()}: status {st}, device workspace {d / n2:.3f} n^2, host {hb} B; "
              f"peak {bufs + d / n2:.3f}")
    # time 'O' once: it is CuPy's route with U written over the copy
    work = ca.empty(max(d, 1) // 8 + 1)
    hw = ctypes.create_string_buffer(max(hb, 1))
    run_timed("Xgesvd O,S", lambda: lib.cusolverDnXgesvd(
        h, params, ctypes.c_char(b"O"), ctypes.c_char(b"S"), i64(n), i64(n), R_64F, p(w), i64(n), R_64F, p(s), R_64F,
        p(u), i64(n), R_64F, p(vt), i64(n), R_64F, p(work), sz(d), hw, sz(hb), p(info)))
    print(f"    info {int(info.get()[0])}, error {err(w, s, vt):.3g}")
    del work
    w = ca.asfortranarray(a.copy())

    # gesvdj, econ
    gj = ctypes.c_void_p()
    lib.cusolverDnCreateGesvdjInfo(ctypes.byref(gj))
    lw = ctypes.c_int()
    st = lib.cusolverDnDgesvdj_bufferSize(h, VECTOR, 1, n, n, p(w), n, p(s), p(u), n, p(v), n, ctypes.byref(lw), gj)
    print(f"gesvdj: status {st}, workspace {lw.value * 8 / n2:.3f} n^2; peak with A, U, V {3 + lw.value * 8 / n2:.3f}")
    if n <= 4096:
        work = ca.empty(max(lw.value, 1))
        run_timed("gesvdj", lambda: lib.cusolverDnDgesvdj(h, VECTOR, 1, n, n, p(w), n, p(s), p(u), n, p(v), n,
                                                          p(work), lw, p(info), gj))
        print(f"    info {int(info.get()[0])}, error {err(u, s, v.T):.3g}")
        del work
    w = ca.asfortranarray(a.copy())

    hm = ca.empty((n, n), order="F")
    st2, d2, hb2 = ws(lib.cusolverDnXsyevd_bufferSize, h, params, VECTOR, LOWER, i64(n), R_64F, p(hm), i64(n), R_64F,
                      p(s), R_64F)
    print(f"Xsyevd (vectors): status {st2}, device workspace {d2 / n2:.3f} n^2, host {hb2} B")
    # the svd itself (the polar route of Note [newton polar svd] for n >= 1024), its pool peak and time
    pool = ca.get_default_memory_pool()
    for rep in range(2):
        sync()
        pool.free_all_blocks()
        before = pool.total_bytes()
        u2, s2, vh2 = run_timed(f"cuarray.linalg.svd run {rep}", lambda: ca.linalg.svd(a))
        print(f"    peak extra {(pool.total_bytes() - before) / n2:.3f} n^2, error {err(u2, s2, vh2):.3g}")
        del u2, s2, vh2

    # Xpolar + Xsyevd + matmul
    if not hasattr(lib, "cusolverDnXpolar_bufferSize"):
        print("Xpolar: not in this cuSOLVER")
        return
    st, d, hb = ws(lib.cusolverDnXpolar_bufferSize, h, params, LOWER, i64(n), i64(n), R_64F, p(w), i64(n), R_64F,
                   p(hm), i64(n), R_64F)
    print(f"Xpolar: status {st}, device workspace {d / n2:.3f} n^2, host {hb} B; "
          f"Xsyevd: status {st2}, {d2 / n2:.3f} n^2; peak max({2 + d / n2:.3f}, {2 + d2 / n2:.3f}, 3)")
    scal = ca.zeros(3)
    for rep in range(2):
        work = ca.empty(max(d, d2) // 8 + 1)
        hw = ctypes.create_string_buffer(max(hb, hb2, 1))
        base = scal.data.ptr

        def body():
            r1 = lib.cusolverDnXpolar(h, params, LOWER, i64(n), i64(n), R_64F, p(w), i64(n), R_64F, p(hm), i64(n),
                                      R_64F, p(work), sz(d), hw, sz(hb), ctypes.c_void_p(base),
                                      ctypes.c_void_p(base + 8), ctypes.c_void_p(base + 16), p(info))
            r2 = lib.cusolverDnXsyevd(h, params, VECTOR, LOWER, i64(n), R_64F, p(hm), i64(n), R_64F, p(s), R_64F,
                                      p(work), sz(d2), hw, sz(hb2), p(info))
            return r1, r2, w @ hm

        r1, r2, uu = run_timed(f"Xpolar + Xsyevd + matmul run {rep}", body)
        res = scal.get()
        print(f"    status {r1} {r2}, info {int(info.get()[0])}, residual {res[0]:.3g}, |A|_F {res[1]:.6g}, "
              f"rcond {res[2]:.3g}, error {err(uu, s, hm.T):.3g}")
        w = ca.asfortranarray(a.copy())
        del work


if __name__ == "__main__":
    main()
