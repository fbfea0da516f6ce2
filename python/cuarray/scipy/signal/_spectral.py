"""scipy.signal's spectral analysis on the GPU: periodogram, welch, csd, coherence, spectrogram, stft, istft, ..."""
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.scipy.signal import _misc
from cuarray.scipy.signal.windows import _windows

# Note [spectral layout]
# Every estimator moves the analysed axis last and cuts it into segments with a strided view (no copy), giving
# (..., nseg, nperseg); detrending, windowing and the FFT then run once over all segments. Windows are computed
# on the host (they are short) and shipped once; the signal itself never leaves the device. Arithmetic runs in the
# precision of the result SciPy returns (float32 input stays single precision).

_NoValue = object()


def _dev(a):
    return a if isinstance(a, _cp.ndarray) else _cp.asarray(a)


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _is_complex(a):
    return numpy.dtype(a.dtype).kind == 'c'


def _real_of(dt):
    return numpy.empty(0, dt).real.dtype


def _get_window(window, n):
    return _windows._host(_windows.get_window(window, n))


def _zeros_like_shape(x, shape):
    return _cp.zeros(tuple(shape), dtype=x.dtype)


def _pad_last(x, n):
    if n <= 0:
        return x
    return _cp.concatenate((x, _cp.zeros(x.shape[:-1] + (n,), dtype=x.dtype)), axis=-1)


# -- boundary extensions (last axis) -------------------------------------------------------------------------
def _check_ext(x, n):
    if n > x.shape[-1] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1 "
                         f"({x.shape[-1] - 1}).")


def _even_ext(x, n):
    if n < 1:
        return x
    _check_ext(x, n)
    return _cp.concatenate((x[..., n:0:-1], x, x[..., -2:-(n + 2):-1]), axis=-1)


def _odd_ext(x, n):
    if n < 1:
        return x
    _check_ext(x, n)
    left, right = x[..., :1], x[..., -1:]
    return _cp.concatenate((2 * left - x[..., n:0:-1], x, 2 * right - x[..., -2:-(n + 2):-1]), axis=-1)


def _const_ext(x, n):
    if n < 1:
        return x
    ones = _cp.ones(x.shape[:-1] + (n,), dtype=x.dtype)
    return _cp.concatenate((ones * x[..., :1], x, ones * x[..., -1:]), axis=-1)


def _zero_ext(x, n):
    if n < 1:
        return x
    z = _cp.zeros(x.shape[:-1] + (n,), dtype=x.dtype)
    return _cp.concatenate((z, x, z), axis=-1)


_BOUNDARY = {'even': _even_ext, 'odd': _odd_ext, 'constant': _const_ext, 'zeros': _zero_ext, None: None}


# -- segments ------------------------------------------------------------------------------------------------
def _segments(x, nperseg, step, nseg=None):
    """(..., nseg, nperseg) strided view of x's last axis: segment k starts at k * step."""
    if nperseg == 1 and step == 1:
        v = x[..., None]
    else:
        v = _cp.lib.stride_tricks.sliding_window_view(x, nperseg, axis=-1)[..., ::step, :]
    return v if nseg is None else v[..., :nseg, :]


def _detrender(detrend, axis):
    if detrend is False or detrend is None:
        return None
    if not callable(detrend):
        if detrend in ('constant', 'c'):
            return lambda d: d - d.mean(axis=-1, keepdims=True)
        return lambda d: _misc.detrend(d, type=detrend, axis=-1)
    if axis != -1:
        return lambda d: _cp.moveaxis(detrend(_cp.moveaxis(d, -1, axis)), axis, -1)
    return detrend


def _spectra(x, win, detrend_func, nperseg, step, nfft, onesided, nseg=None):
    seg = _segments(x, nperseg, step, nseg)
    if detrend_func is not None:
        seg = detrend_func(seg)
    seg = seg * win
    if onesided:
        return _fft.rfft(seg.real if _is_complex(seg) else seg, n=nfft, axis=-1)
    return _fft.fft(seg, n=nfft, axis=-1)


def _freqs(nfft, fs, onesided):
    f = numpy.fft.rfftfreq(nfft, 1 / fs) if onesided else numpy.fft.fftfreq(nfft, 1 / fs)
    return _cp.asarray(f)


