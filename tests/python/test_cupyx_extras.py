"""CuPy's cupyx top level at cuarray's: scatter_add/max/min (and the ndarray methods), rsqrt,
allow_synchronize with DeviceSynchronized, get_runtime_info."""
import warnings

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu


def test_names():
    for name in ("scatter_add", "scatter_max", "scatter_min", "rsqrt", "allow_synchronize", "DeviceSynchronized",
                 "get_runtime_info", "empty_pinned", "zeros_pinned", "empty_like_pinned", "zeros_like_pinned"):
        assert hasattr(cp, name), name
    for name in ("scatter_add", "scatter_max", "scatter_min"):
        assert callable(getattr(cp.ndarray, name))
    assert issubclass(cp.DeviceSynchronized, RuntimeError)
    assert callable(cp.time.repeat)


def test_scatter_needs_device_array():
    with pytest.raises(TypeError):
        cp.scatter_add(numpy.zeros(3), [0], 1)


def test_runtime_info_without_or_with_gpu():
    info = cp.get_runtime_info()
    text = str(info)
    assert "cuarray Version" in text and cp.__version__ in text
    assert "NumPy Version" in text and numpy.__version__ in text
    assert "CUDA Build Version" in text
    assert "Device Count" in text
    short = str(cp.get_runtime_info(full=False))
    assert "NVRTC Path" not in short


@pytest.mark.parametrize("key", sorted(__import__("cuarray._scatter", fromlist=["_ATOMIC"])._ATOMIC))
@pytest.mark.parametrize("arch", [75, 90])
def test_scatter_kernels_compile(key, arch):
    from cuarray import _scatter
    op, dt = key
    src = _scatter._kernel(op, dt)._source(numpy.dtype("int64"), numpy.dtype(dt), numpy.dtype(dt))
    assert cp._core.nvrtc_compile(src, "scatter.cu", arch, []) > 0


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_rsqrt_kernels_compile(dtype):
    from cuarray import _rsqrt
    src = _rsqrt._kernel(dtype)._source(numpy.dtype(dtype))
    assert cp._core.nvrtc_compile(src, "rsqrt.cu", 80, []) > 0


def test_rsqrt_type_errors_before_device_use():
    with pytest.raises(TypeError):
        cp.rsqrt(numpy.array(["a"]))


def test_allow_synchronize_flag_restored():
    from cuarray import _core
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cp.allow_synchronize(False):
            assert not _core._synchronize_allowed()
            with cp.allow_synchronize(True):
                assert _core._synchronize_allowed()
            assert not _core._synchronize_allowed()
        assert _core._synchronize_allowed()
        with pytest.raises(KeyError):
            with cp.allow_synchronize(False):
                raise KeyError
        assert _core._synchronize_allowed()


# ---------------------------------------------------------------------------------------------------------
# GPU

SCATTER_DTYPES = [numpy.float32, numpy.float64, numpy.int32, numpy.uint32, numpy.int64, numpy.uint64,
                  numpy.float16, numpy.int8, numpy.uint16, numpy.complex64, numpy.bool_]
_NUMPY_OP = {"add": numpy.add, "max": numpy.maximum, "min": numpy.minimum}


def _expected(a, slices, value, op):
    lin = numpy.arange(a.size).reshape(a.shape)[slices]
    out = a.copy()
    _NUMPY_OP[op].at(out.reshape(-1), lin.reshape(-1), numpy.broadcast_to(value, lin.shape).reshape(-1))
    return out


@gpu
@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("dtype", SCATTER_DTYPES)
def test_scatter_repeated_indices(op, dtype):
    if op != "add" and numpy.dtype(dtype).kind == "c":
        pytest.skip("complex maximum/minimum compare lexicographically; covered by ufunc.at tests")
    rng = numpy.random.default_rng(0)
    a = (rng.integers(0, 50, (20, 7))).astype(dtype)
    idx = rng.integers(0, 20, 300)
    value = rng.integers(0, 60, (300, 7)).astype(dtype)
    d = cp.asarray(a)
    getattr(cp, f"scatter_{op}")(d, idx, cp.asarray(value))
    numpy.testing.assert_array_equal(d.get(), _expected(a, idx, value, op))
    d = cp.asarray(a)
    getattr(d, f"scatter_{op}")(idx, value)  # the ndarray method, NumPy value
    numpy.testing.assert_array_equal(d.get(), _expected(a, idx, value, op))


