"""Tests of zero-copy interoperability: __cuda_array_interface__, DLPack, PyTorch, CuPy, Numba."""

import gc

import numpy
import pytest

import cuarray as cp
from cuarray import testing

pytestmark = pytest.mark.gpu

KDLCUDA = 2


class CAIHolder:
    """A foreign object that only exposes ``__cuda_array_interface__``."""

    def __init__(self, owner, cai=None):
        self.owner = owner
        self.__cuda_array_interface__ = (
            cai if cai is not None else owner.__cuda_array_interface__)


# --------------------------------------------------------------------------
# __cuda_array_interface__ (export)
# --------------------------------------------------------------------------

@testing.for_all_dtypes()
def test_cai_fields_contiguous(dtype):
    a = testing.shaped_arange((3, 4), cp, dtype)
    cai = a.__cuda_array_interface__
    assert cai['version'] == 3
    assert cai['shape'] == (3, 4)
    assert type(cai['shape']) is tuple
    assert cai['typestr'] == numpy.dtype(dtype).str
    assert cai['data'] == (a.data.ptr, False)
    assert cai['strides'] is None
    assert 'descr' not in cai or cai['descr'] == [('', cai['typestr'])]


def test_cai_typestr_examples():
    assert cp.zeros(1, cp.float32).__cuda_array_interface__['typestr'] \
        == '<f4'
    assert cp.zeros(1, cp.bool_).__cuda_array_interface__['typestr'] == '|b1'
    assert cp.zeros(1, cp.int8).__cuda_array_interface__['typestr'] == '|i1'
    assert cp.zeros(1, cp.complex128).__cuda_array_interface__['typestr'] \
        == '<c16'
    assert cp.zeros(1, cp.float16).__cuda_array_interface__['typestr'] \
        == '<f2'


@pytest.mark.parametrize('index', [
    numpy.s_[:, ::2], numpy.s_[::-1], numpy.s_[1:, 1:], numpy.s_[..., 1],
], ids=repr)
def test_cai_fields_strided(index):
    base = cp.arange(24, dtype=cp.float64).reshape(4, 6)
    a = base[index]
    cai = a.__cuda_array_interface__
    assert cai['shape'] == a.shape
    assert cai['data'] == (a.data.ptr, False)
    if a.flags.c_contiguous:
        assert cai['strides'] is None
    else:
        assert cai['strides'] == a.strides
        assert type(cai['strides']) is tuple


def test_cai_fortran_has_strides():
    a = cp.zeros((3, 4), dtype=cp.float32, order='F')
    assert a.__cuda_array_interface__['strides'] == (4, 12)


def test_cai_0d_and_empty():
    z = cp.array(1.5)
    cai = z.__cuda_array_interface__
    assert cai['shape'] == () and cai['strides'] is None
    e = cp.zeros((0, 3), dtype=cp.float32)
    cai = e.__cuda_array_interface__
    assert cai['shape'] == (0, 3)
    assert isinstance(cai['data'][0], int)


def test_cai_stream_key():
    a = cp.arange(3)
    cai = a.__cuda_array_interface__
    assert 'stream' in cai
    assert isinstance(cai['stream'], int)
    assert cai['stream'] != 0     # 0 is disallowed by CAI v3; 1 = legacy
    s = cp.cuda.Stream()
    with s:
        assert a.__cuda_array_interface__['stream'] == s.ptr


# --------------------------------------------------------------------------
# __cuda_array_interface__ (import)
# --------------------------------------------------------------------------

def test_asarray_from_cai_is_zero_copy():
    src = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    holder = CAIHolder(src)
    a = cp.asarray(holder)
    assert isinstance(a, cp.ndarray)
    assert a.data.ptr == src.data.ptr
    assert a.shape == (3, 4) and a.dtype == numpy.float32
    a[0, 0] = 100
    assert float(src[0, 0]) == 100
    b = cp.array(holder, copy=False)
    assert b.data.ptr == src.data.ptr
    c = cp.array(holder)
    assert c.data.ptr != src.data.ptr
    testing.assert_array_equal(c, src)


def test_asarray_from_strided_cai():
    base = cp.arange(24, dtype=cp.int32).reshape(4, 6)
    view = base[::2, 1::2]
    a = cp.asarray(CAIHolder(view))
    assert a.data.ptr == view.data.ptr
    assert a.strides == view.strides
    testing.assert_array_equal(a, view, strict=True)


@testing.for_all_dtypes()
def test_asarray_from_cai_every_dtype(dtype):
    src = testing.shaped_arange((5,), cp, dtype)
    a = cp.asarray(CAIHolder(src))
    assert a.dtype == dtype and a.data.ptr == src.data.ptr
    testing.assert_array_equal(a, src, strict=True)


