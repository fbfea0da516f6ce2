"""scipy.signal.windows on cuarray: each window is computed in float64 on the host (they are short) and copied over."""
import warnings

import numpy

import cuarray as _cp


def _len_guards(M):
    if int(M) != M or M < 0:
        raise ValueError('Window length M must be a non-negative integer')
    return M <= 1


def _extend(M, sym):
    # A periodic (sym=False) window is the symmetric window one sample longer, truncated.
    return (M + 1, True) if not sym else (M, False)


def _out(w, trunc):
    return _cp.asarray(w[:-1] if trunc else w)


def _host_general_cosine(M, a, sym=True):
    if _len_guards(M):
        return numpy.ones(int(M)), False
    M, trunc = _extend(int(M), sym)
    fac = numpy.linspace(-numpy.pi, numpy.pi, M)
    w = numpy.zeros(M)
    for k, c in enumerate(a):
        w += c * numpy.cos(k * fac)
    return w, trunc


def general_cosine(M, a, sym=True):
    """Generic weighted sum of cosine terms window."""
    return _out(*_host_general_cosine(M, numpy.asarray(a, dtype=numpy.float64), sym))


def boxcar(M, sym=True):
    """Boxcar or rectangular window."""
    _len_guards(M)
    return _cp.ones(int(M))


def _simple(M, sym, body):
    if _len_guards(M):
        return _cp.ones(int(M))
    M, trunc = _extend(int(M), sym)
    return _out(body(M), trunc)


def triang(M, sym=True):
    """Triangular window."""
    def body(M):
        n = numpy.arange(1, (M + 1) // 2 + 1)
        if M % 2 == 0:
            w = (2 * n - 1.0) / M
            return numpy.r_[w, w[::-1]]
        w = 2 * n / (M + 1.0)
        return numpy.r_[w, w[-2::-1]]
    return _simple(M, sym, body)


def parzen(M, sym=True):
    """Parzen window."""
    def body(M):
        n = numpy.arange(-(M - 1) / 2.0, (M - 1) / 2.0 + 0.5, 1.0)
        na = n[n < -(M - 1) / 4.0]
        nb = n[numpy.abs(n) <= (M - 1) / 4.0]
        wa = 2 * (1 - numpy.abs(na) / (M / 2.0)) ** 3.0
        wb = 1 - 6 * (numpy.abs(nb) / (M / 2.0)) ** 2.0 + 6 * (numpy.abs(nb) / (M / 2.0)) ** 3.0
        return numpy.r_[wa, wb, wa[::-1]]
    return _simple(M, sym, body)


def bohman(M, sym=True):
    """Bohman window."""
    def body(M):
        fac = numpy.abs(numpy.linspace(-1, 1, M)[1:-1])
        w = (1 - fac) * numpy.cos(numpy.pi * fac) + 1.0 / numpy.pi * numpy.sin(numpy.pi * fac)
        return numpy.r_[0, w, 0]
    return _simple(M, sym, body)


def blackman(M, sym=True):
    """Blackman window."""
    return general_cosine(M, [0.42, 0.50, 0.08], sym)


def nuttall(M, sym=True):
    """Minimum 4-term Blackman-Harris window according to Nuttall."""
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym)


def blackmanharris(M, sym=True):
    """Minimum 4-term Blackman-Harris window."""
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym)


def flattop(M, sym=True):
    """Flat top window."""
    return general_cosine(M, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368], sym)


def bartlett(M, sym=True):
    """Bartlett window."""
    def body(M):
        n = numpy.arange(0, M)
        return numpy.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _simple(M, sym, body)


def general_hamming(M, alpha, sym=True):
    """Generalized Hamming window."""
    return general_cosine(M, [alpha, 1.0 - alpha], sym)


def hann(M, sym=True):
    """Hann window."""
    return general_hamming(M, 0.5, sym)


def hamming(M, sym=True):
    """Hamming window."""
    return general_hamming(M, 0.54, sym)


def barthann(M, sym=True):
    """Modified Bartlett-Hann window."""
    def body(M):
        n = numpy.arange(0, M)
        fac = numpy.abs(n / (M - 1.0) - 0.5)
        return 0.62 - 0.48 * fac + 0.38 * numpy.cos(2 * numpy.pi * fac)
    return _simple(M, sym, body)