@gpu
@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("slices", [(slice(None), [0, 2, 2, 0]), (Ellipsis, 1), ([1, 1, 3], slice(1, None, 2)),
                                    (numpy.array([True, False, True, True, False]),), ([[0, 4], [4, 0]],),
                                    (slice(None, None, -1),), (-1, [-1, -1])])
def test_scatter_index_kinds(op, slices):
    a = numpy.arange(30, dtype=numpy.float64).reshape(5, 6)
    value = 3.5
    d = cp.asarray(a)
    getattr(cp, f"scatter_{op}")(d, slices, value)
    numpy.testing.assert_array_equal(d.get(), _expected(a, slices, value, op))


@gpu
def test_scatter_non_contiguous_target_and_broadcast():
    base = numpy.zeros((6, 8), dtype=numpy.float32)
    d = cp.asarray(base)
    view = d[::2, 1::3]
    cp.scatter_add(view, ([0, 0, 2], slice(None)), cp.asarray([1.0, 2.0, 3.0], dtype=numpy.float32))
    expected = base.copy()
    ev = expected[::2, 1::3]
    numpy.add.at(ev, ([0, 0, 2], slice(None)), numpy.array([1.0, 2.0, 3.0], dtype=numpy.float32))
    numpy.testing.assert_array_equal(d.get(), expected)


@gpu
def test_scatter_nan_and_errors():
    a = numpy.array([1.0, numpy.nan, 3.0])
    d = cp.asarray(a)
    cp.scatter_max(d, [0, 1, 2, 2], cp.asarray([numpy.nan, 5.0, 2.0, 7.0]))
    numpy.testing.assert_array_equal(d.get(), [numpy.nan, numpy.nan, 7.0])
    d = cp.asarray(a)
    cp.scatter_min(d, [2, 2], [numpy.nan, -1.0])
    assert numpy.isnan(d.get()[2])
    # Out-of-bounds integer indices wrap around, as in CuPy's (and cuarray's default) integer array indexing,
    # which scatter_add documents it follows; NumPy's add.at would raise IndexError.
    d = cp.zeros(3)
    cp.scatter_add(d, [3, -4, 1], cp.asarray([1.0, 2.0, 4.0]))
    expected = numpy.zeros(3)
    numpy.add.at(expected, numpy.array([3, -4, 1]) % 3, [1.0, 2.0, 4.0])
    numpy.testing.assert_array_equal(d.get(), expected)
    with pytest.raises(ValueError):
        cp.scatter_add(cp.zeros((3, 2)), [0, 1], cp.ones((3, 2)))
    d = cp.zeros(3)
    cp.scatter_add(d, [], 1.0)
    assert not d.get().any()


@gpu
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.complex128,
                                   numpy.int8, numpy.int16, numpy.int32, numpy.uint64, numpy.bool_])
def test_rsqrt(dtype):
    rng = numpy.random.default_rng(1)
    x = (rng.random(100) * 10 + 0.1).astype(dtype)
    x[:3] = numpy.array([0, 1, 4]).astype(dtype)
    y = cp.rsqrt(cp.asarray(x))
    with numpy.errstate(divide="ignore", invalid="ignore"):
        expected = numpy.reciprocal(numpy.sqrt(x))
    assert y.dtype == expected.dtype
    tol = {"e": 1e-3, "f": 1e-6, "F": 1e-6}.get(expected.dtype.char, 1e-12)
    numpy.testing.assert_allclose(y.get(), expected, rtol=tol)
    out = cp.empty(x.shape, dtype=expected.dtype)
    assert cp.rsqrt(cp.asarray(x), out=out) is out


@gpu
def test_rsqrt_special_values():
    x = cp.asarray([0.0, -1.0, numpy.inf, numpy.nan, -0.0])
    y = cp.rsqrt(x).get()
    assert y[0] == numpy.inf and numpy.isnan(y[1]) and y[2] == 0.0 and numpy.isnan(y[3]) and y[4] == -numpy.inf
    assert cp.rsqrt(4.0).get() == 0.5


@gpu
def test_allow_synchronize_detects_implicit_syncs():
    a = cp.arange(10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with cp.allow_synchronize(False):
            b = a * 2  # enqueued only
            with pytest.raises(cp.DeviceSynchronized):
                b.get()
            with pytest.raises(cp.DeviceSynchronized):
                b[3].item()
            with pytest.raises(cp.DeviceSynchronized):
                cp.cuda.Device().synchronize()
        assert b.get()[3] == 6
    with pytest.warns(UserWarning):
        with cp.allow_synchronize(True):
            assert int(b.sum()) == 90
