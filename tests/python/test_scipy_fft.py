"""cuarray.scipy.fft and cuarray.scipy.fftpack against scipy.fft and scipy.fftpack on the same inputs.

GPU tests compare values and dtypes over dtypes, norms, DCT/DST types, n/s, axes, non-contiguous and reversed
inputs, and the exception types of bad input; CPU tests check the validation done before any device use, the
workers setting, the fast lengths, the FFTLog coefficients and the public names.
"""
import warnings

import numpy
import pytest

import cuarray as cp
import cuarray.scipy.fft as cfft
import cuarray.scipy.fftpack as cfftpack
from cuarray.scipy.fft import _fftlog, _helper

sfft = pytest.importorskip("scipy.fft")
sfftpack = pytest.importorskip("scipy.fftpack")

gpu = pytest.mark.gpu

NORMS = [None, "backward", "ortho", "forward"]
REAL_DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.bool_]
DTYPES = REAL_DTYPES + [numpy.complex64, numpy.complex128]


def _data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    x = rng.standard_normal(shape) * 3
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _tol(dtype):
    return 2e-4 if numpy.dtype(dtype) in (numpy.float16, numpy.float32, numpy.complex64) else 1e-10


def _check(got, want, dtype):
    assert isinstance(got, cp.ndarray)
    host = got.get()
    assert host.dtype == want.dtype and host.shape == want.shape
    scale = max(1.0, float(numpy.abs(want).max(initial=0)))
    numpy.testing.assert_allclose(host, want, rtol=_tol(dtype), atol=_tol(dtype) * scale)


# ---- CPU: names, validation before device use, workers, fast lengths, FFTLog host parts -----------------------

def test_public_names():
    for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
                 "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift",
                 "ifftshift", "next_fast_len", "prev_fast_len", "dct", "idct", "dst", "idst", "dctn", "idctn",
                 "dstn", "idstn", "fht", "ifht", "fhtoffset", "get_workers", "set_workers", "get_fft_plan"):
        assert callable(getattr(cfft, name)), name
        assert name in cfft.__all__
    for name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "dct", "idct", "dst", "idst",
                 "dctn", "idctn", "dstn", "idstn", "diff", "tilbert", "itilbert", "hilbert", "ihilbert", "cs_diff",
                 "sc_diff", "ss_diff", "cc_diff", "shift", "fftshift", "ifftshift", "fftfreq", "rfftfreq",
                 "next_fast_len", "get_fft_plan"):
        assert callable(getattr(cfftpack, name)), name
    assert cp.scipy.fft is cfft and cp.scipy.fftpack is cfftpack


def test_signatures_match_scipy():
    import inspect
    for name in ("fft", "fftn", "fft2", "irfftn", "hfft2", "dct", "idct", "dst", "dctn", "idstn", "fht", "ifht",
                 "fhtoffset", "next_fast_len", "prev_fast_len", "set_workers"):
        want = [p for p in inspect.signature(getattr(sfft, name)).parameters]
        assert list(inspect.signature(getattr(cfft, name)).parameters) == want, name
    for name in ("dct", "idct", "dctn", "idstn", "rfftfreq", "next_fast_len"):
        want = [p for p in inspect.signature(getattr(sfftpack, name)).parameters]
        assert list(inspect.signature(getattr(cfftpack, name)).parameters) == want, name


@pytest.mark.parametrize("func", ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"])
def test_bad_type_and_norm_need_no_device(func):
    x = numpy.ones(4)
    with pytest.raises(ValueError):
        getattr(cfft, func)(x, type=5)
    with pytest.raises(ValueError):
        getattr(cfft, func)(x, norm="bad")
    with pytest.raises(ValueError):
        getattr(cfft, func)(x, workers=0)


@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "irfftn", "hfft2"])
def test_bad_norm_and_workers_need_no_device(func):
    with pytest.raises(ValueError):
        getattr(cfft, func)(numpy.ones((4, 4)), norm="bad")
    with pytest.raises(ValueError):
        getattr(cfft, func)(numpy.ones((4, 4)), workers=0)
    with pytest.raises(TypeError):
        getattr(cfft, func)(numpy.ones((4, 4)), workers=1.5)