def _median_bias(n):
    ii2 = 2 * numpy.arange(1., (n - 1) // 2 + 1)
    return 1 + numpy.sum(1. / (ii2 + 1) - 1. / ii2)


# -- csd / welch / periodogram / coherence -------------------------------------------------------------------
def _csd(x, y, same, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average):
    axis = int(axis)
    x = _dev(x)
    if not same:
        y = _dev(y)
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(axis)
        yo.pop(axis)
        try:
            outer = numpy.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError as e:
            raise ValueError('x and y cannot be broadcast together.') from e
        if x.size == 0 or y.size == 0:
            e = _cp.moveaxis(_cp.empty(outer + (min(x.shape[axis], y.shape[axis]),)), -1, axis)
            return e, e
        out_dtype = numpy.result_type(x.dtype, y.dtype, numpy.complex64)
    else:
        y = x
        if x.size == 0:
            return _cp.empty(x.shape), _cp.empty(x.shape)
        out_dtype = numpy.result_type(x.dtype, numpy.complex64)
    n = x.shape[axis] if same else max(x.shape[axis], y.shape[axis])
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter {nperseg=} is not a positive integer!")
        elif n < nperseg:
            warnings.warn(f"{nperseg=} is greater than signal length max(len(x), len(y)) = {n}, "
                          f"using nperseg = {n}", stacklevel=4)
            nperseg = n
        win = _get_window(window, nperseg)
    else:
        win = _host(window)
        if nperseg is None:
            nperseg = len(win)
    if nperseg != len(win):
        raise ValueError(f"{nperseg=} does not equal {len(win)=}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"{nfft=} must be greater than or equal to {nperseg=}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"{noverlap=} must be less than {nperseg=}!")
    if _is_complex(x) and return_onesided:
        return_onesided = False
    scales = {'spectrum': 'magnitude', 'density': 'psd'}
    if scaling not in scales:
        raise ValueError(f"Parameter {scaling=} not in {scales}!")
    if average not in ('mean', 'median'):
        raise ValueError(f"Parameter {average=} must be 'median' or 'mean'!")

    cdt = numpy.dtype(out_dtype)
    rdt = _real_of(cdt)
    xm = _cp.moveaxis(x, axis, -1)
    xm = xm.astype(cdt if _is_complex(xm) else rdt, copy=False)
    xm = _pad_last(xm, n - xm.shape[-1])
    step = nperseg - noverlap
    nseg = (n - noverlap) // step
    w = _cp.asarray(win.astype(rdt))
    det = _detrender(detrend, -1)
    X = _spectra(xm, w, det, nperseg, step, nfft, return_onesided, nseg)
    if same:
        P = X.real * X.real + X.imag * X.imag
    else:
        ym = _cp.moveaxis(y, axis, -1)
        ym = ym.astype(cdt if _is_complex(ym) else rdt, copy=False)
        ym = _pad_last(ym, n - ym.shape[-1])
        P = _cp.conj(X) * _spectra(ym, w, det, nperseg, step, nfft, return_onesided, nseg)
    scale = 1.0 / (fs * float(numpy.sum(win * win))) if scaling == 'density' else 1.0 / float(numpy.sum(win)) ** 2
    P = P * numpy.dtype(rdt).type(scale)
    if return_onesided:
        hi = -1 if nfft % 2 == 0 else None
        P[..., 1:hi] *= 2
    if P.shape[-2] > 1:
        if average == 'median':
            bias = _median_bias(P.shape[-2])
            if same:
                P = _cp.median(P.real, axis=-2)
            else:
                P = _cp.median(P.real, axis=-2) + 1j * _cp.median(P.imag, axis=-2)
            P = P / bias
        else:
            P = P.mean(axis=-2)
    else:
        P = P.reshape(P.shape[:-2] + P.shape[-1:])
    P = P.astype(rdt if same else cdt)
    return _freqs(nfft, fs, return_onesided), _cp.moveaxis(P, -1, axis)


def csd(x, y, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant',
        return_onesided=True, scaling='density', axis=-1, average='mean'):
    """Cross power spectral density by Welch's method (scipy.signal.csd)."""
    return _csd(x, y, y is x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                average)


def welch(x, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant',
          return_onesided=True, scaling='density', axis=-1, average='mean'):
    """Power spectral density by Welch's method (scipy.signal.welch)."""
    f, p = _csd(x, x, True, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, average)
    return f, p.real


def periodogram(x, fs=1.0, window='boxcar', nfft=None, detrend='constant', return_onesided=True,
                scaling='density', axis=-1):
    """Power spectral density by a periodogram (scipy.signal.periodogram)."""
    x = _dev(x)
    if x.size == 0:
        return _cp.empty(x.shape), _cp.empty(x.shape)
    if window is None:
        window = 'boxcar'
    n = x.shape[axis]
    if nfft is None:
        nperseg = n
    elif nfft == n:
        nperseg = nfft
    elif nfft > n:
        nperseg = n
    else:
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(None, nfft)
        x = x[tuple(sl)]
        nperseg = nfft
        nfft = None
    if hasattr(window, 'size') and window.size != nperseg:
        raise ValueError('the size of the window must be the same size of the input on the specified axis')
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft, detrend=detrend,
                 return_onesided=return_onesided, scaling=scaling, axis=axis)


