"""cuarray.linalg decompositions, solvers, determinants and norms against NumPy.

Decompositions are checked by reconstruction (signs and phases of singular vectors and eigenvectors are not
unique), values that are unique (singular values, eigenvalues, inverses, solutions, Cholesky factors, norms) by
comparison with NumPy, over dtypes, stacks, empty and non-contiguous input, and the errors NumPy raises.
"""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu
LinAlgError = numpy.linalg.LinAlgError

DTYPES = [numpy.dtype(t) for t in ("float32", "float64", "complex64", "complex128")]
ALL_DTYPES = DTYPES + [numpy.dtype(t) for t in ("int64", "int32", "bool")]


def _rand(shape, dtype, seed=0):
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(-5, 6, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _spd(shape, dtype, seed=0):
    """Hermitian positive-definite stacks (..., n, n)."""
    a = _rand(shape, dtype if numpy.dtype(dtype).kind in "fc" else numpy.float64, seed)
    n = shape[-1]
    h = a @ numpy.conj(numpy.swapaxes(a, -1, -2)) + n * numpy.eye(n)
    return h.astype(dtype)


def _herm(shape, dtype, seed=0):
    a = _rand(shape, dtype, seed)
    return ((a + numpy.conj(numpy.swapaxes(a, -1, -2))) / 2).astype(dtype)


def _tol(dtype):
    """Relative tolerance of results computed in `dtype` (NumPy's result dtype of the input)."""
    return 2e-4 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-10


def _rel(x, y):
    x, y = numpy.asarray(x, numpy.complex128), numpy.asarray(y, numpy.complex128)
    scale = max(numpy.linalg.norm(y), 1e-30)
    return numpy.linalg.norm(x - y) / scale


def _h(x):
    return numpy.conj(numpy.swapaxes(x, -1, -2))


def _dev(x):
    return cp.asarray(x)


def _layouts(x):
    """The array as C, Fortran-ordered and non-contiguous (negative strides) device arrays."""
    c = _dev(x)
    f = cp.asfortranarray(c)
    big = numpy.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    big[..., ::-2] = x[..., ::-1]  # big[..., ::-2][..., ::-1] == x
    nc = _dev(big)[..., ::-2][..., ::-1]
    return [c, f, nc]


# ---- CPU tests -------------------------------------------------------------------------------------------------


def test_linalg_error_is_numpys():
    assert cp.linalg.LinAlgError is numpy.linalg.LinAlgError
    assert issubclass(cp.linalg.LinAlgError, ValueError)


def test_linalg_names_exported():
    for name in ("svd", "svdvals", "qr", "cholesky", "eigh", "eigvalsh", "eig", "eigvals", "inv", "pinv", "solve",
                 "lstsq", "det", "slogdet", "norm", "matrix_norm", "vector_norm", "cond", "matrix_rank",
                 "tensorsolve", "tensorinv"):
        assert callable(getattr(cp.linalg, name)), name


@pytest.mark.parametrize("func", ["svd", "qr", "cholesky", "eigh", "inv", "det", "norm", "cond"])
def test_host_arrays_are_refused(func):
    with pytest.raises(TypeError):
        getattr(cp.linalg, func)(numpy.eye(3))


# ---- svd -------------------------------------------------------------------------------------------------------

SVD_SHAPES = [(1, 1), (5, 5), (7, 4), (4, 7), (3, 6, 4), (2, 3, 4, 5), (40, 33), (33, 40), (3, 37, 35), (2, 2, 2)]


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs(dtype, shape, full_matrices):
    x = _rand(shape, dtype)
    eu, es, evh = numpy.linalg.svd(x, full_matrices=full_matrices)
    u, s, vh = cp.linalg.svd(_dev(x), full_matrices=full_matrices)
    u, s, vh = u.get(), s.get(), vh.get()
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (eu.dtype, es.dtype, evh.dtype)
    tol = _tol(eu.dtype)
    assert _rel(s, es) < tol
    k = s.shape[-1]
    recon = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    assert _rel(recon, x) < tol
    assert _rel(_h(u) @ u, numpy.broadcast_to(numpy.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2)) < tol
    assert _rel(vh @ _h(vh), numpy.broadcast_to(numpy.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2)) < tol


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_svd_layouts(dtype):
    x = _rand((6, 9), dtype, seed=3)
    es = numpy.linalg.svd(x, compute_uv=False)
    for a in _layouts(x):
        u, s, vh = cp.linalg.svd(a, full_matrices=False)
        assert _rel(s.get(), es) < _tol(dtype)
        assert _rel((u.get() * s.get()) @ vh.get(), x) < _tol(dtype)


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 6, 6), (40, 40)])
def test_svd_values_only(dtype, shape):
    x = _rand(shape, dtype, seed=1)
    expected = numpy.linalg.svd(x, compute_uv=False)
    s = cp.linalg.svd(_dev(x), compute_uv=False)
    assert isinstance(s, cp.ndarray) and s.dtype == expected.dtype and s.shape == expected.shape
    assert _rel(s.get(), expected) < _tol(dtype)
    v = cp.linalg.svdvals(_dev(x))
    assert _rel(v.get(), expected) < _tol(dtype)


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4)])
def test_svd_hermitian(dtype, shape):
    x = _herm(shape, dtype)
    eu, es, evh = numpy.linalg.svd(x, hermitian=True)
    u, s, vh = cp.linalg.svd(_dev(x), hermitian=True)
    assert s.dtype == es.dtype and u.dtype == eu.dtype and vh.dtype == evh.dtype
    assert _rel(s.get(), es) < _tol(dtype)
    assert _rel((u.get() * s.get()[..., None, :]) @ vh.get(), x) < _tol(dtype)
    s2 = cp.linalg.svd(_dev(x), compute_uv=False, hermitian=True)
    assert _rel(s2.get(), numpy.linalg.svd(x, compute_uv=False, hermitian=True)) < _tol(dtype)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
