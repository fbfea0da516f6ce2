"""Tests of array creation: empty/zeros/ones/full (+ _like), arange, linspace, logspace, geomspace, eye, identity, copy."""

import numpy
import pytest

import cuarray as cp
from cuarray import testing

pytestmark = pytest.mark.gpu

SHAPES = [3, 0, (), (0,), (2, 3), (2, 0, 3), [2, 3], (1, 1, 1),
          numpy.int64(4), (numpy.int32(2), 3)]
SHAPE_IDS = [repr(s) for s in SHAPES]


# --------------------------------------------------------------------------
# empty / zeros / ones / full
# --------------------------------------------------------------------------

@pytest.mark.parametrize('shape', SHAPES, ids=SHAPE_IDS)
@testing.for_orders('CF')
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_empty_layout(xp, shape, order, dtype):
    a = xp.empty(shape, dtype=dtype, order=order)
    return (a.shape, a.dtype, a.strides if a.size else None,
            a.flags.c_contiguous, a.flags.f_contiguous)


@testing.numpy_cuarray_equal()
def test_empty_default_dtype(xp):
    return xp.empty(3).dtype, xp.empty((2, 2)).shape


@pytest.mark.parametrize('func', ['zeros', 'ones'])
@pytest.mark.parametrize('shape', SHAPES, ids=SHAPE_IDS)
@testing.for_orders('CF')
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal(strides_check=True)
def test_zeros_ones(xp, func, shape, order, dtype):
    return getattr(xp, func)(shape, dtype=dtype, order=order)


@pytest.mark.parametrize('func', ['zeros', 'ones', 'empty'])
@testing.numpy_cuarray_equal()
def test_default_dtype_is_float64(xp, func):
    a = getattr(xp, func)((2, 3))
    return a.dtype, a.shape


@pytest.mark.parametrize('dtype', [None, float, int, bool, complex, 'f4',
                                   'i2', 'u8', 'c8', 'e', numpy.dtype('i1')],
                         ids=repr)
@testing.numpy_cuarray_equal()
def test_zeros_dtype_spellings(xp, dtype):
    return xp.zeros(4, dtype=dtype)


@pytest.mark.parametrize('value', [0, 1, -2, 7, 2.5, -0.0, True, False,
                                   1 + 2j, numpy.nan, numpy.inf, -numpy.inf,
                                   numpy.float32(1.5), numpy.int8(-5),
                                   numpy.uint64(2 ** 64 - 1),
                                   numpy.complex64(3 - 4j), numpy.bool_(True)],
                         ids=repr)
@testing.numpy_cuarray_equal()
def test_full_infers_dtype(xp, value):
    return xp.full((2, 3), value)


@pytest.mark.parametrize('value', [0, 3, True, 2.5],
                         ids=repr)
@pytest.mark.parametrize('shape', [5, (2, 3), (), (0, 4)], ids=repr)
@testing.for_orders('CF')
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal(strides_check=True)
def test_full_with_dtype(xp, value, shape, order, dtype):
    return xp.full(shape, value, dtype=dtype, order=order)


@pytest.mark.parametrize('value', [numpy.nan, numpy.inf, -numpy.inf, 1e30,
                                   -1e-30], ids=repr)
@testing.for_float_dtypes()
@testing.numpy_cuarray_equal()
def test_full_special_floats(xp, value, dtype):
    return xp.full((3,), value, dtype=dtype)


@pytest.mark.parametrize('value', [1 + 2j, complex(numpy.nan, 1),
                                   complex(0, numpy.inf), -1j], ids=repr)
@testing.for_complex_dtypes()
@testing.numpy_cuarray_equal()
def test_full_complex(xp, value, dtype):
    return xp.full((2, 2), value, dtype=dtype)


