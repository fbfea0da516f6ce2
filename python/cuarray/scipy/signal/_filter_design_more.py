"""scipy.signal's elliptic and Bessel IIR design, iirdesign, and FIR design by least squares, frequency sampling,
minimum phase and gammatone: coefficients computed on the host in float64 NumPy, returned as cuarray arrays.

The elliptic prototype follows Orfanidis' construction ("Lecture Notes on Elliptic Filter Design"): the degree
equation is solved through nomes, the zeros and poles come from Jacobi's sn/cn/dn, and the pole offset v0 from the
inverse of sc by descending Landen transformations. The complete integral and the Jacobi functions are computed
here by the arithmetic-geometric mean (no SciPy at run time).
"""
import cmath
import math
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray.scipy.signal import _filter_design as _fd
from cuarray.scipy.signal.windows import _windows

_host = _fd._host
_EPS = 2e-16                 # zeros/poles closer than this to the real axis count as real (SciPy's threshold)
_LANDEN_MAXITER = 10


def _out(*arrays):
    return tuple(_cp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in arrays)


# -- elliptic integrals and functions (host) -------------------------------------------------------------------
def _agm(a, b):
    # Quadratic convergence: 8 steps suffice from b/a >= 1e-300; the bound stops a last-bit oscillation.
    for _ in range(64):
        if abs(a - b) <= 4e-16 * a:
            break
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return 0.5 * (a + b)


def _ellipk(m):
    """K(m) for 0 <= m < 1 (inf at m = 1): pi / (2 AGM(1, sqrt(1 - m)))."""
    if m == 1:
        return math.inf
    return math.pi / (2.0 * _agm(1.0, math.sqrt(1.0 - m)))


def _ellipkm1(p):
    """K(1 - p), given p itself so that K near m = 1 keeps the digits of a small p."""
    if p == 0:
        return math.inf
    return math.pi / (2.0 * _agm(1.0, math.sqrt(p)))


def _ellipj(u, m):
    """Jacobi sn, cn, dn of real u (scalar or array) and parameter 0 <= m <= 1, by the descending AGM sequence
    and the back substitution of the amplitude (A&S 16.4)."""
    u = numpy.asarray(u, dtype=float)
    if m == 0:
        return numpy.sin(u), numpy.cos(u), numpy.ones_like(u)
    if m == 1:
        t = 1.0 / numpy.cosh(u)
        return numpy.tanh(u), t, t
    a, b, c = [1.0], [math.sqrt(1.0 - m)], [math.sqrt(m)]
    while abs(c[-1]) > 1e-16 * a[-1] and len(a) < 40:
        a.append(0.5 * (a[-1] + b[-1]))
        c.append(0.5 * (a[-2] - b[-1]))
        b.append(math.sqrt(a[-2] * b[-1]))
    n = len(a) - 1
    phi = (2.0 ** n) * a[n] * u
    prev = phi
    for j in range(n, 0, -1):
        prev = phi
        phi = 0.5 * (phi + numpy.arcsin(c[j] / a[j] * numpy.sin(phi)))
    sn, cn = numpy.sin(phi), numpy.cos(phi)
    # dn = cn / cos(phi_1 - phi_0) except where cn ~ 0 (ill-conditioned): there dn^2 = (1 - m) + m cn^2, which
    # does not cancel (1 - m sn^2 would, for m near 1).
    with numpy.errstate(all='ignore'):
        dn = numpy.where(numpy.abs(cn) > 0.25, cn / numpy.cos(prev - phi), numpy.sqrt((1.0 - m) + m * cn * cn))
    return sn, cn, dn


def _ellipdeg(n, m1):
    """Solve n K'(m)/K(m) = K'(m1)/K(m1) for m through the nome: q = q1^(1/n), m from q's theta series."""
    q = math.exp(-math.pi * _ellipkm1(m1) / _ellipk(m1)) ** (1.0 / n)
    i = numpy.arange(8)
    num = numpy.sum(q ** (i * (i + 1)))
    den = 1.0 + 2.0 * numpy.sum(q ** ((i + 1) ** 2))
    return 16.0 * q * (num / den) ** 4