@pytest.mark.parametrize("n", [50, 7])
def test_svd_rank_deficient_gives_unitary_vectors(dtype, n):
    rng = numpy.random.default_rng(5)
    x = numpy.outer(rng.standard_normal(n), rng.standard_normal(n)).astype(dtype)  # rank 1
    for a in (x, numpy.zeros((n, n), dtype)):
        u, s, vh = (r.get() for r in cp.linalg.svd(_dev(a)))
        assert _rel(_h(u) @ u, numpy.eye(n)) < _tol(dtype)
        assert _rel(vh @ _h(vh), numpy.eye(n)) < _tol(dtype)
        assert numpy.linalg.norm((u * s) @ vh - a) <= _tol(dtype) * max(numpy.linalg.norm(a), 1)


@gpu
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3), (0, 3, 3)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_empty(shape, full_matrices):
    x = numpy.zeros(shape)
    expected = numpy.linalg.svd(x, full_matrices=full_matrices)
    got = cp.linalg.svd(_dev(x), full_matrices=full_matrices)
    for g, e in zip(got, expected):
        assert g.shape == e.shape and g.dtype == e.dtype
        numpy.testing.assert_array_equal(g.get(), e)


@gpu
@pytest.mark.parametrize("value", [numpy.nan, numpy.inf])
def test_svd_nonfinite_raises(value):
    x = numpy.eye(4)
    x[1, 2] = value
    with pytest.raises(LinAlgError, match="SVD did not converge"):
        cp.linalg.svd(_dev(x))
    with pytest.raises(LinAlgError):
        cp.linalg.svd(_dev(numpy.full((3, 2, 2), value)), compute_uv=False)


@gpu
def test_svd_errors():
    with pytest.raises(LinAlgError, match="1-dimensional array given"):
        cp.linalg.svd(cp.ones(3))
    with pytest.raises(TypeError, match="float16 is unsupported"):
        cp.linalg.svd(cp.ones((3, 3), dtype=numpy.float16))


# ---- qr --------------------------------------------------------------------------------------------------------

QR_SHAPES = [(1, 1), (5, 5), (7, 4), (4, 7), (3, 6, 4), (2, 3, 4, 5)]


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", QR_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs(dtype, shape, mode):
    x = _rand(shape, dtype, seed=2)
    eq, er = numpy.linalg.qr(x, mode=mode)
    q, r = cp.linalg.qr(_dev(x), mode=mode)
    q, r = q.get(), r.get()
    assert (q.shape, r.shape, q.dtype, r.dtype) == (eq.shape, er.shape, eq.dtype, er.dtype)
    tol = _tol(eq.dtype)
    assert _rel(q @ r, x) < tol
    assert _rel(_h(q) @ q, numpy.broadcast_to(numpy.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)) < tol
    numpy.testing.assert_array_equal(r, numpy.triu(r))
    if x.dtype != bool:  # random 0/1 matrices may be singular, where R is not unique
        # R is unique up to the signs (phases) of its rows.
        assert _rel(numpy.abs(r), numpy.abs(er)) < 10 * tol


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_qr_r_and_raw(dtype, shape):
    x = _rand(shape, dtype, seed=4)
    r = cp.linalg.qr(_dev(x), mode="r")
    er = numpy.linalg.qr(x, mode="r")
    assert r.shape == er.shape and r.dtype == er.dtype
    assert _rel(numpy.abs(r.get()), numpy.abs(er)) < 10 * _tol(dtype)
    h, tau = cp.linalg.qr(_dev(x), mode="raw")
    eh, etau = numpy.linalg.qr(x, mode="raw")
    assert h.shape == eh.shape and tau.shape == etau.shape and h.dtype == eh.dtype and tau.dtype == etau.dtype
    # Householder reflectors follow LAPACK's convention on both sides.
    assert _rel(h.get(), eh) < 100 * _tol(dtype)
    assert _rel(tau.get(), etau) < 100 * _tol(dtype)


@gpu
def test_qr_layouts():
    x = _rand((6, 4), numpy.float64, seed=9)
    for a in _layouts(x):
        q, r = cp.linalg.qr(a)
        assert _rel(q.get() @ r.get(), x) < 1e-12


@gpu
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3), (0, 3, 3)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_empty(shape, mode):
    x = numpy.zeros(shape)
    expected = numpy.linalg.qr(x, mode=mode)
    got = cp.linalg.qr(_dev(x), mode=mode)
    if mode == "r":
        expected, got = (expected,), (got,)
    for g, e in zip(got, expected):
        assert g.shape == e.shape and g.dtype == e.dtype
        numpy.testing.assert_array_equal(g.get(), e)


@gpu
def test_qr_errors():
    with pytest.raises(ValueError, match="Unrecognized mode 'bogus'"):
        cp.linalg.qr(cp.ones((3, 3)), mode="bogus")
    with pytest.raises(LinAlgError, match="1-dimensional"):
        cp.linalg.qr(cp.ones(3))
    with pytest.raises(TypeError):
        cp.linalg.qr(cp.ones((3, 3), dtype=numpy.float16))
    with pytest.warns(DeprecationWarning):
        q, r = cp.linalg.qr(cp.eye(3), mode="full")


