"""scipy.signal's B-spline filters: symiirorder1/2, cspline/qspline 1-D and 2-D, their evaluation, spline_filter,
gauss_spline and sepfir2d. The recursive filters run as one GPU thread per line."""
import math

import numpy

import cuarray as _cp
from cuarray._kernel import RawKernel
from cuarray.scipy.signal import _kernels

# Note [symmetric IIR kernels]
# A line is filtered causally, then anti-causally, each pass a first- or second-order recursion that is
# sequential along the line; lines are independent, so one thread runs one line. The data are laid out with the
# filtered axis first, (N, lines) C-contiguous, so that neighbouring threads read neighbouring addresses at each
# step of the recursion. The boundary values that start each pass (SciPy's mirror-symmetric initial conditions)
# are dot products of the first or last K samples with weights made on the host; K is where SciPy's series are
# truncated at `precision` (whole lines for cspline1d/qspline1d, which SciPy never truncates).
_SOURCE = r"""
typedef {val_t} val_t;
extern "C" __global__ void ca_symiir1(const val_t* __restrict__ x, val_t* __restrict__ y, long long N,
    long long M, const val_t* __restrict__ w, long long K, double c0r, double c0i, double z1r, double z1i,
    double er, double ei) {{
  const val_t c0 = ca_make<val_t>(c0r, c0i), z1 = ca_make<val_t>(z1r, z1i), e = ca_make<val_t>(er, ei);
  for (long long m = blockIdx.x * (long long)blockDim.x + threadIdx.x; m < M;
       m += (long long)blockDim.x * gridDim.x) {{
    val_t acc = x[m];
    for (long long k = 0; k < K; ++k) acc += w[k] * x[k * M + m];
    y[m] = acc;
    for (long long n = 1; n < N; ++n) {{ acc = x[n * M + m] + z1 * acc; y[n * M + m] = acc; }}
    acc = e * y[(N - 1) * M + m];
    y[(N - 1) * M + m] = acc;
    for (long long n = N - 2; n >= 0; --n) {{ acc = c0 * y[n * M + m] + z1 * acc; y[n * M + m] = acc; }}
  }}
}}

extern "C" __global__ void ca_symiir2(const val_t* __restrict__ x, val_t* __restrict__ y, long long N,
    long long M, const val_t* __restrict__ wf0, long long Kf0, const val_t* __restrict__ wf1, long long Kf1,
    const val_t* __restrict__ wb0, long long Kb0, const val_t* __restrict__ wb1, long long Kb1,
    double h00, double h01, double h10, double h11, double cs, double a2, double a3) {{
  const val_t vcs = ca_make<val_t>(cs, 0.0), va2 = ca_make<val_t>(a2, 0.0), va3 = ca_make<val_t>(a3, 0.0);
  for (long long m = blockIdx.x * (long long)blockDim.x + threadIdx.x; m < M;
       m += (long long)blockDim.x * gridDim.x) {{
    // y[0], y[1] from the line's start; the end values come from the input too, so they are taken first.
    val_t f0 = ca_make<val_t>(h00, 0.0) * x[m], f1 = ca_make<val_t>(h10, 0.0) * x[m] + ca_make<val_t>(h11, 0.0) * x[M + m];
    for (long long k = 0; k < Kf0; ++k) f0 += wf0[k] * x[k * M + m];
    for (long long k = 0; k < Kf1; ++k) f1 += wf1[k] * x[k * M + m];
    val_t b0 = ca_make<val_t>(0.0, 0.0), b1 = ca_make<val_t>(0.0, 0.0);
    for (long long k = 0; k < Kb0; ++k) b0 += wb0[k] * x[(N - 1 - k) * M + m];
    for (long long k = 0; k < Kb1; ++k) b1 += wb1[k] * x[(N - 1 - k) * M + m];
    val_t p2 = f0, p1 = f1;
    y[m] = f0;
    y[M + m] = f1;
    for (long long n = 2; n < N; ++n) {{
      const val_t v = vcs * x[n * M + m] + va2 * p1 + va3 * p2;
      y[n * M + m] = v; p2 = p1; p1 = v;
    }}
    // The backward pass reads y[n] (forward output) before overwriting it with the final output.
    p2 = b0; p1 = b1;
    y[(N - 1) * M + m] = b0;
    y[(N - 2) * M + m] = b1;
    for (long long n = N - 3; n >= 0; --n) {{
      const val_t v = vcs * y[n * M + m] + va2 * p1 + va3 * p2;
      y[n * M + m] = v; p2 = p1; p1 = v;
    }}
  }}
}}
"""
_THREADS = 128
_cache = {}


