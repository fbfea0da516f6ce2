"""svd through both of its routes for the economy-size decomposition: the polar route of Note [polar svd]
(src/linalg/svd_polar.cpp: QDWH, then Xsyevd) and cuSOLVER's Xgesvdp (forced with _linalg_polar_svd_min_n), each
against NumPy: reconstruction, orthonormal U and V, the singular values, for every dtype and layout, tall and wide,
stacks, and the matrices that go on to QR iteration (ill-conditioned, rank-deficient, zero). Also the polar route's
peak pool memory, which must stay at CuPy's (QR iteration's) or below."""
import numpy
import pytest

import cuarray as cp
from _arrays import small_random as rand
from cuarray import _core

gpu = pytest.mark.gpu
DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


@pytest.fixture(params=["polar", "gesvdp"])
def route(request):
    old = _core._linalg_polar_svd_min_n(0 if request.param == "polar" else 1 << 40)
    yield request.param
    _core._linalg_polar_svd_min_n(old)


def check(a, res, full=False):
    u, s, vh = (cp.asnumpy(x) for x in res)
    eps = numpy.finfo(a.dtype).eps
    m, n = a.shape[-2:]
    k = min(m, n)
    tol = 30 * max(m, n) * eps
    assert u.shape == a.shape[:-2] + (m, m if full else k) and vh.shape == a.shape[:-2] + (n if full else k, n)
    assert s.shape == a.shape[:-2] + (k,)
    assert u.dtype == a.dtype and vh.dtype == a.dtype and s.dtype == numpy.finfo(a.dtype).dtype
    want = numpy.linalg.svd(a, compute_uv=False)
    smax = want.max() if want.size else 1.0
    numpy.testing.assert_allclose(s, want, rtol=tol, atol=tol * smax)
    assert numpy.all(numpy.diff(s, axis=-1) <= 0)
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    assert numpy.linalg.norm(rec - a) <= tol * max(numpy.linalg.norm(a), 1e-300)
    ct = lambda x: numpy.swapaxes(x, -1, -2).conj()  # noqa: E731
    assert numpy.abs(ct(u) @ u - numpy.eye(u.shape[-1])).max() < tol
    assert numpy.abs(vh @ ct(vh) - numpy.eye(vh.shape[-2])).max() < tol


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(96, 96), (160, 70), (70, 160), (3, 50, 50), (2, 1, 40, 33), (1, 1), (2, 1)])
def test_matches_numpy(route, dtype, shape):
    a = rand(shape, dtype, seed=sum(shape))
    check(a, cp.linalg.svd(cp.asarray(a), full_matrices=False))


@gpu
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
def test_layouts(route, dtype):
    base = rand((130, 90), dtype, seed=3)
    g = cp.asarray(base)
    for host, dev in [(base.T, g.T), (base[::-2], g[::-2]), (base[:, ::3], g[:, ::3]),
                      (numpy.asfortranarray(base), cp.asfortranarray(g))]:
        check(numpy.ascontiguousarray(host), cp.linalg.svd(dev, full_matrices=False))


@gpu
def test_integer_input_is_float64(route):
    a = rand((40, 30), numpy.int64, seed=4)
    res = cp.linalg.svd(cp.asarray(a), full_matrices=False)
    check(a.astype(numpy.float64), res)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_matrices_that_need_qr_iteration(route, dtype):
    """Ill-conditioned, rank-deficient and zero members (Note [gesvdp fallback]) beside well-conditioned ones."""
    rng = numpy.random.default_rng(5)
    n = 60
    well = rand((n, n), dtype, seed=6)
    q1, _ = numpy.linalg.qr(rand((n, n), dtype, seed=7))
    q2, _ = numpy.linalg.qr(rand((n, n), dtype, seed=8))
    graded = ((q1 * numpy.geomspace(1.0, 1e-12, n)) @ q2).astype(dtype)
    low_rank = (rand((n, 3), dtype, seed=9) @ rand((3, n), dtype, seed=10)).astype(dtype)
    zero = numpy.zeros((n, n), dtype)
    stack = numpy.stack([well, graded, low_rank, zero, well + rng.standard_normal((n, n)).astype(dtype)])
    u, s, vh = (cp.asnumpy(x) for x in cp.linalg.svd(cp.asarray(stack), full_matrices=False))
    eps = numpy.finfo(dtype).eps
    for i, a in enumerate(stack):
        want = numpy.linalg.svd(a, compute_uv=False)
        tol = 30 * n * eps
        numpy.testing.assert_allclose(s[i], want, rtol=tol, atol=tol * max(want.max(), 1e-30))
        rec = (u[i] * s[i]) @ vh[i]
        assert numpy.linalg.norm(rec - a) <= tol * max(numpy.linalg.norm(a), 1e-30)
        assert numpy.abs(u[i].conj().T @ u[i] - numpy.eye(n)).max() < tol
        assert numpy.abs(vh[i] @ vh[i].conj().T - numpy.eye(n)).max() < tol


@gpu
def test_full_matrices_and_values_only_unchanged():
    a = rand((50, 20), numpy.float64, seed=11)
    check(a, cp.linalg.svd(cp.asarray(a), full_matrices=True), full=True)
    numpy.testing.assert_allclose(cp.asnumpy(cp.linalg.svd(cp.asarray(a), compute_uv=False)),
                                  numpy.linalg.svd(a, compute_uv=False), rtol=1e-12)


@gpu
def test_the_routes_agree():
    a = rand((200, 150), numpy.complex128, seed=12)
    g = cp.asarray(a)
    old = _core._linalg_polar_svd_min_n(0)
    try:
        s1 = cp.asnumpy(cp.linalg.svd(g, compute_uv=False))
        u, s2, vh = cp.linalg.svd(g, full_matrices=False)
    finally:
        _core._linalg_polar_svd_min_n(old)
    numpy.testing.assert_allclose(cp.asnumpy(s2), s1, rtol=1e-12)


@gpu
def test_polar_route_peak_memory_at_most_qr_iterations():
    """A 4096 x 4096 float64 svd holds at most 680,167,936 bytes (5.07 n^2) of pool memory beyond what was there:
    CuPy 14.2's peak for the same call (QR iteration, benchmarks/RESULTS.md)."""
    n = 4096
    g = cp.asarray(rand((n, n), numpy.float64, seed=13))
    pool = cp.get_default_memory_pool()
    old = _core._linalg_polar_svd_min_n(0)
    try:
        cp.linalg.svd(g, full_matrices=False)  # loads the libraries and their handles
        cp.cuda.Device().synchronize()
        pool.free_all_blocks()
        before = pool.total_bytes()
        u, s, vh = cp.linalg.svd(g, full_matrices=False)
        cp.cuda.Device().synchronize()
        peak = pool.total_bytes() - before
    finally:
        _core._linalg_polar_svd_min_n(old)
    assert peak <= 680_167_936, peak / g.nbytes
    err = float(cp.linalg.norm((u * s) @ vh - g) / cp.linalg.norm(g))
    assert err < 1e-13
