"""cuarray.fft against numpy.fft: every transform over dtypes, norms, n/s padding and truncation, axes, layouts,
out=, errors, the plan cache and stream binding.

CPU tests check the public surface, argument validation that happens before any device use and the plan
cache's bookkeeping; GPU tests compare values with NumPy (tolerances by precision, relative to the result's
largest magnitude).
"""
import warnings

import numpy
import pytest

import cuarray as cp
from cuarray import testing

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                   "uint64", "float16", "float32", "float64", "complex64", "complex128")]
REAL = [d for d in DTYPES if d.kind != "c"]
NORMS = [None, "backward", "ortho", "forward"]
C2C = ("fft", "ifft")
ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
ND = ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2")


def _rand(shape, dtype=numpy.complex128, seed=0):
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(0, 20, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _tol(dtype):
    return {"e": 2e-3, "f": 2e-5, "F": 2e-5}.get(numpy.dtype(dtype).char, 1e-11)


def _close(got, want, tol_dtype=None):
    """Same dtype and shape; values within the precision's tolerance relative to the largest magnitude."""
    assert isinstance(got, cp.ndarray), type(got)
    g = got.get()
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.size == 0:
        return
    tol = _tol(tol_dtype if tol_dtype is not None else want.dtype)
    scale = max(1.0, float(numpy.max(numpy.abs(want.astype(numpy.complex128)))))
    err = float(numpy.max(numpy.abs(g.astype(numpy.complex128) - want.astype(numpy.complex128))))
    assert err <= tol * scale, (err, tol * scale)


def _both(name, x, *args, **kw):
    """(cuarray result, NumPy result) of one function on the same host input."""
    want = getattr(numpy.fft, name)(x, *args, **kw)
    got = getattr(cp.fft, name)(cp.asarray(x), *args, **kw)
    return got, want


# -- CPU: surface and validation before device use -------------------------------------------------------------

def test_functions_are_exported():
    for name in ONE_D + ND + ("fftfreq", "rfftfreq", "fftshift", "ifftshift"):
        assert callable(getattr(cp.fft, name)), name
    for name in ("get_plan_cache", "show_plan_cache_info", "set_plan_cache_size", "get_plan_cache_size",
                 "set_plan_cache_max_memsize", "get_plan_cache_max_memsize", "clear_plan_cache"):
        assert callable(getattr(cp.fft.config, name)), name
    with pytest.warns(DeprecationWarning, match="enable_nd_planning"):
        assert cp.fft.config.enable_nd_planning is True


def test_host_arrays_are_refused():
    with pytest.raises(TypeError):
        cp.fft.fft(numpy.arange(4.0))
    with pytest.raises(TypeError):
        cp.fft.fftn([1.0, 2.0])


def test_fftfreq_argument_errors_match_numpy():
    for f in (cp.fft.fftfreq, cp.fft.rfftfreq):
        with pytest.raises(ValueError, match="n should be an integer"):
            f(5.0)
        with pytest.raises(ZeroDivisionError):
            f(0)
        with pytest.raises(ZeroDivisionError):
            f(4, 0.0)


def test_plan_cache_limits_without_device():
    cache = cp.fft.config.get_plan_cache()
    size, memsize = cache.get_size(), cache.get_memsize()
    try:
        assert size == 16 and memsize == -1
        cache.set_size(3)
        cache.set_memsize(1 << 20)
        assert cache.get_size() == 3 and cache.get_memsize() == 1 << 20
        assert cp.fft.config.get_plan_cache_size() == 3
        assert cp.fft.config.get_plan_cache_max_memsize() == 1 << 20
        with pytest.raises(ValueError):
            cache.set_size(-2)
        with pytest.raises(ValueError):
            cache.set_memsize(-3)
        assert cache.get_curr_size() == len(cache) >= 0
    finally:
        cache.set_size(size)
        cache.set_memsize(memsize)


def test_plan_cache_show_info(capsys):
    cp.fft.config.get_plan_cache().show_info()
    out = capsys.readouterr().out
    assert "cuFFT plan cache (device" in out and "current / max size" in out and "hits / misses" in out


# -- GPU: 1-D transforms ---------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", C2C)
def test_c2c_dtypes(name, dtype):
    got, want = _both(name, _rand((3, 16), dtype))
    _close(got, want)


@gpu
@pytest.mark.parametrize("dtype", REAL, ids=str)
@pytest.mark.parametrize("name", ("rfft", "ihfft"))
def test_r2c_dtypes(name, dtype):
    got, want = _both(name, _rand((3, 16), dtype))
    _close(got, want)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", ("irfft", "hfft"))
def test_c2r_dtypes(name, dtype):
    got, want = _both(name, _rand((3, 9), dtype))
    _close(got, want, numpy.float16 if dtype.char == "e" else None)


@gpu
@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 1, 2, 5, 16, 17, 40])
def test_1d_norm_and_length(name, norm, n):
    dtype = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    got, want = _both(name, _rand((2, 16), dtype, seed=3), n=n, norm=norm)
    _close(got, want)


