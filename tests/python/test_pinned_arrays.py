"""empty_pinned, zeros_pinned, empty_like_pinned, zeros_like_pinned: NumPy arrays in cuarray's pinned pool,
and transfers that use them directly."""
import numpy
import pytest

import cuarray as cp
from cuarray import _pinned_array
from cuarray.cuda import pinned_memory

gpu = pytest.mark.gpu


# ---------------------------------------------------------------------------------------------------------
# CPU: the layout empty_like_pinned takes must be numpy.empty_like's.

def _layouts():
    base = numpy.empty((4, 5, 6), dtype=numpy.float32)
    return [base, base.T, base.transpose(1, 0, 2), base[::-1], base[:, ::2], base[..., ::-2].transpose(2, 0, 1),
            numpy.asfortranarray(base), numpy.empty((3, 1, 4)).transpose(1, 2, 0), numpy.empty(0),
            numpy.empty((0, 3)).T, numpy.empty(()), numpy.empty((7,))[::3]]


@pytest.mark.parametrize("k", range(12))
@pytest.mark.parametrize("order", ["K", "A", "C", "F", None])
@pytest.mark.parametrize("dtype", [None, numpy.int8, numpy.complex128])
def test_like_layout_matches_numpy(k, order, dtype):
    a = _layouts()[k]
    dt = a.dtype if dtype is None else numpy.dtype(dtype)
    expected = numpy.empty_like(a, dtype=dt, order=order if order is not None else "K")
    layout_order, strides = _pinned_array._like_layout(a, dt, order, a.shape)
    got = numpy.ndarray(a.shape, dtype=dt, buffer=bytearray(max(expected.nbytes, 1)), order=layout_order,
                        strides=strides)
    if a.size > 0:  # an empty array's strides mean nothing (numpy.ndarray over a buffer gives zeros)
        assert got.strides == expected.strides


@pytest.mark.parametrize("shape", [(4, 6), (3, 4, 5)])
def test_like_layout_with_new_shape(shape):
    a = numpy.empty((4, 6), dtype=numpy.float64).T
    expected = numpy.empty_like(a, shape=shape)
    layout_order, strides = _pinned_array._like_layout(a, a.dtype, "K", shape)
    got = numpy.ndarray(shape, dtype=a.dtype, buffer=bytearray(expected.nbytes), order=layout_order,
                        strides=strides)
    assert got.strides == expected.strides


def test_argument_errors_before_device_use():
    with pytest.raises(ValueError):
        cp.empty_pinned((2, -1))
    with pytest.raises(ValueError):
        cp.empty_pinned((2, 2), order="K")
    with pytest.raises(TypeError):
        cp.empty_pinned((2.5, 2))
    with pytest.raises(TypeError):
        cp.empty_like_pinned(numpy.empty(3), subok=True)
    with pytest.raises(ValueError):
        cp.empty_like_pinned(numpy.empty(3), order="X")


# ---------------------------------------------------------------------------------------------------------
# GPU

def _is_pinned(arr):
    return pinned_memory.is_memory_pinned(arr.ctypes.data)


@gpu
@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (3, 4), (2, 3, 4)])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.int8, numpy.complex64, numpy.bool_])
@pytest.mark.parametrize("order", ["C", "F"])
def test_empty_and_zeros_pinned(shape, dtype, order):
    e = cp.empty_pinned(shape, dtype=dtype, order=order)
    z = cp.zeros_pinned(shape, dtype=dtype, order=order)
    ref = numpy.zeros(shape, dtype=dtype, order=order)
    for a in (e, z):
        assert type(a) is numpy.ndarray
        assert a.shape == ref.shape and a.dtype == ref.dtype
        assert a.strides == ref.strides or a.size == 0
        assert _is_pinned(a)
    numpy.testing.assert_array_equal(z, ref)


@gpu
def test_default_dtype_and_int_shape():
    a = cp.empty_pinned(5)
    assert a.shape == (5,) and a.dtype == numpy.float64
    assert cp.zeros_pinned(numpy.int64(3)).shape == (3,)


@gpu
@pytest.mark.parametrize("src", [numpy.arange(24.0).reshape(4, 6), numpy.arange(24).reshape(4, 6).T,
                                 numpy.arange(24, dtype=numpy.int16).reshape(2, 3, 4)[:, ::-1]])
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
def test_like_pinned(src, order):
    for a in (src, cp.asarray(src)):
        e = cp.empty_like_pinned(a, order=order)
        z = cp.zeros_like_pinned(a, order=order)
        ref = numpy.empty_like(src, order=order)
        for r in (e, z):
            assert type(r) is numpy.ndarray and r.shape == ref.shape and r.dtype == ref.dtype
            assert r.strides == ref.strides or r.size == 0
            assert _is_pinned(r)
        assert not z.any()
    z = cp.zeros_like_pinned(src, dtype=numpy.complex64, shape=(2, 5))
    assert z.shape == (2, 5) and z.dtype == numpy.complex64 and not z.any()


@gpu
def test_pinned_memory_lives_with_the_array():
    pool = cp.get_default_pinned_memory_pool()
    a = cp.empty_pinned((1000,), dtype=numpy.float32)
    a[...] = 1
    before = pool.n_free_blocks()
    view = a[10:20]
    del a
    assert pool.n_free_blocks() == before  # the view keeps the buffer
    assert (view == 1).all()
    del view
    assert pool.n_free_blocks() == before + 1


@gpu
@pytest.mark.parametrize("n", [10, 1 << 18, 3 << 20])  # below and above the staging threshold (1 MiB)
def test_transfers_from_and_to_pinned(n):
    host = cp.empty_pinned((n,), dtype=numpy.float32)
    host[...] = numpy.arange(n, dtype=numpy.float32)
    d = cp.asarray(host)
    numpy.testing.assert_array_equal(d.get(), host)
    out = cp.zeros_pinned((n,), dtype=numpy.float32)
    r = (d * 2).get(out=out)
    assert r is out
    numpy.testing.assert_array_equal(out, numpy.arange(n, dtype=numpy.float32) * 2)
    host[...] = 5
    d.set(host)
    assert float(d.sum()) == 5.0 * n
    # Non-blocking into pinned memory: ready after the stream synchronises.
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        e = cp.full((n,), 3.0, dtype=numpy.float32)
        e.get(out=out, blocking=False)
    s.synchronize()
    assert (out == 3).all()
