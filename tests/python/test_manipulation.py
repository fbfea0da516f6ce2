"""Array manipulation (shape, axes, joining, splitting, rearranging, pad) against NumPy.

CPU tests check what needs no device (exports, methods, shape arithmetic, argument errors raised before any
device use); GPU tests compare results, dtypes, shapes, view-vs-copy behaviour and exceptions with NumPy.
"""
import numpy
import pytest

import cuarray as cp
from cuarray import testing

from _arrays import random_array as _arr

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
NUMERIC = [d for d in DTYPES if d.kind != "b"]

FUNCS = ("reshape ravel squeeze expand_dims atleast_1d atleast_2d atleast_3d broadcast_to broadcast_arrays "
         "broadcast_shapes resize transpose permute_dims swapaxes moveaxis rollaxis matrix_transpose concatenate "
         "stack vstack hstack dstack column_stack row_stack block split array_split hsplit vsplit dsplit unstack "
         "flip fliplr flipud rot90 roll tile repeat pad append insert delete trim_zeros meshgrid").split()


def _shares(xp, x, y):
    """Whether y is a view of x (NumPy: shares memory; cuarray: same storage)."""
    if xp is numpy:
        return numpy.shares_memory(x, y)
    return x._same_storage(y)


# -- CPU -----------------------------------------------------------------------------------------------------------


def test_functions_are_exported():
    for name in FUNCS:
        assert callable(getattr(cp, name)), name


def test_ndarray_methods_exist():
    for name in ("reshape", "ravel", "flatten", "squeeze", "swapaxes", "repeat", "resize", "transpose"):
        assert callable(getattr(cp.ndarray, name)), name
    assert isinstance(cp.ndarray.mT, property) and isinstance(cp.ndarray.shape, property)
    assert cp.ndarray.shape.fset is not None


@pytest.mark.parametrize("shapes", [((2, 3), (3,)), ((1,), (4, 1, 5)), ((), (2, 2)), ((0, 3), (1, 3)),
                                    ((5, 1, 2), (1, 7, 1), (2,)), ()])
def test_broadcast_shapes_matches_numpy(shapes):
    assert cp.broadcast_shapes(*shapes) == numpy.broadcast_shapes(*shapes)


def test_broadcast_shapes_mismatch_raises_value_error():
    with pytest.raises(ValueError):
        cp.broadcast_shapes((2, 3), (4,))


# Each shape is taken as numpy.empty takes it: negative sizes and dimensions beyond int64 are ValueErrors
# ("Maximum allowed dimension exceeded", not OverflowError), bools TypeErrors; a result whose size does not fit
# int64 is "broadcast dimensions too large.".
@pytest.mark.parametrize("shapes", [
    ((3, 1, -1),), ((), -1, ()), ((-1,),), ((2 ** 63,), (), ()), ((2 ** 64,), (1, 1)), (-2 ** 70,), ((2, 2 ** 63),),
    ((True, 2), ()), (True,), ((False,),), (None,), ((), None), (2.0,), ((2.0,),), ("x",),
    ((2 ** 62, 4),), ((2 ** 40,), (2 ** 30, 1)), ((0, 2 ** 62, 4),), ((2 ** 63 - 1,),), ((1, 2 ** 31),),
    ([3, 1],), (numpy.int64(3),), ((numpy.int32(2), 1),)], ids=repr)
@testing.numpy_cuarray_equal()
def test_broadcast_shapes_argument_errors_match_numpy(xp, shapes):
    return xp.broadcast_shapes(*shapes)


@pytest.mark.parametrize("call,exc", [
    (lambda: cp.concatenate([]), ValueError),
    (lambda: cp.stack([]), ValueError),
    (lambda: cp.vstack([]), ValueError),
    (lambda: cp.hstack([]), ValueError),
    (lambda: cp.block([]), ValueError),
    (lambda: cp.block(()), TypeError),
    (lambda: cp.meshgrid(indexing="ab"), ValueError),
    (lambda: cp.pad(numpy.zeros(3), 1, mode="nonsense"), ValueError),
])
def test_argument_errors_before_device_use(call, exc):
    with pytest.raises(exc):
        call()


def test_meshgrid_of_nothing_is_an_empty_tuple():
    assert cp.meshgrid() == () == numpy.meshgrid()


# -- GPU: shape ----------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_reshape_over_dtypes_and_orders(xp, dtype):
    a = _arr(xp, (4, 6), dtype)
    return (a.reshape(3, 8), a.reshape((2, -1, 3)), xp.reshape(a, (24,), order="F"), a.T.reshape(6, 4),
            a.reshape(-1, order="A"), a[::2, ::-3].reshape(4, 1))