def test_workers():
    assert cfft.get_workers() == sfft.get_workers() == 1
    with cfft.set_workers(3):
        assert cfft.get_workers() == 3
        with cfft.set_workers(-1):
            with sfft.set_workers(-1):
                assert cfft.get_workers() == sfft.get_workers()
        assert cfft.get_workers() == 3
    assert cfft.get_workers() == 1
    with pytest.raises(ValueError):
        with cfft.set_workers(0):
            pass
    with pytest.raises(ValueError):
        _helper.check_workers(-10 ** 6)


def test_next_and_prev_fast_len():
    smooth = [n for n in range(1, 2000) if _helper._smooth(n, (2, 3, 5, 7))]
    for target in range(0, 1500):
        nxt = cfft.next_fast_len(target)
        assert nxt == (0 if target == 0 else min(n for n in smooth if n >= target))
        prv = cfft.prev_fast_len(target)
        assert prv == (0 if target == 0 else max(n for n in smooth if n <= target))
        assert cfft.next_fast_len(target, real=True) == nxt
        assert cfftpack.next_fast_len(target) == sfftpack.next_fast_len(target)
    with pytest.raises(ValueError):
        cfft.next_fast_len(-1)
    with pytest.raises(TypeError):
        cfft.next_fast_len(2.5)
    with pytest.raises(ValueError):
        cfft.prev_fast_len(-3)


@pytest.mark.parametrize("dln,mu,initial,bias", [(0.1, 2.0, 0.5, 0.0), (0.05, -0.5, 0.0, 0.3), (0.2, 0.0, -1.0, -0.7)])
def test_fhtoffset(dln, mu, initial, bias):
    assert cfft.fhtoffset(dln, mu, initial, bias) == pytest.approx(sfft.fhtoffset(dln, mu, initial, bias),
                                                                  rel=1e-12, abs=1e-14)


def test_host_loggamma_fallback_matches_scipy():
    special = pytest.importorskip("scipy.special")
    for re in (-7.3, -0.5, 0.2, 1.0, 3.5, 12.0, 40.0):
        for im in (-30.0, -1.0, 0.0, 0.01, 2.0, 31.4, 300.0):
            z = complex(re, im)
            want = special.loggamma(z)
            assert abs(_fftlog._loggamma_one(z) - want) <= 1e-13 * max(1.0, abs(want))
    assert _fftlog._loggamma_one(complex(-2.0, 0.0)).real == numpy.inf


def test_fftpack_rfftfreq_validation():
    with pytest.raises(TypeError):
        cfftpack.rfftfreq(2.5)
    with pytest.raises(ValueError):
        cfftpack.rfftfreq(-1)


def test_get_fft_plan_value_type_checked():
    with pytest.raises((ValueError, TypeError)):
        cfft.get_fft_plan(numpy.ones(4), value_type="R2R")


# ---- GPU: values and dtypes against SciPy -------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("ttype", [1, 2, 3, 4])
def test_dct_dst_1d(dtype, kind, ttype):
    for n_points in (1, 2, 3, 8, 9, 16):
        x = _data((3, n_points), dtype)
        for norm in NORMS:
            for orth in (None, True, False):
                try:
                    want = getattr(sfft, kind)(x, type=ttype, norm=norm, orthogonalize=orth)
                except Exception as e:  # DCT-I of one point
                    with pytest.raises(type(e)):
                        getattr(cfft, kind)(cp.asarray(x), type=ttype, norm=norm, orthogonalize=orth)
                    continue
                got = getattr(cfft, kind)(cp.asarray(x), type=ttype, norm=norm, orthogonalize=orth)
                _check(got, want, dtype)


