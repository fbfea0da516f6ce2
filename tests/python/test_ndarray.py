"""Tests of cuarray.ndarray attributes, conversions, copies, views, fill, astype, pickling and basic indexing."""

import operator
import pickle
import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import testing
from _fresh import run_fresh

pytestmark = pytest.mark.gpu

SHAPES = [(), (0,), (1,), (5,), (2, 3), (2, 0, 3), (3, 1, 4), (2, 3, 4, 5)]


def _flags(a):
    return (a.flags.c_contiguous, a.flags.f_contiguous,
            a.flags['C_CONTIGUOUS'], a.flags['F_CONTIGUOUS'],
            a.flags.owndata, a.flags['OWNDATA'])


# --------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------

@pytest.mark.parametrize('shape', SHAPES, ids=str)
@testing.for_orders('CF')
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_attributes_match_numpy(xp, shape, order, dtype):
    a = xp.empty(shape, dtype=dtype, order=order)
    strides = a.strides if a.size else None   # NumPy versions differ here
    return (a.shape, strides, a.ndim, a.size, a.itemsize, a.nbytes, a.dtype,
            _flags(a))


@pytest.mark.parametrize('shape', SHAPES, ids=str)
def test_attribute_types(shape):
    a = cp.zeros(shape, dtype=cp.float32)
    assert type(a.shape) is tuple and all(type(n) is int for n in a.shape)
    assert type(a.strides) is tuple
    assert all(type(n) is int for n in a.strides)
    assert type(a.ndim) is int and type(a.size) is int
    assert type(a.nbytes) is int and type(a.itemsize) is int
    assert type(a.dtype) is type(numpy.dtype('f4'))
    assert a.dtype == numpy.float32


@pytest.mark.parametrize('index', [
    numpy.s_[1:], numpy.s_[::2], numpy.s_[:, 1], numpy.s_[::-1],
    numpy.s_[1, 1:3], numpy.s_[..., None],
], ids=str)
@testing.numpy_cuarray_equal()
def test_view_attributes_match_numpy(xp, index):
    a = testing.shaped_arange((4, 5), xp, numpy.float64)
    v = a[index]
    return v, v.shape, v.strides, _flags(v), v.base is a


def test_view_base_is_original_array():
    a = cp.arange(12).reshape(3, 4)
    base = a.base
    v = a[1:]
    owner = base if base is not None else a
    assert v.base is owner
    assert v[1:].base is owner          # views of views collapse the base
    assert a.T.base is owner
    assert cp.zeros(3).base is None


@testing.numpy_cuarray_equal()
def test_transpose_attribute(xp):
    a = testing.shaped_arange((2, 3, 4), xp, numpy.int32)
    return a.T, a.T.shape, a.T.strides, a.T.flags.f_contiguous


@testing.numpy_cuarray_equal()
def test_transpose_of_1d_and_0d(xp):
    return xp.arange(3).T, xp.array(5).T


def test_data_ptr_and_views():
    a = cp.arange(10, dtype=cp.float32)
    assert isinstance(a.data.ptr, int) and a.data.ptr != 0
    assert a[3:].data.ptr == a.data.ptr + 3 * 4
    assert a[::-1].data.ptr == a.data.ptr + 9 * 4
    b = cp.arange(12, dtype=cp.int64).reshape(3, 4)
    assert b[1, 2:].data.ptr == b.data.ptr + (4 + 2) * 8


def test_device_attribute():
    a = cp.ones(3)
    assert a.device.id == 0
    assert a[1:].device.id == 0


def test_ndarray_constructor():
    a = cp.ndarray((2, 3), dtype=cp.float32)
    assert a.shape == (2, 3) and a.dtype == numpy.float32
    assert a.flags.c_contiguous
    f = cp.ndarray((2, 3), dtype=cp.float32, order='F')
    assert f.flags.f_contiguous and f.strides == (4, 8)
    assert isinstance(a, cp.ndarray)


# --------------------------------------------------------------------------
# len, iteration, repr/str
# --------------------------------------------------------------------------

@pytest.mark.parametrize('shape', SHAPES, ids=str)
@testing.numpy_cuarray_equal()
def test_len(xp, shape):
    return len(xp.zeros(shape))


