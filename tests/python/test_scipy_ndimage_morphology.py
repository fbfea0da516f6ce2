"""cuarray.scipy.ndimage morphology and measurements against scipy.ndimage.

CPU tests compile every generated kernel with NVRTC, and run the whole module with its kernels compiled for the
host by g++ (one thread runs each grid-stride launch; atomicMin becomes a plain read-modify-write) and NumPy in
place of cuarray, so the algorithms (union-find labelling, lower-envelope distance transform, erosion passes,
labelled statistics) are checked against SciPy without a GPU. GPU tests run the same comparisons on the device.
"""
import sys
import types
import warnings

import numpy
import pytest
import scipy.ndimage as sndi

import cuarray as cp
import cuarray.scipy.ndimage as cndi
from cuarray.scipy.ndimage import _filters, _measurements, _morph_kernels, _morphology, _util

gpu = pytest.mark.gpu
sys.path.insert(0, __file__.rsplit('/', 1)[0])

_ATOMIC_SHIM = r"""
#include <cmath>
template <class T> static T atomicMin(T* p, T v) { T old = *p; if (v < old) *p = v; return old; }
"""

DTYPES = [numpy.dtype(t) for t in ('bool', 'uint8', 'int16', 'int32', 'float32', 'float64')]


def _host_kernel(src, name):
    import _signal_host
    saved = _signal_host.SHIM
    _signal_host.SHIM = _ATOMIC_SHIM + saved
    try:
        return _signal_host._HostKernel(src, name)
    finally:
        _signal_host.SHIM = saved


@pytest.fixture
def host(monkeypatch):
    """cuarray.scipy.ndimage with its kernels compiled for the host and NumPy arrays in place of device ones."""
    import _signal_host
    if _signal_host.compiler() is None:
        pytest.skip("no host C++ compiler")
    from test_scipy_ndimage import _emulated_launch
    mk = _morph_kernels
    monkeypatch.setattr(mk, 'erode_kernel', lambda nd: _host_kernel(mk.erode_source(nd), 'ca_erode'))
    monkeypatch.setattr(mk, 'grey_kernel',
                        lambda nd, m, i, o, mn: _host_kernel(mk.grey_source(nd, m, i, o, mn), 'ca_grey'))
    monkeypatch.setattr(mk, 'label_kernels', lambda nd, it, ot: tuple(
        _host_kernel(mk.label_source(nd, it, ot), n) for n in mk.LABEL_NAMES))
    monkeypatch.setattr(mk, 'edt_kernels',
                        lambda nd: tuple(_host_kernel(mk.edt_source(nd), n) for n in mk.EDT_NAMES))
    for m in (_morphology, _measurements, _filters):
        monkeypatch.setattr(m, '_cp', numpy)
    monkeypatch.setattr(_filters, '_launch', _emulated_launch)
    monkeypatch.setattr(_util, '_core', types.SimpleNamespace(ndarray=numpy.ndarray))
    return cndi


def _like(x, a):
    """The NumPy array ``a`` on x's side: on the device when x is a device array. Image-sized arguments (masks,
    labels, output arrays) must be device arrays, as in CuPy; only structuring elements may come from the host."""
    return cp.asarray(a) if isinstance(x, cp.ndarray) else a


def _mask(shape, p=0.55, seed=0):
    return numpy.random.default_rng(seed).random(shape) < p


