"""poly1d, polyfit, polyval, roots, poly, polyadd/sub/mul/div, polyder, polyint and cuarray.polynomial against NumPy.

CPU tests: the names, and the errors raised before any device use. GPU tests: every routine over int64, float32,
float64 and complex128 coefficients and points, with the edge cases (zero polynomial, leading zeros, 0-d and 1-d
inputs, poly1d arithmetic, printing) and NumPy's exceptions.
"""
import warnings

import numpy
import numpy.polynomial.polynomial as npp
import pytest

import cuarray as cp

gpu = pytest.mark.gpu
DTYPES = [numpy.int64, numpy.float32, numpy.float64, numpy.complex128]


def _coeffs(dtype, n, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind == 'i':
        return rng.integers(-5, 6, n).astype(dtype)
    v = rng.standard_normal(n)
    if numpy.dtype(dtype).kind == 'c':
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dtype)


def _close(ours, theirs, rtol=None):
    """Same dtype, shape and values (a 0-d cuarray array stands for NumPy's scalar)."""
    from cuarray._core import ndarray
    got = ours.get() if isinstance(ours, ndarray) else numpy.asarray(ours)
    theirs = numpy.asarray(theirs)
    assert got.dtype == theirs.dtype, (got.dtype, theirs.dtype)
    assert got.shape == theirs.shape, (got.shape, theirs.shape)
    if rtol is None:
        rtol = 1e-4 if got.dtype in (numpy.float32, numpy.complex64) else 1e-10
    numpy.testing.assert_allclose(got, theirs, rtol=rtol, atol=rtol)


def _poly_close(ours, theirs):
    assert isinstance(ours, cp.poly1d) and isinstance(theirs, numpy.poly1d)
    _close(ours.coeffs, theirs.coeffs)


# -- CPU

def test_names():
    for name in ['poly1d', 'polyfit', 'polyval', 'roots', 'poly', 'polyadd', 'polysub', 'polymul', 'polydiv',
                 'polyder', 'polyint']:
        assert callable(getattr(cp, name)), name
    for name in ['polyvander', 'polycompanion', 'polyval', 'polyvalfromroots', 'polyadd', 'polysub', 'polymul',
                 'polymulx', 'polyroots', 'polyfromroots']:
        assert callable(getattr(cp.polynomial.polynomial, name)), name
    for name in ['as_series', 'trimseq', 'trimcoef']:
        assert callable(getattr(cp.polynomial.polyutils, name)), name


def test_errors_before_device_use():
    with pytest.raises(ValueError, match='Order of derivative must be positive'):
        cp.polyder([1, 2], m=-1)
    with pytest.raises(ValueError, match='Order of integral must be positive'):
        cp.polyint([1, 2], m=-1)
    with pytest.raises(TypeError, match='deg must be an integer'):
        cp.polynomial.polynomial.polyvander([1.0], 1.5)
    with pytest.raises(ValueError, match='tol must be non-negative'):
        cp.polynomial.polyutils.trimcoef([1.0], -1)


# -- GPU: the poly1d-style functions

@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('xshape', [(), (7,), (3, 4)])
def test_polyval(dtype, xshape):
    p = _coeffs(dtype, 5)
    x = _coeffs(dtype, int(numpy.prod(xshape)), seed=1).reshape(xshape)
    _close(cp.polyval(cp.asarray(p), cp.asarray(x)), numpy.polyval(p, x))
    _close(cp.polyval(p.tolist(), cp.asarray(x)), numpy.polyval(p.tolist(), x))
    _close(cp.polyval(cp.poly1d(p), cp.asarray(x)), numpy.polyval(numpy.poly1d(p), x))


@gpu
def test_polyval_mixed_and_edge_cases():
    _close(cp.polyval([1, 2, 3], 2.5), numpy.polyval([1, 2, 3], 2.5))
    _close(cp.polyval(cp.asarray([1.0, 2.0], dtype=numpy.float32), cp.arange(3)),
           numpy.polyval(numpy.array([1.0, 2.0], numpy.float32), numpy.arange(3)))
    _close(cp.polyval([], cp.arange(3.0)), numpy.polyval([], numpy.arange(3.0)))
    _close(cp.polyval([3], cp.arange(4)), numpy.polyval([3], numpy.arange(4)))
    with pytest.raises(TypeError):
        cp.polyval(cp.asarray(2.0), 1.0)
    comp = cp.polyval([1, 0, 1], cp.poly1d([1, 1]))
    _poly_close(comp, numpy.polyval([1, 0, 1], numpy.poly1d([1, 1])))