def test_cai_import_keeps_owner_alive():
    pool = cp.get_default_memory_pool()
    gc.collect()
    before = pool.used_bytes()
    src = cp.arange(1000, dtype=cp.float64)
    a = cp.asarray(CAIHolder(src))
    del src
    gc.collect()
    assert a.get().sum() == 499500          # memory still valid
    del a
    gc.collect()
    assert pool.used_bytes() == before


def test_cai_from_hand_written_dict():
    src = cp.arange(6, dtype=cp.int16)
    cai = {'version': 2, 'shape': (2, 3), 'typestr': '<i2',
           'data': (src.data.ptr, False), 'strides': None}
    a = cp.asarray(CAIHolder(src, cai))
    assert a.shape == (2, 3) and a.data.ptr == src.data.ptr
    assert a.get().tolist() == [[0, 1, 2], [3, 4, 5]]


def test_cai_with_unsupported_typestr_raises():
    src = cp.arange(3)
    cai = dict(src.__cuda_array_interface__)
    cai['typestr'] = '|O8'
    with pytest.raises((TypeError, ValueError)):
        cp.asarray(CAIHolder(src, cai))


# --------------------------------------------------------------------------
# DLPack
# --------------------------------------------------------------------------

def test_dlpack_device():
    assert tuple(cp.arange(3).__dlpack_device__()) == (KDLCUDA, 0)


def test_dlpack_capsule():
    a = cp.arange(3)
    cap = a.__dlpack__()
    assert type(cap).__name__ == 'PyCapsule'
    cap2 = a.__dlpack__(stream=None)
    assert type(cap2).__name__ == 'PyCapsule'
    cap3 = a.__dlpack__(stream=cp.cuda.get_current_stream().ptr or 1)
    assert type(cap3).__name__ == 'PyCapsule'


def test_dlpack_versioned_capsule():
    a = cp.arange(3)
    cap = a.__dlpack__(max_version=(1, 0))
    assert type(cap).__name__ == 'PyCapsule'


def test_from_dlpack_shares_memory():
    a = cp.arange(10, dtype=cp.float32)
    b = cp.from_dlpack(a)
    assert isinstance(b, cp.ndarray)
    assert b.data.ptr == a.data.ptr
    assert b.dtype == a.dtype and b.shape == a.shape
    b[3] = -1
    assert float(a[3]) == -1


@pytest.mark.parametrize('index', [
    numpy.s_[:], numpy.s_[::2], numpy.s_[:, 1], numpy.s_[::-1],
    numpy.s_[1:3, ::3],
], ids=repr)
@testing.for_all_dtypes()
def test_from_dlpack_round_trip_views(dtype, index):
    base = testing.shaped_arange((4, 6), cp, dtype)
    v = base[index]
    b = cp.from_dlpack(v)
    assert b.data.ptr == v.data.ptr
    assert b.strides == v.strides and b.dtype == v.dtype
    testing.assert_array_equal(b, v, strict=True)


def test_from_dlpack_of_0d_and_empty():
    z = cp.array(3.25)
    assert float(cp.from_dlpack(z)) == 3.25
    e = cp.zeros((0, 2))
    assert cp.from_dlpack(e).shape == (0, 2)


def test_from_dlpack_keeps_memory_alive():
    a = cp.arange(100, dtype=cp.int64)
    b = cp.from_dlpack(a)
    del a
    gc.collect()
    assert int(b.get().sum()) == 4950


def test_from_dlpack_of_numpy_array_raises_or_copies():
    x = numpy.arange(3)
    try:
        b = cp.from_dlpack(x)
    except (TypeError, ValueError, BufferError, RuntimeError):
        return      # a CPU tensor is not importable zero-copy
    assert isinstance(b, cp.ndarray)
    assert b.get().tolist() == [0, 1, 2]


# --------------------------------------------------------------------------
# get_array_module
# --------------------------------------------------------------------------

def test_get_array_module():
    a = cp.arange(3)
    assert cp.get_array_module(a) is cp
    assert cp.get_array_module(numpy.arange(3), a) is cp
    assert cp.get_array_module(1, a[1:]) is cp
    assert cp.get_array_module(numpy.arange(3)) is numpy


# --------------------------------------------------------------------------
# PyTorch
# --------------------------------------------------------------------------

@pytest.fixture
def torch():
    torch = pytest.importorskip('torch')
    if not torch.cuda.is_available():
        pytest.skip('PyTorch has no CUDA')
    return torch