def _values(shape, dtype, seed=1):
    rng = numpy.random.default_rng(seed)
    if dtype.kind == 'b':
        return rng.random(shape) < 0.5
    if dtype.kind in 'iu':
        return rng.integers(0, 100, shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if want is None or isinstance(want, (slice, int)):
        assert got == want
        return
    got = got.get() if hasattr(got, 'get') else numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype != object:
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind == 'f':
        tol = 1e-5 if want.dtype == numpy.float32 else 1e-10
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    elif want.dtype == object:
        for g, w in zip(got.ravel(), want.ravel()):
            _same(g, w)
    else:
        numpy.testing.assert_array_equal(got, want)


SHAPES = [(17,), (9, 11), (5, 6, 7)]
S2 = numpy.array([[0, 1, 1], [1, 1, 0], [0, 1, 0]], bool)


def _binary_cases():
    def st(x):
        return sndi.generate_binary_structure(x.ndim, x.ndim)
    return [
        lambda n, x: n.binary_erosion(x),
        lambda n, x: n.binary_erosion(x, st(x), border_value=1),
        lambda n, x: n.binary_erosion(x, iterations=2, origin=(1,) + (0,) * (x.ndim - 1)),
        lambda n, x: n.binary_erosion(x, iterations=0, border_value=1),
        lambda n, x: n.binary_erosion(x, numpy.ones((2,) * x.ndim), brute_force=True, iterations=3),
        lambda n, x: n.binary_erosion(x, mask=_like(x, _mask(x.shape, 0.7, 3)), iterations=2),
        lambda n, x: n.binary_dilation(x),
        lambda n, x: n.binary_dilation(x, st(x), iterations=3, border_value=1),
        lambda n, x: n.binary_dilation(x, numpy.ones((2,) * x.ndim), origin=-1),
        lambda n, x: n.binary_dilation(x, mask=_like(x, _mask(x.shape, 0.6, 4)), iterations=-1),
        lambda n, x: n.binary_opening(x, iterations=2),
        lambda n, x: n.binary_closing(x, st(x), origin=(0,) * (x.ndim - 1) + (1,)),
        lambda n, x: n.binary_propagation((x != 0) & _like(x, _mask(x.shape, 0.2, 5)), mask=x),
        lambda n, x: n.binary_fill_holes(x),
        lambda n, x: n.binary_fill_holes(x, st(x)),
        lambda n, x: n.binary_hit_or_miss(x),
        lambda n, x: n.binary_hit_or_miss(x, numpy.ones((1,) * (x.ndim - 1) + (3,)), origin2=(0,) * x.ndim),
    ]


BINARY = _binary_cases()


@pytest.mark.parametrize('k', range(len(BINARY)))
def test_host_binary_morphology(host, k):
    for shape in SHAPES:
        for dtype in (numpy.dtype(bool), numpy.dtype(numpy.float32), numpy.dtype(numpy.int16)):
            x = _mask(shape, seed=len(shape)).astype(dtype)
            _same(BINARY[k](host, x), BINARY[k](sndi, x))


def test_host_binary_2d_structures_and_outputs(host):
    x = _mask((12, 10), 0.6, 7)
    for f in (lambda n: n.binary_erosion(x, S2, origin=(1, -1)), lambda n: n.binary_dilation(x, S2, iterations=4),
              lambda n: n.binary_dilation(x, S2, axes=(1, 0)),
              lambda n: n.binary_erosion(numpy.stack([x, x]), [1, 1, 1], axes=2),
              lambda n: n.binary_erosion(x[::-2, 1::3]), lambda n: n.binary_dilation(x.T, iterations=0),
              lambda n: n.binary_erosion(numpy.zeros((0, 3), bool)), lambda n: n.binary_dilation(numpy.array(True)),
              lambda n: n.binary_erosion(numpy.array(True), border_value=1),
              lambda n: n.binary_dilation(x, numpy.zeros((3, 3), bool))):
        _same(f(host), f(sndi))
    o1, o2 = numpy.zeros(x.shape, numpy.uint8), numpy.zeros(x.shape, numpy.uint8)
    assert host.binary_dilation(x, output=o1) is o1
    sndi.binary_dilation(x, output=o2)
    _same(o1, o2)
    o1, o2 = numpy.zeros(x.shape, bool), numpy.zeros(x.shape, bool)
    assert host.binary_fill_holes(x, output=o1) is None and sndi.binary_fill_holes(x, output=o2) is None
    _same(o1, o2)


def test_host_structures():
    for rank in range(0, 4):
        for conn in range(0, 4):
            _same(cndi._morphology._host_structure(rank, conn), sndi.generate_binary_structure(rank, conn))


def test_host_iterate_structure(host):
    for s in (sndi.generate_binary_structure(2, 1), S2, numpy.ones((3, 1)), sndi.generate_binary_structure(3, 2)):
        for it in (1, 2, 3):
            _same(host.iterate_structure(s, it), sndi.iterate_structure(s, it))
        got, o = host.iterate_structure(s, 3, origin=1)
        want, wo = sndi.iterate_structure(s, 3, origin=1)
        _same(got, want)
        assert list(o) == list(wo)


def _grey_cases():
    # Integral structure values: SciPy's conversion of a fractional min/max back to an integer input type
    # does not follow C's truncation of the double result (see the report), so integer inputs use whole steps.
    fp = numpy.array([[1, 0, 1], [1, 1, 0]], bool)
    st = numpy.array([[0.0, 1.0, -2.0], [0.0, 3.0, 1.0]])
    return [
        lambda n, x: n.grey_erosion(x, size=3),
        lambda n, x: n.grey_dilation(x, size=(2, 3), mode='constant', cval=5.0),
        lambda n, x: n.grey_erosion(x, footprint=fp, mode='wrap'),
        lambda n, x: n.grey_dilation(x, footprint=fp, origin=(0, -1), mode='mirror'),
        lambda n, x: n.grey_erosion(x, structure=st, mode='nearest'),
        lambda n, x: n.grey_dilation(x, structure=st, mode='constant', cval=-1.0),
        lambda n, x: n.grey_dilation(x, footprint=fp, structure=st, origin=(-1, 0)),
        lambda n, x: n.grey_opening(x, size=(3, 2)),
        lambda n, x: n.grey_closing(x, structure=st),
        lambda n, x: n.morphological_gradient(x, size=3),
        lambda n, x: n.morphological_laplace(x, footprint=fp),
        lambda n, x: n.white_tophat(x, size=3),
        lambda n, x: n.black_tophat(x, structure=st, mode='reflect'),
    ]


GREY = _grey_cases()


@pytest.mark.parametrize('k', range(len(GREY)))
def test_host_grey_morphology(host, k):
    for dtype in (numpy.dtype(numpy.float64), numpy.dtype(numpy.float32), numpy.dtype(numpy.int16)):
        x = _values((10, 9), dtype)
        if dtype.kind == 'i':
            x = x + 10  # structure offsets stay inside the type
        _same(GREY[k](host, x), GREY[k](sndi, x))


def test_host_grey_1d_3d_and_bool(host):
    x1 = _values((15,), numpy.dtype(numpy.float64))
    x3 = _values((5, 6, 4), numpy.dtype(numpy.float32))
    xb = _mask((8, 7))
    for f in (lambda n: n.grey_erosion(x1, structure=[1.0, 0.0, 2.0]), lambda n: n.grey_dilation(x3, size=2),
              lambda n: n.grey_dilation(x3, structure=numpy.ones((2, 3, 2))),
              lambda n: n.grey_erosion(x3, structure=[[0.5, 1]], axes=(0, 2)),
              lambda n: n.white_tophat(xb, size=3), lambda n: n.black_tophat(xb, size=2),
              lambda n: n.grey_erosion(numpy.zeros((0, 3)), structure=numpy.ones((3, 3)))):
        _same(f(host), f(sndi))


def test_host_label(host):
    for shape in SHAPES:
        for conn in range(1, len(shape) + 1):
            for p in (0.3, 0.55, 0.8):
                x = _mask(shape, p, seed=conn)
                s = sndi.generate_binary_structure(len(shape), conn)
                _same(host.label(x, s), sndi.label(x, s))
    x = _values((13, 12), numpy.dtype(numpy.int16)) % 3
    for s in (numpy.ones((3, 3)), numpy.eye(3), numpy.eye(3)[::-1]):
        _same(host.label(x, s), sndi.label(x, s))
    with pytest.raises(AssertionError):  # SciPy's exception for a structure that is not centrosymmetric
        host.label(x, S2)
    for f in (lambda n: n.label(x.T[::2]), lambda n: n.label(x, output=numpy.uint8),
              lambda n: n.label(x, output=numpy.float64), lambda n: n.label(numpy.zeros((0, 2))),
              lambda n: n.label(numpy.array(3)), lambda n: n.label(numpy.array(0.0)),
              lambda n: n.label(numpy.ones((4, 4))), lambda n: n.label(numpy.zeros((4, 4)))):
        _same(f(host), f(sndi))
    o1, o2 = numpy.zeros(x.shape, numpy.int64), numpy.zeros(x.shape, numpy.int64)
    assert host.label(x, output=o1) == sndi.label(x, output=o2)
    _same(o1, o2)
    big = numpy.zeros((40, 40), bool)
    big[::2, ::2] = True  # 400 labels
    with pytest.raises(RuntimeError):
        sndi.label(big, output=numpy.uint8)
    with pytest.raises(RuntimeError):
        host.label(big, output=numpy.uint8)


def test_host_distance_transform_edt(host):
    for shape in SHAPES + [(1,), (3, 1), (1, 1, 5)]:
        for p in (0.5, 0.95):
            x = _mask(shape, p, seed=len(shape))
            for samp in (None, 1.7, [0.5, 2.0, 1.25][:len(shape)]):
                d_got, i_got = host.distance_transform_edt(x, sampling=samp, return_indices=True)
                d_want = sndi.distance_transform_edt(x, sampling=samp)
                _same(d_got, d_want)
                # Ties may pick another nearest zero: the indices must name a zero at exactly that distance.
                assert i_got.dtype == numpy.int32 and i_got.shape == (len(shape),) + shape
                assert x.all() or not x[tuple(i_got)].any()
                s = numpy.ones(len(shape)) if samp is None else numpy.broadcast_to(samp, (len(shape),))
                diff = (i_got - numpy.indices(shape)) * s.reshape((-1,) + (1,) * len(shape))
                numpy.testing.assert_allclose(numpy.sqrt((diff ** 2).sum(0)), d_want, rtol=1e-12)
    for x in (numpy.ones((3, 4)), numpy.ones(3), numpy.array(1.0), numpy.zeros((0, 3)), numpy.ones((2, 2, 2))):
        _same(host.distance_transform_edt(x, return_indices=True), sndi.distance_transform_edt(x, return_indices=True))
    x = _mask((7, 8), 0.7)
    d1, d2 = numpy.zeros((7, 8)), numpy.zeros((7, 8))
    i1, i2 = numpy.zeros((2, 7, 8), numpy.int32), numpy.zeros((2, 7, 8), numpy.int32)
    assert host.distance_transform_edt(x, distances=d1, return_indices=True, indices=i1) is None
    sndi.distance_transform_edt(x, distances=d2, return_indices=True, indices=i2)
    _same(d1, d2)
    _same(host.distance_transform_edt(x, return_distances=False, return_indices=True).shape, (2, 7, 8))


def _measure_cases():
    return [
        ('sum', lambda n, x, lab, idx: n.sum(x, lab, idx)),
        ('sum_labels', lambda n, x, lab, idx: n.sum_labels(x, lab, idx)),
        ('mean', lambda n, x, lab, idx: n.mean(x, lab, idx)),
        ('variance', lambda n, x, lab, idx: n.variance(x, lab, idx)),
        ('standard_deviation', lambda n, x, lab, idx: n.standard_deviation(x, lab, idx)),
        ('minimum', lambda n, x, lab, idx: n.minimum(x, lab, idx)),
        ('maximum', lambda n, x, lab, idx: n.maximum(x, lab, idx)),
        ('median', lambda n, x, lab, idx: n.median(x, lab, idx)),
        ('minimum_position', lambda n, x, lab, idx: n.minimum_position(x, lab, idx)),
        ('maximum_position', lambda n, x, lab, idx: n.maximum_position(x, lab, idx)),
        ('extrema', lambda n, x, lab, idx: n.extrema(x, lab, idx)),
        ('center_of_mass', lambda n, x, lab, idx: n.center_of_mass(x, lab, idx)),
        ('histogram', lambda n, x, lab, idx: n.histogram(x, 0, 50, 7, lab, idx)),
    ]


MEASURES = _measure_cases()


def _measure_inputs(dtype, shape=(9, 8)):
    x = _values(shape, dtype, seed=3)
    if dtype.kind == 'f':
        x = numpy.abs(x)  # center_of_mass and histograms want positive weights
    lab = sndi.label(_mask(shape, 0.6, 2))[0]
    return x, lab


def _compare_measure(fn, got, want, name):
    if isinstance(want, (numpy.generic, float, int)) and not isinstance(want, bool):
        g = got.get() if hasattr(got, 'get') else got
        numpy.testing.assert_allclose(numpy.asarray(g, numpy.float64), numpy.asarray(want, numpy.float64),
                                      rtol=1e-5)
        return
    if name == 'center_of_mass' or (isinstance(want, tuple) and name != 'extrema'):
        numpy.testing.assert_allclose(numpy.asarray(got, numpy.float64), numpy.asarray(want, numpy.float64),
                                      rtol=1e-9)
        return
    if name == 'extrema':
        for g, w in zip(got, want):
            _compare_measure(fn, g, w, 'center_of_mass' if isinstance(w, (tuple, list)) else 'x')
        return
    if isinstance(want, list):
        numpy.testing.assert_allclose(numpy.asarray(got, numpy.float64), numpy.asarray(want, numpy.float64))
        return
    _same(got, want)


@pytest.mark.parametrize('name,fn', MEASURES, ids=[m[0] for m in MEASURES])
def test_host_measurements(host, name, fn):
    for dtype in (numpy.dtype(numpy.float64), numpy.dtype(numpy.int32), numpy.dtype(numpy.uint8)):
        x, lab = _measure_inputs(dtype)
        nlab = lab.max()
        for labels, index in ((None, None), (lab, None), (lab, 2), (lab, [1, 2, 3]), (lab, numpy.arange(1, nlab + 1)),
                              (lab, numpy.array([[3, 1], [2, 2]])), (lab.astype(numpy.int8), [2, 1])):
            if dtype.kind != 'f' and name in ('minimum_position', 'maximum_position', 'extrema') and \
                    labels is not None and not numpy.isscalar(index) and index is not None:
                continue  # SciPy's per-label positions of tied values depend on its quicksort's order
            if name == 'histogram' and numpy.ndim(index) > 1:
                continue  # SciPy's labeled_comprehension fails on an index of several dimensions
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                _compare_measure(fn, fn(host, x, labels, index), fn(sndi, x, labels, index), name)


def test_host_measurements_missing_labels_and_float_labels(host):
    x, lab = _measure_inputs(numpy.dtype(numpy.float64))
    for f in (lambda n: n.sum(x, lab, [0, 1, 99]), lambda n: n.mean(x, lab * 1.5, [1.5, 3.0, 2.0]),
              lambda n: n.minimum(x, lab, [99, 1]), lambda n: n.maximum(x, lab - 2, [-1, 0, 5]),
              lambda n: n.variance(x, lab, numpy.array([2, 1])), lambda n: n.median(x, lab, [1, 3])):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            _same(f(host), f(sndi))


def test_host_labeled_comprehension(host):
    x, lab = _measure_inputs(numpy.dtype(numpy.float64))
    for f in (lambda n: n.labeled_comprehension(x, lab, [1, 2, 3, 50], numpy.mean, numpy.float64, -1.0),
              lambda n: n.labeled_comprehension(x, lab, [2, 1], lambda v, p: p.max(), int, 0, pass_positions=True),
              lambda n: n.labeled_comprehension(x, lab, 2, numpy.max, numpy.float32, 0)):
        _same(f(host), f(sndi))
    numpy.testing.assert_allclose(host.labeled_comprehension(x, lab, None, numpy.sum, float, 0),
                                  sndi.labeled_comprehension(x, lab, None, numpy.sum, float, 0))
    with pytest.raises(ValueError):
        host.labeled_comprehension(x, None, 1, numpy.sum, float, 0)
    with pytest.raises(ValueError):
        host.labeled_comprehension(x, lab, [1.5], numpy.sum, float, 0)


def test_host_find_objects_and_value_indices(host):
    lab = sndi.label(_mask((10, 9, 4), 0.4))[0]
    for m in (0, 3, lab.max() + 2):
        assert host.find_objects(lab, m) == sndi.find_objects(lab, m)
    lab2 = numpy.array([[0, 2, 2], [0, 0, 5], [2, 0, 5]])
    assert host.find_objects(lab2) == sndi.find_objects(lab2)
    assert host.find_objects(lab2[:, ::-1].astype(numpy.uint8)) == sndi.find_objects(lab2[:, ::-1])
    for arr, ign in ((lab2, None), (lab2, 0), (lab.astype(numpy.int16), 1), (numpy.array(4), None)):
        got, want = host.value_indices(arr, ignore_value=ign), sndi.value_indices(arr, ignore_value=ign)
        assert sorted(got) == sorted(want)
        for key in want:
            assert type(key) is type(list(got)[list(got).index(key)])
            for g, w in zip(got[key], want[key]):
                numpy.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError):
        host.value_indices(numpy.ones(3))


