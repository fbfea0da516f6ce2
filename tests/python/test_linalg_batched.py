"""Stacks of small matrices through both routes of Note [batched small LU] (src/linalg/decomp_common.hpp): one
batched cuBLAS/cuSOLVER call for the whole stack, and one call per matrix (forced with _linalg_batched_max_n(0)).
Each is compared with NumPy and SciPy: inv, solve, det, slogdet, cholesky, and scipy.linalg's lu_factor, lu_solve,
cho_solve and solve_triangular, with pivoting, singular and NaN members, broadcasting and every dtype.
"""
import warnings

import numpy
import pytest

import cuarray as cp
from _arrays import small_random as rand
from cuarray import _core

gpu = pytest.mark.gpu
LinAlgError = numpy.linalg.LinAlgError
DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


@pytest.fixture(params=["batched", "loop"])
def route(request):
    old = _core._linalg_batched_max_n(1024 if request.param == "batched" else 0)
    yield request.param
    _core._linalg_batched_max_n(old)


def pivoted(shape, dtype, seed=0):
    """Diagonally dominant matrices with their rows shuffled, a different permutation per matrix."""
    n = shape[-1]
    x = rand(shape, dtype, seed).reshape(-1, n, n)
    r = numpy.random.default_rng(seed + 1)
    for m in x:
        m[numpy.arange(n), r.permutation(n)] += 2 * n
    return x.reshape(shape)


def tol(dtype):
    return 1e-4 if numpy.dtype(dtype).char in 'fF' else 1e-11


def close(got, want, dtype):
    assert isinstance(got, cp.ndarray)
    g = got.get()
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    numpy.testing.assert_allclose(g, want, rtol=tol(dtype) * 10, atol=tol(dtype) * 10)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('shape', [(64, 3, 3), (5, 1, 1), (2, 3, 17, 17), (300, 2, 2)])
def test_inv_det_slogdet_stacks(route, dtype, shape):
    a = pivoted(shape, dtype)
    close(cp.linalg.inv(cp.asarray(a)), numpy.linalg.inv(a), dtype)
    s, lg = cp.linalg.slogdet(cp.asarray(a))
    ws, wl = numpy.linalg.slogdet(a)
    close(s, ws, dtype)
    close(lg, wl, dtype)
    numpy.testing.assert_allclose(cp.linalg.det(cp.asarray(a)).get(), numpy.linalg.det(a), rtol=tol(dtype) * 100)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('ashape,bshape', [((40, 5, 5), (5,)), ((40, 5, 5), (40, 5, 1)), ((40, 5, 5), (40, 5, 3)),
                                           ((40, 5, 5), (40, 5, 12)), ((3, 1, 6, 6), (4, 6, 9)),
                                           ((7, 6, 6), (6, 2))])
def test_solve_stacks(route, dtype, ashape, bshape):
    a = pivoted(ashape, dtype, 3)
    b = rand(bshape, dtype, 4)
    close(cp.linalg.solve(cp.asarray(a), cp.asarray(b)), numpy.linalg.solve(a, b), dtype)


