"""sort, argsort, lexsort, partition, searchsorted, digitize, unique and the set operations against NumPy.

GPU tests compare with NumPy over dtypes, layouts, NaN/-0.0 edge cases and errors; CPU tests check the argument
validation that happens before any device use and the public surface.
"""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                   "uint64", "float16", "float32", "float64", "complex64", "complex128")]
INEXACT = [d for d in DTYPES if d.kind in "fc"]
NAN, INF = numpy.nan, numpy.inf


def _values(dtype, n=200, seed=0, dups=True):
    """Random values of `dtype` with many duplicates and, for floats, 0.0, -0.0, +-inf and NaNs of both signs."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(max(info.min, -20), min(info.max, 20), n, endpoint=True).astype(dt)
        if n >= 4:
            v[:2] = [info.min, info.max]
        return v
    special = numpy.array([0.0, -0.0, INF, -INF, NAN, -NAN, 1.5, -1.5])
    re = numpy.round(rng.standard_normal(n) * 3, 0 if dups else 6)
    k = min(n, len(special))
    re[rng.permutation(n)[:k]] = special[:k]
    if dt.kind == "c":
        im = numpy.round(rng.standard_normal(n) * 2, 0 if dups else 6)
        im[rng.permutation(n)[:k]] = special[:k]
        v = numpy.empty(n, dtype=dt)
        v.real, v.imag = re, im
        return v
    return re.astype(dt)


def _same(got, want):
    """Equal values, dtype and shape (NaNs equal)."""
    got = got.get() if isinstance(got, cp.ndarray) else numpy.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    numpy.testing.assert_array_equal(got, want)


# -- CPU: surface and validation before device use ---------------------------------------------------------

def test_functions_are_exported():
    for name in ("sort", "argsort", "lexsort", "partition", "argpartition", "sort_complex", "searchsorted",
                 "digitize", "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all", "in1d",
                 "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"):
        assert callable(getattr(cp, name)), name
    for name in ("sort", "argsort", "partition", "argpartition", "searchsorted"):
        assert hasattr(cp.ndarray, name), name


def test_host_arrays_are_refused():
    with pytest.raises(TypeError):
        cp.sort(numpy.arange(3))
    with pytest.raises(TypeError):
        cp.unique([1, 2, 3])


# -- GPU: sort and argsort ---------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000])
def test_sort_1d(dtype, n):
    x = _values(dtype, n)
    _same(cp.sort(cp.asarray(x)), numpy.sort(x))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_argsort_is_stable(dtype):
    x = _values(dtype, 500)
    want = numpy.argsort(x, kind="stable")
    for kind in (None, "quicksort", "heapsort", "stable", "mergesort"):
        _same(cp.argsort(cp.asarray(x), kind=kind), want)
    _same(cp.argsort(cp.asarray(x), stable=True), want)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
def test_sort_argsort_axes(dtype, axis):
    x = _values(dtype, 3 * 40 * 5).reshape(3, 40, 5)
    a = cp.asarray(x)
    _same(cp.sort(a, axis=axis), numpy.sort(x, axis=axis))
    _same(cp.argsort(a, axis=axis), numpy.argsort(x, axis=axis, kind="stable"))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_sort_many_rows_and_layouts(dtype):
    x = _values(dtype, 300 * 37).reshape(300, 37)
    a = cp.asarray(x)
    _same(cp.sort(a), numpy.sort(x))
    _same(cp.argsort(a), numpy.argsort(x, kind="stable"))
    # Non-contiguous and negative strides.
    _same(cp.sort(a[::-2, ::3]), numpy.sort(x[::-2, ::3]))
    _same(cp.argsort(a.T), numpy.argsort(x.T, kind="stable"))
    # Large rows (the block-wide radix path of the segmented sort).
    y = _values(dtype, 4 * 20000, seed=3).reshape(4, 20000)
    _same(cp.argsort(cp.asarray(y)), numpy.argsort(y, kind="stable"))
    _same(cp.sort(cp.asarray(y)), numpy.sort(y))


@gpu
def test_sort_large_1d():
    x = numpy.random.default_rng(1).standard_normal(1 << 20).astype(numpy.float32)
    x[::1000] = NAN
    _same(cp.sort(cp.asarray(x)), numpy.sort(x))
    _same(cp.argsort(cp.asarray(x)), numpy.argsort(x, kind="stable"))


@gpu
def test_sort_nan_and_zero_rules():
    x = numpy.array([NAN, 1.0, -0.0, 0.0, -NAN, -INF, INF, -0.0, 0.0, NAN])
    got = cp.sort(cp.asarray(x)).get()
    numpy.testing.assert_array_equal(got, numpy.sort(x))
    assert numpy.isnan(got[-3:]).all()
    # The result is a permutation of the input: both zero signs survive.
    assert numpy.signbit(got[(got == 0)]).sum() == 2
    _same(cp.argsort(cp.asarray(x)), numpy.argsort(x, kind="stable"))
    c = numpy.array([complex(NAN, 0), complex(1, NAN), complex(NAN, NAN), complex(2, 1), complex(NAN, -1),
                     complex(1, 2), complex(1, -1), complex(-INF, NAN)])
    _same(cp.sort(cp.asarray(c)), numpy.sort(c))
    _same(cp.argsort(cp.asarray(c)), numpy.argsort(c, kind="stable"))


@gpu
def test_sort_0d_and_errors():
    a = cp.asarray(numpy.array(3.0))
    _same(cp.sort(a, axis=None), numpy.sort(numpy.array(3.0), axis=None))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.sort(a)
    with pytest.raises(numpy.exceptions.AxisError):
        cp.sort(cp.arange(4), axis=1)
    with pytest.raises(ValueError):
        cp.sort(cp.arange(4), order="x")
    with pytest.raises(ValueError):
        cp.sort(cp.arange(4), kind="bogus")
    with pytest.raises(ValueError):
        cp.sort(cp.arange(4), kind="stable", stable=True)
    _same(cp.argsort(cp.asarray(numpy.array(5))), numpy.argsort(numpy.array(5)))


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_ndarray_sort_in_place(dtype):
    x = _values(dtype, 60).reshape(6, 10)
    for axis in (-1, 0):
        a = cp.asarray(x)
        assert a.sort(axis=axis) is None
        want = x.copy()
        want.sort(axis=axis)
        _same(a, want)
    b = cp.asarray(x)
    v = b[:, ::2]
    v.sort()
    want = x.copy()
    want[:, ::2].sort()
    _same(b, want)
    _same(cp.asarray(x).argsort(axis=0), x.argsort(axis=0, kind="stable"))


# -- GPU: sorts on native keys (Note [native keys] in src/ops/sorting.cpp) -------------------------------

NATIVE = ["float32", "float64", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
# Around CUB's tiles on sm_80/sm_90: single-tile sorts, onesweep tiles of 384 x 17..30 items, warps.
TILE_SIZES = [1, 2, 31, 33, 4095, 4097, 6528, 6529, 6911, 6913, 8832, 8833, 11520, 11521, (1 << 16) + 1]
SORT_NATIVE_MIN = 1 << 20  # float sorts shorter than this take the transformed keys
ARGSORT_NATIVE_MIN = 1 << 23  # float argsorts likewise
FLOAT_SIZES = [SORT_NATIVE_MIN, SORT_NATIVE_MIN + 1, SORT_NATIVE_MIN + 6529, SORT_NATIVE_MIN + 8833,
               SORT_NATIVE_MIN + 11521]


def _native_values(dtype, n, seed=0):
    """Values with many duplicates over the dtype's range: for floats +-0.0, +-inf and NaNs without the sign bit,
    all of one bit pattern (the cases the native keys take)."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        small = rng.random(n) < 0.5  # duplicates, for the stability of argsort
        v[small] = rng.integers(max(info.min, -3), 4, int(small.sum()), dtype=dt)
        v[: min(n, 2)] = [info.min, info.max][: min(n, 2)]
        return v
    v = numpy.round(rng.standard_normal(n) * 3, 1).astype(dt)
    special = numpy.array([0.0, -0.0, INF, -INF, NAN, 0.0, -0.0, NAN], dtype=dt)
    k = min(n, 4 * len(special))
    v[rng.permutation(n)[:k]] = numpy.resize(special, k)
    return v


