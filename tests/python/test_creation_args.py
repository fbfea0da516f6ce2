"""Argument checks of the creation functions that need no device (test_creation.py is all GPU tests): shapes,
orders, eye's N, M and k, and full's fill values raise NumPy's exception types before any device use."""

import numpy
import pytest

import cuarray as cp
from cuarray import testing


# Dimensions: NumPy's PyArray_IntpConverter. Beyond int64 either way is "Maximum allowed dimension exceeded"
# (ValueError, not OverflowError), checked before the sign; a bool is a TypeError.
BAD_SHAPES = [2 ** 63, 2 ** 70, -2 ** 70, (2, 2 ** 64), (2 ** 63, -1), (-1, 2 ** 63), -1, (2, -3), True,
              (True, 2), (2, False), numpy.bool_(True), (numpy.bool_(True),), 2.0, (2.0, 3), 'x', (3, 'a'),
              (2 ** 62, 4), (2 ** 63 - 1, 2)]


@pytest.mark.parametrize('shape', BAD_SHAPES, ids=repr)
@pytest.mark.parametrize('func', ['zeros', 'ones', 'empty'])
@testing.numpy_cuarray_equal()
def test_bad_shapes_raise_as_numpy(xp, func, shape):
    return getattr(xp, func)(shape)


@pytest.mark.parametrize('shape', BAD_SHAPES, ids=repr)
@testing.numpy_cuarray_equal()
def test_full_bad_shapes_raise_as_numpy(xp, shape):
    return xp.full(shape, 1.5)


@pytest.mark.parametrize('args,kw', [
    ((2 ** 63,), {}), ((2, 2 ** 63), {}), ((-2 ** 70,), {}), ((2, -2 ** 64), {}), ((True,), {}), ((2, True), {}),
    ((2.5,), {}), ((2, 2.5), {}), ((-1,), {}), ((2, -1), {}), ((2,), {'k': 1.5}), ((2,), {'k': 'x'}),
    ((2,), {'order': 'K'}), ((2,), {'order': 'A'}), ((2,), {'order': 'X'}), ((2,), {'order': 1}),
    ((2,), {'dtype': 'int7'}), ((2 ** 63,), {'k': 1.5})], ids=repr)
@testing.numpy_cuarray_equal()
def test_eye_argument_errors_match_numpy(xp, args, kw):
    return xp.eye(*args, **kw)


@pytest.mark.parametrize('n', [2 ** 63, -2 ** 70, -1, True, 2.0, None], ids=repr)
@testing.numpy_cuarray_equal()
def test_identity_argument_errors_match_numpy(xp, n):
    return xp.identity(n)


@pytest.mark.parametrize('order', [1, 'X', 'CF', '', b'CF'], ids=repr)
@pytest.mark.parametrize('func', ['zeros', 'ones', 'empty'])
@testing.numpy_cuarray_equal()
def test_bad_orders_raise_as_numpy(xp, func, order):
    return getattr(xp, func)(2, order=order)


# A fill value NumPy cannot convert to the dtype: its exception, before any device use.
@pytest.mark.parametrize('value,dtype', [
    (None, int), (None, numpy.uint8), ('x', float), ('x', numpy.int16), ('1.5', int), (b'x', numpy.float32),
    (300, numpy.uint8), (-1, numpy.uint16), (2 ** 64, numpy.int64), (2 ** 64, bool), (2 ** 63, bool),
    (-2 ** 64, bool), (2 ** 1100, float), ([None, 'x'], float)], ids=repr)
@testing.numpy_cuarray_equal()
def test_full_unconvertible_fill_values_raise_as_numpy(xp, value, dtype):
    return xp.full(3, value, dtype=dtype)


# NumPy's dtype for these fill values is object, which cuarray lacks: TypeError.
@pytest.mark.parametrize('value', [None, 2 ** 64, -2 ** 63 - 1, 2 ** 70, [1, None, 2]], ids=repr)
def test_full_with_object_fill_value_raises_type_error(value):
    assert numpy.full(3, value).dtype == object
    with pytest.raises(TypeError, match='object'):
        cp.full(3, value)


# order=None (NumPy's 'C' here) and fill_value=None are accepted: the call gets as far as the device.
@pytest.mark.parametrize('call', [
    lambda: cp.zeros(2, order=None), lambda: cp.ones(2, None, None), lambda: cp.empty(2, order=None),
    lambda: cp.full(2, 1, order=None), lambda: cp.eye(2, order=None), lambda: cp.full(2, None, dtype=float),
    lambda: cp.full(2, 2 ** 63), lambda: cp.eye(2, k=2 ** 64)])
def test_none_order_and_fill_value_are_accepted(call):
    if cp.is_available():
        call()
        return
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError):
        call()


# The GPU machine's hypothesis drew these: NumPy checks the shape's type, then dtype=, then order=, and only
# then the sign of the dimensions (eye builds zeros((N, M), dtype, order)).
@pytest.mark.parametrize("call,error", [
    (lambda xp: xp.empty(2.0, order="A"), TypeError),
    (lambda xp: xp.zeros((2, -1), order="A"), ValueError),
    (lambda xp: xp.ones(-1, dtype="int7"), TypeError),
    (lambda xp: xp.eye(-1, k=0, dtype="int7"), TypeError),
    (lambda xp: xp.eye(2, -3, order="Q"), ValueError),
])
def test_creation_checks_in_numpys_order(call, error):
    with pytest.raises(error):
        call(numpy)
    with pytest.raises(error):
        call(cp)
