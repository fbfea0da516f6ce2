"""The fast Hankel transform (SciPy's fht, ifht, fhtoffset) by Hamilton's FFTLog: an rfft, a multiply by a
coefficient array, an irfft and a reversal along the last axis.

The coefficients need loggamma of complex arguments, evaluated once per call on the host (n // 2 + 1 values):
with scipy.special where SciPy is installed, else with the Stirling series below (a shift to Re z >= 10, then
the asymptotic series), which agrees with scipy.special.loggamma to about 1e-14 relative.
"""
import cmath
import math
import warnings

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.scipy.fft import _helper

_LN_2 = math.log(2.0)
# Stirling coefficients B_2k / (2k (2k - 1)) of log Gamma's asymptotic series.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400)


def _loggamma_one(z):
    if z.imag == 0 and z.real <= 0 and z.real == math.floor(z.real):
        return complex(math.inf, 0.0)
    shift = 0j
    while z.real < 10:
        shift += cmath.log(z)  # principal logs: the sum is the continuous branch scipy's loggamma takes
        z += 1
    inv = 1 / z
    inv2 = inv * inv
    series = 0j
    power = inv
    for c in _STIRLING:
        series += c * power
        power *= inv2
    return (z - 0.5) * cmath.log(z) - z + 0.5 * math.log(2 * math.pi) + series - shift


def _loggamma(z):
    try:
        from scipy.special import loggamma
    except ImportError:
        return numpy.array([_loggamma_one(complex(v)) for v in numpy.ravel(z)]).reshape(numpy.shape(z))
    return loggamma(z)


def _poch(a, m):
    """Gamma(a + m) / Gamma(a) for real a, m."""
    try:
        from scipy.special import poch
    except ImportError:
        b = a + m
        if b <= 0 and b == math.floor(b):
            return math.inf
        if a <= 0 and a == math.floor(a):
            return 0.0
        sign = math.copysign(1.0, math.gamma(b)) * math.copysign(1.0, math.gamma(a)) if max(abs(a), abs(b)) < 170 \
            else 1.0
        return sign * math.exp(math.lgamma(b) - math.lgamma(a))
    return float(poch(a, m))


def _coefficients(n, dln, mu, offset, bias, inverse):
    """FFTLog's coefficient array (host, complex128, n // 2 + 1 values)."""
    xp = (mu + 1 + bias) / 2
    xm = (mu + 1 - bias) / 2
    y = numpy.linspace(0, numpy.pi * (n // 2) / (n * dln), n // 2 + 1)
    lg_p = _loggamma(xp + 1j * y)
    lg_m = _loggamma(xm + 1j * y)
    with numpy.errstate(all="ignore"):
        u = numpy.exp((lg_p.real - lg_m.real + _LN_2 * bias) +
                      1j * (lg_p.imag + lg_m.imag + 2 * (_LN_2 - offset) * y))
    if n % 2 == 0:
        u[-1] = u[-1].real
    if not numpy.isfinite(u[0]):
        u[0] = 2 ** bias * _poch(xm, xp - xm)
    if numpy.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=3)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias", stacklevel=3)
        u[0] = numpy.inf
    return u


def _fhtq(a, u, inverse):
    n = a.shape[-1]
    spec = _fft.rfft(a, axis=-1)
    if inverse:
        with numpy.errstate(divide="ignore"):
            u = 1 / numpy.conj(u)
    spec = spec * _cp.asarray(u.astype(spec.dtype))
    return _fft.irfft(spec, n, axis=-1)[..., ::-1]


def _bias_weights(n, dln):
    j = numpy.arange(n, dtype=numpy.float64)
    return j - (n - 1) / 2


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """The fast Hankel transform of `a` along its last axis, logarithmically spaced by `dln`, of order `mu`
    (scipy.fft.fht). The coefficients are computed on the host (see the module's note)."""
    a = _helper.as_array(a)
    n = a.shape[-1]
    if bias != 0:
        jc = _bias_weights(n, dln)
        a = a * _cp.asarray(numpy.exp(-bias * jc * dln))
    u = _coefficients(n, dln, mu, offset, bias, inverse=False)
    out = _fhtq(a, u, inverse=False)
    if bias != 0:
        out = out * _cp.asarray(numpy.exp(-bias * (jc * dln + offset)))
    return out


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """The inverse fast Hankel transform (scipy.fft.ifht)."""
    A = _helper.as_array(A)
    n = A.shape[-1]
    if bias != 0:
        jc = _bias_weights(n, dln)
        A = A * _cp.asarray(numpy.exp(bias * (jc * dln + offset)))
    u = _coefficients(n, dln, mu, offset, bias, inverse=True)
    out = _fhtq(A, u, inverse=True)
    if bias != 0:
        out = out * _cp.asarray(numpy.exp(bias * jc * dln))
    return out


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """The offset closest to `initial` that fulfils FFTLog's low-ringing condition (scipy.fft.fhtoffset): a
    host float."""
    xp = (mu + 1 + bias) / 2
    xm = (mu + 1 - bias) / 2
    y = numpy.pi / (2 * dln)
    zp = _loggamma(numpy.complex128(xp + 1j * y))
    zm = _loggamma(numpy.complex128(xm + 1j * y))
    arg = (_LN_2 - initial) / dln + (numpy.imag(zp) + numpy.imag(zm)) / numpy.pi
    return float(initial + (arg - numpy.round(arg)) * dln)
