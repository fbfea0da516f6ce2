"""cuarray.scipy.ndimage interpolation (map_coordinates, affine_transform, shift, zoom, rotate, spline_filter(1d))
and Fourier filters against scipy.ndimage: every order, mode, dtype, 1-d to 3-d, views, output= and errors.

GPU tests run the real kernels. CPU tests compile the same generated kernels for the host (g++, through
_ndimage_interp_host) and run the whole module on NumPy arrays, so CI checks them against SciPy without a device;
they also compile every kernel kind with NVRTC.

SciPy before 1.18 initialises the reflect-family prefilter with an aliasing bug (gh-24615: c[0] is accumulated
in place while the sum still reads it, visible on short lines); cuarray implements the corrected rule, so with an
older SciPy the reference's spline_filter1d is replaced, for those modes only, by a NumPy transcription of the
corrected recursion.
"""
import math
import warnings

import numpy
import pytest
import scipy
import scipy.ndimage as sndi
import scipy.ndimage._interpolation as _sinterp

import cuarray as cp
import cuarray.scipy.ndimage as cndi
from cuarray.scipy.ndimage import _interp_kernels, _interpolation
from _ndimage_interp_host import host_interpolation

gpu = pytest.mark.gpu

MODES = ['constant', 'grid-constant', 'nearest', 'reflect', 'grid-mirror', 'mirror', 'grid-wrap', 'wrap']
ORDERS = list(range(6))
_OLD_SCIPY = tuple(int(v) for v in scipy.__version__.split('.')[:2]) < (1, 18)


# -- reference ---------------------------------------------------------------------------------------------
def _ref_spline_line(c, order, mode):
    """The corrected prefilter along the last axis of float64 c (lines in rows), in NumPy."""
    c = c.astype(numpy.float64).copy()
    n = c.shape[-1]
    if n < 2:
        return c
    c *= _interp_kernels.gain(order)
    for z in _interp_kernels.POLES[order]:
        zn = z ** n
        s = c[..., 0] + zn * c[..., n - 1]
        zi = z
        for i in range(1, n):
            s = s + zi * (c[..., i] + zn * c[..., n - 1 - i])
            zi *= z
        c[..., 0] += s * z / (1 - zn * zn)
        for i in range(1, n):
            c[..., i] += z * c[..., i - 1]
        c[..., n - 1] *= z / (z - 1)
        for i in range(n - 2, -1, -1):
            c[..., i] = z * (c[..., i + 1] - c[..., i])
    return c


@pytest.fixture
def sref(monkeypatch):
    """scipy.ndimage, with the reflect-family prefilter corrected where the installed SciPy predates 1.18."""
    if _OLD_SCIPY:
        original = _sinterp.spline_filter1d

        def fixed(input, order=3, axis=-1, output=numpy.float64, mode='mirror'):
            x = numpy.asarray(input)
            if mode not in ('reflect', 'grid-mirror', 'nearest') or order < 2 or numpy.iscomplexobj(x):
                return original(input, order, axis, output, mode)
            axis = axis % x.ndim
            r = numpy.moveaxis(_ref_spline_line(numpy.moveaxis(x, axis, -1), order, mode), -1, axis)
            if isinstance(output, numpy.ndarray):
                output[...] = r
                return output
            return r.astype(output)

        monkeypatch.setattr(_sinterp, 'spline_filter1d', fixed)
        monkeypatch.setattr(sndi, 'spline_filter1d', fixed)
    return sndi


# -- data --------------------------------------------------------------------------------------------------
SHAPES = {1: (23,), 2: (9, 11), 3: (5, 6, 7)}


def _input(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind == 'b':
        return rng.random(shape) > 0.5
    if dtype.kind == 'u':
        return rng.integers(0, 200, shape).astype(dtype)
    if dtype.kind == 'i':
        return rng.integers(-100, 100, shape).astype(dtype)
    if dtype.kind == 'c':
        return (rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape) * 10).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def _coords(shape, npts, seed=1):
    """Points inside, near and beyond every edge, at integers and half-integers too."""
    rng = numpy.random.default_rng(seed)
    cols = []
    for n in shape:
        c = rng.uniform(-3.5, n + 2.5, npts)
        c[:8] = [0, n - 1, -1, n, 0.5, n - 1.5, -0.5, n - 0.5]
        cols.append(c)
    return numpy.array(cols)