# ---- cholesky --------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES + [numpy.dtype(numpy.int64)])
@pytest.mark.parametrize("shape", [(1, 1), (4, 4), (3, 5, 5), (2, 130, 130), (140, 140)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_matches_numpy(dtype, shape, upper):
    if numpy.dtype(dtype).kind == "i":
        x = numpy.round(_spd(shape, numpy.float64)).astype(dtype)  # rounding moves no eigenvalue below n / 2
    else:
        x = _spd(shape, dtype)
    expected = numpy.linalg.cholesky(x, upper=upper)
    got = cp.linalg.cholesky(_dev(x), upper=upper)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert _rel(got.get(), expected) < _tol(expected.dtype)


@gpu
def test_cholesky_layouts():
    x = _spd((5, 5), numpy.float64)
    for a in _layouts(x):
        assert _rel(cp.linalg.cholesky(a).get(), numpy.linalg.cholesky(x)) < 1e-12


@gpu
@pytest.mark.parametrize("shape", [(3, 3), (4, 3, 3), (2, 150, 150)])
def test_cholesky_not_positive_definite(shape):
    x = _spd(shape, numpy.float64)
    x[..., 0, 0] = -1
    with pytest.raises(LinAlgError, match="Matrix is not positive definite"):
        cp.linalg.cholesky(_dev(x))


@gpu
def test_cholesky_nan_gives_nan():
    x = numpy.full((3, 3), numpy.nan)
    got = cp.linalg.cholesky(_dev(x)).get()
    assert numpy.isnan(numpy.tril(got)[numpy.tril_indices(3)]).all()
    assert (numpy.triu(got, 1) == 0).all()


@gpu
def test_cholesky_errors_and_empty():
    with pytest.raises(LinAlgError, match="Last 2 dimensions of the array must be square"):
        cp.linalg.cholesky(cp.ones((3, 4)))
    with pytest.raises(LinAlgError, match="1-dimensional"):
        cp.linalg.cholesky(cp.ones(3))
    for shape in [(0, 0), (2, 0, 0)]:
        r = cp.linalg.cholesky(cp.ones(shape, dtype=numpy.float32))
        assert r.shape == shape and r.dtype == numpy.float32


# ---- eigh / eig ------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (4, 6, 6), (2, 3, 3, 3), (40, 40), (3, 40, 40)])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_matches_numpy(dtype, shape, uplo):
    x = _rand(shape, dtype, seed=6)  # not Hermitian: only the UPLO triangle may be read
    ew, ev = numpy.linalg.eigh(x, UPLO=uplo)
    w, v = cp.linalg.eigh(_dev(x), UPLO=uplo)
    w, v = w.get(), v.get()
    assert (w.dtype, v.dtype, w.shape, v.shape) == (ew.dtype, ev.dtype, ew.shape, ev.shape)
    tol = _tol(ev.dtype)
    assert _rel(w, ew) < tol
    xf = x.astype(ev.dtype)
    strict = numpy.tril(xf, -1) if uplo == "L" else numpy.triu(xf, 1)
    herm = strict + _h(strict) + numpy.eye(shape[-1]) * numpy.diagonal(xf, axis1=-2, axis2=-1)[..., None, :].real
    assert _rel(herm @ v, v * w[..., None, :]) < 10 * tol
    assert _rel(_h(v) @ v, numpy.broadcast_to(numpy.eye(shape[-1]), v.shape)) < tol
    wv = cp.linalg.eigvalsh(_dev(x), UPLO=uplo)
    assert wv.dtype == ew.dtype and _rel(wv.get(), ew) < tol


@gpu
def test_eigh_nan():
    x = numpy.eye(3)
    x[2, 0] = numpy.nan  # lower triangle: read with UPLO='L'
    with pytest.raises(LinAlgError, match="Eigenvalues did not converge"):
        cp.linalg.eigh(_dev(x))
    with pytest.raises(LinAlgError):
        cp.linalg.eigvalsh(_dev(numpy.full((2, 3, 3), numpy.nan)))
    w, v = cp.linalg.eigh(_dev(x), UPLO="U")  # the NaN is in the triangle not read
    numpy.testing.assert_allclose(w.get(), [1, 1, 1])


@gpu
def test_eigh_errors_and_empty():
    with pytest.raises(ValueError, match="UPLO argument must be 'L' or 'U'"):
        cp.linalg.eigh(cp.eye(3), UPLO="X")
    with pytest.raises(LinAlgError, match="square"):
        cp.linalg.eigh(cp.ones((2, 3)))
    w, v = cp.linalg.eigh(cp.ones((0, 0), dtype=numpy.complex64))
    assert w.shape == (0,) and w.dtype == numpy.float32 and v.shape == (0, 0) and v.dtype == numpy.complex64
    w, v = cp.linalg.eigh(cp.eye(3), UPLO="u")  # lower case accepted, as NumPy
    numpy.testing.assert_allclose(w.get(), [1, 1, 1])


def _eig_dtype(dtype):
    """eig's result dtype: complex always since NumPy 2.5 (numpy/numpy#30411), which cuarray follows."""
    return numpy.result_type(dtype, numpy.complex64)


def _match_eigvals(w, ew):
    """w's eigenvalues of each matrix reordered to pair with ew's nearest ones: sorting both is no pairing,
    as conjugate pairs whose real parts differ by rounding sort either way round."""
    w, ew = w.reshape(-1, w.shape[-1]), ew.reshape(-1, ew.shape[-1])
    out = numpy.empty_like(w)
    for row in range(w.shape[0]):
        left = list(w[row])
        for j, e in enumerate(ew[row]):
            out[row, j] = left.pop(int(numpy.argmin(numpy.abs(numpy.array(left) - e))))
    return out, ew


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (40, 40)])
def test_eig_matches_numpy(dtype, shape):
    x = _rand(shape, dtype, seed=7)
    ew, ev = numpy.linalg.eig(x)
    w, v = cp.linalg.eig(_dev(x))
    w, v = w.get(), v.get()
    et = _eig_dtype(ew.dtype)
    assert (w.dtype, v.dtype, w.shape, v.shape) == (et, et, ew.shape, ev.shape)
    tol = _tol(ew.dtype)
    # Integer matrices can have defective (repeated) eigenvalues, which any backward-stable method gets only
    # to about sqrt(eps) (the (3, 4, 4) int32 stack: a double eigenvalue 0 comes out as +-1.5e-8j, in NumPy too).
    vtol = 50 * tol if numpy.dtype(dtype).kind in "fc" else 1e-6
    assert _rel(*_match_eigvals(w, ew)) < vtol
    assert _rel(x @ v, v * w[..., None, :]) < 50 * tol
    wv = cp.linalg.eigvals(_dev(x)).get()
    assert wv.dtype == et and wv.shape == ew.shape
    assert _rel(*_match_eigvals(wv, ew)) < vtol