@gpu
@pytest.mark.parametrize("kind", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("ttype", [1, 2, 3, 4])
def test_dct_dst_n_axis_and_layouts(kind, ttype):
    x = _data((5, 6, 7), numpy.float64, seed=1)
    for n, axis in [(None, 0), (10, 1), (3, -1), (4, -3)]:
        want = getattr(sfft, kind)(x, type=ttype, n=n, axis=axis, norm="ortho")
        _check(getattr(cfft, kind)(cp.asarray(x), type=ttype, n=n, axis=axis, norm="ortho"), want, x.dtype)
    view = x[::-1, ::2, 1:]  # reversed and strided
    want = getattr(sfft, kind)(view, type=ttype, axis=1)
    _check(getattr(cfft, kind)(cp.asarray(x)[::-1, ::2, 1:], type=ttype, axis=1), want, x.dtype)
    fx = numpy.asfortranarray(x)
    _check(getattr(cfft, kind)(cp.asarray(fx), type=ttype, axis=0), getattr(sfft, kind)(fx, type=ttype, axis=0),
           x.dtype)
    f32 = x.astype(numpy.float32)
    _check(getattr(cfft, kind)(cp.asarray(f32), type=ttype, axis=2), getattr(sfft, kind)(f32, type=ttype, axis=2),
           numpy.float32)


@gpu
@pytest.mark.parametrize("kind", ["dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("ttype", [1, 2, 3, 4])
def test_dctn_dstn(kind, ttype):
    x = _data((4, 5, 6), numpy.float64, seed=2)
    for s, axes in [(None, None), ((3, 7), None), (None, (0, 2)), ((5, 4), (2, 0)), (None, ()), (None, 1)]:
        for norm in (None, "ortho", "forward"):
            want = getattr(sfft, kind)(x, ttype, s, axes, norm)
            _check(getattr(cfft, kind)(cp.asarray(x), ttype, s, axes, norm), want, x.dtype)
    c = _data((4, 5), numpy.complex64, seed=3)
    _check(getattr(cfft, kind)(cp.asarray(c), ttype), getattr(sfft, kind)(c, ttype), numpy.complex64)
    want = getattr(sfftpack, kind)(x, ttype, (3, 4, 8), None, "ortho")
    _check(getattr(cfftpack, kind)(cp.asarray(x), ttype, (3, 4, 8), None, "ortho"), want, x.dtype)


@gpu
def test_real_transform_errors():
    x = cp.asarray(_data((4, 5), numpy.float64))
    with pytest.raises(ValueError):
        cfft.dct(x, n=0)
    with pytest.raises(IndexError):
        cfft.dct(x, axis=2)
    with pytest.raises(IndexError):
        cfft.dct(cp.asarray(numpy.float64(1.0)))
    with pytest.raises(ValueError):
        cfft.dct(cp.zeros(0))
    with pytest.raises(ValueError):
        cfft.dctn(x, axes=(0, 0))
    with pytest.raises(ValueError):
        cfft.dctn(x, axes=(2,))
    with pytest.raises(ValueError):
        cfft.dctn(x, s=(0, 3))
    with pytest.raises(ValueError):
        cfft.dstn(x, s=(1, 2, 3))
    with pytest.raises(RuntimeError):
        cfft.dct(cp.ones(1), type=1)
    with pytest.raises(TypeError):
        cfft.dct(x, n=2.5)
    zero_d = cfft.dctn(cp.asarray(numpy.float64(3.0)))
    assert zero_d.shape == () and float(zero_d) == 3.0


@gpu
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.int64, numpy.complex64,
                                   numpy.complex128])
@pytest.mark.parametrize("norm", NORMS)
def test_one_dimensional_ffts(dtype, norm):
    x = _data((4, 6, 5), dtype)
    xr = _data((4, 6, 5), dtype if numpy.dtype(dtype).kind != "c" else numpy.float64)
    for func, data in [("fft", x), ("ifft", x), ("hfft", x), ("irfft", x), ("rfft", xr), ("ihfft", xr)]:
        for n, axis in [(None, -1), (7, 0), (3, 1)]:
            want = getattr(sfft, func)(data, n, axis, norm)
            _check(getattr(cfft, func)(cp.asarray(data), n, axis, norm), want, dtype)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_n_dimensional_ffts(dtype, norm):
    x = _data((4, 6, 5), dtype)
    xr = _data((4, 6, 5), dtype if numpy.dtype(dtype).kind != "c" else numpy.float64)
    cases = [(None, None), ((3, 8), None), (None, (0, 2)), ((5, 4), (2, 0)), ((3, -1), (1, 0))]
    for func in ("fft2", "ifft2", "fftn", "ifftn", "irfft2", "irfftn", "hfft2", "hfftn"):
        for s, axes in cases:
            if func.endswith("2") and axes is None:
                axes = (-2, -1)
            want = getattr(sfft, func)(x, s, axes, norm)
            _check(getattr(cfft, func)(cp.asarray(x), s, axes, norm), want, dtype)
    for func in ("rfft2", "rfftn", "ihfft2", "ihfftn"):
        for s, axes in cases[:4]:
            if func.endswith("2") and axes is None:
                axes = (-2, -1)
            want = getattr(sfft, func)(xr, s, axes, norm)
            _check(getattr(cfft, func)(cp.asarray(xr), s, axes, norm), want, dtype)
    view = x[:, ::-2, 1:]
    _check(cfft.fftn(cp.asarray(x)[:, ::-2, 1:], axes=(0, 1)), sfft.fftn(view, axes=(0, 1)), dtype)


@gpu
def test_fft_errors_and_edge_cases():
    x = cp.asarray(_data((4, 5), numpy.float64))
    with pytest.raises(IndexError):
        cfft.fft(cp.asarray(numpy.float64(1.0)))
    with pytest.raises(ValueError):
        cfft.fft(cp.zeros(0))
    with pytest.raises(IndexError):
        cfft.fft(x, axis=2)
    with pytest.raises(ValueError):
        cfft.fft(x, 0)
    with pytest.raises(TypeError):
        cfft.fft(x, 2.5)
    with pytest.raises(ValueError):
        cfft.fftn(x, axes=(0, 0))
    with pytest.raises(ValueError):
        cfft.fftn(x, axes=(2,))
    with pytest.raises(ValueError):
        cfft.fftn(x, s=(1, 2, 3))
    with pytest.raises(ValueError):
        cfft.rfftn(x, axes=())
    with pytest.raises(ValueError):
        cfft.irfft(cp.ones(1))
    with pytest.raises(TypeError):
        cfft.rfft(x + 1j)
    same = cfft.fftn(x, axes=())
    assert same.dtype == numpy.float64 and numpy.array_equal(same.get(), x.get())
    one = numpy.ones((2, 1))
    _check(cfft.irfftn(cp.asarray(one)), sfft.irfftn(one), numpy.float64)


@gpu
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.int32])
def test_fftpack_transforms(dtype):
    x = _data((4, 6, 5), dtype)
    for n in (None, 1, 2, 3, 6, 9):
        _check(cfftpack.rfft(cp.asarray(x), n), sfftpack.rfft(x, n), dtype)
        _check(cfftpack.irfft(cp.asarray(x), n, 1), sfftpack.irfft(x, n, 1), dtype)
        _check(cfftpack.fft(cp.asarray(x), n, 0), sfftpack.fft(x, n, 0), dtype)
        _check(cfftpack.ifft(cp.asarray(x), n, 0), sfftpack.ifft(x, n, 0), dtype)
    _check(cfftpack.fftn(cp.asarray(x)), sfftpack.fftn(x), dtype)
    _check(cfftpack.ifft2(cp.asarray(x), (3, 9)), sfftpack.ifft2(x, (3, 9)), dtype)
    _check(cfftpack.fftn(cp.asarray(x), (3, 9), (2, 0)), sfftpack.fftn(x, (3, 9), (2, 0)), dtype)
    for ttype in (1, 2, 3, 4):
        for func in ("dct", "idct", "dst", "idst"):
            for norm in (None, "ortho"):
                want = getattr(sfftpack, func)(x, ttype, 7, 1, norm)
                _check(getattr(cfftpack, func)(cp.asarray(x), ttype, 7, 1, norm), want, dtype)
    with pytest.raises(TypeError):
        cfftpack.rfft(cp.asarray(x) + 1j)
    with pytest.raises(ValueError):
        cfftpack.fftn(cp.asarray(x), (2, 2))