def _tol(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.kind in 'iub':
        return dict(rtol=0, atol=1)  # an interpolated x.5 an ulp apart rounds to the neighbouring integer
    if dtype in (numpy.float32, numpy.complex64):
        return dict(rtol=2e-4, atol=2e-4)
    return dict(rtol=1e-9, atol=1e-9)


def _compare(got, want, tol_dtype=None):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = _tol(want.dtype if tol_dtype is None else tol_dtype)
    if want.dtype.kind == 'b':
        numpy.testing.assert_array_equal(got, want)
    else:
        numpy.testing.assert_allclose(got, want, **tol)


def _compare_bool(got, want, t):
    """A bool result is SciPy's C cast of the interpolated double t, true from |t| >= 1: where t is a few ulps from 1
    (an order >= 2 spline at a sample point of a 0/1 image), cuarray's and SciPy's summation orders may fall on
    either side, as an x.5 may for integer results (_tol). Elsewhere the results must agree exactly."""
    got = numpy.asarray(got)
    assert got.dtype == want.dtype == numpy.bool_, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    differ = got != want
    assert numpy.all(numpy.abs(numpy.abs(t[differ]) - 1) < 1e-9), (numpy.argwhere(differ), t[differ])


def _scaled_tol_compare(got, want, scale):
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=2e-4, atol=2e-4 * scale)


# -- the cases, run on the host (CPU) and on the device (GPU) ------------------------------------------------
def _map_case(ndi, x, order, mode, **kw):
    return ndi.map_coordinates(x, _coords(x.shape, 40), order=order, mode=mode, cval=1.5, **kw)


TRANSFORM_CASES = [
    ('affine2', lambda ndi, x, o, m: ndi.affine_transform(x, _rot(x.ndim), offset=0.7, order=o, mode=m, cval=-2.0)),
    ('affine_homogeneous', lambda ndi, x, o, m: ndi.affine_transform(
        x, _homog(x.ndim), output_shape=tuple(s + 2 for s in x.shape), order=o, mode=m)),
    ('affine_diag', lambda ndi, x, o, m: ndi.affine_transform(x, [1.3, 0.8, 1.1][:x.ndim], [0.5, -1.2, 2.0][:x.ndim],
                                                            order=o, mode=m, cval=3.0)),
    ('shift', lambda ndi, x, o, m: ndi.shift(x, [1.7, -2.4, 0.3][:x.ndim], order=o, mode=m, cval=0.5)),
    ('shift_int', lambda ndi, x, o, m: ndi.shift(x, 2, order=o, mode=m)),
    ('zoom', lambda ndi, x, o, m: ndi.zoom(x, [1.6, 0.7, 1.3][:x.ndim], order=o, mode=m, cval=1.0)),
    ('zoom_grid', lambda ndi, x, o, m: ndi.zoom(x, 2.3, order=o, mode=m, grid_mode=True)),
]


def _rot(ndim):
    m = numpy.eye(ndim)
    if ndim > 1:
        a = 0.4
        m[:2, :2] = [[math.cos(a) * 1.1, math.sin(a)], [-math.sin(a), math.cos(a) * 0.9]]
    else:
        m[0, 0] = 0.85
    return m


def _homog(ndim):
    m = numpy.eye(ndim + 1)
    m[:ndim, :ndim] = _rot(ndim)
    m[:ndim, ndim] = numpy.arange(ndim) - 1.3
    return m


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return fn()


# -- CPU: host emulation -----------------------------------------------------------------------------------
@pytest.fixture
def host():
    with host_interpolation(chunk=4) as ndi:
        yield ndi


@pytest.mark.parametrize('order', ORDERS)
def test_host_map_coordinates_orders_modes(host, sref, order):
    for ndim in (1, 2):
        x = _input(SHAPES[ndim], numpy.float64)
        for mode in MODES:
            _compare(_map_case(host, x, order, mode), _map_case(sref, x, order, mode))
    x = _input(SHAPES[3], numpy.float64)
    for mode in ('constant', 'nearest', 'grid-wrap', 'reflect'):
        _compare(_map_case(host, x, order, mode), _map_case(sref, x, order, mode))


@pytest.mark.parametrize('order', ORDERS)
def test_host_map_coordinates_no_prefilter(host, sref, order):
    x = _input((12, 10), numpy.float64)
    for mode in MODES:
        _compare(_map_case(host, x, order, mode, prefilter=False), _map_case(sref, x, order, mode, prefilter=False))


@pytest.mark.parametrize('order', [2, 3, 4, 5])
def test_host_spline_filter_long_lines(host, sref, order):
    # Lines of 60 samples in chunks of 4: chunks start on the warm-up path and on SciPy's exact initial values.
    x = _input((60, 3), numpy.float64)
    for mode in MODES:
        for axis in (0, 1, -1):
            _compare(host.spline_filter1d(x, order, axis, mode=mode), sref.spline_filter1d(x, order, axis, mode=mode))
        _compare(host.spline_filter(x.T, order, mode=mode), sref.spline_filter(x.T, order, mode=mode))