@gpu
def test_eig_real_and_complex_results():
    sym = _herm((6, 6), numpy.float64)
    w, v = cp.linalg.eig(_dev(sym))
    assert w.dtype == numpy.complex128 and v.dtype == numpy.complex128
    assert _rel(sym @ v.get(), v.get() * w.get()) < 1e-10
    assert numpy.abs(w.get().imag).max() < 1e-12 * numpy.abs(w.get()).max()
    rot = numpy.array([[0.0, -1.0], [1.0, 0.0]], numpy.float32)
    w, v = cp.linalg.eig(_dev(rot))
    assert w.dtype == numpy.complex64 and v.dtype == numpy.complex64
    w = w.get()
    numpy.testing.assert_allclose(w[numpy.argsort(w.imag)], [-1j, 1j], atol=1e-6)


@gpu
def test_eig_nonfinite_and_empty():
    with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
        cp.linalg.eig(_dev(numpy.array([[1.0, numpy.inf], [0, 1]])))
    with pytest.raises(LinAlgError, match="Array must not contain infs or NaNs"):
        cp.linalg.eigvals(_dev(numpy.array([[1.0, numpy.nan], [0, 1]])))
    w, v = cp.linalg.eig(cp.ones((0, 0)))
    assert w.shape == (0,) and w.dtype == numpy.complex128 and v.shape == (0, 0) and v.dtype == numpy.complex128
    assert cp.linalg.eigvals(cp.ones((2, 0, 0), dtype=numpy.float32)).dtype == numpy.complex64


# ---- inv / solve -----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (2, 2, 3, 3), (70, 70)])
def test_inv_matches_numpy(dtype, shape):
    x = _rand(shape, dtype, seed=8)
    if x.dtype == bool:
        x = numpy.eye(shape[-1], dtype=bool) | numpy.triu(x)  # unit upper triangular: never singular
    else:
        x = x + 4 * numpy.eye(shape[-1], dtype=x.dtype)
    expected = numpy.linalg.inv(x)
    got = cp.linalg.inv(_dev(x))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert _rel(got.get(), expected) < 10 * _tol(expected.dtype)


# Rows of diagonally dominant matrices shuffled (reversed for the first of a stack), so that partial pivoting
# swaps most of them back: the inverse's pivot replay (Note [inverse by right solves]) has work to do. Orders past
# the replay's 256 threads a block, a stack with its own permutation per matrix.
@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 2), (3, 33, 33), (300, 300)])
def test_inv_pivoted_rows(dtype, shape):
    rng = numpy.random.default_rng(31)
    n = shape[-1]
    x = _rand(shape, dtype, seed=9).reshape(-1, n, n)
    for k, m in enumerate(x):
        perm = numpy.arange(n)[::-1] if k == 0 else rng.permutation(n)
        m[numpy.arange(n), perm] += 2 * n
    x = x.reshape(shape)
    expected = numpy.linalg.inv(x)
    got = cp.linalg.inv(_dev(x))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert _rel(got.get(), expected) < 10 * _tol(expected.dtype)


@pytest.fixture(params=["one-kernel", "cublas"])
def solve_route(request):
    """solve's two routes for up to 128 right-hand sides: lapack's getrs with the one-kernel triangular solves
    (Note [one-kernel triangular solves], src/linalg/lapack.cpp), and cuBLAS's trsm pairs of Note [solve by side]
    (src/linalg/decomp_lu.cpp), which also serve more right-hand sides."""
    prev = cp._core._linalg_tri_kernel_max_k(2 ** 62 if request.param == "one-kernel" else 0)
    yield request.param
    cp._core._linalg_tri_kernel_max_k(prev)


# Every route of Note [solve by side] (cuBLAS's left side below 8 right-hand sides, the transposed pair from 8, the
# one-kernel solve) on uniform matrices, which pivot at most steps: vectors, k either side of the switch, stacks
# that broadcast against each other (the batched route, and a stack of two large matrices), a non-contiguous b,
# and integer b promoted to the solution's dtype.
@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ashape,bshape", [((5, 5), (5,)), ((300, 300), (300, 7)), ((300, 300), (300, 8)),
                                           ((40, 40), (40, 33)), ((3, 6, 6), (2, 1, 6, 9)), ((2, 6, 6), (6, 2)),
                                           ((1, 1), (1, 8)), ((2, 250, 250), (250, 5))])
def test_solve_both_sides_pivoted(dtype, ashape, bshape, solve_route):
    rng = numpy.random.default_rng(41)
    a = rng.random(ashape)
    b = rng.random(bshape)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.random(ashape)
        b = b + 1j * rng.random(bshape)
    a, b = a.astype(dtype), b.astype(dtype)
    expected = numpy.linalg.solve(a, b)
    got = cp.linalg.solve(_dev(a), _dev(b))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    # uniform matrices are not well conditioned: compare residuals of the two answers instead of the answers
    res = numpy.abs(a @ got.get()[..., None] - b[..., None]) if b.ndim == 1 else numpy.abs(a @ got.get() - b)
    scale = numpy.abs(a).sum(-1).max() * numpy.abs(expected).max()
    assert res.max() / scale < 50 * _tol(expected.dtype)


@gpu
def test_solve_right_side_layouts_and_promotion(solve_route):
    rng = numpy.random.default_rng(42)
    a = rng.random((50, 50)) + 50 * numpy.eye(50)
    b = rng.random((12, 50)).T  # non-contiguous (50, 12)
    for bd in (_dev(b), _dev(b[:, ::-1].copy())[:, ::-1], _dev(b[::-1].copy())[::-1]):
        assert _rel(cp.linalg.solve(_dev(a), bd).get(), numpy.linalg.solve(a, b)) < 1e-12
    bi = rng.integers(-5, 6, (50, 10))
    got = cp.linalg.solve(_dev(a.astype(numpy.float32)), _dev(bi))
    expected = numpy.linalg.solve(a.astype(numpy.float32), bi)
    assert got.dtype == expected.dtype == numpy.float64
    assert _rel(got.get(), expected) < 1e-5
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.solve(cp.zeros((2, 4, 4)), cp.ones((2, 4, 9)))
    # One large matrix (not the batched route): an exact zero pivot raises, as LAPACK's.
    s = a.copy()
    s[:, 7] = 0
    for k in (1, 12, 200):
        with pytest.raises(LinAlgError, match="Singular matrix"):
            cp.linalg.solve(_dev(s), cp.ones((50, k)))