@gpu
@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_1d_axes(name, axis):
    dtype = numpy.float32 if name in ("rfft", "ihfft") else numpy.complex64
    got, want = _both(name, _rand((6, 5, 8), dtype), axis=axis)
    _close(got, want)


def _layouts(x):
    """Non-contiguous views of a 3-D host array: transposed, stepped, reversed, Fortran-ordered, offset."""
    return {
        "transposed": x.transpose(2, 0, 1),
        "stepped": x[::2, :, ::3],
        "reversed": x[:, ::-1],
        "fortran": numpy.asfortranarray(x),
        "offset": x[1:, 1:, 1:],
    }


@gpu
@pytest.mark.parametrize("layout", ["transposed", "stepped", "reversed", "fortran", "offset"])
@pytest.mark.parametrize("name", ONE_D)
def test_1d_non_contiguous(name, layout):
    dtype = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    host = _rand((6, 7, 12), dtype)
    dev = cp.asarray(host)
    view = {
        "transposed": dev.transpose(2, 0, 1),
        "stepped": dev[::2, :, ::3],
        "reversed": dev[:, ::-1],
        "fortran": cp.asfortranarray(dev),
        "offset": dev[1:, 1:, 1:],
    }[layout]
    want_in = _layouts(host)[layout]
    for axis in (0, 1, -1):
        _close(getattr(cp.fft, name)(view, axis=axis), getattr(numpy.fft, name)(want_in, axis=axis))


@gpu
def test_odd_offset_real_input():
    # A float32 view starting at an odd element (cuFFT's R2C reads real input in pairs).
    host = _rand((33,), numpy.float32)
    _close(cp.fft.rfft(cp.asarray(host)[1:]), numpy.fft.rfft(host[1:]))


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("name", ("fft", "rfft", "irfft", "hfft"))
def test_1d_strided_batches_of_every_small_length(name, dtype):
    # Along a non-last axis the transform has stride 5 and the batch distance 1. In the 3-D case the outer axis
    # becomes a host loop of executions stepping by 5 * k real elements: for odd k every other execution's real
    # pointer is off cufftComplex alignment, which cuFFT refuses (CUFFT_INVALID_VALUE, Note [fft alignment]).
    real_in = name == "rfft"
    for k in range(1, 10):
        for shape, axis in (((k, 5), 0), ((4, k, 5), 1), ((3, k, 5), 1)):
            host = _rand(shape, dtype, seed=k)
            dev = cp.asarray(host)
            if real_in and numpy.dtype(dtype).kind == "c":
                with pytest.raises(TypeError):
                    numpy.fft.rfft(host, axis=axis)
                with pytest.raises(TypeError):
                    cp.fft.rfft(dev, axis=axis)
                continue
            lengths = [k, 2 * k - 1, 2 * k] if name in ("irfft", "hfft") else [None, k, k + 2]
            if name in ("irfft", "hfft") and k > 1:
                lengths.append(None)  # the default 2 * (k - 1)
            for n in lengths:
                got = getattr(cp.fft, name)(dev, n=n, axis=axis)
                _close(got, getattr(numpy.fft, name)(host, n=n, axis=axis))
        if name in ("irfft", "hfft"):
            # The default length of a single input element is 0, which both refuse.
            with pytest.raises(ValueError):
                getattr(numpy.fft, name)(_rand((1, 5), dtype), axis=0)
            with pytest.raises(ValueError):
                getattr(cp.fft, name)(cp.asarray(_rand((1, 5), dtype)), axis=0)


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_c2r_into_out_at_an_odd_real_element(dtype):
    # out= that starts one real element into its buffer: cuFFT's C2R output must be complex-aligned.
    host = _rand((4, 5), dtype)
    rt = numpy.float32 if dtype == "complex64" else numpy.float64
    for n in (5, 6):
        buf = cp.zeros(n * 5 + 1, rt)
        out = buf[1:].reshape(n, 5)
        r = cp.fft.irfft(cp.asarray(host), n=n, axis=0, out=out)
        want = numpy.fft.irfft(host, n=n, axis=0)
        _close(r, want)
        _close(out, want)
        assert float(buf[0].get()) == 0.0