def test_host_spline_filter_dtypes_and_outputs(host, sref):
    for dtype in ('uint8', 'int16', 'float32', 'bool'):
        x = _input((7, 8), dtype)
        for out in (numpy.float64, numpy.float32, 'float64'):
            _compare(host.spline_filter(x, 3, output=out), sref.spline_filter(x, 3, output=out))
    x = _input((7, 8), 'float64')
    _compare(host.spline_filter1d(x, 1, 0), sref.spline_filter1d(x, 1, 0))
    _compare(host.spline_filter1d(x, 0, 1, output=numpy.int32), sref.spline_filter1d(x, 0, 1, output=numpy.int32))
    _compare(host.spline_filter(x[::2, ::-1], 4, mode='grid-wrap'), sref.spline_filter(x[::2, ::-1], 4,
                                                                                         mode='grid-wrap'))
    _compare(host.spline_filter(numpy.ones((1, 5)), 2), sref.spline_filter(numpy.ones((1, 5)), 2))
    _compare(host.spline_filter(numpy.array(2.0)), sref.spline_filter(numpy.array(2.0)))
    o1, o2 = numpy.zeros((7, 8), numpy.float32), numpy.zeros((7, 8), numpy.float32)
    assert host.spline_filter(x, 5, output=o1) is o1
    _compare(o1, sref.spline_filter(x, 5, output=o2))
    xc = _input((6, 5), numpy.complex128)
    _compare(host.spline_filter(xc, 3, mode='reflect'), sref.spline_filter(xc, 3, mode='reflect'))
    _compare(host.spline_filter1d(xc, 2, 0), sref.spline_filter1d(xc, 2, 0))


@pytest.mark.parametrize('name,fn', TRANSFORM_CASES, ids=[c[0] for c in TRANSFORM_CASES])
def test_host_transforms(host, sref, name, fn):
    for ndim in (1, 2, 3):
        x = _input(SHAPES[ndim], numpy.float64)
        for order in ORDERS if ndim < 3 else (1, 3):
            for mode in MODES if ndim < 3 else ('constant', 'mirror', 'grid-constant'):
                _compare(_quiet(lambda: fn(host, x, order, mode)), _quiet(lambda: fn(sref, x, order, mode)))


def test_host_zoom_complex_grid_mode_and_bool(host, sref):
    x = _input((9, 11), numpy.complex128)
    for order in (0, 1, 3):
        for mode in ('grid-constant', 'nearest', 'grid-wrap', 'reflect', 'mirror'):
            # the reference is SciPy's grid_mode zoom of each part (test_transforms says why)
            want = sref.zoom(x.real, 2.3, order=order, mode=mode, grid_mode=True) + \
                1j * sref.zoom(x.imag, 2.3, order=order, mode=mode, grid_mode=True)
            _compare(host.zoom(x, 2.3, order=order, mode=mode, grid_mode=True), want)
    xb = _input((8, 9), 'bool')
    for order in (0, 1, 3, 5):
        _compare_bool(host.zoom(xb, 1.7, order=order), sref.zoom(xb, 1.7, order=order),
                      sref.zoom(xb, 1.7, order=order, output=numpy.float64))


def test_host_rotate(host, sref):
    x2 = _input((9, 12), numpy.float64)
    x3 = _input((5, 7, 6), numpy.float64)
    for angle in (30, -90, 90, 180, 45.5, 270, 400):
        for reshape in (True, False):
            _compare(host.rotate(x2, angle, reshape=reshape), sref.rotate(x2, angle, reshape=reshape))
    for axes in ((1, 0), (0, 2), (2, 1), (-1, -3)):
        for mode, order in (('nearest', 3), ('constant', 1), ('grid-constant', 2), ('wrap', 0)):
            _compare(host.rotate(x3, 33, axes=axes, mode=mode, order=order, cval=2.0),
                     sref.rotate(x3, 33, axes=axes, mode=mode, order=order, cval=2.0))
    xc = _input((6, 8, 3), numpy.complex64)
    _compare(host.rotate(xc, 20, axes=(0, 1), mode='reflect'), sref.rotate(xc, 20, axes=(0, 1), mode='reflect'))
    _compare(host.rotate(_input((6, 8), 'uint8'), 15, order=1), sref.rotate(_input((6, 8), 'uint8'), 15, order=1))


@pytest.mark.parametrize('dtype', ['bool', 'uint8', 'int16', 'int32', 'uint64', 'float32', 'float64', 'complex64',
                                   'complex128'])
