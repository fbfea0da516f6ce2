"""Indexing against NumPy: integer and boolean arrays in getitem/setitem (NumPy's placement rule, broadcasting,
casting, views vs copies, errors), the wrap-around default and CUARRAY_CHECK_INDEX=1, and take, put,
take_along_axis, put_along_axis, compress, place, putmask and ndarray.flat.
"""
import os
import subprocess
import sys

import numpy
import pytest

import cuarray as cp
from cuarray import testing

from _arrays import random_array as _arr

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
FUNCS = "take put take_along_axis put_along_axis compress place putmask".split()


def _key(xp, key):
    """Index arrays given as NumPy arrays become xp arrays (lists stay lists: both libraries take them)."""
    if isinstance(key, tuple):
        return tuple(_key(xp, k) for k in key)
    if isinstance(key, numpy.ndarray) and xp is not numpy:
        return xp.asarray(key)
    return key


M43 = numpy.array([[True, False, True], [False, False, True], [True, True, False], [False, True, True]])

KEYS = [
    [0, 2],
    [[0, 1], [3, 2]],
    numpy.array([-1, 0, -3]),
    ([0, 1], [1, 2]),
    (slice(None), [0, 2]),
    (slice(None), [0, 2], slice(1, 3)),
    ([0, 3], slice(None), [1, 4]),            # advanced entries apart: broadcast dimensions go first
    (0, slice(None), [1, 2]),                 # an integer counts as advanced once arrays are present
    (slice(None), 0, [1, 2]),
    (None, [0, 1]),
    ([0, 1], None, [1, 2]),
    (Ellipsis, [1, -1]),
    ([0], Ellipsis, [0]),
    (numpy.array([1, 0]), numpy.array([[0], [2]])),     # broadcast index arrays
    (slice(None, None, -1), numpy.array([[2, 0], [1, 1]])),
    numpy.array([True, False, True, True]),
    M43,
    (slice(None), numpy.array([True, False, True])),
    (M43, slice(1, 3)),
    (M43, [0, 4, 1, 2, 3, 1, 0]),
    True,
    False,
    ([0, 1], True),
    (Ellipsis, numpy.array([True, False, False, True, True])),
    [],
    numpy.array([], dtype=numpy.int64),
    numpy.array(2),
    (numpy.array(1), [0, 2]),
    (slice(None), numpy.array([], dtype=numpy.int32), slice(None)),
]


# -- CPU -----------------------------------------------------------------------------------------------------------


def test_functions_are_exported():
    for name in FUNCS:
        assert callable(getattr(cp, name)), name
    for name in ("take", "put", "compress"):
        assert callable(getattr(cp.ndarray, name)), name
    assert isinstance(cp.ndarray.flat, property)


# -- GPU: getitem --------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
@testing.numpy_cuarray_equal()
def test_getitem(xp, key, layout):
    a = _arr(xp, (4, 3, 5), "float32", order="F" if layout == "F" else "C")
    if layout == "reversed":
        a = a[::-1, :, ::-1]
    return a[_key(xp, key)]


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("index_dtype", ["int8", "uint8", "int16", "int32", "int64", "uint64"])
@testing.numpy_cuarray_equal()
def test_getitem_dtypes(xp, dtype, index_dtype):
    a = _arr(xp, (6, 7), dtype)
    i = xp.asarray(numpy.array([5, 0, 3, 3], dtype=index_dtype))
    j = xp.asarray(numpy.array([[1], [5]], dtype=index_dtype))
    return a[i], a[:, i], a[i[:2], j], a[j, 2:]


@gpu
@testing.numpy_cuarray_equal()
def test_getitem_shapes(xp):
    z = _arr(xp, (0, 3), "int32")
    s = _arr(xp, (5,), "int32")
    return (z[:, [0, 2]], z[[], :], s[[4]], s[numpy.array([[1, 2], [3, 4]])], _arr(xp, (2, 1, 3))[:, [0, 0, 0]],
            _arr(xp, (), "int32")[None][[0, 0]], _arr(xp, (3,))[xp.asarray(numpy.array(True))])


@gpu
def test_getitem_views_and_copies():
    a = cp.arange(24).reshape(4, 6)
    v = a[1:3, ::2]
    assert v._same_storage(a) and not v.flags.owndata
    c = a[[1, 2]]
    assert not c._same_storage(a) and c.flags.owndata
    c[...] = -1
    assert int(a[1, 0]) == 6  # writing the copy leaves the original alone
    m = a[a > 5]
    assert not m._same_storage(a)


@gpu
def test_getitem_large_offsets():
    # Byte offsets past 2**31 in the gather and scatter loops.
    n = (1 << 31) + 64
    x = cp.zeros(n, dtype=cp.int8)
    x[n - 3] = 7
    idx = cp.asarray([n - 3, 5, -3])
    assert x[idx].tolist() == [7, 0, 7]
    x[cp.asarray([n - 1])] = 9
    assert int(x[n - 1]) == 9
    del x


