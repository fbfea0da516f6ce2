"""scipy.signal's filter design and frequency responses: coefficients on the host, responses on the GPU.

Design functions (butter, firwin, zpk2sos, ...) compute a handful of coefficients: they run in float64 NumPy on
the host and return cuarray arrays, as CuPy does for the same reason. Frequency responses (freqz, freqz_zpk,
freqz_sos, freqs, group_delay) evaluate polynomials at many points and run on the device.
"""
import math
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.signal.windows import _windows


class BadCoefficients(UserWarning):
    """Warning about badly conditioned filter coefficients."""


def _dev(a):
    return a if isinstance(a, _cp.ndarray) else _cp.asarray(a)


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _out(*arrays):
    return tuple(_cp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in arrays)


def _validate_fs(fs, allow_none=True):
    if fs is None:
        if not allow_none:
            raise ValueError("Sampling frequency can not be none.")
        return None
    if not numpy.isscalar(fs):
        raise ValueError("Sampling frequency fs must be a single scalar.")
    return float(fs)


# -- transfer-function conversions (host) --------------------------------------------------------------------
def _normalize(b, a):
    den = numpy.atleast_1d(_host(a))
    num = numpy.atleast_2d(_host(b))
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    if numpy.all(den == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = numpy.trim_zeros(den, 'f')
    num, den = num / den[0], den / den[0]
    lead = 0
    for col in num.T:
        if numpy.allclose(col, 0, atol=1e-14):
            lead += 1
        else:
            break
    if lead > 0:
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may be meaningless",
                      BadCoefficients, stacklevel=3)
        if lead == num.shape[1]:
            lead -= 1
        num = num[:, lead:]
    if num.shape[0] == 1:
        num = num[0, :]
    return num, den


def normalize(b, a):
    """Normalize numerator/denominator of a continuous-time transfer function (scipy.signal.normalize)."""
    return _out(*_normalize(b, a))


def _tf2zpk(b, a):
    b, a = _normalize(b, a)
    b = (b + 0.0) / a[0]
    a = (a + 0.0) / a[0]
    k = b[0]
    b = b / b[0]
    return numpy.roots(b), numpy.roots(a), k


def tf2zpk(b, a):
    """Zeros, poles and gain of a transfer function (scipy.signal.tf2zpk)."""
    return _out(*_tf2zpk(b, a))


def _zpk2tf(z, p, k):
    z = numpy.atleast_1d(_host(z))
    k = numpy.atleast_1d(_host(k))
    if z.ndim > 1:
        first = numpy.poly(z[0])
        b = numpy.empty((z.shape[0], z.shape[1] + 1), first.dtype)
        if len(k) == 1:
            k = [k[0]] * z.shape[0]
        for i in range(z.shape[0]):
            b[i] = k[i] * numpy.poly(z[i])
    else:
        b = k * numpy.poly(z)
    return b, numpy.atleast_1d(numpy.poly(_host(p)))


def zpk2tf(z, p, k):
    """Transfer function of zeros, poles and gain (scipy.signal.zpk2tf)."""
    return _out(*_zpk2tf(z, p, k))


def _cplxreal(z):
    """Complex roots (one of each conjugate pair, positive imaginary part) and real roots, sorted."""
    z = numpy.atleast_1d(z)
    if z.size == 0:
        return z, z
    tol = 100 * numpy.finfo((1.0 * z).dtype).eps
    z = z[numpy.lexsort((abs(z.imag), z.real))]
    is_real = abs(z.imag) <= tol * abs(z)
    zr = z[is_real].real
    if len(zr) == len(z):
        return numpy.array([]), zr
    z = z[~is_real]
    zp, zn = z[z.imag > 0], z[z.imag < 0]
    if len(zp) != len(zn):
        raise ValueError('Array contains complex value with no matching conjugate.')
    # Within runs of equal real part, order by |imag| so that the conjugates line up.
    same = numpy.diff(zp.real) <= tol * abs(zp[:-1])
    edges = numpy.diff(numpy.concatenate(([0], same, [0])).astype(int))
    for lo, hi in zip(numpy.nonzero(edges > 0)[0], numpy.nonzero(edges < 0)[0] + 1):
        for part in (zp[lo:hi], zn[lo:hi]):
            part[...] = part[numpy.lexsort([abs(part.imag)])]
    if any(abs(zp - zn.conj()) > tol * abs(zn)):
        raise ValueError('Array contains complex value with no matching conjugate.')
    return (zp + zn.conj()) / 2, zr


def _nearest(fro, to, which):
    order = numpy.argsort(numpy.abs(fro - to))
    if which == 'any':
        return order[0]
    mask = numpy.isreal(fro[order])
    if which == 'complex':
        mask = ~mask
    return order[numpy.nonzero(mask)[0][0]]


def _section(z, p):
    row = numpy.zeros(6)
    b, a = _zpk2tf(numpy.asarray(z), numpy.asarray(p), 1)
    row[3 - len(b):3] = b
    row[6 - len(a):6] = a
    return row


