"""ndarray.byteswap/tobytes/tofile/dump(s), DLPack (toDlpack, fromDlpack, __dlpack__ 1.x), non-native byte order,
and cuarray.lib.stride_tricks, against NumPy.
"""
import pickle

import numpy
import pytest

import cuarray as cp
from cuarray.lib.stride_tricks import as_strided, sliding_window_view

gpu = pytest.mark.gpu

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def _host(dtype, shape=(4, 6), seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    v = rng.standard_normal(shape) * 100
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def _layouts(host):
    """(name, device array, NumPy array) pairs over C, F, strided, negative-stride, 0-d and empty layouts."""
    d = cp.asarray(host)
    f = numpy.asfortranarray(host)
    return [
        ("C", d, host),
        ("F", cp.asfortranarray(d), f),
        ("strided", d[::2, 1::2], host[::2, 1::2]),
        ("negative", d[::-1, ::-3], host[::-1, ::-3]),
        ("transposed", d.T, host.T),
        ("0d", d[1, 2], host[1, 2].copy().reshape(())),
        ("empty", d[:0], host[:0]),
    ]


# -- CPU ---------------------------------------------------------------------------------------------------------

def test_methods_and_names_exist():
    for name in ("byteswap", "tobytes", "tofile", "dump", "dumps", "toDlpack", "__dlpack__", "__dlpack_device__"):
        assert callable(getattr(cp.ndarray, name)), name
    assert callable(cp.fromDlpack)
    assert cp.lib.stride_tricks.as_strided is as_strided


def test_fromDlpack_warns_before_anything_else():
    with pytest.warns(DeprecationWarning, match="from_dlpack"):
        with pytest.raises((TypeError, ValueError)):
            cp.fromDlpack(object())


# -- GPU: bytes ----------------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
def test_tobytes_matches_numpy(dtype, order):
    for name, d, h in _layouts(_host(dtype)):
        assert d.tobytes(order) == h.tobytes(order), name


@gpu
def test_tobytes_bad_order():
    d = cp.arange(3)
    with pytest.raises(ValueError):
        numpy.arange(3).tobytes("X")
    with pytest.raises(ValueError):
        d.tobytes("X")


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_byteswap_matches_numpy(dtype):
    for name, d, h in _layouts(_host(dtype)):
        r = d.byteswap()
        assert r.dtype == h.dtype and r.shape == h.shape, name
        assert r.tobytes() == h.byteswap().tobytes(), name
        # Not in place: the source is unchanged.
        assert d.tobytes() == h.tobytes(), name


VIEWS = {"C": lambda a: a, "strided": lambda a: a[::2, 1::2], "negative": lambda a: a[::-1, ::-3],
         "transposed": lambda a: a.T, "0d": lambda a: a[1, 2, ...], "empty": lambda a: a[:0]}


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", list(VIEWS) + ["F"])
def test_byteswap_inplace_matches_numpy(dtype, layout):
    h = _host(dtype)
    d = cp.asarray(h)
    if layout == "F":
        h, d = numpy.asfortranarray(h), cp.asfortranarray(d)
    hv, dv = (h, d) if layout == "F" else (VIEWS[layout](h), VIEWS[layout](d))
    out = dv.byteswap(inplace=True)
    assert out is dv
    hv.byteswap(inplace=True)
    assert dv.tobytes() == hv.tobytes()
    # Elements outside the view keep their bytes; the whole array matches NumPy's.
    assert d.tobytes() == h.tobytes()


@gpu
def test_byteswap_twice_is_identity_with_nan_payloads():
    h = numpy.array([1.0, numpy.nan, -numpy.inf, 2.5e-310], dtype=numpy.float64)
    d = cp.asarray(h)
    numpy.testing.assert_array_equal(d.byteswap().byteswap().get().view(numpy.uint64), h.view(numpy.uint64))
    s = d[::-1]
    s.byteswap(inplace=True)
    s.byteswap(inplace=True)
    numpy.testing.assert_array_equal(d.get().view(numpy.uint64), h.view(numpy.uint64))


@gpu
@pytest.mark.parametrize("sep", ["", ",", " "])
def test_tofile_matches_numpy(tmp_path, sep):
    h = _host("float32", (3, 5))
    for name, d, hh in _layouts(h):
        a, b = tmp_path / f"c_{name}.bin", tmp_path / f"n_{name}.bin"
        d.tofile(str(a), sep=sep)
        hh.tofile(str(b), sep=sep)
        assert a.read_bytes() == b.read_bytes(), name
    with open(tmp_path / "f.bin", "wb") as f:
        cp.arange(4, dtype=cp.int16).tofile(f)
    assert numpy.fromfile(tmp_path / "f.bin", dtype=numpy.int16).tolist() == [0, 1, 2, 3]
    back = cp.fromfile(str(tmp_path / "f.bin"), dtype=numpy.int16)
    assert back.get().tolist() == [0, 1, 2, 3]


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64", "bool"])
def test_dump_dumps_roundtrip(tmp_path, dtype):
    h = _host(dtype)
    d = cp.asarray(h)[::-1, 1::2]
    r = pickle.loads(d.dumps())
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_array_equal(r.get(), h[::-1, 1::2])
    path = tmp_path / "d.pkl"
    d.dump(str(path))
    r = cp.load(str(path), allow_pickle=True)
    assert isinstance(r, cp.ndarray)
    numpy.testing.assert_array_equal(r.get(), h[::-1, 1::2])
    with open(path, "wb") as f:
        d.dump(f)
    with open(path, "rb") as f:
        numpy.testing.assert_array_equal(pickle.load(f).get(), h[::-1, 1::2])
    with pytest.raises(ValueError):
        cp.load(str(path))  # allow_pickle=False


# -- GPU: byte order ------------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", [">i2", ">u4", ">i8", ">f4", ">f8", ">c8", ">c16", "<i4"])
def test_non_native_byte_order_is_converted_on_transfer(dtype):
    h = numpy.arange(12).reshape(3, 4).astype(dtype)
    for d in (cp.asarray(h), cp.array(h), cp.asarray(h[:, ::-2]), cp.asarray(numpy.asfortranarray(h))):
        assert d.dtype.isnative
        assert d.dtype == numpy.dtype(dtype).newbyteorder("=")
        g = d.get()
        assert g.dtype.isnative
    numpy.testing.assert_array_equal(cp.asarray(h).get(), h)
    numpy.testing.assert_array_equal(cp.asarray(h[:, ::-2]).get(), h[:, ::-2])
    # Assignment from a non-native NumPy array (basic and advanced indices) converts too.
    d = cp.zeros((3, 4), dtype=numpy.dtype(dtype).newbyteorder("="))
    d[...] = h
    numpy.testing.assert_array_equal(d.get(), h)
    d[[0, 2]] = h[[1, 1]]
    numpy.testing.assert_array_equal(d.get()[0], h[1])
    d[1] = h[2, 0]
    numpy.testing.assert_array_equal(d.get()[1], numpy.full(4, h[2, 0]))


@gpu
def test_non_native_index_array():
    d = cp.arange(10) * 10
    numpy.testing.assert_array_equal(d[numpy.array([3, 1], dtype=">i8")].get(), [30, 10])


# -- GPU: DLPack -----------------------------------------------------------------------------------------------------

def _capsule_name(capsule):
    import ctypes
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(capsule).decode()


@gpu
def test_dlpack_capsule_versions():
    d = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    assert _capsule_name(d.__dlpack__()) == "dltensor"
    assert _capsule_name(d.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert _capsule_name(d.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert _capsule_name(d.__dlpack__(max_version=(1, 3))) == "dltensor_versioned"
    assert _capsule_name(d.toDlpack()) == "dltensor"
    assert d.__dlpack_device__() == (2, d.device.id)
    with pytest.raises(TypeError):
        d.__dlpack__(None)  # keyword-only, as the protocol says


@gpu
@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_dlpack_roundtrip_shares_memory(max_version):
    d = cp.arange(12, dtype=cp.int32).reshape(3, 4)[:, ::-2]
    e = cp.from_dlpack(d.__dlpack__(max_version=max_version))
    numpy.testing.assert_array_equal(e.get(), d.get())
    e[...] = 7
    assert (d.get() == 7).all()
    c = cp.from_dlpack(d.__dlpack__(max_version=max_version, copy=True))
    c[...] = 1
    assert (d.get() == 7).all()


@gpu
def test_toDlpack_fromDlpack():
    d = cp.arange(5, dtype=cp.complex64)
    cap = d.toDlpack()
    with pytest.warns(DeprecationWarning):
        e = cp.fromDlpack(cap)
    numpy.testing.assert_array_equal(e.get(), d.get())
    e[0] = 9
    assert d.get()[0] == 9
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError):
        cp.fromDlpack(cap)  # a capsule is consumed once


@gpu
def test_dlpack_export_to_cpu():
    h = numpy.arange(12.0).reshape(3, 4)
    d = cp.asarray(h)[::-1]
    n = numpy.from_dlpack(d, device="cpu")
    numpy.testing.assert_array_equal(n, h[::-1])
    cap = d.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    assert _capsule_name(cap) == "dltensor_versioned"
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(2, d.device.id + 1))
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(8, 0))