@gpu
def test_getitem_wraps_by_default():
    a = numpy.arange(5) * 10
    d = cp.asarray(a)
    idx = numpy.array([5, -6, 12, -1])
    numpy.testing.assert_array_equal(d[cp.asarray(idx)].get(), a[idx % 5])
    numpy.testing.assert_array_equal(cp.take(d, idx, mode="clip").get(), numpy.take(a, idx, mode="clip"))
    d[cp.asarray([7])] = -1
    assert int(d[2]) == -1


def _run_checking_indices(code):
    """Runs `code` in a fresh Python with CUARRAY_CHECK_INDEX=1 (read once per process); asserts it exits 0."""
    env = dict(os.environ, CUARRAY_CHECK_INDEX="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out


@gpu
def test_check_index_mode_raises():
    code = ("import cuarray as cp\n"
            "a = cp.arange(5)\n"
            "try:\n    a[cp.asarray([1, 5])]\nexcept IndexError as e:\n    print('getitem', e)\n"
            "try:\n    a[cp.asarray([-6])] = 1\nexcept IndexError as e:\n    print('setitem', e)\n"
            "print(a[cp.asarray([-5, 4])].tolist())\n")
    out = _run_checking_indices(code)
    assert "getitem index 5 is out of bounds for axis 0 with size 5" in out.stdout
    assert "setitem index -6 is out of bounds for axis 0 with size 5" in out.stdout
    assert "[0, 4]" in out.stdout


@gpu
@pytest.mark.parametrize("key", [
    (numpy.array([0.5]),), [1.5], 1.5, ([0, 1], [0, 1, 2]), (0, 0, 0, 0), numpy.array([True, False]),
    (slice(None), numpy.array([True, False, True, False])), (Ellipsis, Ellipsis), "a", [[0, 1], [0]]])
@testing.numpy_cuarray_equal(accept_error=(IndexError, ValueError, TypeError))
def test_getitem_errors(xp, key):
    return _arr(xp, (4, 3, 5))[_key(xp, key)]


@gpu
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_getitem_empty_axis_error(xp):
    return _arr(xp, (0, 3))[[0]]


# NumPy checks no index array whose broadcast with the others is empty ("all indices got broadcast away"),
# in getitem and setitem alike, also under CUARRAY_CHECK_INDEX=1; an integer is checked whatever the arrays.
@gpu
def test_indices_broadcast_away_are_not_checked():
    code = ("import numpy, cuarray as cp\n"
            "x = cp.zeros((4, 0, 3), cp.int32)\n"
            "print('a', x[cp.zeros(0, cp.uint32), (0,), 2].shape)\n"
            "y = cp.zeros((4, 5))\n"
            "print('b', y[cp.zeros((0, 1), cp.int64), [9]].shape)\n"
            "y[cp.zeros((0, 1), cp.int64), cp.asarray([9])] = 1\n"
            "print('c', float(y.sum()))\n"
            "try:\n    y[cp.zeros(0, cp.int64), 7]\nexcept IndexError as e:\n    print('d', e)\n"
            "try:\n    y[cp.asarray([0, 9])]\nexcept IndexError as e:\n    print('e', e)\n")
    out = _run_checking_indices(code)
    assert "a (0,)" in out.stdout and "b (0, 1)" in out.stdout and "c 0.0" in out.stdout
    assert "d index 7 is out of bounds for axis 1 with size 5" in out.stdout
    assert "e index 9 is out of bounds for axis 0 with size 4" in out.stdout


@gpu
@pytest.mark.parametrize("key", [(numpy.zeros(0, numpy.uint32), (0,), 2),
                                 (numpy.zeros((0, 1), numpy.int64), [2]),
                                 (numpy.zeros((0, 1), numpy.int64), numpy.zeros(2, numpy.int64))], ids=str)
@testing.numpy_cuarray_equal()
def test_getitem_indices_broadcast_away(xp, key):
    x = xp.zeros((4, 0, 3), numpy.int32) if len(key) == 3 else _arr(xp, (4, 5))
    return x[_key(xp, key)]


# -- GPU: setitem --------------------------------------------------------------------------------------------------

SET_KEYS = [k for i, k in enumerate(KEYS) if i not in (1, 13, 14)]  # those repeat an index: the winner is unspecified


@gpu
@pytest.mark.parametrize("key", SET_KEYS, ids=[str(i) for i in range(len(SET_KEYS))])
@pytest.mark.parametrize("value", ["scalar", "broadcast", "full", "host"])
@testing.numpy_cuarray_equal()
def test_setitem(xp, key, value):
    a = _arr(xp, (4, 3, 5), "int32")
    k = _key(xp, key)
    shape = numpy.empty((4, 3, 5))[key].shape
    if value == "scalar":
        v = -7
    elif value == "broadcast":
        v = _arr(xp, shape[-1:] if shape else (), "int32", seed=3)
    elif value == "full":
        v = _arr(xp, shape, "float64", seed=4)  # cast to int32 as NumPy's assignment (unsafe)
    else:
        v = numpy.arange(int(numpy.prod(shape)), dtype=numpy.int16).reshape(shape)
    a[k] = v
    return a


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_setitem_dtypes(xp, dtype):
    a = _arr(xp, (5, 4), dtype)
    a[[0, 3]] = _arr(xp, (2, 4), dtype, seed=1)
    a[:, xp.asarray(numpy.array([3, 1]))] = _arr(xp, (5, 1), dtype, seed=2)
    a[a.real > 1 if dtype.kind == "c" else a > 1] = 1
    a[[4], [2]] = 1.5 if dtype.kind != "b" else True
    return a


@gpu
@testing.numpy_cuarray_equal()
def test_setitem_masks(xp):
    a = _arr(xp, (4, 3, 5), "float64")
    m = _key(xp, M43)
    a[m] = 0.5                                       # masked copy, no count needed
    a[m] = _arr(xp, (5,), "float64", seed=1)          # broadcast over the selected rows
    a[m] = _arr(xp, (1, 5), "float64", seed=2)
    b = _arr(xp, (4, 3, 5), "int16")
    b[m] = _arr(xp, (7, 5), "int16", seed=3)          # one row per selected element: nonzero + scatter
    c = _arr(xp, (6,), "float32")
    c[c > 0] = c[c > 0] * 2                           # the value is a copy of the same array
    d = _arr(xp, (3, 4), "int8")
    d[xp.asarray(numpy.array(True))] = 3
    d[False] = 5
    return a, b, c, d


@gpu
@testing.numpy_cuarray_equal()
def test_setitem_overlap(xp):
    a = xp.arange(10)
    a[[1, 2, 3]] = a[0:3]       # the value is a view of the destination
    b = xp.arange(12).reshape(3, 4)
    b[[2, 0]] = b[::2][::-1]
    return a, b


@gpu
@pytest.mark.parametrize("key,shape", [([0, 1], (3,)), ((slice(None), [0, 1]), (4, 3)), (M43, (6,)),
                                       ([[0, 1]], (2, 2, 3, 5))])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_setitem_shape_errors(xp, key, shape):
    a = _arr(xp, (4, 3, 5))
    a[_key(xp, key)] = _arr(xp, shape)
    return a


# Issue 14: a value that does not broadcast to an empty target is still a ValueError (NumPy checks the shapes
# before it finds nothing to write), through every setitem path; one that broadcasts is fine.
@gpu
@pytest.mark.parametrize("target,key", [
    ((0, 3), "ellipsis"), ((0, 3), "slice"), ((2, 3), "empty_slice"), ((2, 3), "empty_column_slice"),
    ((0, 3), "empty_index"), ((2, 3), "empty_index"), ((0, 3), "empty_mask"), ((2, 3), "false_mask"),
    ((2, 3), "false_mask_2d"), ((2, 3), "empty_index_pair"), ((2, 3), "column_empty_index"),
], ids=str)
@pytest.mark.parametrize("value", [(4,), (3,), (0,), (1,), (2, 3), (1, 3), (0, 3), (1, 1, 3), (0, 1), (2, 1),
                                   "list4", "scalar"], ids=str)
@testing.numpy_cuarray_equal()
def test_setitem_into_empty_target_checks_broadcast(xp, target, key, value):
    a = xp.zeros(target, dtype=numpy.float64)
    k = {"ellipsis": Ellipsis, "slice": slice(None), "empty_slice": slice(0, 0),
         "empty_column_slice": (slice(None), slice(0, 0)),
         "empty_index": xp.asarray(numpy.array([], dtype=numpy.int64)),
         "empty_mask": xp.asarray(numpy.zeros(0, dtype=bool)),
         "false_mask": xp.asarray(numpy.zeros(target[0], dtype=bool)),
         "false_mask_2d": xp.asarray(numpy.zeros(target, dtype=bool)),
         "empty_index_pair": (xp.asarray(numpy.array([], dtype=numpy.int64)),) * 2,
         "column_empty_index": (slice(None), xp.asarray(numpy.array([], dtype=numpy.int64)))}[key]
    if value == "list4":
        v = [1.0, 2.0, 3.0, 4.0]
    elif value == "scalar":
        v = 7.0
    else:
        v = xp.ones(value)
    a[k] = v
    return a


@gpu
@pytest.mark.parametrize("value", [(4,), (3,), (0,), (2, 3)], ids=str)
@testing.numpy_cuarray_equal()
def test_copyto_into_empty_target_checks_broadcast(xp, value):
    a = xp.zeros((0, 3))
    xp.copyto(a, xp.ones(value))
    return a


# Issue 14: a string, bytes or None stored into a numeric array converts as NumPy converts it: 'x' is a
# ValueError, None a TypeError for integers and NaN for floats (NaN+NaNj for complex), a numeric string works,
# and bool takes the truth of the object.
@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("value", ["x", "1", "1.5", "", None, b"1", "1+2j", "nan", "True", "-1", "300"], ids=repr)
@pytest.mark.parametrize("how", ["item", "slice", "ellipsis", "fancy", "mask", "fill", "list", "tuple_key"])
@testing.numpy_cuarray_equal()
def test_setitem_string_and_none_match_numpy(xp, dtype, value, how):
    a = xp.zeros(3, dtype=dtype)
    if how == "item":
        a[1] = value
    elif how == "slice":
        a[1:2] = value
    elif how == "ellipsis":
        a[...] = value
    elif how == "fancy":
        a[xp.asarray(numpy.array([0, 2]))] = value
    elif how == "mask":
        a[xp.asarray(numpy.array([True, False, True]))] = value
    elif how == "fill":
        a.fill(value)
    elif how == "list":
        a[0:2] = [value, value]
    else:
        a[(1,)] = value
    return a


# -- GPU: functions ------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@testing.numpy_cuarray_equal()
def test_take(xp, dtype, axis):
    a = _arr(xp, (4, 5, 3), dtype)
    i = xp.asarray(numpy.array([[2, 0], [1, 2]]))
    return xp.take(a, i, axis=axis), a.take(xp.asarray(numpy.array(1)), axis=axis), xp.take(a[:, ::-1], [], axis)


@gpu
@pytest.mark.parametrize("mode", ["wrap", "clip", "raise"])
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_take_modes(xp, mode):
    a = _arr(xp, (3, 4))
    return xp.take(a, xp.asarray(numpy.array([0, 7, -9, 2])), axis=1, mode=mode)


@gpu
@testing.numpy_cuarray_equal(accept_error=(IndexError, TypeError, numpy.exceptions.AxisError))
@pytest.mark.parametrize("case", ["float", "axis", "empty"])
def test_take_errors(xp, case):
    a = _arr(xp, (3, 4))
    if case == "float":
        return xp.take(a, xp.asarray(numpy.array([0.0])))
    if case == "axis":
        return xp.take(a, xp.asarray(numpy.array([0])), axis=2)
    return xp.take(_arr(xp, (0, 2)), xp.asarray(numpy.array([0])), axis=0, mode="raise")


# Issue 14: take and compress see a 0-d array as 1-d when an axis is given (axis 0 or -1 works), and refuse a
# bool, tuple or list axis with TypeError, as NumPy's C functions do.
@gpu
@pytest.mark.parametrize("axis", [0, -1, 1, -2, None, True, (0,), [0], numpy.int64(0)], ids=repr)
@pytest.mark.parametrize("func", ["take", "take_list", "a.take", "compress", "compress_empty"])
@testing.numpy_cuarray_equal()
def test_take_and_compress_of_zero_d_match_numpy(xp, axis, func):
    a = xp.asarray(numpy.array(2.5, dtype=numpy.float32))
    if func == "take":
        return xp.take(a, 0, axis=axis)
    if func == "take_list":
        return xp.take(a, xp.asarray(numpy.array([0, 0])), axis=axis)
    if func == "a.take":
        return a.take(xp.asarray(numpy.array(0)), axis=axis)
    if func == "compress":
        return xp.compress(xp.asarray(numpy.array([True])), a, axis=axis)
    return xp.compress(xp.asarray(numpy.array([], dtype=bool)), a, axis=axis)


@gpu
@pytest.mark.parametrize("axis", [True, False, (0,), [0], 0.0, numpy.array(1)], ids=repr)
@pytest.mark.parametrize("func", ["take", "compress"])
@testing.numpy_cuarray_equal()
def test_take_and_compress_axis_types_match_numpy(xp, axis, func):
    a = _arr(xp, (3, 4))
    if func == "take":
        return xp.take(a, xp.asarray(numpy.array([0, 2])), axis=axis)
    return xp.compress(xp.asarray(numpy.array([True, False, True])), a, axis=axis)


# NumPy's take checks the indices in its loop over the axes before `axis`, once per index: with one of those
# axes empty it checks none; an empty `axis` refuses a non-empty result in every mode.
@gpu
@pytest.mark.parametrize("shape,idx,axis", [((0, 1), -2, 1), ((0, 3), [7], 1), ((0, 0), [5], 1), ((1, 0), 5, 0),
                                            ((2, 0), [5], 1), ((3, 0), [7], 0), ((2, 0, 3), [9], 2),
                                            ((0, 2), [], 1)], ids=str)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_take_with_empty_axes_as_numpy(xp, shape, idx, axis, mode):
    a = xp.zeros(shape, dtype=numpy.int64)
    return xp.take(a, xp.asarray(numpy.array(idx, dtype=numpy.int64)), axis=axis, mode=mode)


@gpu
@testing.numpy_cuarray_equal()
def test_take_out(xp):
    a = _arr(xp, (4, 5), "float32")
    out = xp.zeros((2, 5), dtype=numpy.float32)
    r = xp.take(a, xp.asarray(numpy.array([3, 1])), axis=0, out=out)
    assert r is out
    return out


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128", "bool"])
@pytest.mark.parametrize("mode", ["wrap", "clip", "raise"])
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_put(xp, dtype, mode):
    a = _arr(xp, (3, 4), dtype)
    xp.put(a, xp.asarray(numpy.array([0, 5, 11])), _arr(xp, (3,), dtype, seed=2), mode=mode)
    b = _arr(xp, (3, 4), dtype).T                            # not contiguous: a.flat order is b's C order
    xp.put(b, xp.asarray(numpy.array([1, 2, 3, 4, 9])), _arr(xp, (2,), dtype, seed=3), mode=mode)  # v repeated
    c = _arr(xp, (5,), dtype)
    c.put(xp.asarray(numpy.array([-1, 14])), _arr(xp, (), dtype, seed=4), mode=mode)
    return a, b, c


@gpu
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@testing.numpy_cuarray_equal()
def test_take_along_axis(xp, axis):
    a = _arr(xp, (4, 5), "float64")
    order = xp.argsort(a, axis=axis)
    i = xp.asarray(numpy.array([[0], [2], [1], [3]])) if axis == 0 else xp.asarray(numpy.array([[4, 0]]))
    return xp.take_along_axis(a, order, axis), (xp.take_along_axis(a, i, axis) if axis is not None else None)


@gpu
@pytest.mark.parametrize("axis", [0, 1, None])
@testing.numpy_cuarray_equal()
def test_put_along_axis(xp, axis):
    a = _arr(xp, (4, 5), "int32")
    if axis is None:
        i = xp.asarray(numpy.array([0, 7, 19]))
    else:
        i = xp.asarray(numpy.array([[1, 3]])) if axis == 1 else xp.asarray(numpy.array([[3, 0, 1, 2, 0]]))
    xp.put_along_axis(a, i, 99, axis)
    b = _arr(xp, (4, 5), "float32")
    j = xp.argmax(b, axis=1, keepdims=True)
    xp.put_along_axis(b, j, _arr(xp, (4, 1), "float32", seed=5), 1)
    return a, b


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, IndexError))
@pytest.mark.parametrize("case", ["ndim", "float"])
def test_along_axis_errors(xp, case):
    a = _arr(xp, (3, 4))
    if case == "ndim":
        return xp.take_along_axis(a, xp.asarray(numpy.array([0])), 1)
    return xp.take_along_axis(a, xp.asarray(numpy.array([[0.0]])), 1)


