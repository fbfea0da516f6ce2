"""The wavelets CuPy keeps (cwt, morlet, morlet2, qmf, ricker), with SciPy 1.14's documented behaviour.

SciPy deprecated these in 1.12 and removed them in 1.15; CuPy still provides them, so cuarray follows SciPy 1.14.
"""
import numpy

import cuarray as _cp
from cuarray.scipy.signal import _conv


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def qmf(hk):
    """Quadrature mirror filter of a low-pass filter: reversed, with alternating signs (SciPy 1.14's qmf)."""
    hk = _cp.asarray(hk)
    n = len(hk)
    sign = numpy.where(numpy.arange(n) % 2 == 0, 1, -1)
    return hk[::-1] * _cp.asarray(sign)


def morlet(M, w=5.0, s=1.0, complete=True):
    """Complex Morlet wavelet on [-2 pi s, 2 pi s] (SciPy 1.14's morlet)."""
    x = _cp.linspace(-s * 2 * numpy.pi, s * 2 * numpy.pi, M)
    out = _cp.exp(1j * w * x)
    if complete:
        out -= numpy.exp(-0.5 * (w ** 2))
    return out * (_cp.exp(-0.5 * (x ** 2)) * numpy.pi ** (-0.25))


def ricker(points, a):
    """Ricker ("Mexican hat") wavelet of width parameter `a` (SciPy 1.14's ricker)."""
    A = 2 / (numpy.sqrt(3 * a) * (numpy.pi ** 0.25))
    wsq = a ** 2
    vec = _cp.arange(0, points) - (points - 1.0) / 2
    xsq = vec ** 2
    return A * (1 - xsq / wsq) * _cp.exp(-xsq / (2 * wsq))


def morlet2(M, s, w=5):
    """Complex Morlet wavelet for cwt, of width `s`, energy-normalised (SciPy 1.14's morlet2)."""
    x = (_cp.arange(0, M) - (M - 1.0) / 2) / s
    return numpy.sqrt(1 / s) * (_cp.exp(1j * w * x) * _cp.exp(-0.5 * (x ** 2)) * numpy.pi ** (-0.25))


def cwt(data, wavelet, widths, dtype=None, **kwargs):
    """Continuous wavelet transform: data convolved ('same') with the wavelet at each width (SciPy 1.14's cwt)."""
    widths = _host(widths)
    if dtype is None:
        probe = _host(wavelet(1, widths[0], **kwargs))
        dtype = numpy.complex128 if probe.dtype.char in 'FDG' else numpy.float64
    data = _cp.asarray(data)
    out = _cp.empty((len(widths), len(data)), dtype=dtype)
    for i, width in enumerate(widths):
        N = numpy.min([10 * width, len(data)])
        wav = _cp.asarray(wavelet(N, width, **kwargs))[::-1]
        out[i] = _conv.convolve(data, _cp.conj(wav), mode='same')
    return out