@gpu
@testing.numpy_cuarray_equal()
def test_reshape_gives_a_view_when_strides_allow(xp):
    a = _arr(xp, (6, 8), "float32")
    s = a[:, ::2]  # not contiguous, yet (6, 4) -> (3, 2, 4) needs no copy
    r = s.reshape(3, 2, 4)
    t = a.T.reshape(2, 4, 6)  # merges no axes the strides forbid -> copy
    return r, _shares(xp, a, r), t, _shares(xp, a, t), r.strides


@gpu
@testing.numpy_cuarray_equal()
def test_writing_through_a_reshaped_view_changes_the_original(xp):
    a = _arr(xp, (4, 6), "int32")
    v = a[:, 1:5].reshape(4, 2, 2)
    v[...] = 7
    return a, _shares(xp, a, v)  # NumPy's base chain here is an implementation detail; the memory is shared


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_reshape_copy_false_raises_when_a_copy_is_needed(xp):
    return xp.reshape(_arr(xp, (3, 4), "float64").T, (12,), copy=False)


@gpu
@testing.numpy_cuarray_equal()
def test_reshape_copy_true_always_copies(xp):
    a = _arr(xp, (3, 4), "float64")
    r = xp.reshape(a, (4, 3), copy=True)
    return r, _shares(xp, a, r)


@gpu
@pytest.mark.parametrize("shape", [(0, 3), (5, 0), (7,)])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_reshape_errors_and_empty(xp, shape):
    a = _arr(xp, shape, "float32")
    return a.reshape(-1), a.reshape(shape[::-1]), a.reshape(1, -1, 1)


@gpu
@pytest.mark.parametrize("shape", [(-1, 2), (2, -1, -1), (4, 2), (-2, 7)])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_reshape_errors(xp, shape):
    return xp.reshape(_arr(xp, (7,), "float32"), shape)


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@testing.numpy_cuarray_equal()
def test_ravel_and_flatten_orders_and_views(xp, order):
    a = _arr(xp, (3, 4, 5), "int16")
    outs = []
    for v in (a, a.T, a[:, ::-1], a.transpose(1, 0, 2), a[::2]):
        r = v.ravel(order)
        outs += [r, _shares(xp, v, r), v.flatten(order), xp.ravel(v, order)]
    return outs


@gpu
@testing.numpy_cuarray_equal(accept_error=(AttributeError, ValueError))
def test_shape_assignment(xp):
    a = _arr(xp, (4, 6), "float32")
    a.shape = (2, 12)
    b = a[:, ::2]
    b.shape = (2, 2, 3)
    a.T.shape = (24,)


@gpu
@testing.numpy_cuarray_equal()
def test_shape_assignment_in_place(xp):
    a = _arr(xp, (4, 6), "float32")
    a.shape = (3, 8)
    a.shape = -1
    return a


@gpu
@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), -1, 1])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_squeeze(xp, axis):
    a = _arr(xp, (1, 3, 1), "complex64")
    return xp.squeeze(a, axis), a.squeeze(axis=axis)


# Issue 14: squeeze's axis is None, an integer or a tuple (a list or a bool is a TypeError, as in NumPy); a
# 0-d array takes axis 0 or -1 (NumPy's C squeeze sees it as 1-d), not a tuple.
@gpu
@pytest.mark.parametrize("axis", [[0], [0, 2], True, 0.0, (True,), numpy.int64(0), numpy.array(2), (0, 0)], ids=repr)
@testing.numpy_cuarray_equal()
def test_squeeze_axis_types_match_numpy(xp, axis):
    a = _arr(xp, (1, 3, 1), "float32")
    return xp.squeeze(a, axis=axis), a.squeeze(axis=axis)


@gpu
@pytest.mark.parametrize("axis", [0, -1, 1, -2, (0,), (), None], ids=repr)
@testing.numpy_cuarray_equal()
def test_squeeze_of_zero_d_matches_numpy(xp, axis):
    a = xp.asarray(numpy.array(2.5))
    return xp.squeeze(a, axis=axis), a.squeeze(axis=axis)


# Issue 14: concatenate and append refuse a bool axis (NumPy's C converter); insert and delete take one.
@gpu
@pytest.mark.parametrize("axis", [True, False, numpy.int64(1), numpy.array(0), [0], 1.0], ids=repr)
@pytest.mark.parametrize("func", ["concatenate", "append", "insert", "delete"])
@testing.numpy_cuarray_equal()
def test_join_axis_types_match_numpy(xp, axis, func):
    a = _arr(xp, (2, 3), "float64")
    if func == "concatenate":
        return xp.concatenate([a, a], axis=axis)
    if func == "append":
        return xp.append(a, a, axis=axis)
    if func == "insert":
        return xp.insert(a, 1, 5.0, axis=axis)
    return xp.delete(a, 1, axis=axis)


