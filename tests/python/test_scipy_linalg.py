"""cuarray.scipy.linalg against scipy.linalg: factorisations, solvers, expm, special matrices, errors."""
import warnings

import numpy
import pytest

import cuarray
import cuarray.scipy.linalg as L

sl = pytest.importorskip('scipy.linalg')

gpu = pytest.mark.gpu
DTYPES = [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]


def rand(shape, dtype, seed=0):
    r = numpy.random.default_rng(seed)
    x = r.standard_normal(shape)
    if numpy.dtype(dtype).kind == 'c':
        x = x + 1j * r.standard_normal(shape)
    return x.astype(dtype)


def spd(n, dtype, batch=()):
    a = rand(batch + (n, n), dtype)
    return (a @ numpy.conj(numpy.swapaxes(a, -1, -2)) + n * numpy.eye(n)).astype(dtype)


def tol(dtype):
    return 2e-3 if numpy.dtype(dtype).char in 'fF' else 1e-9


def check(got, want, dtype=numpy.float64):
    assert isinstance(got, cuarray.ndarray)
    got = got.get()
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    numpy.testing.assert_allclose(got, want, rtol=tol(dtype), atol=tol(dtype))


# ---- no GPU needed -------------------------------------------------------------------------------------------

CUPY_NAMES = ['bandwidth', 'lu', 'lu_factor', 'lu_solve', 'expm', 'khatri_rao', 'solve_triangular', 'block_diag',
              'circulant', 'companion', 'convolution_matrix', 'dft', 'fiedler', 'fiedler_companion', 'hadamard',
              'hankel', 'helmert', 'hilbert', 'kron', 'leslie', 'toeplitz', 'tri', 'tril', 'triu']
SCIPY_NAMES = ['cho_factor', 'cho_solve', 'cholesky', 'qr', 'svd', 'eigh', 'pinvh', 'invpascal', 'pascal', 'solve',
               'inv', 'det', 'norm', 'lstsq', 'pinv', 'eigvalsh', 'svdvals', 'invhilbert', 'LinAlgError',
               'LinAlgWarning']


def test_names_cover_cupy_and_issue_list():
    missing = [n for n in CUPY_NAMES + SCIPY_NAMES if not hasattr(L, n)]
    assert missing == []
    assert L.LinAlgError is numpy.linalg.LinAlgError
    assert 'linalg' in cuarray.scipy._SUBMODULES


def test_signatures_match_scipy():
    import inspect
    for name in SCIPY_NAMES + CUPY_NAMES:
        if name in ('tri', 'tril', 'triu', 'kron', 'LinAlgError', 'LinAlgWarning'):
            continue
        mine = list(inspect.signature(getattr(L, name)).parameters)
        theirs = list(inspect.signature(getattr(sl, name)).parameters)
        assert mine == theirs, name


@pytest.mark.parametrize('call, exc', [
    (lambda: L.qr(numpy.eye(2), mode='bad'), ValueError),
    (lambda: L.svd(numpy.eye(2), lapack_driver='bad'), ValueError),
    (lambda: L.eigh(numpy.eye(2), type=4), ValueError),
    (lambda: L.eigh(numpy.eye(2), driver='bad'), ValueError),
    (lambda: L.eigh(numpy.eye(2), subset_by_index=[0, 1], subset_by_value=[0, 1]), ValueError),
    (lambda: L.hadamard(3), ValueError),
    (lambda: L.pascal(3, kind='bad'), ValueError),
    (lambda: L.invpascal(3, kind='bad'), ValueError),
    (lambda: L.pascal(35), ValueError),
    (lambda: L.invhilbert(15, exact=True), ValueError),
    (lambda: L.dft(3, scale='bad'), ValueError),
    (lambda: L.convolution_matrix([1, 2], 0), ValueError),
    (lambda: L.solve(numpy.eye(2), numpy.ones(2), assume_a='bad'), ValueError),
    (lambda: L.lstsq(numpy.eye(2), numpy.ones(2), lapack_driver='bad'), ValueError),
])
def test_argument_errors_before_device_use(call, exc):
    with pytest.raises(exc):
        call()