@gpu
@pytest.mark.parametrize("shape,axis", [((2, 64, 1024), 1), ((40, 8, 40), 1), ((3, 4, 5, 6), 2), ((1, 16, 1), 1)])
def test_batch_loops_and_copies(shape, axis):
    # Few outer indices loop over one plan; many small ones take a copy to a plain layout.
    for name, dtype in (("fft", numpy.complex64), ("rfft", numpy.float64), ("irfft", numpy.complex128)):
        got, want = _both(name, _rand(shape, dtype), axis=axis)
        _close(got, want)


@gpu
def test_irfft_ignores_imaginary_parts_of_zero_and_nyquist_terms():
    x = _rand((4, 9), numpy.complex128, seed=7)
    for n in (16, 17, None):
        got, want = _both("irfft", x, n=n)
        _close(got, want)


@gpu
def test_inputs_are_not_modified():
    for name, dtype in (("fft", numpy.complex64), ("rfft", numpy.float32), ("irfft", numpy.complex64),
                        ("hfft", numpy.complex128), ("rfftn", numpy.float32), ("irfftn", numpy.complex64),
                        ("fftn", numpy.complex128)):
        host = _rand((8, 10), dtype)
        dev = cp.asarray(host)
        getattr(cp.fft, name)(dev)
        numpy.testing.assert_array_equal(dev.get(), host)


@gpu
def test_empty_and_size_one():
    _close(cp.fft.fft(cp.asarray(numpy.zeros((0, 8)))), numpy.fft.fft(numpy.zeros((0, 8))))
    _close(cp.fft.rfft(cp.asarray(numpy.zeros((3, 0))), axis=0), numpy.fft.rfft(numpy.zeros((3, 0)), axis=0))
    _close(cp.fft.fft(cp.asarray(numpy.zeros(0)), n=4), numpy.fft.fft(numpy.zeros(0), n=4))
    for name in ("fft", "ifft", "rfft", "ihfft"):
        got, want = _both(name, _rand((3, 1), numpy.float64))
        _close(got, want)
    got, want = _both("irfft", _rand((3, 1), numpy.complex128), n=1)
    _close(got, want)


# Issue 14: transforms of empty input answer where NumPy answers (the transformed lengths are at least one,
# from the input or from n/s; other axes may be empty) and raise NumPy's errors where it raises.
_EMPTY_SHAPES = [(0,), (0, 4), (4, 0), (3, 0, 4), (0, 0)]


@gpu
@pytest.mark.parametrize("shape", _EMPTY_SHAPES, ids=str)
@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"n": 4}, {"n": 4, "axis": 0}, {"n": 1}], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-12)
def test_empty_input_1d_matches_numpy(xp, shape, name, kw):
    dt = numpy.float64 if name in ("rfft", "ihfft") else numpy.complex128
    return getattr(xp.fft, name)(xp.asarray(numpy.zeros(shape, dtype=dt)), **kw)


@gpu
@pytest.mark.parametrize("shape", _EMPTY_SHAPES, ids=str)
@pytest.mark.parametrize("name", ND)
@pytest.mark.parametrize("kw", [{}, {"axes": (0,)}, {"axes": (-1,)}, {"axes": (0, -1)}, {"s": (4, 4), "axes": (0, -1)},
                                {"s": (4,), "axes": (-1,)}, {"axes": ()}], ids=str)
