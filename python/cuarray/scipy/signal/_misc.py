"""scipy.signal's other filters on the GPU: detrend, hilbert, medfilt, wiener, savgol, resample, upfirdn, decimate."""
import math
import operator
import warnings

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.scipy.signal import _conv
from cuarray.scipy.signal import _filter
from cuarray.scipy.signal import _kernels
from cuarray.scipy.signal.windows import _windows


def _norm_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _rows(x, axis):
    """x with `axis` moved last, as a C-contiguous (rows, L) array, and the leading shape."""
    xm = _cp.moveaxis(x, axis, -1)
    lead = xm.shape[:-1]
    rows = int(numpy.prod(lead)) if lead else 1
    return _cp.ascontiguousarray(xm).reshape(rows, xm.shape[-1]), lead


def _unrows(y2, lead, axis):
    return _cp.moveaxis(y2.reshape(lead + (y2.shape[-1],)), -1, axis)


def detrend(data, axis=-1, type='linear', bp=0, overwrite_data=False):
    """Remove a linear trend or the mean along an axis (scipy.signal.detrend)."""
    if type not in ('linear', 'l', 'constant', 'c'):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = _conv._as_array(data)
    dtype = data.dtype if data.dtype.char in 'dfDF' else numpy.dtype(numpy.float64)
    if data.ndim == 0:
        raise numpy.exceptions.AxisError(axis, 0)
    axis = _norm_axis(axis, data.ndim)
    x = data.astype(dtype, copy=False)
    if type in ('constant', 'c'):
        return x - x.mean(axis=axis, keepdims=True)
    N = data.shape[axis]
    bps = numpy.sort(numpy.unique(numpy.concatenate(([0], numpy.atleast_1d(bp), [N])).astype(numpy.int64)))
    if numpy.any(bps > N):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    x2, lead = _rows(x, axis)
    out = x2.copy()
    rdt = numpy.empty(0, dtype).real.dtype
    for lo, hi in zip(bps[:-1].tolist(), bps[1:].tolist()):
        n = hi - lo
        if n <= 0:
            continue
        seg = x2[:, lo:hi]
        # The least-squares line in closed form over centred abscissae (no normal equations to solve).
        t = _cp.asarray(numpy.arange(n, dtype=rdt) - (n - 1) / 2.0)
        mean = seg.mean(axis=1, keepdims=True)
        denom = float(numpy.sum((numpy.arange(n) - (n - 1) / 2.0) ** 2))
        slope = (seg * t).sum(axis=1, keepdims=True) / denom if denom > 0 else 0 * mean
        out[:, lo:hi] = seg - (mean + slope * t)
    return _unrows(out, lead, axis)


def _hilbert_h(N):
    h = numpy.zeros(N)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    return h


def _complex_of(dt):
    return numpy.dtype(numpy.complex64) if dt == numpy.float32 else numpy.dtype(numpy.complex128)


def hilbert(x, N=None, axis=-1):
    """The analytic signal, using the Hilbert transform (scipy.signal.hilbert)."""
    x = _conv._as_array(x)
    if x.dtype.kind == 'c':
        raise ValueError("x must be real.")
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    axis = _norm_axis(axis, x.ndim)
    Xf = _fft.fft(x, N, axis=axis)
    shape = [1] * x.ndim
    shape[axis] = N
    h = _cp.asarray(_hilbert_h(N).reshape(shape))
    return _fft.ifft(Xf * h, axis=axis).astype(_complex_of(x.dtype), copy=False)