@gpu
def test_dlpack_stream_zero_refused():
    with pytest.raises(ValueError):
        cp.arange(3).__dlpack__(stream=0)


# -- GPU: stride tricks ------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", ["int8", "int32", "float64", "complex128"])
def test_as_strided_matches_numpy(dtype):
    h = _host(dtype, (24,))
    d = cp.asarray(h)
    s = h.itemsize
    cases = [((5, 3), (2 * s, s)), ((4, 4), (0, s)), ((3,), (-s,)), ((2, 3, 2), (8 * s, 2 * s, s)), ((0, 5), (s, s)),
             ((), ())]
    for shape, strides in cases:
        if strides and strides[0] < 0:
            dv, hv = d[10:], h[10:]
        else:
            dv, hv = d, h
        r = as_strided(dv, shape, strides)
        e = numpy.lib.stride_tricks.as_strided(hv, shape, strides)
        assert r.shape == e.shape and r.strides == e.strides
        numpy.testing.assert_array_equal(r.get(), e)
        # Repeated (0 stride) and overlapping elements read the same through copies and kernels.
        numpy.testing.assert_array_equal(r.copy().get(), e)
        numpy.testing.assert_array_equal(cp.asfortranarray(r).get(), e)
        numpy.testing.assert_array_equal((r + r).get(), e + e)
    # A view: writes go to the source, and only to the elements it covers. The same write is made to `h`, which
    # the checks below compare with (d[0] is one of the zeroed elements).
    v = as_strided(d, (3,), (4 * s,))
    v[...] = 0
    numpy.lib.stride_tricks.as_strided(h, (3,), (4 * s,))[...] = 0
    numpy.testing.assert_array_equal(d.get(), h)
    # Defaults: x's shape and strides, also for inputs that start inside their allocation or walk backwards.
    for sl in (slice(None, None, 3), slice(1, None, 3), slice(None, None, -2)):
        r = as_strided(d[sl])
        assert r.shape == h[sl].shape and r.strides == h[sl].strides
        numpy.testing.assert_array_equal(r.get(), h[sl])