def _nan_bits(dtype, payload):
    """A NaN of `dtype` with the given extra mantissa bits (0: NumPy's NaN)."""
    u = numpy.uint32 if numpy.dtype(dtype).itemsize == 4 else numpy.uint64
    return numpy.array([NAN], dtype=dtype).view(u)[0] | u(payload)


@gpu
@pytest.mark.parametrize("dtype", NATIVE)
@pytest.mark.parametrize("n", TILE_SIZES)
def test_native_sort_around_tiles(dtype, n):
    x = _native_values(dtype, n, seed=n)
    _same(cp.sort(cp.asarray(x)), numpy.sort(x))
    _same(cp.argsort(cp.asarray(x)), numpy.argsort(x, kind="stable"))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", FLOAT_SIZES)
def test_native_float_sort_around_tiles(dtype, n):
    x = _native_values(dtype, n, seed=n)
    got = cp.sort(cp.asarray(x)).get()
    numpy.testing.assert_array_equal(got, numpy.sort(x))
    # -0.0 and +0.0 are equal keys for CUB: all zeros survive, in input order.
    numpy.testing.assert_array_equal(numpy.signbit(got[got == 0]), numpy.signbit(x[x == 0]))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 4097] + FLOAT_SIZES)
def test_native_sort_moves_negative_nans_last(dtype, n):
    x = _native_values(dtype, n, seed=n)
    neg = numpy.random.default_rng(n).permutation(n)[: max(1, n // 100)]
    x[neg] = -NAN
    assert numpy.signbit(x[neg]).all()
    got = cp.sort(cp.asarray(x)).get()
    numpy.testing.assert_array_equal(got, numpy.sort(x))
    k = int(numpy.isnan(x).sum())
    assert numpy.isnan(got[n - k:]).all() and not numpy.isnan(got[:n - k]).any()
    assert not numpy.signbit(got[n - k:]).any()  # NaNs lose their sign bit, as with the transformed keys
    # The result is a permutation of the input: both zero signs survive.
    assert numpy.signbit(got[got == 0]).sum() == numpy.signbit(x[x == 0]).sum()


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_sort_of_views(dtype):
    x = _native_values(dtype, SORT_NATIVE_MIN + 3, seed=5)
    x[::977] = -NAN
    a = cp.asarray(x)
    _same(cp.sort(a[1:]), numpy.sort(x[1:]))  # not 16-byte aligned: the NaN scan reads one by one
    _same(cp.sort(a[::-1]), numpy.sort(x[::-1]))
    b = a.copy()
    b.sort()
    _same(b, numpy.sort(x))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", ["native", "negative_nan", "nan_payloads", "unaligned"])
def test_native_argsort_and_its_fallbacks(dtype, case):
    """Above ARGSORT_NATIVE_MIN float argsorts use native keys unless a NaN has the sign bit or NaNs differ in bits
    (then the transformed keys); -0.0 and +0.0 are equal keys for CUB, in input order like NumPy's stable sort."""
    n = ARGSORT_NATIVE_MIN + 8833
    x = _native_values(dtype, n, seed=11)
    x[::1001] = 0.0
    x[::1003] = -0.0
    x[::4999] = NAN
    if case == "negative_nan":
        x[n // 2] = -NAN
    elif case == "nan_payloads":
        x.view(numpy.uint32 if x.itemsize == 4 else numpy.uint64)[n // 3] = _nan_bits(dtype, 1)
    a = cp.asarray(x)
    if case == "unaligned":
        _same(cp.argsort(a[1:]), numpy.argsort(x[1:], kind="stable"))
    else:
        _same(cp.argsort(a), numpy.argsort(x, kind="stable"))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "uint64"])
def test_native_sort_of_large_integer_arrays(dtype):
    x = _native_values(dtype, (1 << 20) + 3, seed=3)
    _same(cp.argsort(cp.asarray(x)), numpy.argsort(x, kind="stable"))
    _same(cp.sort(cp.asarray(x)), numpy.sort(x))


@gpu
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64"])
def test_native_unsigned_rows(dtype):
    for shape in [(300, 37), (4, 20000), (3, 1)]:
        x = _native_values(dtype, int(numpy.prod(shape)), seed=7).reshape(shape)
        a = cp.asarray(x)
        _same(cp.sort(a), numpy.sort(x))
        _same(cp.argsort(a), numpy.argsort(x, kind="stable"))
        _same(cp.sort(a, axis=0), numpy.sort(x, axis=0))
        _same(cp.argsort(a, axis=0), numpy.argsort(x, axis=0, kind="stable"))


# -- lexsort, partition, sort_complex ----------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtypes", [("int32", "float64"), ("bool", "complex64", "uint8"), ("float16", "int64")])
def test_lexsort(dtypes):
    keys = [_values(d, 300, seed=i) for i, d in enumerate(dtypes)]
    _same(cp.lexsort([cp.asarray(k) for k in keys]), numpy.lexsort(keys))
    k2 = [k.reshape(10, 30) for k in keys]
    for axis in (0, -1):
        _same(cp.lexsort([cp.asarray(k) for k in k2], axis=axis), numpy.lexsort(k2, axis=axis))
    same = numpy.stack([keys[0], keys[0]])
    _same(cp.lexsort(cp.asarray(same)), numpy.lexsort(same))


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_partition_contract(dtype):
    x = _values(dtype, 101)
    a = cp.asarray(x)
    s = numpy.sort(x)
    for kth in (0, 50, -1, [3, 70]):
        p = cp.partition(a, kth).get()
        ks = numpy.atleast_1d(kth)
        for k in ks:
            numpy.testing.assert_array_equal(p[k], s[k])
        k = int(ks.max()) % len(x)
        numpy.testing.assert_array_equal(numpy.sort(p[:k]), s[:k])
        idx = cp.argpartition(a, kth).get()
        numpy.testing.assert_array_equal(x[idx][ks], s[ks])
        assert sorted(idx.tolist()) == list(range(len(x)))
    with pytest.raises(ValueError):
        cp.partition(a, 101)
    with pytest.raises(ValueError):
        cp.argpartition(a, -102)
    b = cp.asarray(x.reshape(1, -1))
    b.partition(5)
    numpy.testing.assert_array_equal(b.get()[0, 5], s[5])


# Issue 14: NumPy checks kth only when the array has elements, so an empty array takes any kth (negative or
# past the axis); a bool kth is a ValueError, a float one a TypeError; an out-of-range kth names the wrapped value.
@gpu
@pytest.mark.parametrize("shape,axis", [((0,), -1), ((0,), 0), ((3, 0), -1), ((3, 0), 0), ((0, 3), -1),
                                        ((0, 3), None), ((2, 0, 4), 1)], ids=str)
@pytest.mark.parametrize("kth", [0, -1, -2, 1, 100, -100, [0, -1], numpy.int64(-1)], ids=repr)
@pytest.mark.parametrize("func", ["partition", "argpartition", "method"])
@testing.numpy_cuarray_equal()
def test_partition_of_empty_takes_any_kth(xp, shape, axis, kth, func):
    a = xp.zeros(shape, dtype=numpy.float32)
    if func == "method":
        if axis is None:
            pytest.skip("ndarray.partition takes an integer axis")
        a.partition(kth, axis=axis)
        return a
    return getattr(xp, func)(a, kth, axis=axis)


@gpu
@pytest.mark.parametrize("kth", [True, [True], numpy.True_, 1.0, [1.5], 5, -6, [0, 7], numpy.array(True)], ids=repr)
@pytest.mark.parametrize("func", ["partition", "argpartition"])
@testing.numpy_cuarray_equal()
def test_partition_kth_errors_match_numpy(xp, kth, func):
    return getattr(xp, func)(xp.zeros(5, dtype=numpy.float64), kth)


@gpu
@pytest.mark.parametrize("func", ["partition", "argpartition"])
def test_partition_kth_out_of_range_names_the_wrapped_kth(func):
    with pytest.raises(ValueError, match=r"kth\(=-1\) out of bounds \(5\)"):
        getattr(cp, func)(cp.zeros(5), -6)


# Issue 14: argsort and argpartition refuse a bool (or tuple) axis as NumPy does; sort and partition take a bool.
@gpu
@pytest.mark.parametrize("axis", [True, False, (0,), [0], 0.0, numpy.int64(0), numpy.array(1)], ids=repr)
@pytest.mark.parametrize("func", ["argsort", "argpartition", "a.argsort", "a.argpartition", "sort"])
@testing.numpy_cuarray_equal()
def test_sort_family_axis_types_match_numpy(xp, axis, func):
    a = xp.asarray(numpy.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]))
    if func == "argsort":
        return xp.argsort(a, axis=axis)
    if func == "a.argsort":
        return a.argsort(axis=axis)
    if func == "argpartition":
        return xp.sort(xp.take_along_axis(a, xp.argpartition(a, 0, axis=axis), axis=int(axis)), axis=int(axis))
    if func == "a.argpartition":
        return xp.sort(xp.take_along_axis(a, a.argpartition(0, axis=axis), axis=int(axis)), axis=int(axis))
    return xp.sort(a, axis=axis)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "float16", "float32", "complex64", "complex128"])