BAD_CALLS = [
    lambda n, x: n.binary_erosion(x, iterations=1.5),
    lambda n, x: n.binary_erosion(x, [[1, 1]], origin=(0, 2)),
    lambda n, x: n.binary_erosion(x, [1, 1, 1]),
    lambda n, x: n.binary_erosion(x, numpy.ones((0, 3))),
    lambda n, x: n.binary_erosion(x.astype(complex)),
    lambda n, x: n.binary_dilation(x, mask=_like(x, numpy.ones((2, 2)))),
    lambda n, x: n.grey_erosion(x),
    lambda n, x: n.grey_dilation(x),
    lambda n, x: n.grey_erosion(x, structure=numpy.ones((3, 3)), mode='bogus'),
    lambda n, x: n.grey_erosion(x, structure=numpy.ones(3)),
    lambda n, x: n.grey_erosion(x, footprint=numpy.ones((3, 3)), structure=numpy.ones((3, 3)), origin=2),
    lambda n, x: n.grey_erosion(x.astype(complex), size=3),
    lambda n, x: n.label(x, numpy.ones((3, 3, 3))),
    lambda n, x: n.label(x, numpy.ones((3, 2))),
    lambda n, x: n.label(x.astype(complex)),
    lambda n, x: n.distance_transform_edt(x, return_distances=False),
    lambda n, x: n.distance_transform_edt(x, sampling=[1, 2, 3]),
    lambda n, x: n.distance_transform_edt(x, return_indices=True, indices=_like(x, numpy.zeros((2, 5, 6)))),
    lambda n, x: n.distance_transform_edt(x, distances=_like(x, numpy.zeros((5, 6), numpy.float32))),
    lambda n, x: n.mean(x, _like(x, numpy.ones((3, 3), int)), [1]),
    lambda n, x: n.labeled_comprehension(x, None, 1, numpy.sum, float, 0),
    lambda n, x: n.value_indices(x),
    lambda n, x: n.find_objects(x.astype(complex)),
]