@gpu
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_compress(xp, axis):
    a = _arr(xp, (3, 4), "float32")
    c1 = xp.asarray(numpy.array([True, False, True]))
    c2 = xp.asarray(numpy.array([0, 1, 1, 0, 0, 0]))   # longer than the axis, but false beyond it
    return xp.compress(c1, a, axis=axis), a.compress(c2, axis=axis), xp.compress(xp.asarray(numpy.array([], bool)), a, axis)


@gpu
@testing.numpy_cuarray_equal(accept_error=IndexError)
def test_compress_out_of_bounds(xp):
    return xp.compress(xp.asarray(numpy.array([0, 0, 0, 1])), _arr(xp, (3, 4)), axis=0)


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
@pytest.mark.parametrize("case", ["cycle", "exact", "none", "empty_vals", "size"])
def test_place(xp, case):
    a = _arr(xp, (3, 4), "int16")
    mask = a > 0
    if case == "cycle":
        xp.place(a, mask, xp.asarray(numpy.array([1, 2, 3], numpy.int16)))
    elif case == "exact":
        xp.place(a, mask, a[mask] * 3)
    elif case == "none":
        xp.place(a, a > 100, xp.asarray(numpy.array([], numpy.int16)))
    elif case == "empty_vals":
        xp.place(a, mask, xp.asarray(numpy.array([], numpy.int16)))
    else:
        xp.place(a, xp.asarray(numpy.array([True, False])), xp.asarray(numpy.array([1], numpy.int16)))
    return a


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
@pytest.mark.parametrize("case", ["cycle", "same", "scalar", "size"])
def test_putmask(xp, case):
    a = _arr(xp, (3, 4), "float64")
    if case == "cycle":
        xp.putmask(a, a > 0, xp.asarray(numpy.array([-1.0, -2.0, -3.0, -4.0, -5.0])))
    elif case == "same":
        xp.putmask(a, a < 0, a * 3)
    elif case == "scalar":
        xp.putmask(a[:, ::2], xp.asarray(numpy.array([True, False])), xp.asarray(numpy.array(7.0)))
    else:
        xp.putmask(a, xp.asarray(numpy.array([True, False])), xp.asarray(numpy.array([1.0])))
    return a