def test_host_dtypes(host, sref, dtype):
    x = _input((8, 9), dtype)
    # a bool result truncates the interpolated value: only orders 0 and 1 are exact at the sample points
    for order in (0, 1) if dtype == 'bool' else (0, 1, 3):
        for mode in ('constant', 'reflect'):
            _compare(_map_case(host, x, order, mode), _map_case(sref, x, order, mode))
            _compare(host.zoom(x, 1.5, order=order, mode=mode), sref.zoom(x, 1.5, order=order, mode=mode))
    if dtype[0] != 'c':
        for out in ('float64', numpy.uint8, numpy.int16, numpy.float32, numpy.bool_):
            _compare(host.shift(x, 0.3, output=out, order=1), sref.shift(x, 0.3, output=out, order=1))


def test_host_outputs_views_and_coordinates(host, sref):
    x = _input((10, 12), numpy.float64)
    c = _coords(x.shape, 30).reshape(2, 5, 6)
    _compare(host.map_coordinates(x, c), sref.map_coordinates(x, c))
    for ct in (numpy.float32, numpy.int64, numpy.uint8, numpy.int8, numpy.bool_):
        cc = numpy.abs(c).astype(ct)
        _compare(host.map_coordinates(x, cc, order=1), sref.map_coordinates(x, cc, order=1))
        _compare(host.map_coordinates(x, cc, order=3), sref.map_coordinates(x, cc, order=3))
    cv = numpy.asfortranarray(c)[:, ::-1, ::2]
    _compare(host.map_coordinates(x[::-1, 1::2], cv[:, :, :], mode='mirror'),
             sref.map_coordinates(x[::-1, 1::2], cv[:, :, :], mode='mirror'))
    o1, o2 = numpy.zeros((5, 6), numpy.float32), numpy.zeros((5, 6), numpy.float32)
    assert host.map_coordinates(x, c, output=o1) is o1
    _compare(o1, sref.map_coordinates(x, c, output=o2))
    o1 = numpy.zeros((14, 12)).T
    r = host.affine_transform(x, _rot(2), output=o1, order=2)
    assert r is o1
    _compare(o1, sref.affine_transform(x, _rot(2), output=numpy.zeros((12, 14)), order=2))
    # affine_transform to another rank: a 3-d output sampling a 2-d input
    for m, oshape in (([[1.0], [0.5]], (9,)), ([[1.0, 0.5, 0.0, 2.0], [0.2, 1.0, 0.7, -1.0]], (3, 4, 2, 2))):
        _compare(host.affine_transform(x, m, output_shape=oshape), sref.affine_transform(x, m, output_shape=oshape))
    _compare(host.zoom(x, 1.0), sref.zoom(x, 1.0))
    _compare(host.zoom(x, 1.0, prefilter=False), sref.zoom(x, 1.0, prefilter=False))
    _compare(host.zoom(x, (0.05, 3)), sref.zoom(x, (0.05, 3)))
    for xe in (numpy.zeros((0, 3)), numpy.zeros((3, 0))):
        _compare(host.zoom(xe, 2), sref.zoom(xe, 2))
    nanc = numpy.array([[numpy.nan, 2.0, 1.0], [1.0, numpy.nan, 3.0]])
    for mode in MODES:
        _compare(host.map_coordinates(x, nanc, mode=mode), sref.map_coordinates(x, nanc, mode=mode))


def test_host_complex(host, sref):
    x = _input((7, 9), numpy.complex128)
    for order in (0, 2, 3, 5):
        _compare(host.map_coordinates(x, _coords(x.shape, 20), order=order, cval=1 + 2j, mode='constant'),
                 sref.map_coordinates(x, _coords(x.shape, 20), order=order, cval=1 + 2j, mode='constant'))
        _compare(host.affine_transform(x, _rot(2), order=order, mode='grid-constant', cval=2j),
                 sref.affine_transform(x, _rot(2), order=order, mode='grid-constant', cval=2j))
    _compare(_quiet(lambda: host.zoom(x, 1.4, output=numpy.float32)),
             _quiet(lambda: sref.zoom(x, 1.4, output=numpy.float32)))
    _compare(host.shift(x.astype(numpy.complex64), 1.5, mode='nearest'),
             sref.shift(x.astype(numpy.complex64), 1.5, mode='nearest'))


