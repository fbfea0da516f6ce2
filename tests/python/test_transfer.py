"""Tests of host<->device transfers: asarray/array/get/set/asnumpy, layouts, dtypes and errors."""

import gc

import numpy
import pytest

import cuarray as cp
from cuarray import testing

pytestmark = pytest.mark.gpu


def _host_array(dtype, shape=(6, 7), order='C', seed=0):
    return testing.shaped_random(shape, numpy, dtype, scale=100, seed=seed,
                                 order=order)


def _layouts(dtype):
    base = _host_array(dtype)
    big = _host_array(dtype, (6, 8, 5))
    return {
        'C': base,
        'F': numpy.asfortranarray(base),
        'noncontig': base[::2, 1::3],
        'negative': base[::-1],
        'negative2d': base[::-1, ::-2],
        '3d_transposed': big.transpose(2, 0, 1),
        '3d_strided': big[:, ::3, 1:],
        '0d': numpy.array(base[1, 2]),
        'empty': numpy.empty((0,), dtype),
        'empty3d': numpy.empty((3, 0, 2), dtype),
        'one': base[:1, :1],
        '1d': base[2],
    }


LAYOUTS = list(_layouts(numpy.float32))


def _is_dense(a):
    """True if the elements of ``a`` fill a block of memory without gaps
    (C, F or any other axis order)."""
    dims = sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n > 1)
    expected = a.itemsize
    for st, n in dims:
        if st != expected:
            return False
        expected *= n
    return True


# --------------------------------------------------------------------------
# Round trips
# --------------------------------------------------------------------------

@pytest.mark.parametrize('layout', LAYOUTS)
@testing.for_all_dtypes()
def test_round_trip_asarray_get(dtype, layout):
    x = _layouts(dtype)[layout]
    a = cp.asarray(x)
    assert isinstance(a, cp.ndarray)
    assert a.shape == x.shape and a.dtype == x.dtype
    back = a.get()
    assert isinstance(back, numpy.ndarray)
    numpy.testing.assert_array_equal(back, x, strict=True)


@pytest.mark.parametrize('layout', LAYOUTS)
@testing.for_all_dtypes()
def test_round_trip_array_copy(dtype, layout):
    x = _layouts(dtype)[layout]
    a = cp.array(x)
    x_copy = x.copy()
    if x.size:
        x[...] = 0                # the device copy must not alias the host
    numpy.testing.assert_array_equal(a.get(), x_copy, strict=True)


@pytest.mark.parametrize('layout', LAYOUTS)
def test_order_k_keeps_layout_like_cupy(layout):
    x = _layouts(numpy.float64)[layout]
    a = cp.asarray(x)
    if x.flags.c_contiguous:
        assert a.flags.c_contiguous
    elif x.flags.f_contiguous:
        assert a.flags.f_contiguous          # F input stays F on device
    else:
        assert _is_dense(a), a.strides     # a packed copy, in some order
    k = cp.array(x, order='K')
    assert k.flags.c_contiguous == numpy.array(x, order='K').flags.c_contiguous
    assert k.flags.f_contiguous == numpy.array(x, order='K').flags.f_contiguous


@pytest.mark.parametrize('order', ['C', 'F', 'A', 'K'])
@pytest.mark.parametrize('layout', ['C', 'F', 'noncontig', 'negative2d',
                                    '3d_transposed'])
def test_array_order_flags_match_numpy(order, layout):
    x = _layouts(numpy.int32)[layout]
    expected = numpy.array(x, order=order)
    a = cp.array(x, order=order)
    assert a.flags.c_contiguous == expected.flags.c_contiguous
    assert a.flags.f_contiguous == expected.flags.f_contiguous
    assert a.strides == expected.strides
    numpy.testing.assert_array_equal(a.get(), x, strict=True)


def test_large_transfer_crosses_staging_chunks():
    n = 2 ** 24 + 3                                  # 64 MiB + 12 bytes
    x = numpy.arange(n, dtype=numpy.float32)
    x[-3:] = (-1.0, -2.0, -3.0)
    a = cp.asarray(x)
    assert a.shape == (n,)
    assert float(a[-1]) == -3.0 and float(a[2 ** 23]) == 2.0 ** 23
    back = a.get()
    numpy.testing.assert_array_equal(back, x, strict=True)
    back2 = numpy.empty_like(x)
    a.get(out=back2)
    numpy.testing.assert_array_equal(back2, x)
    a.set(x[::-1].copy())
    assert float(a[0]) == -3.0
    del a, back, back2, x
    gc.collect()


# --------------------------------------------------------------------------
# cp.array / cp.asarray from Python objects
# --------------------------------------------------------------------------