def _zpk2sos(z, p, k, pairing=None, analog=False):
    if pairing is None:
        pairing = 'minimal' if analog else 'nearest'
    valid = ['nearest', 'keep_odd', 'minimal']
    if pairing not in valid:
        raise ValueError(f'pairing must be one of {valid}, not {pairing}')
    if analog and pairing != 'minimal':
        raise ValueError('for analog zpk2sos conversion, pairing must be "minimal"')
    z = numpy.atleast_1d(_host(z))
    p = numpy.atleast_1d(_host(p))
    k = numpy.asarray(_host(k))
    if len(z) == len(p) == 0:
        return numpy.array([[0., 0., k, 0., 0., 1.]]) if analog else numpy.array([[k, 0., 0., 1., 0., 0.]])
    if pairing != 'minimal':
        p = numpy.concatenate((p, numpy.zeros(max(len(z) - len(p), 0))))
        z = numpy.concatenate((z, numpy.zeros(max(len(p) - len(z), 0))))
        nsec = (max(len(p), len(z)) + 1) // 2
        if len(p) % 2 == 1 and pairing == 'nearest':
            p = numpy.concatenate((p, [0.]))
            z = numpy.concatenate((z, [0.]))
    else:
        if len(p) < len(z):
            raise ValueError('for analog zpk2sos conversion, must have len(p)>=len(z)')
        nsec = (len(p) + 1) // 2
    z = numpy.concatenate(_cplxreal(z))
    p = numpy.concatenate(_cplxreal(p))
    if not numpy.isreal(k):
        raise ValueError('k must be real')
    k = k.real
    if analog:
        def worst(v):
            return numpy.argmin(numpy.abs(numpy.real(v)))
    else:
        def worst(v):
            return numpy.argmin(numpy.abs(1 - numpy.abs(v)))
    sos = numpy.zeros((nsec, 6))
    # Poles closest to the stability boundary go last, each with its nearest zero(s).
    for si in range(nsec)[::-1]:
        i1 = worst(p)
        p1 = p[i1]
        p = numpy.delete(p, i1)
        if numpy.isreal(p1) and numpy.isreal(p).sum() == 0:
            if pairing != 'minimal':
                j = _nearest(z, p1, 'real')
                z1 = z[j]
                z = numpy.delete(z, j)
                sos[si] = _section([z1, 0], [p1, 0])
            elif len(z) > 0:
                j = _nearest(z, p1, 'real')
                z1 = z[j]
                z = numpy.delete(z, j)
                sos[si] = _section([z1], [p1])
            else:
                sos[si] = _section([], [p1])
        elif (len(p) + 1 == len(z) and not numpy.isreal(p1) and numpy.isreal(p).sum() == 1
              and numpy.isreal(z).sum() == 1):
            j = _nearest(z, p1, 'complex')
            z1 = z[j]
            z = numpy.delete(z, j)
            sos[si] = _section([z1, z1.conj()], [p1, p1.conj()])
        else:
            if numpy.isreal(p1):
                reals = numpy.flatnonzero(numpy.isreal(p))
                i2 = reals[worst(p[reals])]
                p2 = p[i2]
                p = numpy.delete(p, i2)
            else:
                p2 = p1.conj()
            if len(z) > 0:
                j = _nearest(z, p1, 'any')
                z1 = z[j]
                z = numpy.delete(z, j)
                if not numpy.isreal(z1):
                    sos[si] = _section([z1, z1.conj()], [p1, p2])
                elif len(z) > 0:
                    j = _nearest(z, p1, 'real')
                    z2 = z[j]
                    z = numpy.delete(z, j)
                    sos[si] = _section([z1, z2], [p1, p2])
                else:
                    sos[si] = _section([z1], [p1, p2])
            else:
                sos[si] = _section([], [p1, p2])
    sos[0][:3] *= k
    return sos


def zpk2sos(z, p, k, pairing=None, *, analog=False):
    """Second-order sections of zeros, poles and gain (scipy.signal.zpk2sos)."""
    return _cp.asarray(_zpk2sos(z, p, k, pairing, analog))


def _check_sos(sos):
    sos = numpy.atleast_2d(_host(sos))
    if sos.ndim != 2:
        raise ValueError('sos array must be 2D')
    n, m = sos.shape
    if m != 6:
        raise ValueError('sos array must be shape (n_sections, 6)')
    if not (sos[:, 3] == 1).all():
        raise ValueError('sos[:, 3] should be all ones')
    return sos, n


def sos2tf(sos):
    """Transfer function of second-order sections (scipy.signal.sos2tf)."""
    sos = numpy.asarray(_host(sos))
    result_type = sos.dtype
    if result_type.kind in 'bui':
        result_type = numpy.float64
    b = numpy.array([1], dtype=result_type)
    a = numpy.array([1], dtype=result_type)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError('sos array must be shape (n_sections, 6)')
    for section in sos:
        b = numpy.polymul(b, section[:3])
        a = numpy.polymul(a, section[3:])
    return _out(b, a)


def sos2zpk(sos):
    """Zeros, poles and gain of second-order sections (scipy.signal.sos2zpk)."""
    sos = numpy.asarray(_host(sos))
    n = sos.shape[0]
    z = numpy.zeros(n * 2, numpy.complex128)
    p = numpy.zeros(n * 2, numpy.complex128)
    k = 1.
    for s in range(n):
        zpk = _tf2zpk(sos[s, :3], sos[s, 3:])
        z[2 * s:2 * s + len(zpk[0])] = zpk[0]
        p[2 * s:2 * s + len(zpk[1])] = zpk[1]
        k *= zpk[2]
    return _out(z, p, k)


def tf2sos(b, a, pairing=None, *, analog=False):
    """Second-order sections of a transfer function (scipy.signal.tf2sos)."""
    z, p, k = _tf2zpk(b, a)
    return _cp.asarray(_zpk2sos(z, p, k, pairing, analog))


# -- analog prototypes and frequency transforms (host) -------------------------------------------------------
def _degree(z, p):
    d = len(p) - len(z)
    if d < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as zeros.")
    return d


def _zpk_in(z, p, k):
    z, p = numpy.atleast_1d(_host(z)), numpy.atleast_1d(_host(p))
    return z.astype(numpy.result_type(z.dtype, numpy.float64)), p.astype(numpy.result_type(p.dtype, numpy.float64)), k


def _common(z, p):
    # The band transforms work on zeros promoted with the poles, as SciPy's do: a real zero then carries a
    # signed-zero imaginary part, which picks the branch of the square root below.
    dt = numpy.result_type(z.dtype, p.dtype)
    return z.astype(dt), p.astype(dt)


def _lp2lp_zpk(z, p, k, wo=1.0):
    z, p, k = _zpk_in(z, p, k)
    wo = float(wo)
    d = _degree(z, p)
    return wo * z, wo * p, k * wo ** d


def _lp2hp_zpk(z, p, k, wo=1.0):
    z, p, k = _zpk_in(z, p, k)
    wo = float(wo)
    d = _degree(z, p)
    return (numpy.append(wo / z, numpy.zeros(d)), wo / p,
            k * numpy.real(numpy.prod(-z) / numpy.prod(-p)))


def _lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    z0, p, k = _zpk_in(z, p, k)
    wo, bw = float(wo), float(bw)
    d = _degree(z0, p)
    z, _ = _common(z0, p)
    zl = (z * bw / 2).astype(complex)
    pl = (p * bw / 2).astype(complex)
    zb = numpy.concatenate((zl + numpy.sqrt(zl ** 2 - wo ** 2), zl - numpy.sqrt(zl ** 2 - wo ** 2)))
    pb = numpy.concatenate((pl + numpy.sqrt(pl ** 2 - wo ** 2), pl - numpy.sqrt(pl ** 2 - wo ** 2)))
    return numpy.append(zb, numpy.zeros(d)), pb, k * bw ** d