def source(dtype):
    return _kernels._PRELUDE + _SOURCE.format(val_t=_kernels.ctype(dtype))


def kernel(name, dtype):
    key = (name, numpy.dtype(dtype).name)
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(source(dtype), name)
    return k


def _blocks(n):
    return (int(max(1, min((n + _THREADS - 1) // _THREADS, 65535))),)


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _float_dtype(dt):
    dt = numpy.dtype(dt)
    if dt.kind in 'biu':
        return numpy.dtype(numpy.float64)
    if dt == numpy.float16:
        return numpy.dtype(numpy.float32)
    if dt.kind not in 'fc' or dt.itemsize > 16 or dt == numpy.longdouble:
        raise TypeError(f"unsupported dtype {dt}")
    return dt


def _default_precision(precision, dt, single, double):
    if precision < 0.0 or precision >= 1.0:
        return single if numpy.dtype(dt) in (numpy.float32, numpy.complex64) else double
    return precision


def _lines(x, axis):
    """x with `axis` first, as an (N, lines) C-contiguous array, and how to put the result back."""
    xm = _cp.moveaxis(x, axis, 0)
    shape = xm.shape
    x2 = _cp.ascontiguousarray(xm.reshape(shape[0], -1))

    def back(y):
        return _cp.ascontiguousarray(_cp.moveaxis(y.reshape(shape), 0, axis))
    return x2, back


def _cplx(v):
    v = complex(v)
    return numpy.float64(v.real), numpy.float64(v.imag)


def _iir1_lines(x, axis, c0, z1, weights, dt):
    x2, back = _lines(x.astype(dt, copy=False), axis)
    N, M = x2.shape
    y = _cp.empty_like(x2)
    if x2.size:
        real = dt.kind != 'c'
        c0 = complex(c0).real if real else complex(c0)
        z1 = complex(z1).real if real else complex(z1)
        e = -c0 / (z1 - 1.0)
        w = _cp.asarray(numpy.asarray(weights).astype(dt))
        kernel('ca_symiir1', dt)(_blocks(M), (_THREADS,),
                                 (x2, y, numpy.int64(N), numpy.int64(M), w, numpy.int64(len(weights)),
                                  *_cplx(c0), *_cplx(z1), *_cplx(e)))
    return back(y)


def _sym1_count(z1, precision, N, dt):
    # SciPy adds z1^(k+1) x[k] until |z1^(k+1)| <= precision; it gives up when that needs the whole line.
    powz = numpy.array(1, dtype=dt)
    prec2 = precision * precision
    k = 0
    while True:
        powz = powz * numpy.array(z1).astype(dt)
        k += 1
        if not (abs(complex(powz)) ** 2 > prec2 and k < N):
            break
    if k >= N:
        raise ValueError("Sum to find symmetric boundary conditions did not converge.")
    return k


def symiirorder1(signal, c0, z1, precision=-1.0):
    """First-order symmetric IIR filter c0 / ((1 - z1/z)(1 - z1 z)) with mirror-symmetric boundaries along the
    last axis of a 1-D or 2-D signal (scipy.signal.symiirorder1)."""
    signal = _cp.asarray(signal)
    dt = _float_dtype(signal.dtype)
    if abs(z1) >= 1:
        raise ValueError('|z1| must be less than 1.0')
    if signal.ndim > 2:
        raise ValueError('Input must be 1D or 2D')
    if signal.ndim == 0:
        raise ValueError('object of too small depth for desired array')
    precision = _default_precision(precision, dt, 1e-6, 1e-11)
    N = signal.shape[-1]
    K = _sym1_count(z1, precision, N, dt)
    w = numpy.asarray(z1, dtype=numpy.complex128 if dt.kind == 'c' else float) ** numpy.arange(1, K + 1)
    return _iir1_lines(signal, -1, c0, z1, w, dt)


def _hc(k, cs, rho, omega):
    k = numpy.asarray(k, dtype=float)
    return cs / math.sin(omega) * rho ** k * numpy.sin(omega * (k + 1)) * (k > -1)


def _hs(k, cs, rho, omega):
    c0 = (cs * cs * (1 + rho * rho) / (1 - rho * rho) / (1 - 2 * rho * rho * math.cos(2 * omega) + rho ** 4))
    gamma = (1 - rho * rho) / (1 + rho * rho) / math.tan(omega)
    ak = numpy.abs(numpy.asarray(k, dtype=float))
    return c0 * rho ** ak * (numpy.cos(omega * ak) + gamma * numpy.sin(omega * ak))


def _truncate(terms, limit, N):
    # Number of terms SciPy sums: up to and including the first one whose square is <= limit.
    small = numpy.nonzero(terms * terms <= limit)[0]
    k = int(small[0]) + 1 if small.size else len(terms) + 1
    if k >= N:
        raise ValueError("Sum to find symmetric boundary conditions did not converge.")
    return k


def _iir2_lines(x, axis, r, omega, weights, heads, dt):
    x2, back = _lines(x.astype(dt, copy=False), axis)
    N, M = x2.shape
    y = _cp.empty_like(x2)
    cs = 1 - 2 * r * math.cos(omega) + r * r
    if x2.size:
        ws = [_cp.asarray(numpy.asarray(w, dtype=float).astype(dt)) for w in weights]
        args = []
        for w, h in zip(ws, weights):
            args += [w, numpy.int64(len(h))]
        kernel('ca_symiir2', dt)(_blocks(M), (_THREADS,),
                                 (x2, y, numpy.int64(N), numpy.int64(M), *args,
                                  *(numpy.float64(h) for h in heads), numpy.float64(cs),
                                  numpy.float64(2 * r * math.cos(omega)), numpy.float64(-r * r)))
    return back(y)


def _sym2_weights(N, r, omega, precision, truncate):
    cs = 1 - 2 * r * math.cos(omega) + r * r
    k = numpy.arange(N)
    tf0, tf1 = _hc(k + 1, cs, r, omega), _hc(k + 2, cs, r, omega)
    tb0 = _hs(k, cs, r, omega) + _hs(k + 1, cs, r, omega)
    tb1 = _hs(k - 1, cs, r, omega) + _hs(k + 2, cs, r, omega)
    if not truncate:
        return [tf0, tf1, tb0, tb1]
    # The forward series stop at |term| <= precision, the backward ones at term^2 <= precision (as SciPy does).
    p2 = precision * precision
    return [tf0[:_truncate(tf0, p2, N)], tf1[:_truncate(tf1, p2, N)],
            tb0[:_truncate(tb0, precision, N)], tb1[:_truncate(tb1, precision, N)]]


def symiirorder2(input, r, omega, precision=-1.0):
    """Second-order symmetric IIR filter with poles r e^(+-i omega) and mirror-symmetric boundaries along the last
    axis of a 1-D or 2-D signal (scipy.signal.symiirorder2)."""
    input = _cp.asarray(input)
    dt = _float_dtype(input.dtype)
    if dt.kind == 'c':
        raise TypeError(f"Cannot cast array data from dtype('{dt}') to dtype('float64') according to the rule "
                        "'safe'")
    if r >= 1.0:
        raise ValueError('r must be less than 1.0')
    if input.ndim > 2:
        raise ValueError('Input must be 1D or 2D')
    if input.ndim == 0:
        raise ValueError('object of too small depth for desired array')
    precision = _default_precision(precision, dt, 1e-6, 1e-11)
    N = input.shape[-1]
    cs = 1 - 2 * r * math.cos(omega) + r * r
    w = _sym2_weights(N, r, omega, precision, True)
    h0, h1 = float(_hc(0, cs, r, omega)), float(_hc(1, cs, r, omega))
    return _iir2_lines(input, -1, r, omega, w, (h0, 0.0, h1, h0), dt)


# -- 1-D spline coefficients -----------------------------------------------------------------------------------
def _spline1d_coeff(signal, zi, gain):
    signal = _cp.asarray(signal)
    if signal.ndim != 1:
        raise ValueError("signal must be 1-D")
    dt = numpy.result_type(_float_dtype(signal.dtype), numpy.float64)
    K = signal.shape[0]
    if K == 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    if K == 1:
        # SciPy's single-sample case returns zi/(zi-1) * (x0 + zi x0), without the gain.
        return (signal.astype(dt) * (zi / (zi - 1) * (1 + zi))).reshape(1)
    return _iir1_lines(signal, 0, -zi * gain, zi, zi ** numpy.arange(1, K + 1), dt)


def cspline1d(signal, lamb=0.0):
    """Cubic spline coefficients of a 1-D signal with mirror-symmetric boundaries; `lamb` > 0 smooths
    (scipy.signal.cspline1d)."""
    if lamb != 0.0:
        signal = _cp.asarray(signal)
        if signal.ndim != 1:
            raise ValueError("signal must be 1-D")
        dt = numpy.result_type(_float_dtype(signal.dtype), numpy.float64)
        if signal.shape[0] < 3:
            # SciPy's smoothing path needs three samples (shorter lines fail inside its sosfilt call).
            raise ValueError(f"cspline1d with lamb != 0 needs at least 3 samples, got {signal.shape[0]}")
        xi = 1 - 96 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)
        omega = math.atan2(math.sqrt(144 * lamb - 1), math.sqrt(xi))
        rho = (24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
        rho = rho * math.sqrt((48 * lamb + 24 * lamb * math.sqrt(3 + 144 * lamb)) / xi)
        cs = 1 - 2 * rho * math.cos(omega) + rho * rho
        w = _sym2_weights(signal.shape[0], rho, omega, 0.0, False)
        h0, h1 = float(_hc(0, cs, rho, omega)), float(_hc(1, cs, rho, omega))
        return _iir2_lines(signal, 0, rho, omega, w, (h0, 0.0, h0, h1), dt)
    return _spline1d_coeff(signal, -2 + math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """Quadratic spline coefficients of a 1-D signal with mirror-symmetric boundaries (scipy.signal.qspline1d)."""
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    return _spline1d_coeff(signal, -3 + 2 * math.sqrt(2.0), 8.0)


def _root_from_lambda(lamb):
    tmp = math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * tmp
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    tmp2 = math.sqrt(xi)
    r = ((24 * lamb - 1 - tmp2) / (24 * lamb) * math.sqrt(48 * lamb + 24 * lamb * tmp) / tmp2)
    return r, omega


def _sym1_axis(x, axis, c0, z1, precision, dt):
    N = x.shape[axis]
    K = _sym1_count(z1, precision, N, dt)
    return _iir1_lines(x, axis, c0, z1, z1 ** numpy.arange(1, K + 1), dt)


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """Cubic spline coefficients of a 2-D image with mirror-symmetric boundaries (scipy.signal.cspline2d)."""
    signal = _cp.asarray(signal)
    dt = _float_dtype(signal.dtype)
    precision = _default_precision(precision, dt, 1e-3, 1e-6)
    if signal.ndim == 0:
        raise ValueError('object of too small depth for desired array')
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        out = _sym1_axis(signal, -1, -r * 6.0, r, precision, dt)
        return _sym1_axis(out, 0, -r * 6.0, r, precision, dt)
    if dt.kind == 'c':
        raise TypeError(f"Cannot cast array data from dtype('{dt}') to dtype('float64') according to the rule "
                        "'safe'")
    r, omega = _root_from_lambda(lamb)
    cs = 1 - 2 * r * math.cos(omega) + r * r
    h0, h1 = float(_hc(0, cs, r, omega)), float(_hc(1, cs, r, omega))
    out = signal
    for axis in (-1, 0):
        w = _sym2_weights(out.shape[axis], r, omega, precision, True)
        out = _iir2_lines(out, axis, r, omega, w, (h0, 0.0, h1, h0), dt)
    return out


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """Quadratic spline coefficients of a 2-D image with mirror-symmetric boundaries (scipy.signal.qspline2d)."""
    signal = _cp.asarray(signal)
    dt = _float_dtype(signal.dtype)
    precision = _default_precision(precision, dt, 1e-3, 1e-6)
    if lamb > 0:
        raise ValueError('lambda must be negative or zero')
    if signal.ndim == 0:
        raise ValueError('object of too small depth for desired array')
    r = -3 + 2 * math.sqrt(2.0)
    out = _sym1_axis(signal, -1, -r * 8.0, r, precision, dt)
    return _sym1_axis(out, 0, -r * 8.0, r, precision, dt)


# -- evaluation, Gaussian approximation, separable FIR -----------------------------------------------------------
def _cubic(x):
    ax = _cp.abs(x)
    inner = 2.0 / 3 - ax * ax + ax * ax * ax / 2
    outer = (2 - ax) ** 3 / 6
    return _cp.where(ax < 1, inner, _cp.where(ax <= 2, outer, 0.0))


def _quadratic(x):
    ax = _cp.abs(x)
    inner = 0.75 - ax * ax
    outer = (ax - 1.5) ** 2 / 2
    return _cp.where(ax < 0.5, inner, _cp.where(ax <= 1.5, outer, 0.0))


def _spline_eval(cj, newx, dx, x0, order):
    newx = (_cp.asarray(newx) - x0) / float(dx)
    cj = _cp.asarray(cj)
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    N = len(cj)
    # Mirror-symmetric extension about 0 and N-1, repeated (SciPy folds recursively): period 2(N-1).
    P = 2 * (N - 1)
    if P > 0:
        x = _cp.abs(newx) % P
        x = _cp.where(x > N - 1, P - x, x)
    else:
        x = _cp.abs(newx)
    basis, half = (_cubic, 2.0) if order == 3 else (_quadratic, 1.5)
    jlower = _cp.floor(x - half).astype(numpy.int64) + 1
    res = _cp.zeros(x.shape, dtype=numpy.result_type(cj.dtype, x.dtype))
    for i in range(int(2 * half)):
        j = jlower + i
        res = res + cj[_cp.clip(j, 0, N - 1)] * basis(x - j)
    return res


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """Evaluate a cubic spline of coefficients cj at newx, mirror-symmetric outside (scipy.signal.cspline1d_eval)."""
    # SciPy's result has cj's dtype (so integer coefficients are refused, as SciPy's in-place sum does).
    cdt = numpy.dtype(_cp.asarray(cj).dtype)
    if cdt.kind in 'biu':
        raise TypeError(f"Cannot cast ufunc 'add' output from dtype('float64') to dtype('{cdt}') with casting "
                        "rule 'same_kind'")
    return _spline_eval(cj, newx, dx, x0, 3).astype(_cp.asarray(cj).dtype)


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """Evaluate a quadratic spline of coefficients cj at newx, mirror-symmetric outside
    (scipy.signal.qspline1d_eval)."""
    # SciPy's result has the dtype of (newx - x0) / dx.
    dt = numpy.dtype(((_cp.asarray(newx) - x0) / dx).dtype)
    if numpy.dtype(_cp.asarray(cj).dtype).kind == 'c' and dt.kind != 'c':
        raise TypeError(f"Cannot cast ufunc 'add' output from dtype('complex128') to dtype('{dt}') with casting "
                        "rule 'same_kind'")
    return _spline_eval(cj, newx, dx, x0, 2).astype(dt)


def gauss_spline(x, n):
    """Gaussian approximation of the order-n B-spline basis function (scipy.signal.gauss_spline)."""
    x = _cp.asarray(x)
    signsq = (n + 1) / 12.0
    return 1 / math.sqrt(2 * math.pi * signsq) * _cp.exp(-x ** 2 / 2 / signsq)


def sepfir2d(input, hrow, hcol):
    """Separable 2-D FIR filter with mirror-symmetric (half-sample) boundaries: hrow along rows, then hcol along
    columns (scipy.signal.sepfir2d)."""
    x = _cp.asarray(input)
    if x.ndim != 2:
        raise ValueError('object of too small depth for desired array' if x.ndim < 2 else
                         'object too deep for desired array')
    hrow, hcol = numpy.asarray(_host(hrow)), numpy.asarray(_host(hcol))
    if hrow.ndim != 1 or hcol.ndim != 1:
        raise ValueError('hrow and hcol must be 1-D')
    if hrow.size % 2 != 1 or hcol.size % 2 != 1:
        raise ValueError('hrow and hcol must be odd length')
    dt = _float_dtype(x.dtype)
    x = x.astype(dt)
    for axis, h in ((1, hrow), (0, hcol)):
        n, k = x.shape[axis], h.size // 2
        idx = numpy.pad(numpy.arange(n), k, mode='symmetric')
        xp = _cp.take(x, _cp.asarray(idx), axis=axis)
        hd = h.astype(dt)[::-1]
        acc = _cp.zeros(x.shape, dtype=dt)
        for j in range(h.size):
            sl = [slice(None), slice(None)]
            sl[axis] = slice(j, j + n)
            if hd[j] != 0:
                acc = acc + xp[tuple(sl)] * hd[j]
        x = acc
    return x


def spline_filter(Iin, lmbda=5.0):
    """Smoothing cubic-spline filtering of a 2-D array (scipy.signal.spline_filter)."""
    Iin = _cp.asarray(Iin)
    intype = numpy.dtype(Iin.dtype)
    if intype not in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128):
        raise TypeError(f"Invalid data type for Iin: Iin.dtype = {intype!r}")
    # SciPy filters complex128 in complex64 (its boundary sums fail to converge otherwise); so does this.
    if intype == numpy.complex128:
        Iin = Iin.astype(numpy.complex64)
    hcol = numpy.array([1.0, 4.0, 1.0], numpy.float32) / 6.0
    ck = cspline2d(Iin, lmbda)
    return sepfir2d(ck, hcol, hcol).astype(intype)