def kaiser(M, beta, sym=True):
    """Kaiser window."""
    def body(M):
        n = numpy.arange(0, M)
        alpha = (M - 1) / 2.0
        return numpy.i0(beta * numpy.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / numpy.i0(float(beta))
    return _simple(M, sym, body)


def gaussian(M, std, sym=True):
    """Gaussian window."""
    def body(M):
        n = numpy.arange(0, M) - (M - 1.0) / 2.0
        return numpy.exp(-n ** 2 / (2 * std * std))
    return _simple(M, sym, body)


def general_gaussian(M, p, sig, sym=True):
    """Generalized Gaussian window."""
    def body(M):
        n = numpy.arange(0, M) - (M - 1.0) / 2.0
        return numpy.exp(-0.5 * numpy.abs(n / sig) ** (2 * p))
    return _simple(M, sym, body)


def cosine(M, sym=True):
    """Window with a simple cosine shape."""
    return _simple(M, sym, lambda M: numpy.sin(numpy.pi / M * (numpy.arange(0, M) + 0.5)))


def exponential(M, center=None, tau=1., sym=True):
    """Exponential (Poisson) window."""
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _len_guards(M):
        return _cp.ones(int(M))
    M, trunc = _extend(int(M), sym)
    c = (M - 1) / 2 if center is None else center
    return _out(numpy.exp(-numpy.abs(numpy.arange(0, M) - c) / tau), trunc)


def tukey(M, alpha=0.5, sym=True):
    """Tukey window, also known as a tapered cosine window."""
    if _len_guards(M):
        return _cp.ones(int(M))
    if alpha <= 0:
        return _cp.ones(int(M))
    if alpha >= 1.0:
        return hann(M, sym=sym)
    M, trunc = _extend(int(M), sym)
    n = numpy.arange(0, M)
    width = int(numpy.floor(alpha * (M - 1) / 2.0))
    n1, n2, n3 = n[0:width + 1], n[width + 1:M - width - 1], n[M - width - 1:]
    w1 = 0.5 * (1 + numpy.cos(numpy.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w3 = 0.5 * (1 + numpy.cos(numpy.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    return _out(numpy.concatenate((w1, numpy.ones(n2.shape), w3)), trunc)


def lanczos(M, *, sym=True):
    """Lanczos window, also known as a sinc window."""
    def body(M):
        # Built from one half and mirrored, so the window is exactly symmetric.
        def right(n, m):
            return numpy.sinc(2. * numpy.arange(n, m) / (m - 1) - 1.0)
        if M % 2 == 0:
            wh = right(M / 2, M)
            return numpy.r_[numpy.flip(wh), wh]
        wh = right((M + 1) / 2, M)
        return numpy.r_[numpy.flip(wh), 1.0, wh]
    return _simple(M, sym, body)


def chebwin(M, at, sym=True):
    """Dolph-Chebyshev window."""
    if abs(at) < 45:
        warnings.warn("This window is not suitable for spectral analysis for attenuation values lower than "
                      "about 45dB because the equivalent noise bandwidth of a Chebyshev window does not grow "
                      "monotonically with increasing sidelobe attenuation when the attenuation is smaller than "
                      "about 45 dB.", stacklevel=2)
    if _len_guards(M):
        return _cp.ones(int(M))
    M, trunc = _extend(int(M), sym)
    order = M - 1.0
    beta = numpy.cosh(1.0 / order * numpy.arccosh(10 ** (abs(at) / 20.)))
    k = numpy.r_[0:M] * 1.0
    x = beta * numpy.cos(numpy.pi * k / M)
    # The Chebyshev polynomial of the window's order, evaluated in each of its three ranges.
    p = numpy.zeros(x.shape)
    p[x > 1] = numpy.cosh(order * numpy.arccosh(x[x > 1]))
    p[x < -1] = (2 * (M % 2) - 1) * numpy.cosh(order * numpy.arccosh(-x[x < -1]))
    inner = numpy.abs(x) <= 1
    p[inner] = numpy.cos(order * numpy.arccos(x[inner]))
    if M % 2:
        w = numpy.real(numpy.fft.fft(p))
        n = (M + 1) // 2
        w = w[:n]
        w = numpy.concatenate((w[n - 1:0:-1], w))
    else:
        p = p * numpy.exp(1.j * numpy.pi / M * numpy.r_[0:M])
        w = numpy.real(numpy.fft.fft(p))
        n = M // 2 + 1
        w = numpy.concatenate((w[n - 1:0:-1], w[1:n]))
    return _out(w / numpy.max(w), trunc)


def taylor(M, nbar=4, sll=30, norm=True, sym=True):
    """Taylor window."""
    if _len_guards(M):
        return _cp.ones(int(M))
    M, trunc = _extend(int(M), sym)
    B = 10 ** (sll / 20)
    A = numpy.arccosh(B) / numpy.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = numpy.arange(1, nbar)
    Fm = numpy.empty(nbar - 1)
    signs = numpy.empty_like(ma)
    signs[::2] = 1
    signs[1::2] = -1
    m2 = ma * ma
    for mi in range(len(ma)):
        numer = signs[mi] * numpy.prod(1 - m2[mi] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * numpy.prod(1 - m2[mi] / m2[:mi]) * numpy.prod(1 - m2[mi] / m2[mi + 1:])
        Fm[mi] = numer / denom

    def W(n):
        return 1 + 2 * numpy.dot(Fm, numpy.cos(2 * numpy.pi * ma[:, numpy.newaxis] * (n - M / 2. + 0.5) / M))

    w = W(numpy.arange(M))
    if norm:
        w = w / W((M - 1) / 2)
    return _out(w, trunc)


# name -> (function, number of required parameters)
_WINDOWS = {
    'barthann': (barthann, 0), 'brthan': (barthann, 0), 'bth': (barthann, 0),
    'bartlett': (bartlett, 0), 'bart': (bartlett, 0), 'brt': (bartlett, 0),
    'blackman': (blackman, 0), 'black': (blackman, 0), 'blk': (blackman, 0),
    'blackmanharris': (blackmanharris, 0), 'blackharr': (blackmanharris, 0), 'bkh': (blackmanharris, 0),
    'bohman': (bohman, 0), 'bman': (bohman, 0), 'bmn': (bohman, 0),
    'boxcar': (boxcar, 0), 'box': (boxcar, 0), 'ones': (boxcar, 0), 'rect': (boxcar, 0),
    'rectangular': (boxcar, 0),
    'chebwin': (chebwin, 1), 'cheb': (chebwin, 1),
    'cosine': (cosine, 0), 'halfcosine': (cosine, 0),
    'exponential': (exponential, 0), 'poisson': (exponential, 0),
    'flattop': (flattop, 0), 'flat': (flattop, 0), 'flt': (flattop, 0),
    'gaussian': (gaussian, 1), 'gauss': (gaussian, 1), 'gss': (gaussian, 1),
    'general cosine': (general_cosine, 1), 'general_cosine': (general_cosine, 1),
    'general gaussian': (general_gaussian, 2), 'general_gaussian': (general_gaussian, 2),
    'general gauss': (general_gaussian, 2), 'general_gauss': (general_gaussian, 2), 'ggs': (general_gaussian, 2),
    'general hamming': (general_hamming, 1), 'general_hamming': (general_hamming, 1),
    'hamming': (hamming, 0), 'hamm': (hamming, 0), 'ham': (hamming, 0),
    'hann': (hann, 0), 'han': (hann, 0),
    'kaiser': (kaiser, 1), 'ksr': (kaiser, 1),
    'lanczos': (lanczos, 0), 'sinc': (lanczos, 0),
    'parzen': (parzen, 0), 'parz': (parzen, 0), 'par': (parzen, 0),
    'taylor': (taylor, 0), 'taylorwin': (taylor, 0),
    'triangle': (triang, 0), 'triang': (triang, 0), 'tri': (triang, 0),
    'tukey': (tukey, 0), 'tuk': (tukey, 0),
}


def get_window(window, Nx, fftbins=True):
    """Return a window of a given length and type (scipy.signal.windows.get_window)."""
    sym = not fftbins
    try:
        beta = float(window)
    except (TypeError, ValueError):
        args = ()
        if isinstance(window, tuple):
            winstr = window[0]
            if len(window) > 1:
                args = window[1:]
        elif isinstance(window, str):
            winstr = window
        else:
            raise ValueError("%s as window type is not supported." % str(type(window)))
        if isinstance(winstr, str) and winstr.endswith('_periodic'):
            # SciPy 1.17's spelling of a periodic window, whatever `fftbins` says.
            winstr, sym = winstr[:-len('_periodic')], False
        try:
            func, nparams = _WINDOWS[winstr]
        except KeyError:
            raise ValueError("Unknown window type.") from None
        if len(args) < nparams:
            raise ValueError("The '" + winstr + "' window needs one or more parameters -- pass a tuple.")
    else:
        func, args = kaiser, (beta,)
    return func(Nx, *args, sym=sym)


def _host(w):
    """A window as a NumPy array (for filter design on the host)."""
    return w.get() if isinstance(w, _cp.ndarray) else numpy.asarray(w)


__all__ = ['general_cosine', 'boxcar', 'triang', 'parzen', 'bohman', 'blackman', 'nuttall', 'blackmanharris',
           'flattop', 'bartlett', 'general_hamming', 'hann', 'hamming', 'barthann', 'kaiser', 'gaussian',
           'general_gaussian', 'cosine', 'exponential', 'tukey', 'lanczos', 'chebwin', 'taylor', 'get_window']