@gpu
def test_as_strided_refuses_out_of_bounds_and_misaligned():
    # 64 float64 fill the pool's 512-byte allocation exactly, so one element past the array is past the allocation.
    d = cp.arange(64, dtype=cp.float64)
    for shape, strides in [((65,), (8,)), ((2,), (-8,)), ((8, 9), (64, 8)), ((2,), (2**40,)), ((2, 2), (2**62, 2**62))]:
        with pytest.raises(ValueError):
            as_strided(d, shape, strides)
    with pytest.raises(ValueError):
        as_strided(d, (3,), (4,))  # not a multiple of the itemsize
    with pytest.raises(ValueError):
        as_strided(d, (3, 2), (8,))
    with pytest.raises(ValueError):
        as_strided(d, (-1,), (8,))
    # Within the allocation behind a view is fine (NumPy allows it too); beyond it is not.
    big = cp.arange(100, dtype=cp.int32)
    part = big[10:20]
    numpy.testing.assert_array_equal(as_strided(part, (30,), (4,)).get(), numpy.arange(10, 40))
    numpy.testing.assert_array_equal(as_strided(part, (3,), (-4,)).get(), [10, 9, 8])
    # (The pool rounds allocations up, so the limit is the allocation's size, not the array's.)
    with pytest.raises(ValueError):
        as_strided(part, (1 << 20,), (4,))
    with pytest.raises(ValueError):
        as_strided(part, (12,), (-4,))
    # An empty view never reads: any strides will do.
    assert as_strided(d, (0, 3), (8 * 10**6, 8)).shape == (0, 3)


