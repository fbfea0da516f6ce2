"""Discrete cosine and sine transforms (SciPy's dct, dst, idct, idst and their n-D forms), types 1-4, over cuFFT.

Note [real transforms by FFT]: each 1-D transform runs along the last axis of a real array, by one FFT:
types 2 and 3 by Makhoul's reordering (an N-point FFT of the even-then-reversed-odd samples, with a quarter-
sample twiddle), type 1 as the rfft of the even (DCT) or odd (DST) extension of length 2(N -/+ 1), type 4 as a
2N-point FFT of the samples twisted by exp(-i pi n / 2N). DST-2/3 reuse DCT-2/3 on sign-alternated or reversed
data. Complex input is transformed as its real and imaginary parts (the transforms are real and linear).
Twiddles are computed on the host in float64 and rounded to the working precision: float32 stays float32.
"""
import math
import operator

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.scipy.fft import _helper

_SQRT2 = math.sqrt(2.0)


def _device(values, dtype):
    return _cp.asarray(numpy.asarray(values).astype(dtype))


def _twiddle(n, scale, cdtype):
    """exp(i * pi * scale * k) for k < n, in cdtype."""
    return _device(numpy.exp(1j * numpy.pi * scale * numpy.arange(n)), cdtype)


def _complex_of(rdtype):
    return numpy.complex64 if rdtype == numpy.float32 else numpy.complex128


def _dct2(x):
    n = x.shape[-1]
    v = _cp.concatenate([x[..., ::2], x[..., 1::2][..., ::-1]], axis=-1)
    big_v = _fft.fft(v)
    return 2 * (big_v * _twiddle(n, -0.5 / n, big_v.dtype)).real


def _dct3(x):
    n = x.shape[-1]
    cdt = _complex_of(x.dtype)
    x_rev = _cp.concatenate([_cp.zeros(x.shape[:-1] + (1,), x.dtype), x[..., :0:-1]], axis=-1)
    big_v = (x - 1j * x_rev) * _twiddle(n, 0.5 / n, cdt)
    v = _fft.ifft(big_v, norm="forward").real
    half = (n + 1) // 2
    y = _cp.empty(x.shape, v.dtype)
    y[..., ::2] = v[..., :half]
    y[..., 1::2] = v[..., half:][..., ::-1]
    return y


def _dct4_complex(x):
    """sum_n x_n exp(-i pi (2n+1)(2k+1) / 4N) for k < N: a 2N-point FFT of twisted samples."""
    n = x.shape[-1]
    cdt = _complex_of(x.dtype)
    spec = _fft.fft(x * _twiddle(n, -0.5 / n, cdt), n=2 * n)[..., :n]
    return spec * _twiddle(n, -0.5 / n, cdt) * _device(numpy.exp(-0.25j * numpy.pi / n), cdt)


def _alternate(n, dtype):
    return _device(numpy.where(numpy.arange(n) % 2 == 0, 1.0, -1.0), dtype)


def _unnormalised(x, kind, type):
    """The transform of real x along its last axis without normalisation (SciPy's norm='backward')."""
    n = x.shape[-1]
    if kind == "dct":
        if type == 1:
            if n < 2:
                raise RuntimeError("zero-length FFT requested: DCT-I needs at least 2 points")
            return _fft.rfft(_cp.concatenate([x, x[..., -2:0:-1]], axis=-1)).real
        if type == 2:
            return _dct2(x)
        if type == 3:
            return _dct3(x)
        return 2 * _dct4_complex(x).real
    if type == 1:
        zero = _cp.zeros(x.shape[:-1] + (1,), x.dtype)
        ext = _cp.concatenate([zero, x, zero, -x[..., ::-1]], axis=-1)
        return -_fft.rfft(ext).imag[..., 1:n + 1]
    if type == 2:
        return _dct2(x * _alternate(n, x.dtype))[..., ::-1]
    if type == 3:
        return _dct3(x[..., ::-1]) * _alternate(n, x.dtype)
    return -2 * _dct4_complex(x).imag


def _logical_size(kind, type, n):
    if type == 1:
        return 2 * (n - 1) if kind == "dct" else 2 * (n + 1)
    return 2 * n


def _weights(n, index, factor, dtype):
    w = numpy.ones(n)
    w[index] = factor
    return _device(w, dtype)