def hilbert2(x, N=None, axes=(-2, -1)):
    """The 2-D analytic signal of x over two axes (scipy.signal.hilbert2)."""
    x = _conv._as_array(x)
    while x.ndim < 2:
        x = x[None]
    if x.dtype.kind == 'c':
        raise ValueError("x must be real.")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    ax = (_norm_axis(axes[0], x.ndim), _norm_axis(axes[1], x.ndim))
    if ax[0] == ax[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[ax[0]], x.shape[ax[1]])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or numpy.any(numpy.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    Xf = _fft.fft2(x, N, axes=ax)
    # One orthant: positive frequencies doubled along each axis, the rest (Nyquist included) zeroed.
    h = numpy.ones((1,))
    shape = [1] * x.ndim
    hs = []
    for n in N:
        k = (n + 1) // 2
        v = numpy.zeros(n)
        v[0] = 1
        v[1:k] = 2
        hs.append(v)
    shape0 = list(shape)
    shape0[ax[0]] = N[0]
    shape1 = list(shape)
    shape1[ax[1]] = N[1]
    h = hs[0].reshape(shape0) * hs[1].reshape(shape1)
    return _fft.ifft2(Xf * _cp.asarray(h), axes=ax).astype(_complex_of(x.dtype), copy=False)


def medfilt(volume, kernel_size=None):
    """Median filter of an N-dimensional array, zero-padded (scipy.signal.medfilt)."""
    volume = _conv._as_array(volume)
    if volume.ndim == 0:
        volume = volume.reshape(1)
    if volume.dtype.kind == 'c':
        raise ValueError("complex types are not supported by medfilt")
    if volume.dtype.kind not in 'biuf':
        raise ValueError(f"dtype={volume.dtype} is not supported by medfilt")
    if kernel_size is None:
        kernel_size = [3] * volume.ndim
    kernel_size = numpy.asarray(kernel_size)
    if kernel_size.shape == ():
        kernel_size = numpy.repeat(kernel_size.item(), volume.ndim)
    if kernel_size.size != volume.ndim:
        raise ValueError("kernel_size must have the same number of elements as the array has dimensions")
    for k in range(volume.ndim):
        if (kernel_size[k] % 2) != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if any(k > s for k, s in zip(kernel_size, volume.shape)):
        warnings.warn('kernel_size exceeds volume extent: the volume will be zero-padded.', stacklevel=2)
    ks = [int(k) for k in kernel_size]
    x = _cp.ascontiguousarray(volume)
    y = _cp.empty(x.shape, x.dtype)
    if y.size == 0:
        return y
    K = int(numpy.prod(ks))
    kern = _kernels.median_kernel(x.ndim, x.dtype, K)
    args = [numpy.int64(v) for v in (*x.shape, *ks)]
    kern((_kernels.blocks(y.size),), (_kernels.THREADS,), (x, y, numpy.int64(y.size), *args))
    return y


def medfilt2d(input, kernel_size=3):
    """Median filter of a 2-dimensional array, zero-padded (scipy.signal.medfilt2d)."""
    input = _conv._as_array(input)
    if input.ndim != 2:
        raise ValueError("medfilt2d input must be a 2-D array")
    ks = numpy.asarray(kernel_size)
    if ks.shape == ():
        ks = numpy.repeat(ks.item(), 2)
    return medfilt(input, ks)


def wiener(im, mysize=None, noise=None):
    """A Wiener filter on an N-dimensional array (scipy.signal.wiener)."""
    im = _conv._as_array(im)
    if mysize is None:
        mysize = [3] * im.ndim
    mysize = numpy.asarray(mysize)
    if mysize.shape == ():
        mysize = numpy.repeat(mysize.item(), im.ndim)
    dt = numpy.result_type(im.dtype, numpy.float64)
    x = im.astype(dt, copy=False)
    ones = _cp.ones(tuple(int(s) for s in mysize), dt)
    n = float(numpy.prod(mysize))
    lMean = _conv.correlate(x, ones, 'same', method='direct') / n
    lVar = _conv.correlate(x * x.conj() if dt.kind == 'c' else x * x, ones, 'same', method='direct') / n - \
        lMean * (lMean.conj() if dt.kind == 'c' else lMean)
    if noise is None:
        noise = lVar.mean()
    res = x - lMean
    with numpy.errstate(divide='ignore', invalid='ignore'):
        res = res * (1 - noise / lVar)
    res = res + lMean
    return _cp.where(lVar < noise, lMean, res)


def _savgol_host(window_length, polyorder, deriv=0, delta=1.0, pos=None, use='conv'):
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    if pos is None:
        pos = halflen if rem else halflen - 0.5
    if not (0 <= pos < window_length):
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ['conv', 'dot']:
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return numpy.zeros(window_length)
    x = numpy.arange(-pos, window_length - pos, dtype=float)
    if use == 'conv':
        x = x[::-1]
    order = numpy.arange(polyorder + 1).reshape(-1, 1)
    A = x ** order
    y = numpy.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / (delta ** deriv)
    coeffs, _, _, _ = numpy.linalg.lstsq(A, y, rcond=None)
    return coeffs


def savgol_coeffs(window_length, polyorder, deriv=0, delta=1.0, pos=None, use='conv'):
    """Coefficients of a 1-D Savitzky-Golay FIR filter (scipy.signal.savgol_coeffs)."""
    return _cp.asarray(_savgol_host(window_length, polyorder, deriv, delta, pos, use))


_NDI_TO_PAD = {'mirror': 'reflect', 'nearest': 'edge', 'wrap': 'wrap', 'constant': 'constant'}


def _fir_mode(x2, w, mode, cval):
    """ndimage.convolve1d(x, w, mode) along the rows of 2-D x2 (convolve1d's centring for even lengths)."""
    K = w.size
    # out[i] = sum_c w[c] x[i + D - c] (ndimage puts the centre of an even kernel one sample later).
    D = K // 2
    left, right = K - 1 - D, D
    if mode == 'constant':
        xp = _cp.pad(x2, ((0, 0), (left, right)), mode='constant', constant_values=cval)
    else:
        xp = _cp.pad(x2, ((0, 0), (left, right)), mode=_NDI_TO_PAD[mode])
    wd = _cp.asarray(w.astype(x2.dtype).reshape(1, -1))
    return _conv.direct_conv(xp, wd, x2.shape, (0, D + left))


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode='interp', cval=0.0):
    """Apply a Savitzky-Golay filter to an array (scipy.signal.savgol_filter)."""
    if mode not in ["mirror", "constant", "nearest", "interp", "wrap"]:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = _conv._as_array(x)
    if x.dtype != numpy.float64 and x.dtype != numpy.float32:
        x = x.astype(numpy.float64)
    coeffs = _savgol_host(window_length, polyorder, deriv=deriv, delta=delta)
    axis = _norm_axis(axis, x.ndim)
    L = x.shape[axis]
    if mode == "interp" and window_length > L:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to the size of x.")
    x2, lead = _rows(x, axis)
    if x2.size == 0:
        return x.copy()
    y2 = _fir_mode(x2, coeffs, 'constant' if mode == 'interp' else mode, cval)
    if mode == 'interp':
        half = window_length // 2
        if half:
            # The edge values of the polynomial fitted to the first/last window: a linear map of the window.
            t = numpy.arange(window_length, dtype=float)
            V = numpy.vander(t, polyorder + 1, increasing=True)
            P = numpy.linalg.pinv(V)                       # window -> polynomial coefficients
            D = numpy.zeros((polyorder + 1, polyorder + 1))  # derivative of the coefficients
            for p in range(deriv, polyorder + 1):
                D[p - deriv, p] = math.factorial(p) / math.factorial(p - deriv)
            M = (numpy.vander(t, polyorder + 1, increasing=True) @ D @ P) / (delta ** deriv)
            Md = _cp.asarray(M.astype(x2.dtype))
            y2[:, :half] = _cp.matmul(x2[:, :window_length], Md[:half].T)
            y2[:, L - half:] = _cp.matmul(x2[:, L - window_length:], Md[window_length - half:].T)
    return _unrows(y2, lead, axis)


