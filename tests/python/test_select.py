"""nonzero, flatnonzero, argwhere, where(cond), extract and boolean-mask indexing against NumPy."""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float16", "float32", "float64", "complex64", "complex128")]


def _sparse(dtype, shape, seed=0, density=0.4):
    """Random values of `dtype`, zero with probability 1 - density (float: NaN and -0.0 among them)."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    n = int(numpy.prod(shape))
    keep = rng.random(n) < density
    if dt.kind == "b":
        return keep.reshape(shape)
    v = rng.integers(1, 100, n).astype(dt) * keep.astype(dt)
    if dt.kind in "fc" and n > 4:
        v[0], v[1] = numpy.nan, -0.0
    if dt.kind == "c" and n > 4:
        v[2] = complex(0.0, 1.0)
    return v.reshape(shape)


# -- CPU ------------------------------------------------------------------------------------------------------


def test_functions_are_exported():
    for name in ("nonzero", "flatnonzero", "argwhere", "extract", "where"):
        assert callable(getattr(cp, name)), name
    assert callable(cp.ndarray.nonzero)


@pytest.mark.parametrize("fn", ["nonzero", "flatnonzero", "argwhere"])
def test_host_arrays_are_refused_with_type_error(fn):
    with pytest.raises(TypeError):
        getattr(cp, fn)(numpy.arange(4))


# -- GPU ------------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(0,), (1,), (57,), (6, 7), (3, 0, 2), (2, 3, 4), (1, 1, 5, 1)])
@testing.numpy_cuarray_equal()
def test_nonzero_matches_numpy(xp, dtype, shape):
    a = xp.asarray(_sparse(dtype, shape))
    return xp.nonzero(a), a.nonzero(), xp.flatnonzero(a), xp.argwhere(a), xp.where(a)


@gpu
@testing.numpy_cuarray_equal()
def test_nonzero_of_views(xp):
    a = xp.asarray(_sparse("float32", (8, 9)))
    return xp.nonzero(a[::-2, 1::3]), xp.nonzero(a.T), xp.argwhere(a[:, ::-1]), xp.flatnonzero(a[1:, :4].T)


@gpu
def test_nonzero_of_bool_bytes_other_than_one():
    raw = numpy.array([0, 2, 0, 255, 1], dtype=numpy.uint8)
    mask = cp.asarray(raw).view(cp.bool_)
    numpy.testing.assert_array_equal(cp.nonzero(mask)[0].get(), [1, 3, 4])
    x = cp.arange(5)
    numpy.testing.assert_array_equal(x[mask].get(), [1, 3, 4])


@gpu
def test_nonzero_of_large_arrays():
    rng = numpy.random.default_rng(2)
    a = rng.random((1 << 21) + 5) < 0.5
    numpy.testing.assert_array_equal(cp.nonzero(cp.asarray(a))[0].get(), numpy.nonzero(a)[0])
    b = rng.random((1500, 1400)) > 0.9
    for g, w in zip(cp.nonzero(cp.asarray(b)), numpy.nonzero(b)):
        numpy.testing.assert_array_equal(g.get(), w)


@gpu
@testing.numpy_cuarray_equal()
def test_nonzero_of_0d_raises_value_error(xp):
    return xp.nonzero(xp.asarray(numpy.float64(1.0)))


@gpu
@pytest.mark.parametrize("value", [0.0, 2.5])
@testing.numpy_cuarray_equal()
def test_argwhere_and_flatnonzero_of_0d(xp, value):
    a = xp.asarray(numpy.float64(value))
    return xp.argwhere(a), xp.flatnonzero(a)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_extract(xp, dtype):
    arr = xp.asarray(_sparse(dtype, (4, 5), seed=1, density=1.0))
    cond = xp.asarray(_sparse("int32", (4, 5), seed=2))
    return xp.extract(cond, arr), xp.extract(cond[:2], arr), xp.extract(cond.T, arr), xp.extract(xp.zeros(0), arr)


@gpu
@testing.numpy_cuarray_equal()
def test_extract_beyond_the_array_raises_index_error(xp):
    return xp.extract(xp.asarray(numpy.array([1, 0, 1, 0, 0, 0, 1, 1])), xp.arange(5))


@gpu
@testing.numpy_cuarray_equal()
def test_extract_with_longer_false_condition(xp):
    return xp.extract(xp.asarray(numpy.array([1, 0, 1, 0, 0, 0, 0])), xp.arange(5))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_boolean_mask_indexing(xp, dtype):
    x = xp.asarray(_sparse(dtype, (4, 3, 5), seed=3, density=1.0))
    m3 = xp.asarray(_sparse("bool", (4, 3, 5), seed=4))
    m2 = xp.asarray(_sparse("bool", (4, 3), seed=5))
    m1 = xp.asarray(numpy.array([True, False, True, True]))
    return x[m3], x[m2], x[m1], x[x.real > 50] if dtype.kind != "b" else x[x], x[::-1, :, 1:][m2]


@gpu
@testing.numpy_cuarray_equal()
def test_boolean_mask_indexing_of_odd_rows_and_empty_results(xp):
    x = xp.asarray(numpy.arange(21, dtype=numpy.int8).reshape(7, 3))
    none = xp.zeros(7, dtype=bool)
    return x[xp.asarray(numpy.array([1, 0, 1, 1, 0, 0, 1], bool))], x[none], xp.zeros((0, 3))[xp.zeros(0, bool)]


@gpu
def test_boolean_mask_indexing_with_numpy_mask():
    x = cp.arange(10)
    m = numpy.arange(10) % 3 == 0
    numpy.testing.assert_array_equal(x[m].get(), numpy.arange(10)[m])


@gpu
@pytest.mark.parametrize("mask_shape", [(3,), (2, 4), (2, 3, 4, 1)])
@testing.numpy_cuarray_equal()
def test_boolean_mask_of_wrong_shape_raises_index_error(xp, mask_shape):
    return xp.ones((2, 3, 4))[xp.ones(mask_shape, dtype=bool)]


@gpu
def test_large_boolean_mask_select():
    rng = numpy.random.default_rng(5)
    x = rng.random((1 << 21) + 7).astype(numpy.float32)
    d = cp.asarray(x)
    numpy.testing.assert_array_equal(d[d > 0.5].get(), x[x > 0.5])
    c = (x + 1j * x[::-1]).astype(numpy.complex128)
    dc = cp.asarray(c)
    numpy.testing.assert_array_equal(dc[d > 0.25].get(), c[x > 0.25])