# Issue 14: repeat takes a 0-d array as 1-d when an axis is given (axis 0 or -1); a bool axis is a TypeError.
@gpu
@pytest.mark.parametrize("axis", [0, -1, 1, None, True], ids=repr)
@pytest.mark.parametrize("repeats", [2, [3], 0])
@testing.numpy_cuarray_equal()
def test_repeat_of_zero_d_matches_numpy(xp, axis, repeats):
    return xp.repeat(xp.asarray(numpy.array(4, dtype=numpy.int16)), repeats, axis=axis)


@gpu
@pytest.mark.parametrize("axis", [0, -1, (0, 2), (1, -1), (0, 0), 5])
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_expand_dims(xp, axis):
    return xp.expand_dims(_arr(xp, (2, 3), "float16"), axis)


@gpu
@testing.numpy_cuarray_equal()
def test_atleast_nd(xp):
    vals = [_arr(xp, s, "int8") for s in ((), (3,), (2, 3), (2, 3, 4))]
    out = []
    for f in (xp.atleast_1d, xp.atleast_2d, xp.atleast_3d):
        out += [f(v) for v in vals]
        out.append(f(*vals))
    return out


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_broadcast_to_and_arrays(xp):
    a = _arr(xp, (3, 1), "float32")
    b = _arr(xp, (4,), "float32")
    x, y = xp.broadcast_arrays(a, b)
    return xp.broadcast_to(b, (2, 3, 4)), x, y, x.strides, xp.broadcast_to(a, (2, 3, 5))


@gpu
@pytest.mark.parametrize("shape", [(7,), (2, 5), (0,), (3, 0), (4, 4, 4)])
@testing.numpy_cuarray_equal()
def test_resize_function_repeats_data(xp, shape):
    return xp.resize(_arr(xp, (2, 3), "int64"), shape), xp.resize(_arr(xp, (0,), "int64"), (3,))


@gpu
@testing.numpy_cuarray_equal()
def test_resize_method_in_place(xp):
    a = xp.asarray(numpy.arange(6, dtype=numpy.float32))
    a.resize((2, 5), refcheck=False)
    return a


# -- GPU: axes -----------------------------------------------------------------------------------------------------


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_axis_functions(xp):
    a = _arr(xp, (2, 3, 4, 5), "uint8")
    return (xp.transpose(a), xp.transpose(a, (1, 0, 3, 2)), xp.permute_dims(a, (3, 1, 2, 0)), xp.swapaxes(a, 0, -1),
            xp.moveaxis(a, 0, -1), xp.moveaxis(a, (0, 1), (-1, -2)), xp.rollaxis(a, 3, 1), xp.rollaxis(a, 1, 4),
            xp.matrix_transpose(a), a.mT, a.T, a.swapaxes(1, 2))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.transpose(a, (0, 0, 1)), lambda xp, a: xp.swapaxes(a, 0, 3), lambda xp, a: xp.moveaxis(a, 0, 5),
    lambda xp, a: xp.moveaxis(a, (0, 1), 2), lambda xp, a: xp.rollaxis(a, 0, 5),
    lambda xp, a: xp.matrix_transpose(a[0, 0])])
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_axis_function_errors(xp, call):
    return call(xp, _arr(xp, (2, 3, 4), "float32"))


# Note [huge axes]: an axis beyond C int raises AxisOverflowError, an AxisError that is also an OverflowError,
# compatible with each of NumPy's exceptions (OverflowError, ValueError, IndexError or AxisError by function);
# it must never be truncated (axis=2**32 used to act on axis 0).
@gpu
@pytest.mark.parametrize("big", [2 ** 31, 2 ** 32, 2 ** 32 + 1, -2 ** 31 - 1, -2 ** 32 + 1, 2 ** 63, 2 ** 64, -2 ** 64])
@pytest.mark.parametrize("call", [
    lambda xp, a, v: xp.flip(a, axis=v), lambda xp, a, v: xp.flip(a, axis=(0, v)),
    lambda xp, a, v: xp.swapaxes(a, v, 0), lambda xp, a, v: a.swapaxes(0, v), lambda xp, a, v: xp.rollaxis(a, v),
    lambda xp, a, v: xp.rollaxis(a, 0, v),
    lambda xp, a, v: xp.moveaxis(a, v, 0), lambda xp, a, v: xp.moveaxis(a, 0, v), lambda xp, a, v: xp.expand_dims(a, v),
    lambda xp, a, v: xp.stack([a, a], v), lambda xp, a, v: xp.split(a, 1, v), lambda xp, a, v: xp.array_split(a, 1, v),
    lambda xp, a, v: xp.unstack(a, axis=v), lambda xp, a, v: xp.insert(a, 0, 1, axis=v),
    lambda xp, a, v: xp.delete(a, 0, axis=v), lambda xp, a, v: xp.pad(a, {v: 1})])