def test_len_of_0d_message():
    with pytest.raises(TypeError, match='len\\(\\) of unsized object'):
        len(cp.array(1))


@pytest.mark.parametrize('shape', [(), (0,), (3,), (2, 3), (0, 2)], ids=str)
@testing.numpy_cuarray_equal()
def test_iter_over_first_axis(xp, shape):
    a = testing.shaped_arange(shape, xp, numpy.int32)
    return [x for x in a]


@pytest.mark.parametrize('value', [
    numpy.arange(3),
    numpy.arange(6, dtype=numpy.float32).reshape(2, 3) / 3,
    numpy.array(5),
    numpy.array(2.5),
    numpy.array([], dtype=numpy.float64),
    numpy.zeros((0, 3), dtype=numpy.int8),
    numpy.array([True, False]),
    numpy.array([1 + 2j, numpy.nan, -numpy.inf], dtype=numpy.complex64),
    numpy.array([numpy.nan, numpy.inf, -0.0, 1e-30, 1e30]),
    numpy.array([1.5, 2.25], dtype=numpy.float16),
    numpy.arange(-5, 5, dtype=numpy.int8),
    numpy.arange(4, dtype=numpy.uint64).reshape(2, 2),
    numpy.arange(2000),                          # summarised with '...'
    numpy.arange(24).reshape(2, 3, 4),
], ids=lambda v: '{}-{}'.format(v.dtype, v.shape))
@testing.numpy_cuarray_equal()
def test_repr_and_str_match_numpy(xp, value):
    a = xp.asarray(value)
    return repr(a), str(a)


def test_repr_of_arange():
    assert repr(cp.arange(3)) == 'array([0, 1, 2])'
    assert str(cp.arange(3)) == '[0 1 2]'


def test_repr_of_view_and_fortran():
    x = numpy.arange(12.0).reshape(3, 4)
    assert repr(cp.asarray(x)[::2, 1::2]) == repr(x[::2, 1::2])
    assert repr(cp.asarray(x, order='F')) == repr(x)


# --------------------------------------------------------------------------
# item, tolist and scalar conversions
# --------------------------------------------------------------------------

@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_item_of_size_one(xp, dtype):
    return (testing.shaped_arange((), xp, dtype).item(),
            testing.shaped_arange((1, 1), xp, dtype).item())


@testing.numpy_cuarray_equal()
def test_item_with_index(xp):
    a = testing.shaped_arange((3, 4), xp, numpy.int64)
    return a.item(5), a.item(1, 2), a.item(-1)


@pytest.mark.parametrize('shape', [(2,), (0,), (2, 2)], ids=str)
@testing.numpy_cuarray_equal()
def test_item_of_larger_array_raises(xp, shape):
    return xp.zeros(shape).item()


@pytest.mark.parametrize('shape', [(), (0,), (3,), (2, 3), (2, 0, 2)],
                         ids=str)
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_tolist(xp, shape, dtype):
    return testing.shaped_arange(shape, xp, dtype).tolist()


@testing.numpy_cuarray_equal()
def test_tolist_of_view(xp):
    return testing.shaped_arange((4, 5), xp, numpy.float32)[::-2, 1::2]\
        .tolist()


CONVERSIONS = [bool, int, float, complex, operator.index]


@pytest.mark.parametrize('func', CONVERSIONS, ids=lambda f: f.__name__)
@testing.for_all_dtypes(no_complex=True)
@testing.numpy_cuarray_equal()
def test_scalar_conversion_of_0d(xp, func, dtype):
    # operator.index of a non-integer array raises TypeError in NumPy
    return func(testing.shaped_arange((), xp, dtype))


@pytest.mark.parametrize('func', [bool, complex], ids=lambda f: f.__name__)
@testing.for_complex_dtypes()
@testing.numpy_cuarray_equal()
def test_scalar_conversion_of_complex_0d(xp, func, dtype):
    # (int/float of complex changed between NumPy 2.x releases; not tested)
    return func(testing.shaped_arange((), xp, dtype))