def _kcomp(k):
    return numpy.sqrt((1 - k) * (1 + k))


def _arc_sn(w, m):
    """z with sn(z, m) = w (complex w), by descending Landen transformations of the modulus down to 0."""
    k = math.sqrt(m)
    if k > 1:
        return numpy.nan
    if k == 1:
        return numpy.arctanh(w)
    ks = [k]
    while ks[-1] != 0:
        kp = _kcomp(ks[-1])
        ks.append((1 - kp) / (1 + kp))
        if len(ks) > _LANDEN_MAXITER + 1:
            raise ValueError('Landen transformation not converging')
    K = math.pi / 2 * numpy.prod([1 + kn for kn in ks[1:]])
    for kn, knext in zip(ks[:-1], ks[1:]):
        w = 2 * w / ((1 + knext) * (1 + _kcomp(kn * w)))
    return K * (2 / math.pi) * numpy.arcsin(w)


def _arc_sc1(w, m):
    """Real z with sc(z, 1 - m) = w, from sc(z, 1 - m) = -i sn(i z, m)."""
    z = _arc_sn(1j * w, m)
    if abs(z.real) > 1e-14:
        raise ValueError
    return z.imag


def _pow10m1(x):
    return math.expm1(math.log(10) * x)


def _check_order(N):
    if abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    return int(N)


def _ellipap(N, rp, rs):
    N = _check_order(N)
    if N == 0:
        return numpy.array([], complex), numpy.array([], complex), 10 ** (-rp / 20)
    if N == 1:
        p = -math.sqrt(1.0 / _pow10m1(0.1 * rp))
        return numpy.array([], complex), numpy.asarray(p, complex), -p
    eps_sq = _pow10m1(0.1 * rp)
    eps = math.sqrt(eps_sq)
    ck1_sq = eps_sq / _pow10m1(0.1 * rs)
    if ck1_sq == 0:
        raise ValueError("Cannot design a filter with given rp and rs specifications.")
    K1 = _ellipk(ck1_sq)
    m = _ellipdeg(N, ck1_sq)
    capk = _ellipk(m)
    j = numpy.arange(1 - N % 2, N, 2)
    s, c, d = _ellipj(j * capk / N, m)
    # Zeros at i / (k sn(j K/N)) (and conjugates); sn = 0 (j = 0, odd N) is the zero at infinity.
    zs = 1j / (math.sqrt(m) * s[numpy.abs(s) > _EPS])
    z = numpy.concatenate((zs, zs.conj()))
    v0 = capk * _arc_sc1(1.0 / eps, ck1_sq) / (N * K1)
    sv, cv, dv = (float(v) for v in _ellipj(v0, 1 - m))
    p = -(c * d * sv * cv + 1j * s * dv) / (1 - (d * sv) ** 2.0)
    if N % 2:
        cplx = numpy.abs(p.imag) > _EPS * numpy.sqrt(numpy.sum(p * p.conj()).real)
        p = numpy.concatenate((p, p[cplx].conj()))
    else:
        p = numpy.concatenate((p, p.conj()))
    k = (numpy.prod(-p) / numpy.prod(-z)).real
    if N % 2 == 0:
        k = k / math.sqrt(1 + eps_sq)
    return z.astype(complex), p.astype(complex), float(k)


def ellipap(N, rp, rs):
    """Analog elliptic (Cauer) lowpass prototype: rp dB passband ripple, rs dB stopband (scipy.signal.ellipap)."""
    return _out(*_ellipap(N, rp, rs))