@testing.numpy_cuarray_equal()
def test_axis_beyond_c_int_raises_as_numpy(xp, call, big):
    return call(xp, _arr(xp, (2, 3), "float32"), big)


@gpu
@pytest.mark.parametrize("axes", [(2 ** 32, 0), (0, 2 ** 31), (2 ** 64, 0)], ids=repr)
@testing.numpy_cuarray_equal()
def test_transpose_axis_beyond_c_int_raises(xp, axes):
    a = _arr(xp, (2, 3), "float32")
    return a.transpose(*axes), xp.transpose(a, axes)


@gpu
def test_axis_beyond_c_int_is_an_axis_error_and_an_overflow_error():
    a = cp.zeros((2, 3))
    for call in (lambda: cp.flip(a, 2 ** 32), lambda: a.transpose(2 ** 32 + 1, 0), lambda: cp.stack([a], -2 ** 40)):
        with pytest.raises(numpy.exceptions.AxisError) as info:
            call()
        assert isinstance(info.value, OverflowError)


# -- GPU: joining --------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_concatenate_over_dtypes_and_layouts(xp, dtype):
    a = _arr(xp, (3, 4), dtype)
    b = _arr(xp, (3, 5), dtype, 1)
    c = _arr(xp, (4, 3), dtype, 2).T
    return (xp.concatenate((a, b, c[:, ::-1]), axis=1), xp.concatenate((a.T, b.T), axis=0),
            xp.concatenate((a, b), axis=None), xp.concatenate((a, a[:0]), axis=0))


@gpu
@pytest.mark.parametrize("t1,t2", [("int8", "uint8"), ("bool", "float16"), ("int64", "float32"),
                                   ("uint64", "int64"), ("float32", "complex64"), ("int16", "complex128")])
@testing.numpy_cuarray_equal()
def test_concatenate_promotes_dtypes(xp, t1, t2):
    return xp.concatenate([_arr(xp, (2, 3), t1), _arr(xp, (1, 3), t2)])


@gpu
@testing.numpy_cuarray_equal(accept_error=(TypeError, ValueError, numpy.exceptions.AxisError))
def test_concatenate_out_dtype_casting(xp):
    a, b = _arr(xp, (2, 3), "float64"), _arr(xp, (2, 3), "float64", 1)
    out = xp.zeros((4, 3), dtype=xp.float32)
    r = xp.concatenate((a, b), out=out)
    return (r is out, out, xp.concatenate((a, b), dtype="int32", casting="unsafe"),
            xp.concatenate((a, b), dtype="complex64"))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.concatenate((a, a), dtype="int32"), lambda xp, a: xp.concatenate((a, a[0])),
    lambda xp, a: xp.concatenate((a, a.T)), lambda xp, a: xp.concatenate((a, a), axis=2),
    lambda xp, a: xp.concatenate((a[0, 0], a[0, 0])), lambda xp, a: xp.concatenate((a, a), out=xp.zeros((3, 3))),
    lambda xp, a: xp.concatenate((a, a), out=xp.zeros((4, 3)), dtype="float64"),
    lambda xp, a: xp.stack((a, a[:1])), lambda xp, a: xp.stack((a, a), axis=3)])
@testing.numpy_cuarray_equal(accept_error=(TypeError, ValueError, numpy.exceptions.AxisError))
def test_join_errors(xp, call):
    return call(xp, _arr(xp, (2, 3), "float64"))


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int32", "float16", "complex128"])
@testing.numpy_cuarray_equal()
def test_stack_family(xp, dtype):
    a, b = _arr(xp, (2, 3), dtype), _arr(xp, (2, 3), dtype, 1)
    v, w = _arr(xp, (3,), dtype, 2), _arr(xp, (3,), dtype, 3)
    s = _arr(xp, (), dtype, 4)
    return (xp.stack((a, b)), xp.stack((a, b), axis=-1), xp.stack((a, b), axis=1), xp.vstack((a, b, v)),
            xp.hstack((a, b)), xp.hstack((v, w, s[None])), xp.dstack((a, b)), xp.dstack((v, w)),
            xp.column_stack((v, w, a.T)), xp.stack((s, s)), xp.vstack((v, w), dtype="complex128"),
            xp.stack((v, w), out=xp.empty((2, 3), dtype=dtype)))