@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_host_errors_match_scipy(host, k):
    x = _mask((5, 6)).astype(numpy.float64)
    with pytest.raises(Exception) as want:
        BAD_CALLS[k](sndi, x)
    with pytest.raises(want.type):
        BAD_CALLS[k](host, x)


# -- CPU tests without the host harness -------------------------------------------------------------------
def test_public_names():
    names = {'label', 'sum', 'sum_labels', 'mean', 'variance', 'standard_deviation', 'minimum', 'maximum',
             'minimum_position', 'maximum_position', 'median', 'extrema', 'center_of_mass', 'histogram',
             'labeled_comprehension', 'find_objects', 'value_indices', 'generate_binary_structure',
             'iterate_structure', 'binary_erosion', 'binary_dilation', 'binary_opening', 'binary_closing',
             'binary_propagation', 'binary_fill_holes', 'binary_hit_or_miss', 'grey_erosion', 'grey_dilation',
             'grey_opening', 'grey_closing', 'morphological_gradient', 'morphological_laplace', 'white_tophat',
             'black_tophat', 'distance_transform_edt'}
    assert names <= set(dir(cndi))


def test_host_input_refused_before_device_use():
    for f in (lambda: cndi.binary_erosion(numpy.ones((3, 3))), lambda: cndi.label(numpy.ones(3)),
              lambda: cndi.distance_transform_edt(numpy.ones(3)), lambda: cndi.sum(numpy.ones(3)),
              lambda: cndi.grey_erosion(numpy.ones(3), structure=numpy.ones(3))):
        with pytest.raises(TypeError):
            f()


