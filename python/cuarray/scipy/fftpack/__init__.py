"""cuarray.scipy.fftpack: SciPy's legacy scipy.fftpack interface on the GPU (CuPy's cupyx.scipy.fftpack).

As SciPy's: rfft/irfft use fftpack's packed real format, idct/idst are the unnormalised transforms of the
inverse type, `shape` names the n-D lengths. The pseudo-differential operators (diff, tilbert, hilbert...) run
as one rfft, a multiply by their kernel (evaluated on the host) and one irfft; as SciPy's they take 1-D arrays
and compute in float64 (complex input: real and imaginary parts separately). get_fft_plan is CuPy's.
"""
import math
import operator

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.fft import fftfreq, fftshift, ifftshift
from cuarray.scipy.fft import _helper
from cuarray.scipy.fft import _plan
from cuarray.scipy.fft import _realtransforms as _rt
from cuarray.scipy.fft._plan import get_fft_plan


def _one(func, x, n, axis, plan):
    x = _helper.as_float(x)
    length = _helper.axis_length(x, axis)
    _helper.check_n(length if n is None else n)
    with _plan.using(plan):
        return func(x, n=n, axis=axis)


def fft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The 1-D discrete Fourier transform (scipy.fftpack.fft)."""
    return _one(_fft.fft, x, n, axis, plan)


def ifft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The 1-D inverse discrete Fourier transform, scaled by 1/n (scipy.fftpack.ifft)."""
    return _one(_fft.ifft, x, n, axis, plan)


def _n_d(func, x, shape, axes, plan):
    x = _helper.as_array(x)
    s, axes = _helper.fftpack_shape_and_axes(x, shape, axes)
    if not axes:
        return x.copy()
    with _plan.using(plan):
        return func(_helper.as_float(x), s=s, axes=axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False, plan=None):
    """The 2-D discrete Fourier transform (scipy.fftpack.fft2)."""
    return _n_d(_fft.fftn, x, shape, axes, plan)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False, plan=None):
    """The 2-D inverse discrete Fourier transform (scipy.fftpack.ifft2)."""
    return _n_d(_fft.ifftn, x, shape, axes, plan)


def fftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """The n-D discrete Fourier transform (scipy.fftpack.fftn); `shape`, when given, names every axis' length."""
    return _n_d(_fft.fftn, x, shape, axes, plan)


def ifftn(x, shape=None, axes=None, overwrite_x=False, plan=None):
    """The n-D inverse discrete Fourier transform (scipy.fftpack.ifftn)."""
    return _n_d(_fft.ifftn, x, shape, axes, plan)


def _real_only(x):
    x = _helper.as_float(x)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    return x


def rfft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The transform of real input in fftpack's packed format: [y(0), Re y(1), Im y(1), ..., Re y(n/2)] (the
    last Im term only for odd n), real, of x's precision (scipy.fftpack.rfft)."""
    x = _real_only(x)
    length = _helper.axis_length(x, axis)
    n = _helper.check_n(length if n is None else n)
    axis = operator.index(axis) % x.ndim
    with _plan.using(plan):
        spec = _fft.rfft(_cp.moveaxis(x, axis, -1), n=n)
    pairs = _cp.stack([spec[..., 1:].real, spec[..., 1:].imag], axis=-1)
    pairs = pairs.reshape(pairs.shape[:-2] + (pairs.shape[-2] * 2,))
    packed = _cp.concatenate([spec[..., :1].real, pairs[..., :n - 1]], axis=-1)
    return _cp.moveaxis(packed, -1, axis)


def irfft(x, n=None, axis=-1, overwrite_x=False, plan=None):
    """The inverse of fftpack's rfft: x in the packed real format, a real result of length n, scaled by 1/n
    (scipy.fftpack.irfft)."""
    x = _real_only(x)
    length = _helper.axis_length(x, axis)
    n = _helper.check_n(length if n is None else n)
    axis = operator.index(axis) % x.ndim
    x = _cp.moveaxis(_helper.resize(x, n, axis), axis, -1)
    # Zero-padded to 2 * terms - 1 values, the packed array splits into the real and imaginary parts of terms 1...
    terms = n // 2 + 1
    padded = _helper.resize(x, 2 * terms - 1, -1)
    spec = _cp.concatenate([padded[..., :1] + 0j, padded[..., 1::2] + 1j * padded[..., 2::2]], axis=-1)
    with _plan.using(plan):
        out = _fft.irfft(spec, n=n)
    return _cp.moveaxis(out, -1, axis)