def coherence(x, y, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, detrend='constant',
              axis=-1):
    """Magnitude squared coherence by Welch's method (scipy.signal.coherence)."""
    kw = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend, axis=axis)
    f, pxx = welch(x, **kw)
    _, pyy = welch(y, **kw)
    _, pxy = csd(x, y, **kw)
    return f, (pxy.real * pxy.real + pxy.imag * pxy.imag) / pxx / pyy


# -- spectrogram / stft / istft ------------------------------------------------------------------------------
def _triage_segments(window, nperseg, input_length):
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > input_length:
            warnings.warn(f'nperseg = {nperseg:d} is greater than input length  = {input_length:d}, '
                          f'using nperseg = {input_length:d}', stacklevel=4)
            nperseg = input_length
        win = _get_window(window, nperseg)
    else:
        win = _host(window)
        if len(win.shape) != 1:
            raise ValueError('window must be 1-D')
        if input_length < win.shape[-1]:
            raise ValueError('window is longer than input signal')
        if nperseg is None:
            nperseg = win.shape[0]
        elif nperseg != win.shape[0]:
            raise ValueError("value specified for nperseg is different from length of window")
    return win, nperseg


def _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode,
            boundary=None, padded=False):
    """SciPy's classic one-signal short-time helper: (freqs, times, result), mode 'psd' or 'stft'."""
    if boundary not in _BOUNDARY:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARY.keys())}")
    axis = int(axis)
    x = _dev(x)
    outdtype = numpy.result_type(x.dtype, numpy.complex64)
    if x.size == 0:
        return _cp.empty(x.shape), _cp.empty(x.shape), _cp.empty(x.shape)
    rdt = _real_of(outdtype)
    if x.ndim > 1 and axis != -1:
        x = _cp.moveaxis(x, axis, -1)
    x = x.astype(outdtype if _is_complex(x) else rdt, copy=False)
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError('nperseg must be a positive integer')
    win, nperseg = _triage_segments(window, nperseg, x.shape[-1])
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError('nfft must be greater than or equal to nperseg.')
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError('noverlap must be less than nperseg.')
    step = nperseg - noverlap
    if boundary is not None:
        x = _BOUNDARY[boundary](x, nperseg // 2)
    if padded:
        x = _pad_last(x, (-(x.shape[-1] - nperseg) % step) % nperseg)
    if scaling == 'density':
        scale = 1.0 / (fs * float(numpy.sum(win * win)))
    elif scaling == 'spectrum':
        scale = 1.0 / float(numpy.sum(win)) ** 2
    else:
        raise ValueError(f'Unknown scaling: {scaling!r}')
    if mode == 'stft':
        scale = numpy.sqrt(scale)
    onesided = bool(return_onesided)
    if onesided and _is_complex(x):
        onesided = False
        warnings.warn('Input data is complex, switching to return_onesided=False', stacklevel=4)
    freqs = _freqs(nfft, fs, onesided)
    res = _spectra(x, _cp.asarray(win.astype(rdt)), _detrender(detrend, axis), nperseg, step, nfft, onesided)
    if mode == 'psd':
        res = (res.real * res.real + res.imag * res.imag)
    res = res * numpy.dtype(rdt).type(scale)
    if onesided and mode == 'psd':
        res[..., 1:(None if nfft % 2 else -1)] *= 2
    time = numpy.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap) / float(fs)
    if boundary is not None:
        time -= (nperseg / 2) / fs
    res = res.astype(rdt if mode == 'psd' else outdtype)
    # (..., nseg, nfreq) -> frequencies where the data axis was, segments last.
    res = _cp.moveaxis(res, -1, -2)
    if axis != -1 and res.ndim > 2:
        res = _cp.moveaxis(res, -2, axis - 1 if axis < 0 else axis)
    return freqs, _cp.asarray(time), res