def test_sort_complex(dtype):
    x = _values(dtype, 50)
    _same(cp.sort_complex(cp.asarray(x)), numpy.sort_complex(x))


# -- searchsorted, digitize --------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    a = numpy.sort(_values(dtype, 100))
    v = _values(dtype, 60, seed=5).reshape(3, 20)
    _same(cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side), numpy.searchsorted(a, v, side=side))
    _same(cp.asarray(a).searchsorted(cp.asarray(v[0]), side), a.searchsorted(v[0], side))
    perm = numpy.random.default_rng(0).permutation(len(a))
    u = a[perm]
    sorter = numpy.argsort(u, kind="stable")
    _same(cp.searchsorted(cp.asarray(u), cp.asarray(v), side, cp.asarray(sorter)),
          numpy.searchsorted(u, v, side, sorter))


# side is checked first, as NumPy's converter does: None (not the default) and non-strings are TypeErrors, other
# strings ValueErrors, all before any device use.
@pytest.mark.parametrize("side", [None, 1, "middle", "l", "LEFT", ""], ids=repr)
@testing.numpy_cuarray_equal()
def test_searchsorted_side_is_checked_before_anything(xp, side):
    return xp.searchsorted([1, 2, 3], 2, side=side)


@gpu
def test_searchsorted_scalars_and_errors():
    a = numpy.array([1.0, 2.0, 2.0, NAN])
    got = cp.searchsorted(cp.asarray(a), 2.0)
    assert isinstance(got, cp.ndarray) and got.shape == () and int(got) == 1
    assert int(cp.searchsorted(cp.asarray(a), NAN)) == numpy.searchsorted(a, NAN)
    assert int(cp.searchsorted(cp.asarray(a), 2, side="right")) == 3
    _same(cp.searchsorted(cp.asarray(a[:0]), cp.asarray(a)), numpy.searchsorted(a[:0], a))
    with pytest.raises(ValueError):
        cp.searchsorted(cp.asarray(a), 1.0, side="middle")
    with pytest.raises(ValueError):
        cp.searchsorted(cp.asarray(a), 1.0, sorter=cp.asarray(numpy.array([0, 1, 2, 9])))
    with pytest.raises(ValueError):
        cp.searchsorted(cp.asarray(a.reshape(2, 2)), 1.0)