# -- GPU: flat -----------------------------------------------------------------------------------------------------


@gpu
def test_flat_reads_and_writes():
    h = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    for make in (lambda x: x, lambda x: x.T, lambda x: x[:, ::-1]):
        a, d = make(h.copy()), make(cp.asarray(h))
        assert len(d.flat) == a.size
        numpy.testing.assert_array_equal(d.flat[5].get(), a.flat[5])
        numpy.testing.assert_array_equal(d.flat[2:9:3].get(), a.flat[2:9:3])
        numpy.testing.assert_array_equal(d.flat[[0, 11, 4]].get(), a.flat[[0, 11, 4]])
        a.flat[[1, 3, 5, 7]] = [10, 20]
        d.flat[[1, 3, 5, 7]] = [10, 20]
        a.flat[8:] = -1
        d.flat[8:] = -1
        numpy.testing.assert_array_equal(d.get(), a)
    d = cp.zeros((2, 3))
    d.flat = 4.0
    assert d.sum() == 24.0
    r = d.flat[1:3]
    r[...] = 0
    assert d.sum() == 24.0  # flat reads are copies
    assert [float(v) for v in cp.arange(3.0).flat] == [0.0, 1.0, 2.0]


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
@testing.numpy_cuarray_equal()
def test_flat_gather_long(xp, dtype, index_dtype):
    """x[idx] on a 1-D x with many indices (several grid-stride steps of the unrolled loop and a ragged tail),
    wrap-around, clip, and a strided source."""
    x = _arr(xp, (1000,), dtype)
    rng = numpy.random.default_rng(1)
    idx = rng.integers(-1000, 1000, 5003).astype(index_dtype)
    i = xp.asarray(idx)
    wide = rng.integers(-3000, 3000, 4099).astype(index_dtype)
    wrapped = x[xp.asarray(wide)] if xp is not numpy else x[wide % 1000]
    return x[i], x[::-3][i[:4096] % 334], wrapped, xp.take(x, xp.asarray(wide), mode="clip")