# ---- real transforms: fftpack's inverses keep the norm (unnormalised by default) --------------------------------

def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The discrete cosine transform (scipy.fftpack.dct)."""
    return _rt.transform_1d(x, "dct", type, n, axis, norm, None)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The DCT of the inverse type, with the same norm (scipy.fftpack.idct: unnormalised for norm=None)."""
    return _rt.transform_1d(x, "dct", _rt._INVERSE.get(type, type), n, axis, norm, None)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The discrete sine transform (scipy.fftpack.dst)."""
    return _rt.transform_1d(x, "dst", type, n, axis, norm, None)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False):
    """The DST of the inverse type, with the same norm (scipy.fftpack.idst)."""
    return _rt.transform_1d(x, "dst", _rt._INVERSE.get(type, type), n, axis, norm, None)


def dctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The n-D discrete cosine transform (scipy.fftpack.dctn)."""
    return _rt.transform_nd(x, "dct", type, shape, axes, norm, None, fftpack=True)


def idctn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The n-D DCT of the inverse type (scipy.fftpack.idctn)."""
    return _rt.transform_nd(x, "dct", _rt._INVERSE.get(type, type), shape, axes, norm, None, fftpack=True)


def dstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The n-D discrete sine transform (scipy.fftpack.dstn)."""
    return _rt.transform_nd(x, "dst", type, shape, axes, norm, None, fftpack=True)


def idstn(x, type=2, shape=None, axes=None, norm=None, overwrite_x=False):
    """The n-D DST of the inverse type (scipy.fftpack.idstn)."""
    return _rt.transform_nd(x, "dst", _rt._INVERSE.get(type, type), shape, axes, norm, None, fftpack=True)


# ---- pseudo-differential operators -----------------------------------------------------------------------------
# Each is a circular convolution: multiply the spectrum by a kernel of the signed frequency k (k - n above n/2).
# `odd` kernels multiply by i * kernel(k) and have their Nyquist term cleared, as fftpack's packed format does.