@gpu
@pytest.mark.parametrize('d1', DTYPES)
@pytest.mark.parametrize('d2', DTYPES)
@pytest.mark.parametrize('n1, n2', [(3, 3), (2, 5), (5, 2), (1, 4)])
def test_polyadd_sub_mul(d1, d2, n1, n2):
    a, b = _coeffs(d1, n1), _coeffs(d2, n2, seed=3)
    for name in ('polyadd', 'polysub', 'polymul'):
        _close(getattr(cp, name)(cp.asarray(a), cp.asarray(b)), getattr(numpy, name)(a, b))
        _poly_close(getattr(cp, name)(cp.poly1d(a), b), getattr(numpy, name)(numpy.poly1d(a), b))


@gpu
def test_arithmetic_edge_cases():
    _close(cp.polyadd(3, [1, 2]), numpy.polyadd(3, [1, 2]))
    _close(cp.polymul([0, 0, 1, 2], [0, 3]), numpy.polymul([0, 0, 1, 2], [0, 3]))
    _close(cp.polymul([0.0], [1.0, 2.0]), numpy.polymul([0.0], [1.0, 2.0]))
    _close(cp.polysub([1, 2], [1, 2]), numpy.polysub([1, 2], [1, 2]))


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('nu, nv', [(6, 3), (3, 3), (2, 4), (4, 1)])
def test_polydiv(dtype, nu, nv):
    u, v = _coeffs(dtype, nu), _coeffs(dtype, nv, seed=5)
    v[0] = 2
    q, r = cp.polydiv(cp.asarray(u), cp.asarray(v))
    nq, nr = numpy.polydiv(u, v)
    _close(q, nq)
    _close(r, nr)
    q, r = cp.poly1d(u) / cp.poly1d(v)
    nq, nr = numpy.poly1d(u) / numpy.poly1d(v)
    _poly_close(q, nq)
    _poly_close(r, nr)


@gpu
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('m', [0, 1, 2, 6])
def test_polyder_polyint(dtype, m):
    p = _coeffs(dtype, 5)
    _close(cp.polyder(cp.asarray(p), m), numpy.polyder(p, m))
    _close(cp.polyint(cp.asarray(p), m), numpy.polyint(p, m))
    _close(cp.polyint(cp.asarray(p), m, k=2), numpy.polyint(p, m, k=2))
    if m:
        k = numpy.arange(1.0, m + 1)
        _close(cp.polyint(cp.asarray(p), m, k=cp.asarray(k)), numpy.polyint(p, m, k=k))
    _poly_close(cp.poly1d(p).deriv(m), numpy.poly1d(p).deriv(m))
    _poly_close(cp.poly1d(p).integ(m, k=1), numpy.poly1d(p).integ(m, k=1))
    with pytest.raises(ValueError):
        cp.polyint(cp.asarray(p), 3, k=[1, 2])


@gpu
@pytest.mark.parametrize('p', [[1, -3, 2], [2.0, 0, 0, -4], [0, 0, 1, 2, 5], [1, 0, 1], [3], [0, 0], [1j, 2, 1 - 1j],
                               [1.0, 2.0, 0.0, 0.0]])
def test_roots_and_poly(p):
    ours, theirs = cp.roots(cp.asarray(p)), numpy.roots(p)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    numpy.testing.assert_allclose(numpy.sort_complex(ours.get()), numpy.sort_complex(theirs), atol=1e-10)
    _close(cp.poly(cp.asarray(theirs)), numpy.poly(theirs))
    with pytest.raises(ValueError):
        cp.roots(cp.ones((2, 2)))


@gpu
def test_poly_of_matrix():
    a = numpy.array([[1.0, 2.0], [3.0, 4.0]])
    _close(cp.poly(cp.asarray(a)), numpy.poly(a))
    _poly_close(cp.poly1d([1, 2], r=True), numpy.poly1d([1, 2], r=True))