# -- Bessel prototype (host) -----------------------------------------------------------------------------------
def _newton_ratio(coef, r):
    """f(r)/f'(r) for the integer polynomial sum coef[k] s^k, f and f' evaluated exactly: r = (X + iY)/2^E in
    Gaussian integers, so that no rounding limits the roots (the float recurrence stalls at ~1e-9 from N = 14)."""
    nr, dr = r.real.as_integer_ratio()
    ni, di = r.imag.as_integer_ratio()
    E = max(dr.bit_length(), di.bit_length()) - 1          # denominators are powers of two
    X, Y = nr << (E - dr.bit_length() + 1), ni << (E - di.bit_length() + 1)
    fr = fi = pr = pi = 0
    for k, c in enumerate(reversed(coef)):
        # p <- p s + f, then f <- f s + c, both scaled by 2^(E k) to stay integral
        pr, pi = pr * X - pi * Y + (fr << E), pr * Y + pi * X + (fi << E)
        fr, fi = fr * X - fi * Y + (c << (E * k)), fr * Y + fi * X
    den = pr * pr + pi * pi
    if den == 0:
        return 0j
    # f and f' both carry 1/2^(E N): f/f' = F conj(P) / |P|^2
    return complex((fr * pr + fi * pi) / den, (fi * pr - fr * pi) / den)