@testing.numpy_cuarray_allclose(rtol=1e-12, atol=1e-12)
def test_empty_input_nd_matches_numpy(xp, shape, name, kw):
    if name.endswith("2") and ("axes" in kw and len(kw["axes"]) != 2 or len(shape) < 2):
        pytest.skip("the 2-D transforms take two axes")
    if len(shape) == 1 and "axes" in kw and len(kw["axes"]) > 1:
        pytest.skip("two axes of a 1-D array")
    dt = numpy.float64 if name.startswith("rfft") else numpy.complex128
    return getattr(xp.fft, name)(xp.asarray(numpy.zeros(shape, dtype=dt)), **kw)


@gpu
def test_1d_errors():
    x = cp.asarray(_rand((4, 6)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.fft(x, n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.ifft(x, n=-3)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.fft(cp.asarray(numpy.zeros(0)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.irfft(cp.asarray(numpy.ones(1, complex)))
    with pytest.raises(numpy.exceptions.AxisError):
        cp.fft.fft(x, n=2, axis=2)
    with pytest.raises(IndexError):
        cp.fft.fft(x, axis=-3)
    with pytest.raises(IndexError):
        cp.fft.fft(cp.asarray(numpy.float64(1.0)))
    with pytest.raises(ValueError, match="Invalid norm value"):
        cp.fft.fft(x, norm="bad")
    # With n None NumPy reads a.shape[axis] before it looks at the norm: an IndexError wins.
    for f in (cp.fft.fft, cp.fft.ifft, cp.fft.rfft, cp.fft.irfft, cp.fft.hfft, cp.fft.ihfft):
        with pytest.raises(IndexError):
            f(cp.asarray(numpy.uint8(3)), norm="bogus", axis=0)
        with pytest.raises(IndexError):
            f(x, norm="bogus", axis=2)
    with pytest.raises(TypeError):
        cp.fft.rfft(x)
    with pytest.raises(TypeError):
        cp.fft.ihfft(x)
    with pytest.raises(TypeError):
        cp.fft.fft(x, n=2.0)


@gpu
def test_out_argument():
    host = _rand((4, 6))
    x = cp.asarray(host)
    out = cp.empty((4, 6), dtype=numpy.complex128)
    r = cp.fft.fft(x, out=out)
    assert r is out
    _close(out, numpy.fft.fft(host))
    out64 = cp.empty((4, 6), dtype=numpy.complex64)
    assert cp.fft.ifft(x, out=out64) is out64
    _close(out64, numpy.fft.ifft(host).astype(numpy.complex64))
    strided = cp.empty((4, 12), dtype=numpy.complex128)[:, ::2]
    assert cp.fft.fft(x, out=strided) is strided
    _close(strided, numpy.fft.fft(host))
    real_out = cp.empty((4, 10), dtype=numpy.float64)
    assert cp.fft.irfft(x, out=real_out) is real_out
    _close(real_out, numpy.fft.irfft(host))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        cp.fft.fft(x, out=cp.empty((4, 5), dtype=numpy.complex128))
    with pytest.raises(TypeError):
        cp.fft.fft(x, out=cp.empty((4, 6), dtype=numpy.float64))
    with pytest.raises(TypeError):
        cp.fft.fft(x, out=numpy.empty((4, 6), dtype=numpy.complex128))


# -- GPU: n-dimensional transforms -----------------------------------------------------------------------------

ND_CASES = [
    ((6, 8), None, None),
    ((6, 8), None, (0,)),
    ((6, 8), None, (1, 0)),
    ((6, 8), (4, 10), (0, 1)),
    ((4, 5, 6), None, (0, 2)),
    ((4, 5, 6), (3, 7), (-1, 0)),
    ((4, 5, 6), None, (-1, 0, 1)),
    ((3, 4, 5, 6), None, None),
    ((2, 3, 4, 5, 6), None, (0, 1, 2, 3)),
    ((4, 5, 6), (2, -1, 9), (0, 1, 2)),
    ((5, 6), None, (0, 0)),
    ((5, 6), (3, 8), (1, 1)),
]


@gpu
@pytest.mark.parametrize("shape,s,axes", ND_CASES)
@pytest.mark.parametrize("name", ("fftn", "ifftn", "rfftn", "irfftn"))
def test_nd(name, shape, s, axes):
    dtype = numpy.float64 if name == "rfftn" else numpy.complex128
    got, want = _both(name, _rand(shape, dtype), s=s, axes=axes)
    _close(got, want)


@gpu
@pytest.mark.parametrize("name", ("fft2", "ifft2", "rfft2", "irfft2"))
@pytest.mark.parametrize("norm", NORMS)
def test_2d(name, norm):
    dtype = numpy.float32 if name == "rfft2" else numpy.complex64
    x = _rand((3, 10, 12), dtype)
    got, want = _both(name, x, norm=norm)
    _close(got, want)
    got, want = _both(name, x, s=(5, 16), axes=(0, 2), norm=norm)
    _close(got, want)


@gpu
@pytest.mark.parametrize("layout", ["transposed", "stepped", "reversed", "fortran", "offset"])
@pytest.mark.parametrize("name", ("fftn", "rfftn", "irfftn"))
def test_nd_non_contiguous(name, layout):
    dtype = numpy.float32 if name == "rfftn" else numpy.complex64
    host = _rand((6, 8, 12), dtype)
    dev = cp.asarray(host)
    view = {
        "transposed": dev.transpose(2, 0, 1),
        "stepped": dev[::2, :, ::3],
        "reversed": dev[:, ::-1],
        "fortran": cp.asfortranarray(dev),
        "offset": dev[1:, 1:, 1:],
    }[layout]
    want_in = _layouts(host)[layout]
    for axes in (None, (0, 1), (2, 0)):
        _close(getattr(cp.fft, name)(view, axes=axes), getattr(numpy.fft, name)(want_in, axes=axes))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nd_dtypes(dtype):
    x = _rand((4, 6), dtype)
    for name in ("fftn", "ifft2", "irfftn") + (("rfftn",) if dtype.kind != "c" else ()):
        got, want = _both(name, x)
        if dtype.char != "e":
            _close(got, want)
            continue
        # NumPy scales float16 input by 1/n rounded to float16 (its real_dtype is result_type(float16, 1.0)), so
        # its inverse transforms are only float16-accurate; ours normalise in float32. Match NumPy's dtype and
        # values at float16 tolerance, and hold our values to float32 accuracy against NumPy on float32 input.
        _close(got, want, numpy.float16)
        if got.dtype != numpy.float16:  # irfftn of float16 returns float16: no float32 accuracy to hold it to
            _close(got, getattr(numpy.fft, name)(x.astype(numpy.float32)))


@gpu
def test_nd_errors_and_edge_rules():
    x = cp.asarray(_rand((4, 6)))
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        cp.fft.fftn(x, s=(4,), axes=(0, 1))
    with pytest.raises(IndexError):
        cp.fft.fftn(x, axes=(0, 5))
    with pytest.raises(IndexError):
        cp.fft.fft2(cp.asarray(_rand(4)))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.fftn(x, s=(3, -2), axes=(0, 1))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        cp.fft.irfftn(cp.asarray(_rand((4, 1))))
    with pytest.raises(IndexError):
        cp.fft.rfftn(cp.asarray(_rand((4, 6), numpy.float64)), axes=())
    with pytest.raises(TypeError):
        cp.fft.rfftn(x)
    # NumPy returns its input untouched when no axis is transformed.
    r = cp.fft.fftn(x, axes=())
    assert r.dtype == x.dtype and r.shape == x.shape
    with pytest.warns(DeprecationWarning):
        got = cp.fft.fftn(x, s=(3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        want = numpy.fft.fftn(x.get(), s=(3, 4))
        _close(got, want)
        got, want = _both("irfftn", _rand((4, 6)), s=(3, None), axes=(0, 1))
        _close(got, want)


@gpu
def test_nd_out():
    host = _rand((4, 6, 8))
    out = cp.empty((4, 6, 8), dtype=numpy.complex128)
    assert cp.fft.fftn(cp.asarray(host), out=out) is out
    _close(out, numpy.fft.fftn(host))
    rout = cp.empty((4, 6, 5), dtype=numpy.complex64)
    assert cp.fft.rfftn(cp.asarray(host.real), out=rout) is rout
    _close(rout, numpy.fft.rfftn(host.real).astype(numpy.complex64))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        cp.fft.fft2(cp.asarray(host), out=cp.empty((4, 6, 7), dtype=numpy.complex128))


@gpu
def test_large_transforms():
    x = _rand(1 << 20, numpy.complex64, seed=11)
    _close(cp.fft.fft(cp.asarray(x)), numpy.fft.fft(x))
    r = x.real.copy()
    _close(cp.fft.irfft(cp.fft.rfft(cp.asarray(r))), r)


# -- GPU: helpers ----------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("n", [1, 2, 5, 8, 9])
@pytest.mark.parametrize("d", [1.0, 0.1, 3])
def test_fftfreq(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(cp.fft, name)(n, d)
        want = getattr(numpy.fft, name)(n, d)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_array_equal(got.get(), want)


@gpu
@pytest.mark.parametrize("shape", [(), (5,), (4, 6), (3, 4, 5)])
@pytest.mark.parametrize("axes", [None, 0, (0,), (-1,), (0, -1)])
def test_fftshift(shape, axes):
    host = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    if axes is not None and len(shape) == 0:
        with pytest.raises(IndexError):
            cp.fft.fftshift(cp.asarray(host), axes)
        return
    if len(shape) == 0:
        # NumPy's roll fails on a 0-d array with an empty axis tuple (an internal "not enough values to unpack"
        # ValueError, not a documented rule); shifting no axis is the identity, as in CuPy.
        for name in ("fftshift", "ifftshift"):
            got = getattr(cp.fft, name)(cp.asarray(host), axes)
            assert got.shape == () and got.dtype == host.dtype
            numpy.testing.assert_array_equal(got.get(), host)
        return
    for name in ("fftshift", "ifftshift"):
        got = getattr(cp.fft, name)(cp.asarray(host), axes)
        want = getattr(numpy.fft, name)(host, axes)
        assert got.shape == want.shape
        numpy.testing.assert_array_equal(got.get(), want)


# -- GPU: plan cache and streams -------------------------------------------------------------------------------

@gpu
def test_plan_cache_lru_and_limits():
    cache = cp.fft.config.get_plan_cache()
    size, memsize = cache.get_size(), cache.get_memsize()
    x = cp.asarray(_rand(64))
    try:
        cache.clear()
        assert cache.get_curr_size() == 0 and cache.get_curr_memsize() == 0
        cache.set_size(2)
        for n in (16, 32, 48):
            cp.fft.fft(x, n=n)
        assert cache.get_curr_size() == 2
        keys = [k for k, _ in cache]
        assert "n=(48,)" in keys[0] and "n=(32,)" in keys[1]
        cp.fft.fft(x, n=32)  # a hit moves the plan to the front
        assert "n=(32,)" in [k for k, _ in cache][0]
        info = cp._core.fft._plan_cache_info(cache.dev)
        assert info["hits"] >= 1 and info["misses"] >= 3
        cache.set_size(1)
        assert cache.get_curr_size() == 1
        cache.set_size(0)  # disabled: nothing is kept
        assert cache.get_curr_size() == 0
        _close(cp.fft.fft(x, n=20), numpy.fft.fft(x.get(), n=20))
        assert cache.get_curr_size() == 0
        cache.set_size(16)
        cache.set_memsize(0)
        cp.fft.fft(x, n=24)
        assert cache.get_curr_size() == 0
        # A memsize limit keeps the sum of the cached plans' work areas under it.
        cache.set_memsize(1 << 30)
        big = cp.asarray(_rand(3 * 5 * 7 * 11 * 13, numpy.complex64))
        cp.fft.fft(big)
        used = cache.get_curr_memsize()
        assert used == sum(w for _, w in cache)
        if used > 0:
            cache.set_memsize(used - 1)
            assert cache.get_curr_memsize() <= used - 1
        cache.clear()
        assert cache.get_curr_size() == 0 and cache.get_curr_memsize() == 0
    finally:
        cache.set_size(size)
        cache.set_memsize(memsize)


@gpu
def test_results_on_a_non_default_stream():
    host = _rand((64, 256), numpy.complex64, seed=5)
    want = numpy.fft.fft2(host)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.asarray(host)
        y = cp.fft.fft2(x)
        z = cp.fft.irfft(cp.fft.rfft(x.real), n=256)
    s.synchronize()
    _close(y, want)
    _close(z, host.real.astype(numpy.float32))
    # The same cached plan, now on the default stream.
    _close(cp.fft.fft2(cp.asarray(host)), want)


# -- fuzz regressions (issue 14's fuzz run): NumPy's order of argument checks and fftfreq's arithmetic --------

def test_fftfreq_negative_n_and_zero_d_without_device():
    # NumPy computes 1.0 / (n * d) first (Python's ZeroDivisionError), then fftfreq's empty(n) refuses n < 0.
    for f in (cp.fft.fftfreq, cp.fft.rfftfreq):
        with pytest.raises(ZeroDivisionError):
            f(-1, 0)
    with pytest.raises(ValueError, match="negative dimensions"):
        cp.fft.fftfreq(-1, 1.0)


@gpu
@pytest.mark.parametrize("args", [(-1, 1.0), (-3, 2), (numpy.int32(6), 0), (6, numpy.float64(0.0)),
                                  (numpy.int64(0), 1.0)], ids=repr)
@testing.numpy_cuarray_equal()
def test_fftfreq_edge_arguments(xp, args):
    with numpy.errstate(all="ignore"):
        return xp.fft.fftfreq(*args) if args[0] >= 0 else xp.fft.rfftfreq(*args)


@gpu
@pytest.mark.parametrize("call", [
    ("ifft", (1, 5, 1), dict(norm="backward", n=2.5, axis=-4)),   # AxisError before n's type
    ("hfft", (), dict(n=2.5, axis=1)),
    ("ihfft", (), dict(n=-1, axis=None)),                          # n < 1 before the axis
    ("rfft", (6, 0, 2), dict(norm="forward", n=-1, axis=None)),
    ("rfft", (3,), dict(norm="bogus", axis=None)),                 # a.shape[None] before the norm
    ("ifft2", (), dict(norm="bogus", axes=(-2, -1))),              # _cook_nd_args before the norm
    ("irfft2", (), dict(norm="bogus")),
    ("fftn", (3,), dict(norm="bogus", axes=())),                   # no axis: the input back, norm unread
], ids=repr)
@testing.numpy_cuarray_equal()
def test_argument_errors_in_numpys_order(xp, call):
    name, shape, kw = call
    return getattr(xp.fft, name)(xp.asarray(numpy.ones(shape)), **kw)



# NumPy's rfftn is _cook_nd_args, then the 1-D rfft over the last axis: complex input is that ufunc's
# TypeError once the last axis and its length pass, whatever the other axes are.
@gpu
@pytest.mark.parametrize("call", [
    ("rfft2", (3,), dict(axes=(-2, -1), s=(2, 4))),
    ("rfftn", (3,), dict(axes=(5, 0), s=(2, 4))),
    ("rfftn", (3,), dict(axes=(0, 5), s=(2, 4))),
    ("rfftn", (3,), dict(axes=(-1,), s=(0,))),
    ("rfftn", (3, 2), dict()),
    ("rfftn", (3,), dict(axes=(-2, -1))),
    ("rfft2", (3,), dict(s=(2, 4, 5), axes=(-2, -1))),
    ("rfftn", (3,), dict(axes=())),
    ("rfft", (3,), dict(n=4, axis=5)),
    ("rfft", (3,), dict(n=4)),
], ids=repr)
@testing.numpy_cuarray_equal(accept_error=True)
def test_rfft_of_complex_input_in_numpys_order(xp, call):
    name, shape, kw = call
    return getattr(xp.fft, name)(xp.asarray(numpy.ones(shape, complex)), **kw)