def _z(xp, shape, dtype):
    return xp.asarray((numpy.arange(int(numpy.prod(shape))).reshape(shape) % 3).astype(dtype))


def _setitem(target, key, value):
    target[key] = value
    return target


def _call(f, target, *args):
    f(target, *args)
    return target


# Value conversions of in-place operations, each as NumPy's (fuzz run 1): the element rule of a full integer
# index, Python scalars out of range or of the wrong kind, strings, key errors before value errors, value
# shape errors before index range errors, take/put's index casting and the order of their checks.
ASSIGN_CASES = {
    "element_array_value": lambda xp: _setitem(_z(xp, (4,), "float64"), -3, xp.ones(1, "float32")),
    "element_array_value_tuple_key": lambda xp: _setitem(_z(xp, (5,), "int32"), (1,), xp.ones((1, 1), "int32")),
    "element_array_value_0d_target": lambda xp: _setitem(_z(xp, (), "int16"), (), xp.ones(1, "int16")),
    "element_array_value_complex": lambda xp: _setitem(_z(xp, (1, 1), "complex64"), (0, -1), xp.ones(1, "complex64")),
    "element_array_value_bool": lambda xp: _setitem(_z(xp, (3,), "bool"), 1, xp.ones((1, 1), "float32")),
    "element_array_value_0d": lambda xp: _setitem(_z(xp, (3,), "int8"), numpy.int64(1), xp.asarray(7.5)),
    "element_ellipsis_array_value": lambda xp: _setitem(_z(xp, (3,), "uint8"), (0, Ellipsis), xp.ones(1)),
    "element_list_value_int": lambda xp: _setitem(_z(xp, (3,), "uint8"), (0,), [1, "x"]),
    "element_list_value_float": lambda xp: _setitem(_z(xp, (3,), "float32"), 0, [1.0]),
    "element_numpy_scalar_range": lambda xp: _setitem(_z(xp, (3,), "int8"), 0, numpy.int64(300)),
    "element_numpy_complex": lambda xp: _setitem(_z(xp, (3,), "int8"), 0, numpy.complex128(2 + 1j)),
    "slice_numpy_scalar_range": lambda xp: _setitem(_z(xp, (0,), "int8"), slice(1, 0, 3), numpy.uint64(2 ** 63)),
    "fancy_numpy_scalar_cast": lambda xp: _setitem(_z(xp, (3,), "int8"), [0, 2], numpy.int64(300)),
    "fill_numpy_scalar_range": lambda xp: _call(lambda a, v: a.fill(v), _z(xp, (3,), "int8"), numpy.uint64(2 ** 63)),
    "slice_list_complex": lambda xp: _setitem(_z(xp, (5,), "int8"), slice(2, -5, -1), [1j, 2j, 3j]),
    "whole_list_out_of_range": lambda xp: _setitem(_z(xp, (3, 2), "uint16"), (), [[-32768, 1], [1, 1], [1, 1]]),
    "fancy_list_out_of_range": lambda xp: _setitem(_z(xp, (5,), "int8"), xp.asarray([1, 2]), [-1, 300]),
    "fancy_key_error_first": lambda xp: _setitem(_z(xp, (2, 5, 5), "uint8"), (xp.asarray([0]), 0, 10), 2 ** 63),
    "fancy_too_many_indices_first": lambda xp: _setitem(_z(xp, (4, 0), "int8"),
                                                        (xp.asarray([1]), xp.asarray([0]), slice(1, -6)), {}),
    "fancy_value_shape_first": lambda xp: _setitem(_z(xp, (0, 1, 3), "int16"), xp.asarray([0, 1], "uint8"),
                                                   xp.ones((2, 5), "float32")),
    # The index arrays' broadcast and their values come after the value's conversion (fuzz run of 2026-11-29).
    "fancy_value_before_broadcast": lambda xp: _setitem(
        _z(xp, (3, 1, 2), "uint32"), (0, xp.asarray([False]), xp.asarray([0, 1], "uint32")), 2 ** 32),
    "fancy_list_before_broadcast": lambda xp: _setitem(_z(xp, (3, 3), "int8"),
                                                       (xp.asarray([0, 1]), xp.asarray([0, 0, 0])), [1j]),
    "fancy_value_before_empty_axis": lambda xp: _setitem(_z(xp, (0, 3), "uint32"), xp.asarray([0]), 2 ** 32),
    "fancy_bool_shape_before_value": lambda xp: _setitem(_z(xp, (3, 2), "int8"), xp.asarray([True, False]), 2 ** 63),
    # A list assigned to a view may nest no deeper than the view's dimensions (an array may: leading unit axes).
    "view_list_too_deep": lambda xp: _setitem(_z(xp, (1,), "uint64"), Ellipsis, [[1j]]),
    "view_list_too_deep_2d": lambda xp: _setitem(_z(xp, (2, 3), "float64"), (), [[[1, 2, 3]]]),
    "view_array_leading_unit": lambda xp: _setitem(_z(xp, (2, 3), "float64"), (), xp.asarray([[[1, 2, 3]]])),
    "view_list_ragged_deep": lambda xp: _setitem(_z(xp, (2,), "float32"), slice(None), [1, [2, 3]]),
    "view_tuple_too_deep": lambda xp: _setitem(_z(xp, (2,), "int16"), slice(None), ([2, 3],)),
    "view_list_holding_array": lambda xp: _setitem(_z(xp, (2,), "float64"), Ellipsis, [numpy.array([1.0, 2.0])]),
    "view_list_holding_array_ok": lambda xp: _setitem(_z(xp, (1, 2), "float64"), Ellipsis, [numpy.array([1, 2])]),
    "view_0d_list": lambda xp: _setitem(_z(xp, (), "int32"), Ellipsis, [1]),
    "row_list_too_deep": lambda xp: _setitem(_z(xp, (2, 3), "int64"), 0, [[1, 2, 3]]),
    "row_list_exact": lambda xp: _setitem(_z(xp, (2, 3), "int64"), 0, [1, 2, 3]),
    "view_range_value": lambda xp: _setitem(_z(xp, (2,), "float64"), Ellipsis, range(2)),
    "take_float_scalar_index": lambda xp: xp.take(_z(xp, (4, 4), "uint64"), 1.5, axis=0),
    "take_numpy_float_index": lambda xp: xp.take(_z(xp, (3, 2), "int16"), numpy.float64(2.5), axis=0),
    "take_float_list_index": lambda xp: xp.take(_z(xp, (4, 1, 5), "int64"), [0.5], axis=None),
    "take_float_index_raise": lambda xp: _z(xp, (), "int32").take(1.5, axis=0, mode="raise"),
    "take_str_index": lambda xp: xp.take(_z(xp, (3,), "int32"), "x", axis=-1),
    "take_axis_before_index": lambda xp: xp.take(_z(xp, (1, 1, 1), "uint8"), "x", axis=3),
    "take_axis_before_float_index": lambda xp: xp.take(_z(xp, (1,), "complex64"), 1.5, axis=1),
    "put_complex_value": lambda xp: _call(xp.put, _z(xp, (2, 1), "uint16"), xp.asarray([0]), 2 - 3j),
    "put_complex_before_range": lambda xp: _call(lambda a, i, v: a.put(i, v), _z(xp, (2, 3), "float64"), 7, 1j),
    "put_out_of_range_int": lambda xp: _call(xp.put, _z(xp, (4,), "uint64"), -6, -1),
    "put_big_int_complex": lambda xp: _call(xp.put, _z(xp, (4, 1, 3), "complex64"), 2, 2 ** 64 - 1),
    "put_str_value": lambda xp: _call(xp.put, _z(xp, (2,), "complex64"), -1, "x"),
    # None is a value: NaN into floats, NumPy's TypeError into integers (the bindings took no None at all).
    "put_none_float": lambda xp: _call(xp.put, _z(xp, (2, 2), "float32"), [-3, 3], None),
    "put_none_int": lambda xp: _call(xp.put, _z(xp, (3,), "int32"), [0], None),
    "put_method_none": lambda xp: _call(lambda a, i, v: a.put(i, v), _z(xp, (3,), "float64"), 1, None),
    "put_along_axis_none": lambda xp: _call(xp.put_along_axis, _z(xp, (2, 3), "float64"),
                                            xp.asarray([[0], [2]]), None, 1),
    "place_none": lambda xp: _call(xp.place, _z(xp, (3,), "float64"), xp.asarray([True, False, True]), None),
    "putmask_none": lambda xp: _call(xp.putmask, _z(xp, (3,), "float16"), xp.asarray([True, False, True]), None),
    "put_float_index": lambda xp: _call(xp.put, _z(xp, (3,), "int64"), [0.5], 7),
    "put_mode_none": lambda xp: _call(lambda a, i, v: xp.put(a, i, v, mode=None), _z(xp, (3,), "int64"), [0], 5),
    "place_str_value": lambda xp: _call(xp.place, _z(xp, (3, 2), "uint8"), xp.ones((3, 2), bool), "x"),
    "place_uint64_big": lambda xp: _call(xp.place, _z(xp, (1, 1), "uint64"), xp.ones((1, 1), bool), 2 ** 63),
    "place_float_overflow": lambda xp: _call(xp.place, _z(xp, (2, 2), "uint64"), xp.ones((2, 2), bool), 1e300),
    "place_mask_size_first": lambda xp: _call(xp.place, _z(xp, (1,), "int64"), xp.ones(2, bool), 2 ** 64 - 1),
    "putmask_inf": lambda xp: _call(xp.putmask, _z(xp, (2, 2), "int32"), xp.ones((2, 2), bool), float("inf")),
    "putmask_empty_out_of_range": lambda xp: _call(xp.putmask, _z(xp, (2, 0), "uint16"), xp.ones((2, 0), bool), -1),
    "putmask_mask_size_first": lambda xp: _call(xp.putmask, _z(xp, (4, 1), "int8"), xp.ones((5, 1), bool), 2 ** 63),
    "put_along_axis_complex": lambda xp: _call(xp.put_along_axis, _z(xp, (1, 3, 1), "int32"),
                                               xp.zeros((2, 3, 1), "int64"), 2 - 3j, 0),
    "put_along_axis_axis_first": lambda xp: _call(xp.put_along_axis, _z(xp, (4,), "float16"),
                                                  xp.zeros(4, "int64"), 2 ** 64 - 1, 1),
    "put_along_axis_big_int_float16": lambda xp: _call(xp.put_along_axis, _z(xp, (2, 2, 1), "float16"),
                                                       xp.zeros((2, 2, 1), "int64"), 2 ** 70, -1),
}