@gpu
@testing.numpy_cuarray_equal()
def test_stack_accepts_python_scalars_and_lists(xp):
    return xp.stack([1, 2, 3]), xp.hstack([[1, 2], [3.5]]), xp.concatenate([[1, 2], [3]])


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, TypeError))
def test_block(xp):
    a = _arr(xp, (2, 2), "float32")
    b = _arr(xp, (2, 3), "float32", 1)
    c = _arr(xp, (1, 5), "int64", 2)
    v = _arr(xp, (3,), "int8", 3)
    r = xp.block([[a, b], [c]])
    one = xp.block(a)
    return r, xp.block([v, v]), xp.block([[v], [v]]), xp.block([[[a]], [[a]]]), one, _shares(xp, a, one), \
        xp.block([1, 2, v])


@gpu
@pytest.mark.parametrize("blocks", [lambda a: [[a], a], lambda a: [[a, a], []], lambda a: [[a, a[:1]]]])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_block_errors(xp, blocks):
    return xp.block(blocks(_arr(xp, (2, 2), "float32")))


@gpu
@testing.numpy_cuarray_equal()
def test_append(xp):
    a = _arr(xp, (2, 3), "int32")
    return xp.append(a, [1, 2]), xp.append(a, a, axis=0), xp.append(a, _arr(xp, (2, 1), "float32"), axis=1)


# -- GPU: splitting ------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("ios", [3, [1, 4], [2, -1], [5, 2, 9], []])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_split_family(xp, ios):
    a = _arr(xp, (6, 9, 3), "float64")
    out = [xp.split(a, ios), xp.array_split(a, ios, axis=1), xp.split(a, ios, axis=-2), xp.hsplit(a, ios),
           xp.vsplit(a, ios)]
    if ios != 3:
        out.append(xp.dsplit(a, ios))
    return out


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, IndexError, ZeroDivisionError))
def test_split_uneven(xp):
    a = _arr(xp, (5,), "int8")
    return xp.array_split(a, 3), xp.array_split(a, 7), xp.split(a, 5)


@gpu
@pytest.mark.parametrize("call", [lambda xp, a: xp.split(a, 0), lambda xp, a: xp.array_split(a, 0),
                                  lambda xp, a: xp.split(a, 2, axis=3), lambda xp, a: xp.vsplit(a, 2),
                                  lambda xp, a: xp.hsplit(a[0], 1)])
@testing.numpy_cuarray_equal(accept_error=(ValueError, IndexError, ZeroDivisionError))
def test_split_argument_errors(xp, call):
    return call(xp, _arr(xp, (6,), "int8"))


@gpu
@testing.numpy_cuarray_equal()
def test_split_parts_are_views(xp):
    a = _arr(xp, (4, 6), "int32")
    parts = xp.split(a, 3, axis=1)
    parts[1][...] = 0
    return a, [_shares(xp, a, p) for p in parts]


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_unstack(xp):
    a = _arr(xp, (2, 3, 4), "complex64")
    return xp.unstack(a), xp.unstack(a, axis=-1), xp.unstack(a[0, 0])


# -- GPU: rearranging ----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_flips_and_rot90(xp, dtype):
    a = _arr(xp, (3, 4, 5), dtype)
    return (xp.flip(a), xp.flip(a, 1), xp.flip(a, (0, 2)), xp.fliplr(a), xp.flipud(a), xp.rot90(a),
            xp.rot90(a, 2), xp.rot90(a, -1, axes=(1, 2)), xp.rot90(a, 3, (2, 0)), xp.rot90(a, 4),
            _shares(xp, a, xp.flip(a)), xp.flip(a)[::2].copy())


@gpu
@pytest.mark.parametrize("call", [lambda xp, a: xp.fliplr(a[0]), lambda xp, a: xp.flipud(a[0, 0]),
                                  lambda xp, a: xp.rot90(a, axes=(0, 0)), lambda xp, a: xp.rot90(a, axes=(0, 3)),
                                  lambda xp, a: xp.rot90(a, axes=(0, 1, 2)), lambda xp, a: xp.flip(a, 3)])
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_flip_errors(xp, call):
    return call(xp, _arr(xp, (2, 3), "float32"))


@gpu
@pytest.mark.parametrize("shift,axis", [(2, None), (-7, None), (1, 0), (3, -1), ((1, 2), (0, 1)), (5, (0, 1)),
                                        ((1, -1), 1), ((2, 3), None), (0, 0), (100, 1)])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_roll(xp, shift, axis):
    a = _arr(xp, (3, 4), "int16")
    return xp.roll(a, shift, axis), xp.roll(a.T, shift, axis), xp.roll(a[:, :0], shift, axis)


@gpu
@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 2, 2), (0, 2), (1, 1), (1, 1, 1, 1)])
@pytest.mark.parametrize("dtype", ["bool", "uint16", "float64", "complex128"])
@testing.numpy_cuarray_equal()
def test_tile(xp, reps, dtype):
    a = _arr(xp, (2, 3), dtype)
    return xp.tile(a, reps), xp.tile(a.T, reps), xp.tile(_arr(xp, (), dtype), reps)