def test_torch_from_dlpack_shares_memory(torch):
    a = cp.arange(12, dtype=cp.float32).reshape(3, 4)
    t = torch.from_dlpack(a)
    assert t.is_cuda and t.data_ptr() == a.data.ptr
    assert t.shape == (3, 4) and t.dtype == torch.float32
    numpy.testing.assert_array_equal(t.cpu().numpy(), a.get())
    t[0, 0] = 42
    torch.cuda.synchronize()
    assert float(a[0, 0]) == 42
    del t


def test_torch_as_tensor_via_cai_shares_memory(torch):
    a = cp.arange(10, dtype=cp.int64)
    t = torch.as_tensor(a, device='cuda')
    assert t.data_ptr() == a.data.ptr
    assert t.dtype == torch.int64
    numpy.testing.assert_array_equal(t.cpu().numpy(), numpy.arange(10))
    a[5] = -5
    cp.cuda.Device().synchronize()
    assert int(t[5]) == -5
    del t


def test_torch_strided_view_round_trip(torch):
    a = cp.arange(24, dtype=cp.float64).reshape(4, 6)[:, ::2]
    t = torch.from_dlpack(a)
    assert t.stride() == tuple(s // 8 for s in a.strides)
    numpy.testing.assert_array_equal(t.cpu().numpy(), a.get())
    del t


def test_from_dlpack_of_torch_tensor_shares_memory(torch):
    t = torch.arange(10, dtype=torch.float32, device='cuda')
    a = cp.from_dlpack(t)
    assert a.data.ptr == t.data_ptr()
    assert a.dtype == numpy.float32
    numpy.testing.assert_array_equal(a.get(), numpy.arange(10))
    a[0] = 7
    cp.cuda.Device().synchronize()
    assert float(t[0]) == 7
    del a


def test_asarray_of_torch_tensor_shares_memory(torch):
    t = torch.ones((3, 5), dtype=torch.float16, device='cuda')
    a = cp.asarray(t)
    assert a.data.ptr == t.data_ptr()
    assert a.dtype == numpy.float16 and a.shape == (3, 5)
    t2 = t.t()                                       # a strided view
    b = cp.asarray(t2)
    assert b.data.ptr == t2.data_ptr() and b.shape == (5, 3)
    assert b.strides == (2, 10)
    del a, b


@pytest.mark.parametrize('name', ['bool', 'int8', 'uint8', 'int16', 'int32',
                                  'int64', 'float16', 'float32', 'float64',
                                  'complex64', 'complex128'])
def test_torch_dtype_round_trip(torch, name):
    a = testing.shaped_arange((4,), cp, numpy.dtype(name))
    t = torch.from_dlpack(a)
    assert str(t.dtype) == 'torch.' + name
    back = cp.from_dlpack(t)
    assert back.data.ptr == a.data.ptr and back.dtype == a.dtype
    del t, back


# --------------------------------------------------------------------------
# CuPy
# --------------------------------------------------------------------------

def test_cupy_asarray_shares_memory():
    cupy = pytest.importorskip('cupy')
    if not cupy.cuda.is_available():
        pytest.skip('CuPy has no CUDA')
    a = cp.arange(8, dtype=cp.float32)
    c = cupy.asarray(a)
    assert c.data.ptr == a.data.ptr
    numpy.testing.assert_array_equal(cupy.asnumpy(c), a.get())
    back = cp.asarray(c)
    assert back.data.ptr == a.data.ptr
    d = cupy.from_dlpack(a)
    assert d.data.ptr == a.data.ptr
    del c, back, d


# --------------------------------------------------------------------------
# Numba
# --------------------------------------------------------------------------

def test_numba_kernel_on_cuarray_array():
    numba_cuda = pytest.importorskip('numba.cuda')
    if not numba_cuda.is_available():
        pytest.skip('Numba has no CUDA')
    if not hasattr(numpy, 'row_stack'):
        # numba-cuda's typing still uses numpy.row_stack, which NumPy 2.4 removed; tools/gpu_check.sh runs
        # this test a second time under an older NumPy.
        pytest.skip('this numba-cuda does not work with NumPy ' + numpy.__version__)

    @numba_cuda.jit
    def double(x):
        i = numba_cuda.grid(1)
        if i < x.size:
            x[i] *= 2

    a = cp.arange(1000, dtype=cp.float32)
    threads = 128
    blocks = (a.size + threads - 1) // threads
    double[blocks, threads](a)
    numba_cuda.synchronize()
    numpy.testing.assert_array_equal(
        a.get(), numpy.arange(1000, dtype=numpy.float32) * 2)
    d = numba_cuda.as_cuda_array(a)
    assert d.__cuda_array_interface__['data'][0] == a.data.ptr
    back = cp.asarray(d)
    assert back.data.ptr == a.data.ptr
    del d, back