def spectrogram(x, fs=1.0, window=('tukey_periodic', .25), nperseg=None, noverlap=None, nfft=None,
                detrend='constant', return_onesided=True, scaling='density', axis=-1, mode='psd'):
    """Spectrogram with consecutive Fourier transforms (scipy.signal.spectrogram)."""
    modelist = ['psd', 'complex', 'magnitude', 'angle', 'phase']
    if mode not in modelist:
        raise ValueError(f'unknown value for mode {mode}, must be one of {modelist}')
    x = _dev(x)
    win, nperseg = _triage_segments(window, nperseg, x.shape[axis])
    if noverlap is None:
        noverlap = nperseg // 8
    f, t, S = _helper(x, fs, win, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                      'psd' if mode == 'psd' else 'stft')
    if mode == 'magnitude':
        S = _cp.abs(S)
    elif mode in ('angle', 'phase'):
        S = _cp.angle(S)
        if mode == 'phase':
            S = _cp.unwrap(S, axis=axis - 1 if axis < 0 else axis)
    return f, t, S


def stft(x, fs=1.0, window='hann_periodic', nperseg=256, noverlap=None, nfft=None, detrend=False,
         return_onesided=True, boundary='zeros', padded=True, axis=-1, scaling='spectrum'):
    """Short-time Fourier transform (scipy.signal.stft)."""
    if scaling == 'psd':
        scaling = 'density'
    elif scaling != 'spectrum':
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    return _helper(x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, 'stft',
                   boundary, padded)