@gpu
@pytest.mark.parametrize("case", sorted(ASSIGN_CASES))
@testing.numpy_cuarray_equal()
def test_assignment_value_conversion_as_numpy(xp, case):
    with numpy.errstate(all="ignore"):
        return ASSIGN_CASES[case](xp)


# More than three index arrays: their byte offsets are folded in groups of three (the elementwise operand limit).
@gpu
@pytest.mark.parametrize("ndim", [4, 5, 7])
@pytest.mark.parametrize("op", ["get", "set", "take_along_axis", "put_along_axis"])
@testing.numpy_cuarray_equal()
def test_many_index_arrays(xp, ndim, op):
    shape = (2, 3, 1, 4, 2, 3, 2)[:ndim]
    x = xp.asarray(numpy.arange(int(numpy.prod(shape)), dtype=numpy.float64).reshape(shape))
    r = numpy.random.default_rng(ndim)
    key = tuple(xp.asarray(r.integers(-n, n, size=(3, 5))) for n in shape)
    idx = xp.asarray(r.integers(-shape[1], shape[1], size=shape[:1] + (4,) + shape[2:]))
    if op == "get":
        return x[key]
    if op == "set":
        x[key] = -1.0  # one value: duplicate positions in `key` then leave no write order to depend on
        return x
    if op == "take_along_axis":
        return xp.take_along_axis(x, idx, axis=1)
    xp.put_along_axis(x, idx % shape[1], -1.0, axis=1)
    return x