@gpu
@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (0, 1), ([1, 0, 2], 1), ([2, 1], 0), ([3], 1),
                                          (2, -1)])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_repeat(xp, repeats, axis):
    a = _arr(xp, (2, 3), "float32")
    return xp.repeat(a, repeats, axis), a.T.T.repeat(repeats, axis), xp.repeat(a[:, ::-1], repeats, axis)


@gpu
@pytest.mark.parametrize("repeats,axis", [([1, 2], 1), (-1, 0), ([1, -1, 1], 1), (2, 2)])
@testing.numpy_cuarray_equal(accept_error=(ValueError, numpy.exceptions.AxisError))
def test_repeat_errors(xp, repeats, axis):
    return xp.repeat(_arr(xp, (2, 3), "int8"), repeats, axis)


@gpu
@pytest.mark.parametrize("obj", [1, -1, slice(None, None, 2), slice(4, 0, -2), [0, 2], [3, 1, 1],
                                 numpy.array([True, False, True, False, False]), [], numpy.array(2)])
@pytest.mark.parametrize("axis", [None, 1])
@testing.numpy_cuarray_equal(accept_error=(IndexError, ValueError))
def test_delete(xp, obj, axis):
    a = _arr(xp, (3, 5), "int32")
    return xp.delete(a, obj, axis)


@gpu
@pytest.mark.parametrize("obj", [5, -6, 1.5, numpy.array([True, False])])
@testing.numpy_cuarray_equal(accept_error=(IndexError, ValueError, TypeError))
def test_delete_errors(xp, obj):
    return xp.delete(_arr(xp, (5,), "int32"), obj)


@gpu
@pytest.mark.parametrize("func", ["delete", "insert"])
@pytest.mark.parametrize("obj", [1.5, "x", [0.5], 1, numpy.array([True, False])])
@pytest.mark.parametrize("axis", [1, -2, 5])
@testing.numpy_cuarray_equal(accept_error=True)
def test_insert_delete_check_the_axis_before_the_indices(xp, func, obj, axis):
    # NumPy normalizes the axis first: a bad axis is its AxisError whatever the indices (and values) are.
    a = _arr(xp, (4,), "complex128")
    if func == "delete":
        return xp.delete(a, obj, axis=axis)
    return xp.insert(a, obj, "not a number", axis=axis)


@gpu
@pytest.mark.parametrize("obj,values", [(1, 9), (-1, [7, 8, 9]), (0, [[1], [2], [3]]), ([1, 3], 5),
                                        ([2, 0, 2], [1, 2, 3]), (slice(0, 3), 4.7), (numpy.array(1), [1, 2, 3]),
                                        ([5], 1)])
@pytest.mark.parametrize("axis", [None, 1])
@testing.numpy_cuarray_equal(accept_error=(IndexError, ValueError))
def test_insert(xp, obj, values, axis):
    a = _arr(xp, (3, 5), "int64")
    return xp.insert(a, obj, values, axis)


# NumPy assigns insert's values into the new array even when it is empty: values that do not fit the slot
# are its ValueError, values that do fit give the empty result.
@gpu
@pytest.mark.parametrize("obj,values", [(-1, [1, 2]), (-1, [1]), ([0, 1], [1, 2]), ([0, 1], 5), (1, [[[3]]]),
                                        ([0, 2], [[[1]], [[2]]]), (slice(0, 2), [1, 2, 3])], ids=str)
@pytest.mark.parametrize("layout", ["c", "reversed"])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_insert_into_an_empty_result(xp, obj, values, layout):
    a = xp.zeros((3, 3, 0), numpy.float32)
    if layout == "reversed":
        a = a[::-1]
    return xp.insert(a, obj, values, axis=0)


@gpu
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_trim_zeros(xp, trim):
    a = xp.asarray(numpy.array([0, 0, 3, 0, 5, 0, 0], dtype=numpy.float32))
    m = xp.asarray(numpy.pad(numpy.arange(1, 7).reshape(2, 3), ((1, 2), (0, 3))))
    z = xp.zeros(4)
    return (xp.trim_zeros(a, trim), xp.trim_zeros(m, trim), xp.trim_zeros(m, trim, axis=0),
            xp.trim_zeros(m, trim, axis=-1), xp.trim_zeros(z, trim), xp.trim_zeros(m, trim, axis=()))


@gpu
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_trim_zeros_bad_trim(xp):
    return xp.trim_zeros(xp.zeros(3), "xz")