FOURIER_CASES = [
    ('gaussian', lambda ndi, x, n, ax: ndi.fourier_gaussian(x, [1.5, 0.7, 2.0][:x.ndim], n, ax)),
    ('uniform', lambda ndi, x, n, ax: ndi.fourier_uniform(x, [3.0, 2.5, 1.0][:x.ndim], n, ax)),
    ('ellipsoid', lambda ndi, x, n, ax: ndi.fourier_ellipsoid(x, [4.0, 2.0, 3.0][:x.ndim], n, ax)),
    ('shift', lambda ndi, x, n, ax: ndi.fourier_shift(x, [1.5, -2.25, 0.5][:x.ndim], n, ax)),
]


def _fourier_inputs(ndim):
    shape = {1: (12,), 2: (7, 10), 3: (4, 5, 6)}[ndim]
    yield _input(shape, numpy.complex128)
    yield _input(shape, numpy.complex64)
    yield _input(shape, numpy.float32)
    yield _input(shape, numpy.float64)
    yield _input(shape, numpy.int16)


@pytest.mark.parametrize('name,fn', FOURIER_CASES, ids=[c[0] for c in FOURIER_CASES])
def test_host_fourier(host, name, fn):
    for ndim in (1, 2, 3):
        for x in _fourier_inputs(ndim):
            for n, ax in ((-1, -1), (2 * x.shape[-1] - 1, -1), (2 * x.shape[0] - 2, 0)):
                _compare(fn(host, x, n, ax), fn(sndi, x, n, ax))


def test_host_fourier_outputs(host):
    x = _input((6, 8), numpy.float32)
    xc = _input((6, 8), numpy.complex64)
    for f in (lambda n: n.fourier_gaussian(x, 1.0, output=numpy.float64),
              lambda n: n.fourier_uniform(x, 2.0, output=numpy.complex128),
              lambda n: n.fourier_ellipsoid(xc, 2.0, output=numpy.complex128),
              lambda n: n.fourier_shift(x, 1.0, output=numpy.complex64),
              lambda n: n.fourier_gaussian(x[:, ::-2], 0.0),
              lambda n: n.fourier_gaussian(numpy.ones((1, 5)), numpy.inf),
              lambda n: n.fourier_uniform(x, 0.0),
              lambda n: n.fourier_ellipsoid(numpy.zeros((0, 3)), 1.0),
              lambda n: n.fourier_shift(numpy.ones((1, 5)), numpy.nan)):
        _compare(f(host), f(sndi))
    o1, o2 = numpy.zeros((6, 8), numpy.complex128), numpy.zeros((6, 8), numpy.complex128)
    assert host.fourier_shift(xc, 2.0, output=o1) is o1
    _compare(o1, sndi.fourier_shift(xc, 2.0, output=o2))


BAD_CALLS = [
    lambda n, x, xp: n.map_coordinates(x, [[1.5]], order=6),
    lambda n, x, xp: n.map_coordinates(x, [[1.5]], order=-1),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0], [1.0]]),
    lambda n, x, xp: n.map_coordinates(x, [1.5, 2.0]),
    lambda n, x, xp: n.map_coordinates(x, [[1.5j], [1.0]]),
    lambda n, x, xp: n.map_coordinates(x, numpy.ones((2, 3), numpy.float16)),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], mode='bogus'),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], output='U3'),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], output=numpy.complex64),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], output=numpy.float16),
    lambda n, x, xp: n.map_coordinates(x.astype(numpy.float16), [[1.5], [2.0]]),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], output=xp.zeros((2,))),
    lambda n, x, xp: n.map_coordinates(x, [[1.5], [2.0]], cval=1j),
    lambda n, x, xp: n.spline_filter(x, 1),
    lambda n, x, xp: n.spline_filter(x, 6),
    lambda n, x, xp: n.spline_filter1d(x, 3, axis=2),
    lambda n, x, xp: n.spline_filter1d(x, -1),
    lambda n, x, xp: n.spline_filter1d(x, 3, mode='grid'),
    lambda n, x, xp: n.affine_transform(x, [[1, 2]]),
    lambda n, x, xp: n.affine_transform(x, [[[1.0]]]),
    lambda n, x, xp: n.affine_transform(x, numpy.eye(3) * 2),
    lambda n, x, xp: n.affine_transform(x, numpy.eye(2), output_shape=(3, 3, 3)),
    lambda n, x, xp: n.affine_transform(x, numpy.eye(2), offset=[1, 2, 3]),
    lambda n, x, xp: n.affine_transform(x, numpy.eye(2), order=7),
    lambda n, x, xp: n.shift(x, [1, 2, 3]),
    lambda n, x, xp: n.zoom(x, [1, 2, 3]),
    lambda n, x, xp: n.zoom(x, 2, mode=None),
    lambda n, x, xp: n.rotate(x[0], 30),
    lambda n, x, xp: n.rotate(x, 30, axes=(0, 1, 2)),
    lambda n, x, xp: n.rotate(x, 30, axes=(0, 1.5)),
    lambda n, x, xp: n.rotate(x, 30, axes=(0, 2)),
    lambda n, x, xp: n.fourier_gaussian(x, 1, output=numpy.int32),
    lambda n, x, xp: n.fourier_gaussian(x + 0j, 1, output=numpy.float64),
    lambda n, x, xp: n.fourier_gaussian(x, [1, 2, 3]),
    lambda n, x, xp: n.fourier_uniform(x, 1, axis=3),
    lambda n, x, xp: n.fourier_ellipsoid(xp.ones((2, 2, 2, 2)), 1),
    lambda n, x, xp: n.fourier_shift(x, 1, output=numpy.float64),
    lambda n, x, xp: n.fourier_shift(x.astype(numpy.float16), 1),
]


