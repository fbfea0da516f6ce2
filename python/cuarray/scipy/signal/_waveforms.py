"""scipy.signal's waveforms on the GPU: chirp, gausspulse, sawtooth, square, sweep_poly, unit_impulse, max_len_seq."""
import math

import numpy

import cuarray as _cp


def _dev(a):
    return a if isinstance(a, _cp.ndarray) else _cp.asarray(a)


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _periodic_setup(t, w):
    t, w = _dev(t), _dev(w)
    w = w + (t - t)
    t = t + (w - w)
    return t, w, (w > 1) | (w < 0), _cp.mod(t, 2 * math.pi)


def sawtooth(t, width=1):
    """Periodic sawtooth or triangle wave (scipy.signal.sawtooth); NaN where width is outside [0, 1]."""
    t, w, bad, tmod = _periodic_setup(t, width)
    rising = ~bad & (tmod < w * 2 * math.pi)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        # Both branches are evaluated everywhere; the one a sample does not take may divide by zero.
        up = tmod / (math.pi * w) - 1
        down = (math.pi * (w + 1) - tmod) / (math.pi * (1 - w))
    y = _cp.where(rising, up, down).astype(numpy.float64)
    return _cp.where(bad, numpy.nan, y)


def square(t, duty=0.5):
    """Periodic square wave (scipy.signal.square); NaN where duty is outside [0, 1]."""
    t, w, bad, tmod = _periodic_setup(t, duty)
    high = ~bad & (tmod < w * 2 * math.pi)
    return _cp.where(bad, numpy.nan, _cp.where(high, 1.0, -1.0)).astype(numpy.float64)


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """Gaussian modulated sinusoid (scipy.signal.gausspulse); t='cutoff' gives the cutoff time."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = pow(10.0, bwr / 20.0)
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(ref))
    if isinstance(t, str):
        if t == 'cutoff':
            if tpr >= 0:
                raise ValueError("Reference level for time cutoff must be < 0 dB")
            tref = pow(10.0, tpr / 20.0)
            return numpy.sqrt(-numpy.log(tref) / a)
        raise ValueError("If `t` is a string, it must be 'cutoff'")
    t = _dev(t)
    yenv = _cp.exp(-a * t * t)
    yI = yenv * _cp.cos(2 * math.pi * fc * t)
    if not retquad:
        return (yI, yenv) if retenv else yI
    yQ = yenv * _cp.sin(2 * math.pi * fc * t)
    return (yI, yQ, yenv) if retenv else (yI, yQ)


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    t = _dev(t)
    f0, t1, f1 = float(f0), float(t1), float(f1)
    if method in ('linear', 'lin', 'li'):
        beta = (f1 - f0) / t1
        return 2 * math.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ('quadratic', 'quad', 'q'):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return 2 * math.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * math.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ('logarithmic', 'log', 'lo'):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return 2 * math.pi * beta * f0 * ((f1 / f0) ** (t / t1) - 1.0)
    if method in ('hyperbolic', 'hyp'):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * math.pi * (-sing * f0) * _cp.log(_cp.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', "
                     f"or 'hyperbolic', but a value of {method!r} was given.")


def chirp(t, f0, t1, f1, method='linear', phi=0, vertex_zero=True, *, complex=False):
    """Frequency-swept cosine (scipy.signal.chirp); complex=True gives the analytic exp(1j*phase)."""
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + numpy.deg2rad(phi)
    return _cp.exp(1j * phase) if complex else _cp.cos(phase)


def sweep_poly(t, poly, phi=0):
    """Frequency-swept cosine whose frequency is a polynomial in t (scipy.signal.sweep_poly)."""
    coeffs = numpy.polyint(numpy.asarray(_host(poly) if not isinstance(poly, numpy.poly1d) else poly.coeffs))
    t = _dev(t)
    # Horner's rule on the device; the integrated coefficients are a handful of host numbers.
    acc = _cp.zeros_like(t, dtype=numpy.result_type(t.dtype, coeffs.dtype)) + coeffs[0]
    for c in coeffs[1:]:
        acc = acc * t + c
    return _cp.cos(2 * math.pi * acc + phi * math.pi / 180)


def unit_impulse(shape, idx=None, dtype=float):
    """Unit impulse (Kronecker delta) of the given shape (scipy.signal.unit_impulse)."""
    out = _cp.zeros(shape, dtype)
    shape = numpy.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(shape)
    elif isinstance(idx, str) and idx == 'mid':
        idx = tuple(int(s) for s in shape // 2)
    elif not hasattr(idx, '__iter__'):
        idx = (idx,) * len(shape)
    out[tuple(idx)] = 1
    return out


# Feedback taps of maximal-length shift registers, from nbits to the tap positions (a published table: for
# each register length, the exponents of a primitive polynomial).
_MLS_TAPS = {2: [1], 3: [2], 4: [3], 5: [3], 6: [5], 7: [6], 8: [7, 6, 1], 9: [5], 10: [7], 11: [9],
             12: [11, 10, 4], 13: [12, 11, 8], 14: [13, 12, 2], 15: [14], 16: [15, 13, 4], 17: [14], 18: [11],
             19: [18, 17, 14], 20: [17], 21: [19], 22: [21], 23: [18], 24: [23, 22, 17], 25: [22],
             26: [25, 24, 20], 27: [26, 25, 22], 28: [25], 29: [27], 30: [29, 28, 7], 31: [28], 32: [31, 30, 10]}


def max_len_seq(nbits, state=None, length=None, taps=None):
    """Maximum length sequence of a linear feedback shift register (scipy.signal.max_len_seq).

    The register is inherently sequential bit by bit, so it runs on the host; the result is copied over."""
    if taps is None:
        if nbits not in _MLS_TAPS:
            known = numpy.array(list(_MLS_TAPS.keys()))
            raise ValueError(f'nbits must be between {known.min()} and {known.max()} if taps is None')
        taps = numpy.array(_MLS_TAPS[nbits], numpy.intp)
    else:
        taps = numpy.unique(numpy.array(_host(taps), numpy.intp))[::-1]
        if numpy.any(taps < 0) or numpy.any(taps > nbits) or taps.size < 1:
            raise ValueError('taps must be non-empty with values between zero and nbits (inclusive)')
    n_max = (2 ** nbits) - 1
    if length is None:
        length = n_max
    else:
        length = int(length)
        if length < 0:
            raise ValueError('length must be greater than or equal to 0')
    if state is None:
        state = numpy.ones(nbits, dtype=numpy.int8)
    else:
        state = numpy.array(_host(state), dtype=bool).astype(numpy.int8)
    if state.ndim != 1 or state.size != nbits:
        raise ValueError('state must be a 1-D array of size nbits')
    if numpy.all(state == 0):
        raise ValueError('state must not be all zeros')
    # The register as a circular buffer: output the bit at `idx`, replace it with the feedback bit.
    st = [int(v) for v in state]
    tp = [int(v) for v in taps]
    seq = bytearray(length)
    idx = 0
    for i in range(length):
        fb = st[idx]
        seq[i] = fb
        for tap in tp:
            fb ^= st[(tap + idx) % nbits]
        st[idx] = fb
        idx = (idx + 1) % nbits
    out_state = numpy.roll(numpy.array(st, dtype=numpy.int8), -idx)
    return _cp.asarray(numpy.frombuffer(bytes(seq), dtype=numpy.int8).copy()), _cp.asarray(out_state)