@gpu
def test_singular_and_nan_members(route):
    a = pivoted((6, 4, 4), numpy.float64, 5)
    a[3] = 0
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.inv(cp.asarray(a))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.solve(cp.asarray(a), cp.ones((6, 4, 2)))
    d = cp.linalg.det(cp.asarray(a)).get()
    assert d[3] == 0
    numpy.testing.assert_allclose(numpy.delete(d, 3), numpy.delete(numpy.linalg.det(a), 3), rtol=1e-10)
    a[3] = numpy.nan
    got, want = cp.linalg.inv(cp.asarray(a)).get(), numpy.linalg.inv(a)
    assert numpy.isnan(got[3]).all() and numpy.isnan(want[3]).all()
    numpy.testing.assert_allclose(numpy.delete(got, 3, 0), numpy.delete(want, 3, 0), rtol=1e-10)
    got = cp.linalg.solve(cp.asarray(a), cp.ones((6, 4, 9))).get()
    assert numpy.isnan(got[3]).all()


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_cholesky_stacks(route, dtype):
    x = rand((30, 5, 5), dtype, 6)
    h = x @ numpy.conj(numpy.swapaxes(x, -1, -2)) + 5 * numpy.eye(5)
    close(cp.linalg.cholesky(cp.asarray(h)), numpy.linalg.cholesky(h), dtype)
    h[7] = -numpy.eye(5)
    with pytest.raises(LinAlgError):
        cp.linalg.cholesky(cp.asarray(h))


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', [1, 3, 10])
def test_scipy_solvers_stacks(route, dtype, k):
    sl = pytest.importorskip('scipy.linalg')
    import cuarray.scipy.linalg as L
    n = 6
    a = pivoted((9, n, n), dtype, 7)
    b = rand((9, n, k), dtype, 8)
    lu_, piv = L.lu_factor(cp.asarray(a))
    facs = [sl.lu_factor(m) for m in a]
    close(lu_, numpy.stack([f[0] for f in facs]), dtype)
    assert (piv.get() == numpy.stack([f[1] for f in facs])).all()
    for trans in (0, 1, 2):
        want = numpy.stack([sl.lu_solve(f, v, trans=trans) for f, v in zip(facs, b)])
        close(L.lu_solve((lu_, piv), cp.asarray(b), trans=trans), want, dtype)
    x = rand((9, n, n), dtype, 9)
    h = x @ numpy.conj(numpy.swapaxes(x, -1, -2)) + n * numpy.eye(n)
    for lower in (False, True):
        want = numpy.stack([sl.cho_solve(sl.cho_factor(m, lower=lower), v) for m, v in zip(h, b)])
        close(L.cho_solve(L.cho_factor(cp.asarray(h), lower=lower), cp.asarray(b)), want, dtype)
    for lower in (False, True):
        for trans in (0, 1, 2):
            for t in (a, numpy.swapaxes(a, -1, -2)):
                want = numpy.stack([sl.solve_triangular(m, v, lower=lower, trans=trans) for m, v in zip(t, b)])
                got = L.solve_triangular(cp.asarray(t) if t is a else cp.swapaxes(cp.asarray(a), -1, -2),
                                         cp.asarray(b), lower=lower, trans=trans)
                close(got, want, dtype)


@gpu
def test_routes_agree_on_a_large_stack():
    a = pivoted((2000, 8, 8), numpy.float64, 10)
    b = rand((2000, 8, 2), numpy.float64, 11)
    old = _core._linalg_batched_max_n(1024)
    try:
        batched = (cp.linalg.inv(cp.asarray(a)).get(), cp.linalg.solve(cp.asarray(a), cp.asarray(b)).get())
        _core._linalg_batched_max_n(0)
        loop = (cp.linalg.inv(cp.asarray(a)).get(), cp.linalg.solve(cp.asarray(a), cp.asarray(b)).get())
    finally:
        _core._linalg_batched_max_n(old)
    for x, y in zip(batched, loop):
        numpy.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-14)
    numpy.testing.assert_allclose(batched[0], numpy.linalg.inv(a), rtol=1e-11, atol=1e-13)


# Note [info read during the solve] (src/linalg/decomp_common.hpp): past 64 matrices the early read copies a count
# of the flags, and the flags themselves only where it is not zero; a failed solve must free the thread's slot for
# the next; with synchronisation disallowed the read is not started early, and the call raises as before.
@gpu
def test_info_read_of_long_stacks(route):
    a = pivoted((200, 6, 6), numpy.float64, 12)
    b = rand((200, 6, 3), numpy.float64, 13)
    close(cp.linalg.inv(cp.asarray(a)), numpy.linalg.inv(a), numpy.float64)
    a[150] = 0
    for _ in range(2):
        with pytest.raises(LinAlgError, match="Singular matrix"):
            cp.linalg.inv(cp.asarray(a))
        with pytest.raises(LinAlgError, match="Singular matrix"):
            cp.linalg.solve(cp.asarray(a), cp.asarray(b))
    a[150] = numpy.nan
    got = cp.linalg.solve(cp.asarray(a), cp.asarray(b)).get()
    assert numpy.isnan(got[150]).all()
    numpy.testing.assert_allclose(numpy.delete(got, 150, 0), numpy.delete(numpy.linalg.solve(a, b), 150, 0),
                                  rtol=1e-10)
    ga = cp.asarray(a[:100])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cp.allow_synchronize(False):
            with pytest.raises(cp.DeviceSynchronized):
                cp.linalg.inv(ga)
    close(cp.linalg.inv(cp.asarray(a[:100])), numpy.linalg.inv(a[:100]), numpy.float64)
