"""scipy.signal's linear filters on the GPU: lfilter, lfilter_zi, filtfilt, sosfilt, sosfilt_zi, sosfiltfilt."""
import numpy

import cuarray as _cp
from cuarray.scipy.signal import _conv
from cuarray.scipy.signal import _kernels

# Chunk length of the IIR block scan (Note [IIR block scan] in _kernels.py); None: chosen per call by
# _chunk_len. Tests set it to walk every level of the scan with short signals.
_CHUNK = None


def _chunk_len(L, N):
    """About the cube root of L (a power of two in [32, 1024]): the scan's three sequential walks (C samples,
    G chunks, L/(C*G) groups) then have similar lengths, and L/C threads run the local pass."""
    if _CHUNK is not None:
        return max(_CHUNK, N)
    c = 1 << max(5, min(10, int(round(numpy.log2(max(L, 2)) / 3))))
    return max(c, N)


def _host_coeffs(v, name):
    v = numpy.atleast_1d(numpy.asarray(v.get() if isinstance(v, _cp.ndarray) else v))
    if v.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array")
    return v


def _compute_dtype(*dts):
    dt = numpy.result_type(*dts)
    if dt.kind in 'biu' or dt == numpy.float16:
        dt = numpy.result_type(dt, numpy.float64)
    if dt.kind == 'O':
        raise TypeError("object arrays are not supported")
    return dt


_tables = {}


def _scan_tables(a, C):
    """Host tables of Note [IIR block scan] for the monic denominator a and chunk length C, cached by value:
    h[j, q] (output j of the recursion driven only by y[-1-q] = 1) and P[i] = A^i (i < G) and A^G, where
    A = M^C is the chunk's carry map and M the recursion's companion matrix (float64/complex128)."""
    hd = numpy.complex128 if a.dtype.kind == 'c' else numpy.float64
    a = a.astype(hd)
    N = a.size - 1
    key = (a.tobytes(), C)
    hit = _tables.get(key)
    if hit is not None:
        return hit
    M = numpy.zeros((N, N), hd)
    M[0] = -a[1:]
    M[numpy.arange(1, N), numpy.arange(N - 1)] = 1
    # Powers M^1..M^C by doubling: the state after j+1 steps is M^(j+1) applied to the initial state.
    pw = M[None]
    while pw.shape[0] < C:
        pw = numpy.concatenate([pw, pw[-1] @ pw])
    h = numpy.ascontiguousarray(pw[:C, 0, :])
    A = pw[C - 1]
    if len(_tables) > 64:
        _tables.clear()
    _tables[key] = (h, A)
    return h, A


def _powers(A, G):
    P = numpy.empty((G,) + A.shape, A.dtype)
    P[0] = numpy.eye(A.shape[0])
    for i in range(1, G):
        P[i] = A @ P[i - 1]
    return P, A @ P[G - 1]