@gpu
def test_inv_layouts_singular_nan_empty():
    x = _rand((5, 5), numpy.float64) + 3 * numpy.eye(5)
    for a in _layouts(x):
        assert _rel(cp.linalg.inv(a).get(), numpy.linalg.inv(x)) < 1e-12
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.inv(cp.zeros((2, 3, 3)))
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.inv(_dev(numpy.array([[1.0, 2.0], [2.0, 4.0]])))
    assert numpy.isnan(cp.linalg.inv(_dev(numpy.full((3, 3), numpy.nan))).get()).all()
    r = cp.linalg.inv(cp.ones((2, 0, 0), dtype=numpy.float32))
    assert r.shape == (2, 0, 0) and r.dtype == numpy.float32
    with pytest.raises(LinAlgError, match="square"):
        cp.linalg.inv(cp.ones((2, 3)))


@gpu
@pytest.mark.parametrize("adtype,bdtype", [("float64", "float64"), ("float32", "float32"), ("float32", "int64"),
                                           ("complex64", "float32"), ("complex128", "complex128"),
                                           ("int32", "int32"), ("float32", "float64")])
@pytest.mark.parametrize("ashape,bshape", [((4, 4), (4,)), ((4, 4), (4, 3)), ((2, 4, 4), (4,)),
                                           ((2, 4, 4), (2, 4, 2)), ((4, 4), (3, 4, 2)), ((2, 1, 3, 3), (4, 3, 1)),
                                           ((1, 1), (1,)), ((3, 3), (3, 0))])
def test_solve_matches_numpy(adtype, bdtype, ashape, bshape):
    a = _rand(ashape, adtype, seed=1) + 5 * numpy.eye(ashape[-1], dtype=adtype)
    b = _rand(bshape, bdtype, seed=2)
    expected = numpy.linalg.solve(a, b)
    got = cp.linalg.solve(_dev(a), _dev(b))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert _rel(got.get(), expected) < 10 * _tol(expected.dtype)


@gpu
def test_solve_layouts_and_errors():
    a = _rand((5, 5), numpy.complex128) + 4 * numpy.eye(5)
    b = _rand((5, 3), numpy.complex128, seed=3)
    for da, db in zip(_layouts(a), _layouts(b)):
        assert _rel(cp.linalg.solve(da, db).get(), numpy.linalg.solve(a, b)) < 1e-12
    with pytest.raises(LinAlgError, match="Singular matrix"):
        cp.linalg.solve(cp.zeros((3, 3)), cp.ones(3))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        cp.linalg.solve(cp.eye(3), cp.ones(4))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        cp.linalg.solve(cp.eye(3), cp.ones((4, 2)))
    with pytest.raises(LinAlgError, match="square"):
        cp.linalg.solve(cp.ones((3, 2)), cp.ones(3))
    r = cp.linalg.solve(cp.ones((0, 0)), cp.ones(0))
    assert r.shape == (0,)