@pytest.mark.parametrize('value,dtype', [
    (300, numpy.uint8), (-1, numpy.uint16), (2 ** 63, numpy.int64),
    (128, numpy.int8),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_full_python_int_out_of_range_raises(xp, value, dtype):
    return xp.full(3, value, dtype=dtype)


@testing.numpy_cuarray_equal()
def test_full_with_array_fill_value(xp):
    return (xp.full(3, xp.array(2.5, dtype=numpy.float32)),
            xp.full((2, 3), xp.arange(3)),
            xp.full((2, 3), xp.arange(3), dtype=numpy.float64))


@testing.numpy_cuarray_equal()
def test_full_with_non_broadcastable_array_raises(xp):
    return xp.full((2, 3), xp.arange(2))


@pytest.mark.parametrize('shape', [-1, (2, -3)], ids=repr)
@pytest.mark.parametrize('func', ['empty', 'zeros', 'ones'])
@testing.numpy_cuarray_equal()
def test_negative_dimensions_raise(xp, func, shape):
    return getattr(xp, func)(shape)


@pytest.mark.parametrize('shape', [2.5, (2, 1.5), 'abc', None], ids=repr)
@testing.numpy_cuarray_equal()
def test_bad_shape_type_raises(xp, shape):
    return xp.zeros(shape)


@testing.numpy_cuarray_equal()
def test_bad_order_raises(xp):
    return xp.zeros(3, order='X')


# --------------------------------------------------------------------------
# _like
# --------------------------------------------------------------------------

def _source(xp, kind, dtype=numpy.float32):
    a = testing.shaped_arange((3, 4, 2), xp, dtype)
    if kind == 'F':
        return xp.asfortranarray(a)
    if kind == 'T':
        return a.transpose(2, 0, 1)
    if kind == 'view':
        return a[::2, ::-1]
    if kind == '0d':
        return a[1, 2, 1, ...]
    if kind == 'empty':
        return a[:0]
    return a


LIKE_SOURCES = ['C', 'F', 'T', 'view', '0d', 'empty']


@pytest.mark.parametrize('src', LIKE_SOURCES)
@pytest.mark.parametrize('func', ['zeros_like', 'ones_like'])
@testing.for_orders(['C', 'F', 'A', 'K', None])
@testing.numpy_cuarray_equal(strides_check=True)
def test_zeros_ones_like_layout(xp, src, func, order):
    a = _source(xp, src)
    kw = {} if order is None else {'order': order}
    r = getattr(xp, func)(a, **kw)
    return r, r.flags.c_contiguous, r.flags.f_contiguous, r.flags.owndata


@pytest.mark.parametrize('src', LIKE_SOURCES)
@testing.for_orders(['C', 'F', 'A', 'K'])
@testing.numpy_cuarray_equal()
def test_empty_like_layout(xp, src, order):
    a = _source(xp, src)
    r = xp.empty_like(a, order=order)
    return (r.shape, r.dtype, r.strides if r.size else None,
            r.flags.c_contiguous, r.flags.f_contiguous)


@testing.for_all_dtypes(name='src_dtype')
@testing.for_all_dtypes(name='dtype', no_float16=True)
@testing.numpy_cuarray_equal()
def test_like_with_dtype(xp, src_dtype, dtype):
    a = testing.shaped_arange((2, 3), xp, src_dtype)
    return (xp.zeros_like(a, dtype=dtype), xp.ones_like(a, dtype=dtype),
            xp.full_like(a, 1, dtype=dtype), xp.empty_like(a, dtype).dtype)


@pytest.mark.parametrize('shape', [(5,), (2, 3, 2), (), 4, (0, 2)],
                         ids=repr)
@pytest.mark.parametrize('src', ['C', 'F', 'T'])
@testing.numpy_cuarray_equal(strides_check=True)
def test_like_with_shape(xp, shape, src):
    a = _source(xp, src)
    return (xp.zeros_like(a, shape=shape), xp.ones_like(a, shape=shape),
            xp.full_like(a, 7, shape=shape),
            xp.empty_like(a, shape=shape).shape)


@pytest.mark.parametrize('value', [3.7, -1, True, numpy.nan, 1 + 1j,
                                   numpy.float32(2.5)], ids=repr)
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_full_like_casts_value(xp, value, dtype):
    if dtype.kind in 'iub' and isinstance(value, float) \
            and numpy.isnan(value):
        pytest.skip('NaN -> integer is implementation-defined in full_like')
    if dtype.kind != 'c' and isinstance(value, complex):
        pytest.skip('complex -> real emits ComplexWarning; not compared')
    if dtype.kind == 'u' and value == -1:
        return xp.full_like(xp.zeros(3, dtype), value)   # NumPy 2 raises
    a = testing.shaped_arange((2, 3), xp, dtype)
    return xp.full_like(a, value), xp.full_like(a.T, value, order='K')


# --------------------------------------------------------------------------
# arange
# --------------------------------------------------------------------------

@pytest.mark.parametrize('args', [
    (10,), (0,), (-3,), (1,), (2, 10), (2, 10, 3), (10, 2, -3), (10, 2),
    (5, 5), (-5, 5, 2), (0, -10, -1), (3, 4, 10),
    (numpy.int64(7),), (numpy.int8(2), 9), (True,),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_arange_int(xp, args):
    return xp.arange(*args)


@pytest.mark.parametrize('args', [
    (0.0, 1.0, 0.1), (1.0, -1.0, -0.3), (2.5,), (0, 5, 0.5), (-1, 1, 0.25),
    (0.1, 0.2, 0.05), (1e-3, 1e-2, 1e-3), (0, 1, 1.0 / 3), (5.5, 2.5),
    (numpy.float32(0.5), 3),
], ids=repr)
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_arange_float(xp, args):
    return xp.arange(*args)


@pytest.mark.parametrize('args', [(0, 5), (1, 10, 2), (-3, 3), (5, 0, -1)],
                         ids=repr)
@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_arange_dtype(xp, args, dtype):
    if dtype.kind == 'u' and min(args) < 0:
        return xp.arange(0, 3, dtype=dtype)
    return xp.arange(*args, dtype=dtype)


@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_arange_float16_and_float32_steps(xp):
    return (xp.arange(0, 2, 0.25, dtype=numpy.float16),
            xp.arange(0, 1, 0.1, dtype=numpy.float32),
            xp.arange(1, 2, numpy.float32(0.25)))


@pytest.mark.parametrize('args', [(0, 10, 0), (1, 2, 0.0), (0, 0, 0)],
                         ids=repr)
@testing.numpy_cuarray_equal()
def test_arange_zero_step_raises(xp, args):
    return xp.arange(*args)


@pytest.mark.parametrize('n', [0, 1, 2, 3, 10])
@testing.numpy_cuarray_equal()
def test_arange_bool(xp, n):
    return xp.arange(n, dtype=numpy.bool_)


@testing.numpy_cuarray_equal()
def test_arange_complex(xp):
    return (xp.arange(5, dtype=numpy.complex64),
            xp.arange(0, 3 + 3j, 1 + 1j), xp.arange(2, dtype=complex))


@testing.numpy_cuarray_equal()
def test_arange_keyword_forms(xp):
    return (xp.arange(start=2, stop=7), xp.arange(stop=4),
            xp.arange(1, 7, step=2))


@testing.numpy_cuarray_equal()
def test_arange_infinite_or_nan_raises(xp):
    return xp.arange(0, numpy.inf)


# --------------------------------------------------------------------------
# linspace / logspace / geomspace
# --------------------------------------------------------------------------

@pytest.mark.parametrize('num', [0, 1, 2, 5, 50])
@pytest.mark.parametrize('endpoint', [True, False])
@pytest.mark.parametrize('start,stop', [(0, 1), (10, 0), (-2.5, 7.5),
                                        (3, 3), (1e-3, 1e3)], ids=repr)
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-15)
def test_linspace(xp, num, endpoint, start, stop):
    return xp.linspace(start, stop, num, endpoint=endpoint)


@pytest.mark.parametrize('num', [0, 1, 2, 7])
@pytest.mark.parametrize('endpoint', [True, False])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_linspace_retstep(xp, num, endpoint):
    return xp.linspace(-1, 2, num, endpoint=endpoint, retstep=True)


@pytest.mark.parametrize('start,stop', [(0, 10), (0, -10), (-3, 4),
                                        (10, 0)], ids=repr)
@testing.for_dtypes([numpy.int8, numpy.int32, numpy.int64, numpy.uint8,
                     numpy.float16, numpy.float32, numpy.complex64])
@testing.numpy_cuarray_allclose(rtol=1e-3)
def test_linspace_dtype(xp, start, stop, dtype):
    if dtype.kind == 'u' and min(start, stop) < 0:
        start, stop = abs(start), abs(stop)
    return xp.linspace(start, stop, 7, dtype=dtype)


@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_linspace_complex(xp):
    return (xp.linspace(0, 1 + 2j, 5), xp.linspace(1j, -1j, 4),
            xp.linspace(-1 - 1j, 3 + 3j, 9, endpoint=False))


@testing.numpy_cuarray_equal()
def test_linspace_negative_num_raises(xp):
    return xp.linspace(0, 1, -1)


@pytest.mark.parametrize('base', [10.0, 2, numpy.e])
@pytest.mark.parametrize('num', [0, 1, 5, 20])
@pytest.mark.parametrize('endpoint', [True, False])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_logspace(xp, base, num, endpoint):
    return xp.logspace(-2, 3, num, endpoint=endpoint, base=base)


@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_logspace_dtype(xp):
    # (integer dtypes truncate pow() results, which may differ by an ulp
    # between CPU and GPU: not compared)
    return (xp.logspace(0, 2, 5, dtype=numpy.float32),
            xp.logspace(2, 0, 3, dtype=numpy.complex64))


@pytest.mark.parametrize('start,stop', [
    (1, 1000), (1000, 1), (-1000, -1), (0.5, 8), (1j, 1000j),
    (1, 1j), (-1 + 0j, 1 + 0j), (2, 2),
], ids=repr)
@pytest.mark.parametrize('num', [1, 4, 10])
@pytest.mark.parametrize('endpoint', [True, False])
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-12)
def test_geomspace(xp, start, stop, num, endpoint):
    return xp.geomspace(start, stop, num, endpoint=endpoint)


@testing.numpy_cuarray_allclose(rtol=1e-5)
def test_geomspace_dtype(xp):
    return (xp.geomspace(1, 256, 9, dtype=numpy.float32),
            xp.geomspace(1, 256, 9, dtype=numpy.complex128))


@pytest.mark.parametrize('start,stop', [(0, 10), (5, 0)], ids=repr)
@testing.numpy_cuarray_equal()
def test_geomspace_with_zero_raises(xp, start, stop):
    return xp.geomspace(start, stop, 4)


_NAN, _INF = float('nan'), float('inf')


# Issue 14: sign(NaN) is NaN in NumPy, so a NaN start makes every element NaN (the ends included); NaN or
# infinite ends elsewhere give NumPy's NaN/inf placement.
@pytest.mark.parametrize('start,stop', [
    (_NAN, 1), (1, _NAN), (_NAN, _NAN), (_NAN, -1), (-1, _NAN), (_NAN, _INF), (_INF, _NAN),
    (_INF, 1), (1, _INF), (-_INF, -1), (-1, -_INF), (_INF, _INF), (-_INF, -_INF), (_INF, -_INF),
    (1, -_INF), (-1, _INF), (2.5, _INF), (-_INF, 3.0),
], ids=repr)
@pytest.mark.parametrize('num', [1, 2, 5])
@pytest.mark.parametrize('endpoint', [True, False])
@pytest.mark.parametrize('dtype', [None, numpy.float32])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_geomspace_nan_and_inf_ends(xp, start, stop, num, endpoint, dtype):
    return xp.geomspace(start, stop, num, endpoint=endpoint, dtype=dtype)


@pytest.mark.parametrize('start,stop', [(_NAN, 1), (1, _NAN), (_NAN, _NAN), (complex(_NAN, 1), 1)], ids=repr)
@pytest.mark.parametrize('num', [1, 2, 5])
@pytest.mark.parametrize('endpoint', [True, False])
@testing.numpy_cuarray_allclose(rtol=1e-12)
def test_geomspace_complex_nan_ends(xp, start, stop, num, endpoint):
    return xp.geomspace(start, stop, num, endpoint=endpoint, dtype=numpy.complex128)


# --------------------------------------------------------------------------
# eye / identity / copy
# --------------------------------------------------------------------------

@pytest.mark.parametrize('N,M', [(0, None), (1, None), (3, None), (3, 5),
                                 (5, 3), (4, 0)], ids=repr)
@pytest.mark.parametrize('k', [0, 1, -1, 2, -3, 10, -10])
@testing.numpy_cuarray_equal()
def test_eye(xp, N, M, k):
    return xp.eye(N, M, k)


@testing.for_all_dtypes()
@testing.for_orders('CF')
@testing.numpy_cuarray_equal(strides_check=True)
def test_eye_dtype_and_order(xp, dtype, order):
    return xp.eye(4, 3, k=-1, dtype=dtype, order=order)


@testing.numpy_cuarray_equal()
def test_eye_keyword_forms(xp):
    return xp.eye(3, k=1), xp.eye(N=2, M=4), xp.eye(3, dtype=int)


@pytest.mark.parametrize('n', [0, 1, 4])
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_identity(xp, n, dtype):
    return xp.identity(n, dtype=dtype)


@testing.numpy_cuarray_equal()
def test_identity_default_dtype(xp):
    return xp.identity(3)


@testing.numpy_cuarray_equal()
def test_eye_negative_raises(xp):
    return xp.eye(-1)


# eye's k may be any integer: one at or beyond the matrix's edge (int64 or not) gives no diagonal.
@pytest.mark.parametrize('k', [3, 4, -3, -4, 2 ** 40, 2 ** 64, -2 ** 70, True, numpy.int8(1)], ids=repr)
@testing.numpy_cuarray_equal()
def test_eye_any_integer_k(xp, k):
    return xp.eye(3, 4, k=k)


# order=None is 'C' for the creation functions and 'K' for the _like ones, as in NumPy.
@testing.numpy_cuarray_equal(strides_check=True)
def test_order_none(xp):
    f = xp.asfortranarray(testing.shaped_arange((2, 3), xp, numpy.float32))
    return (xp.zeros((2, 3), order=None), xp.ones((2, 3), order=None), xp.empty((2, 3), order=None).strides,
            xp.full((2, 3), 1.5, order=None), xp.eye(3, order=None), xp.zeros_like(f, order=None),
            xp.ones_like(f, order=None), xp.empty_like(f, order=None).strides, xp.full_like(f, 2, order=None),
            xp.array(f, order=None), xp.asarray(f, order=None), xp.copy(f, order=None))


# full() without dtype= takes numpy.asarray(fill_value).dtype: a Python int beyond int64 is uint64 (up to
# 2**64 - 1); None is NaN in a float or complex array and False in a bool one.
@pytest.mark.parametrize('value,dtype', [
    (2 ** 63, None), (2 ** 64 - 1, None), (-2 ** 63, None), (2 ** 63 - 1, None),
    (None, float), (None, numpy.float32), (None, numpy.float16), (None, complex), (None, numpy.complex64),
    (None, bool), ('1.5', float), ('3', numpy.int16), ([None, 1.0], float)], ids=repr)
@testing.numpy_cuarray_equal()
def test_full_fill_values_as_numpy(xp, value, dtype):
    return xp.full((2, 2), value, dtype=dtype)


@pytest.mark.parametrize('value', [None, 'x', 300, 2 ** 64, -1], ids=repr)
@pytest.mark.parametrize('dtype', [numpy.uint8, numpy.float32, bool], ids=str)
@testing.numpy_cuarray_equal()
def test_full_like_fill_values_as_numpy(xp, value, dtype):
    return xp.full_like(testing.shaped_arange((2, 3), xp, dtype), value)


@pytest.mark.parametrize('src', LIKE_SOURCES)
@testing.for_orders(['C', 'F', 'A', 'K'])
@testing.numpy_cuarray_equal(strides_check=True)
def test_copy_function(xp, src, order):
    a = _source(xp, src, numpy.int16)
    c = xp.copy(a, order=order)
    return c, c.flags.c_contiguous, c.flags.f_contiguous, c.flags.owndata


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_copy_is_independent_of_source(xp, dtype):
    a = testing.shaped_arange((3, 3), xp, dtype)
    c = xp.copy(a)
    a.fill(0)
    return c, a


@pytest.mark.parametrize('make', [
    lambda: cp.empty(3), lambda: cp.zeros((2, 2)), lambda: cp.ones(4, 'i1'),
    lambda: cp.full(3, 1.5), lambda: cp.empty_like(cp.zeros(2)),
    lambda: cp.zeros_like(cp.zeros(2)), lambda: cp.ones_like(cp.zeros(2)),
    lambda: cp.full_like(cp.zeros(2), 3), lambda: cp.arange(5),
    lambda: cp.linspace(0, 1, 5), lambda: cp.logspace(0, 1, 3),
    lambda: cp.geomspace(1, 8, 4), lambda: cp.eye(3), lambda: cp.identity(2),
    lambda: cp.copy(cp.zeros(3)),
], ids=['empty', 'zeros', 'ones', 'full', 'empty_like', 'zeros_like',
        'ones_like', 'full_like', 'arange', 'linspace', 'logspace',
        'geomspace', 'eye', 'identity', 'copy'])
def test_creation_returns_device_arrays(make):
    a = make()
    assert isinstance(a, cp.ndarray)
    assert a.device.id == 0
    assert a.flags.owndata or a.base is not None


def test_creation_on_a_stream():
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        a = cp.full((1000,), 7, dtype=cp.int32)
        b = cp.arange(1000, dtype=cp.int32)
        c = cp.linspace(0, 1, 1000)
    s.synchronize()
    assert int(a.get().sum()) == 7000
    assert int(b.get()[-1]) == 999
    assert float(c.get()[-1]) == 1.0


@testing.numpy_cuarray_equal()
def test_host_readers_match_numpy(xp, tmp_path):
    raw = numpy.arange(10, dtype=numpy.int16).tobytes()
    path = tmp_path / 'data.txt'
    path.write_text('1 2 3\n4 5 6\n')
    return (xp.frombuffer(raw, dtype=numpy.int16, count=5, offset=2),
            xp.fromiter(range(5), dtype=numpy.float32),
            xp.fromstring('1 2 3', dtype=int, sep=' '),
            xp.loadtxt(str(path)),
            xp.genfromtxt(str(path)))


# NumPy's underflow and divide-by-inf rule: (stop - start) / step == 0 with stop != start holds the start alone
# when the signs agree (fuzz 0:6780:creation, arange(2.0, 5.5, inf) was empty).
@pytest.mark.parametrize('args', [
    (2.0, 5.5, numpy.inf), (2.0, 5.5, -numpy.inf), (5.5, 2.0, -numpy.inf), (5.5, 2.0, numpy.inf),
    (2.0, 2.0, numpy.inf), (0, 1e-300, 1e300), (0, -1e-300, 1e300), (0, 5, numpy.float32(numpy.inf)),
    (-0.0, 0.0, numpy.inf), (2.0, 5.5, numpy.nan), (0, numpy.inf, 1), (1, 2, 1e-320),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_arange_infinite_and_tiny_steps(xp, args):
    return xp.arange(*args)


# NumPy's full and full_like copy the fill value into the new array by copyto(casting='unsafe'): into an empty
# result no element is converted, so None or a str passes where only its shape must broadcast; a Python int
# out of range is still its OverflowError.
@pytest.mark.parametrize('value', [None, 'x', [None], [None, None], 2 ** 70, 'abc', [[1], [2]]], ids=repr)
@pytest.mark.parametrize('shape', [(1, 4, 0), (0,), (0, 3)], ids=str)
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.int8, numpy.float64], ids=str)
@testing.numpy_cuarray_equal(accept_error=True)
def test_full_of_an_empty_shape_converts_no_element(xp, value, shape, dtype):
    return xp.full(shape, value, dtype=dtype), xp.full_like(xp.zeros(shape, numpy.int16), value, dtype=dtype)