def _output_len(len_h, in_len, up, down):
    return ((in_len - 1) * up + len_h - 1) // down + 1


_UPFIRDN_MODES = ('constant', 'wrap', 'edge', 'smooth', 'symmetric', 'reflect', 'antisymmetric', 'antireflect',
                  'line')


def _extend_rows(x2, e, mode, cval):
    """x2 (rows, L) extended by e samples at each end with upfirdn's boundary rule."""
    L = x2.shape[1]
    if mode == 'constant':
        return _cp.pad(x2, ((0, 0), (e, e)), mode='constant', constant_values=cval)
    i = numpy.arange(1, e + 1)
    first, last = x2[:, :1], x2[:, -1:]
    if mode in ('smooth', 'line'):
        if L < 2:
            slope_l = slope_r = 0 * first
        elif mode == 'smooth':
            slope_l, slope_r = x2[:, 1:2] - first, last - x2[:, -2:-1]
        else:
            slope_l = slope_r = (last - first) / (L - 1)
        ti = _cp.asarray(i.astype(numpy.float64)).astype(x2.dtype)
        left = first - slope_l * ti[::-1]
        right = last + slope_r * ti
        return _cp.concatenate([left, x2, right], axis=1)
    if mode in ('antisymmetric', 'antireflect'):
        base = 'symmetric' if mode == 'antisymmetric' else 'reflect'
        idx = numpy.pad(numpy.arange(L), e, mode=base)
        ext = _cp.take(x2, _cp.asarray(idx), axis=1)
        if mode == 'antisymmetric':
            sign = numpy.ones(idx.size)
            sign[:e] = sign[e + L:] = -1
            return ext * _cp.asarray(sign).astype(x2.dtype)
        # antireflect: the reflection through the end sample (2 x[end] - x[mirror]).
        left = 2 * first - ext[:, :e]
        right = 2 * last - ext[:, e + L:]
        return _cp.concatenate([left, x2, right], axis=1)
    idx = numpy.pad(numpy.arange(L), e, mode=mode)
    return _cp.take(x2, _cp.asarray(idx), axis=1)


