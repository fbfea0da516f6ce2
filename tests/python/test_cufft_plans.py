"""cuarray.cuda.cufft: explicit plans (Plan1d, PlanNd), `with plan:`, and the fft.config plan cache object."""
import numpy
import pytest

import cuarray as cp
from cuarray.cuda import cufft
from cuarray.fft import config

gpu = pytest.mark.gpu


def test_constants():
    assert (cufft.CUFFT_C2C, cufft.CUFFT_R2C, cufft.CUFFT_C2R) == (0x29, 0x2a, 0x2c)
    assert (cufft.CUFFT_Z2Z, cufft.CUFFT_D2Z, cufft.CUFFT_Z2D) == (0x69, 0x6a, 0x6c)
    assert (cufft.CUFFT_FORWARD, cufft.CUFFT_INVERSE) == (-1, 1)
    assert cufft.get_current_plan() is None


def test_plan_argument_checks_need_no_device():
    with pytest.raises(ValueError):
        cufft.Plan1d(8, 0x1234, 1)
    with pytest.raises(RuntimeError):
        cufft.Plan1d(8, cufft.CUFFT_C2C, 1, devices=[0, 1])
    with pytest.raises(ValueError):
        cufft.PlanNd((4, 4), None, 1, 16, None, 1, 16, cufft.CUFFT_C2C, 1, "X", -1, None)


def test_set_cufft_gpus():
    with pytest.raises(ValueError):
        config.set_cufft_gpus(1)
    with pytest.raises(ValueError):
        config.set_cufft_gpus("0,1")
    with pytest.raises(RuntimeError):
        config.set_cufft_gpus([0, 1])


def test_plan_cache_interface():
    cache = config.get_plan_cache()
    for name in ("get_size", "set_size", "get_memsize", "set_memsize", "get_curr_size", "get_curr_memsize",
                 "clear", "show_info"):
        assert callable(getattr(cache, name))
    with pytest.raises(ValueError):
        cache.set_size(-2)


def _rand(shape, dtype):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@gpu
@pytest.mark.parametrize("fft_type,dtype", [(cufft.CUFFT_C2C, numpy.complex64), (cufft.CUFFT_Z2Z, numpy.complex128)])
def test_plan1d_c2c_both_directions(fft_type, dtype):
    x = _rand((3, 16), dtype)
    plan = cufft.Plan1d(16, fft_type, 3)
    a = cp.asarray(x)
    out = plan.get_output_array(a)
    assert out.shape == (3, 16) and out.dtype == dtype
    plan.fft(a, out, cufft.CUFFT_FORWARD)
    rtol = 1e-4 if dtype == numpy.complex64 else 1e-10
    numpy.testing.assert_allclose(cp.asnumpy(out), numpy.fft.fft(x), rtol=rtol, atol=rtol * 10)
    back = plan.get_output_array(out)
    plan.fft(out, back, cufft.CUFFT_INVERSE)
    numpy.testing.assert_allclose(cp.asnumpy(back) / 16, x, rtol=rtol, atol=rtol * 10)


@gpu
def test_plan1d_r2c_c2r():
    x = _rand((4, 10), numpy.float64)
    fwd = cufft.Plan1d(10, cufft.CUFFT_D2Z, 4)
    a = cp.asarray(x)
    out = fwd.get_output_array(a)
    assert out.shape == (4, 6) and out.dtype == numpy.complex128
    fwd.fft(a, out, cufft.CUFFT_FORWARD)
    numpy.testing.assert_allclose(cp.asnumpy(out), numpy.fft.rfft(x), atol=1e-10)
    inv = cufft.Plan1d(10, cufft.CUFFT_Z2D, 4)
    back = inv.get_output_array(out)
    assert back.shape == (4, 10) and back.dtype == numpy.float64
    inv.fft(out.copy(), back, cufft.CUFFT_INVERSE)
    numpy.testing.assert_allclose(cp.asnumpy(back) / 10, x, atol=1e-10)