@gpu
@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_digitize(right, dtype):
    x = _values(dtype, 100)
    for bins in (numpy.array([-2, 0, 0, 1, 3], dtype=dtype), numpy.array([5, 2, 0, -1], dtype=dtype),
                 numpy.array([1, 1, 1], dtype=dtype), numpy.array([], dtype=dtype)):
        _same(cp.digitize(cp.asarray(x), cp.asarray(bins), right), numpy.digitize(x, bins, right))
    with pytest.raises(ValueError):
        cp.digitize(cp.asarray(x), cp.asarray(numpy.array([1, 3, 2], dtype=dtype)))
    with pytest.raises(TypeError):
        cp.digitize(cp.asarray(x.astype(complex)), cp.asarray(numpy.array([1.0, 2.0])))


# -- unique and set operations ----------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique(dtype, equal_nan):
    x = _values(dtype, 300).reshape(30, 10)
    want = numpy.unique(x, True, True, True, equal_nan=equal_nan)
    got = cp.unique(cp.asarray(x), True, True, True, equal_nan=equal_nan)
    assert len(got) == 4
    for g, w in zip(got, want):
        _same(g, w)
    _same(cp.unique(cp.asarray(x), equal_nan=equal_nan), numpy.unique(x, equal_nan=equal_nan))
    _same(cp.unique(cp.asarray(x[:0])), numpy.unique(x[:0]))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int32", "float32", "complex64"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_axis(dtype, axis):
    base = _values(dtype, 24, seed=2).reshape(4, 6)
    x = numpy.concatenate([base, base[::-1], base[:2]], axis=0)
    x = numpy.concatenate([x, x[:, :3]], axis=1)
    want = numpy.unique(x, True, True, True, axis=axis)
    got = cp.unique(cp.asarray(x), True, True, True, axis=axis)
    for g, w in zip(got, want):
        _same(g, w)