def upfirdn(h, x, up=1, down=1, axis=-1, mode='constant', cval=0):
    """Upsample, FIR filter, and downsample (scipy.signal.upfirdn)."""
    h = numpy.asarray(h.get() if isinstance(h, _cp.ndarray) else h)
    x = _conv._as_array(x)
    if h.ndim != 1 or h.size == 0:
        raise ValueError('h must be 1-D with non-zero length')
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError('Both up and down must be >= 1')
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode not in _UPFIRDN_MODES:
        raise ValueError(f"Unknown mode: {mode}")
    dtype = numpy.result_type(h.dtype, x.dtype, numpy.float32)
    axis = _norm_axis(axis, x.ndim)
    x2, lead = _rows(x.astype(dtype, copy=False), axis)
    L = x2.shape[1]
    K = h.size
    n_out = _output_len(K, L, up, down)
    # Input samples beyond the ends that reach the outputs: x[-e..-1] and x[L..L+e-1].
    e = -(-K // up) if mode != 'constant' or cval != 0 else 0
    if e and L:
        xe = _extend_rows(x2, e, mode, cval)
    else:
        xe = x2
    Le = xe.shape[1]
    if Le == 0:
        return _unrows(_cp.zeros((x2.shape[0], n_out), dtype), lead, axis)
    xu = _cp.zeros((x2.shape[0], (Le - 1) * up + 1), dtype)
    xu[:, ::up] = xe
    hd = _cp.asarray(h.astype(dtype).reshape(1, -1))
    # Output j of upfirdn is full-convolution index j*down (of the unextended signal).
    full_len = n_out * down
    off = e * up
    if K > 128 and dtype.kind in 'fc':
        full = _conv.fftconvolve(xu, hd, mode='full', axes=1)
        full = _cp.pad(full, ((0, 0), (0, max(0, off + full_len - full.shape[1]))))
        y2 = full[:, off:off + full_len:down]
    else:
        y2 = _conv.direct_conv(xu, hd, (x2.shape[0], full_len), (0, off))[:, ::down]
    return _unrows(_cp.ascontiguousarray(y2.astype(dtype, copy=False)), lead, axis)


def _firwin_lowpass(numtaps, cutoff, window):
    """A linear-phase low-pass FIR (cutoff relative to Nyquist) with unit gain at DC, as firwin designs it."""
    alpha = 0.5 * (numtaps - 1)
    m = numpy.arange(0, numtaps) - alpha
    h = cutoff * numpy.sinc(cutoff * m)
    h = h * _windows._host(_windows.get_window(window, numtaps, fftbins=False))
    return h / numpy.sum(h)


def resample_poly(x, up, down, axis=0, window=('kaiser', 5.0), padtype='constant', cval=None):
    """Resample x along an axis with a polyphase filter (scipy.signal.resample_poly)."""
    x = _conv._as_array(x)
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError('up and down must be >= 1')
    if cval is not None and padtype != 'constant':
        raise ValueError('cval has no effect when padtype is ', padtype)
    axis = _norm_axis(axis, x.ndim)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (list, numpy.ndarray, _cp.ndarray)):
        h = numpy.asarray(window.get() if isinstance(window, _cp.ndarray) else window)
        if h.ndim > 1:
            raise ValueError('window must be 1-D')
        half_len = (h.size - 1) // 2
        h = h.copy()
    else:
        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = _firwin_lowpass(2 * half_len + 1, 1.0 / max_rate, window)
        if x.dtype.kind in 'fc':
            h = h.astype(x.dtype)  # SciPy designs in float64, then filters in the input's precision
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(len(h) + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = numpy.concatenate((numpy.zeros(n_pre_pad, dtype=h.dtype), h, numpy.zeros(n_post_pad, dtype=h.dtype)))
    n_pre_remove_end = n_pre_remove + n_out
    stats = {'mean': _cp.mean, 'median': _cp.median, 'maximum': _cp.max, 'minimum': _cp.min}
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(n_pre_remove, n_pre_remove_end)
    if padtype in stats:
        background = stats[padtype](x, axis=axis, keepdims=True)
        y = upfirdn(h, x - background, up, down, axis=axis)[tuple(sl)]
        return y + background.astype(y.dtype)
    if padtype not in _UPFIRDN_MODES:
        raise ValueError('padtype must be one of: maximum, mean, median, minimum, ' + ', '.join(_UPFIRDN_MODES))
    y = upfirdn(h, x, up, down, axis=axis, mode=padtype, cval=0 if cval is None else cval)
    return y[tuple(sl)]


def resample(x, num, t=None, axis=0, window=None, domain='time'):
    """Resample x to num samples along an axis with the Fourier method (scipy.signal.resample)."""
    if domain not in ('time', 'freq'):
        raise ValueError(f"Parameter {domain=} not in ('time', 'freq')!")
    x = _conv._as_array(x)
    num = operator.index(num)
    axis = _norm_axis(axis, x.ndim)
    xm = _cp.moveaxis(x, axis, -1)
    n_x = xm.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    if window is None:
        W = None
    elif callable(window):
        W = numpy.asarray(_windows._host(window(numpy.fft.fftfreq(n_x))), dtype=numpy.float64)
    elif hasattr(window, 'shape'):
        if window.shape != (n_x,):
            raise ValueError(f"{window.shape=} != ({n_x},), i.e., window length is not equal to number of "
                             "frequency bins!")
        W = numpy.array(_windows._host(window))
    else:
        W = numpy.fft.fftshift(_windows._host(_windows.get_window(window, n_x)))
    if domain == 'time' and xm.dtype.kind != 'c':
        rdt = xm.dtype if xm.dtype.kind == 'f' and xm.dtype.itemsize >= 4 else numpy.dtype(numpy.float64)
        X = _fft.rfft(xm.astype(rdt, copy=False))
        if W is not None:
            n_X = X.shape[-1]
            W = W.copy()
            # A two-sided window folded onto the one-sided spectrum.
            W[1:n_X] += numpy.flip(W[-n_X + 1:]) if n_X > 1 else 0
            W[1:n_X] /= 2
            X = X * _cp.asarray(W[:n_X])
        X = X[..., :m2]
        if m % 2 == 0 and num != n_x:
            scale = numpy.ones(X.shape[-1])
            scale[m // 2] = 2 if num < n_x else 0.5
            X = X * _cp.asarray(scale)
        y = _fft.irfft(X / s_fac, n=num).astype(rdt, copy=False)
    else:
        X = _fft.fft(xm) if domain == 'time' else xm.astype(numpy.result_type(xm.dtype, numpy.complex64))
        if W is not None:
            X = X * _cp.asarray(W)
        Y = _cp.zeros(X.shape[:-1] + (num,), dtype=X.dtype)
        Y[..., :m2] = X[..., :m2]
        if m2 < m:
            Y[..., m2 - m:] = X[..., m2 - m:]
        if m % 2 == 0:
            if num < n_x:
                Y[..., -m // 2] += X[..., -m // 2]
            elif n_x < num:
                Y[..., m // 2] /= 2
                Y[..., num - m // 2] = Y[..., m // 2]
        y = _fft.ifft(Y / s_fac, n=num)
        cdt = xm.dtype if xm.dtype.kind == 'c' else _complex_of(xm.dtype)
        y = y.astype(cdt, copy=False)
    y = _cp.moveaxis(y, -1, axis)
    if t is not None:
        t = _conv._as_array(t)
        return y, t[0] + (t[1] - t[0]) * s_fac * _cp.arange(num)
    return y


def _cheby1_sos(N, rp, Wn):
    """Digital low-pass Chebyshev type I second-order sections (bilinear transform at fs = 2)."""
    eps = numpy.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = 1.0 / N * numpy.arcsinh(1 / eps)
    m = numpy.arange(-N + 1, N, 2)
    theta = numpy.pi * m / (2 * N)
    p = -numpy.sinh(mu + 1j * theta)
    k = numpy.prod(-p).real
    if N % 2 == 0:
        k = k / numpy.sqrt(1 + eps * eps)
    warped = 4.0 * numpy.tan(numpy.pi * Wn / 2.0)
    p = p * warped
    k = k * warped ** N
    pd = (4.0 + p) / (4.0 - p)
    kd = k * numpy.real(1.0 / numpy.prod(4.0 - p))
    # Pair conjugate poles (zeros all at z = -1); a cascade's response does not depend on the pairing.
    upper = sorted([q for q in pd if q.imag > 1e-14], key=lambda q: abs(q))
    real = [q.real for q in pd if abs(q.imag) <= 1e-14]
    sos = []
    for q in upper:
        sos.append([1.0, 2.0, 1.0, 1.0, -2 * q.real, abs(q) ** 2])
    for r in real:
        sos.append([1.0, 1.0, 0.0, 1.0, -r, 0.0])
    sos = numpy.array(sos, dtype=numpy.float64)
    sos[0, :3] *= kd
    return sos


def decimate(x, q, n=None, ftype='iir', axis=-1, zero_phase=True):
    """Downsample the signal after applying an anti-aliasing filter (scipy.signal.decimate)."""
    x = _conv._as_array(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    result_type = x.dtype
    if result_type.kind not in 'fc' or result_type == numpy.float16:
        result_type = numpy.dtype(numpy.float64)
    axis = _norm_axis(axis, x.ndim)
    sl = [slice(None)] * x.ndim
    if ftype == 'fir':
        if n is None:
            n = 2 * 10 * q
        b = _firwin_lowpass(n + 1, 1. / q, 'hamming').astype(result_type)
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=b)
        else:
            n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
            y = upfirdn(b, x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, n_out, None)
    elif ftype == 'iir':
        if n is None:
            n = 8
        sos = _cheby1_sos(n, 0.05, 0.8 / q).astype(result_type)
        y = _filter.sosfiltfilt(sos, x, axis=axis) if zero_phase else _filter.sosfilt(sos, x, axis=axis)
        sl[axis] = slice(None, None, q)
    else:
        raise ValueError('invalid ftype')
    return y[tuple(sl)]