def test_lapack_dtype_rules_follow_scipy():
    from cuarray.scipy.linalg._util import lapack_dtype
    for dt in [numpy.bool_, numpy.int8, numpy.int16, numpy.uint8, numpy.int32, numpy.int64, numpy.uint64,
               numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]:
        assert lapack_dtype(dt) == sl.lu_factor(numpy.eye(2, dtype=dt))[0].dtype, dt
    with pytest.raises(TypeError):
        lapack_dtype(numpy.longdouble)


# ---- GPU -----------------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('shape', [(4, 4), (5, 3), (3, 5), (1, 1), (0, 0), (2, 3, 4, 4), (2, 1, 1), (3, 0)])
def test_lu_and_lu_factor(dtype, shape):
    a = rand(shape, dtype)
    p, l, u = L.lu(cuarray.asarray(a))
    wp, wl, wu = sl.lu(a)
    check(p, wp, dtype), check(l, wl, dtype), check(u, wu, dtype)
    pi, l2, u2 = L.lu(cuarray.asarray(a), p_indices=True)
    wpi = sl.lu(a, p_indices=True)[0]
    assert pi.shape == wpi.shape and pi.dtype == wpi.dtype and (pi.get() == wpi).all()
    pl, u3 = L.lu(cuarray.asarray(a), permute_l=True)
    check(pl, sl.lu(a, permute_l=True)[0], dtype)
    if shape[-1] == shape[-2]:
        lu_, piv = L.lu_factor(cuarray.asarray(a))
        wlu, wpiv = sl.lu_factor(a)
        check(lu_, wlu, dtype)
        assert piv.dtype == wpiv.dtype and (piv.get() == wpiv).all()


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('trans', [0, 1, 2])
def test_lu_solve(dtype, trans):
    a = rand((5, 5), dtype) + 5 * numpy.eye(5, dtype=dtype)
    for b in [rand((5,), dtype, 1), rand((5, 3), dtype, 2), numpy.asfortranarray(rand((5, 2), dtype, 3))]:
        fac = L.lu_factor(cuarray.asarray(a))
        check(L.lu_solve(fac, cuarray.asarray(b), trans=trans), sl.lu_solve(sl.lu_factor(a), b, trans=trans), dtype)


@gpu
def test_lu_factor_batched_and_singular_warning():
    a = rand((3, 4, 4), numpy.float64)
    b = rand((3, 4, 2), numpy.float64, 1)
    check(L.lu_solve(L.lu_factor(cuarray.asarray(a)), cuarray.asarray(b)), sl.lu_solve(sl.lu_factor(a), b))
    with pytest.warns(L.LinAlgWarning):
        L.lu_factor(cuarray.zeros((3, 3)))
    with pytest.raises(ValueError):
        L.lu_factor(cuarray.asarray([[1.0, numpy.nan], [0.0, 1.0]]))
    lu_, piv = L.lu_factor(cuarray.asarray([[1.0, numpy.nan], [0.0, 1.0]]), check_finite=False)
    assert piv.shape == (2,)


@gpu
@pytest.mark.parametrize('dtype', DTYPES + [numpy.int64])
@pytest.mark.parametrize('lower', [False, True])
@pytest.mark.parametrize('trans', [0, 'T', 'C'])
@pytest.mark.parametrize('unit', [False, True])
def test_solve_triangular(dtype, lower, trans, unit):
    a = (rand((4, 4), numpy.float64) * 3).astype(dtype) + (4 * numpy.eye(4)).astype(dtype)
    b = (rand((4, 3), numpy.float64, 1) * 3).astype(dtype)
    a_t = a.T  # non-contiguous input
    got = L.solve_triangular(cuarray.asarray(a_t), cuarray.asarray(b), trans=trans, lower=lower, unit_diagonal=unit)
    check(got, sl.solve_triangular(a_t, b, trans=trans, lower=lower, unit_diagonal=unit), dtype)
    check(L.solve_triangular(cuarray.asarray(a), cuarray.asarray(b[:, 0]), lower=lower),
          sl.solve_triangular(a, b[:, 0], lower=lower), dtype)


@gpu
def test_solve_triangular_singular_and_batched():
    with pytest.raises(numpy.linalg.LinAlgError):
        L.solve_triangular(cuarray.zeros((2, 2)), cuarray.ones(2))
    a = numpy.triu(rand((2, 3, 3), numpy.float64)) + 3 * numpy.eye(3)
    b = rand((2, 3, 2), numpy.float64, 1)
    check(L.solve_triangular(cuarray.asarray(a), cuarray.asarray(b)), sl.solve_triangular(a, b))


