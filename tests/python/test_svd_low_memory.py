"""svd where the polar routes' memory does not fit (Note [svd low memory] in src/linalg/decomp_svd.cpp): under a
pool limit below what the route it would take needs (the polar route of Note [polar svd], about 5.0 matrices for a
square one; Xgesvdp's 8.2 for small orders), the call takes QR iteration's low-memory route (about 5.1, less for
small orders) instead of raising, and agrees with NumPy; below every route (the working copy and V alone are two
matrices) it raises MemoryError."""
import numpy
import pytest

import cuarray as cp
from _arrays import small_random
from cuarray import _core

gpu = pytest.mark.gpu


def _matrix(shape, dtype):
    return small_random(shape, dtype, seed=2)  # normal values, both parts for complex


def _under_limit(g, units, fn):
    """fn() with its allocations in a fresh pool limited to `units` matrices of g's size (one per batch entry). A
    fresh pool: in the default one, free room left in segments that other tests' arrays keep would take
    allocations past the limit (the limit caps the pool's segments, not its use)."""
    pool = cp.cuda.MemoryPool()
    pool.set_limit(size=int(units * g.nbytes))
    with cp.cuda.using_allocator(pool.malloc):
        return fn()


def _check(a, u, s, vh):
    u, s, vh = cp.asnumpy(u), cp.asnumpy(s), cp.asnumpy(vh)
    eps = numpy.finfo(a.dtype).eps
    k = min(a.shape[-2:])
    tol = 50 * max(a.shape[-2:]) * eps
    rec = (u * s[..., None, :]) @ vh
    assert numpy.linalg.norm(rec - a) / numpy.linalg.norm(a) < tol
    eye = numpy.eye(k)
    assert numpy.abs(numpy.swapaxes(u, -1, -2).conj() @ u - eye).max() < tol
    assert numpy.abs(vh @ numpy.swapaxes(vh, -1, -2).conj() - eye).max() < tol
    numpy.testing.assert_allclose(s, numpy.linalg.svd(a, compute_uv=False), rtol=tol, atol=tol * s.max())


@gpu
@pytest.mark.parametrize("route", ["polar", "gesvdp"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_square_matrix_under_a_limit(dtype, route):
    """Six matrices: the polar route fits (about 5); Xgesvdp's 8.2 does not, and the call takes QR iteration."""
    a = _matrix((1024, 1024), dtype)
    g = cp.asarray(a)
    old = _core._linalg_polar_svd_min_n(0 if route == "polar" else 1 << 40)
    try:
        u, s, vh = _under_limit(g, 6.0, lambda: cp.linalg.svd(g))
    finally:
        _core._linalg_polar_svd_min_n(old)
    assert u.shape == (1024, 1024) and vh.shape == (1024, 1024) and u.dtype == a.dtype
    _check(a, u, s, vh)
    s2 = _under_limit(g, 6.0, lambda: cp.linalg.svd(g, compute_uv=False))
    numpy.testing.assert_allclose(cp.asnumpy(s2), cp.asnumpy(s), rtol=1e-4 if dtype == "float32" else 1e-10)
    # With no limit, the same decomposition to rounding.
    numpy.testing.assert_allclose(cp.asnumpy(cp.linalg.svd(g, compute_uv=False)), cp.asnumpy(s),
                                  rtol=1e-4 if dtype == "float32" else 1e-10)


@gpu
def test_stack_of_square_matrices_under_a_limit():
    a = _matrix((4, 300, 300), "float64")
    g = cp.asarray(a)
    # Polar: copies, U and V of the whole stack (3 x 4 matrices) and one arena (about 5 at this order); QR
    # iteration: the copies, V and one workspace (4 + 4 + 4.6 at this order).
    u, s, vh = _under_limit(g, 3.5, lambda: cp.linalg.svd(g, full_matrices=False))
    assert u.shape == (4, 300, 300) and s.shape == (4, 300)
    _check(a, u, s, vh)


@gpu
def test_below_both_routes_raises_memory_error():
    g = cp.asarray(_matrix((1024, 1024), "float64"))
    with pytest.raises(MemoryError):
        _under_limit(g, 1.5, lambda: cp.linalg.svd(g))
    # The pool works on afterwards.
    u, s, vh = cp.linalg.svd(g)
    assert float(cp.linalg.norm((u * s) @ vh - g) / cp.linalg.norm(g)) < 1e-12