@gpu
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [False, True])
@testing.numpy_cuarray_equal()
def test_meshgrid(xp, indexing, sparse, copy):
    x, y, z = _arr(xp, (3,), "float32"), _arr(xp, (4,), "float32", 1), _arr(xp, (2,), "int8", 2)
    return (xp.meshgrid(x, y, indexing=indexing, sparse=sparse, copy=copy),
            xp.meshgrid(x, y, z, indexing=indexing, sparse=sparse, copy=copy), xp.meshgrid(x, indexing=indexing))


# -- GPU: pad ------------------------------------------------------------------------------------------------------

PAD_MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric",
             "wrap"]


@gpu
@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("width", [1, (2, 3), ((1, 0), (4, 7)), ((0, 0), (0, 9))])
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex64"])
@testing.numpy_cuarray_allclose(rtol=1e-5, atol=1e-5)
def test_pad_modes(xp, mode, width, dtype):
    if dtype == "complex64" and mode in ("maximum", "minimum", "median"):
        pytest.skip("NumPy orders complex values lexicographically; covered by the float cases")
    a = _arr(xp, (3, 4), dtype)
    return xp.pad(a, width, mode), xp.pad(a.T[::-1], width, mode)


@gpu
@pytest.mark.parametrize("kw", [{"mode": "constant", "constant_values": 7},
                                {"mode": "constant", "constant_values": ((1, 2), (3, 4))},
                                {"mode": "linear_ramp", "end_values": (5, -5)},
                                {"mode": "maximum", "stat_length": 2}, {"mode": "mean", "stat_length": ((1, 2), (3, 1))},
                                {"mode": "median", "stat_length": 3}, {"mode": "minimum", "stat_length": (1, 2)},
                                {"mode": "reflect", "reflect_type": "odd"}, {"mode": "symmetric", "reflect_type": "odd"},
                                {"mode": "maximum", "stat_length": 0}, {"mode": "edge", "constant_values": 1}])
@testing.numpy_cuarray_allclose(rtol=1e-6, accept_error=ValueError)
def test_pad_keywords(xp, kw):
    return xp.pad(_arr(xp, (4, 5), "float64"), ((2, 3), (6, 1)), **kw)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@testing.numpy_cuarray_equal()
def test_pad_constant_rows(xp, dtype):
    """The one-pass constant pad (Note [constant pad]): rows of at least 32 elements, per-axis values (later
    axes own the corners), strided and reversed sources, an empty axis, 1-D to 3-D."""
    a3 = _arr(xp, (3, 4, 40), dtype)
    vals = ((1, 2), (3, 4), (5, 6)) if dtype.kind != "b" else ((True, False), (False, True), (True, True))
    return (xp.pad(a3, ((1, 2), (2, 1), (3, 4)), constant_values=vals),
            xp.pad(a3[::-1, ::2, 1::2], ((0, 1), (1, 0), (5, 0)), constant_values=vals[1:2] * 3),
            xp.pad(_arr(xp, (64,), dtype), (7, 9)),
            xp.pad(_arr(xp, (0, 40), dtype), ((2, 1), (0, 3)), constant_values=vals[0][0]),
            xp.pad(_arr(xp, (5, 33), dtype, order="F")[:, ::-1], 2))


@gpu
@testing.numpy_cuarray_equal(accept_error=(ValueError, TypeError))
def test_pad_edge_cases(xp):
    e = _arr(xp, (0, 3), "float32")
    one = _arr(xp, (1, 3), "int32")
    return (xp.pad(e, 1), xp.pad(one, 2, "reflect"), xp.pad(one, 2, "symmetric"), xp.pad(one, 4, "wrap"),
            xp.pad(_arr(xp, (), "int8"), 3), xp.pad(_arr(xp, (5,), "bool"), 2, "edge"),
            xp.pad(_arr(xp, (3,), "int8"), {0: (1, 2)}), xp.pad(e, ((0, 0), (1, 1)), "edge"))


@gpu
@pytest.mark.parametrize("width", [-1, 1.5, ((1, 2), (3, 4), (5, 6))])
@testing.numpy_cuarray_equal(accept_error=(ValueError, TypeError))
def test_pad_width_errors(xp, width):
    return xp.pad(_arr(xp, (2, 3), "float32"), width)


@gpu
def test_pad_callable_mode_runs_numpy_semantics():
    def fill(vector, width, iaxis, kwargs):
        vector[:width[0]] = kwargs.get("v", 9)
        if width[1]:
            vector[-width[1]:] = -1

    a = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    got = cp.pad(cp.asarray(a), (1, 2), fill, v=5)
    numpy.testing.assert_array_equal(got.get(), numpy.pad(a, (1, 2), fill, v=5))