# Note [slice errors last] (python/src/ndarray.cpp): NumPy checks the whole key before it computes a slice, so
# an index error of the key wins over a zero step or a slice of non-integers.
@pytest.mark.gpu
@pytest.mark.parametrize("key", [(slice(6, None, 0),), (slice(None, None, 0), 1), (1, slice(None, None, 0)),
                                 (slice(None, None, 0), Ellipsis, Ellipsis), (slice(None, None, 0), 1.5),
                                 (slice(0, "x"),), (slice(None, None, 0),), (slice(None, None, 0), [1]),
                                 (slice(2, None, 0), 6), (6, slice(None, None, 0)), (0, slice(None, None, 0)),
                                 (slice(None, None, 0), 2 ** 63 - 1)], ids=repr)
@pytest.mark.parametrize("shape", [(), (3,), (1, 4)], ids=str)
@pytest.mark.parametrize("op", ["get", "set"])
@testing.numpy_cuarray_equal()
def test_slice_errors_come_after_the_key_checks(xp, key, shape, op):
    a = xp.zeros(shape, dtype=numpy.int64)
    if op == "get":
        return a[key]
    a[key] = 1
    return a


# NumPy's boolean-subscript assignment (one boolean index as deep as the array) takes a value of at most one
# dimension; a boolean index with other items, or shallower than the array, broadcasts the value instead.
@pytest.mark.gpu
@pytest.mark.parametrize("case", ["full-2d", "full-1d", "tuple-2d", "0d-false", "0d-true", "0d-array", "shallow",
                                  "with-ellipsis", "scalar-true-3d", "wrong-shape-2d"])
@testing.numpy_cuarray_equal()
def test_boolean_assignment_value_dimensions(xp, case):
    a = xp.zeros((2, 3))
    mask = xp.asarray(numpy.array([[True, False, True], [False, True, True]]))
    if case == "full-2d":
        a[mask] = xp.ones((1, 4))
    elif case == "full-1d":
        a[mask] = xp.arange(4.0)
    elif case == "tuple-2d":
        a[(mask,)] = xp.ones((1, 4))
    elif case in ("0d-false", "0d-true", "0d-array"):
        a = xp.zeros(())
        key = {"0d-false": False, "0d-true": True, "0d-array": xp.asarray(numpy.array(True))}[case]
        a[key] = xp.ones((1, 1))
    elif case == "shallow":
        a[xp.asarray(numpy.array([True, False]))] = xp.ones((1, 3))
    elif case == "with-ellipsis":
        a[mask, ...] = xp.ones((1, 4))
    elif case == "scalar-true-3d":
        a[True] = xp.ones((1, 2, 3))
    else:
        a[xp.asarray(numpy.ones((3, 2), bool))] = xp.ones((1, 6))
    return a