# ---- det / slogdet ---------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (3, 4, 4), (2, 2, 3, 3), (60, 60), (0, 0), (2, 0, 0), (0, 3, 3)])
def test_det_slogdet_match_numpy(dtype, shape):
    x = _rand(shape, dtype, seed=10)
    ed = numpy.linalg.det(x)
    es, el = numpy.linalg.slogdet(x)
    d = cp.linalg.det(_dev(x))
    s, lg = cp.linalg.slogdet(_dev(x))
    assert d.dtype == numpy.asarray(ed).dtype and d.shape == numpy.shape(ed)
    assert s.dtype == numpy.asarray(es).dtype and lg.dtype == numpy.asarray(el).dtype and s.shape == numpy.shape(es)
    tol = 100 * _tol(numpy.asarray(ed).dtype)
    assert _rel(s.get(), es) < tol
    numpy.testing.assert_allclose(lg.get(), el, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(d.get(), ed, rtol=tol, atol=tol * numpy.max(numpy.abs(ed), initial=1))


@gpu
def test_det_singular_and_layouts():
    x = numpy.array([[1.0, 2.0], [2.0, 4.0]])
    assert cp.linalg.det(_dev(x)).get() == 0
    s, lg = cp.linalg.slogdet(_dev(numpy.zeros((2, 3, 3), numpy.complex64)))
    numpy.testing.assert_array_equal(s.get(), [0, 0])
    numpy.testing.assert_array_equal(lg.get(), [-numpy.inf, -numpy.inf])
    y = _rand((5, 5), numpy.float64, seed=4)
    for a in _layouts(y):
        numpy.testing.assert_allclose(cp.linalg.det(a).get(), numpy.linalg.det(y), rtol=1e-12)
    # Permutations of the identity: the pivots' sign.
    p = numpy.eye(4)[[1, 0, 3, 2]][[0, 2, 1, 3]]
    assert cp.linalg.det(_dev(p)).get() == numpy.linalg.det(p)


# ---- pinv / lstsq / matrix_rank --------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (6, 4), (4, 6), (3, 5, 4), (2, 3, 3)])
def test_pinv_matches_numpy(dtype, shape):
    x = _rand(shape, dtype, seed=11)
    expected = numpy.linalg.pinv(x)
    got = cp.linalg.pinv(_dev(x))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert _rel(got.get(), expected) < 100 * _tol(expected.dtype)


@gpu
def test_pinv_options():
    rng = numpy.random.default_rng(0)
    x = numpy.outer(rng.standard_normal(5), rng.standard_normal(4)) + 1e-3 * rng.standard_normal((5, 4))
    for kw in ({}, {"rcond": 1e-6}, {"rtol": None}, {"rtol": 0.1}):
        assert _rel(cp.linalg.pinv(_dev(x), **kw).get(), numpy.linalg.pinv(x, **kw)) < 1e-8, kw
    h = _herm((4, 4), numpy.complex128)
    assert _rel(cp.linalg.pinv(_dev(h), hermitian=True).get(), numpy.linalg.pinv(h, hermitian=True)) < 1e-10
    rc = numpy.array([1e-15, 0.5])
    xs = _rand((2, 3, 3), numpy.float64)
    assert _rel(cp.linalg.pinv(_dev(xs), rcond=_dev(rc)).get(), numpy.linalg.pinv(xs, rcond=rc)) < 1e-10
    with pytest.raises(ValueError, match="can't be both set"):
        cp.linalg.pinv(_dev(x), rcond=1e-3, rtol=1e-3)
    for shape in [(0, 3), (3, 0), (2, 0, 0)]:
        e = numpy.linalg.pinv(numpy.zeros(shape, numpy.float32))
        g = cp.linalg.pinv(cp.zeros(shape, dtype=numpy.float32))
        assert g.shape == e.shape and g.dtype == e.dtype


@gpu
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64", "int64"])
@pytest.mark.parametrize("ashape,bshape", [((6, 4), (6,)), ((6, 4), (6, 3)), ((4, 6), (4,)), ((4, 4), (4, 2)),
                                           ((6, 4), (6, 0)), ((0, 3), (0,)), ((3, 0), (3,)), ((3, 0), (3, 2))])
def test_lstsq_matches_numpy(dtype, ashape, bshape):
    a = _rand(ashape, dtype, seed=12)
    b = _rand(bshape, dtype, seed=13)
    ex, er, erank, es = numpy.linalg.lstsq(a, b)
    x, r, rank, s = cp.linalg.lstsq(_dev(a), _dev(b))
    assert isinstance(rank, int) and rank == erank
    for g, e in ((x, ex), (r, er), (s, es)):
        assert g.shape == e.shape and g.dtype == e.dtype
        if e.size:
            assert _rel(g.get(), e) < 100 * _tol(e.dtype)


@gpu
def test_lstsq_rank_deficient_and_errors():
    rng = numpy.random.default_rng(3)
    a = numpy.outer(rng.standard_normal(6), rng.standard_normal(3))
    b = rng.standard_normal(6)
    ex, er, erank, es = numpy.linalg.lstsq(a, b)
    x, r, rank, s = cp.linalg.lstsq(_dev(a), _dev(b))
    assert rank == erank == 1 and r.shape == er.shape == (0,)
    assert _rel(x.get(), ex) < 1e-10
    a2 = a + numpy.diag([1.0, 0.5, 1e-3])[[0, 1, 2, 0, 1, 2]]
    for rcond in (0.9, 1e-2, None):
        e = numpy.linalg.lstsq(a2, b, rcond=rcond)
        g = cp.linalg.lstsq(_dev(a2), _dev(b), rcond=rcond)
        assert g[2] == e[2] and g[1].shape == e[1].shape and _rel(g[0].get(), e[0]) < 1e-8, rcond
    with pytest.raises(LinAlgError, match="Incompatible dimensions"):
        cp.linalg.lstsq(cp.ones((3, 2)), cp.ones(4))
    with pytest.raises(LinAlgError, match="3-dimensional array given"):
        cp.linalg.lstsq(cp.ones((2, 3, 2)), cp.ones(3))


@gpu
def test_matrix_rank_matches_numpy():
    rng = numpy.random.default_rng(4)
    low = numpy.outer(rng.standard_normal(6), rng.standard_normal(5)) + numpy.outer(rng.standard_normal(6),
                                                                                   rng.standard_normal(5))
    cases = [numpy.eye(4), low, low.astype(numpy.float32), numpy.zeros((3, 3)), numpy.stack([numpy.eye(3), low[:3, :3]]),
             (low[:5, :5] + low[:5, :5].T).astype(numpy.complex64), numpy.ones((0, 3))]
    for x in cases:
        e = numpy.linalg.matrix_rank(x)
        g = cp.linalg.matrix_rank(_dev(x))
        assert g.shape == numpy.shape(e) and (g.get() == e).all(), x.shape
    assert cp.linalg.matrix_rank(_dev(low), tol=1e-3).get() == numpy.linalg.matrix_rank(low, tol=1e-3)
    assert cp.linalg.matrix_rank(_dev(low), rtol=0.5).get() == numpy.linalg.matrix_rank(low, rtol=0.5)
    sym = low @ low.T
    assert cp.linalg.matrix_rank(_dev(sym), hermitian=True).get() == numpy.linalg.matrix_rank(sym, hermitian=True)
    assert cp.linalg.matrix_rank(cp.zeros(3)) == 0 and cp.linalg.matrix_rank(cp.ones(3)) == 1
    assert isinstance(cp.linalg.matrix_rank(cp.ones(3)), int)
    with pytest.raises(ValueError, match="can't be both set"):
        cp.linalg.matrix_rank(_dev(low), tol=1.0, rtol=1.0)


# ---- norms and cond --------------------------------------------------------------------------------------------

VECTOR_ORDS = [None, 2, 1, 0, numpy.inf, -numpy.inf, 3, 0.5, -1, -2]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, numpy.inf, -numpy.inf]


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32", "bool", "float16"])
def test_norm_matches_numpy(dtype):
    x = _rand((3, 4, 5), dtype, seed=14)
    d = _dev(x)
    tol = 5e-3 if dtype == "float16" else 1e-4 if dtype in ("float32", "complex64") else 1e-10
    svd_ok = dtype != "float16"

    def check(**kw):
        e = numpy.linalg.norm(x if "axis" in kw or kw.get("ord") is None else x[0], **kw)
        g = cp.linalg.norm(d if "axis" in kw or kw.get("ord") is None else d[0], **kw)
        assert g.shape == numpy.shape(e) and g.dtype == numpy.asarray(e).dtype, kw
        numpy.testing.assert_allclose(g.get(), e, rtol=tol, atol=tol, err_msg=str(kw))

    check()
    check(keepdims=True)
    for ordv in VECTOR_ORDS:
        for axis in (0, -1, (1,)):
            check(ord=ordv, axis=axis)
            check(ord=ordv, axis=axis, keepdims=True)
    for ordv in MATRIX_ORDS:
        if ordv in ("nuc", 2, -2) and not svd_ok:
            continue
        for axis in ((0, 1), (-1, -2), (2, 0)):
            check(ord=ordv, axis=axis)
            check(ord=ordv, axis=axis, keepdims=True)
        check(ord=ordv)  # the 2-D x[0], axis None
    numpy.testing.assert_allclose(cp.linalg.norm(d[0, 0], ord=2).get(), numpy.linalg.norm(x[0, 0], ord=2), rtol=tol)