def test_generated_kernels_compile():
    from cuarray.cuda.compiler import compile_using_nvrtc
    mk = _morph_kernels
    sources = []
    for ndim in (1, 2, 3):
        sources += [mk.erode_source(ndim), mk.edt_source(ndim)]
        for idx_t, out_t in (('int32', 'int32'), ('int64', 'int64'), ('int32', 'uint8'), ('int64', 'float32'),
                             ('int32', 'bool')):
            sources.append(mk.label_source(ndim, idx_t, out_t))
        for mode in ('reflect', 'mirror', 'wrap', 'nearest', 'constant'):
            for ind, outd in (('uint8', 'uint8'), ('float32', 'float32'), ('int16', 'float64'), ('bool', 'bool')):
                for minimum in (True, False):
                    sources.append(mk.grey_source(ndim, mode, ind, outd, minimum))
    for src in sources:
        image, _ = compile_using_nvrtc(src, arch='80')
        assert len(image) > 0


# -- GPU tests ---------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('k', range(len(BINARY)))
def test_binary_morphology(k):
    for shape in SHAPES:
        for dtype in (numpy.dtype(bool), numpy.dtype(numpy.float32)):
            x = _mask(shape, seed=len(shape)).astype(dtype)
            _same(BINARY[k](cndi, cp.asarray(x)), BINARY[k](sndi, x))