@gpu
def test_unique_array_api():
    x = numpy.array([3.0, NAN, 1.0, NAN, 3.0, -0.0, 0.0])
    a = cp.asarray(x)
    _same(cp.unique_values(a), numpy.unique_values(x))
    for fn in ("unique_counts", "unique_inverse", "unique_all"):
        got, want = getattr(cp, fn)(a), getattr(numpy, fn)(x)
        assert type(got).__name__ == type(want).__name__
        assert got._fields == want._fields
        for f in want._fields:
            _same(getattr(got, f), getattr(want, f))


@gpu
@pytest.mark.parametrize("dtypes", [("int32", "int32"), ("int8", "float32"), ("float64", "float64"),
                                    ("complex64", "float64"), ("bool", "int16"), ("float16", "float16")])
def test_set_operations(dtypes):
    x = _values(dtypes[0], 80, seed=1)
    y = _values(dtypes[1], 50, seed=2)
    a, b = cp.asarray(x), cp.asarray(y)
    for invert in (False, True):
        _same(cp.isin(a.reshape(8, 10), b, invert=invert), numpy.isin(x.reshape(8, 10), y, invert=invert))
        _same(cp.in1d(a.reshape(8, 10), b, invert=invert), numpy.isin(x, y, invert=invert))
    _same(cp.intersect1d(a, b), numpy.intersect1d(x, y))
    for g, w in zip(cp.intersect1d(a, b, return_indices=True), numpy.intersect1d(x, y, return_indices=True)):
        _same(g, w)
    _same(cp.union1d(a, b), numpy.union1d(x, y))
    _same(cp.setdiff1d(a, b), numpy.setdiff1d(x, y))
    _same(cp.setxor1d(a, b), numpy.setxor1d(x, y))
    ux, uy = numpy.unique(x), numpy.unique(y)
    _same(cp.intersect1d(cp.asarray(ux), cp.asarray(uy), assume_unique=True),
          numpy.intersect1d(ux, uy, assume_unique=True))
    _same(cp.setxor1d(cp.asarray(ux), cp.asarray(uy), True), numpy.setxor1d(ux, uy, True))
    _same(cp.setdiff1d(cp.asarray(ux), cp.asarray(uy), True), numpy.setdiff1d(ux, uy, True))
    e = x[:0]
    _same(cp.intersect1d(cp.asarray(e), b), numpy.intersect1d(e, y))
    _same(cp.setxor1d(cp.asarray(e), cp.asarray(e)), numpy.setxor1d(e, e))