@gpu
def test_plan_rejects_wrong_operands():
    plan = cufft.Plan1d(16, cufft.CUFFT_C2C, 2)
    with pytest.raises(ValueError):  # dtype
        plan.fft(cp.zeros((2, 16), cp.complex128), cp.zeros((2, 16), cp.complex64), cufft.CUFFT_FORWARD)
    with pytest.raises(ValueError):  # too small: the plan would read past it
        plan.fft(cp.zeros((1, 16), cp.complex64), cp.zeros((2, 16), cp.complex64), cufft.CUFFT_FORWARD)
    with pytest.raises(ValueError):
        plan.fft(cp.zeros((2, 16), cp.complex64), cp.zeros((2, 16), cp.complex64), 0)


@gpu
def test_plannd_c2c_and_r2c():
    x = _rand((2, 8, 6), numpy.complex128)
    plan = cufft.PlanNd((8, 6), None, 1, 48, None, 1, 48, cufft.CUFFT_Z2Z, 2, "C", -1, None)
    a = cp.asarray(x)
    out = plan.get_output_array(a)
    plan.fft(a, out, cufft.CUFFT_FORWARD)
    numpy.testing.assert_allclose(cp.asnumpy(out), numpy.fft.fftn(x, axes=(1, 2)), atol=1e-9)

    r = _rand((8, 6), numpy.float32)
    rplan = cufft.PlanNd((8, 6), None, 1, 48, None, 1, 24, cufft.CUFFT_R2C, 1, "C", -1, None)
    ra = cp.asarray(r)
    rout = rplan.get_output_array(ra)
    assert rout.shape == (8, 4) and rout.dtype == numpy.complex64
    rplan.fft(ra, rout, cufft.CUFFT_FORWARD)
    numpy.testing.assert_allclose(cp.asnumpy(rout), numpy.fft.rfft2(r), rtol=1e-4, atol=1e-4)


@gpu
def test_with_plan_drives_cuarray_fft():
    x = _rand((5, 32), numpy.complex64)
    plan = cufft.Plan1d(32, cufft.CUFFT_C2C, 5)
    a = cp.asarray(x)
    with plan:
        assert cufft.get_current_plan() is plan
        got = cp.fft.fft(a)
        inv = cp.fft.ifft(got)
        with pytest.raises(ValueError):  # another length does not match the plan
            cp.fft.fft(a, n=16)
        with pytest.raises(ValueError):  # another dtype does not match the plan
            cp.fft.fft(a.astype(cp.complex128))
        strided = cp.fft.fft(cp.asarray(x.T.copy()).T)  # a strided input is copied to the plan's layout
    assert cufft.get_current_plan() is None
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.fft.fft(x), rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(cp.asnumpy(inv), x, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(cp.asnumpy(strided), numpy.fft.fft(x), rtol=1e-4, atol=1e-4)


@gpu
def test_with_plan1d_runs_square_fft2_axis_by_axis():
    x = _rand((16, 16), numpy.complex64)
    with cufft.Plan1d(16, cufft.CUFFT_C2C, 16):
        got = cp.fft.fft2(cp.asarray(x))
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.fft.fft2(x), rtol=1e-3, atol=1e-3)


@gpu
def test_with_plannd_drives_fftn():
    x = _rand((3, 8, 4), numpy.complex128)
    with cufft.PlanNd((8, 4), None, 1, 32, None, 1, 32, cufft.CUFFT_Z2Z, 3, "C", -1, None):
        got = cp.fft.fftn(cp.asarray(x), axes=(1, 2))
        with pytest.raises(ValueError):
            cp.fft.fftn(cp.asarray(x), axes=(0, 1))
    numpy.testing.assert_allclose(cp.asnumpy(got), numpy.fft.fftn(x, axes=(1, 2)), atol=1e-9)


@gpu
def test_plan_cache_counts_cached_plans():
    cache = config.get_plan_cache()
    cache.clear()
    size = cache.get_size()
    try:
        cp.fft.fft(cp.ones(64, cp.complex64))
        assert cache.get_curr_size() == 1 and cache.get_curr_memsize() >= 0
        cache.set_size(0)
        assert cache.get_curr_size() == 0
    finally:
        cache.set_size(size)
        cache.clear()