@gpu
@pytest.mark.parametrize('k', range(len(GREY)))
def test_grey_morphology(k):
    for dtype in (numpy.dtype(numpy.float64), numpy.dtype(numpy.float32), numpy.dtype(numpy.int16)):
        x = _values((10, 9), dtype)
        if dtype.kind == 'i':
            x = x + 10
        _same(GREY[k](cndi, cp.asarray(x)), GREY[k](sndi, x))


@gpu
def test_label_large_and_views():
    for shape, conn in (((512, 512), 1), ((512, 512), 2), ((64, 64, 64), 3), ((1 << 20,), 1)):
        x = _mask(shape, 0.59, seed=conn)  # near the percolation threshold: long, winding components
        s = sndi.generate_binary_structure(len(shape), conn)
        _same(cndi.label(cp.asarray(x), s), sndi.label(x, s))
    x = _mask((40, 30), 0.5)
    _same(cndi.label(cp.asarray(x)[::-1, ::2]), sndi.label(x[::-1, ::2]))
    o = cp.zeros((40, 30), numpy.int16)
    assert cndi.label(cp.asarray(x), output=o) == sndi.label(x)[1]
    _same(o, sndi.label(x, output=numpy.int16)[0])


@gpu
def test_distance_transform_edt_device():
    for shape in ((300, 200), (40, 30, 20), (1000,)):
        x = _mask(shape, 0.9, seed=len(shape))
        for samp in (None, [0.5, 2.0, 1.25][:len(shape)]):
            d, i = cndi.distance_transform_edt(cp.asarray(x), sampling=samp, return_indices=True)
            _same(d, sndi.distance_transform_edt(x, sampling=samp))
            assert not x[tuple(i.get())].any()
    x = numpy.ones((4, 5))
    _same(cndi.distance_transform_edt(cp.asarray(x), return_indices=True),
          sndi.distance_transform_edt(x, return_indices=True))