def _transform_real(x, kind, type, norm, orthogonalize):
    """One real transform along the last axis with SciPy's norm and orthogonalize rules."""
    n = x.shape[-1]
    fix = norm == "ortho" if orthogonalize is None else bool(orthogonalize)
    if fix:
        # The first/last terms that make the ortho-normalised matrices orthogonal (scaled before or after).
        if kind == "dct" and type == 1:
            if n < 2:
                raise RuntimeError("zero-length FFT requested: DCT-I needs at least 2 points")
            w = numpy.ones(n)
            w[0] = w[-1] = _SQRT2
            x = x * _device(w, x.dtype)
        elif type == 3:
            x = x * _weights(n, 0 if kind == "dct" else -1, _SQRT2, x.dtype)
    y = _unnormalised(x, kind, type)
    if fix:
        if kind == "dct" and type == 1:
            w = numpy.ones(n)
            w[0] = w[-1] = 1 / _SQRT2
            y = y * _device(w, y.dtype)
        elif type == 2:
            y = y * _weights(n, 0 if kind == "dct" else -1, 1 / _SQRT2, y.dtype)
    size = _logical_size(kind, type, n)
    if norm == "ortho":
        y = y * (1 / math.sqrt(size))
    elif norm == "forward":
        y = y * (1 / size)
    return y


def _transform_last(x, kind, type, norm, orthogonalize):
    if x.dtype.kind == "c":
        # SciPy transforms complex input part by part without passing `orthogonalize` on: its default (True
        # exactly for norm='ortho') applies whatever the caller gave. Kept for identical results.
        re = _transform_real(x.real, kind, type, norm, None)
        im = _transform_real(x.imag, kind, type, norm, None)
        return re + 1j * im
    return _transform_real(x, kind, type, norm, orthogonalize)


_INVERSE = {1: 1, 2: 3, 3: 2, 4: 4}


def transform_1d(x, kind, type, n, axis, norm, orthogonalize, workers=None):
    """The shared body of dct/dst/idct/idst along one axis (the inverse already mapped to its forward type)."""
    if type not in (1, 2, 3, 4):
        raise ValueError("invalid {} type".format(kind.upper()))
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    length = _helper.axis_length(x, axis)
    n = length if n is None else operator.index(n)
    _helper.check_n(n)
    axis = operator.index(axis) % x.ndim
    x = _helper.resize(x, n, axis)
    moved = _cp.moveaxis(x, axis, -1)
    return _cp.moveaxis(_transform_last(moved, kind, type, norm, orthogonalize), -1, axis)


def transform_nd(x, kind, type, s, axes, norm, orthogonalize, workers=None, fftpack=False):
    if type not in (1, 2, 3, 4):
        raise ValueError("invalid {} type".format(kind.upper()))
    norm = _helper.check_norm(norm)
    _helper.check_workers(workers)
    x = _helper.as_float(x)
    shape_and_axes = _helper.fftpack_shape_and_axes if fftpack else _helper.nd_shape_and_axes
    s, axes = shape_and_axes(x, s, axes)
    if not axes:
        return x.copy()
    for n, axis in zip(s, axes):
        x = transform_1d(x, kind, type, n, axis, norm, orthogonalize)
    return x


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete cosine transform of type 1-4 along an axis (scipy.fft.dct). float32 stays float32; float16
    computes in float32, integers in float64; complex input transforms its real and imaginary parts."""
    return transform_1d(x, "dct", type, n, axis, norm, orthogonalize, workers)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse discrete cosine transform (scipy.fft.idct): the DCT of the inverse type with the norm's
    direction swapped."""
    _helper.check_norm(norm)
    return transform_1d(x, "dct", _INVERSE.get(type, type), n, axis, _helper.swap_norm(norm), orthogonalize, workers)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete sine transform of type 1-4 along an axis (scipy.fft.dst)."""
    return transform_1d(x, "dst", type, n, axis, norm, orthogonalize, workers)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse discrete sine transform (scipy.fft.idst)."""
    _helper.check_norm(norm)
    return transform_1d(x, "dst", _INVERSE.get(type, type), n, axis, _helper.swap_norm(norm), orthogonalize, workers)


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None):
    """The n-D discrete cosine transform over `axes` (scipy.fft.dctn)."""
    return transform_nd(x, "dct", type, s, axes, norm, orthogonalize, workers)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The n-D inverse discrete cosine transform (scipy.fft.idctn)."""
    _helper.check_norm(norm)
    return transform_nd(x, "dct", _INVERSE.get(type, type), s, axes, _helper.swap_norm(norm), orthogonalize, workers)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The n-D discrete sine transform over `axes` (scipy.fft.dstn)."""
    return transform_nd(x, "dst", type, s, axes, norm, orthogonalize, workers)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The n-D inverse discrete sine transform (scipy.fft.idstn)."""
    _helper.check_norm(norm)
    return transform_nd(x, "dst", _INVERSE.get(type, type), s, axes, _helper.swap_norm(norm), orthogonalize, workers)