@pytest.mark.parametrize('shape', [(1,), (1, 1)], ids=str)
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_bool_and_index_of_size_one_nd(xp, shape, dtype):
    # bool() of a size-1 array works; operator.index() needs 0-d.
    # (int/float of a size-1 n-d array changed in NumPy 2.x; not tested.)
    a = testing.shaped_arange(shape, xp, dtype)
    try:
        idx = operator.index(a)
    except TypeError:
        idx = 'TypeError'
    return bool(a), idx


@pytest.mark.parametrize('func', CONVERSIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize('shape', [(2,), (2, 3)], ids=str)
@testing.numpy_cuarray_equal()
def test_scalar_conversion_of_larger_array_raises(xp, func, shape):
    return func(xp.ones(shape, dtype=numpy.int32))


@pytest.mark.parametrize('func', [int, float, complex, operator.index],
                         ids=lambda f: f.__name__)
@testing.numpy_cuarray_equal()
def test_scalar_conversion_of_empty_array_raises(xp, func):
    return func(xp.ones((0,), dtype=numpy.int32))


@pytest.mark.parametrize('value', [0, 0.0, -0.0, numpy.nan, 3])
@testing.numpy_cuarray_equal()
def test_bool_of_0d(xp, value):
    return bool(xp.array(value))


# --------------------------------------------------------------------------
# copy, view, fill, astype
# --------------------------------------------------------------------------

@testing.for_orders('CFAK')
@pytest.mark.parametrize('src', ['C', 'F', 'view', 'T'])
@testing.numpy_cuarray_equal(strides_check=True)
def test_copy_orders(xp, order, src):
    a = testing.shaped_arange((3, 4, 2), xp, numpy.float32,
                              order='F' if src == 'F' else 'C')
    if src == 'view':
        a = a[::2, ::-1]
    elif src == 'T':
        a = a.transpose(1, 0, 2)
    b = a.copy(order=order)
    return b, b.flags.c_contiguous, b.flags.f_contiguous, b.flags.owndata


def test_copy_is_independent():
    a = cp.arange(5)
    b = a.copy()
    assert b.data.ptr != a.data.ptr
    b[0] = 100
    assert a.get()[0] == 0 and b.get()[0] == 100


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_copy_every_dtype(xp, dtype):
    a = testing.shaped_arange((3, 5), xp, dtype)
    return a.copy(), a[:, ::2].copy(), xp.copy(a.T)


@pytest.mark.parametrize('src,dst', [
    (numpy.float32, numpy.int32), (numpy.int32, numpy.uint32),
    (numpy.float64, numpy.int64), (numpy.complex64, numpy.float64),
    (numpy.int16, numpy.float16), (numpy.uint8, numpy.bool_),
    (numpy.int32, numpy.int16), (numpy.int32, numpy.int8),
    (numpy.int8, numpy.int32), (numpy.int16, numpy.int64),
    (numpy.float32, numpy.complex128), (numpy.complex128, numpy.float32),
    (numpy.float64, numpy.uint8),
], ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize('shape', [(4, 6), (2, 3, 8), (8,), (0, 4)], ids=str)
@testing.numpy_cuarray_equal(strides_check=True)
def test_view_dtype(xp, src, dst, shape):
    a = testing.shaped_arange(shape, xp, src)
    v = a.view(dst)
    return v, v.base is a or v.base is a.base


@pytest.mark.parametrize('dst', [numpy.int16, numpy.int32, numpy.int64],
                         ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize('case', ['noncontig_last', 'odd_last', '0d',
                                  'transposed', 'fortran'])
@testing.numpy_cuarray_equal()
def test_view_dtype_errors_like_numpy(xp, dst, case):
    if case == 'noncontig_last':
        a = testing.shaped_arange((4, 6), xp, numpy.int32)[:, ::2]
    elif case == 'odd_last':
        a = testing.shaped_arange((4, 3), xp, numpy.int32)
    elif case == '0d':
        a = testing.shaped_arange((), xp, numpy.int32)
    elif case == 'transposed':
        a = testing.shaped_arange((4, 6), xp, numpy.int32).T
    else:
        a = testing.shaped_arange((4, 6), xp, numpy.int32, order='F')
    return a.view(dst)


@testing.numpy_cuarray_equal()
def test_view_without_dtype_shares_memory(xp):
    a = testing.shaped_arange((3, 4), xp, numpy.int32)
    v = a.view()
    v[0, 0] = -1
    return a, v.base is a


@pytest.mark.parametrize('value', [0, 1, -1, 300, True, False, 2.5, -2.5,
                                   1e40, numpy.nan, numpy.inf, 1 + 2j,
                                   numpy.float32(3.5), numpy.int8(-3)],
                         ids=repr)
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_fill(xp, dtype, value):
    # NumPy 2: Python ints out of range -> OverflowError, NaN -> int
    # ValueError, inf -> int OverflowError, complex -> real TypeError,
    # Python floats into ints truncate; NumPy scalars cast like astype.
    a = xp.zeros((3, 4), dtype=dtype)
    a.fill(value)
    return a


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_fill_view_and_empty(xp, dtype):
    a = xp.zeros((4, 5), dtype=dtype)
    a[1:3, ::2].fill(1)
    e = xp.zeros((0, 3), dtype=dtype)
    e.fill(1)
    z = xp.zeros((), dtype=dtype)
    z.fill(1)
    return a, e, z


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_fill_contiguous_at_every_alignment(xp, dtype):
    # Contiguous fills store 16-byte vectors with the items before the first 16-byte boundary and after the last
    # one stored singly: every start within 16 bytes, lengths from none to several vectors and across many
    # blocks, a value whose bytes differ (so a vector out of phase with the items would show), and the
    # neighbours of the filled run left alone.
    value = numpy.array(0x5A3C, dtype=numpy.int64).astype(dtype)[()]
    item = numpy.dtype(dtype).itemsize
    out = []
    for start in range(0, 16 // item + 1):
        for length in (0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 100, 4099, (1 << 16) + 7):
            a = xp.zeros(start + length + 3, dtype=dtype)
            a[start:start + length].fill(value)
            out.append(a)
    f = xp.zeros((7, 9), dtype=dtype, order='F')
    f.fill(value)  # F-contiguous: one run in memory order
    out.append(f)
    return tuple(out)


@testing.numpy_cuarray_equal()
def test_fill_longer_than_one_grid(xp):
    # One more 16-byte vector than a grid has threads (2**24), so a thread loops; 13 single bytes before the
    # first vector and 3 after the last.
    a = xp.zeros((1 << 28) + 40, dtype=xp.uint8)
    a[3:-5].fill(7)
    return a


@pytest.mark.parametrize('step', [2, 3, -1, -2, 7])
@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_strided_1d_copies(xp, dtype, step):
    # 1-D strided moves of one type run as runs of elements a thread: lengths around a block (256) and a run of
    # blocks (2048), an odd start, into a contiguous array and into a strided one.
    out = []
    for length in (1, 255, 256, 257, 2047, 2048, 2049, 5000, 20001):
        a = testing.shaped_arange((length * abs(step) + 3,), xp, dtype)
        v = (a[1::step] if step > 0 else a[-2::step])[:length]
        out.append(v.copy())
        d = xp.zeros(2 * length, dtype=dtype)
        d[::-2] = v
        out.append(d)
    return tuple(out)


@testing.for_all_dtypes(name='src')
@testing.for_all_dtypes(name='dst')
@testing.numpy_cuarray_equal()
def test_astype_all_pairs(xp, src, dst):
    a = testing.shaped_arange((2, 3), xp, src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', numpy.exceptions.ComplexWarning)
        return a.astype(dst)


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal(strides_check=True)
def test_astype_of_views_keeps_layout(xp, dtype):
    a = testing.shaped_arange((4, 6), xp, numpy.float64)
    return (a[::2, ::-3].astype(dtype), a.T.astype(dtype),
            a.T.astype(dtype, order='C'), a.astype(dtype, order='F'))


@testing.for_all_dtypes()
def test_astype_copy_false_returns_self(dtype):
    a = testing.shaped_arange((2, 3), cp, dtype)
    assert a.astype(dtype, copy=False) is a
    b = a.astype(dtype)
    assert b is not a and b.data.ptr != a.data.ptr
    testing.assert_array_equal(a, b, strict=True)


@pytest.mark.parametrize('value', [numpy.nan, numpy.inf, -numpy.inf, -1.5,
                                   1e10, 255.9])
@pytest.mark.parametrize('dst', [numpy.int32, numpy.uint8, numpy.int64],
                         ids=lambda d: numpy.dtype(d).name)
def test_astype_float_to_int_out_of_range_does_not_crash(value, dst):
    # the value is implementation-defined (as in NumPy); it must not crash
    a = cp.full(4, value, dtype=cp.float64)
    out = a.astype(dst).get()
    assert out.dtype == dst and out.shape == (4,)


@pytest.mark.parametrize('value', [1e10, -7.9, 0.5, 300.0, -300.0])
@testing.numpy_cuarray_equal()
def test_astype_in_range_float_to_int_truncates(xp, value):
    dst = numpy.int64 if abs(value) > 1e5 else numpy.int16
    return xp.array([value, -value]).astype(dst)


@testing.numpy_cuarray_equal()
def test_astype_float_to_bool_nan_is_true(xp):
    return xp.array([0.0, -0.0, numpy.nan, 1e-300]).astype(numpy.bool_)


# Issue 14: NaN, inf and out-of-range floats cast to integers give NumPy's values on x86-64 (the minimum of
# the 32- or 64-bit conversion, then wrapped; uint64 by the 2**63 split) on every path: astype and
# assignment (copy kernels), ufunc input casts (generated kernels) and scalar operands (host casts).
_CAST_SPECIALS = [numpy.nan, numpy.inf, -numpy.inf, 1e10, -1e10, 3e9, -3e9, 7e4, -7e4, 300.0, -300.0,
                  1e20, -1e20, 2.0 ** 63, 2.0 ** 64, -1.0, 2.0 ** 31, -2.0 ** 31 - 1, 0.5, -0.5]
# NumPy's own float32/float64 -> uint32 result for these depends on the layout (its vectorised loop differs
# from its element-by-element one); only values both agree on are compared there.
_UINT32_SAFE = [-1.0, 300.0, -300.0, 7e4, -7e4, 3e9, 2.0 ** 31, 0.5, -0.5]


@pytest.mark.parametrize('src', ['float16', 'float32', 'float64', 'complex64', 'complex128'])
@pytest.mark.parametrize('dst', ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64'])
@testing.numpy_cuarray_equal()
def test_float_to_int_cast_of_specials_matches_numpy(xp, src, dst):
    vals = _UINT32_SAFE if dst == 'uint32' and src != 'float16' else _CAST_SPECIALS
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        host = numpy.array(vals, dtype=numpy.float64).astype(src)
        a = xp.asarray(host)
        assigned = xp.zeros(len(vals), dtype=dst)
        assigned[...] = a
        copied = xp.zeros(len(vals), dtype=dst)
        xp.copyto(copied, a, casting='unsafe')
        in_ufunc = xp.add(a, 0, dtype=dst, casting='unsafe')
        strided = xp.asarray(numpy.repeat(host, 2))[::2].astype(dst)
        scalars = [xp.add(xp.zeros(2, dtype=dst), host.dtype.type(v), dtype=dst, casting='unsafe')
                   for v in host]
        cast = a.astype(dst)
    return cast, assigned, copied, in_ufunc, strided, scalars


# --------------------------------------------------------------------------
# No implicit host conversion
# --------------------------------------------------------------------------

@pytest.mark.parametrize('convert', [numpy.asarray, numpy.array,
                                     numpy.ascontiguousarray])
def test_implicit_numpy_conversion_raises(convert):
    a = cp.arange(3)
    with pytest.raises(TypeError) as ei:
        convert(a)
    assert '.get()' in str(ei.value)


def test_numpy_function_on_cuarray_does_not_silently_convert():
    with pytest.raises(TypeError):
        numpy.asarray([cp.arange(3)], dtype=numpy.int64)


# --------------------------------------------------------------------------
# Pickling
# --------------------------------------------------------------------------

@pytest.mark.parametrize('shape,order,index', [
    ((2, 3), 'C', None), ((2, 3), 'F', None), ((), 'C', None),
    ((0, 4), 'C', None), ((6, 5), 'C', numpy.s_[::2, ::-1]),
    ((7,), 'C', numpy.s_[1:5]),
])
@testing.for_all_dtypes()
def test_pickle_round_trip(shape, order, index, dtype):
    a = testing.shaped_arange(shape, cp, dtype, order=order)
    if index is not None:
        a = a[index]
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        b = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert isinstance(b, cp.ndarray)
        assert b.shape == a.shape and b.dtype == a.dtype
        assert b.size == 0 or b.data.ptr != a.data.ptr
        testing.assert_array_equal(b, a, strict=True)


# --------------------------------------------------------------------------
# Basic indexing
# --------------------------------------------------------------------------

BASIC_INDICES = [
    0, 1, -1, -4, numpy.int64(2), numpy.int32(-2),
    numpy.s_[:], numpy.s_[1:3], numpy.s_[::2], numpy.s_[::-1],
    numpy.s_[3:0:-2], numpy.s_[-3:], numpy.s_[10:], numpy.s_[:-10],
    numpy.s_[5:2], numpy.s_[::100], numpy.s_[-100:100],
    numpy.s_[1, 2], numpy.s_[1, 2, 3], numpy.s_[-1, -1, -1],
    numpy.s_[1, :], numpy.s_[:, 1], numpy.s_[:, :, 1], numpy.s_[..., 1],
    numpy.s_[1, ...], numpy.s_[..., 1, :], numpy.s_[...],
    numpy.s_[None], numpy.s_[None, 1], numpy.s_[:, None, ::2],
    numpy.s_[..., None], numpy.s_[1, None, ..., None, -1],
    numpy.s_[::-1, 1:3, ::-2], numpy.s_[1:2, 1:2, 1:2],
    numpy.s_[()],
]


@pytest.mark.parametrize('index', BASIC_INDICES, ids=repr)
@testing.numpy_cuarray_equal()
def test_basic_getitem(xp, index):
    a = testing.shaped_arange((4, 5, 6), xp, numpy.int32)
    r = a[index]
    return r


@pytest.mark.parametrize('index', [
    numpy.s_[1:3], numpy.s_[::-1, 2], numpy.s_[..., ::2], numpy.s_[None, 1],
    numpy.s_[:, :, 3:4],
], ids=repr)
def test_basic_getitem_returns_view_sharing_memory(index):
    a = testing.shaped_arange((4, 5, 6), cp, numpy.int32)
    v = a[index]
    assert isinstance(v, cp.ndarray)
    assert v.base is a or v.base is a.base
    v.fill(-7)
    x = testing.shaped_arange((4, 5, 6), numpy, numpy.int32)
    x[index] = -7
    testing.assert_array_equal(a, x, strict=True)


@testing.for_all_dtypes()
@testing.numpy_cuarray_equal()
def test_getitem_int_on_every_dtype(xp, dtype):
    a = testing.shaped_arange((3, 4), xp, dtype)
    return a[1, 2], a[-1], a[0, ::-1]


@testing.numpy_cuarray_equal()
def test_getitem_0d(xp):
    a = xp.array(3.5)
    return a[()], a[...], a[None]


@pytest.mark.parametrize('index', [
    4, -5, numpy.s_[1, 5], numpy.s_[0, 0, 6], numpy.s_[0, -6],
    numpy.s_[1, 2, 3, 4], numpy.s_[..., ...], numpy.s_[1, ..., 2, 3, 4],
], ids=repr)
@testing.numpy_cuarray_equal()
def test_getitem_out_of_range_raises_index_error(xp, index):
    a = testing.shaped_arange((4, 5, 6), xp, numpy.int32)
    return a[index]


@testing.numpy_cuarray_equal()
def test_getitem_on_0d_with_int_raises(xp):
    return xp.array(1)[0]


@pytest.mark.parametrize('index,value', [
    (numpy.s_[1:3], 5),
    (numpy.s_[1], -1),
    (numpy.s_[::2, 1], 7.9),
    (numpy.s_[..., -1], True),
    (numpy.s_[::-1, ::-2], 0),
    (numpy.s_[...], 3),
    (numpy.s_[None, 2], 9),
    (numpy.s_[5:], 1),
    (numpy.s_[2, 3], 42),
    (numpy.s_[-1, -1], numpy.int8(-3)),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_setitem_scalar_writes_original(xp, index, value):
    a = testing.shaped_arange((4, 5), xp, numpy.float32)
    a[index] = value
    return a


@pytest.mark.parametrize('index,shape', [
    (numpy.s_[1:3], (5,)),
    (numpy.s_[1:3], (2, 5)),
    (numpy.s_[1:3], (2, 1)),
    (numpy.s_[1:3], (1, 5)),
    (numpy.s_[:, 1], (4,)),
    (numpy.s_[::-1], (4, 5)),
    (numpy.s_[::2, ::-2], (2, 3)),
    (numpy.s_[...], ()),
    (numpy.s_[0], (1, 5)),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_setitem_broadcast_array(xp, index, shape):
    a = testing.shaped_arange((4, 5), xp, numpy.float64)
    a[index] = xp.asarray(
        testing.shaped_reverse_arange(shape, numpy, numpy.float64) * 10)
    return a


@testing.for_all_dtypes(name='src')
@testing.for_all_dtypes(name='dst')
@testing.numpy_cuarray_equal()
def test_setitem_casts_array_values(xp, src, dst):
    a = xp.zeros((3, 4), dtype=dst)
    v = testing.shaped_arange((4,), xp, src)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', numpy.exceptions.ComplexWarning)
        a[1] = v
    return a


@testing.numpy_cuarray_equal()
def test_setitem_numpy_array_value(xp):
    a = xp.zeros((3, 4), dtype=numpy.int64)
    a[1:] = numpy.arange(4)
    return a


@testing.numpy_cuarray_equal()
def test_setitem_list_value(xp):
    a = xp.zeros((3, 4), dtype=numpy.float32)
    a[0] = [1, 2, 3, 4]
    a[1:, 0] = [7, 8]
    return a


@testing.numpy_cuarray_equal()
def test_setitem_through_view_changes_original(xp):
    a = testing.shaped_arange((4, 5), xp, numpy.int64)
    v = a[::2]
    v[...] = 0
    w = a[:, ::-1]
    w[1] = xp.arange(5)
    return a


@testing.numpy_cuarray_equal()
def test_setitem_overlapping_self_assignment(xp):
    a = testing.shaped_arange((10,), xp, numpy.int32)
    a[1:] = a[:-1]
    b = testing.shaped_arange((10,), xp, numpy.int32)
    b[:-1] = b[1:]
    c = testing.shaped_arange((6,), xp, numpy.int32)
    c[:] = c[::-1]
    return a, b, c


@pytest.mark.parametrize('index,shape', [
    (numpy.s_[1:3], (3,)),
    (numpy.s_[1:3], (3, 5)),
    (numpy.s_[0], (2, 5)),
], ids=repr)
@testing.numpy_cuarray_equal()
def test_setitem_shape_mismatch_raises(xp, index, shape):
    a = xp.zeros((4, 5))
    a[index] = xp.ones(shape)
    return a


@pytest.mark.parametrize('index', [4, numpy.s_[0, 5], numpy.s_[1, 2, 3]],
                         ids=repr)
@testing.numpy_cuarray_equal()
def test_setitem_out_of_range_raises(xp, index):
    a = xp.zeros((4, 5))
    a[index] = 1
    return a


@testing.numpy_cuarray_equal()
def test_setitem_out_of_bounds_python_int_raises(xp):
    a = xp.zeros(3, dtype=numpy.uint8)
    a[0] = 300
    return a


def test_first_flags_from_many_threads_does_not_deadlock():
    # Note [Python statics] (python/src/ndarray.cpp): in a fresh interpreter, threads that read `.flags` for the
    # first time together once hung (a C++ static guard around an import, the GIL held while waiting on it).
    code = (
        "import threading, cuarray\n"
        "a = cuarray.arange(64).reshape(8, 8)\n"
        "go = threading.Barrier(16)\n"
        "out = []\n"
        "def work(i):\n"
        "    go.wait()\n"
        "    v = a[i % 8:, ::2]\n"
        "    out.append((v.flags.c_contiguous, v.flags.owndata, v.copy().flags.owndata))\n"
        "ts = [threading.Thread(target=work, args=(i,)) for i in range(16)]\n"
        "[t.start() for t in ts]\n"
        "[t.join() for t in ts]\n"
        "assert len(out) == 16 and all(o == (False, False, True) for o in out), out\n")
    run_fresh(code, timeout=60)