def pivoted(n, dtype, batch=(), seed=0):
    """Well-conditioned matrices whose LU factorisation swaps rows: diagonally dominant ones with shuffled rows."""
    a = rand(batch + (n, n), dtype, seed) + n * numpy.eye(n, dtype=dtype)
    r = numpy.random.default_rng(seed + 100)
    return numpy.stack([m[r.permutation(n)] for m in a.reshape((-1, n, n))]).reshape(a.shape)


# Both sides of the right-side switch (Note [LAPACK solvers by side], src/linalg/lapack.cpp: from 8 right-hand
# sides on), for every trans, triangle, layout of a and b, and batched with a permutation per matrix.
SIDES = [1, 7, 8, 21]


def set_solve_route(route):
    """Sends trsm, potrs and getrs to one route; returns what restores the previous ones. 'one-kernel' is Note
    [one-kernel triangular solves] (src/linalg/lapack.cpp, 2 to 128 right-hand sides by default); the cuBLAS
    routes are Note [unit-diagonal solves]'s two sides: 'unit-scaled' divides by the diagonal first at every
    order, 'unscaled' at none."""
    core = cuarray._core
    prev_k = core._linalg_tri_kernel_max_k(2 ** 62 if route == 'one-kernel' else 0)
    prev_n = core._linalg_unit_solve_min_n(1 if route == 'unit-scaled' else 2 ** 62)
    return lambda: (core._linalg_tri_kernel_max_k(prev_k), core._linalg_unit_solve_min_n(prev_n))


def check_triangular_forms(layouts, b, dtype):
    """solve_triangular against SciPy for each layout (host a, and its device view or None for a copy), both
    triangles, trans 0/1/2 and both diagonals."""
    for a, da in layouts:
        da = cuarray.asarray(a) if da is None else da
        for lower in (False, True):
            for trans in (0, 1, 2):
                for unit in (False, True):
                    got = L.solve_triangular(da, cuarray.asarray(b), trans=trans, lower=lower, unit_diagonal=unit)
                    check(got, sl.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit), dtype)


@pytest.fixture(params=['one-kernel', 'unscaled', 'unit-scaled'])
def unit_route(request):
    """Every route of the triangular solves (set_solve_route)."""
    restore = set_solve_route(request.param)
    yield request.param
    restore()