def _all_pole(y, a):
    """In place along the last axis of C-contiguous 2-D y: y[n] -= sum_k a[k] y[n-k] (a[0] == 1)."""
    N = a.size - 1
    rows, L = y.shape
    if N == 0 or y.size == 0:
        return y
    C = _chunk_len(L, N)
    nch = -(-L // C)
    local, carry_k, top, cfix, fix = _kernels.iir_kernels(N, y.dtype)
    ad = _cp.asarray(a.astype(y.dtype))
    args = (numpy.int64(rows), numpy.int64(L), numpy.int64(C), numpy.int64(nch))
    T = _kernels.THREADS
    local((_kernels.blocks(rows * nch),), (T,), (y, ad, *args))
    if nch == 1:
        return y
    h, A = _scan_tables(a, C)
    G = max(1, int(numpy.sqrt(nch)))
    ng = -(-nch // G)
    P, AG = _powers(A, G)
    dt = y.dtype
    hd = _cp.asarray(h.astype(dt))
    carry = _cp.empty((rows, nch, N), dt)
    sout = _cp.empty((rows, ng, N), dt)
    stop = _cp.empty((rows, ng, N), dt)
    g_args = (numpy.int64(G), numpy.int64(ng))
    carry_k((_kernels.blocks(rows * ng),), (T,), (y, hd, carry, sout, *args, *g_args))
    if ng > 1:
        top((_kernels.blocks(rows),), (T,), (sout, _cp.asarray(AG.astype(dt)), stop, numpy.int64(rows),
                                           numpy.int64(ng)))
        cfix((_kernels.blocks(rows * nch),), (T,), (carry, _cp.asarray(P.astype(dt)), stop, numpy.int64(rows),
                                                    numpy.int64(nch), *g_args))
    fix((_kernels.blocks(rows * L),), (T,), (y, hd, carry, *args))
    return y


def _fir_rows(x2, b):
    """y[r, n] = sum_k b[k] x[r, n-k] for n < L (causal FIR along the rows of 2-D x2)."""
    w = _cp.asarray(b.astype(x2.dtype).reshape(1, -1))
    if b.size > 64 and x2.shape[1] > 64 and x2.dtype.kind in 'fc':
        full = _conv.fftconvolve(x2, w, mode='full', axes=1)
        return _cp.ascontiguousarray(full[:, :x2.shape[1]].astype(x2.dtype, copy=False))
    return _conv.direct_conv(x2, w, x2.shape, (0, 0))


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter data along one dimension with an IIR or FIR filter (scipy.signal.lfilter)."""
    b = _host_coeffs(b, 'b')
    a = _host_coeffs(a, 'a')
    x = _conv._as_array(x)
    if a.size == 0 or b.size == 0:
        raise ValueError("The coefficient arrays must not be empty")
    if a[0] == 0:
        raise ValueError("BUG: filter coefficient a[0] == 0 not supported yet")
    ndim = x.ndim
    if ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    axis %= ndim
    dtype = _compute_dtype(b.dtype, a.dtype, x.dtype)
    K = max(a.size, b.size) - 1
    b = (b / a[0]).astype(dtype)
    a = (a / a[0]).astype(dtype)
    if zi is not None:
        zi = _conv._as_array(zi)
        expected = list(x.shape)
        expected[axis] = K
        if zi.ndim != ndim or any(s != e and s != 1 for s, e in zip(zi.shape, expected)) or \
                zi.shape[axis] != K:
            raise ValueError("Unexpected shape for zi: expected {}, found {}.".format(tuple(expected), zi.shape))
        dtype = numpy.result_type(dtype, zi.dtype)
        b, a = b.astype(dtype), a.astype(dtype)
        zi = _cp.broadcast_to(zi, tuple(expected))
    xm = _cp.moveaxis(x, axis, -1)
    lead = xm.shape[:-1]
    L = xm.shape[-1]
    rows = int(numpy.prod(lead)) if lead else 1
    x2 = _cp.ascontiguousarray(xm.astype(dtype, copy=False)).reshape(rows, L)
    bf = numpy.zeros(K + 1, dtype)
    bf[:b.size] = b
    af = numpy.zeros(K + 1, dtype)
    af[:a.size] = a
    if x2.size == 0:
        y2 = x2.copy()
    else:
        y2 = _fir_rows(x2, b)
        if zi is not None and K:
            z2 = _cp.ascontiguousarray(_cp.moveaxis(zi, axis, -1).astype(dtype)).reshape(rows, K)
            n = min(K, L)
            y2[:, :n] += z2[:, :n]
        _all_pole(y2, a[:numpy.max(numpy.nonzero(a)) + 1] if a.size > 1 else a)
    y = _cp.moveaxis(y2.reshape(lead + (L,)), -1, axis)
    if zi is None:
        return y
    if K == 0:
        return y, _cp.moveaxis(_cp.empty(lead + (0,), dtype), -1, axis)
    # Final state (Note [IIR block scan] solves y; the state follows from the last K inputs and outputs):
    # zf[i] = sum_{p=i}^{K-1} b[K+i-p] xt[p] - a[K+i-p] yt[p] + zi[i+L] for i+L < K.
    n = min(K, L)
    xt = _cp.zeros((rows, K), dtype)
    yt = _cp.zeros((rows, K), dtype)
    if n:
        xt[:, K - n:] = x2[:, L - n:]
        yt[:, K - n:] = y2[:, L - n:]
    p = numpy.arange(K)[:, None]
    i = numpy.arange(K)[None, :]
    idx = K + i - p
    mask = p >= i
    Bm = numpy.where(mask, bf[numpy.clip(idx, 0, K)], 0).astype(dtype)
    Am = numpy.where(mask, af[numpy.clip(idx, 0, K)], 0).astype(dtype)
    zf = _cp.matmul(xt, _cp.asarray(Bm)) - _cp.matmul(yt, _cp.asarray(Am))
    if L < K:
        z2 = _cp.ascontiguousarray(_cp.moveaxis(zi, axis, -1).astype(dtype)).reshape(rows, K)
        zf[:, :K - L] += z2[:, L:]
    zf = _cp.moveaxis(zf.reshape(lead + (K,)), -1, axis)
    return y, zf


def lfilter_zi(b, a):
    """Initial state of lfilter for the step response's steady state (scipy.signal.lfilter_zi)."""
    return _cp.asarray(_lfilter_zi_host(b, a))


def _lfilter_zi_host(b, a):
    b = numpy.atleast_1d(numpy.asarray(b.get() if isinstance(b, _cp.ndarray) else b))
    a = numpy.atleast_1d(numpy.asarray(a.get() if isinstance(a, _cp.ndarray) else a))
    if b.ndim != 1:
        raise ValueError("Numerator b must be 1-D.")
    if a.ndim != 1:
        raise ValueError("Denominator a must be 1-D.")
    # Leading zeros of a would make the normalisation divide by zero.
    nz = numpy.nonzero(a)[0]
    if nz.size == 0:
        raise ValueError("There must be at least one nonzero `a` coefficient.")
    a = a[nz[0]:]
    if a[0] != 1.0:
        b = b / a[0]
        a = a / a[0]
    n = max(a.size, b.size)
    if a.size < n:
        a = numpy.concatenate([a, numpy.zeros(n - a.size, a.dtype)])
    elif b.size < n:
        b = numpy.concatenate([b, numpy.zeros(n - b.size, b.dtype)])
    if n == 1:
        return numpy.zeros(0, numpy.result_type(a, b, numpy.float64))
    # The steady state of the transposed direct form for a unit step: (I - A^T) zi = b[1:] - a[1:] b[0],
    # with A the companion matrix of a.
    comp = numpy.zeros((n - 1, n - 1), numpy.result_type(a, numpy.float64))
    comp[0, :] = -a[1:]
    comp[numpy.arange(1, n - 1), numpy.arange(n - 2)] = 1
    m = numpy.eye(n - 1, dtype=comp.dtype) - comp.T
    rhs = b[1:] - a[1:] * b[0]
    return numpy.linalg.solve(m, rhs)


def _axis_slice(x, start=None, stop=None, step=None, axis=-1):
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(start, stop, step)
    return x[tuple(sl)]


def _ext(x, n, axis, padtype):
    if n < 1:
        return x
    if padtype == 'even':
        left = _axis_slice(x, n, 0, -1, axis)
        right = _axis_slice(x, -2, -(n + 2), -1, axis)
    elif padtype == 'odd':
        first = _axis_slice(x, 0, 1, axis=axis)
        last = _axis_slice(x, -1, None, axis=axis)
        left = 2 * first - _axis_slice(x, n, 0, -1, axis)
        right = 2 * last - _axis_slice(x, -2, -(n + 2), -1, axis)
    else:
        first = _axis_slice(x, 0, 1, axis=axis)
        last = _axis_slice(x, -1, None, axis=axis)
        shp = list(x.shape)
        shp[axis] = n
        left = _cp.broadcast_to(first, tuple(shp))
        right = _cp.broadcast_to(last, tuple(shp))
    return _cp.concatenate([left, x, right], axis=axis)


def _validate_pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ('even', 'odd', 'constant', None):
        raise ValueError("Unknown value '%s' given to padtype.  padtype must be 'even', 'odd', 'constant', "
                         "or None." % padtype)
    if padtype is None:
        padlen = 0
    edge = ntaps * 3 if padlen is None else padlen
    if x.shape[axis] <= edge:
        raise ValueError("The length of the input vector x must be greater than padlen, which is %d." % edge)
    if padtype is not None and edge > 0:
        ext = _ext(x, edge, axis, padtype)
    else:
        ext = x
    return edge, ext


def _zi_along(zi, ndim, axis):
    shape = [1] * ndim
    shape[axis] = zi.size
    return zi.reshape(shape)


def filtfilt(b, a, x, axis=-1, padtype='odd', padlen=None, method='pad', irlen=None):
    """Apply a digital filter forward and backward (scipy.signal.filtfilt, method='pad')."""
    b = _host_coeffs(b, 'b')
    a = _host_coeffs(a, 'a')
    x = _conv._as_array(x)
    if method not in ('pad', 'gust'):
        raise ValueError("method must be 'pad' or 'gust'.")
    if method == 'gust':
        raise ValueError("cuarray.scipy.signal.filtfilt supports method='pad' only (CuPy's restriction)")
    ndim = x.ndim
    if ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    axis %= ndim
    edge, ext = _validate_pad(padtype, padlen, x, axis, max(a.size, b.size))
    zi = _zi_along(lfilter_zi(b, a), ndim, axis)
    x0 = _axis_slice(ext, 0, 1, axis=axis)
    y, _ = lfilter(b, a, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, -1, None, axis=axis)
    y, _ = lfilter(b, a, _axis_slice(y, None, None, -1, axis), axis=axis, zi=zi * y0)
    y = _axis_slice(y, None, None, -1, axis)
    if edge > 0:
        y = _axis_slice(y, edge, -edge, axis=axis)
    return _cp.ascontiguousarray(y)


def _check_sos(sos):
    sos = numpy.atleast_2d(numpy.asarray(sos.get() if isinstance(sos, _cp.ndarray) else sos))
    if sos.ndim != 2:
        raise ValueError('sos array must be 2D')
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError('sos array must be shape (n_sections, 6)')
    if not (sos[:, 3] == 1).all():
        raise ValueError('sos[:, 3] should be all ones')
    return sos, n_sections


def sosfilt(sos, x, axis=-1, zi=None):
    """Filter data along one dimension with cascaded second-order sections (scipy.signal.sosfilt)."""
    sos, n_sections = _check_sos(sos)
    x = _conv._as_array(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -x.ndim <= axis < x.ndim:
        raise numpy.exceptions.AxisError(axis, x.ndim)
    axis %= x.ndim
    dtype = _compute_dtype(sos.dtype, x.dtype)
    if zi is not None:
        zi = _conv._as_array(zi)
        dtype = numpy.result_type(dtype, zi.dtype)
        expected = list(x.shape)
        expected[axis] = 2
        expected = (n_sections,) + tuple(expected)
        if zi.shape != expected:
            raise ValueError('Invalid zi shape. With axis=%r, an input with shape %r, and an sos array with %d '
                             'sections, zi must have shape %r, got %r.' % (axis, x.shape, n_sections, expected,
                                                                          zi.shape))
    y = x.astype(dtype)
    zf = []
    for s in range(n_sections):
        if zi is None:
            y = lfilter(sos[s, :3], sos[s, 3:], y, axis=axis)
        else:
            y, z = lfilter(sos[s, :3], sos[s, 3:], y, axis=axis, zi=zi[s])
            zf.append(z)
    y = y.astype(dtype, copy=False)
    if zi is None:
        return y
    return y, _cp.stack(zf).astype(dtype, copy=False)


def sosfilt_zi(sos):
    """Initial state of sosfilt for the step response's steady state (scipy.signal.sosfilt_zi)."""
    sos = numpy.asarray(sos.get() if isinstance(sos, _cp.ndarray) else sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError('sos must be shape (n_sections, 6)')
    if sos.dtype.kind in 'bui':
        sos = sos.astype(numpy.float64)
    zi = numpy.empty((sos.shape[0], 2), dtype=sos.dtype)
    scale = 1.0
    for s in range(sos.shape[0]):
        b, a = sos[s, :3], sos[s, 3:]
        zi[s] = scale * _lfilter_zi_host(b, a)
        # The next section sees this one's steady-state (DC) output.
        scale *= b.sum() / a.sum()
    return _cp.asarray(zi)


def sosfiltfilt(sos, x, axis=-1, padtype='odd', padlen=None):
    """A forward-backward filter with cascaded second-order sections (scipy.signal.sosfiltfilt)."""
    sos, n_sections = _check_sos(sos)
    x = _conv._as_array(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    if not -x.ndim <= axis < x.ndim:
        raise numpy.exceptions.AxisError(axis, x.ndim)
    axis %= x.ndim
    ntaps = 2 * n_sections + 1
    ntaps -= min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps)
    zi = sosfilt_zi(sos)
    shape = [1] * x.ndim
    shape[axis] = 2
    zi = zi.reshape((n_sections,) + tuple(shape))
    x0 = _axis_slice(ext, 0, 1, axis=axis)
    y, _ = sosfilt(sos, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, -1, None, axis=axis)
    y, _ = sosfilt(sos, _axis_slice(y, None, None, -1, axis), axis=axis, zi=zi * y0)
    y = _axis_slice(y, None, None, -1, axis)
    if edge > 0:
        y = _axis_slice(y, edge, -edge, axis=axis)
    return _cp.ascontiguousarray(y)
