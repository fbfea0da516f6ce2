"""cuarray.scipy.ndimage filters against scipy.ndimage: every function x mode x dtype x ndim, output=, origins,
footprints, axes, complex correlations, layouts and errors.

GPU tests run the real kernels. CPU tests compile every generated kernel kind with NVRTC, run the whole
Python layer (argument handling, offsets, passes, dtypes, exceptions) over a NumPy emulation of the kernels'
contract (Note [ndimage kernels]), and run the kernels themselves on the host (tests/python/_ndimage_host.py),
so that CI checks both against SciPy without a device.
"""
import types

import numpy
import pytest
import scipy.ndimage as sndi

import cuarray as cp
import cuarray.scipy.ndimage as cndi
from cuarray.scipy.ndimage import _filters, _kernels, _util

from _ndimage_host import compiler as host_compiler, host_ndimage

gpu = pytest.mark.gpu

MODES = ['reflect', 'constant', 'nearest', 'mirror', 'wrap', 'grid-constant', 'grid-mirror', 'grid-wrap']
DTYPES = [numpy.dtype(t) for t in ('uint8', 'int16', 'float32', 'float64')]
SHAPES = {1: (13,), 2: (9, 11), 3: (5, 6, 7)}


def _input(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    if dtype.kind == 'u':
        return rng.integers(0, 200, shape).astype(dtype)
    if dtype.kind == 'i':
        return rng.integers(-100, 100, shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def _weights(ndim, seed=1):
    shape = (3, 2, 3)[:ndim] if ndim > 1 else (4,)
    w = numpy.random.default_rng(seed).random(shape) + 0.1
    w.flat[1] = 0.0  # a zero weight is outside SciPy's footprint
    return w


def _footprint(ndim):
    fp = numpy.ones((3, 4, 3)[:ndim] if ndim > 1 else (5,), dtype=bool)
    fp.flat[0] = False
    fp.flat[-2] = False
    return fp


def _rank_footprint(ndim):
    # SciPy's 1-d fast rank path slides a box of footprint.size and ignores holes in the footprint (while the
    # rank counts only its True entries); cuarray honours the footprint, so 1-d cases use a box.
    return _footprint(ndim) if ndim > 1 else numpy.ones(5, dtype=bool)


# Each case: (name, function(ndi, x, mode, out) -> array, signed): `signed` cases produce negative values, so
# unsigned inputs get a float64 output (C's conversion of a negative double to an unsigned type is undefined).
def _case_list():
    def deriv2(ndi):
        def d2(x, axis, output, mode, cval):
            return ndi.correlate1d(x, [1, -2, 1], axis, output, mode, cval)
        return d2

    def deriv1(ndi):
        def d1(x, axis, output, mode, cval):
            return ndi.sobel(x, axis, output, mode, cval)
        return d1

    return [
        ('correlate1d', lambda ndi, x, m, o: ndi.correlate1d(x, [0.5, 2, 1, 0.25], -1, o, m, 3.5, 1), False),
        ('correlate1d_origin', lambda ndi, x, m, o: ndi.correlate1d(x, [1, 2, 3], 0, o, m, 2.0, -1), False),
        ('convolve1d', lambda ndi, x, m, o: ndi.convolve1d(x, [1, 3, 2, 1], 0, o, m, 1.0, 1), False),
        ('correlate', lambda ndi, x, m, o: ndi.correlate(x, _weights(x.ndim), o, m, 4.0), False),
        ('correlate_origin', lambda ndi, x, m, o: ndi.correlate(x, _weights(x.ndim), o, m, 0.0,
                                                                origin=[-1] + [0] * (x.ndim - 1)), False),
        ('convolve', lambda ndi, x, m, o: ndi.convolve(x, _weights(x.ndim), o, m, 2.0, origin=1 if x.ndim == 1
                                                       else 0), False),
        ('uniform_filter1d', lambda ndi, x, m, o: ndi.uniform_filter1d(x, 4, 0, o, m, 5.0, -1), False),
        ('uniform_filter', lambda ndi, x, m, o: ndi.uniform_filter(x, 3, o, m, 1.0), False),
        ('uniform_filter_sizes', lambda ndi, x, m, o: ndi.uniform_filter(x, (2, 5, 3)[:x.ndim], o, m, 0.0,
                                                                         origin=(-1, 2, 1)[:x.ndim]), False),
        ('gaussian_filter1d', lambda ndi, x, m, o: ndi.gaussian_filter1d(x, 1.5, -1, 0, o, m, 2.0), False),
        ('gaussian_filter1d_order1', lambda ndi, x, m, o: ndi.gaussian_filter1d(x, 1.2, 0, 1, o, m), True),
        ('gaussian_filter1d_order2', lambda ndi, x, m, o: ndi.gaussian_filter1d(x, 2.0, 0, 2, o, m, 0, 3.0),
         True),
        ('gaussian_filter', lambda ndi, x, m, o: ndi.gaussian_filter(x, 1.3, 0, o, m, 1.0), False),
        ('gaussian_filter_radius', lambda ndi, x, m, o: ndi.gaussian_filter(x, (1.0, 3.0, 0.5)[:x.ndim], 0, o, m,
                                                                            truncate=2.0, radius=2), False),
        ('gaussian_filter_order', lambda ndi, x, m, o: ndi.gaussian_filter(x, 1.0, (1, 0, 2)[:x.ndim], o, m),
         True),
        ('minimum_filter1d', lambda ndi, x, m, o: ndi.minimum_filter1d(x, 4, -1, o, m, 7.0, 1), False),
        ('maximum_filter1d', lambda ndi, x, m, o: ndi.maximum_filter1d(x, 3, 0, o, m, 7.0, -1), False),
        ('minimum_filter', lambda ndi, x, m, o: ndi.minimum_filter(x, 3, None, o, m, 7.0), False),
        ('maximum_filter_fp', lambda ndi, x, m, o: ndi.maximum_filter(x, None, _footprint(x.ndim), o, m, 7.0),
         False),
        ('minimum_filter_fp', lambda ndi, x, m, o: ndi.minimum_filter(x, footprint=_footprint(x.ndim), output=o,
                                                                      mode=m, cval=7.0, origin=1), False),
        ('median_filter', lambda ndi, x, m, o: ndi.median_filter(x, 3, None, o, m, 7.0), False),
        ('median_filter_fp', lambda ndi, x, m, o: ndi.median_filter(x, footprint=_rank_footprint(x.ndim), output=o,
                                                                    mode=m, cval=7.0, origin=-1), False),
        ('rank_filter', lambda ndi, x, m, o: ndi.rank_filter(x, -2, (3, 2, 2)[:x.ndim], None, o, m, 7.0), False),
        ('percentile_filter', lambda ndi, x, m, o: ndi.percentile_filter(x, 30, None, _rank_footprint(x.ndim), o, m,
                                                                         7.0), False),
        ('prewitt', lambda ndi, x, m, o: ndi.prewitt(x, 0, o, m, 1.0), True),
        ('sobel', lambda ndi, x, m, o: ndi.sobel(x, -1, o, m, 1.0), True),
        ('laplace', lambda ndi, x, m, o: ndi.laplace(x, o, m, 1.0), True),
        ('generic_laplace', lambda ndi, x, m, o: ndi.generic_laplace(x, deriv2(ndi), o, m, 2.0), True),
        ('gaussian_laplace', lambda ndi, x, m, o: ndi.gaussian_laplace(x, 1.0, o, m), True),
        ('gaussian_gradient_magnitude', lambda ndi, x, m, o: ndi.gaussian_gradient_magnitude(x, 1.2, o, m), True),
        ('generic_gradient_magnitude', lambda ndi, x, m, o: ndi.generic_gradient_magnitude(x, deriv1(ndi), o, m),
         True),
    ]


CASES = _case_list()
CASE_IDS = [c[0] for c in CASES]


def _tolerance(dtype):
    if dtype.kind in 'iub':
        return dict(rtol=0, atol=1)  # a sum one ulp off can truncate to the next integer
    if dtype in (numpy.float32, numpy.complex64):
        return dict(rtol=1e-4, atol=1e-4)
    return dict(rtol=1e-10, atol=1e-10)


def _compare(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    numpy.testing.assert_allclose(got.astype(numpy.float64), want.astype(numpy.float64), **_tolerance(want.dtype))


def _out_for(signed, dtype):
    return numpy.float64 if signed and dtype.kind in 'ub' else None


# -- host emulation of the kernels (CPU tests) -----------------------------------------------------------
def _map(c, n, mode):
    if mode == 'reflect':
        c = c % (2 * n)
        return numpy.where(c >= n, 2 * n - 1 - c, c)
    if mode == 'mirror':
        if n == 1:
            return numpy.zeros_like(c)
        p = 2 * n - 2
        c = c % p
        return numpy.where(c >= n, p - c, c)
    if mode == 'wrap':
        return c % n
    if mode == 'nearest':
        return numpy.clip(c, 0, n - 1)
    return numpy.where((c < 0) | (c >= n), -1, c)


def _emulated_launch(kind, x, out_dtype, K, mode, cval, axis=None, shift=0, w=None, offs=None, rank=0):
    """What a generated kernel computes (Note [ndimage kernels]), in NumPy."""
    _util.check_dtype(x.dtype)
    out_dtype = _util.check_dtype(out_dtype)
    acc = _kernels.acc_dtype(x.dtype, out_dtype)
    if kind == 'rank':
        cval = float(_kernels.rank_cval(x.dtype, cval))  # rank filters take cval in the input's type
    xa = numpy.asarray(x).astype(acc)
    if xa.size == 0:
        return numpy.empty(x.shape, out_dtype)
    grid = numpy.indices(x.shape)
    vals = []
    if kind.endswith('1d'):
        offs = numpy.zeros((K, x.ndim), numpy.int64)
        offs[:, axis] = numpy.arange(K) - shift
    for k in range(K):
        q = [_map(grid[d] + offs[k, d], x.shape[d], mode) for d in range(x.ndim)]
        outside = numpy.zeros(x.shape, bool)
        for qd in q:
            outside |= qd < 0
        v = xa[tuple(numpy.maximum(qd, 0) for qd in q)]
        vals.append(numpy.where(outside, acc.type(cval), v))
    vals = numpy.array(vals, dtype=acc).reshape((K,) + x.shape)
    base = kind[:-2] if kind.endswith('1d') else kind
    if base == 'corr':
        r = numpy.zeros(x.shape, acc)
        for k in range(K):
            r += acc.type(w[k]) * vals[k]
    elif base == 'uniform':
        r = vals.sum(axis=0) / acc.type(K)
    elif base == 'min':
        r = vals.min(axis=0)
    elif base == 'max':
        r = vals.max(axis=0)
    else:
        r = numpy.sort(vals, axis=0)[rank]
    return r.astype(out_dtype)


@pytest.fixture
def emulated(monkeypatch):
    """cuarray.scipy.ndimage running on NumPy arrays through the kernel emulation."""
    monkeypatch.setattr(_filters, '_launch', _emulated_launch)
    monkeypatch.setattr(_filters, '_cp', numpy)
    monkeypatch.setattr(_util, '_core', types.SimpleNamespace(ndarray=numpy.ndarray))
    return cndi


@pytest.mark.parametrize('name,fn,signed', CASES, ids=CASE_IDS)
def test_emulated_matches_scipy(emulated, name, fn, signed):
    for ndim in (1, 2, 3):
        for dtype in DTYPES:
            x = _input(SHAPES[ndim], dtype)
            out = _out_for(signed, dtype)
            for mode in (MODES if ndim < 3 else ['reflect', 'constant', 'wrap']):
                _compare(fn(emulated, x, mode, out), fn(sndi, x, mode, out))


def test_emulated_modes_long_filters(emulated):
    # Filters longer than the input: the boundary rules extend periodically, as SciPy's line extension does.
    rng = numpy.random.default_rng(5)
    for mode in MODES:
        for n in (1, 2, 3, 5):
            x = rng.random(n)
            for K in (1, 2, 7, 12):
                w = rng.random(K)
                for origin in range(-(K // 2), (K - 1) // 2 + 1):
                    _compare(emulated.correlate1d(x, w, mode=mode, cval=0.7, origin=origin),
                             sndi.correlate1d(x, w, mode=mode, cval=0.7, origin=origin))


def test_emulated_axes_and_mode_sequences(emulated):
    x = _input((6, 7, 5), numpy.dtype(numpy.float64))
    for ndi_fn in (lambda n: n.gaussian_filter(x, (1.0, 2.0), mode=['wrap', 'constant'], axes=(0, 2)),
                   lambda n: n.uniform_filter(x, (3, 4), mode=('mirror', 'nearest'), axes=(-1, 0), origin=(1, 0)),
                   lambda n: n.minimum_filter(x, (3, 2), mode=['reflect', 'wrap'], axes=(1, 2)),
                   lambda n: n.maximum_filter(x, footprint=numpy.eye(3, dtype=bool), axes=(0, 1)),
                   lambda n: n.median_filter(x, 3, axes=(2,)),
                   lambda n: n.rank_filter(x, 1, footprint=[[1, 0, 1], [0, 1, 1]], axes=(2, 0), mode='wrap'),
                   lambda n: n.correlate(x, [[1, 2], [0, 3]], axes=(0, 2), mode='nearest', origin=(0, -1)),
                   lambda n: n.convolve(x, [1, 2, 5, 0.5], axes=1, mode='mirror'),
                   lambda n: n.laplace(x, axes=(0, 1)),
                   lambda n: n.gaussian_laplace(x, [1.0, 2.0], axes=(2, 1)),
                   lambda n: n.gaussian_gradient_magnitude(x, 1.0, axes=(0,), mode=['constant'])):
        _compare(ndi_fn(emulated), ndi_fn(sndi))


def test_emulated_special_shapes_and_outputs(emulated):
    for x in (numpy.zeros((0, 4)), numpy.array(3.0), numpy.ones((1, 1)), numpy.arange(12.0).reshape(3, 4)[:, ::-2]):
        _compare(emulated.gaussian_filter(x, 1.0), sndi.gaussian_filter(x, 1.0))
        _compare(emulated.uniform_filter(x, 2, output='float32'), sndi.uniform_filter(x, 2, output='float32'))
        _compare(emulated.correlate(x, numpy.ones((2,) * x.ndim)), sndi.correlate(x, numpy.ones((2,) * x.ndim)))
    x = _input((8, 9), numpy.dtype(numpy.int16))
    o1, o2 = numpy.zeros((8, 9), numpy.float32), numpy.zeros((8, 9), numpy.float32)
    assert emulated.sobel(x, 0, o1) is o1
    sndi.sobel(x, 0, o2)
    _compare(o1, o2)
    _compare(emulated.correlate(x, numpy.zeros((3, 3))), sndi.correlate(x, numpy.zeros((3, 3))))


def test_emulated_complex(emulated):
    rng = numpy.random.default_rng(2)
    x = (rng.standard_normal((7, 8)) + 1j * rng.standard_normal((7, 8))).astype(numpy.complex64)
    xr = rng.standard_normal((7, 8))
    wc = numpy.array([1 + 2j, 0.5, -1j])
    wr = numpy.array([1.0, 2.0, -0.5])
    for f in (lambda n: n.correlate1d(x, wc, 0, mode='constant', cval=1 + 2j),
              lambda n: n.correlate1d(x, wr, 1, mode='wrap'),
              lambda n: n.convolve1d(xr, wc, 0, mode='mirror'),
              lambda n: n.correlate(x, numpy.outer(wc, wr), mode='constant', cval=2 - 1j),
              lambda n: n.convolve(xr, numpy.outer(wr, wc), mode='reflect'),
              lambda n: n.convolve(x.astype(numpy.complex128), numpy.outer(wc, wc), mode='nearest'),
              lambda n: n.uniform_filter(x, 3, mode='constant', cval=1j),
              lambda n: n.gaussian_filter(x, 1.0)):
        _compare(f(emulated), f(sndi))
    for f in (lambda n: n.correlate1d(xr, wc, cval=1j), lambda n: n.minimum_filter(x, 3),
              lambda n: n.median_filter(x, 3), lambda n: n.correlate1d(x, wr, output='float64')):
        with pytest.raises(Exception) as want:
            f(sndi)
        with pytest.raises(want.type):
            f(emulated)


BAD_CALLS = [
    lambda n, x: n.correlate1d(x, []),
    lambda n, x: n.correlate1d(x, [[1, 2]]),
    lambda n, x: n.correlate1d(x, [1, 2, 3], origin=2),
    lambda n, x: n.correlate1d(x, [1, 2, 3], axis=2),
    lambda n, x: n.correlate1d(x, [1, 2, 3], mode='bogus'),
    # a wrong-shaped output array of the module's own kind (cuarray refuses host arrays as output, by type;
    # the emulation fixture runs cuarray's module on NumPy arrays)
    lambda n, x: n.correlate1d(x, [1, 2, 3], output=(numpy if n is sndi or _filters._cp is numpy else cp).zeros(
        (2, 2))),
    lambda n, x: n.correlate1d(x, [1, 2, 3], output='U5'),
    lambda n, x: n.correlate(x, [1, 2, 3]),
    lambda n, x: n.correlate(x, numpy.ones((3, 3)), origin=(2, 0)),
    lambda n, x: n.correlate(x, numpy.ones((3, 3)), mode=['reflect', 'wrap']),
    lambda n, x: n.convolve(x, numpy.ones((2, 2)), origin=(1, 0)),
    lambda n, x: n.uniform_filter1d(x, 0),
    lambda n, x: n.uniform_filter1d(x, 3, origin=-2),
    lambda n, x: n.uniform_filter(x, (3, 3, 3)),
    lambda n, x: n.gaussian_filter1d(x, 1.0, order=-1),
    lambda n, x: n.gaussian_filter1d(x, 1.0, radius=-1),
    lambda n, x: n.gaussian_filter1d(x, 1.0, radius=1.5),
    lambda n, x: n.gaussian_filter(x, 1.0, axes=(0, 0)),
    lambda n, x: n.gaussian_filter(x, 1.0, axes=(3,)),
    lambda n, x: n.minimum_filter1d(x, 0),
    lambda n, x: n.maximum_filter1d(x, 3, origin=2),
    lambda n, x: n.minimum_filter(x),
    lambda n, x: n.minimum_filter(x, footprint=numpy.zeros((3, 3))),
    lambda n, x: n.maximum_filter(x, footprint=[[1, 0], [0, 1]], mode=['reflect', 'wrap']),
    lambda n, x: n.maximum_filter(x, footprint=[1, 0, 1]),
    lambda n, x: n.maximum_filter(x, footprint=[[1, 0, 1]], origin=(0, 2)),
    lambda n, x: n.median_filter(x),
    lambda n, x: n.rank_filter(x, 9, 3),
    lambda n, x: n.rank_filter(x, -10, 3),
    lambda n, x: n.percentile_filter(x, 150, 3),
    lambda n, x: n.percentile_filter(x, -150, 3),
    lambda n, x: n.rank_filter(x, 3, footprint=[[1, 0, 1], [1, 1, 0]], mode=['reflect', 'wrap']),
    lambda n, x: n.sobel(x, axis=-3),
    lambda n, x: n.prewitt(x, mode=['wrap']),
    lambda n, x: n.laplace(x, mode='grid'),
]


@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_emulated_errors_match_scipy(emulated, k):
    x = _input((5, 6), numpy.dtype(numpy.float64))
    with pytest.raises(Exception) as want:
        BAD_CALLS[k](sndi, x)
    with pytest.raises(want.type):
        BAD_CALLS[k](emulated, x)


# -- CPU tests without emulation -------------------------------------------------------------------------
def test_public_names():
    names = {'correlate1d', 'convolve1d', 'correlate', 'convolve', 'uniform_filter1d', 'uniform_filter',
             'gaussian_filter1d', 'gaussian_filter', 'minimum_filter1d', 'maximum_filter1d', 'minimum_filter',
             'maximum_filter', 'median_filter', 'rank_filter', 'percentile_filter', 'prewitt', 'sobel', 'laplace',
             'generic_laplace', 'gaussian_laplace', 'gaussian_gradient_magnitude', 'generic_gradient_magnitude'}
    assert names <= set(dir(cndi))
    assert cp.scipy.ndimage is cndi


def test_host_input_refused_before_device_use():
    with pytest.raises(TypeError):
        cndi.gaussian_filter(numpy.ones((3, 3)), 1.0)
    with pytest.raises(TypeError):
        cndi.correlate1d([1.0, 2.0], [1.0])


def test_gaussian_kernel_matches_scipy():
    from scipy.ndimage._filters import _gaussian_kernel1d as ref
    for sigma, order, radius in [(1.0, 0, 4), (2.5, 1, 10), (0.7, 2, 3), (3.0, 3, 12), (1.5, 4, 6)]:
        numpy.testing.assert_allclose(_filters._gaussian_kernel1d(sigma, order, radius), ref(sigma, order, radius),
                                      rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize('kind', ['corr1d', 'uniform1d', 'min1d', 'max1d', 'corr', 'min', 'max', 'rank'])
def test_generated_kernels_compile(kind):
    from cuarray.cuda.compiler import compile_using_nvrtc
    for mode in ('reflect', 'mirror', 'wrap', 'nearest', 'constant'):
        for ind, outd in (('uint8', 'uint8'), ('float32', 'float32'), ('int16', 'float64'), ('bool', 'float64'),
                          ('float64', 'int64')):
            for ndim in (1, 3):
                src = _kernels.source(kind, ndim, mode, ind, outd, 7, axis=ndim - 1 if kind.endswith('1d') else None)
                image, _ = compile_using_nvrtc(src, arch='80')
                assert len(image) > 0


LINE_KINDS = ['corr1d', 'uniform1d', 'min1d', 'max1d']


@pytest.mark.parametrize('variant', ['row', 'col'])
def test_tiled_line_kernels_compile(variant):
    from cuarray.cuda.compiler import compile_using_nvrtc
    for kind in LINE_KINDS:
        for mode in ('reflect', 'mirror', 'wrap', 'nearest', 'constant'):
            for ind, outd, K in (('float32', 'float32', 33), ('uint8', 'float64', 5), ('float64', 'int16', 70),
                                 ('bool', 'float32', 1)):
                src = _kernels.line_source(variant, kind, mode, ind, outd, K)
                assert len(compile_using_nvrtc(src, arch='80')[0]) > 0
    assert len(compile_using_nvrtc(_kernels.line_source(variant, 'corr1d', 'reflect', 'float32', 'float32', 33),
                                   arch='90')[0]) > 0


def _box(*sizes):
    return [tuple(int(v) for v in p) for p in numpy.argwhere(numpy.ones(sizes, bool)) - numpy.array(sizes) // 2]


def test_rank_networks_compile():
    from cuarray.cuda.compiler import compile_using_nvrtc
    fp = [(0, 0), (0, 2), (1, 1), (2, 0), (-1, 1)]
    for offs, rank, shape in ((_box(3, 3), 4, (50, 60)), (_box(7, 7), 24, (50, 60)), (_box(5, 5), 3, (50, 60)),
                              (_box(3, 3, 3), 13, (5, 6, 7)), (_box(5), 2, (40,)), (fp, 2, (9, 9))):
        for dt in ('float32', 'float64', 'uint8', 'int64', 'uint32', 'bool'):
            for mode in ('reflect', 'constant', 'wrap', 'mirror', 'nearest'):
                src = _kernels.rank_source(offs, rank, shape, mode, _kernels.rank_domain(dt), dt,
                                           'float64' if dt == 'bool' else dt, dt == 'int64')
                assert len(compile_using_nvrtc(src, arch='80')[0]) > 0
    # sm_90 takes the max.NaN instruction
    src = _kernels.rank_source(_box(3, 3), 4, (50, 60), 'reflect', 'float32', 'float32', 'float32', False)
    assert len(compile_using_nvrtc(src, arch='90')[0]) > 0


def test_rank_network_limits():
    # a 7x7 median keeps 26 values; an 11x11 one (62) is left to the generic kernel
    assert _kernels.rank_network(_box(7, 7), 24, (100, 100)) is not None
    assert _kernels.rank_network(_box(11, 11), 60, (100, 100)) is None
    assert _kernels.pair_axis(_box(3, 3), (10, 10)) == 0
    assert _kernels.pair_axis(_box(1, 3), (10, 10)) == 1
    assert _kernels.pair_axis(_box(3, 3), (1, 10)) == 1
    assert _kernels.pair_axis([(0, 0)], (4, 4)) is None


def test_forgetful_selection_is_exact():
    """The generated networks, run as Python on random keys with ties, pick numpy.sort's rank-th value of each
    output's footprint (a pair's outputs: the shared values, then each output's own)."""
    rng = numpy.random.default_rng(3)
    for offs, shape in ((_box(3, 3), (9, 9)), (_box(5, 5), (9, 9)), (_box(2, 3), (9, 9)),
                        ([(0, 0), (0, 2), (1, 1), (2, 0), (-1, 1), (3, 3)], (9, 9)), (_box(7), (20,)),
                        (_box(3, 3), (1, 9)), (_box(1, 4), (9, 9))):
        K = len(offs)
        for rank in range(1, K - 1):
            pa, lines, results, coords = _kernels.rank_network(offs, rank, shape)
            if pa is None:
                parts = [K, 0]
            else:
                wb = {tuple(v + (d == pa) for d, v in enumerate(o)) for o in offs}
                parts = [len(set(offs) & wb), len(set(offs) - wb)]
            for _ in range(4):
                loads = []
                env = {'ca_lo': min, 'ca_hi': max}
                code = []
                for line in lines:
                    name, expr = line.strip()[len('const ca_key_t '):-1].split(' = ', 1)
                    if expr.startswith('LD('):
                        loads.append(int(rng.integers(0, 4)))
                        expr = str(loads[-1])
                    code.append(f"{name} = {expr}")
                exec("\n".join(code), env)
                shared, own = loads[:parts[0]], loads[parts[0]:]
                outputs = [shared + own] if pa is None else [shared + own[:parts[1]], shared + own[parts[1]:]]
                assert len(outputs) == len(results)
                for vals, res in zip(outputs, results):
                    assert len(vals) == K
                    assert env[res] == sorted(vals)[rank]


# -- the generated kernels run on the CPU (the host compiler builds their CUDA source) ---------------------------
needs_cxx = pytest.mark.skipif(host_compiler() is None, reason="no host C++ compiler")


@needs_cxx
@pytest.mark.parametrize('tiles', ['natural', 'row', 'col'])
@pytest.mark.parametrize('name,fn,signed', CASES, ids=CASE_IDS)
def test_host_kernels_match_scipy(name, fn, signed, tiles, monkeypatch):
    """The real kernels on the test shapes; 'row' and 'col' force those tiles on every line filter (these
    shapes are too small to take them naturally), 'natural' leaves the choice (mostly the generic kernel)."""
    if tiles != 'natural':
        if not any(k in name for k in ('1d', 'uniform', 'gaussian', 'minimum_filter', 'maximum_filter', 'sobel',
                                       'prewitt', 'laplace', 'gradient')):
            pytest.skip("no line filter")
        monkeypatch.setattr(_kernels, 'line_variant', lambda outer, n, inner, K, acc: (
            (tiles, _kernels.ROW_TILES[1] if tiles == 'row' else _kernels.COL_TILE)
            if K <= 64 or tiles == 'row' else None))
    with host_ndimage() as ndi:
        for ndim in (1, 2, 3):
            for dtype in (numpy.dtype(numpy.float32), numpy.dtype(numpy.uint8)):
                if (ndim != 2 or tiles != 'natural') and dtype != numpy.float32:
                    continue
                x = _input(SHAPES[ndim], dtype)
                out = _out_for(signed, dtype)
                for mode in (['reflect', 'constant', 'nearest', 'mirror', 'wrap'] if ndim == 2 else
                             ['reflect', 'constant']):
                    _compare(fn(ndi, x, mode, out), fn(sndi, x, mode, out))


@needs_cxx
def test_host_kernels_tiles_views_and_long_filters():
    """Arrays spanning several tiles each way, views, filters longer than the unrolled limit and than the
    tiles (the generic kernel), every dtype class."""
    rng = numpy.random.default_rng(4)
    with host_ndimage() as ndi:
        x = (rng.standard_normal((150, 1400)) * 10).astype(numpy.float32)
        for sigma, mode in ((4.0, 'reflect'), (20.0, 'constant'), (70.0, 'wrap')):
            _compare(ndi.gaussian_filter(x, sigma, mode=mode, cval=1.5),
                     sndi.gaussian_filter(x, sigma, mode=mode, cval=1.5))
        for view in (lambda a: a[::-3, 5:900:2].T, lambda a: a[7:80, ::-1]):
            _compare(ndi.gaussian_filter(view(x), 3.0), sndi.gaussian_filter(view(x), 3.0))
            _compare(ndi.median_filter(view(x), 5), sndi.median_filter(view(x), 5))
        x3 = rng.standard_normal((7, 30, 9)).transpose(1, 0, 2)[:, ::2, ::-1]
        for ax in range(3):
            _compare(ndi.uniform_filter1d(x3, 5, axis=ax, origin=1), sndi.uniform_filter1d(x3, 5, axis=ax, origin=1))
            _compare(ndi.minimum_filter1d(x3, 4, axis=ax, mode='constant', cval=-0.5),
                     sndi.minimum_filter1d(x3, 4, axis=ax, mode='constant', cval=-0.5))
            _compare(ndi.maximum_filter1d(x3, 100, axis=ax, mode='mirror'),
                     sndi.maximum_filter1d(x3, 100, axis=ax, mode='mirror'))
            _compare(ndi.correlate1d(x3, numpy.arange(80.0), axis=ax, mode='nearest'),
                     sndi.correlate1d(x3, numpy.arange(80.0), axis=ax, mode='nearest'))
        for dt in ('int8', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float64', 'bool'):
            xi = rng.integers(0, 100, (70, 80)).astype(dt) if dt != 'bool' else rng.random((70, 80)) > 0.5
            for size in (3, 7):
                _compare(ndi.median_filter(xi, size, mode='constant', cval=7),
                         sndi.median_filter(xi, size, mode='constant', cval=7))
            _compare(ndi.percentile_filter(xi, 70, 5, mode='nearest'),
                     sndi.percentile_filter(xi, 70, 5, mode='nearest'))
            _compare(ndi.uniform_filter(xi, 4, output=numpy.float64), sndi.uniform_filter(xi, 4, output=numpy.float64))


@needs_cxx
def test_host_rank_filters():
    """Every rank of a 7x7 box, footprints with holes, 3-d boxes, the generic kernel's large footprints, and
    cval converted to the input's type as SciPy's rank filters do."""
    rng = numpy.random.default_rng(5)
    with host_ndimage() as ndi:
        xf = rng.standard_normal((23, 30))
        for r in (1, 2, 10, 24, 38, 47):
            _compare(ndi.rank_filter(xf, r, 7, mode='wrap'), sndi.rank_filter(xf, r, 7, mode='wrap'))
        fp = rng.random((5, 4)) > 0.3
        _compare(ndi.median_filter(xf, footprint=fp, mode='constant', cval=0.25, origin=(1, -1)),
                 sndi.median_filter(xf, footprint=fp, mode='constant', cval=0.25, origin=(1, -1)))
        x3 = rng.integers(-1000, 1000, (9, 10, 11)).astype(numpy.int64)
        _compare(ndi.median_filter(x3, 3, mode='mirror'), sndi.median_filter(x3, 3, mode='mirror'))
        _compare(ndi.median_filter(xf, 13), sndi.median_filter(xf, 13))
        xu = rng.integers(0, 255, (30, 40)).astype(numpy.uint8)
        for cval in (3.5, -3.5, 300):
            _compare(ndi.median_filter(xu, 3, mode='constant', cval=cval, output=numpy.float64),
                     sndi.median_filter(xu, 3, mode='constant', cval=cval, output=numpy.float64))
        x32 = xf.astype(numpy.float32)
        _compare(ndi.median_filter(x32, 3, mode='constant', cval=0.1, output=numpy.float64),
                 sndi.median_filter(x32, 3, mode='constant', cval=0.1, output=numpy.float64))
        x64 = numpy.array([2 ** 62 + 1, 2 ** 62 + 3, 2 ** 62 + 2, 5, 2 ** 62 + 7], dtype=numpy.int64)
        assert (ndi.median_filter(x64, 3) == sndi.median_filter(x64, 3)).all()


def _sorted_rank_reference(x, size, rank):
    """numpy.sort's rank-th value of each size x size window (mode 'reflect'): NaN above everything."""
    h = size // 2
    xp = numpy.pad(x, h, mode='symmetric')
    ref = numpy.empty_like(x)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            ref[i, j] = numpy.sort(xp[i:i + size, j:j + size].ravel())[rank]
    return ref


def _nan_image(dtype):
    x = numpy.arange(64, dtype=dtype).reshape(8, 8)
    x[3, 3] = numpy.nan
    x[1, 1] = numpy.inf
    x[5, 5] = -numpy.inf
    x[2, 4] = -numpy.nan
    x[6, 1:3] = numpy.nan
    return x


@needs_cxx
def test_host_rank_filters_order_nan_last():
    with host_ndimage() as ndi:
        for dt in (numpy.float32, numpy.float64):
            x = _nan_image(dt)
            for size, rank in ((3, 4), (3, 7), (5, 12), (5, 1)):
                got = ndi.rank_filter(x, rank, size)
                assert numpy.array_equal(got, _sorted_rank_reference(x, size, rank), equal_nan=True)


# -- GPU tests ---------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('dtype', DTYPES, ids=str)
@pytest.mark.parametrize('name,fn,signed', CASES, ids=CASE_IDS)
def test_matches_scipy(name, fn, signed, dtype):
    for ndim in (1, 2, 3):
        x = _input(SHAPES[ndim], dtype)
        xd = cp.asarray(x)
        out = _out_for(signed, dtype)
        for mode in (MODES if ndim < 3 else ['reflect', 'constant', 'wrap']):
            _compare(fn(cndi, xd, mode, out).get(), fn(sndi, x, mode, out))


@gpu
def test_layouts_and_output_arrays():
    x = _input((12, 14), numpy.dtype(numpy.float32))
    for view in (lambda a: a[::2, ::-1], lambda a: a.T, lambda a: a[3:9, 1:13:3]):
        xv = view(x)
        dv = view(cp.asarray(x))
        _compare(cndi.gaussian_filter(dv, 1.5).get(), sndi.gaussian_filter(xv, 1.5))
        _compare(cndi.median_filter(dv, 3).get(), sndi.median_filter(xv, 3))
        _compare(cndi.correlate(dv, _weights(2)).get(), sndi.correlate(xv, _weights(2)))
    out = cp.zeros((14, 12), numpy.float64).T
    got = cndi.uniform_filter(cp.asarray(x), 3, output=out)
    assert got is out
    _compare(out.get(), sndi.uniform_filter(x, 3, output=numpy.float64))
    d = cp.asarray(x)
    cndi.gaussian_filter(d, 2.0, output=d)  # in place, as SciPy allows
    _compare(d.get(), sndi.gaussian_filter(x, 2.0))


@gpu
def test_complex_correlations():
    rng = numpy.random.default_rng(2)
    x = (rng.standard_normal((7, 8)) + 1j * rng.standard_normal((7, 8))).astype(numpy.complex64)
    wc = numpy.array([1 + 2j, 0.5, -1j])
    xd = cp.asarray(x)
    _compare(cndi.correlate1d(xd, wc, 0, mode='constant', cval=1 + 2j).get(),
             sndi.correlate1d(x, wc, 0, mode='constant', cval=1 + 2j))
    _compare(cndi.convolve(xd, numpy.outer(wc, wc), mode='wrap').get(),
             sndi.convolve(x, numpy.outer(wc, wc), mode='wrap'))
    _compare(cndi.convolve1d(cp.asarray(x.real), wc).get(), sndi.convolve1d(x.real, wc))
    _compare(cndi.uniform_filter1d(xd, 3, mode='constant', cval=2j).get(),
             sndi.uniform_filter1d(x, 3, mode='constant', cval=2j))


@gpu
def test_edge_shapes_and_dtypes():
    for x in (numpy.zeros((0, 4)), numpy.array(3.0), numpy.ones((1, 1)), numpy.arange(10, dtype=numpy.int64),
              numpy.array([True, False, True])):
        _compare(cndi.uniform_filter(cp.asarray(x), 2, output='float64').get(),
                 sndi.uniform_filter(x, 2, output='float64'))
        _compare(cndi.correlate(cp.asarray(x), numpy.ones((2,) * x.ndim)).get(),
                 sndi.correlate(x, numpy.ones((2,) * x.ndim)))
    x = numpy.array([1.0, numpy.inf, 2.0, 3.0])
    w = numpy.array([1.0, 0.0, 1.0])
    _compare(cndi.correlate(cp.asarray(x), w).get(), sndi.correlate(x, w))


@gpu
@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_errors_match_scipy(k):
    x = _input((5, 6), numpy.dtype(numpy.float64))
    with pytest.raises(Exception) as want:
        BAD_CALLS[k](sndi, x)
    with pytest.raises(want.type):
        BAD_CALLS[k](cndi, cp.asarray(x))


@gpu
def test_tiles_views_and_long_filters():
    rng = numpy.random.default_rng(4)
    x = (rng.standard_normal((150, 1400)) * 10).astype(numpy.float32)
    d = cp.asarray(x)
    for sigma, mode in ((4.0, 'reflect'), (20.0, 'constant'), (70.0, 'wrap')):
        _compare(cndi.gaussian_filter(d, sigma, mode=mode, cval=1.5).get(),
                 sndi.gaussian_filter(x, sigma, mode=mode, cval=1.5))
    for view in (lambda a: a[::-3, 5:900:2].T, lambda a: a[7:80, ::-1]):
        _compare(cndi.gaussian_filter(view(d), 3.0).get(), sndi.gaussian_filter(view(x), 3.0))
        _compare(cndi.median_filter(view(d), 5).get(), sndi.median_filter(view(x), 5))
    x3 = rng.standard_normal((7, 30, 9))
    d3 = cp.asarray(x3).transpose(1, 0, 2)[:, ::2, ::-1]
    x3 = x3.transpose(1, 0, 2)[:, ::2, ::-1]
    for ax in range(3):
        _compare(cndi.uniform_filter1d(d3, 5, axis=ax, origin=1).get(),
                 sndi.uniform_filter1d(x3, 5, axis=ax, origin=1))
        _compare(cndi.maximum_filter1d(d3, 100, axis=ax, mode='mirror').get(),
                 sndi.maximum_filter1d(x3, 100, axis=ax, mode='mirror'))
        _compare(cndi.correlate1d(d3, numpy.arange(80.0), axis=ax, mode='nearest').get(),
                 sndi.correlate1d(x3, numpy.arange(80.0), axis=ax, mode='nearest'))
    for dt in ('int8', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float64', 'bool'):
        xi = rng.integers(0, 100, (70, 80)).astype(dt) if dt != 'bool' else rng.random((70, 80)) > 0.5
        di = cp.asarray(xi)
        for size in (3, 7):
            _compare(cndi.median_filter(di, size, mode='constant', cval=7).get(),
                     sndi.median_filter(xi, size, mode='constant', cval=7))
        _compare(cndi.percentile_filter(di, 70, 5, mode='nearest').get(),
                 sndi.percentile_filter(xi, 70, 5, mode='nearest'))


@gpu
def test_rank_filters():
    rng = numpy.random.default_rng(5)
    xf = rng.standard_normal((23, 30))
    df = cp.asarray(xf)
    for r in (1, 2, 10, 24, 38, 47):
        _compare(cndi.rank_filter(df, r, 7, mode='wrap').get(), sndi.rank_filter(xf, r, 7, mode='wrap'))
    fp = rng.random((5, 4)) > 0.3
    _compare(cndi.median_filter(df, footprint=fp, mode='constant', cval=0.25, origin=(1, -1)).get(),
             sndi.median_filter(xf, footprint=fp, mode='constant', cval=0.25, origin=(1, -1)))
    _compare(cndi.median_filter(df, 13).get(), sndi.median_filter(xf, 13))
    xu = rng.integers(0, 255, (30, 40)).astype(numpy.uint8)
    for cval in (3.5, -3.5, 300):
        _compare(cndi.median_filter(cp.asarray(xu), 3, mode='constant', cval=cval, output=numpy.float64).get(),
                 sndi.median_filter(xu, 3, mode='constant', cval=cval, output=numpy.float64))
    x64 = numpy.array([2 ** 62 + 1, 2 ** 62 + 3, 2 ** 62 + 2, 5, 2 ** 62 + 7], dtype=numpy.int64)
    assert (cndi.median_filter(cp.asarray(x64), 3).get() == sndi.median_filter(x64, 3)).all()
    for dt in (numpy.float32, numpy.float64):
        x = _nan_image(dt)
        for size, rank in ((3, 4), (3, 7), (5, 12), (5, 1)):
            got = cndi.rank_filter(cp.asarray(x), rank, size).get()
            assert numpy.array_equal(got, _sorted_rank_reference(x, size, rank), equal_nan=True)


@gpu
def test_benchmark_sizes_match_scipy():
    """The issue's benchmark filters on a 4096-wide image band (every tile path at its real size)."""
    x = (numpy.random.default_rng(7).standard_normal((96, 4096)) * 10).astype(numpy.float32)
    d = cp.asarray(x)
    _compare(cndi.gaussian_filter(d, 4.0).get(), sndi.gaussian_filter(x, 4.0))
    for size in (3, 7):
        assert numpy.array_equal(cndi.median_filter(d, size).get(), sndi.median_filter(x, size))