@gpu
def test_isin_kind_errors():
    a = cp.asarray(numpy.arange(5))
    with pytest.raises(ValueError):
        cp.isin(a, a, kind="hash")
    with pytest.raises(ValueError):
        cp.isin(a.astype(float), a, kind="table")
    _same(cp.isin(a, a[:2], kind="table"), numpy.isin(numpy.arange(5), numpy.arange(2), kind="table"))


# Fuzz run 1 (sorting family).
@gpu
@pytest.mark.parametrize("axis", [2 ** 31, 2 ** 32, -2 ** 31 - 1])
@pytest.mark.parametrize("call", [lambda xp, a, v: xp.sort(a, axis=v), lambda xp, a, v: a.copy().sort(axis=v),
                                  lambda xp, a, v: xp.partition(a, 0, axis=v)])
@testing.numpy_cuarray_equal(accept_error=(OverflowError, ValueError))
def test_sort_axis_beyond_c_int_is_overflow_error(xp, call, axis):
    return call(xp, xp.asarray(numpy.arange(6, dtype=numpy.int16).reshape(2, 3)), axis)


@gpu
@pytest.mark.parametrize("kth", ["x", 1.5, True, numpy.array([0.0])])
@pytest.mark.parametrize("call", [lambda xp, a, k: xp.partition(a, k, axis=5), lambda xp, a, k: xp.argpartition(a, k, axis=5),
                                  lambda xp, a, k: a.copy().partition(k, axis=5), lambda xp, a, k: a.argpartition(k, axis=5)])