@gpu
@pytest.mark.parametrize('name,fn', MEASURES, ids=[m[0] for m in MEASURES])
def test_measurements(name, fn):
    for dtype in (numpy.dtype(numpy.float64), numpy.dtype(numpy.float32), numpy.dtype(numpy.int32)):
        x, lab = _measure_inputs(dtype)
        for labels, index in ((None, None), (lab, None), (lab, 2), (lab, [1, 2, 3]),
                              (lab, numpy.arange(1, lab.max() + 1))):
            if dtype.kind != 'f' and name in ('minimum_position', 'maximum_position', 'extrema') and \
                    isinstance(index, (list, numpy.ndarray)):
                continue
            dl = None if labels is None else cp.asarray(labels)
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                _compare_measure(fn, fn(cndi, cp.asarray(x), dl, index), fn(sndi, x, labels, index), name)


@gpu
def test_find_objects_value_indices_comprehension():
    lab = sndi.label(_mask((30, 20, 6), 0.4))[0]
    assert cndi.find_objects(cp.asarray(lab)) == sndi.find_objects(lab)
    got, want = cndi.value_indices(cp.asarray(lab), ignore_value=0), sndi.value_indices(lab, ignore_value=0)
    assert sorted(got) == sorted(want)
    for key in want:
        for g, w in zip(got[key], want[key]):
            numpy.testing.assert_array_equal(g.get(), w)
    x = _values(lab.shape, numpy.dtype(numpy.float64))
    _same(cndi.labeled_comprehension(cp.asarray(x), cp.asarray(lab), [1, 2, 5], cp.mean, numpy.float64, 0.0),
          sndi.labeled_comprehension(x, lab, [1, 2, 5], numpy.mean, numpy.float64, 0.0))


@gpu
@pytest.mark.parametrize('k', range(len(BAD_CALLS)))
def test_errors_match_scipy(k):
    x = _mask((5, 6)).astype(numpy.float64)
    with pytest.raises(Exception) as want:
        BAD_CALLS[k](sndi, x)
    with pytest.raises(want.type):
        BAD_CALLS[k](cndi, cp.asarray(x))


@gpu
def test_host_arrays_refused_beside_device_input():
    # Image-sized arguments stay on the device, as in CuPy: a host mask or labels array is a TypeError (a mask of
    # the wrong shape is still SciPy's RuntimeError, checked first as CuPy does), never copied behind the caller.
    x = cp.asarray(_mask((5, 6)))
    with pytest.raises(TypeError):
        cndi.binary_erosion(x, mask=_mask((5, 6)))
    with pytest.raises(TypeError):
        cndi.binary_propagation(x, mask=[[True] * 6] * 5)
    with pytest.raises(RuntimeError):
        cndi.binary_dilation(x, mask=numpy.ones((2, 2)))
    with pytest.raises(TypeError):
        cndi.sum(x, _mask((5, 6)).astype(int))