@pytest.fixture(params=['one-kernel', 'unscaled'])
def kernel_route(request):
    """The one-kernel solve and cuBLAS's (getrs has no diagonal to scale)."""
    restore = set_solve_route(request.param)
    yield request.param
    restore()


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', SIDES)
def test_lu_solve_both_sides(dtype, k, kernel_route):
    n = 37
    a = pivoted(n, dtype)
    b = rand((n, k), dtype, 1)
    fac, wfac = L.lu_factor(cuarray.asarray(a)), sl.lu_factor(a)
    assert (wfac[1] != numpy.arange(n)).any()
    for trans in (0, 1, 2):
        for bb, db in ((b, None), (numpy.asfortranarray(b), None), (b[::-1, ::-1], cuarray.asarray(b)[::-1, ::-1])):
            db = cuarray.asarray(bb) if db is None else db
            check(L.lu_solve(fac, db, trans=trans), sl.lu_solve(wfac, bb, trans=trans), dtype)
    ab = pivoted(n, dtype, (3,), 2)
    bb = rand((3, n, k), dtype, 3)
    for trans in (0, 2):
        want = numpy.stack([sl.lu_solve(sl.lu_factor(m), v, trans=trans) for m, v in zip(ab, bb)])
        check(L.lu_solve(L.lu_factor(cuarray.asarray(ab)), cuarray.asarray(bb), trans=trans), want, dtype)
        # One b for the whole stack.
        want = numpy.stack([sl.lu_solve(sl.lu_factor(m), b, trans=trans) for m in ab])
        check(L.lu_solve(L.lu_factor(cuarray.asarray(ab)), cuarray.asarray(b), trans=trans), want, dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', SIDES)
def test_cho_solve_both_sides(dtype, k, unit_route):
    n = 29
    s = spd(n, dtype)
    b = rand((n, k), dtype, 1)
    for lower in (False, True):
        fac = L.cho_factor(cuarray.asarray(s), lower=lower)
        for bb, db in ((b, cuarray.asarray(b)), (numpy.asfortranarray(b), cuarray.asfortranarray(b)),
                       (b[::-1], cuarray.asarray(b)[::-1])):
            check(L.cho_solve(fac, db), sl.cho_solve(sl.cho_factor(s, lower=lower), bb), dtype)
    sb = spd(n, dtype, (2,))
    bb = rand((2, n, k), dtype, 2)
    want = numpy.stack([sl.cho_solve(sl.cho_factor(m, lower=True), v) for m, v in zip(sb, bb)])
    check(L.cho_solve(L.cho_factor(cuarray.asarray(sb), lower=True), cuarray.asarray(bb)), want, dtype)
    check(L.solve(cuarray.asarray(s), cuarray.asarray(b), assume_a='pos'), sl.solve(s, b, assume_a='pos'), dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', SIDES)
def test_solve_triangular_both_sides(dtype, k, unit_route):
    n = 23
    big = rand((2 * n, 2 * n), dtype) + 2 * n * numpy.eye(2 * n, dtype=dtype)
    b = rand((n, k), dtype, 1)
    dbig = cuarray.asarray(big)
    # C order (read as T^T), Fortran order (T's column-major image), and device views strided, reversed and
    # transposed-strided (copied).
    layouts = [(big[:n, :n].copy(), None), (numpy.asfortranarray(big[:n, :n]), None),
               (big[::2, ::2], dbig[::2, ::2]), (big[n - 1::-1, n - 1::-1], dbig[n - 1::-1, n - 1::-1]),
               (big[::2, 1::2].T, dbig[::2, 1::2].T)]
    check_triangular_forms(layouts, b, dtype)
    a0 = layouts[0][0]
    check(L.solve_triangular(cuarray.asarray(a0), cuarray.asarray(b)[::-1, ::2], trans='C'),
          sl.solve_triangular(a0, b[::-1, ::2], trans='C'), dtype)
    ab = numpy.stack([big[:n, :n], big[n:, n:]])
    bb = rand((2, n, k), dtype, 2)
    want = numpy.stack([sl.solve_triangular(m, v, lower=True, trans=2) for m, v in zip(ab, bb)])
    check(L.solve_triangular(cuarray.asarray(ab), cuarray.asarray(bb), lower=True, trans=2), want, dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', [16, 160])
def test_unit_scaled_solves_at_the_default_order(dtype, k):
    # n = 300 takes Note [unit-diagonal solves] by default from 129 right-hand sides, and the one-kernel solve up
    # to 128; diagonals far from one, of both signs (and complex phases), so that the scaling shows if it is wrong.
    # a's other triangle holds entries the solve must ignore.
    n = 300
    r = numpy.random.default_rng(5)
    d = (r.uniform(0.5, 4, n) * r.choice([-1, 1], n)).astype(dtype)
    if numpy.dtype(dtype).kind == 'c':
        d = d * numpy.exp(1j * r.uniform(0, 6.28, n)).astype(dtype)
    a = (rand((n, n), dtype) / numpy.sqrt(n)).astype(dtype)
    numpy.fill_diagonal(a, d)
    b = rand((n, k), dtype, 1)
    for da, ha in ((cuarray.asarray(a), a), (cuarray.asfortranarray(a), numpy.asfortranarray(a))):
        for lower in (False, True):
            for trans in (0, 1, 2):
                got = L.solve_triangular(da, cuarray.asarray(b), trans=trans, lower=lower)
                check(got, sl.solve_triangular(ha, b, trans=trans, lower=lower), dtype)
    # Both factor triangles of cho_solve, and its batch of one.
    s = spd(n, dtype)
    for lower in (False, True):
        fac = L.cho_factor(cuarray.asarray(s), lower=lower)
        check(L.cho_solve(fac, cuarray.asarray(b)), sl.cho_solve(sl.cho_factor(s, lower=lower), b), dtype)
        check(L.cho_solve((fac[0][None], lower), cuarray.asarray(b)[None]),
              sl.cho_solve(sl.cho_factor(s, lower=lower), b)[None], dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k', [1, 17, 40])
def test_one_kernel_solves_across_chunks(dtype, k, kernel_route):
    # Note [one-kernel triangular solves]: n = 100 is four chunks of 32 rows, the last one partial; 17 and 40
    # right-hand sides are two and three column tiles, the last partial. Layouts: C and Fortran order, a strided
    # view with both strides reversed, and a transposed view, each read in place; b strided and reversed.
    n = 100
    r = numpy.random.default_rng(7)
    d = (r.uniform(0.5, 4, 2 * n) * r.choice([-1, 1], 2 * n)).astype(dtype)
    big = (rand((2 * n, 2 * n), dtype) / numpy.sqrt(n)).astype(dtype)
    numpy.fill_diagonal(big, d)
    dbig = cuarray.asarray(big)
    b = rand((n, k), dtype, 1)
    layouts = [(big[:n, :n].copy(), None), (numpy.asfortranarray(big[:n, :n]), None),
               (big[2 * n - 1::-2, 2 * n - 1::-2], dbig[2 * n - 1::-2, 2 * n - 1::-2]), (big[n:, :n].T, dbig[n:, :n].T)]
    check_triangular_forms(layouts, b, dtype)
    a0 = layouts[0][0]
    bs = rand((2 * n, 2 * k), dtype, 2)
    for trans in (0, 2):
        check(L.solve_triangular(cuarray.asarray(a0), cuarray.asarray(bs)[::-2, 1::2], trans=trans),
              sl.solve_triangular(a0, bs[::-2, 1::2], trans=trans), dtype)
    # A stack whose matrices take their own tickets' chunks, and one b broadcast over it.
    ab = numpy.stack([big[:n, :n], big[n:, n:], big[n:, :n] + 4 * numpy.eye(n, dtype=dtype)])
    for lower in (False, True):
        want = numpy.stack([sl.solve_triangular(m, b, lower=lower, trans=1) for m in ab])
        check(L.solve_triangular(cuarray.asarray(ab), cuarray.asarray(b), lower=lower, trans=1), want, dtype)
    # cho_solve's two factors and lu_solve's permutation, L and U, in sequence in place.
    s = spd(n, dtype)
    for lower in (False, True):
        fac = L.cho_factor(cuarray.asarray(s), lower=lower)
        check(L.cho_solve(fac, cuarray.asarray(b)), sl.cho_solve(sl.cho_factor(s, lower=lower), b), dtype)
    p = pivoted(n, dtype, seed=3)
    fac, wfac = L.lu_factor(cuarray.asarray(p)), sl.lu_factor(p)
    for trans in (0, 1, 2):
        check(L.lu_solve(fac, cuarray.asarray(b)[::-1], trans=trans), sl.lu_solve(wfac, b[::-1], trans=trans), dtype)


@gpu
def test_one_kernel_solve_large_and_singular():
    # Many chunks waiting on each other (n = 3000 is 94 chunks; a block starts only after every block before its
    # ticket did), 128 right-hand sides at the default limit, and a zero on the diagonal of a long chain.
    n, k = 3000, 128
    r = numpy.random.default_rng(11)
    a = numpy.tril(r.standard_normal((n, n)) / n) + numpy.diag(r.uniform(1, 2, n))
    b = r.standard_normal((n, k))
    da = cuarray.asarray(a)
    for trans in (0, 1):
        check(L.solve_triangular(da, cuarray.asarray(b), lower=True, trans=trans),
              sl.solve_triangular(a, b, lower=True, trans=trans))
    z = a.copy()
    z[2500, 2500] = 0
    with pytest.raises(numpy.linalg.LinAlgError, match='diagonal 2500'):
        L.solve_triangular(cuarray.asarray(z), cuarray.asarray(b), lower=True)


@gpu
@pytest.mark.parametrize('trans', [0, 1, 2])
@pytest.mark.parametrize('lower', [False, True])
def test_unit_scaled_solve_keeps_lapacks_errors(trans, lower):
    n, k = 300, 16
    a = rand((n, n), numpy.complex128) / n + 2 * numpy.eye(n)
    b = rand((n, k), numpy.complex128, 1)
    zero = a.copy()
    zero[n // 2, n // 2] = 0
    with pytest.raises(numpy.linalg.LinAlgError, match='diagonal {}'.format(n // 2)):
        L.solve_triangular(cuarray.asarray(zero), cuarray.asarray(b), trans=trans, lower=lower)
    # SciPy's check_finite reads the whole of a, the triangle the solve ignores too.
    bad = a.copy()
    bad[(0, n - 1) if lower else (n - 1, 0)] = numpy.nan
    with pytest.raises(ValueError, match='infs or NaNs'):
        L.solve_triangular(cuarray.asarray(bad), cuarray.asarray(b), trans=trans, lower=lower)
    got = L.solve_triangular(cuarray.asarray(bad), cuarray.asarray(b), trans=trans, lower=lower, check_finite=False)
    check(got, sl.solve_triangular(bad, b, trans=trans, lower=lower, check_finite=False), numpy.complex128)
    binf = b.copy()
    binf[3, 5] = complex(1, numpy.inf)
    with pytest.raises(ValueError, match='infs or NaNs'):
        L.solve_triangular(cuarray.asarray(a), cuarray.asarray(binf), trans=trans, lower=lower)


@gpu
def test_all_finite_reads_every_array_once():
    from cuarray.scipy.linalg._util import all_finite
    x = cuarray.arange(24, dtype=cuarray.float64).reshape(4, 6)
    assert all_finite() and all_finite(x) and all_finite(x, x[::-1, ::2].T)
    assert all_finite(cuarray.zeros((0, 3)), cuarray.arange(5), cuarray.ones(3, dtype=bool))
    for dt, bad in ((numpy.float16, numpy.inf), (numpy.float32, -numpy.inf), (numpy.float64, numpy.nan),
                    (numpy.complex64, complex(0, numpy.nan)), (numpy.complex128, complex(numpy.inf, 0))):
        h = numpy.ones((70, 1000), dtype=dt)  # past the one-block path of small reductions
        h[69, 999] = bad
        assert not all_finite(x, cuarray.asarray(h))
        assert not all_finite(cuarray.asarray(h)[::-1, ::3])
        assert all_finite(cuarray.asarray(h)[:69])
        assert not all_finite(cuarray.asarray(numpy.asarray(bad, dtype=dt)))
    with pytest.raises(ValueError, match='infs or NaNs'):
        L.lu_factor(cuarray.asarray([[1.0, numpy.nan], [0.0, 1.0]]))


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_solve_and_inv_right_side_pivoted(dtype):
    n = 31
    a = pivoted(n, dtype, seed=4)
    b = rand((n, 12), dtype, 5)
    check(L.solve(cuarray.asarray(a), cuarray.asarray(b)), sl.solve(a, b), dtype)
    want_t = sl.solve(a, b, transposed=True) if a.dtype.kind != 'c' else numpy.linalg.solve(a.T, b)
    check(L.solve(cuarray.asarray(a), cuarray.asarray(b), transposed=True), want_t, dtype)
    check(L.inv(cuarray.asarray(a)), sl.inv(a), dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('lower', [False, True])
def test_cholesky_family(dtype, lower):
    a = spd(4, dtype)
    check(L.cholesky(cuarray.asarray(a), lower=lower), sl.cholesky(a, lower=lower), dtype)
    c, low = L.cho_factor(cuarray.asarray(a), lower=lower)
    assert low == lower
    b = rand((4, 2), dtype, 1)
    check(L.cho_solve((c, low), cuarray.asarray(b)), sl.cho_solve(sl.cho_factor(a, lower=lower), b), dtype)
    with pytest.raises(numpy.linalg.LinAlgError):
        L.cholesky(-cuarray.eye(3, dtype=dtype))
    ab = spd(3, dtype, (2,))
    check(L.cholesky(cuarray.asarray(ab), lower=lower), sl.cholesky(ab, lower=lower), dtype)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('shape', [(5, 3), (3, 5), (4, 4)])
def test_qr_modes(dtype, shape):
    a = rand(shape, dtype)
    for mode in ['full', 'economic']:
        q, r = L.qr(cuarray.asarray(a), mode=mode)
        wq, wr = sl.qr(a, mode=mode)
        assert q.shape == wq.shape and r.shape == wr.shape and q.dtype == wq.dtype
        numpy.testing.assert_allclose((q @ r).get(), a, atol=tol(dtype) * 10)
    (r,) = L.qr(cuarray.asarray(a), mode='r')
    assert r.shape == sl.qr(a, mode='r')[0].shape
    numpy.testing.assert_allclose(numpy.abs(r.get()), numpy.abs(sl.qr(a, mode='r')[0]), atol=tol(dtype) * 10)
    (h, tau), r = L.qr(cuarray.asarray(a), mode='raw')
    (wh, wtau), wr = sl.qr(a, mode='raw')
    assert h.shape == wh.shape and tau.shape == wtau.shape and r.shape == wr.shape
    q, r, p = L.qr(cuarray.asarray(a), pivoting=True)
    wq, wr, wp = sl.qr(a, pivoting=True)
    assert (p.get() == wp).all()


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_svd_and_eigh(dtype):
    a = rand((5, 3), dtype)
    u, s, vh = L.svd(cuarray.asarray(a), full_matrices=False)
    check(s, sl.svd(a, compute_uv=False), dtype)
    numpy.testing.assert_allclose(((u * s[None, :]) @ vh).get(), a, atol=tol(dtype) * 10)
    check(L.svdvals(cuarray.asarray(a)), sl.svdvals(a), dtype)
    h = spd(4, dtype)
    w, v = L.eigh(cuarray.asarray(h))
    check(w, sl.eigh(h)[0], dtype)
    check(L.eigvalsh(cuarray.asarray(h), subset_by_index=[1, 2]), sl.eigvalsh(h, subset_by_index=[1, 2]), dtype)
    b = spd(4, dtype, ()) + numpy.eye(4, dtype=dtype)
    for type_ in (1, 2, 3):
        w, v = L.eigh(cuarray.asarray(h), cuarray.asarray(b), type=type_, lower=False)
        ww, wv = sl.eigh(h, b, type=type_, lower=False)
        numpy.testing.assert_allclose(w.get(), ww, rtol=tol(dtype) * 10)
        # Eigenvectors up to phase: compare |v^H B v| normalisation and residuals.
        vv = v.get()
        lhs = h @ vv if type_ == 1 else (h @ b @ vv if type_ == 2 else b @ h @ vv)
        rhs = (b @ vv) * ww if type_ == 1 else vv * ww
        numpy.testing.assert_allclose(lhs, rhs, atol=tol(dtype) * 1e3)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_solve_inv_det_pinv(dtype):
    a = rand((4, 4), dtype) + 4 * numpy.eye(4, dtype=dtype)
    b = rand((4, 2), dtype, 1)
    for assume in [None, 'gen', 'upper triangular', 'lower triangular']:
        check(L.solve(cuarray.asarray(a), cuarray.asarray(b), assume_a=assume), sl.solve(a, b, assume_a=assume),
              dtype)
    s = spd(4, dtype)
    check(L.solve(cuarray.asarray(s), cuarray.asarray(b), assume_a='pos'), sl.solve(s, b, assume_a='pos'), dtype)
    # SciPy raises NotImplementedError for complex `transposed`; cuarray solves a^T x = b, checked against NumPy.
    want_t = sl.solve(a, b, transposed=True) if a.dtype.kind != 'c' else numpy.linalg.solve(a.T, b)
    check(L.solve(cuarray.asarray(a), cuarray.asarray(b), transposed=True), want_t, dtype)
    check(L.solve(cuarray.asarray(a), cuarray.asarray(b[:, 0]), transposed=True), numpy.linalg.solve(a.T, b[:, 0]),
          dtype)
    check(L.inv(cuarray.asarray(a)), sl.inv(a), dtype)
    check(L.det(cuarray.asarray(a)), numpy.asarray(sl.det(a)), dtype)
    check(L.pinv(cuarray.asarray(rand((5, 3), dtype))), sl.pinv(rand((5, 3), dtype)), dtype)
    check(L.pinvh(cuarray.asarray(s)), sl.pinvh(s), dtype)
    with pytest.raises(numpy.linalg.LinAlgError):
        L.solve(cuarray.zeros((3, 3), dtype=dtype), cuarray.ones(3, dtype=dtype))
    with pytest.raises(numpy.linalg.LinAlgError):
        L.inv(cuarray.zeros((3, 3), dtype=dtype))
    with pytest.raises(ValueError):
        L.inv(cuarray.asarray([[numpy.inf, 0], [0, 1]]).astype(dtype))


@gpu
@pytest.mark.parametrize('dtype', [numpy.float64, numpy.complex128, numpy.float32, numpy.int64])
@pytest.mark.parametrize('scale', [1e-3, 0.1, 1.0, 5.0, 50.0])
def test_expm(dtype, scale):
    a = (rand((5, 5), numpy.float64) * scale).astype(dtype) if numpy.dtype(dtype).kind != 'i' else \
        numpy.arange(-12, 13).reshape(5, 5).astype(dtype) // 8
    want = sl.expm(a)
    got = L.expm(cuarray.asarray(a))
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(got.get(), want, rtol=50 * tol(dtype), atol=tol(dtype) * numpy.abs(want).max())


@gpu
def test_expm_batched_and_small():
    a = rand((3, 4, 4), numpy.float64)
    numpy.testing.assert_allclose(L.expm(cuarray.asarray(a)).get(), sl.expm(a), rtol=1e-10)
    check(L.expm(cuarray.asarray([[2.0]])), sl.expm(numpy.array([[2.0]])))


@gpu
def test_special_matrices():
    c = numpy.array([1.0, 2 + 3j, 4 - 1j])
    r = numpy.array([7, 8, 9, 10])
    for got, want in [
        (L.toeplitz(cuarray.asarray(c)), sl.toeplitz(c)),
        (L.toeplitz(cuarray.asarray(c), cuarray.asarray(r)), sl.toeplitz(c, r)),
        (L.toeplitz(cuarray.asarray(numpy.arange(6.).reshape(2, 3))), sl.toeplitz(numpy.arange(6.).reshape(2, 3))),
        (L.circulant(cuarray.asarray(r)), sl.circulant(r)),
        (L.hankel(cuarray.asarray(r)), sl.hankel(r)),
        (L.hankel(cuarray.asarray(r), cuarray.asarray(c)), sl.hankel(r, c)),
        (L.hadamard(8), sl.hadamard(8)),
        (L.hadamard(4, dtype=numpy.float32), sl.hadamard(4, dtype=numpy.float32)),
        (L.leslie(cuarray.asarray([0.1, 2.0, 1.0]), cuarray.asarray([0.2, 0.8])),
         sl.leslie([0.1, 2.0, 1.0], [0.2, 0.8])),
        (L.block_diag(cuarray.asarray([[1, 2]]), cuarray.asarray([3.0]), cuarray.asarray([[4], [5]])),
         sl.block_diag(numpy.array([[1, 2]]), numpy.array([3.0]), numpy.array([[4], [5]]))),
        (L.block_diag(), sl.block_diag()),
        (L.companion(cuarray.asarray([1, -10, 31, -30])), sl.companion([1, -10, 31, -30])),
        (L.helmert(5), sl.helmert(5)), (L.helmert(5, full=True), sl.helmert(5, full=True)),
        (L.hilbert(4), sl.hilbert(4)), (L.invhilbert(4), sl.invhilbert(4)),
        (L.invhilbert(4, exact=True), sl.invhilbert(4, exact=True)),
        (L.pascal(5), sl.pascal(5)), (L.pascal(5, 'lower', exact=False), sl.pascal(5, 'lower', exact=False)),
        (L.invpascal(5), sl.invpascal(5)), (L.invpascal(5, 'upper'), sl.invpascal(5, 'upper')),
        (L.dft(5), sl.dft(5)), (L.dft(4, scale='sqrtn'), sl.dft(4, scale='sqrtn')),
        (L.fiedler(cuarray.asarray([1, 4, 12, 45])), sl.fiedler([1, 4, 12, 45])),
        (L.fiedler_companion(cuarray.asarray([2.0, 3, 4, 5, 6])), sl.fiedler_companion([2.0, 3, 4, 5, 6])),
        (L.fiedler_companion(cuarray.asarray([2.0, 3, 4, 5, 6, 7])), sl.fiedler_companion([2.0, 3, 4, 5, 6, 7])),
        (L.khatri_rao(cuarray.asarray(numpy.ones((2, 3))), cuarray.asarray(numpy.arange(6.).reshape(2, 3))),
         sl.khatri_rao(numpy.ones((2, 3)), numpy.arange(6.).reshape(2, 3))),
    ]:
        check(got, numpy.asarray(want))
    for mode in ['full', 'same', 'valid']:
        for a, n in [([1, 2, 3], 5), ([1, 2, 3, 4, 5], 2)]:
            check(L.convolution_matrix(cuarray.asarray(a), n, mode), sl.convolution_matrix(a, n, mode))
    assert L.bandwidth(cuarray.asarray(numpy.triu(numpy.ones((4, 4)), -1))) == (1, 3)