@testing.numpy_cuarray_equal()
def test_partition_checks_axis_before_kth(xp, call, kth):
    return call(xp, xp.asarray(numpy.arange(4, dtype=numpy.int8).reshape(1, 4)), kth)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "uint16", "int32", "int64", "uint64"])
@pytest.mark.parametrize("v", [2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -2 ** 70, -2 ** 63 - 1, 300, -300])
@pytest.mark.parametrize("side", ["left", "right"])
@testing.numpy_cuarray_equal()
def test_searchsorted_python_int_beyond_the_dtype(xp, dtype, v, side):
    a = xp.asarray(numpy.array([0, 1, 1, 2], dtype=dtype) if dtype != "bool" else numpy.array([False, True, True]))
    sorter = xp.arange(a.shape[0])
    return xp.searchsorted(a, v, side=side), a.searchsorted(v, side=side, sorter=sorter)


# NumPy's argpartition (and argsort) take a 0-d array as a 1-element 1-D one: axis 0 or -1 passes, so a bad
# kth is the error; sort and partition refuse any integer axis of a 0-d array.
@gpu
@pytest.mark.parametrize("axis", [-1, 0, 1, -2, None], ids=repr)
@pytest.mark.parametrize("kth", [0, -1, 1, "x", [0]], ids=repr)
@pytest.mark.parametrize("func", ["partition", "argpartition", "a.argpartition"])
@testing.numpy_cuarray_equal()
def test_partition_of_0d(xp, func, kth, axis):
    a = xp.asarray(numpy.complex64(1 + 2j))
    if func == "a.argpartition":
        return a.argpartition(kth, axis=axis)
    return getattr(xp, func)(a, kth, axis=axis)


# NumPy holds a Python int beyond int64 and uint64 as an object, which does not order with complex numbers.
@gpu
@pytest.mark.parametrize("v", [2 ** 63 - 1, 2 ** 64 - 1, 2 ** 64, -(2 ** 63), -(2 ** 63) - 1, -(2 ** 70)], ids=str)
@pytest.mark.parametrize("dtype", ["complex64", "float32", "int16"])
@testing.numpy_cuarray_equal(accept_error=TypeError)
def test_searchsorted_big_python_int(xp, v, dtype):
    a = xp.asarray(numpy.array([-3, 1, 2], dtype=dtype))
    return xp.searchsorted(a, v, side="right")