def _lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    z0, p, k = _zpk_in(z, p, k)
    wo, bw = float(wo), float(bw)
    d = _degree(z0, p)
    z, _ = _common(z0, p)
    zh = ((bw / 2) / z).astype(complex)
    ph = ((bw / 2) / p).astype(complex)
    zb = numpy.concatenate((zh + numpy.sqrt(zh ** 2 - wo ** 2), zh - numpy.sqrt(zh ** 2 - wo ** 2)))
    pb = numpy.concatenate((ph + numpy.sqrt(ph ** 2 - wo ** 2), ph - numpy.sqrt(ph ** 2 - wo ** 2)))
    zb = numpy.append(zb, numpy.full(d, +1j * wo))
    zb = numpy.append(zb, numpy.full(d, -1j * wo))
    return zb, pb, k * numpy.real(numpy.prod(-z0) / numpy.prod(-p))


def _bilinear_zpk(z, p, k, fs):
    z, p, k = _zpk_in(z, p, k)
    fs = _validate_fs(fs, allow_none=False)
    d = _degree(z, p)
    fs2 = 2.0 * fs
    return (numpy.append((fs2 + z) / (fs2 - z), -numpy.ones(d)), (fs2 + p) / (fs2 - p),
            k * numpy.real(numpy.prod(fs2 - z) / numpy.prod(fs2 - p)))


def lp2lp_zpk(z, p, k, wo=1.0):
    """Lowpass prototype to a lowpass of cutoff wo, in zpk form (scipy.signal.lp2lp_zpk)."""
    return _out(*_lp2lp_zpk(z, p, k, wo))


def lp2hp_zpk(z, p, k, wo=1.0):
    """Lowpass prototype to a highpass, in zpk form (scipy.signal.lp2hp_zpk)."""
    return _out(*_lp2hp_zpk(z, p, k, wo))


def lp2bp_zpk(z, p, k, wo=1.0, bw=1.0):
    """Lowpass prototype to a bandpass, in zpk form (scipy.signal.lp2bp_zpk)."""
    return _out(*_lp2bp_zpk(z, p, k, wo, bw))


def lp2bs_zpk(z, p, k, wo=1.0, bw=1.0):
    """Lowpass prototype to a bandstop, in zpk form (scipy.signal.lp2bs_zpk)."""
    return _out(*_lp2bs_zpk(z, p, k, wo, bw))


def bilinear_zpk(z, p, k, fs):
    """Analog to digital filter by the bilinear transform, in zpk form (scipy.signal.bilinear_zpk)."""
    return _out(*_bilinear_zpk(z, p, k, fs))


def _tf_in(b, a):
    a = numpy.atleast_1d(_host(a))
    b = numpy.atleast_1d(_host(b))
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError('b and a must be rank-1 arrays.')
    dt = numpy.result_type(a.dtype, b.dtype, numpy.float64)
    return b.astype(dt), a.astype(dt)


def _lp2lp(b, a, wo=1.0):
    b, a = _tf_in(b, a)
    try:
        wo = float(wo)
    except TypeError:
        wo = float(wo[0])
    d, n = len(a), len(b)
    M = max(d, n)
    pwo = wo ** numpy.arange(M - 1, -1, -1)
    start1 = max((n - d, 0))
    start2 = max((d - n, 0))
    b = b * pwo[start1] / pwo[start2:]
    a = a * pwo[start1] / pwo[start1:]
    return _normalize(b, a)


def lp2lp(b, a, wo=1.0):
    """Lowpass prototype to a lowpass of cutoff wo, transfer-function form (scipy.signal.lp2lp)."""
    return _out(*_lp2lp(b, a, wo))


def lp2hp(b, a, wo=1.0):
    """Lowpass prototype to a highpass, transfer-function form (scipy.signal.lp2hp)."""
    b, a = _tf_in(b, a)
    try:
        wo = float(wo)
    except TypeError:
        wo = float(wo[0])
    d, n = len(a), len(b)
    if wo != 1:
        pwo = wo ** numpy.arange(max(d, n))
    else:
        pwo = numpy.ones(max(d, n), b.dtype.char)
    if d >= n:
        outa = a[::-1] * pwo
        outb = numpy.resize(b, (d,))
        outb[n:] = 0.0
        outb[:n] = b[::-1] * pwo[:n]
    else:
        outb = b[::-1] * pwo
        outa = numpy.resize(a, (n,))
        outa[d:] = 0.0
        outa[:d] = a[::-1] * pwo[:d]
    return _out(*_normalize(outb, outa))


def lp2bp(b, a, wo=1.0, bw=1.0):
    """Lowpass prototype to a bandpass, transfer-function form (scipy.signal.lp2bp)."""
    b, a = _tf_in(b, a)
    return _out(*_lp2bx(b, a, float(wo), float(bw), stop=False))


def lp2bs(b, a, wo=1.0, bw=1.0):
    """Lowpass prototype to a bandstop, transfer-function form (scipy.signal.lp2bs)."""
    b, a = _tf_in(b, a)
    return _out(*_lp2bx(b, a, float(wo), float(bw), stop=True))


def _lp2bx(b, a, wo, bw, stop):
    # Substitute s -> (s^2 + wo^2) / (s bw) (bandpass) or s bw / (s^2 + wo^2) (bandstop) in b(s)/a(s), both
    # polynomials raised to the common degree, so that numerator and denominator share one power of s bw.
    D, N = len(a) - 1, len(b) - 1
    M = max(N, D)
    num_s = numpy.array([1.0, 0.0, wo * wo])      # s^2 + wo^2
    den_s = numpy.array([bw, 0.0])                # s bw
    if stop:
        num_s, den_s = den_s, num_s

    def sub(c, deg):
        out = numpy.zeros(2 * M + 1, dtype=numpy.result_type(c, numpy.float64))
        for i, ci in enumerate(c):
            power = deg - i                       # coefficient of s^power
            term = numpy.polymul(ci * _ppow(num_s, power), _ppow(den_s, M - power))
            out[len(out) - len(term):] += term
        return out
    return _normalize(sub(b, N), sub(a, D))


def _ppow(c, n):
    r = numpy.array([1.0])
    for _ in range(n):
        r = numpy.polymul(r, c)
    return r