def _bad_input():
    return _input((5, 6), numpy.float64)


@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_host_errors_match_scipy(host, k):
    x = _bad_input()
    with pytest.raises(Exception) as want:
        _quiet(lambda: BAD_CALLS[k](sndi, x, numpy))
    with pytest.raises(want.type):
        _quiet(lambda: BAD_CALLS[k](host, x, numpy))


# -- CPU tests without emulation ----------------------------------------------------------------------------
def test_public_names():
    names = {'map_coordinates', 'affine_transform', 'shift', 'zoom', 'rotate', 'spline_filter', 'spline_filter1d',
             'fourier_gaussian', 'fourier_uniform', 'fourier_ellipsoid', 'fourier_shift'}
    assert names <= set(dir(cndi))


def test_host_input_refused_before_device_use():
    with pytest.raises(TypeError):
        cndi.map_coordinates(numpy.ones((3, 3)), [[1.0], [1.0]])
    with pytest.raises(TypeError):
        cndi.fourier_shift(numpy.ones(4), 1.0)
    with pytest.raises(RuntimeError):
        cndi.zoom(numpy.ones(4), 2, order=9)


def test_rotation_sin_cos_match_scipy():
    from scipy import special
    for a in (0, 30, 45, 90, -90, 135, 180, 270, 360, 405, -725.5, 1e6 + 0.25, 12.3456):
        s, c = _interpolation._sindg_cosdg(a)
        assert s == pytest.approx(special.sindg(a), abs=1e-15)
        assert c == pytest.approx(special.cosdg(a), abs=1e-15)
        if float(a) % 90 == 0:
            assert (s, c) == (special.sindg(a), special.cosdg(a))


def test_spline_poles_and_horizon():
    for order, poles in _interp_kernels.POLES.items():
        # the poles are the roots inside the unit circle of the B-spline's sampled symmetric polynomial
        for z in poles:
            assert -1 < z < 0
        assert _interp_kernels.horizon(poles[0], numpy.float64) * math.log(abs(poles[0])) < math.log(1e-19)
    assert _interp_kernels.POLES[3][0] == pytest.approx(math.sqrt(3) - 2, abs=1e-16)


def test_generated_kernels_compile():
    from cuarray.cuda.compiler import compile_using_nvrtc
    K = _interp_kernels
    for fam in ('mirror', 'wrap', 'reflect'):
        for src in ('uint8', 'bool', 'float32', 'float64'):
            assert len(compile_using_nvrtc(K.spline_source(src, 'float32' if src == 'float32' else 'float64', fam),
                                           arch='80')[0])
    for order in ORDERS:
        for mode in range(7):
            src = K.transform_source('map', 2, 2, order, mode, 'float32', 'float32', 'float32', 'float32')
            assert len(compile_using_nvrtc(src, arch='80')[0])
    for out in ('bool', 'uint8', 'int16', 'uint64', 'int64', 'float64'):
        assert len(compile_using_nvrtc(K.transform_source('affine', 3, 2, 3, 6, 'int32', out, 'float64', idx64=True),
                                       arch='80')[0])
    assert len(compile_using_nvrtc(K.transform_source('zoomshift', 1, 1, 5, 2, 'float64', 'float64', 'float64',
                                                      has_zoom=True, has_shift=True, grid_mode=True), arch='80')[0])
    assert len(compile_using_nvrtc(K.transform_source('affine', 2, 2, 3, 4, 'float64', 'float64', 'float64',
                                                      batch=True), arch='80')[0])
    for kind in ('product', 'ellipsoid', 'shift'):
        for nd in (1, 2, 3):
            for i, o in (('float32', 'float32'), ('complex64', 'complex64'), ('int16', 'complex128'),
                         ('complex128', 'complex128')):
                if kind == 'shift' and o[0] != 'c':
                    continue
                assert len(compile_using_nvrtc(K.fourier_source(kind, nd, i, o), arch='80')[0])