def _bessel_poles(N):
    """Roots of theta_N (the delay-normalised Bessel poles), largest imaginary part first."""
    if N == 1:
        return numpy.array([-1.0 + 0j])
    coef = [math.factorial(2 * N - k) // (2 ** (N - k) * math.factorial(k) * math.factorial(N - k))
            for k in range(N + 1)]                 # coefficient of s^k
    big = max(coef)
    x = numpy.roots(numpy.array([c / big for c in coef[::-1]], float)).astype(complex)
    # Aberth-Ehrlich iteration (simultaneous Newton with mutual repulsion of the roots) on exact f/f'.
    for _ in range(200):
        alpha = numpy.array([_newton_ratio(coef, r) for r in x])
        diff = x[:, None] - x[None, :]
        numpy.fill_diagonal(diff, numpy.inf)
        beta = numpy.sum(1.0 / diff, axis=1)
        step = alpha / (1 - alpha * beta)
        x = x - step
        if numpy.all(numpy.abs(step) <= 4e-16 * numpy.abs(x)):
            break
    x = x[numpy.argsort(-x.imag, kind='stable')]
    x = 0.5 * (x + x[::-1].conj())        # exact conjugate symmetry
    if N % 2:
        x[N // 2] = x[N // 2].real
    return x


def _besselap(N, norm='phase'):
    N = _check_order(N)
    if N == 0:
        return numpy.array([]), numpy.array([], complex), 1.0
    p = _bessel_poles(N)
    a_last = math.factorial(2 * N) // (math.factorial(N) * 2 ** N)
    if norm in ('delay', 'mag'):
        k = a_last
        if norm == 'mag':
            w = _mag_cutoff(p, k)
            p = p / w
            k = w ** -N * a_last
    elif norm == 'phase':
        p = p * 10 ** (-math.log10(a_last) / N)
        k = 1
    else:
        raise ValueError('normalization not understood')
    return numpy.array([]), p.astype(complex), float(k)


def _mag_cutoff(p, k):
    """The frequency where |k / prod(jw - p)| is 1/sqrt(2) (the delay-normalised gain falls monotonically)."""
    def g(w):
        return abs(k / numpy.prod(1j * w - p)) - 1 / math.sqrt(2)
    lo, hi = 0.0, 1.0
    while g(hi) > 0:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return lo if abs(g(lo)) <= abs(g(hi)) else hi


def besselap(N, norm='phase'):
    """Analog Bessel/Thomson lowpass prototype (scipy.signal.besselap); norm 'phase', 'delay' or 'mag'."""
    return _out(*_besselap(N, norm))


_BESSEL_NORMS = {'bessel': 'phase', 'bessel_phase': 'phase', 'bessel_delay': 'delay', 'bessel_mag': 'mag'}


def _prototype(kind, ftype, N, rp, rs):
    """The ellip and bessel prototypes for _filter_design.iirfilter."""
    if kind == 'ellip':
        if rs is None or rp is None:
            raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
        return _ellipap(N, rp, rs)
    return _besselap(N, norm=_BESSEL_NORMS[ftype])


def ellip(N, rp, rs, Wn, btype='low', analog=False, output='ba', fs=None):
    """Elliptic (Cauer) digital or analog filter (scipy.signal.ellip)."""
    return _fd.iirfilter(N, Wn, rs=rs, rp=rp, btype=btype, analog=analog, output=output, ftype='elliptic', fs=fs)


def bessel(N, Wn, btype='low', analog=False, output='ba', norm='phase', fs=None):
    """Bessel/Thomson digital or analog filter (scipy.signal.bessel)."""
    return _fd.iirfilter(N, Wn, btype=btype, analog=analog, output=output, ftype='bessel_' + norm, fs=fs)


# -- order selection and iirdesign (host) ----------------------------------------------------------------------
def _validate_gpass_gstop(gpass, gstop):
    if gpass <= 0.0:
        raise ValueError("gpass should be larger than 0.0")
    if gstop <= 0.0:
        raise ValueError("gstop should be larger than 0.0")
    if gpass > gstop:
        raise ValueError("gpass should be smaller than gstop")


def _ellip_ratio(nat, gpass, gstop):
    """The real order n of an elliptic filter: K(1/nat^2) K'(e^2) / (K'(1/nat^2) K(e^2)), e^2 = GPASS'/GSTOP'."""
    arg0_sq = (1.0 / nat) ** 2
    arg1_sq = _pow10m1(0.1 * gpass) / _pow10m1(0.1 * gstop)
    return _ellipk(arg0_sq) * _ellipkm1(arg1_sq) / (_ellipkm1(arg0_sq) * _ellipk(arg1_sq))


def ellipord(wp, ws, gpass, gstop, analog=False, fs=None):
    """Lowest elliptic order meeting the specification, and its critical frequency (scipy.signal.ellipord)."""
    fs = _fd._validate_fs(fs, allow_none=True)
    _validate_gpass_gstop(gpass, gstop)
    wp, ws, ftype, fs = _fd._order_prep(wp, ws, analog, fs)
    passb = _fd._prewarp(wp, analog)
    stopb = _fd._prewarp(ws, analog)
    res = _fd._natural(passb, stopb, ftype, gpass, gstop, 'ellip')
    if ftype == 3:
        nat, passb = res
    else:
        nat = res
    order = int(numpy.ceil(_ellip_ratio(nat, gpass, gstop)))
    wn = _fd._unwarp(passb, analog, fs)
    if len(wn) == 1:
        wn = wn[0]
    return order, wn


_ORDFUNCS = {'butter': 'buttord', 'butterworth': 'buttord', 'cauer': 'ellipord', 'elliptic': 'ellipord',
             'ellip': 'ellipord', 'cheby1': 'cheb1ord', 'chebyshev1': 'cheb1ord', 'chebyshevi': 'cheb1ord',
             'cheby2': 'cheb2ord', 'chebyshev2': 'cheb2ord', 'chebyshevii': 'cheb2ord',
             'bessel': None, 'bessel_phase': None, 'bessel_delay': None, 'bessel_mag': None}


def iirdesign(wp, ws, gpass, gstop, analog=False, ftype='ellip', output='ba', fs=None):
    """Complete IIR design from passband and stopband edges and their gains (scipy.signal.iirdesign)."""
    try:
        ordname = _ORDFUNCS[ftype]
    except KeyError as e:
        raise ValueError(f"Invalid IIR filter type: {ftype}") from e
    if ordname is None:
        raise ValueError(f"{ftype} does not have order selection. Use iirfilter function.")
    ordfunc = ellipord if ordname == 'ellipord' else getattr(_fd, ordname)
    _validate_gpass_gstop(gpass, gstop)
    wp = numpy.atleast_1d(_host(wp))
    ws = numpy.atleast_1d(_host(ws))
    fs = _fd._validate_fs(fs, allow_none=True)
    if wp.shape[0] != ws.shape[0] or wp.shape not in [(1,), (2,)]:
        raise ValueError("wp and ws must have one or two elements each, and "
                         f"the same shape, got {wp.shape} and {ws.shape}")
    if numpy.any(wp <= 0) or numpy.any(ws <= 0):
        raise ValueError("Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None:
            if numpy.any(wp >= 1) or numpy.any(ws >= 1):
                raise ValueError("Values for wp, ws must be less than 1")
        elif numpy.any(wp >= fs / 2) or numpy.any(ws >= fs / 2):
            raise ValueError(f"Values for wp, ws must be less than fs/2 (fs={fs} -> fs/2={fs / 2})")
    if wp.shape[0] == 2:
        if not ((ws[0] < wp[0] and wp[1] < ws[1]) or (wp[0] < ws[0] and ws[1] < wp[1])):
            raise ValueError("Passband must lie strictly inside stopband or vice versa")
    band = 2 * (wp.shape[0] - 1) + 1 + (1 if wp[0] >= ws[0] else 0)
    btype = {1: 'lowpass', 2: 'highpass', 3: 'bandstop', 4: 'bandpass'}[band]
    N, Wn = ordfunc(wp, ws, gpass, gstop, analog=analog, fs=fs)
    return _fd.iirfilter(N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype, ftype=ftype, output=output,
                         fs=fs)


# -- FIR design (host) -----------------------------------------------------------------------------------------
def firls(numtaps, bands, desired, *, weight=None, fs=None):
    """Linear-phase FIR filter minimising the weighted squared error to a piecewise-linear response
    (scipy.signal.firls)."""
    fs = _fd._validate_fs(fs, allow_none=True)
    nyq = 0.5 * (2 if fs is None else fs)
    numtaps = int(numtaps)
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError("numtaps must be odd and >= 1")
    M = (numtaps - 1) // 2
    nyq = float(nyq)
    if nyq <= 0:
        raise ValueError(f'nyq must be positive, got {nyq} <= 0.')
    bands = numpy.asarray(_host(bands), dtype=float).ravel() / nyq
    if len(bands) % 2 != 0:
        raise ValueError("bands must contain frequency pairs.")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("bands must be between 0 and 1 relative to Nyquist")
    bands = bands.reshape(-1, 2)
    desired = numpy.asarray(_host(desired), dtype=float).ravel()
    if bands.size != desired.size:
        raise ValueError(f"desired must have one entry per frequency, got {desired.size} "
                         f"gains for {bands.size} frequencies.")
    desired = desired.reshape(-1, 2)
    if (numpy.diff(bands) <= 0).any() or (numpy.diff(bands[:, 0]) < 0).any():
        raise ValueError("bands must be monotonically nondecreasing and have width > 0.")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("bands must not overlap.")
    if (desired < 0).any():
        raise ValueError("desired must be non-negative.")
    weight = numpy.ones(len(desired)) if weight is None else numpy.asarray(_host(weight), dtype=float).ravel()
    if len(weight) != len(desired):
        raise ValueError(f"weight must be the same size as the number of band pairs ({len(bands)}).")
    if (weight < 0).any():
        raise ValueError("weight must be non-negative.")
    # Normal equations of the cosine-series fit (f in units of Nyquist): the Gram matrix is Toeplitz + Hankel in
    # q(n) = sum_bands W [f sinc(n f)] over the band, the right side the integral of W D(f) cos(pi n f).
    n = numpy.arange(numtaps)[:, None, None]
    q = numpy.diff(numpy.sinc(bands * n) * bands, axis=2)[:, :, 0] @ weight
    idx = numpy.arange(M + 1)
    Q = q[numpy.abs(idx[:, None] - idx[None, :])] + q[idx[:, None] + idx[None, :]]
    n = n[:M + 1]
    slope = numpy.diff(desired, axis=1) / numpy.diff(bands, axis=1)
    icpt = desired[:, [0]] - bands[:, [0]] * slope
    b = bands * (slope * bands + icpt) * numpy.sinc(bands * n)
    b[0] -= slope * bands * bands / 2.0                         # the n = 0 limit of the cosine term
    b[1:] += slope * numpy.cos(n[1:] * numpy.pi * bands) / (numpy.pi * n[1:]) ** 2
    b = numpy.diff(b, axis=2)[:, :, 0] @ weight
    a = _spd_solve(Q, b)
    return _cp.asarray(numpy.hstack((a[:0:-1], 2 * a[0], a[1:])))


def _spd_solve(Q, b):
    """Q a = b for the symmetric positive semi-definite Gram matrix: Cholesky where it is well conditioned, the
    minimum-norm least-squares solution where it is (near) singular."""
    try:
        L = numpy.linalg.cholesky(Q)
        d = numpy.diag(L)
        if d.min() ** 2 > numpy.finfo(float).eps * d.max() ** 2:
            return numpy.linalg.solve(L.T, numpy.linalg.solve(L, b))
    except numpy.linalg.LinAlgError:
        pass
    return numpy.linalg.lstsq(Q, b, rcond=None)[0]


def firwin2(numtaps, freq, gain, *, nfreqs=None, window='hamming', antisymmetric=False, fs=None):
    """FIR filter design by frequency sampling of a piecewise-linear gain (scipy.signal.firwin2)."""
    freq = numpy.asarray(_host(freq), dtype=float)
    gain = numpy.asarray(_host(gain), dtype=float)
    fs = _fd._validate_fs(fs, allow_none=True)
    nyq = 0.5 * (2 if fs is None else fs)
    if len(freq) != len(gain):
        raise ValueError('freq and gain must be of same length.')
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f'ntaps must be less than nfreqs, but firwin2 was called with ntaps={numtaps} and '
                         f'nfreqs={nfreqs}')
    if freq[0] != 0 or freq[-1] != nyq:
        raise ValueError('freq must start with 0 and end with fs/2.')
    d = numpy.diff(freq)
    if (d < 0).any():
        raise ValueError('The values in freq must be nondecreasing.')
    if ((d[:-1] + d[1:]) == 0).any():
        raise ValueError('A value in freq must not occur more than twice.')
    if freq[1] == 0:
        raise ValueError('Value 0 must not be repeated in freq')
    if freq[-2] == nyq:
        raise ValueError('Value fs/2 must not be repeated in freq')
    ftype = (3 if numtaps % 2 else 4) if antisymmetric else (1 if numtaps % 2 else 2)
    if ftype == 2 and gain[-1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (gain[0] != 0.0 or gain[-1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist frequencies.")
    if ftype == 4 and gain[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(math.ceil(math.log(numtaps, 2)))
    if (d == 0).any():
        # A step (repeated frequency) is made a steep ramp one rounding unit either side, for interp.
        freq = freq.copy()
        eps = numpy.finfo(float).eps * nyq
        for i in range(len(freq) - 1):
            if freq[i] == freq[i + 1]:
                freq[i] -= eps
                freq[i + 1] += eps
        if (numpy.diff(freq) <= 0).any():
            raise ValueError(f"freq cannot contain numbers that are too close (within eps * (fs/2): {eps}) to "
                             "a repeated value")
    x = numpy.linspace(0.0, nyq, nfreqs)
    fx = numpy.interp(x, freq, gain)
    # A linear phase of (numtaps - 1)/2 samples (times j for the antisymmetric types) centres the impulse
    # response in the first numtaps samples of the inverse real FFT.
    shift = numpy.exp(-(numtaps - 1) / 2. * 1j * numpy.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    full = numpy.fft.irfft(fx * shift)
    win = 1 if window is None else _windows._host(_windows.get_window(window, numtaps, fftbins=False))
    out = full[:numtaps] * win
    if ftype == 3:
        out[out.size // 2] = 0.0
    return _cp.asarray(out)


def _dhtm(mag, fft):
    """Minimum-phase impulse response of a magnitude response by the discrete Hilbert transform of its log."""
    n = mag.shape[0]
    sig = numpy.zeros(n)
    mid = n // 2
    sig[1:mid] = 1
    sig[mid + 1:] = -1
    return fft.ifft(mag * numpy.exp(fft.fft(sig * fft.ifft(numpy.log(mag))))).real


def minimum_phase(h, method='homomorphic', n_fft=None, *, half=True):
    """Minimum-phase FIR filter from a linear-phase one (scipy.signal.minimum_phase)."""
    h = numpy.asarray(_host(h))
    if h.dtype.kind == 'c':
        raise ValueError('Complex filters not supported')
    if h.dtype == numpy.bool_:
        raise TypeError('minimum_phase: boolean h is not supported (SciPy fails on its subtraction)')
    if h.ndim != 1 or h.shape[0] <= 2:
        raise ValueError('h must be 1-D and at least 2 samples long')
    # SciPy's homomorphic path keeps float16/float32 input in single precision (its FFTs do), the rest is
    # float64; computed the same way here, since the float32 result differs from a float64 one by ~1e-5.
    single = h.dtype in (numpy.float16, numpy.float32) and method == 'homomorphic'
    h = h.astype(numpy.float32 if single else numpy.float64)
    n_half = h.shape[0] // 2
    if not numpy.any(h[-n_half:][::-1] - h[:n_half] <= 1e-8 + 1e-6 * abs(h[:n_half])):
        warnings.warn('h does not appear to by symmetric, conversion may fail', RuntimeWarning, stacklevel=2)
    if not isinstance(method, str) or method not in ('homomorphic', 'hilbert'):
        raise ValueError(f'method must be "homomorphic" or "hilbert", got {method!r}')
    if method == 'hilbert' and not half:
        raise ValueError("`half=False` is only supported when `method='homomorphic'`")
    if n_fft is None:
        n_fft = 2 ** int(math.ceil(math.log2(2 * (h.shape[0] - 1) / 0.01)))
    n_fft = int(n_fft)
    if n_fft < h.shape[0]:
        raise ValueError(f'n_fft must be at least len(h)=={len(h)}')
    # The Hilbert method takes the log of a response lifted to touch zero, so its result depends on the FFT's
    # last-bit rounding: use SciPy's FFT (as SciPy does) where SciPy is installed.
    try:
        import scipy.fft as fft
    except ImportError:
        fft = numpy.fft
    if method == 'hilbert':
        w = numpy.arange(n_fft, dtype=numpy.float64) * (2 * numpy.pi / n_fft * n_half)
        H = (fft.fft(h, n_fft) * numpy.exp(1j * w)).real
        dp = H.max() - 1
        ds = 0 - H.min()
        # Lift and scale the zero-phase response to a non-negative one whose square root is the magnitude.
        S = 4. / (numpy.sqrt(1 + dp + ds) + numpy.sqrt(1 - dp + ds)) ** 2
        H = numpy.sqrt((H + ds) * S) + 1e-10
        hmin = _dhtm(H, fft)
    else:
        mag = numpy.abs(fft.fft(h, n_fft))
        mag = mag + 1e-7 * mag[mag > 0].min()            # keeps log finite at zeros of the response
        cep = numpy.log(mag)
        if half:
            cep = cep * 0.5
        cep = fft.ifft(cep).real
        # Fold the real cepstrum onto the causal part: the minimum-phase cepstrum.
        fold = numpy.zeros(n_fft, dtype=cep.dtype)
        fold[0] = 1
        stop = n_fft // 2
        fold[1:stop] = 2
        # The bin at n_fft // 2: 1 for even n_fft (the Nyquist bin), 2 for odd; SciPy >= 1.18's rule (earlier
        # releases zeroed the Nyquist bin of an even transform and halved the last positive bin of an odd one).
        fold[stop] = 1 + n_fft % 2
        hmin = fft.ifft(numpy.exp(fft.fft(cep * fold))).real
    n_out = (n_half + h.shape[0] % 2) if half else h.shape[0]
    return _cp.asarray(hmin[:n_out].astype(numpy.float32 if single else numpy.float64))


def _hz_to_erb(hz):
    # Glasberg and Moore's equivalent rectangular bandwidth.
    return hz / 9.26449 + 24.7


def gammatone(freq, ftype, order=None, numtaps=None, fs=None):
    """Gammatone filter, FIR (sampled impulse response) or IIR (Slaney's 4th order) (scipy.signal.gammatone)."""
    freq = float(freq)
    if fs is None:
        fs = 2
    fs = _fd._validate_fs(fs, allow_none=False)
    ftype = ftype.lower()
    if not 0 < freq < fs / 2:
        raise ValueError(f"The frequency must be between 0 and {fs / 2} (Nyquist), but given {freq}.")
    if ftype not in ('fir', 'iir'):
        raise ValueError('ftype must be either fir or iir.')
    if ftype == 'fir':
        order = operator.index(4 if order is None else order)
        numtaps = operator.index(max(int(fs * 0.015), 15) if numtaps is None else numtaps)
        if not 0 < order <= 24:
            raise ValueError("Invalid order: order must be > 0 and <= 24.")
        t = numpy.arange(numtaps, dtype=numpy.float64) / fs
        bw = 1.019 * _hz_to_erb(freq)
        b = t ** (order - 1) * numpy.exp(-2 * numpy.pi * bw * t) * numpy.cos(2 * numpy.pi * freq * t)
        scale = 2 * (2 * numpy.pi * bw) ** order / float(math.factorial(order - 1)) / fs
        return _out(b * scale, numpy.array([1.0]))
    if order is not None:
        warnings.warn('order is not used for IIR gammatone filter.', stacklevel=2)
    if numtaps is not None:
        warnings.warn('numtaps is not used for IIR gammatone filter.', stacklevel=2)
    T = 1. / fs
    bw = 2 * math.pi * 1.019 * _hz_to_erb(freq)
    fr = 2 * freq * math.pi * T
    bwT = bw * T
    cf = math.cos(fr)
    # The gain at the centre frequency, divided out so that the peak response is 1.
    g1 = -2 * cmath.exp(2j * fr) * T
    g2 = 2 * cmath.exp(-bwT + 1j * fr) * T
    r3 = math.sqrt(3 + 2 ** 1.5) * math.sin(fr)
    r4 = math.sqrt(3 - 2 ** 1.5) * math.sin(fr)
    e2 = cmath.exp(2j * fr)
    g = (g1 + g2 * (cf - r4)) * (g1 + g2 * (cf + r4)) * (g1 + g2 * (cf - r3)) * (g1 + g2 * (cf + r3))
    g = g / ((-2 / math.exp(2 * bwT) - 2 * e2 + 2 * (1 + e2) / math.exp(bwT)) ** 4)
    g = math.hypot(g.real, g.imag)
    T4 = T ** 4
    b = [T4 / g, -4 * T4 * cf / math.exp(bwT) / g, 6 * T4 * math.cos(2 * fr) / math.exp(2 * bwT) / g,
         -4 * T4 * math.cos(3 * fr) / math.exp(3 * bwT) / g, T4 * math.cos(4 * fr) / math.exp(4 * bwT) / g]
    c3 = -8 * (6 * cf + math.cos(3 * fr))
    a = [1, -8 * cf / math.exp(bwT), 4 * (4 + 3 * math.cos(2 * fr)) / math.exp(2 * bwT), c3 / math.exp(3 * bwT),
         2 * (18 + 16 * math.cos(2 * fr) + math.cos(4 * fr)) / math.exp(4 * bwT), c3 / math.exp(5 * bwT),
         4 * (4 + 3 * math.cos(2 * fr)) / math.exp(6 * bwT), -8 * cf / math.exp(7 * bwT), math.exp(-8 * bwT)]
    return _out(numpy.array(b, dtype=float), numpy.array(a, dtype=float))