def bilinear(b, a, fs=1.0):
    """Analog to digital filter by the bilinear transform, transfer-function form (scipy.signal.bilinear)."""
    fs = _validate_fs(fs, allow_none=False)
    a = numpy.atleast_1d(_host(a))
    b = numpy.atleast_1d(_host(b))
    D, N = a.shape[0] - 1, b.shape[0] - 1
    M = max(N, D)
    # Substitute s -> 2 fs (z - 1) / (z + 1) and clear the common factor (z + 1)^M.
    def sub(c, deg):
        out = numpy.zeros(M + 1)
        for i, ci in enumerate(c):
            power = deg - i
            term = ci * (2 * fs) ** power * numpy.polymul(_ppow(numpy.array([1., -1.]), power),
                                                          _ppow(numpy.array([1., 1.]), M - power))
            out[M + 1 - len(term):] += term
        return out
    bp, ap = sub(b, N), sub(a, D)
    return _out(*_normalize(bp, ap))


def buttap(N):
    """Analog Butterworth lowpass prototype (scipy.signal.buttap)."""
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    m = numpy.arange(-N + 1, N, 2)
    return _out(numpy.array([]), -numpy.exp(1j * numpy.pi * m / (2 * N)), 1.0)


def _buttap(N):
    return tuple(_host(v) if not numpy.isscalar(v) else v for v in buttap(N))


def _cheb1ap(N, rp):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return numpy.array([]), numpy.array([]), 10 ** (-rp / 20)
    eps = numpy.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * numpy.arcsinh(1 / eps)
    theta = numpy.pi * numpy.arange(-N + 1, N, 2) / (2 * N)
    p = -numpy.sinh(mu + 1j * theta)
    k = numpy.prod(-p, axis=0).real
    if N % 2 == 0:
        k = k / numpy.sqrt(1 + eps * eps)
    return numpy.array([]), p, k


def _cheb2ap(N, rs):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    if N == 0:
        return numpy.array([]), numpy.array([]), 1.0
    de = 1.0 / numpy.sqrt(10 ** (0.1 * rs) - 1)
    mu = numpy.arcsinh(1.0 / de) / N
    if N % 2:
        m = numpy.concatenate((numpy.arange(-N + 1, 0, 2), numpy.arange(2, N, 2)))
    else:
        m = numpy.arange(-N + 1, N, 2)
    z = -numpy.conjugate(1j / numpy.sin(m * numpy.pi / (2.0 * N)))
    p = -numpy.exp(1j * numpy.pi * numpy.arange(-N + 1, N, 2) / (2 * N))
    p = numpy.sinh(mu) * p.real + 1j * numpy.cosh(mu) * p.imag
    p = 1.0 / p
    return z, p, (numpy.prod(-p, axis=0) / numpy.prod(-z, axis=0)).real


def cheb1ap(N, rp):
    """Analog Chebyshev type I lowpass prototype (scipy.signal.cheb1ap)."""
    return _out(*_cheb1ap(N, rp))


def cheb2ap(N, rs):
    """Analog Chebyshev type II lowpass prototype (scipy.signal.cheb2ap)."""
    return _out(*_cheb2ap(N, rs))


_BANDS = {'band': 'bandpass', 'bandpass': 'bandpass', 'pass': 'bandpass', 'bp': 'bandpass',
          'bs': 'bandstop', 'bandstop': 'bandstop', 'bands': 'bandstop', 'stop': 'bandstop',
          'l': 'lowpass', 'low': 'lowpass', 'lowpass': 'lowpass', 'lp': 'lowpass',
          'high': 'highpass', 'highpass': 'highpass', 'h': 'highpass', 'hp': 'highpass'}
_FTYPES = {'butter': 'butter', 'butterworth': 'butter', 'cauer': 'ellip', 'elliptic': 'ellip', 'ellip': 'ellip',
           'bessel': 'bessel', 'bessel_phase': 'bessel', 'bessel_delay': 'bessel', 'bessel_mag': 'bessel',
           'cheby1': 'cheby1', 'chebyshev1': 'cheby1', 'chebyshevi': 'cheby1',
           'cheby2': 'cheby2', 'chebyshev2': 'cheby2', 'chebyshevii': 'cheby2'}


def iirfilter(N, Wn, rp=None, rs=None, btype='band', analog=False, ftype='butter', output='ba', fs=None):
    """IIR digital or analog filter of a given order and type (scipy.signal.iirfilter)."""
    fs = _validate_fs(fs, allow_none=True)
    ftype, btype, output = (s.lower() for s in (ftype, btype, output))
    Wn = numpy.asarray(_host(Wn), dtype=float)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if numpy.any(Wn <= 0):
        raise ValueError("filter critical frequencies must be greater than 0")
    if Wn.size > 1 and not Wn[0] < Wn[1]:
        raise ValueError("Wn[0] must be less than Wn[1]")
    try:
        btype = _BANDS[btype]
    except KeyError as e:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.") from e
    try:
        kind = _FTYPES[ftype]
    except KeyError as e:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.") from e
    if output not in ('ba', 'zpk', 'sos'):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    if kind == 'butter':
        z, p, k = _buttap(N)
    elif kind == 'cheby1':
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev I filter.")
        z, p, k = _cheb1ap(N, rp)
    elif kind == 'cheby2':
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an Chebyshev II filter.")
        z, p, k = _cheb2ap(N, rs)
    else:
        from cuarray.scipy.signal._filter_design_more import _prototype
        z, p, k = _prototype(kind, ftype, N, rp, rs)
    if not analog:
        if numpy.any(Wn <= 0) or numpy.any(Wn >= 1):
            if fs is not None:
                raise ValueError(f"Digital filter critical frequencies must be 0 < Wn < fs/2 "
                                 f"(fs={fs} -> fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
        fs = 2.0
        warped = 2 * fs * numpy.tan(numpy.pi * Wn / fs)
    else:
        warped = Wn
    if btype in ('lowpass', 'highpass'):
        if numpy.size(Wn) != 1:
            raise ValueError('Must specify a single critical frequency Wn for lowpass or highpass filter')
        z, p, k = (_lp2lp_zpk if btype == 'lowpass' else _lp2hp_zpk)(z, p, k, wo=float(warped))
    else:
        try:
            bw = warped[1] - warped[0]
            wo = numpy.sqrt(warped[0] * warped[1])
        except IndexError as e:
            raise ValueError('Wn must specify start and stop frequencies for bandpass or bandstop filter') from e
        z, p, k = (_lp2bp_zpk if btype == 'bandpass' else _lp2bs_zpk)(z, p, k, wo=wo, bw=bw)
    if not analog:
        z, p, k = _bilinear_zpk(z, p, k, fs=fs)
    if output == 'zpk':
        return _out(z, p, k)
    if output == 'ba':
        return _out(*_zpk2tf(z, p, k))
    return _cp.asarray(_zpk2sos(z, p, k, analog=analog))


def butter(N, Wn, btype='low', analog=False, output='ba', fs=None):
    """Butterworth digital or analog filter (scipy.signal.butter)."""
    return iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype='butter', fs=fs)