# -- GPU tests ---------------------------------------------------------------------------------------------
def _d(x):
    return cp.asarray(x)


@gpu
@pytest.mark.parametrize('dtype', ['uint8', 'int16', 'float32', 'float64', 'complex64', 'complex128'])
@pytest.mark.parametrize('order', ORDERS)
def test_map_coordinates(sref, order, dtype):
    for ndim in (1, 2, 3):
        x = _input(SHAPES[ndim], dtype)
        for mode in MODES if ndim < 3 else ('constant', 'nearest', 'grid-wrap', 'reflect', 'grid-constant'):
            c = _coords(x.shape, 40)
            got = cndi.map_coordinates(_d(x), _d(c), order=order, mode=mode, cval=1.5)
            _compare(got.get(), sref.map_coordinates(x, c, order=order, mode=mode, cval=1.5))
            if ndim == 2 and mode in ('constant', 'reflect', 'grid-constant'):
                got = cndi.map_coordinates(_d(x), _d(c), order=order, mode=mode, prefilter=False)
                _compare(got.get(), sref.map_coordinates(x, c, order=order, mode=mode, prefilter=False))


@gpu
@pytest.mark.parametrize('dtype', ['float32', 'float64', 'complex128'])
@pytest.mark.parametrize('name,fn', TRANSFORM_CASES, ids=[c[0] for c in TRANSFORM_CASES])
def test_transforms(sref, name, fn, dtype):
    # (integer dtypes: test_outputs_views_dtypes; each combination is a kernel to compile, so 3-d takes a subset)
    for ndim in (1, 2, 3):
        x = _input(SHAPES[ndim], dtype)
        for order in ORDERS if ndim < 3 else (0, 3):
            for mode in MODES if ndim < 3 else ('constant', 'nearest', 'grid-wrap'):
                got = _quiet(lambda: fn(cndi, _d(x), order, mode))
                if name == 'zoom_grid' and x.dtype.kind == 'c':
                    # SciPy's zoom resamples a complex input's parts without passing grid_mode on (its parts'
                    # calls keep only order, mode and prefilter); cuarray honours grid_mode, so the reference is
                    # SciPy's grid_mode zoom of each part.
                    want = _quiet(lambda: fn(sref, x.real, order, mode) + 1j * fn(sref, x.imag, order, mode))
                else:
                    want = _quiet(lambda: fn(sref, x, order, mode))
                _compare(got.get(), want)


@gpu
@pytest.mark.parametrize('order', [2, 3, 4, 5])
def test_spline_filters(sref, order):
    # long lines: chunks of 256 with warm-up, in float64 and float32 work types
    for shape in ((700, 3), (3, 700), (40, 37)):
        for dtype, out in ((numpy.float64, numpy.float64), (numpy.float32, numpy.float32), (numpy.uint8, 'float64')):
            x = _input(shape, dtype)
            for mode in MODES:
                for axis in (0, 1):
                    got = cndi.spline_filter1d(_d(x), order, axis, output=out, mode=mode)
                    _compare(got.get(), sref.spline_filter1d(x, order, axis, output=out, mode=mode))
                got = cndi.spline_filter(_d(x), order, output=out, mode=mode)
                _compare(got.get(), sref.spline_filter(x, order, output=out, mode=mode))
    x = _input((6, 5, 4), numpy.complex64)
    _compare(cndi.spline_filter(_d(x), order).get(), sref.spline_filter(x, order))
    _compare(cndi.spline_filter1d(_d(x), order, 1, numpy.complex64).get(),
             sref.spline_filter1d(x, order, 1, numpy.complex64))


@gpu
def test_rotate():
    x2 = _input((9, 12), numpy.float32)
    x3 = _input((5, 7, 6), numpy.float64)
    for angle in (30, -90, 90, 180, 45.5):
        for reshape in (True, False):
            _compare(cndi.rotate(_d(x2), angle, reshape=reshape).get(), sndi.rotate(x2, angle, reshape=reshape))
    for axes in ((1, 0), (0, 2), (2, 1), (-1, -3)):
        for order in ORDERS:
            for mode in MODES:
                _compare(cndi.rotate(_d(x3), 33, axes=axes, mode=mode, order=order, cval=2.0).get(),
                         _quiet(lambda: sndi.rotate(x3, 33, axes=axes, mode=mode, order=order, cval=2.0)))
    xc = _input((6, 8, 3), numpy.complex64)
    _compare(cndi.rotate(_d(xc), 20, axes=(0, 1)).get(), sndi.rotate(xc, 20, axes=(0, 1)))