@gpu
@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 16])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
def test_fftpack_pseudo_differential_operators(n, dtype):
    x = _data(n, dtype, seed=n)
    for func, args in [("diff", ()), ("diff", (2,)), ("diff", (3, 2.5)), ("diff", (0,)), ("tilbert", (0.7,)),
                       ("itilbert", (0.7, 3.0)), ("hilbert", ()), ("ihilbert", ()), ("cs_diff", (0.5, 0.8)),
                       ("sc_diff", (0.5, 0.8, 3.0)), ("ss_diff", (0.5, 0.8)), ("cc_diff", (0.5, 0.8)),
                       ("shift", (0.3,)), ("shift", (1.3, 4.0))]:
        want = getattr(sfftpack, func)(x, *args)
        got = getattr(cfftpack, func)(cp.asarray(x), *args)
        scale = max(1.0, float(numpy.abs(want).max()))
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got.get(), want, rtol=1e-9, atol=1e-9 * scale)
    with pytest.raises(ValueError):
        cfftpack.diff(cp.ones((3, 3)))


@gpu
def test_fftpack_frequencies():
    for n in range(8):
        _check(cfftpack.rfftfreq(n, 0.3), sfftpack.rfftfreq(n, 0.3), numpy.float64)


@gpu
@pytest.mark.parametrize("n", [1, 2, 7, 8, 64])
@pytest.mark.parametrize("mu,offset,bias", [(0.5, 0.0, 0.0), (2.0, 0.3, 0.0), (-0.5, 0.1, 0.7), (1.0, 0.0, -0.4)])
def test_fht_ifht(n, mu, offset, bias):
    a = _data((2, n), numpy.float64, seed=n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check(cfft.fht(cp.asarray(a), 0.05, mu, offset, bias), sfft.fht(a, 0.05, mu, offset, bias), a.dtype)
        _check(cfft.ifht(cp.asarray(a), 0.05, mu, offset, bias), sfft.ifht(a, 0.05, mu, offset, bias), a.dtype)
    if bias == 0:
        a32 = a.astype(numpy.float32)
        _check(cfft.fht(cp.asarray(a32), 0.1, mu, offset), sfft.fht(a32, 0.1, mu, offset), numpy.float32)


@gpu
def test_get_fft_plan_and_plan_keyword():
    from cuarray.cuda import cufft
    x = _data((3, 16), numpy.complex128)
    a = cp.asarray(x)
    plan = cfft.get_fft_plan(a, axes=-1)
    assert isinstance(plan, cufft.Plan1d) and plan.fft_type == cufft.CUFFT_Z2Z
    _check(cfft.fft(a, plan=plan), sfft.fft(x), x.dtype)
    _check(cfftpack.ifft(a, plan=plan), sfftpack.ifft(x), x.dtype)
    with plan:
        _check(cfft.fft(a), sfft.fft(x), x.dtype)
    with pytest.raises(ValueError):
        cfft.fft(a, n=8, plan=plan)  # the plan is for 16 points
    plan2 = cfft.get_fft_plan(a)
    assert isinstance(plan2, cufft.PlanNd)
    _check(cfft.fftn(a, plan=plan2), sfft.fftn(x), x.dtype)
    r = _data((3, 16), numpy.float32)
    rplan = cfft.get_fft_plan(cp.asarray(r), value_type="R2C", axes=1)
    assert rplan.fft_type == cufft.CUFFT_R2C
    _check(cfft.rfft(cp.asarray(r), plan=rplan), sfft.rfft(r), numpy.float32)
    spec = sfft.rfft(r)
    cplan = cfft.get_fft_plan(cp.asarray(spec), shape=(16,), axes=(1,), value_type="C2R")
    assert cplan.fft_type == cufft.CUFFT_C2R
    _check(cfft.irfft(cp.asarray(spec), 16, plan=cplan), sfft.irfft(spec, 16), numpy.float32)
    with pytest.raises(ValueError):
        cfft.get_fft_plan(cp.asarray(_data((4, 6, 8), numpy.complex64))[:, :, ::2])
    with pytest.raises(ValueError):
        cfft.get_fft_plan(a, shape=(4, 4), axes=(0,))
    with pytest.raises(TypeError):
        cfft.fft(a, plan=object())