@gpu
def test_vector_and_matrix_norm():
    x = _rand((3, 4, 5), numpy.float64, seed=15)
    d = _dev(x)
    for kw in ({}, {"axis": 1}, {"axis": (0, 2)}, {"axis": (2, 0), "keepdims": True}, {"ord": 1}, {"ord": numpy.inf},
               {"ord": 0, "axis": -1}, {"keepdims": True}, {"ord": 3, "axis": (0, 1)}):
        e = numpy.linalg.vector_norm(x, **kw)
        g = cp.linalg.vector_norm(d, **kw)
        assert g.shape == numpy.shape(e), kw
        numpy.testing.assert_allclose(g.get(), e, rtol=1e-12, err_msg=str(kw))
    for kw in ({}, {"ord": "nuc"}, {"ord": 2}, {"ord": -numpy.inf, "keepdims": True}, {"ord": 1}):
        e = numpy.linalg.matrix_norm(x, **kw)
        g = cp.linalg.matrix_norm(d, **kw)
        assert g.shape == e.shape, kw
        numpy.testing.assert_allclose(g.get(), e, rtol=1e-12, err_msg=str(kw))


@gpu
def test_norm_errors():
    d = cp.ones((2, 3, 4))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        cp.linalg.norm(d, ord="fro", axis=0)
    with pytest.raises(ValueError, match="Invalid norm order 'abc' for vectors"):
        cp.linalg.norm(d, ord="abc", axis=0)
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        cp.linalg.norm(d, ord=3, axis=(0, 1))
    with pytest.raises(ValueError, match="Improper number of dimensions to norm"):
        cp.linalg.norm(d, ord=2)
    with pytest.raises(ValueError, match="Duplicate axes given"):
        cp.linalg.norm(d, axis=(1, 1))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.linalg.norm(d, axis=(0, 5))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.linalg.norm(d, axis=3)
    with pytest.raises(TypeError, match="'axis' must be None, an integer or a tuple of integers"):
        cp.linalg.norm(d, axis=[0, 1])


@gpu
@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, numpy.inf, -numpy.inf, "fro", "nuc"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64"])
def test_cond_matches_numpy(p, dtype):
    x = _rand((3, 4, 4), dtype, seed=16) + 3 * numpy.eye(4, dtype=dtype)
    e = numpy.linalg.cond(x, p)
    g = cp.linalg.cond(_dev(x), p)
    assert g.shape == e.shape and g.dtype == e.dtype
    numpy.testing.assert_allclose(g.get(), e, rtol=100 * _tol(dtype))


@gpu
def test_cond_singular_and_empty():
    sing = numpy.array([[1.0, 2.0], [2.0, 4.0]])
    for p in (None, 1, "fro"):
        e = numpy.linalg.cond(sing, p)
        g = cp.linalg.cond(_dev(sing), p).get()
        assert g > 1e12 if e > 1e12 else numpy.isclose(g, e, rtol=1e-6), (p, g, e)
    with pytest.raises(LinAlgError, match="cond is not defined on empty arrays"):
        cp.linalg.cond(cp.ones((0, 0)))
    with pytest.raises(LinAlgError, match="square"):
        cp.linalg.cond(cp.ones((2, 3)), 1)


# ---- tensorsolve / tensorinv -----------------------------------------------------------------------------------


@gpu
def test_tensorsolve_tensorinv():
    rng = numpy.random.default_rng(17)
    a = numpy.eye(2 * 3 * 4).reshape(2 * 3, 4, 2, 3, 4) + 0.1 * rng.standard_normal((6, 4, 2, 3, 4))
    b = rng.standard_normal((2 * 3, 4))
    e = numpy.linalg.tensorsolve(a, b)
    g = cp.linalg.tensorsolve(_dev(a), _dev(b))
    assert g.shape == e.shape
    assert _rel(g.get(), e) < 1e-10
    b2 = rng.standard_normal((3, 4))
    a2 = numpy.eye(12).reshape(3, 4, 3, 4) + 0.1 * rng.standard_normal((3, 4, 3, 4))
    e = numpy.linalg.tensorsolve(a2, b2, axes=(0,))
    g = cp.linalg.tensorsolve(_dev(a2), _dev(b2), axes=(0,))
    assert g.shape == e.shape and _rel(g.get(), e) < 1e-10
    with pytest.raises(LinAlgError):
        cp.linalg.tensorsolve(cp.ones((2, 3, 4)), cp.ones(2))
    t = numpy.eye(4 * 6).reshape(4, 6, 8, 3) + 0.1 * rng.standard_normal((4, 6, 8, 3))
    for ind in (2, 1):
        if ind == 1:
            t = numpy.eye(24).reshape(24, 8, 3) + 0.1 * rng.standard_normal((24, 8, 3))
        e = numpy.linalg.tensorinv(t, ind=ind)
        g = cp.linalg.tensorinv(_dev(t), ind=ind)
        assert g.shape == e.shape and _rel(g.get(), e) < 1e-10
    with pytest.raises(ValueError, match="Invalid ind argument"):
        cp.linalg.tensorinv(_dev(t), ind=0)