@gpu
def test_outputs_views_dtypes():
    x = _input((10, 12), numpy.float64)
    c = _coords(x.shape, 30).reshape(2, 5, 6)
    for ct in (numpy.float32, numpy.int64, numpy.uint8, numpy.bool_):
        cc = numpy.abs(c).astype(ct)
        _compare(cndi.map_coordinates(_d(x), _d(cc), order=3).get(), sndi.map_coordinates(x, cc, order=3))
    d = _d(x)
    _compare(cndi.map_coordinates(d[::-1, 1::2], _d(c)[:, ::-1], mode='mirror').get(),
             sndi.map_coordinates(x[::-1, 1::2], c[:, ::-1], mode='mirror'))
    o = cp.zeros((5, 6), numpy.float32)
    assert cndi.map_coordinates(d, _d(c), output=o) is o
    _compare(o.get(), sndi.map_coordinates(x, c, output=numpy.float32))
    o = cp.zeros((14, 12), numpy.float64).T
    assert cndi.affine_transform(d, _rot(2), output=o, order=2) is o
    _compare(o.get(), sndi.affine_transform(x, _rot(2), output_shape=(12, 14), order=2))
    for dt in ('bool', 'int8', 'uint16', 'int32', 'uint32', 'int64', 'uint64'):
        xi = _input((8, 9), dt)
        for order in (0, 1, 3):
            got, want = cndi.zoom(_d(xi), 1.7, order=order).get(), sndi.zoom(xi, 1.7, order=order)
            if dt == 'bool':
                _compare_bool(got, want, sndi.zoom(xi, 1.7, order=order, output=numpy.float64))
            else:
                _compare(got, want)
        for out in (numpy.float64, numpy.uint8, numpy.int16, numpy.bool_):
            _compare(cndi.shift(_d(xi), 0.3, output=out, order=1).get(), sndi.shift(xi, 0.3, output=out, order=1))
    for xe in (numpy.zeros((0, 3)), numpy.zeros((3, 0))):
        _compare(cndi.zoom(_d(xe), 2).get(), sndi.zoom(xe, 2))
    nanc = numpy.array([[numpy.nan, 2.0, 1.0], [1.0, numpy.nan, 3.0]])
    for mode in MODES:
        _compare(cndi.map_coordinates(d, _d(nanc), mode=mode).get(), sndi.map_coordinates(x, nanc, mode=mode))
    # host coordinates are accepted (they are copied to the device)
    _compare(cndi.map_coordinates(d, c, order=1).get(), sndi.map_coordinates(x, c, order=1))


@gpu
def test_map_coordinates_large_float32():
    # the benchmark's layout: a float32 image, float32 work type, many points
    rng = numpy.random.default_rng(3)
    x = rng.random((512, 700), numpy.float32)
    c = (rng.random((2, 100000)) * [[520], [710]] - 5).astype(numpy.float32)
    for mode in ('constant', 'reflect', 'nearest'):
        got = cndi.map_coordinates(_d(x), _d(c), order=3, mode=mode).get()
        _scaled_tol_compare(got, sndi.map_coordinates(x, c, order=3, mode=mode), 1.0)


@gpu
@pytest.mark.parametrize('name,fn', FOURIER_CASES, ids=[c[0] for c in FOURIER_CASES])
def test_fourier(name, fn):
    for ndim in (1, 2, 3):
        for x in _fourier_inputs(ndim):
            for n, ax in ((-1, -1), (2 * x.shape[-1] - 1, -1), (2 * x.shape[0] - 2, 0)):
                _compare(fn(cndi, _d(x), n, ax).get(), fn(sndi, x, n, ax))
    x = _input((6, 8), numpy.complex64)
    o = cp.zeros((8, 6), numpy.complex64).T
    assert fn(cndi, _d(x), -1, -1) is not None
    if name != 'shift':
        got = {'gaussian': cndi.fourier_gaussian, 'uniform': cndi.fourier_uniform,
               'ellipsoid': cndi.fourier_ellipsoid}[name](_d(x)[:, ::-1], 2.0, output=o)
        assert got is o
        want = {'gaussian': sndi.fourier_gaussian, 'uniform': sndi.fourier_uniform,
                'ellipsoid': sndi.fourier_ellipsoid}[name](x[:, ::-1], 2.0)
        _compare(o.get(), want)


@gpu
@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_errors_match_scipy(k):
    x = _bad_input()
    with pytest.raises(Exception) as want:
        _quiet(lambda: BAD_CALLS[k](sndi, x, numpy))
    with pytest.raises(want.type):
        _quiet(lambda: BAD_CALLS[k](cndi, _d(x), cp))