@pytest.mark.parametrize('obj', [
    [1, 2, 3],
    [1.0, 2, 3],
    [True, False],
    [1 + 2j, 3],
    [[1, 2], [3, 4]],
    [[[1], [2]], [[3], [4]]],
    [],
    [[]],
    [[], []],
    (1, 2, 3),
    [(1, 2), (3, 4)],
    [2 ** 40, -1],
    [2 ** 63],
    [numpy.float32(1.5), numpy.float32(2.5)],
    [numpy.int8(1), 2],
    [numpy.float32(1.5), 2.5],
    [1, 2.5, 1j],
    3, 3.5, True, 1j, -0.0,
    numpy.float32(2.5), numpy.int8(-3), numpy.uint64(2 ** 64 - 1),
    numpy.bool_(True), numpy.complex64(1 - 1j), numpy.float16(0.5),
    numpy.float64(numpy.nan),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_array_from_python_object(xp, obj):
    return xp.array(obj)


@pytest.mark.parametrize('obj', [
    [[1], [2, 3]],
    [1, [2]],
    [[1, 2], [3]],
], ids=repr)
@testing.numpy_cuarray_equal()
def test_array_from_ragged_list_raises(xp, obj):
    return xp.array(obj)


@pytest.mark.parametrize('obj', [[2 ** 64], [-2 ** 63 - 1], [1, None]],
                         ids=repr)
def test_array_from_python_ints_out_of_int64_range_raises(obj):
    # NumPy makes an object array here; cuarray has no object dtype.
    with pytest.raises((TypeError, OverflowError, ValueError)):
        cp.array(obj)


@pytest.mark.parametrize('obj,dtype', [
    ([1, 2, 3], numpy.float16),
    ([1.5, -2.5], numpy.int32),
    ([1.5, 2.5], numpy.complex64),
    ([0, 1, 2], numpy.bool_),
    ([300], numpy.uint8),
    ([-1], numpy.uint32),
    (3.7, numpy.int64),
    (True, numpy.float32),
    ([1, 2], 'f8'),
    ([1, 2], 'int16'),
    ([1, 2], float),
    ([1, 2], int),
    ([1, 2], complex),
    ([1, 2], bool),
    (numpy.arange(4, dtype=numpy.float64), numpy.float32),
    (numpy.arange(4, dtype=numpy.int64), numpy.uint8),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_array_with_dtype(xp, obj, dtype):
    return xp.array(obj, dtype=dtype)


@pytest.mark.parametrize('ndmin', [0, 1, 2, 3, 5])
@pytest.mark.parametrize('obj', [5, [1, 2], [[1, 2]]], ids=repr)
@testing.numpy_cuarray_equal()
def test_array_ndmin(xp, obj, ndmin):
    a = xp.array(obj, ndmin=ndmin)
    return a, a.shape


@testing.numpy_cuarray_equal()
def test_array_of_list_of_device_arrays(xp):
    a = xp.arange(3)
    b = xp.arange(0, 6, 2)
    return xp.array([a, b]), xp.array([xp.array(1.5), 2])


@testing.numpy_cuarray_equal()
def test_array_of_list_of_numpy_arrays(xp):
    return xp.array([numpy.arange(3), numpy.arange(3, 6)])


@testing.numpy_cuarray_equal()
def test_array_copy_false_for_list_raises(xp):
    return xp.array([1, 2], copy=False)


def test_array_copy_false_for_numpy_input_raises_value_error():
    with pytest.raises(ValueError):
        cp.array(numpy.arange(3), copy=False)


def test_array_of_device_array_copies():
    a = cp.arange(5)
    b = cp.array(a)
    assert b is not a
    assert b.data.ptr != a.data.ptr
    testing.assert_array_equal(a, b, strict=True)
    b[0] = 10
    assert int(a[0]) == 0


def test_array_of_device_array_copy_false_shares():
    a = cp.arange(5)
    b = cp.array(a, copy=False)
    assert b.data.ptr == a.data.ptr


def test_array_of_device_array_with_dtype_converts():
    a = cp.arange(5, dtype=cp.int32)
    b = cp.array(a, dtype=cp.float64)
    assert b.dtype == numpy.float64
    assert b.get().tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError):
        cp.array(a, dtype=cp.float64, copy=False)


def test_asarray_of_device_array_is_identity():
    a = cp.arange(5)
    assert cp.asarray(a) is a
    assert cp.asarray(a, dtype=a.dtype) is a
    b = cp.asarray(a, dtype=cp.float32)
    assert b is not a and b.dtype == numpy.float32
    v = a[::2]
    assert cp.asarray(v) is v


def test_asanyarray():
    x = numpy.arange(6).reshape(2, 3)
    a = cp.asanyarray(x)
    assert isinstance(a, cp.ndarray)
    numpy.testing.assert_array_equal(a.get(), x)
    assert cp.asanyarray(a) is a


@pytest.mark.parametrize('func', ['ascontiguousarray', 'asfortranarray'])
@pytest.mark.parametrize('layout', ['C', 'F', 'noncontig', 'negative2d',
                                    '1d', 'empty3d', '0d'])
@testing.numpy_cuarray_equal(strides_check=True)
def test_ascontiguous_and_asfortran(xp, func, layout):
    x = _layouts(numpy.float32)[layout]
    a = x if xp is numpy else xp.asarray(x)
    r = getattr(xp, func)(a)
    return r, r.flags.c_contiguous, r.flags.f_contiguous


def test_ascontiguousarray_of_contiguous_shares_memory():
    a = cp.arange(6).reshape(2, 3)
    assert cp.ascontiguousarray(a).data.ptr == a.data.ptr
    f = cp.asfortranarray(a)
    assert f.flags.f_contiguous and f.data.ptr != a.data.ptr
    assert cp.asfortranarray(f).data.ptr == f.data.ptr


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_ascontiguousarray_with_dtype(xp, dtype):
    a = testing.shaped_arange((3, 4), xp, numpy.float64).T
    return xp.ascontiguousarray(a, dtype=dtype)


# --------------------------------------------------------------------------
# asnumpy, get, set
# --------------------------------------------------------------------------

def test_asnumpy_basic_and_order():
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a = cp.asarray(x)
    y = cp.asnumpy(a)
    assert isinstance(y, numpy.ndarray)
    numpy.testing.assert_array_equal(y, x, strict=True)
    f = cp.asnumpy(a, order='F')
    assert f.flags.f_contiguous
    numpy.testing.assert_array_equal(f, x)
    c = cp.asnumpy(cp.asfortranarray(a), order='C')
    assert c.flags.c_contiguous
    numpy.testing.assert_array_equal(c, x)


def test_asnumpy_into_out():
    x = numpy.arange(20, dtype=numpy.int64).reshape(4, 5)
    a = cp.asarray(x)
    out = numpy.empty((4, 5), dtype=numpy.int64)
    r = cp.asnumpy(a, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out, x)


def test_asnumpy_of_numpy_array_returns_it():
    x = numpy.arange(3)
    assert cp.asnumpy(x) is x


def test_asnumpy_of_list_and_scalar():
    numpy.testing.assert_array_equal(cp.asnumpy([1, 2, 3]), [1, 2, 3])
    assert cp.asnumpy(5) == 5


def test_asnumpy_of_0d_and_view():
    a = cp.arange(10)
    z = cp.asnumpy(a[3])
    assert isinstance(z, numpy.ndarray) and z.shape == () and z == 3
    numpy.testing.assert_array_equal(cp.asnumpy(a[::-3]),
                                     numpy.arange(10)[::-3])


@pytest.mark.parametrize('order', ['C', 'F', 'A'])
def test_get_order(order):
    x = numpy.arange(12.0).reshape(3, 4)
    for src in (cp.asarray(x), cp.asfortranarray(cp.asarray(x))):
        y = src.get(order=order)
        numpy.testing.assert_array_equal(y, x)
        if order == 'C':
            assert y.flags.c_contiguous
        elif order == 'F':
            assert y.flags.f_contiguous
        else:
            assert y.flags.f_contiguous == src.flags.f_contiguous


def test_get_with_stream():
    s = cp.cuda.Stream()
    x = numpy.arange(1000, dtype=numpy.float64)
    with s:
        a = cp.asarray(x)
        b = cp.empty_like(a)
        b[...] = a[::-1]
    y = b.get(stream=s)
    numpy.testing.assert_array_equal(y, x[::-1])


def test_get_into_out_nonblocking():
    s = cp.cuda.Stream(non_blocking=True)
    x = numpy.arange(4096, dtype=numpy.float32).reshape(64, 64)
    with s:
        a = cp.asarray(x).T.copy()
    mem = cp.cuda.alloc_pinned_memory(x.nbytes)
    out = numpy.frombuffer(mem, numpy.float32, x.size).reshape(x.shape)
    r = a.get(out=out, stream=s, blocking=False)
    s.synchronize()
    assert r is out
    numpy.testing.assert_array_equal(out, x.T)
    plain = numpy.empty_like(x)
    a.get(out=plain, stream=s, blocking=False)
    s.synchronize()
    numpy.testing.assert_array_equal(plain, x.T)
    del out, mem


def test_get_into_noncontiguous_out():
    x = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
    a = cp.asarray(x)
    big = numpy.zeros((6, 4), dtype=numpy.int32)
    try:
        a.get(out=big[::2])
    except (RuntimeError, ValueError):
        return     # CuPy refuses non-contiguous out; acceptable
    numpy.testing.assert_array_equal(big[::2], x)
    assert (big[1::2] == 0).all()


def test_get_into_out_mismatch_raises():
    a = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    with pytest.raises(ValueError):
        a.get(out=numpy.empty((3, 2), dtype=numpy.float32))
    with pytest.raises(TypeError):
        a.get(out=numpy.empty((2, 3), dtype=numpy.float64))


def test_set_writes_device_array():
    a = cp.zeros((3, 4), dtype=cp.float32)
    x = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    a.set(x)
    numpy.testing.assert_array_equal(a.get(), x)
    a.set(numpy.asfortranarray(x * 2))
    numpy.testing.assert_array_equal(a.get(), x * 2)
    a.set((x * 3)[::1, ::1])
    numpy.testing.assert_array_equal(a.get(), x * 3)


def test_set_fortran_device_array_and_stream():
    s = cp.cuda.Stream()
    a = cp.zeros((3, 4), dtype=cp.int64, order='F')
    x = numpy.arange(12, dtype=numpy.int64).reshape(3, 4)
    a.set(x, stream=s)
    s.synchronize()
    assert a.flags.f_contiguous
    numpy.testing.assert_array_equal(a.get(), x)


def test_set_into_view():
    a = cp.zeros((4, 6), dtype=cp.float64)
    x = numpy.full((4, 3), 5.0)
    view = a[:, ::2]
    if view.flags.c_contiguous or view.flags.f_contiguous:
        pytest.fail('test setup: view should be non-contiguous')
    try:
        view.set(x)
    except (RuntimeError, ValueError, NotImplementedError):
        return     # refusing a non-contiguous destination is acceptable
    expected = numpy.zeros((4, 6))
    expected[:, ::2] = 5.0
    numpy.testing.assert_array_equal(a.get(), expected)


def test_set_mismatch_raises():
    a = cp.zeros((2, 3), dtype=cp.float32)
    with pytest.raises(ValueError):
        a.set(numpy.zeros((3, 2), dtype=numpy.float32))
    with pytest.raises(ValueError):
        a.set(numpy.zeros(6, dtype=numpy.float32))
    with pytest.raises(TypeError):
        a.set(numpy.zeros((2, 3), dtype=numpy.float64))
    numpy.testing.assert_array_equal(a.get(), numpy.zeros((2, 3)))


# --------------------------------------------------------------------------
# Byte order and unsupported dtypes
# --------------------------------------------------------------------------

@pytest.mark.parametrize('dt', ['>i4', '>f8', '>c8', '>u2', '>f2'])
def test_non_native_byte_order_input(dt):
    x = numpy.arange(5).astype(dt)
    a = cp.asarray(x)
    assert a.dtype.isnative
    assert a.dtype == numpy.dtype(dt).newbyteorder('=')
    numpy.testing.assert_array_equal(a.get(), numpy.arange(5))
    b = cp.array(x[::-1])
    numpy.testing.assert_array_equal(b.get(), numpy.arange(5)[::-1])


def test_non_native_byte_order_2d():
    x = numpy.arange(12, dtype='>i8').reshape(3, 4).T
    numpy.testing.assert_array_equal(cp.asarray(x).get(), x)


@pytest.mark.parametrize('x', [
    numpy.array([object(), 1], dtype=object),
    numpy.array(['abc', 'de'], dtype='U5'),
    numpy.array([b'ab'], dtype='S2'),
    numpy.array(['2020-01-01'], dtype='datetime64[D]'),
    numpy.array([1], dtype='timedelta64[s]'),
    numpy.zeros(2, dtype=[('a', 'i4'), ('b', 'f4')]),
    numpy.zeros(2, dtype=numpy.longdouble)
    if numpy.dtype(numpy.longdouble).itemsize > 8 else
    numpy.array([object()], dtype=object),
], ids=['object', 'unicode', 'bytes', 'datetime64', 'timedelta64',
        'structured', 'longdouble'])
def test_unsupported_dtypes_raise_type_error(x):
    with pytest.raises(TypeError):
        cp.asarray(x)
    with pytest.raises(TypeError):
        cp.array(x)


@pytest.mark.parametrize('dtype', [object, 'U5', 'datetime64[s]', 'V8'])
def test_creating_unsupported_dtype_raises_type_error(dtype):
    with pytest.raises(TypeError):
        cp.zeros(3, dtype=dtype)


def test_list_of_strings_raises_type_error():
    with pytest.raises(TypeError):
        cp.array(['a', 'b'])