def _overlap_add(frames, step, length):
    """Sum of frames (..., nseg, L) placed at k * step, cut to `length`, without a loop over the frames: each
    frame is split into blocks of `step`, and block j of frame k lands on output block k + j."""
    nseg, L = frames.shape[-2], frames.shape[-1]
    nb = -(-L // step)
    fr = _pad_last(frames, nb * step - L).reshape(frames.shape[:-2] + (nseg, nb, step))
    out = _cp.zeros(frames.shape[:-2] + (nseg + nb - 1, step), dtype=frames.dtype)
    for j in range(nb):
        out[..., j:j + nseg, :] += fr[..., :, j, :]
    return out.reshape(frames.shape[:-2] + ((nseg + nb - 1) * step,))[..., :length]


def istft(Zxx, fs=1.0, window='hann_periodic', nperseg=None, noverlap=None, nfft=None, input_onesided=True,
          boundary=True, time_axis=-1, freq_axis=-2, scaling='spectrum'):
    """Inverse short-time Fourier transform (scipy.signal.istft)."""
    Z = _dev(Zxx)
    Z = Z.astype(numpy.result_type(Z.dtype, numpy.complex64) if Z.dtype.kind in 'fc'
                 else numpy.complex128, copy=False)
    freq_axis = int(freq_axis)
    time_axis = int(time_axis)
    if Z.ndim < 2:
        raise ValueError('Input stft must be at least 2d!')
    if freq_axis == time_axis:
        raise ValueError('Must specify differing time and frequency axes!')
    nseg = Z.shape[time_axis]
    n_default = 2 * (Z.shape[freq_axis] - 1) if input_onesided else Z.shape[freq_axis]
    if nperseg is None:
        nperseg = n_default
    else:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError('nperseg must be a positive integer')
    if nfft is None:
        nfft = nperseg if (input_onesided and nperseg == n_default + 1) else n_default
    elif nfft < nperseg:
        raise ValueError('nfft must be greater than or equal to nperseg.')
    else:
        nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError('noverlap must be less than nperseg.')
    step = nperseg - noverlap
    if time_axis != Z.ndim - 1 or freq_axis != Z.ndim - 2:
        freq_axis %= Z.ndim
        time_axis %= Z.ndim
        outer = [a for a in range(Z.ndim) if a not in (time_axis, freq_axis)]
        Z = _cp.transpose(Z, outer + [freq_axis, time_axis])
    if isinstance(window, (str, tuple)):
        win = _get_window(window, nperseg)
    else:
        win = _host(window)
        if len(win.shape) != 1:
            raise ValueError('window must be 1-D')
        if win.shape[0] != nperseg:
            raise ValueError(f'window must have length of {nperseg}')
    if scaling == 'spectrum':
        gain = float(numpy.sum(win))
    elif scaling == 'psd':
        gain = float(numpy.sqrt(fs * numpy.sum(win ** 2)))
    else:
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    Zt = _cp.swapaxes(Z, -1, -2)                                   # (..., nseg, nfreq)
    sub = (_fft.irfft(Zt, n=nfft, axis=-1) if input_onesided else _fft.ifft(Zt, n=nfft, axis=-1))[..., :nperseg]
    wdt = _real_of(sub.dtype)
    w = _cp.asarray(win.astype(wdt) if numpy.result_type(win.dtype, sub.dtype) != sub.dtype else win)
    outlen = nperseg + (nseg - 1) * step
    x = _overlap_add(sub * numpy.dtype(wdt).type(gain) * w, step, outlen)
    norm = _overlap_add(_cp.broadcast_to(w * w, (nseg, nperseg)).astype(sub.dtype), step, outlen)
    if boundary:
        x = x[..., nperseg // 2:-(nperseg // 2)]
        norm = norm[..., nperseg // 2:-(nperseg // 2)]
    ok = norm > 1e-10
    if int(_cp.count_nonzero(ok)) != norm.shape[0]:
        warnings.warn("NOLA condition failed, STFT may not be invertible."
                      + (" Possibly due to missing boundary" if not boundary else ""), stacklevel=2)
    x = x / _cp.where(ok, norm, 1.0).astype(norm.dtype)
    if input_onesided:
        x = x.real
    if x.ndim > 1 and time_axis != Z.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = _cp.moveaxis(x, -1, time_axis)
    time = _cp.asarray(numpy.arange(x.shape[0]) / float(fs))
    return time, x


# -- COLA / NOLA ---------------------------------------------------------------------------------------------
def _window_arg(window, nperseg):
    if isinstance(window, str) or type(window) is tuple:
        return _get_window(window, nperseg)
    win = _host(window)
    if len(win.shape) != 1:
        raise ValueError('window must be 1-D')
    if win.shape[0] != nperseg:
        raise ValueError('window must have length of nperseg')
    return win


def _binsums(win, nperseg, step, power):
    w = win ** power
    sums = sum(w[i * step:(i + 1) * step] for i in range(nperseg // step))
    if nperseg % step:
        sums[:nperseg % step] += w[-(nperseg % step):]
    return sums


def check_COLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the constant overlap-add constraint holds (scipy.signal.check_COLA); host work on the window."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError('nperseg must be a positive integer')
    if noverlap >= nperseg:
        raise ValueError('noverlap must be less than nperseg.')
    noverlap = int(noverlap)
    win = _window_arg(window, nperseg)
    sums = _binsums(win, nperseg, nperseg - noverlap, 1)
    return numpy.max(numpy.abs(sums - numpy.median(sums))) < tol


def check_NOLA(window, nperseg, noverlap, tol=1e-10):
    """Whether the nonzero overlap-add constraint holds (scipy.signal.check_NOLA); host work on the window."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError('nperseg must be a positive integer')
    if noverlap >= nperseg:
        raise ValueError('noverlap must be less than nperseg')
    if noverlap < 0:
        raise ValueError('noverlap must be a nonnegative integer')
    noverlap = int(noverlap)
    win = _window_arg(window, nperseg)
    return numpy.min(_binsums(win, nperseg, nperseg - noverlap, 2)) > tol


# -- Lomb-Scargle --------------------------------------------------------------------------------------------
def lombscargle(x, y, freqs, *, precenter=_NoValue, normalize=False, weights=None, floating_mean=False):
    """Generalized Lomb-Scargle periodogram (scipy.signal.lombscargle): an (n, m) problem, on the device."""
    x = _dev(x).astype(numpy.float64, copy=False)
    y = _dev(y).astype(numpy.float64, copy=False)
    freqs = _dev(freqs).astype(numpy.float64, copy=False)
    weights = _cp.ones_like(y, dtype=numpy.float64) if weights is None else \
        _dev(weights).astype(numpy.float64, copy=False)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool((weights >= 0).all()) and float(weights.sum()) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")
    weights = weights * (1.0 / weights.sum())
    if precenter is not _NoValue:
        warnings.warn("Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in "
                      "1.19.0. Please leave 'precenter' unspecified. Passing True to 'precenter' can be exactly "
                      "substituted by passing 'y = (y - y.mean())' into the input. Consider setting "
                      "`floating_mean` to True instead.", DeprecationWarning, stacklevel=2)
        if precenter:
            y = y - y.mean()
    wt = freqs[None, :] * x[:, None]
    w = weights[None, :]
    wy = weights * y
    c, s = _cp.cos(wt), _cp.sin(wt)
    Y = float((weights * y).sum())
    CC = _cp.matmul(w, c * c)[0]
    SS = 1.0 - CC
    CS = _cp.matmul(w, c * s)[0]
    if floating_mean:
        C = _cp.matmul(w, c)[0]
        S = _cp.matmul(w, s)[0]
        CC = CC - C * C
        SS = SS - S * S
        CS = CS - C * S
    tau = 0.5 * _cp.arctan2(2.0 * CS, CC - SS)
    wt = wt - tau[None, :]
    c, s = _cp.cos(wt), _cp.sin(wt)
    YC = _cp.matmul(wy[None, :], c)[0]
    YS = _cp.matmul(wy[None, :], s)[0]
    CC = _cp.matmul(w, c * c)[0]
    SS = 1.0 - CC
    if floating_mean:
        C = _cp.matmul(w, c)[0]
        S = _cp.matmul(w, s)[0]
        YC = YC - Y * C
        YS = YS - Y * S
        CC = CC - C * C
        SS = SS - S * S
    eps = numpy.finfo(numpy.float64).epsneg
    CC = _cp.maximum(CC, eps)
    SS = _cp.maximum(SS, eps)
    a = YC / CC
    b = YS / SS
    if normalize == "amplitude":
        return _cp.squeeze((a + 1j * b) * _cp.exp(1j * tau))
    p = 2.0 * (a * YC + b * YS)
    if normalize == "power":
        p = p * (float(x.shape[0]) / 4.0)
    else:
        YY = float((wy * y).sum())
        if floating_mean:
            YY -= Y * Y
        p = p * (0.5 / YY)
    return _cp.squeeze(p)


# -- vectorstrength ------------------------------------------------------------------------------------------
def vectorstrength(events, period):
    """Vector strength and phase of events for each period (scipy.signal.vectorstrength)."""
    events = _dev(events)
    period = _dev(period)
    if events.ndim > 1:
        raise ValueError('events cannot have dimensions more than 1')
    if period.ndim > 1:
        raise ValueError('period cannot have dimensions more than 1')
    scalarperiod = not period.ndim
    events = _cp.atleast_2d(events)
    period = _cp.atleast_2d(period)
    if bool((period <= 0).any()):
        raise ValueError('periods must be positive')
    vectors = _cp.exp(_cp.matmul(2j * numpy.pi / period.T, events))
    vectormean = _cp.mean(vectors, axis=1)
    strength = _cp.abs(vectormean)
    phase = _cp.angle(vectormean)
    if scalarperiod:
        strength = strength[0]
        phase = phase[0]
    return strength, phase