def cheby1(N, rp, Wn, btype='low', analog=False, output='ba', fs=None):
    """Chebyshev type I digital or analog filter (scipy.signal.cheby1)."""
    return iirfilter(N, Wn, rp=rp, btype=btype, analog=analog, output=output, ftype='cheby1', fs=fs)


def cheby2(N, rs, Wn, btype='low', analog=False, output='ba', fs=None):
    """Chebyshev type II digital or analog filter (scipy.signal.cheby2)."""
    return iirfilter(N, Wn, rs=rs, btype=btype, analog=analog, output=output, ftype='cheby2', fs=fs)


def _notch_peak(w0, Q, ftype, fs):
    fs = _validate_fs(fs, allow_none=False)
    w0 = 2 * float(w0) / fs
    Q = float(Q)
    if w0 > 1.0 or w0 < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * numpy.pi
    w0 = w0 * numpy.pi
    beta = numpy.tan(bw / 2.0)
    gain = 1.0 / (1.0 + beta)
    if ftype == 'notch':
        b = gain * numpy.array([1.0, -2.0 * numpy.cos(w0), 1.0])
    else:
        b = (1.0 - gain) * numpy.array([1.0, 0.0, -1.0])
    a = numpy.array([1.0, -2.0 * gain * numpy.cos(w0), (2.0 * gain - 1.0)])
    return _out(b, a)


def iirnotch(w0, Q, fs=2.0):
    """Second-order IIR notch filter (scipy.signal.iirnotch)."""
    return _notch_peak(w0, Q, 'notch', fs)


def iirpeak(w0, Q, fs=2.0):
    """Second-order IIR peak (resonant) filter (scipy.signal.iirpeak)."""
    return _notch_peak(w0, Q, 'peak', fs)


def iircomb(w0, Q, ftype='notch', fs=2.0, *, pass_zero=False):
    """IIR notching or peaking comb filter (scipy.signal.iircomb)."""
    w0 = float(w0)
    Q = float(Q)
    fs = _validate_fs(fs, allow_none=False)
    if w0 <= 0 or w0 >= fs / 2:
        raise ValueError(f"w0 must be between 0 and {fs / 2} (Nyquist), but given {w0}.")
    ftype = ftype.lower()
    if ftype not in ('notch', 'peak'):
        raise ValueError('ftype must be either notch or peak.')
    N = round(fs / w0)
    if abs(w0 - fs / N) / fs > 1e-14:
        raise ValueError('fs must be divisible by w0.')
    w0 = (2 * numpy.pi * w0) / fs
    wd = w0 / Q
    G0, G = (1, 0) if ftype == 'notch' else (0, 1)
    GB = 1 / numpy.sqrt(2)
    beta = numpy.sqrt((GB ** 2 - G0 ** 2) / (G ** 2 - GB ** 2)) * numpy.tan(N * wd / 4)
    ax = (1 - beta) / (1 + beta)
    bx = (G0 + G * beta) / (1 + beta)
    cx = (G0 - G * beta) / (1 + beta)
    neg = (ftype == 'peak' and pass_zero) or (ftype == 'notch' and not pass_zero)
    b = numpy.zeros(N + 1)
    b[0] = bx
    b[-1] = -cx if neg else cx
    a = numpy.zeros(N + 1)
    a[0] = 1
    a[-1] = -ax if neg else ax
    return _out(b, a)


def _order_prep(wp, ws, analog, fs):
    fs = _validate_fs(fs, allow_none=True)
    wp = numpy.atleast_1d(_host(wp)).astype(float)
    ws = numpy.atleast_1d(_host(ws)).astype(float)
    if wp.shape != ws.shape:
        raise ValueError("wp and ws must have one or two elements each, and the same shape, got "
                         f"{wp.shape} and {ws.shape}")
    if any(wp <= 0) or any(ws <= 0):
        raise ValueError("Values for wp, ws must be greater than 0")
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        wp = 2 * wp / fs
        ws = 2 * ws / fs
    if not analog:
        if any(wp >= 1) or any(ws >= 1):
            raise ValueError("Values for wp, ws must be less than fs/2 (fs={} -> fs/2={})".format(
                fs, fs / 2) if fs is not None else "Values for wp, ws must be less than 1")
    if wp.shape[0] == 2:
        if not ((ws[0] < wp[0] and wp[1] < ws[1]) or (wp[0] < ws[0] and ws[1] < wp[1])):
            raise ValueError("Passband must lie strictly inside stopband or vice versa")
    ftype = 2 * (len(wp) - 1) + 1
    if wp[0] >= ws[0]:
        ftype += 1
    return wp, ws, ftype, fs


def _prewarp(w, analog):
    return w if analog else numpy.tan(numpy.pi * w / 2.0)