# -- GPU: copies between layouts (Note [tiled transpose]) ---------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(33, 70), (128, 17), (64, 64), (3, 40, 50), (17, 16)])
@testing.numpy_cuarray_equal()
def test_transposing_copies_take_the_tiled_path(xp, dtype, shape):
    a = _arr(xp, shape, dtype)
    t = a.T
    outs = [t.copy(), xp.ascontiguousarray(t), a.copy(order="F"), xp.swapaxes(a, -1, -2).copy()]
    b = xp.zeros(t.shape, dtype=dtype)
    b[...] = t
    outs.append(b)
    if len(shape) == 2:
        outs.append(a[::2, 1:].T.copy())
    return outs


# Fuzz run 1 (manipulation family).
@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: a.repeat(1.5, axis=0), lambda xp, a: xp.repeat(a, 2.7), lambda xp, a: xp.repeat(a, [1.5, 2, 1, 0], axis=0),
    lambda xp, a: xp.repeat(a, numpy.float64(1.5), axis=2), lambda xp, a: xp.repeat(a[:0, 0, 0], 1.5, axis=1),
    lambda xp, a: xp.repeat(a, -1.5), lambda xp, a: xp.repeat(a, 1 + 0j)])
@testing.numpy_cuarray_equal(accept_error=True)
def test_repeat_float_repeats_truncate(xp, call):
    return call(xp, _arr(xp, (4, 1, 3), "float32"))


@gpu
@pytest.mark.parametrize("shape", [(2, 2, 2), (1, 4), (2,)])
@pytest.mark.parametrize("axis", [True, False, (True,)])
@testing.numpy_cuarray_equal()
def test_flip_bool_axis_is_an_integer(xp, shape, axis):
    return xp.flip(_arr(xp, shape, "int16"), axis=axis)


@gpu
@pytest.mark.parametrize("shape,sections,axis", [((1, 1), 2.5, 2), ((1, 4, 1), 2.5, -1), ((4,), 2.5, -1), ((4,), 0, 1),
                                                 ((5,), 2.5, 0), ((4,), 2.0, 0), ((4,), 0, 0), ((4,), 0.0, 0)])
@pytest.mark.parametrize("fn", ["split", "array_split"])
@testing.numpy_cuarray_equal(accept_error=True)
def test_split_float_sections_and_axis_first(xp, fn, shape, sections, axis):
    return getattr(xp, fn)(_arr(xp, shape, "float32"), sections, axis=axis)


@gpu
@pytest.mark.parametrize("pad_width,mode", [(1.5, "bogus"), (1.5, "constant"), (((1, 2),), "bogus"), ((), "constant"),
                                            (numpy.uint8(1), "constant")])
@testing.numpy_cuarray_equal(accept_error=True)
def test_pad_width_type_checked_before_mode(xp, pad_width, mode):
    return xp.pad(_arr(xp, (3,), "float64"), pad_width, mode=mode)


@gpu
@pytest.mark.parametrize("shape,reps", [((2, 2, 0), (2, -1)), ((2, 2, 0), -1), ((0,), -1), ((2, 2, 1), (2, -1)),
                                        ((2, 0), (-1, 2))])
@testing.numpy_cuarray_equal(accept_error=ValueError)
def test_tile_negative_reps_of_empty_input(xp, shape, reps):
    return xp.tile(_arr(xp, shape, "uint8"), reps)


# Note [argument order] (python/src/manipulation.cpp): NumPy converts the axes left to right, so the first
# bad one names the error.
@pytest.mark.gpu
@pytest.mark.parametrize("axes", [(2 ** 32, "x"), ("x", 2 ** 32), (2 ** 70, 0), (0, 2 ** 70), (5, "x")], ids=repr)
@pytest.mark.parametrize("func", ["swapaxes", "a.swapaxes", "rollaxis"])
@testing.numpy_cuarray_equal()
def test_axis_arguments_convert_left_to_right(xp, func, axes):
    a = xp.zeros((2, 3), dtype=numpy.float32)
    if func == "a.swapaxes":
        return a.swapaxes(*axes)
    return getattr(xp, func)(a, *axes)


# NumPy broadcasts repeats along the axis before it looks for negative counts: an empty axis has none.
@pytest.mark.gpu
@pytest.mark.parametrize("shape,repeats,axis", [((4, 0), -1, 1), ((0,), -1, 0), ((0,), -1, None), ((4, 0), [-1], 1),
                                                ((4, 2), -1, 1), ((4, 2), [1, -1], 1), ((4, 0), [], 1)], ids=str)
@testing.numpy_cuarray_equal()
def test_negative_repeats_along_an_empty_axis(xp, shape, repeats, axis):
    return xp.repeat(xp.zeros(shape, dtype=numpy.float16), repeats, axis=axis)
