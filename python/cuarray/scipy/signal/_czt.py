"""scipy.signal's chirp z-transform (CZT, ZoomFFT, czt, zoom_fft, czt_points): Bluestein's algorithm on cuFFT."""
import cmath
import numbers

import numpy

import cuarray as _cp
from cuarray import fft as _fft

# Note [Bluestein CZT]
# X[k] = sum_n x[n] A^-n W^(nk) is rewritten with nk = (n^2 + k^2 - (k-n)^2)/2 as a linear convolution of
# x[n] A^-n W^(n^2/2) with the chirp W^(-j^2/2), evaluated with FFTs of length next_fast_len(n + m - 1).
# The chirps depend only on (n, m, w, a): they are made once on the host in complex128 (where exp of
# (k^2 mod 2m) keeps the default chirp exact for large k) and moved to the device; every call then costs two
# forward FFTs and one inverse FFT on the device. Results are complex128 for every input, as in SciPy.


def _next_fast_len(n):
    # 5-smooth length at least n (cuFFT and NumPy are both fast for it).
    best = None
    p5 = 1
    while p5 < 2 * n:
        p35 = p5
        while p35 < 2 * n:
            p = p35
            while p < n:
                p *= 2
            if best is None or p < best:
                best = p
            p35 *= 3
        p5 *= 5
    return best


def _validate_sizes(n, m):
    if not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f'Invalid number of CZT data points ({n}) specified. '
                         'n must be positive and integer type.')
    if m is None:
        return n
    if not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f'Invalid number of CZT output points ({m}) specified. '
                         'm must be positive and integer type.')
    return m


def _host_scalar(v):
    return v.get().item() if isinstance(v, _cp.ndarray) else v


def czt_points(m, w=None, a=1 + 0j):
    """The points in the z-plane at which the chirp z-transform is evaluated (scipy.signal.czt_points)."""
    m = _validate_sizes(1, m)
    k = numpy.arange(m)
    a = 1.0 * _host_scalar(a)
    if w is None:
        pts = a * numpy.exp(2j * numpy.pi * k / m)
    else:
        pts = a * (1.0 * _host_scalar(w)) ** -k
    return _cp.asarray(pts)


class CZT:
    """Chirp z-transform of length-n signals at m points (scipy.signal.CZT); calling it transforms `x`."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _validate_sizes(n, m)
        k = numpy.arange(max(m, n), dtype=numpy.float64)
        if w is None:
            w = cmath.exp(-2j * numpy.pi / m)
            wk2 = numpy.exp(-1j * numpy.pi * ((k ** 2) % (2 * m)) / m)
        else:
            w = _host_scalar(w)
            wk2 = w ** (k ** 2 / 2.0)
        a = 1.0 * _host_scalar(a)
        self.w, self.a, self.m, self.n = w, a, m, n
        self._setup(a ** -k[:n] * wk2[:n], wk2)

    def _setup(self, awk2, wk2):
        n, m = self.n, self.m
        self._nfft = _next_fast_len(n + m - 1)
        chirp = 1 / numpy.hstack((wk2[n - 1:0:-1], wk2[:m]))
        self._Awk2 = _cp.asarray(numpy.asarray(awk2, dtype=numpy.complex128))
        self._Fwk2 = _fft.fft(_cp.asarray(numpy.asarray(chirp, dtype=numpy.complex128)), self._nfft)
        self._wk2 = _cp.asarray(numpy.asarray(wk2[:m], dtype=numpy.complex128))
        self._yidx = slice(n - 1, n + m - 1)

    def __call__(self, x, *, axis=-1):
        x = _cp.asarray(x)
        if x.ndim == 0:
            raise IndexError("tuple index out of range")
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        x = _cp.moveaxis(x, axis, -1).astype(numpy.complex128)
        y = _fft.ifft(self._Fwk2 * _fft.fft(x * self._Awk2, self._nfft))
        y = y[..., self._yidx] * self._wk2
        return _cp.ascontiguousarray(_cp.moveaxis(y, -1, axis))

    def points(self):
        """The z-plane points at which this transform evaluates."""
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """The DFT of length-n signals over the frequency band `fn`, at m points (scipy.signal.ZoomFFT)."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _validate_sizes(n, m)
        k = numpy.arange(max(m, n), dtype=numpy.float64)
        fn = fn.get() if isinstance(fn, _cp.ndarray) else fn
        if numpy.size(fn) == 2:
            f1, f2 = numpy.ravel(fn)
        elif numpy.size(fn) == 1:
            f1, f2 = 0.0, numpy.ravel(fn)[0]
        else:
            raise ValueError('fn must be a scalar or 2-length sequence')
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = ((f2 - f1) * m) / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        self.a = cmath.exp(2j * numpy.pi * f1 / fs)
        self.w = cmath.exp(-2j * numpy.pi / m * scale)
        self.m, self.n = m, n
        wk2 = numpy.exp(-(1j * numpy.pi * scale * k ** 2) / m)
        self._setup(numpy.exp(-2j * numpy.pi * f1 / fs * k[:n]) * wk2[:n], wk2)


def _length(x, axis):
    if x.ndim == 0:
        raise IndexError("tuple index out of range")
    return x.shape[axis]


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """Chirp z-transform of x along `axis` (scipy.signal.czt)."""
    x = _cp.asarray(x)
    return CZT(_length(x, axis), m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """The DFT of x over a frequency band only (scipy.signal.zoom_fft)."""
    x = _cp.asarray(x)
    return ZoomFFT(_length(x, axis), fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