# ---- batched paths and sizes beyond the batched routines' limits ---------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_many_small_matrices(dtype):
    x = _rand((64, 8, 8), dtype, seed=18)
    s = cp.linalg.svd(_dev(x), compute_uv=False).get()
    assert _rel(s, numpy.linalg.svd(x, compute_uv=False)) < _tol(dtype)
    h = _spd((64, 8, 8), dtype)
    assert _rel(cp.linalg.eigvalsh(_dev(h)).get(), numpy.linalg.eigvalsh(h)) < _tol(dtype)
    assert _rel(cp.linalg.cholesky(_dev(h)).get(), numpy.linalg.cholesky(h)) < _tol(dtype)
    assert _rel(cp.linalg.inv(_dev(h)).get(), numpy.linalg.inv(h)) < 10 * _tol(dtype)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_one_larger_matrix(dtype):
    x = _rand((300, 256), dtype, seed=19)
    u, s, vh = (r.get() for r in cp.linalg.svd(_dev(x), full_matrices=False))
    assert _rel((u * s) @ vh, x) < _tol(dtype)
    assert _rel(s, numpy.linalg.svd(x, compute_uv=False)) < _tol(dtype)


@gpu
@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_integer_and_bool_input_computes_in_float64(dtype):
    x = _rand((2, 5, 4), dtype, seed=20)
    es = numpy.linalg.svd(x, compute_uv=False)
    u, s, vh = cp.linalg.svd(_dev(x), full_matrices=False)
    assert u.dtype == s.dtype == vh.dtype == numpy.float64
    assert _rel(s.get(), es) < 1e-10
    assert _rel((u.get() * s.get()[..., None, :]) @ vh.get(), x) < 1e-10
    q, r = cp.linalg.qr(_dev(x))
    assert q.dtype == r.dtype == numpy.float64 and _rel(q.get() @ r.get(), x) < 1e-10
    sq = _rand((3, 4, 4), dtype, seed=21)
    w = cp.linalg.eigvalsh(_dev(sq))
    assert w.dtype == numpy.float64 and _rel(w.get(), numpy.linalg.eigvalsh(sq)) < 1e-10


# -- fuzz regressions ------------------------------------------------------------------------------------------

# LAPACK's gesv factors A even with no right-hand sides, so NumPy raises for a singular A and an empty b
# (fuzz 0:848, 0:2900); an empty stack of matrices has nothing to factor.
@gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("shapes", [((3, 3), (3, 0)), ((2, 2), (2, 0)), ((2, 3, 3), (2, 3, 0)),
                                    ((0, 3, 3), (0, 3, 0)), ((0, 0), (0, 0))], ids=repr)
@testing.numpy_cuarray_equal()
def test_solve_singular_with_empty_rhs_raises(xp, dtype, shapes):
    a = numpy.ones(shapes[0], dtype=dtype)
    a[..., :, -1:] = 0
    return xp.linalg.solve(xp.asarray(a), xp.zeros(shapes[1], dtype=dtype))


# A zero column stays exactly zero through any LU (LAPACK's and cuSOLVER's), so both meet an exact zero pivot.
@gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128])
@testing.numpy_cuarray_equal()
def test_inv_of_a_zero_column_matrix_raises(xp, dtype):
    a = numpy.array([[0.451, -0.027, 0.0], [-3.064, 5.471, 0.0], [0.451, -0.027, 0.0]], dtype=dtype)
    return xp.linalg.inv(xp.asarray(a))


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int32", "bool"])
def test_norm_one_pass_layouts(dtype):
    # The 2-norm and Frobenius norm are one reduction read in place: strided, reversed and transposed views.
    x = _rand((6, 7, 9), dtype, seed=21)
    d = _dev(x)
    tol = 5e-3 if dtype == "float16" else 1e-5 if dtype in ("float32", "complex64") else 1e-12
    views = [(x, d), (x[::-1, ::2], d[::-1, ::2]), (x.transpose(2, 0, 1), d.transpose(2, 0, 1))]
    for xv, dv in views:
        for kw in ({}, {"keepdims": True}, {"axis": 1}, {"axis": -1, "keepdims": True}, {"ord": 2, "axis": 0},
                   {"axis": (0, 2)}, {"ord": "fro", "axis": (2, 1), "keepdims": True}):
            e = numpy.linalg.norm(xv, **kw)
            g = cp.linalg.norm(dv, **kw)
            assert g.shape == numpy.shape(e) and g.dtype == numpy.asarray(e).dtype, kw
            numpy.testing.assert_allclose(g.get(), e, rtol=tol, atol=tol, err_msg=str(kw))
        for kw in ({}, {"axis": (2, 0)}, {"axis": 1, "keepdims": True}, {"ord": 2, "axis": (0, 1, 2)}):
            e = numpy.linalg.vector_norm(xv, **kw)
            g = cp.linalg.vector_norm(dv, **kw)
            assert g.shape == numpy.shape(e) and g.dtype == numpy.asarray(e).dtype, kw
            numpy.testing.assert_allclose(g.get(), e, rtol=tol, atol=tol, err_msg=str(kw))
    # 0-d, empty and non-finite inputs
    for xv in (numpy.array(3.0, dtype="float64"), numpy.zeros((0, 4), "float32"),
               numpy.array([1.0, numpy.inf, numpy.nan]), numpy.array([-numpy.inf, 2.0])):
        numpy.testing.assert_allclose(cp.linalg.norm(_dev(xv)).get(), numpy.linalg.norm(xv))
        numpy.testing.assert_allclose(cp.linalg.vector_norm(_dev(xv)).get(), numpy.linalg.vector_norm(xv))
