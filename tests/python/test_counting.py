"""bincount, histogram, histogram_bin_edges, histogram2d and histogramdd against NumPy."""
import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

INT_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint16", "uint32"]
REAL_DTYPES = ["int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64"]
RULES = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def _ints(dtype, n, seed=0, hi=20):
    rng = numpy.random.default_rng(seed)
    return rng.integers(0, 2 if dtype == "bool" else hi, n).astype(dtype)


def _reals(dtype, n, seed=0):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind in "iu":
        lo = 0 if numpy.dtype(dtype).kind == "u" else -40
        return rng.integers(lo, 60, n).astype(dtype)
    return (rng.standard_normal(n) * 3).astype(dtype)


# -- CPU ------------------------------------------------------------------------------------------------------


def test_functions_are_exported():
    for name in ("bincount", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd"):
        assert callable(getattr(cp, name)), name


def test_bincount_minlength_none_raises_type_error():
    with pytest.raises(TypeError, match="use 0 instead of None"):
        cp.bincount([1, 2], minlength=None)


@pytest.mark.parametrize("fn", ["bincount", "histogram"])
def test_host_arrays_are_refused_with_type_error(fn):
    with pytest.raises(TypeError):
        getattr(cp, fn)(numpy.arange(4))


# -- GPU: bincount -----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("n,hi", [(1, 5), (100, 20), (5000, 3), (100000, 9000)])
@testing.numpy_cuarray_equal()
def test_bincount_matches_numpy(xp, dtype, n, hi):
    x = xp.asarray(_ints(dtype, n, hi=hi))
    return xp.bincount(x), xp.bincount(x, minlength=30), xp.bincount(x[::-3])


@gpu
@pytest.mark.parametrize("wdtype", ["float64", "float32", "int8", "bool", "uint32"])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_bincount_with_weights(xp, wdtype):
    x = xp.asarray(_ints("int32", 3000, hi=50))
    w = xp.asarray(_reals("float64", 3000, seed=1).astype(wdtype))
    big = xp.asarray(_ints("int64", 3000, hi=100000))
    return xp.bincount(x, weights=w), xp.bincount(x, weights=w, minlength=80), xp.bincount(big, weights=w)


@gpu
@testing.numpy_cuarray_equal()
def test_bincount_of_empty_input(xp):
    # NumPy answers intp zeros for an empty list, weights or not, and never looks at the weights.
    return (xp.bincount(xp.zeros(0, dtype=xp.int64)), xp.bincount(xp.zeros(0, dtype=xp.int32), minlength=4),
            xp.bincount(xp.zeros(0, dtype=xp.int64), weights=xp.zeros(0)),
            xp.bincount(xp.zeros(0, dtype=xp.uint64), weights=xp.zeros(3, dtype=xp.complex128), minlength=2))


@gpu
@testing.numpy_cuarray_equal()
def test_bincount_force_casts_unsigned_input(xp):
    # uint64 is cast to intp like any integer input (values below 2**63 stay as they are).
    return (xp.bincount(xp.asarray(numpy.array([1, 2, 2], numpy.uint64))),
            xp.bincount(xp.asarray(numpy.array([3, 0], numpy.uint64)), weights=xp.asarray(numpy.array([0.5, 2.0]))))


@gpu
@pytest.mark.parametrize("case", ["negative", "float", "uint64", "uint64_wraps", "2d", "0d", "minlength", "weights_len",
                                  "weights_complex", "negative_before_weights", "empty_float"])
@testing.numpy_cuarray_equal()
def test_bincount_errors(xp, case):
    x = xp.asarray(numpy.array([1, 2, 3]))
    if case == "negative":
        return xp.bincount(xp.asarray(numpy.array([1, -1, 3])))
    if case == "float":
        return xp.bincount(xp.asarray(numpy.array([1.0, 2.0])))
    if case == "uint64":
        return xp.bincount(xp.asarray(numpy.array([1, 2], numpy.uint64)))
    if case == "uint64_wraps":  # 2**63 becomes negative in the cast to intp
        return xp.bincount(xp.asarray(numpy.array([1, 2**63], numpy.uint64)))
    if case == "negative_before_weights":  # NumPy checks the values before it converts the weights
        return xp.bincount(xp.asarray(numpy.array([1, -1])), weights=xp.ones(2, dtype=xp.complex128))
    if case == "empty_float":  # an empty float array still needs a safe cast
        return xp.bincount(xp.zeros(0))
    if case == "2d":
        return xp.bincount(xp.ones((2, 2), dtype=xp.int64))
    if case == "0d":
        return xp.bincount(xp.asarray(numpy.int64(3)))
    if case == "minlength":
        return xp.bincount(x, minlength=-1)
    if case == "weights_len":
        return xp.bincount(x, weights=xp.ones(4))
    return xp.bincount(x, weights=xp.ones(3, dtype=xp.complex128))


# -- GPU: histogram --------------------------------------------------------------------------------------------


def _hist_pair(xp, a, **kw):
    n, e = xp.histogram(a, **kw)
    return n, e


@gpu
@pytest.mark.parametrize("dtype", REAL_DTYPES)
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_histogram_matches_numpy(xp, dtype):
    a = xp.asarray(_reals(dtype, 4000).reshape(40, 100))
    return (_hist_pair(xp, a), _hist_pair(xp, a, bins=7), _hist_pair(xp, a, bins=3, range=(-2, 5)),
            _hist_pair(xp, a, bins=1000), _hist_pair(xp, a[::3, ::-1], bins=5000 if dtype != "float16" else 300),
            _hist_pair(xp, a[:1, :1]))


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int16"])
@testing.numpy_cuarray_equal()
def test_histogram_edges_are_bit_identical_to_numpy(xp, dtype):
    # NumPy's linspace runs in the data's float type when the edges come from a.min() and a.max(), in float64
    # for a range; counts depend on every bit of the edges.
    outs = []
    for seed in range(6):
        a = xp.asarray(_reals(dtype, 2000, seed=seed) * (1 if dtype == "int16" else 10.0 ** (seed - 2)))
        for bins in (10, 7, 333):
            outs.append(xp.histogram(a, bins=bins))
        outs.append(xp.histogram(a, bins=13, range=(-1.1, 2.3)))
        outs.append(xp.histogram_bin_edges(a, bins="rice", range=(-3, 4)))
    outs.append(xp.histogram(xp.full(4, 2.5, dtype=dtype), bins=3))
    return outs


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@testing.numpy_cuarray_equal()
def test_histogram_range_is_compared_in_the_data_type(xp, dtype):
    # float32(0.7) < 0.7, yet NumPy keeps it: it compares with the range cast to the data's type.
    a = xp.asarray(numpy.array([0.1, 0.7, 0.3, 0.69999, 0.100001, 0.5, 0.0999], dtype))
    return xp.histogram(a, bins=3, range=(0.1, 0.7)), xp.histogram(a, bins="sqrt", range=(0.1, 0.7))


@gpu
@pytest.mark.parametrize("wdtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("density", [False, True])
@testing.numpy_cuarray_equal()
def test_histogram_weights_over_edges_cumulate_like_numpy(xp, wdtype, density):
    # Over explicit edges NumPy bins weights as differences of cumulative sums in the weights' type, per block
    # of 65536 samples (70000 samples: two blocks).
    a = _reals("float64", 70000)
    a[::997] = numpy.nan
    w = _reals("float64", 70000, seed=3)
    if wdtype == "complex64":
        w = w + 1j * _reals("float64", 70000, seed=4)
    edges = xp.asarray(numpy.array([-5.0, -1.0, 0.0, 0.5, 4.0, 9.0]))
    return xp.histogram(xp.asarray(a), bins=edges, weights=xp.asarray(w.astype(wdtype)), density=density)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
@pytest.mark.parametrize("density", [False, True])
@testing.numpy_cuarray_equal()
def test_histogramdd_edges_take_the_type_of_numpys_linspace(xp, dtype, density):
    s = xp.asarray(_reals(dtype, 3000).reshape(1000, 3))
    return (xp.histogramdd(s, bins=(7, 5, 9), density=density),
            xp.histogramdd(s, bins=4, range=[(-2, 2), None, (0, 1)], density=density))


@gpu
@testing.numpy_cuarray_equal()
def test_histogram_last_edge_is_inclusive_and_outliers_are_dropped(xp):
    a = xp.asarray(numpy.array([0.0, 1.0, 1.0, 2.0, 3.0, 4.0, -1.0, 5.0, numpy.nan, numpy.inf]))
    edges = xp.asarray(numpy.array([0.0, 1.0, 1.0, 2.5, 4.0]))
    iedges = xp.asarray(numpy.array([0, 2, 4]))
    return (xp.histogram(a, bins=edges), xp.histogram(a, bins=iedges), xp.histogram(a, bins=4, range=(0, 4)),
            xp.histogram(a, bins=[0, 1, 4]))


@gpu
@testing.numpy_cuarray_equal()
def test_histogram_bins_of_uneven_repeated_and_infinite_edges(xp):
    # The kernel guesses a bin as if the edges were uniform and settles it against the edges: these edges are far
    # from uniform, repeat, or are infinite, and the values sit on, just beside and between them.
    rng = numpy.random.default_rng(4)
    geo = numpy.geomspace(1e-3, 1e3, 97)
    rep = numpy.array([0.0, 0.0, 1.0, 1.0, 1.0, 2.0, 7.0, 7.0])
    inf = numpy.array([-numpy.inf, -1.0, 0.0, 0.5, numpy.inf])
    out = []
    for e in (geo, rep, inf):
        fin = e[numpy.isfinite(e)]
        v = numpy.concatenate([e, numpy.nextafter(fin, numpy.inf), numpy.nextafter(fin, -numpy.inf),
                               rng.uniform(fin.min() - 1, fin.max() + 1, 4000), [numpy.nan, numpy.inf, -numpy.inf]])
        out.append(xp.histogram(xp.asarray(v), bins=xp.asarray(e))[0])
        out.append(xp.histogramdd(xp.asarray(numpy.stack([v, v[::-1]], axis=1)), bins=[xp.asarray(e), xp.asarray(geo)])[0])
    return tuple(out)


@gpu
@pytest.mark.parametrize("wdtype", ["float64", "float32", "int32", "complex128"])
@pytest.mark.parametrize("density", [False, True])
@testing.numpy_cuarray_allclose(rtol=1e-9)
def test_histogram_weights_and_density(xp, wdtype, density):
    a = xp.asarray(_reals("float64", 3000))
    w = _reals("float64", 3000, seed=7)
    if wdtype == "complex128":
        w = w + 1j * _reals("float64", 3000, seed=8)
    w = xp.asarray(w.astype(wdtype))
    edges = xp.asarray(numpy.array([-5.0, -1.0, 0.0, 0.5, 4.0, 9.0]))
    return (xp.histogram(a, bins=12, weights=w, density=density),
            xp.histogram(a, bins=edges, weights=w, density=density),
            xp.histogram(a, bins=9, range=(-1, 1), density=density))


@gpu
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_histogram_bin_rules(xp, rule, dtype):
    a = xp.asarray(_reals(dtype, 1500, seed=4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return (xp.histogram(a, bins=rule), xp.histogram(a, bins=rule, range=(-3, 4)),
                xp.histogram_bin_edges(a, bins=rule), xp.histogram(a[:1], bins=rule), xp.histogram(a[:0], bins=rule))


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_histogram_of_bool_warns_and_counts_as_uint8(xp):
    a = xp.asarray(numpy.array([True, False, True, True]))
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        return xp.histogram(a, bins=3)


@gpu
@testing.numpy_cuarray_equal()
def test_histogram_of_constant_and_empty_input(xp):
    return (xp.histogram(xp.full(10, 3.0)), xp.histogram(xp.zeros(0)),
            xp.histogram(xp.full(5, 7, dtype=xp.int8), 4), xp.histogram_bin_edges(xp.zeros(0), bins=3, range=(1, 2)))


@gpu
@pytest.mark.parametrize("case", ["nan", "inf", "range_order", "range_inf", "bins0", "bins_float", "bins_decreasing",
                                  "rule", "rule_weights", "bins_2d", "weights_shape"])
@testing.numpy_cuarray_equal()
def test_histogram_errors(xp, case):
    a = xp.asarray(numpy.array([1.0, 2.0, 3.0]))
    if case == "nan":
        return xp.histogram(xp.asarray(numpy.array([1.0, numpy.nan])))
    if case == "inf":
        return xp.histogram(xp.asarray(numpy.array([1.0, numpy.inf])))
    if case == "range_order":
        return xp.histogram(a, range=(2, 1))
    if case == "range_inf":
        return xp.histogram(a, range=(0, numpy.inf))
    if case == "bins0":
        return xp.histogram(a, bins=0)
    if case == "bins_float":
        return xp.histogram(a, bins=2.5)
    if case == "bins_decreasing":
        return xp.histogram(a, bins=xp.asarray(numpy.array([3.0, 1.0])))
    if case == "rule":
        return xp.histogram(a, bins="foo")
    if case == "rule_weights":
        return xp.histogram(a, bins="auto", weights=xp.ones(3))
    if case == "bins_2d":
        return xp.histogram(a, bins=xp.ones((2, 2)))
    return xp.histogram(a, weights=xp.ones(4))


@gpu
def test_histogram_error_messages():
    with pytest.raises(ValueError, match=r"autodetected range of \[1.0, inf\] is not finite"):
        cp.histogram(cp.asarray(numpy.array([1.0, 2.0, numpy.inf])))
    with pytest.raises(ValueError, match="Too many bins for data range"):
        cp.histogram(cp.asarray(numpy.array([1.0, 1.001], numpy.float16)), bins=1000)


# -- GPU: histogramdd / histogram2d --------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("density", [False, True])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_histogramdd_matches_numpy(xp, density):
    s = xp.asarray(_reals("float64", 3000).reshape(1000, 3))
    w = xp.asarray(_reals("float32", 1000, seed=9))
    e1 = xp.asarray(numpy.array([-4.0, -1.0, 0.0, 2.0, 6.0]))
    return (xp.histogramdd(s, density=density), xp.histogramdd(s, bins=(3, 4, 5), density=density),
            xp.histogramdd(s, bins=[4, e1, 2], range=[(-2, 2), None, (0, 1)], density=density, weights=w),
            xp.histogramdd(s[:, 0], bins=6, density=density), xp.histogramdd(s.T[::-1].T, bins=2, density=density))


@gpu
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_histogramdd_of_column_lists_and_histogram2d(xp):
    x = xp.asarray(_reals("float64", 500, seed=1))
    y = xp.asarray(_reals("int32", 500, seed=2))
    ex = xp.asarray(numpy.linspace(-5, 5, 7))
    return (xp.histogramdd([x, y], bins=5), xp.histogram2d(x, y), xp.histogram2d(x, y, bins=[3, 4]),
            xp.histogram2d(x, y, bins=ex, density=True), xp.histogram2d(x, y, bins=(ex, 3), range=[None, (0, 10)]),
            xp.histogram2d(x, y, bins=4, weights=xp.asarray(_reals("float64", 500, seed=3))))


@gpu
@pytest.mark.parametrize("case", ["bins_count", "bins0", "bins_float", "range_len", "decreasing", "xy_len", "nan"])
@testing.numpy_cuarray_equal()
def test_histogramdd_errors(xp, case):
    s = xp.ones((3, 2))
    if case == "bins_count":
        return xp.histogramdd(s, bins=(2, 3, 4))
    if case == "bins0":
        return xp.histogramdd(s, bins=0)
    if case == "bins_float":
        return xp.histogramdd(s, bins=2.5)
    if case == "range_len":
        return xp.histogramdd(s, range=[(0, 1)])
    if case == "decreasing":
        return xp.histogramdd(s, bins=[xp.asarray(numpy.array([2.0, 1.0])), 3])
    if case == "xy_len":
        return xp.histogram2d(xp.ones(3), xp.ones(4))
    return xp.histogramdd(xp.asarray(numpy.array([[1.0, numpy.nan]])))


# -- GPU: the one-dimensional binning kernel (issue 23: values binned in their own dtype) -------------------------


@gpu
@pytest.mark.parametrize("dtype", REAL_DTYPES + ["bool", "int16", "uint16", "uint32"])
@pytest.mark.parametrize("n", [1, 3, 15, 16, 17, 33, 1029])
@testing.numpy_cuarray_equal()
def test_histogram_native_dtypes_around_vector_boundaries(xp, dtype, n):
    # Lengths around the 16-byte vectors of every item size, and views that start off a vector boundary or are
    # strided (copied first), so that the kernel's loose head and tail values are binned as the vectors are.
    a = xp.asarray(_ints(dtype, n + 3, hi=9) if dtype == "bool" else _reals(dtype, n + 3, seed=n))
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # bool input warns in NumPy
        for v in (a[:n], a[1:n + 1], a[3:], a[::2], a[::-1]):
            out += [xp.histogram(v, bins=7, range=(-5, 8))[0], xp.histogram(v, bins=1024, range=(-20, 70))[0]]
        out.append(xp.histogram(a[1:], bins=5))
    return tuple(out)


@gpu
@testing.numpy_cuarray_equal()
def test_histogram_float32_values_on_and_beside_uniform_edges(xp):
    # Every edge of 1024 uniform bins over [0, 1] (float32, as NumPy's linspace makes them), its neighbours, the
    # range's ends (1.0 goes into the last bin), values just outside, NaN and infinities (dropped).
    e = numpy.linspace(0.0, 1.0, 1025).astype(numpy.float32)
    v = numpy.concatenate([e, numpy.nextafter(e, numpy.float32(2)), numpy.nextafter(e, numpy.float32(-1)),
                           numpy.array([1.0, 1.0, 0.0, -0.0, numpy.nan, numpy.inf, -numpy.inf, 1.0000001, -1e-30],
                                       numpy.float32)])
    big = numpy.random.default_rng(5).random((1 << 20) + 5).astype(numpy.float32)
    big[::1000] = 1.0
    e64 = numpy.linspace(0.0, 1.0, 11)  # explicit float64 edges, most of them not float32 values: double compares
    v10 = numpy.concatenate([v, e64.astype(numpy.float32), numpy.nextafter(e64.astype(numpy.float32), -1)])
    h = numpy.array([0.0, 0.099975586, 0.1, 0.5, 0.9995, 1.0, numpy.nan], numpy.float16)
    return (xp.histogram(xp.asarray(v), bins=1024, range=(0.0, 1.0)),
            xp.histogram(xp.asarray(v)[1:], bins=1024, range=(0.0, 1.0)),
            xp.histogram(xp.asarray(v10), bins=xp.asarray(e64)),
            xp.histogram(xp.asarray(v10), bins=xp.asarray(e64.astype(numpy.float32))),
            xp.histogram(xp.asarray(h), bins=xp.asarray(e64)), xp.histogram(xp.asarray(h), bins=10, range=(0, 1)),
            xp.histogram(xp.asarray(v), bins=1000, range=(0.25, 0.75)),
            xp.histogram(xp.asarray(big), bins=1024, range=(0.0, 1.0)),
            xp.histogram(xp.asarray(big), bins=37, range=(0.1, 0.9)))


@gpu
@pytest.mark.parametrize("bins", [1, 2048, 3071, 3073, 4096, 4097, 10000, 20000])
@pytest.mark.parametrize("wdtype", [None, "float64", "float32", "int32"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_histogram_bin_counts_in_shared_and_global_memory(xp, bins, wdtype):
    # Counts stay in shared memory up to 4096 bins, the edges (float for this data) beside them while both fit in
    # 48 KiB; above, the kernel adds to global memory directly, and reads double edges from global memory when
    # not even the float edges fit.
    a = xp.asarray(_reals("float32", 50000, seed=bins))
    w = None if wdtype is None else xp.asarray(_reals("float64", 50000, seed=2).astype(wdtype))
    w7 = None if w is None else w[7:]
    return xp.histogram(a, bins=bins, range=(-6, 6), weights=w), xp.histogram(a[7:], bins=bins, weights=w7)


@gpu
@testing.numpy_cuarray_equal()
def test_histogram_of_64_bit_integers_beyond_double_precision(xp):
    # int64/uint64 values widen to double as astype(float64) rounds them, in the kernel and in the range.
    base = numpy.array([2**62, 2**62 + 1, 2**62 + 513, 2**62 + 4096, 2**60, -(2**62), 7, -7], numpy.int64)
    u = numpy.array([2**64 - 1, 2**63, 2**63 + 1025, 5, 0, 2**53 + 1], numpy.uint64)
    return (xp.histogram(xp.asarray(base), bins=5), xp.histogram(xp.asarray(base), bins=4, range=(0, 2.0**62)),
            xp.histogram(xp.asarray(u), bins=3), xp.histogram(xp.asarray(u), bins=[0, 2.0**53, 2.0**63, 2.0**64]))


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("case", ["nan", "inf", "ninf"])
@testing.numpy_cuarray_equal()
def test_histogram_autodetected_range_of_narrow_floats_must_be_finite(xp, dtype, case):
    bad = {"nan": numpy.nan, "inf": numpy.inf, "ninf": -numpy.inf}[case]
    a = xp.asarray(numpy.array([1.0, bad, 2.0], dtype))
    return xp.histogram(a, bins=3)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32"])
@testing.numpy_cuarray_equal()
def test_histogram_of_narrow_floats_with_nan_in_a_given_range_drops_it(xp, dtype):
    a = xp.asarray(numpy.array([0.5, numpy.nan, 1.5, numpy.inf, 2.0, -numpy.inf], dtype))
    return xp.histogram(a, bins=4, range=(0, 2)), xp.histogram(a[:0], bins=4, range=(0, 2))


@gpu
def test_histogram_error_message_names_float32_values():
    with pytest.raises(ValueError, match=r"autodetected range of \[1.0, inf\] is not finite"):
        cp.histogram(cp.asarray(numpy.array([1.0, 2.0, numpy.inf], numpy.float32)))
