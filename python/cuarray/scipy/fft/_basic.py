"""SciPy's scipy.fft transforms over cuarray.fft (cuFFT): SciPy's dtypes, argument checks and keywords."""
from cuarray import fft as _fft
from cuarray.scipy.fft import _helper
from cuarray.scipy.fft import _plan

# `overwrite_x` lets SciPy reuse the input's memory; cuarray never writes the input, which the flag allows.
# `workers` is validated as SciPy does and has no effect on the GPU (see _helper.check_workers).


def _one(func, x, n, axis, norm, workers, plan, real_out=False):
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    length = _helper.axis_length(x, axis)
    if n is None:
        if not real_out:
            _helper.check_n(length)
    else:
        n = _helper.check_n(n)
    with _plan.using(plan):
        return func(x, n=n, axis=axis, norm=norm)


def fft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 1-D discrete Fourier transform (scipy.fft.fft)."""
    return _one(_fft.fft, x, n, axis, norm, workers, plan)


def ifft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 1-D inverse discrete Fourier transform (scipy.fft.ifft)."""
    return _one(_fft.ifft, x, n, axis, norm, workers, plan)


def rfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 1-D transform of real input: n // 2 + 1 terms (scipy.fft.rfft)."""
    return _one(_fft.rfft, x, n, axis, norm, workers, plan)


def _c2r_length(x, n, axis):
    if n is None:
        n = 2 * (_helper.axis_length(x, axis) - 1)
        if n < 1:
            raise ValueError("Invalid number of data points ({}) specified".format(n))
    return n


def irfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of rfft: a real result of length n, default 2 * (m - 1) (scipy.fft.irfft)."""
    _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    return _one(_fft.irfft, x, _c2r_length(x, n, axis), axis, norm, workers, plan, real_out=True)


def hfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The transform of a Hermitian-symmetric signal given by its first half: a real result (scipy.fft.hfft)."""
    _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    return _one(_fft.hfft, x, _c2r_length(x, n, axis), axis, norm, workers, plan, real_out=True)


def ihfft(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of hfft (scipy.fft.ihfft)."""
    return _one(_fft.ihfft, x, n, axis, norm, workers, plan)


# ---- n-dimensional ----------------------------------------------------------------------------------------------

def _c2c_n(func, x, s, axes, norm, workers, plan):
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_array(x)
    s, axes = _helper.nd_shape_and_axes(x, s, axes)
    if not axes:
        return x.copy()  # SciPy returns an unconverted copy
    x = _helper.as_float(x)
    with _plan.using(plan):
        return func(x, s=s, axes=axes, norm=norm)


def _r2c_n(x, s, axes, norm, workers, plan):
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    s, axes = _helper.nd_shape_and_axes(x, s, axes)
    if not axes:
        raise ValueError("at least 1 axis must be transformed")
    with _plan.using(plan):
        return _fft.rfftn(x, s=s, axes=axes, norm=norm)


def _c2r_n(x, s, axes, norm, workers, plan):
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    given = s is not None
    s, axes = _helper.nd_shape_and_axes(x, s, axes)
    if not axes:
        raise ValueError("at least 1 axis must be transformed")
    if not given:
        # pocketfft reads a default length of 0 (one input term) as 2 * 1 - 1 = 1; SciPy keeps that.
        s[-1] = max(2 * (x.shape[axes[-1]] - 1), 1)
    if _plan.is_nd_c2r(plan) and len(axes) > 1:
        if sorted(plan.shape) != sorted(s) or plan.last_size != s[-1]:
            raise ValueError("the cuFFT plan in use (lengths {}) does not match the transform (lengths {})".format(
                plan.shape, tuple(s)))
        plan = None
    with _plan.using(plan):
        return _fft.irfftn(x, s=s, axes=axes, norm=norm)


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D discrete Fourier transform (scipy.fft.fft2)."""
    return _c2c_n(_fft.fftn, x, s, axes, norm, workers, plan)


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D inverse discrete Fourier transform (scipy.fft.ifft2)."""
    return _c2c_n(_fft.ifftn, x, s, axes, norm, workers, plan)


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The n-D discrete Fourier transform (scipy.fft.fftn); s without axes names the last len(s) axes."""
    return _c2c_n(_fft.fftn, x, s, axes, norm, workers, plan)


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The n-D inverse discrete Fourier transform (scipy.fft.ifftn)."""
    return _c2c_n(_fft.ifftn, x, s, axes, norm, workers, plan)


def rfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D transform of real input (scipy.fft.rfft2)."""
    return _r2c_n(x, s, axes, norm, workers, plan)


def irfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of rfft2 (scipy.fft.irfft2)."""
    return _c2r_n(x, s, axes, norm, workers, plan)


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The n-D transform of real input, the last axis halved (scipy.fft.rfftn)."""
    return _r2c_n(x, s, axes, norm, workers, plan)


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of rfftn (scipy.fft.irfftn); the last axis' length defaults to 2 * (m - 1)."""
    return _c2r_n(x, s, axes, norm, workers, plan)


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The n-D transform of a Hermitian-symmetric signal: irfftn of the conjugate with the norm's direction
    swapped (scipy.fft.hfftn); a real result."""
    norm = _helper.swap_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    return _c2r_n(x.conj(), s, axes, norm, workers, plan)


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The inverse of hfftn: the conjugate of rfftn with the norm's direction swapped (scipy.fft.ihfftn)."""
    return _r2c_n(x, s, axes, _helper.swap_norm(norm), workers, plan).conj()


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D form of hfftn (scipy.fft.hfft2)."""
    return hfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The 2-D form of ihfftn (scipy.fft.ihfft2)."""
    return ihfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)