@gpu
@pytest.mark.parametrize("window,axis", [(3, None), ((2, 3), None), (2, 0), (3, 1), ((2, 2), (0, 0)), ((1, 4), (1, 0)),
                                         (0, 1), ((4, 6), None)])
def test_sliding_window_view_matches_numpy(window, axis):
    if numpy.ndim(window) or axis is not None:
        layouts = _layouts(_host("float32", (4, 6)))[:5]
    else:
        h = _host("float32", (6,))
        d = cp.asarray(h)
        layouts = [("C", d, h), ("strided", d[1::2], h[1::2]), ("negative", d[::-1], h[::-1])]
    for name, d, hh in layouts:
        # Some layouts are smaller than the window (the strided one is 2 x 3): NumPy's error is expected then.
        try:
            e = numpy.lib.stride_tricks.sliding_window_view(hh, window, axis=axis)
        except ValueError:
            with pytest.raises(ValueError):
                sliding_window_view(d, window, axis=axis)
            continue
        r = sliding_window_view(d, window, axis=axis)
        assert r.shape == e.shape and r.strides == e.strides, name
        numpy.testing.assert_array_equal(r.get(), e)


@gpu
def test_ndarray_constructor_takes_signed_strides_and_checks_bounds():
    d = cp.arange(64, dtype=cp.float64)  # 512 bytes: the pool's allocation exactly
    r = cp.ndarray((3,), cp.float64, memptr=d.data + 16, strides=(-8,))
    assert r.strides == (-8,)
    numpy.testing.assert_array_equal(r.get(), [2.0, 1.0, 0.0])
    numpy.testing.assert_array_equal(cp.ndarray((2, 3), cp.float64, memptr=d.data, strides=(0, 16)).get(),
                                     [[0.0, 2.0, 4.0]] * 2)
    with pytest.raises(ValueError):
        cp.ndarray((4,), cp.float64, memptr=d.data + 16, strides=(-8,))  # one before the block
    with pytest.raises(ValueError):
        cp.ndarray((65,), cp.float64, memptr=d.data)  # one past it
    with pytest.raises(ValueError):
        cp.ndarray((2, 2), cp.float64, memptr=d.data, strides=(8,))
    assert cp.ndarray((0, 4), cp.float64, memptr=d.data, strides=(2**40, 8)).shape == (0, 4)


@gpu
def test_sliding_window_view_errors_match_numpy():
    h = numpy.arange(6.0)
    d = cp.asarray(h)
    for args, kwargs in [((7,), {}), ((-1,), {}), (((2, 2),), {}), ((2,), {"axis": 1}), (((2, 2),), {"axis": 0})]:
        with pytest.raises(Exception) as ref:
            numpy.lib.stride_tricks.sliding_window_view(h, *args, **kwargs)
        with pytest.raises(ref.type):
            sliding_window_view(d, *args, **kwargs)


@gpu
def test_sliding_window_moving_average():
    h = numpy.arange(20.0) ** 2
    d = cp.asarray(h)
    numpy.testing.assert_allclose(sliding_window_view(d, 5).mean(axis=-1).get(),
                                  numpy.lib.stride_tricks.sliding_window_view(h, 5).mean(axis=-1))