def _apply(x, kernel, odd, zero_nyquist=None, nyquist=None):
    x = _helper.as_array(x)
    if x.ndim != 1:
        raise ValueError("Buffer has wrong number of dimensions (expected 1, got {})".format(x.ndim))
    if x.dtype.kind == "c":
        return (_apply(x.real, kernel, odd, zero_nyquist, nyquist) +
                1j * _apply(x.imag, kernel, odd, zero_nyquist, nyquist))
    x = x.astype(numpy.float64)
    n = x.shape[0]
    if n == 0:
        raise ValueError("invalid number of data points (0) specified")
    k = numpy.arange(n // 2 + 1, dtype=numpy.float64)  # the rfft's frequencies; irfft implies k < 0
    with numpy.errstate(all="ignore"):
        h = numpy.array([kernel(float(v)) for v in k], dtype=numpy.complex128)
    if odd:
        h = 1j * h
    if n % 2 == 0 and (odd if zero_nyquist is None else zero_nyquist):
        h[-1] = 0
    if n % 2 == 0 and nyquist is not None:
        h[-1] = nyquist(n // 2)
    spec = _fft.rfft(x) * _cp.asarray(h)
    return _fft.irfft(spec, n=n)


def diff(x, order=1, period=None):
    """The order-th derivative of a periodic sequence (scipy.fftpack.diff): kernel (i c k)^order,
    c = 2 pi / period (1 when None)."""
    if order == 0:
        return _helper.as_array(x)
    c = 2 * math.pi / period if period is not None else 1.0
    odd = order % 2 == 1
    sign = (-1) ** (order // 2)

    def kernel(k):
        return sign * (c * k) ** order if k else 0.0
    return _apply(x, kernel, odd, zero_nyquist=True)


def tilbert(x, h, period=None):
    """The h-Tilbert transform (scipy.fftpack.tilbert): kernel i coth(h k)."""
    if period is not None:
        h = h * 2 * math.pi / period
    return _apply(x, lambda k: 1.0 / math.tanh(h * k) if k else 0.0, True)


def itilbert(x, h, period=None):
    """The inverse h-Tilbert transform (scipy.fftpack.itilbert): kernel -i tanh(h k)."""
    if period is not None:
        h = h * 2 * math.pi / period
    return _apply(x, lambda k: -math.tanh(h * k) if k else 0.0, True)


def hilbert(x):
    """The Hilbert transform of a periodic sequence (scipy.fftpack.hilbert): kernel i sign(k)."""
    return _apply(x, lambda k: 1.0 if k > 0 else 0.0, True)


def ihilbert(x):
    """The inverse Hilbert transform: -hilbert(x) (scipy.fftpack.ihilbert)."""
    return -hilbert(x)


def _scaled(a, b, period):
    if period is not None:
        return a * 2 * math.pi / period, b * 2 * math.pi / period
    return a, b


def cs_diff(x, a, b, period=None):
    """The (a, b)-cosh/sinh pseudo-derivative (scipy.fftpack.cs_diff): kernel -i cosh(a k) / sinh(b k)."""
    a, b = _scaled(a, b, period)
    return _apply(x, lambda k: -math.cosh(a * k) / math.sinh(b * k) if k else 0.0, True)


def sc_diff(x, a, b, period=None):
    """The (a, b)-sinh/cosh pseudo-derivative (scipy.fftpack.sc_diff): kernel i sinh(a k) / cosh(b k)."""
    a, b = _scaled(a, b, period)
    return _apply(x, lambda k: math.sinh(a * k) / math.cosh(b * k) if k else 0.0, True)


def ss_diff(x, a, b, period=None):
    """The (a, b)-sinh/sinh pseudo-derivative (scipy.fftpack.ss_diff): kernel sinh(a k) / sinh(b k), a / b at 0."""
    a, b = _scaled(a, b, period)
    return _apply(x, lambda k: math.sinh(a * k) / math.sinh(b * k) if k else float(a) / b, False)


def cc_diff(x, a, b, period=None):
    """The (a, b)-cosh/cosh pseudo-derivative (scipy.fftpack.cc_diff): kernel cosh(a k) / cosh(b k)."""
    a, b = _scaled(a, b, period)
    return _apply(x, lambda k: math.cosh(a * k) / math.cosh(b * k), False)


def shift(x, a, period=None):
    """x shifted by a (scipy.fftpack.shift): kernel exp(i a k), the Nyquist term keeping cos(a n / 2)."""
    if period is not None:
        a = a * 2 * math.pi / period
    # fftpack's packed format has one real Nyquist term, which its shift multiplies by cos(a k) + sin(a k).
    return _apply(x, lambda k: complex(math.cos(a * k), math.sin(a * k)), False,
                  nyquist=lambda k: math.cos(a * k) + math.sin(a * k))


# ---- helpers --------------------------------------------------------------------------------------------------

def rfftfreq(n, d=1.0):
    """The frequencies of fftpack's packed rfft: [0, 1, 1, 2, 2, ...] / (n * d) (scipy.fftpack.rfftfreq)."""
    n = operator.index(n)
    if n < 0:
        raise ValueError("n = {} is not valid. n must be a nonnegative integer.".format(n))
    return (_cp.arange(1, n + 1, dtype=numpy.int64) // 2) / float(n * d)


def next_fast_len(target):
    """The smallest 5-smooth length >= target (scipy.fftpack.next_fast_len)."""
    return _helper.next_regular_len(target)


__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "dct", "idct", "dst", "idst", "dctn",
           "idctn", "dstn", "idstn", "diff", "tilbert", "itilbert", "hilbert", "ihilbert", "cs_diff", "sc_diff",
           "ss_diff", "cc_diff", "shift", "fftshift", "ifftshift", "fftfreq", "rfftfreq", "next_fast_len",
           "get_fft_plan"]