def _band_stop_obj(wp, ind, passb, stopb, gpass, gstop, kind):
    passb = passb.copy()
    passb[ind] = wp
    nat = stopb * (passb[0] - passb[1]) / (stopb ** 2 - passb[0] * passb[1])
    nat = min(abs(nat))
    if kind == 'butter':
        GSTOP = 10 ** (0.1 * abs(gstop))
        GPASS = 10 ** (0.1 * abs(gpass))
        return numpy.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * numpy.log10(nat))
    if kind == 'cheby':
        GSTOP = 10 ** (0.1 * abs(gstop))
        GPASS = 10 ** (0.1 * abs(gpass))
        return numpy.arccosh(numpy.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / numpy.arccosh(nat)
    if kind == 'ellip':
        from cuarray.scipy.signal._filter_design_more import _ellip_ratio
        return _ellip_ratio(nat, gpass, gstop)
    raise ValueError(f"Incorrect type: {kind}")


def band_stop_obj(wp, ind, passb, stopb, gpass, gstop, type):
    """Band-stop objective function for order minimization (scipy.signal.band_stop_obj)."""
    return _band_stop_obj(wp, ind, numpy.asarray(_host(passb), float), numpy.asarray(_host(stopb), float),
                          gpass, gstop, type)


def _natural(wp, ws, ftype, gpass, gstop, kind):
    passb, stopb = wp.copy(), ws.copy()
    if ftype == 1:
        return min(abs(stopb / passb))
    if ftype == 2:
        return min(abs(passb / stopb))
    if ftype == 3:
        # Bandstop: tighten the passband edges to minimise the order, as SciPy does with fminbound.
        wp0 = _fminbound(lambda w: _band_stop_obj(w, 0, passb, stopb, gpass, gstop, kind),
                         passb[0], stopb[0] - 1e-12)
        wp1 = _fminbound(lambda w: _band_stop_obj(w, 1, passb, stopb, gpass, gstop, kind),
                         stopb[1] + 1e-12, passb[1])
        passb = numpy.array([wp0, wp1], float)
        nat = (stopb * (passb[0] - passb[1])) / (stopb ** 2 - passb[0] * passb[1])
        return min(abs(nat)), passb
    nat = (stopb ** 2 - passb[0] * passb[1]) / (stopb * (passb[0] - passb[1]))
    return min(abs(nat))


def _fminbound(f, a, b, xtol=1e-5, maxiter=500):
    """Brent's bounded scalar minimisation (golden section with parabolic steps)."""
    golden = 0.5 * (3.0 - math.sqrt(5.0))
    sqrt_eps = math.sqrt(2.2e-16)
    fulc = a + golden * (b - a)
    nfc, xf = fulc, fulc
    rat = e = 0.0
    x = xf
    fx = f(x)
    fu = numpy.inf
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = sqrt_eps * abs(xf) + xtol / 3.0
    tol2 = 2.0 * tol1
    it = 0
    while abs(xf - xm) > (tol2 - 0.5 * (b - a)) and it < maxiter:
        golden_step = True
        if abs(e) > tol1:
            golden_step = False
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            p = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r = e
            e = rat
            if abs(p) < abs(0.5 * q * r) and p > q * (a - xf) and p < q * (b - xf):
                rat = (p + 0.0) / q
                x = xf + rat
                if (x - a) < tol2 or (b - x) < tol2:
                    rat = tol1 * (1 if xm - xf >= 0 else -1)
            else:
                golden_step = True
        if golden_step:
            e = (a - xf) if xf >= xm else (b - xf)
            rat = golden * e
        x = xf + (1 if rat >= 0 else -1) * max(abs(rat), tol1)
        fu = f(x)
        it += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if fu <= fnfc or nfc == xf:
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif fu <= ffulc or fulc == xf or fulc == nfc:
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = sqrt_eps * abs(xf) + xtol / 3.0
        tol2 = 2.0 * tol1
    return xf


def _ord_common(wp, ws, gpass, gstop, analog, fs, kind):
    wp, ws, ftype, fs = _order_prep(wp, ws, analog, fs)
    passb = _prewarp(wp, analog)
    stopb = _prewarp(ws, analog)
    res = _natural(passb, stopb, ftype, gpass, gstop, 'butter' if kind == 'butter' else 'cheby')
    if ftype == 3:
        nat, passb = res
    else:
        nat = res
    return wp, ws, ftype, fs, passb, stopb, nat


def _unwarp(w, analog, fs):
    w = w if analog else (2.0 / numpy.pi) * numpy.arctan(w)
    if fs is not None:
        w = w * fs / 2
    return w


def buttord(wp, ws, gpass, gstop, analog=False, fs=None):
    """Lowest Butterworth order meeting the specification, and its natural frequency (scipy.signal.buttord)."""
    _validate_fs(fs, allow_none=True)
    wp_, ws_, ftype, fs, passb, stopb, nat = _ord_common(wp, ws, gpass, gstop, analog, fs, 'butter')
    GSTOP = 10 ** (0.1 * abs(gstop))
    GPASS = 10 ** (0.1 * abs(gpass))
    ord = int(numpy.ceil(numpy.log10((GSTOP - 1.0) / (GPASS - 1.0)) / (2 * numpy.log10(nat))))
    try:
        W0 = (GPASS - 1.0) ** (-1.0 / (2.0 * ord))
    except ZeroDivisionError:
        W0 = 1.0
        warnings.warn("Order is zero...check input parameters.", RuntimeWarning, stacklevel=2)
    if ftype == 1:
        WN = W0 * passb
    elif ftype == 2:
        WN = passb / W0
    elif ftype == 3:
        WN = numpy.empty(2, float)
        disc = numpy.sqrt((passb[1] - passb[0]) ** 2 + 4 * W0 ** 2 * passb[0] * passb[1])
        WN[0] = ((passb[1] - passb[0]) + disc) / (2 * W0)
        WN[1] = ((passb[1] - passb[0]) - disc) / (2 * W0)
        WN = numpy.sort(abs(WN))
    else:
        W0 = numpy.array([-W0, W0], float)
        WN = (-W0 * (passb[1] - passb[0]) / 2.0 + numpy.sqrt(W0 ** 2 / 4.0 * (passb[1] - passb[0]) ** 2
                                                           + passb[0] * passb[1]))
        WN = numpy.sort(abs(WN))
    wn = _unwarp(WN, analog, fs)
    if len(wn) == 1:
        wn = wn[0]
    return ord, wn


def cheb1ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """Lowest Chebyshev I order meeting the specification (scipy.signal.cheb1ord)."""
    wp_, ws_, ftype, fs, passb, stopb, nat = _ord_common(wp, ws, gpass, gstop, analog, fs, 'cheby')
    GSTOP = 10 ** (0.1 * abs(gstop))
    GPASS = 10 ** (0.1 * abs(gpass))
    ord = int(numpy.ceil(numpy.arccosh(numpy.sqrt((GSTOP - 1.0) / (GPASS - 1.0))) / numpy.arccosh(nat)))
    wn = _unwarp(passb, analog, fs)
    if len(wn) == 1:
        wn = wn[0]
    return ord, wn


def cheb2ord(wp, ws, gpass, gstop, analog=False, fs=None):
    """Lowest Chebyshev II order meeting the specification (scipy.signal.cheb2ord)."""
    wp_, ws_, ftype, fs, passb, stopb, nat = _ord_common(wp, ws, gpass, gstop, analog, fs, 'cheby')
    GSTOP = 10 ** (0.1 * abs(gstop))
    GPASS = 10 ** (0.1 * abs(gpass))
    v = numpy.sqrt((GSTOP - 1.0) / (GPASS - 1.0))
    ord = int(numpy.ceil(numpy.arccosh(v) / numpy.arccosh(nat)))
    new_freq = numpy.cosh(1.0 / ord * numpy.arccosh(v))
    new_freq = 1.0 / new_freq
    if ftype == 1:
        nat = passb / new_freq
    elif ftype == 2:
        nat = passb * new_freq
    elif ftype == 3:
        nat = numpy.empty(2, float)
        nat[0] = (new_freq / 2.0 * (passb[0] - passb[1])
                  + numpy.sqrt(new_freq ** 2 * (passb[1] - passb[0]) ** 2 / 4.0 + passb[1] * passb[0]))
        nat[1] = passb[1] * passb[0] / nat[0]
    else:
        nat = numpy.empty(2, float)
        nat[0] = (1.0 / (2.0 * new_freq) * (passb[0] - passb[1])
                  + numpy.sqrt((passb[1] - passb[0]) ** 2 / (4.0 * new_freq ** 2) + passb[1] * passb[0]))
        nat[1] = passb[0] * passb[1] / nat[0]
    wn = _unwarp(nat, analog, fs)
    if len(wn) == 1:
        wn = wn[0]
    return ord, wn


# -- FIR design (host) --------------------------------------------------------------------------------------
def kaiser_beta(a):
    """Kaiser window beta for a stopband attenuation of a dB (scipy.signal.kaiser_beta)."""
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def kaiser_atten(numtaps, width):
    """Kaiser's attenuation estimate in dB for an FIR filter (scipy.signal.kaiser_atten)."""
    return 2.285 * (numtaps - 1) * numpy.pi * width + 7.95


def kaiserord(ripple, width):
    """Kaiser window parameters for an FIR design: (numtaps, beta) (scipy.signal.kaiserord)."""
    A = abs(ripple)
    if A < 8:
        raise ValueError(f"Requested maximum ripple attenuation {A:f} is too small for the Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (numpy.pi * width) + 1
    return int(math.ceil(numtaps)), beta


def firwin(numtaps, cutoff, *, width=None, window='hamming', pass_zero=True, scale=True, fs=None):
    """FIR filter design by the window method (scipy.signal.firwin)."""
    fs = _validate_fs(fs, allow_none=True)
    nyq = 0.5 * (2 if fs is None else fs)
    cutoff = numpy.atleast_1d(_host(cutoff)) / float(nyq)
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    if cutoff.size == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    if cutoff.min() <= 0 or cutoff.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.")
    if numpy.any(numpy.diff(cutoff) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly increasing.")
    if width is not None:
        window = ('kaiser', kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    if isinstance(pass_zero, str):
        if pass_zero in ('bandstop', 'lowpass'):
            if pass_zero == 'lowpass':
                if cutoff.size != 1:
                    raise ValueError(f'cutoff must have one element if pass_zero=="lowpass", got {cutoff.shape}')
            elif cutoff.size <= 1:
                raise ValueError('cutoff must have at least two elements if pass_zero=="bandstop", '
                                 f'got {cutoff.shape}')
            pass_zero = True
        elif pass_zero in ('bandpass', 'highpass'):
            if pass_zero == 'highpass':
                if cutoff.size != 1:
                    raise ValueError(f'cutoff must have one element if pass_zero=="highpass", got {cutoff.shape}')
            elif cutoff.size <= 1:
                raise ValueError('cutoff must have at least two elements if pass_zero=="bandpass", '
                                 f'got {cutoff.shape}')
            pass_zero = False
        else:
            raise ValueError('pass_zero must be True, False, "bandpass", "lowpass", "highpass", or "bandstop", '
                             f'got {pass_zero}')
    pass_zero = bool(operator.index(pass_zero))
    pass_nyquist = bool(cutoff.size & 1) ^ pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must have zero response at the "
                         "Nyquist frequency.")
    edges = numpy.hstack(([0.0] * pass_zero, cutoff, [1.0] * pass_nyquist))
    bands = edges.reshape(-1, 2)
    m = numpy.arange(0, numtaps) - 0.5 * (numtaps - 1)
    h = 0
    for left, right in bands:
        h = h + right * numpy.sinc(right * m) - left * numpy.sinc(left * m)
    h = h * _windows._host(_windows.get_window(window, numtaps, fftbins=False))
    if scale:
        left, right = bands[0]
        f = 0.0 if left == 0 else (1.0 if right == 1 else 0.5 * (left + right))
        h = h / numpy.sum(h * numpy.cos(numpy.pi * m * f))
    return _cp.asarray(h)


# -- frequency responses (device) ----------------------------------------------------------------------------
def _is_int(w):
    return isinstance(w, (int, numpy.integer)) and not isinstance(w, bool)


def _grid(worN, whole, fs, include_nyquist=False):
    """Frequencies in radians/sample (host for int worN, device for given points) and their fs units."""
    if worN is None:
        worN = 512
    if _is_int(worN) or (numpy.ndim(worN) == 0 and not isinstance(worN, _cp.ndarray)
                         and float(worN) == int(worN) and isinstance(worN, (int, numpy.integer))):
        N = operator.index(worN)
        if N < 0:
            raise ValueError(f'worN must be nonnegative, got {N}')
        last = 2 * numpy.pi if whole else numpy.pi
        w = numpy.linspace(0, last, N, endpoint=include_nyquist and not whole)
        return _cp.asarray(w), True
    w = _dev(worN)
    w = _cp.atleast_1d(w).astype(numpy.float64, copy=False)
    return 2 * numpy.pi * w / fs, False


def _horner(c, x):
    """sum_k c[k] x**k with coefficients along c's first axis (device arrays), trailing axes broadcast with x."""
    acc = _cp.zeros(x.shape, dtype=numpy.complex128) + c[-1]
    for j in range(c.shape[0] - 2, -1, -1):
        acc = acc * x + c[j]
    return acc


def freqz(b, a=1, worN=512, whole=False, plot=None, fs=2 * numpy.pi, include_nyquist=False):
    """Frequency response of a digital filter b/a (scipy.signal.freqz), evaluated on the device."""
    b = _cp.atleast_1d(_dev(b))
    a = _cp.atleast_1d(_dev(a))
    fs = _validate_fs(fs, allow_none=False)
    w, _ = _grid(worN, whole, fs, include_nyquist)
    zm1 = _cp.exp(-1j * w)
    if b.ndim > 1 or a.ndim > 1:
        zm1 = zm1.reshape(w.shape + (1,) * (max(b.ndim, a.ndim) - 1))
    h = _horner(b, zm1) / _horner(a, zm1)
    w = w * (fs / (2 * numpy.pi))
    if plot is not None:
        plot(w, h)
    return w, h


def freqz_zpk(z, p, k, worN=512, whole=False, fs=2 * numpy.pi):
    """Frequency response of a digital filter in zpk form (scipy.signal.freqz_zpk), on the device."""
    z = _cp.atleast_1d(_dev(z))
    p = _cp.atleast_1d(_dev(p))
    fs = _validate_fs(fs, allow_none=False)
    w, _ = _grid(worN, whole, fs)
    x = _cp.exp(1j * w)
    h = _cp.zeros(w.shape, dtype=numpy.complex128) + complex(_host(k))
    for r in _host(z).tolist():
        h = h * (x - r)
    for r in _host(p).tolist():
        h = h / (x - r)
    return w * (fs / (2 * numpy.pi)), h


def freqz_sos(sos, worN=512, whole=False, fs=2 * numpy.pi):
    """Frequency response of second-order sections (scipy.signal.freqz_sos), on the device."""
    fs = _validate_fs(fs, allow_none=False)
    sos_h, n = _check_sos(sos)
    if n == 0:
        raise ValueError('Cannot compute frequencies with no sections')
    h = 1.
    w = None
    for row in sos_h:
        w, rowh = freqz(row[:3], row[3:], worN=worN, whole=whole, fs=fs)
        h = h * rowh
    return w, h


def sosfreqz(*args, **kwargs):
    """Frequency response of second-order sections; SciPy's older name of freqz_sos."""
    return freqz_sos(*args, **kwargs)


def findfreqs(num, den, N, kind='ba'):
    """Frequencies where an analog filter's response is interesting (scipy.signal.findfreqs)."""
    if kind == 'ba':
        ep = numpy.atleast_1d(numpy.roots(_host(den))) + 0j
        tz = numpy.atleast_1d(numpy.roots(_host(num))) + 0j
    elif kind == 'zp':
        ep = numpy.atleast_1d(_host(den)) + 0j
        tz = numpy.atleast_1d(_host(num)) + 0j
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    if len(ep) == 0:
        ep = numpy.atleast_1d(-1000) + 0j
    ez = numpy.r_[ep[ep.imag >= 0], tz[(numpy.abs(tz) < 1e5) & (tz.imag >= 0)]]
    integ = numpy.abs(ez) < 1e-10
    hfreq = numpy.round(numpy.log10(numpy.max(3 * numpy.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = numpy.round(numpy.log10(0.1 * numpy.min(numpy.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    return _cp.asarray(numpy.logspace(lfreq, hfreq, N))


def freqs(b, a, worN=200, plot=None):
    """Frequency response of an analog filter b/a (scipy.signal.freqs), on the device."""
    if worN is None:
        w = findfreqs(b, a, 200)
    elif _is_int(worN):
        w = findfreqs(b, a, worN)
    else:
        w = _cp.atleast_1d(_dev(worN))
    s = 1j * w
    bh = numpy.atleast_1d(_host(b))[::-1].copy()
    ah = numpy.atleast_1d(_host(a))[::-1].copy()
    h = _horner(_cp.asarray(bh), s) / _horner(_cp.asarray(ah), s)
    if plot is not None:
        plot(w, h)
    return w, h


def freqs_zpk(z, p, k, worN=200):
    """Frequency response of an analog filter in zpk form (scipy.signal.freqs_zpk), on the device."""
    z = numpy.atleast_1d(_host(z))
    p = numpy.atleast_1d(_host(p))
    if worN is None:
        w = findfreqs(z, p, 200, kind='zp')
    elif _is_int(worN):
        w = findfreqs(z, p, worN, kind='zp')
    else:
        w = _cp.atleast_1d(_dev(worN))
    s = 1j * w
    h = _cp.zeros(s.shape, dtype=numpy.complex128) + complex(_host(k))
    for r in z.tolist():
        h = h * (s - r)
    for r in p.tolist():
        h = h / (s - r)
    return w, h


def group_delay(system, w=512, whole=False, fs=2 * numpy.pi):
    """Group delay of a digital filter (scipy.signal.group_delay), on the device."""
    fs = _validate_fs(fs, allow_none=False)
    if w is None:
        w = 512
    if _is_int(w):
        w = _cp.asarray(numpy.linspace(0, 2 * numpy.pi if whole else numpy.pi, w, endpoint=False))
    else:
        w = _cp.atleast_1d(_dev(w)).astype(numpy.float64, copy=False)
        w = 2 * numpy.pi * w / fs
    b, a = (numpy.atleast_1d(_host(v)) for v in system)
    c = numpy.convolve(b, numpy.conjugate(a[::-1]))
    cr = c * numpy.arange(c.size)
    z = _cp.exp(-1j * w)
    num = _horner(_cp.asarray(cr), z)
    den = _horner(_cp.asarray(c), z)
    gd = (num / den).real - a.size + 1
    singular = ~_cp.isfinite(gd)
    if bool(singular.any()):
        gd = _cp.where(singular, 0.0, gd)
        warnings.warn(f"The group delay is singular at frequencies [{', '.join(f'{ws:.3f}' for ws in _host(w[singular]))}], "
                      "setting to 0", stacklevel=2)
    else:
        near = _cp.abs(den) < 10 * numpy.finfo(numpy.float64).eps
        if bool(near.any()):
            warnings.warn("The filter's denominator is extremely small at frequencies "
                          f"[{', '.join(f'{ws:.3f}' for ws in _host(w[near]))}], around which a singularity "
                          "may be present", stacklevel=2)
    return w * (fs / (2 * numpy.pi)), gd