@gpu
@pytest.mark.parametrize('dtype', [numpy.int64, numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize('deg', [0, 1, 3])
def test_polyfit(dtype, deg):
    x = numpy.linspace(-2, 3, 40).astype(dtype if numpy.dtype(dtype).kind != 'i' else numpy.float64)
    if numpy.dtype(dtype).kind == 'i':
        x = numpy.arange(-20, 20).astype(dtype)
    y = numpy.polyval(_coeffs(numpy.float64, deg + 1), x) + 0.01 * numpy.sin(7 * numpy.arange(40))
    y2 = numpy.stack([y, 2 * y + 1], axis=1)
    rtol = 1e-3 if dtype == numpy.float32 else 1e-7
    _close(cp.polyfit(cp.asarray(x), cp.asarray(y), deg), numpy.polyfit(x, y, deg), rtol)
    _close(cp.polyfit(cp.asarray(x), cp.asarray(y2), deg), numpy.polyfit(x, y2, deg), rtol)
    w = numpy.linspace(0.5, 2.0, 40)
    _close(cp.polyfit(cp.asarray(x), cp.asarray(y), deg, w=cp.asarray(w)), numpy.polyfit(x, y, deg, w=w), rtol)
    c, res, rank, sv, rcond = cp.polyfit(cp.asarray(x), cp.asarray(y), deg, full=True)
    nc, nres, nrank, nsv, nrcond = numpy.polyfit(x, y, deg, full=True)
    _close(c, nc, rtol)
    _close(res, nres, 1e-3)
    assert rank == nrank and rcond == nrcond
    _close(sv, nsv, rtol)
    for cov in (True, 'unscaled'):
        c, v = cp.polyfit(cp.asarray(x), cp.asarray(y), deg, cov=cov)
        nc, nv = numpy.polyfit(x, y, deg, cov=cov)
        _close(v, nv, 1e-3 if dtype == numpy.float32 else 1e-6)


@gpu
def test_polyfit_errors_and_warning():
    x = cp.arange(5.0)
    for args, kw in [((x, x, -1), {}), ((cp.ones((2, 2)), x, 1), {}), ((cp.ones(0), cp.ones(0), 1), {}),
                     ((x, cp.ones((5, 2, 2)), 1), {}), ((x, cp.ones(4), 1), {}),
                     ((x, x, 1), {'w': cp.ones((5, 1))}), ((x, x, 1), {'w': cp.ones(4)}),
                     ((x, x, 5), {'cov': True})]:
        hx = [a.get() if isinstance(a, cp.ndarray) else a for a in args]
        hkw = {k: v.get() if isinstance(v, cp.ndarray) else v for k, v in kw.items()}
        with pytest.raises(Exception) as theirs, warnings.catch_warnings():
            warnings.simplefilter('ignore')
            numpy.polyfit(*hx, **hkw)
        with pytest.raises(theirs.type), warnings.catch_warnings():
            warnings.simplefilter('ignore')
            cp.polyfit(*args, **kw)
    with pytest.warns(numpy.exceptions.RankWarning):
        cp.polyfit(cp.asarray([1.0, 1.0, 1.0]), cp.asarray([1.0, 2.0, 3.0]), 2)


# -- GPU: the poly1d class

@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_poly1d_basics(dtype):
    c = _coeffs(dtype, 4)
    c[0] = 3
    p, q = cp.poly1d(cp.asarray(c)), numpy.poly1d(c)
    _close(p.coeffs, q.coeffs)
    assert p.order == q.order == len(p) and p.variable == 'x'
    assert repr(p) == repr(q) and str(p) == str(q)
    assert str(cp.poly1d(c, variable='z')) == str(numpy.poly1d(c, variable='z'))
    x = _coeffs(dtype, 6, seed=7)
    _close(p(cp.asarray(x)), q(x))
    for k in (0, 2, 3, 5, -1):
        _close(p[k], q[k])
    _poly_close(-p, -q)
    _poly_close(p * 2, q * 2)
    _poly_close(2 * p, 2 * q)
    _poly_close(p + [1, 2], q + [1, 2])
    _poly_close([1, 2] + p, [1, 2] + q)
    _poly_close(p - 1, q - 1)
    _poly_close(1 - p, 1 - q)
    _poly_close(p * p, q * q)
    _poly_close(p ** 3, q ** 3)
    _poly_close(p ** 0, q ** 0)
    _poly_close(p / 2, q / 2)
    assert p == cp.poly1d(c) and not (p != cp.poly1d(c)) and p != cp.poly1d(c[1:])
    assert [complex(v) for v in p] == [complex(v) for v in q]
    with pytest.raises(ValueError):
        p ** -1
    with pytest.raises(ValueError):
        p ** 1.5


@gpu
def test_poly1d_edge_cases():
    for c in ([0, 0, 1, 2], [0, 0, 0], [], 5, [0.0]):
        p, q = cp.poly1d(c), numpy.poly1d(c)
        _close(p.coeffs, q.coeffs)
        assert p.order == q.order and str(p) == str(q) and repr(p) == repr(q)
    with pytest.raises(ValueError):
        cp.poly1d(cp.ones((2, 2)))
    p, q = cp.poly1d([1, 2]), numpy.poly1d([1, 2])
    p[4] = 7
    q[4] = 7
    _poly_close(p, q)
    p[0] = 3
    q[0] = 3
    _poly_close(p, q)
    with pytest.raises(ValueError):
        p[-1] = 1
    with pytest.raises(AttributeError):
        p.coeffs = cp.ones(3)
    numpy.testing.assert_allclose(numpy.sort_complex(cp.poly1d([1, -3, 2]).roots.get()), [1, 2])
    assert isinstance(p.get(), numpy.poly1d)
    assert cp.poly1d(p, variable='t').variable == 't'
    with pytest.raises(TypeError):
        numpy.asarray(p, dtype=float)


# -- GPU: cuarray.polynomial.polynomial and polyutils

@gpu
@pytest.mark.parametrize('dtype', DTYPES)
def test_power_series_functions(dtype):
    c1, c2 = _coeffs(dtype, 4), _coeffs(dtype, 2, seed=4)
    c1[-1] = 2
    x = _coeffs(dtype, 5, seed=9)
    P = cp.polynomial.polynomial
    for deg in (0, 1, 4):
        _close(P.polyvander(cp.asarray(x), deg), npp.polyvander(x, deg))
    _close(P.polyvander(cp.asarray(x[0]), 2), npp.polyvander(x[0], 2))
    _close(P.polycompanion(cp.asarray(c1)), npp.polycompanion(c1))
    _close(P.polycompanion(cp.asarray(c1[:2])), npp.polycompanion(c1[:2]))
    _close(P.polyval(cp.asarray(x), cp.asarray(c1)), npp.polyval(x, c1))
    _close(P.polyval(2.0, cp.asarray(c1)), npp.polyval(2.0, c1))
    c2d = numpy.stack([c1, c1 * 2], axis=1)
    _close(P.polyval(cp.asarray(x), cp.asarray(c2d)), npp.polyval(x, c2d))
    _close(P.polyval(cp.asarray(x[:2]), cp.asarray(c2d), tensor=False), npp.polyval(x[:2], c2d, tensor=False))
    _close(P.polyvalfromroots(cp.asarray(x), cp.asarray(c1)), npp.polyvalfromroots(x, c1))
    _close(P.polyvalfromroots(cp.asarray(x[:2]), cp.asarray(c2d[:3]), tensor=False),
           npp.polyvalfromroots(x[:2], c2d[:3], tensor=False))
    for name in ('polyadd', 'polysub', 'polymul'):
        _close(getattr(P, name)(cp.asarray(c1), cp.asarray(c2)), getattr(npp, name)(c1, c2))
    _close(P.polymulx(cp.asarray(c1)), npp.polymulx(c1))
    _close(P.polymulx([0]), npp.polymulx([0]))
    _close(P.polyadd([1, 2, 3], [1, 2, -3]), npp.polyadd([1, 2, 3], [1, 2, -3]))
    r = P.polyroots(cp.asarray(c1))
    nr = npp.polyroots(c1)
    assert r.dtype == nr.dtype
    numpy.testing.assert_allclose(numpy.sort_complex(r.get()), numpy.sort_complex(nr), atol=1e-4)
    _close(P.polyfromroots(cp.asarray(c1)), npp.polyfromroots(c1))


@gpu
def test_power_series_errors():
    P, pu = cp.polynomial.polynomial, cp.polynomial.polyutils
    with pytest.raises(ValueError):
        P.polyvander(cp.arange(3.0), -1)
    with pytest.raises(ValueError):
        P.polycompanion([1.0])
    with pytest.raises(ValueError):
        P.polyvalfromroots(cp.ones((2, 2)), cp.ones(2), tensor=False)
    with pytest.raises(ValueError):
        pu.as_series([[]])
    with pytest.raises(ValueError):
        pu.as_series([cp.ones((2, 2))])


@gpu
def test_polyutils():
    import numpy.polynomial.polyutils as npu
    pu = cp.polynomial.polyutils
    for c in ([1.0, 2.0, 0.0, 0.0], [0.0, 0.0], [3.0], [1, 0, 2, 0]):
        _close(pu.trimseq(cp.asarray(c)), npu.trimseq(numpy.asarray(c)))
        for tol in (0, 1.5):
            _close(pu.trimcoef(cp.asarray(c), tol), npu.trimcoef(numpy.asarray(c), tol))
    ours = pu.as_series([cp.asarray([1, 2, 0]), cp.asarray([1.0], dtype=numpy.float32)])
    theirs = npu.as_series([numpy.asarray([1, 2, 0]), numpy.asarray([1.0], dtype=numpy.float32)])
    for a, b in zip(ours, theirs):
        _close(a, b)
    for a, b in zip(pu.as_series([[1, 0]], trim=False), npu.as_series([[1, 0]], trim=False)):
        _close(a, b)
