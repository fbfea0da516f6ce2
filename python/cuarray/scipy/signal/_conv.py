"""scipy.signal's convolutions on the GPU: convolve, correlate, fftconvolve, oaconvolve, convolve2d, correlate2d."""
import math
import time

import numpy

import cuarray as _cp
from cuarray import fft as _fft
from cuarray.scipy.signal import _kernels

_MODES = ('full', 'same', 'valid')


def _next_fast_len(n, real):
    from cuarray.scipy.fft import next_fast_len
    return next_fast_len(int(n), real)


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")


def _swap_needed(mode, s1, s2, axes=None):
    """Whether 'valid' mode needs the inputs swapped (in2 larger everywhere); raises when neither is larger."""
    if mode != 'valid':
        return False
    axes = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other in every dimension")
    return not ok1


def _crop(full_shape, s1, s2, mode, axes):
    """(start, shape) of the mode's window inside the full convolution, per axis in `axes`."""
    start, shape = [0] * len(full_shape), list(full_shape)
    for i in axes:
        if mode == 'same':
            shape[i] = s1[i]
            start[i] = (full_shape[i] - s1[i]) // 2
        elif mode == 'valid':
            shape[i] = max(s1[i] - s2[i] + 1, 0)
            start[i] = s2[i] - 1
    return start, shape


def direct_conv(x, w, out_shape, start, fill=None):
    """out[o] = sum_k w[k] x[o + start - k] (n-D, one launch); x and w share the dtype of the result."""
    x = _cp.ascontiguousarray(x)
    w = _cp.ascontiguousarray(w)
    y = _cp.empty(tuple(out_shape), x.dtype)
    if y.size == 0:
        return y
    ndim = x.ndim
    if ndim == 0:
        return x * w
    if w.size == 0:
        y.fill(0)
        return y
    fill_c = complex(0 if fill is None else fill)
    args = [numpy.int64(v) for v in (*x.shape, *w.shape, *out_shape, *start)]
    kern = _kernels.conv_kernel(ndim, x.dtype)
    kern((_kernels.blocks(y.size),), (_kernels.THREADS,),
         (x, w, y, numpy.int64(y.size), numpy.int64(w.size), numpy.float64(fill_c.real),
          numpy.float64(fill_c.imag), numpy.int32(fill is not None), *args))
    return y


def _direct(in1, in2, mode, dtype):
    s1, s2 = in1.shape, in2.shape
    full = tuple(a + b - 1 for a, b in zip(s1, s2))
    start, shape = _crop(full, s1, s2, mode, range(in1.ndim))
    if dtype == numpy.float16:
        # No half arithmetic in the kernel: accumulate in float32, round once.
        out = direct_conv(in1.astype(numpy.float32), in2.astype(numpy.float32), shape, start)
        return out.astype(numpy.float16)
    return direct_conv(in1.astype(dtype, copy=False), in2.astype(dtype, copy=False), shape, start)


def _as_array(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _freq_conv(in1, in2, axes, fshape, cplx):
    if len(axes) == 1:
        ax, n = axes[0], fshape[0]
        if cplx:
            return _fft.ifft(_fft.fft(in1, n, axis=ax) * _fft.fft(in2, n, axis=ax), n, axis=ax)
        return _fft.irfft(_fft.rfft(in1, n, axis=ax) * _fft.rfft(in2, n, axis=ax), n, axis=ax)
    if cplx:
        sp = _fft.fftn(in1, fshape, axes=axes) * _fft.fftn(in2, fshape, axes=axes)
        return _fft.ifftn(sp, fshape, axes=axes)
    sp = _fft.rfftn(in1, fshape, axes=axes) * _fft.rfftn(in2, fshape, axes=axes)
    return _fft.irfftn(sp, fshape, axes=axes)


def _init_axes(in1, in2, axes):
    """Normalised, sorted axes of the convolution; the other axes must match or be 1 (they broadcast)."""
    if axes is None:
        axes = list(range(in1.ndim))
    else:
        axes = [axes] if numpy.ndim(axes) == 0 else list(axes)
        norm = []
        for a in axes:
            a = int(a)
            if a < -in1.ndim or a >= in1.ndim:
                raise ValueError("axes exceeds dimensionality of input")
            norm.append(a % in1.ndim)
        if len(set(norm)) != len(norm):
            raise ValueError("all axes must be unique")
        axes = sorted(norm)
    for i in range(in1.ndim):
        if i not in axes and in1.shape[i] != in2.shape[i] and in1.shape[i] != 1 and in2.shape[i] != 1:
            raise ValueError("incompatible shapes for in1 and in2: {} and {}".format(in1.shape, in2.shape))
    # Axes of length 1 in both inputs convolve trivially; dropping them keeps the FFT smaller.
    axes = [a for a in axes if not (in1.shape[a] == 1 and in2.shape[a] == 1)]
    return axes


def _fft_result_dtype(in1, in2):
    dt = numpy.result_type(in1.dtype, in2.dtype)
    if dt.kind in 'biu':
        dt = numpy.dtype(numpy.float64)
    elif dt == numpy.float16:
        dt = numpy.dtype(numpy.float32)
    elif dt.kind == 'c' and dt.itemsize < 8:
        dt = numpy.dtype(numpy.complex64)
    return dt


# Note [overlap-save convolution]
# A 1-D convolution of a long signal (N) with a short one (K) by fftconvolve's single transform of N + K - 1
# points costs three long multi-pass FFTs, one of them of the mostly-zero padded short signal. Overlap-save
# instead cuts the wanted outputs into blocks of S = L - K + 1: block b is the circular convolution of the
# L inputs ending at its last output with the short signal padded to L, whose first K - 1 values wrap and are
# dropped. The L-point FFTs run as one batched transform each way (cuFFT keeps them in shared memory), the
# short signal's spectrum is one L-point FFT, and only the window the mode keeps is computed. Real signals
# travel in pairs, block 2j as the real and block 2j+1 as the imaginary part of one complex row: the short
# signal is real, so its spectrum multiplies both at once and the inverse transform returns both blocks
# (no half-spectrum transforms, whose inverse would need a copy of its input). The 1/L of the inverse
# transform is folded into the multiply. Results agree with the single transform to rounding (the shorter
# transforms round less).
BLOCK_MIN = 4096
_OS_THREADS = 256

_OS_SRC = r"""
typedef {real} real_t;
struct alignas({align}) cpx_t {{ real_t re, im; }};
typedef {in_t} in_t;
typedef {out_t} out_t;
#define PAIRED {paired}
#define CPLX_IN {cplx_in}

// Row j of z: the L inputs x[off + j * step + t] (zeros outside x); PAIRED rows hold two blocks (b = 2j, 2j+1)
// as real and imaginary parts.
extern "C" __global__ void ca_os_gather(const in_t* __restrict__ x, cpx_t* __restrict__ z, long long n,
    long long off, long long step, long long L, long long rows) {{
  for (long long j = blockIdx.y; j < rows; j += gridDim.y) {{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < L;
         t += (long long)blockDim.x * gridDim.x) {{
      cpx_t v;
#if PAIRED
      const long long p = off + 2 * j * step + t, q = p + step;
      v.re = (p >= 0 && p < n) ? (real_t)x[p] : (real_t)0;
      v.im = (q >= 0 && q < n) ? (real_t)x[q] : (real_t)0;
#elif CPLX_IN
      const long long p = off + j * step + t;
      if (p >= 0 && p < n) {{ v = x[p]; }} else {{ v.re = 0; v.im = 0; }}
#else
      const long long p = off + j * step + t;
      v.re = (p >= 0 && p < n) ? (real_t)x[p] : (real_t)0;
      v.im = 0;
#endif
      z[j * L + t] = v;
    }}
  }}
}}

// z[j, t] *= h[t] * scale, every row.
extern "C" __global__ void ca_os_mul(cpx_t* __restrict__ z, const cpx_t* __restrict__ h, long long L,
    long long rows, double scale_d) {{
  const real_t scale = (real_t)scale_d;
  for (long long j = blockIdx.y; j < rows; j += gridDim.y) {{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < L;
         t += (long long)blockDim.x * gridDim.x) {{
      const cpx_t a = z[j * L + t], b = h[t];
      cpx_t r;
      r.re = (a.re * b.re - a.im * b.im) * scale;
      r.im = (a.re * b.im + a.im * b.re) * scale;
      z[j * L + t] = r;
    }}
  }}
}}

// y[b * step + s] = block b's output s, the convolution at row position lead + s, for the m outputs wanted.
extern "C" __global__ void ca_os_extract(const cpx_t* __restrict__ yb, out_t* __restrict__ y, long long m,
    long long step, long long L, long long lead, long long rows) {{
  for (long long j = blockIdx.y; j < rows; j += gridDim.y) {{
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < step;
         s += (long long)blockDim.x * gridDim.x) {{
      const cpx_t v = yb[j * L + lead + s];
#if PAIRED
      const long long o = 2 * j * step + s;
      if (o < m) y[o] = v.re;
      if (o + step < m) y[o + step] = v.im;
#elif CPLX_IN
      const long long o = j * step + s;
      if (o < m) y[o] = v;
#else
      const long long o = j * step + s;
      if (o < m) y[o] = v.re;
#endif
    }}
  }}
}}
"""

_os_cache = {}


def os_source(dtype, role):
    """The overlap-save kernels for result dtype ``dtype``; role 'pairs' (real blocks two to a row), 'real'
    (one real block a row: the short signal) or 'complex'."""
    dtype = numpy.dtype(dtype)
    real = 'float' if dtype in (numpy.float32, numpy.complex64) else 'double'
    cplx = role == 'complex'
    return _OS_SRC.format(real=real, align=8 if real == 'float' else 16, in_t='cpx_t' if cplx else 'real_t',
                          out_t='cpx_t' if cplx else 'real_t', paired=int(role == 'pairs'), cplx_in=int(cplx))


def os_kernel(dtype, role, name):
    """One compiled overlap-save kernel (cached)."""
    from cuarray import RawKernel
    key = (numpy.dtype(dtype).name, role, name)
    k = _os_cache.get(key)
    if k is None:
        k = _os_cache[key] = RawKernel(os_source(dtype, role), name)
    return k


def _os_launch(kern, width, rows, args):
    grid = (max(1, min(-(-width // _OS_THREADS), 1 << 16)), max(1, min(rows, 65535)))
    kern(grid, (_OS_THREADS,), args)


def block_len(k):
    """The FFT length of the overlap-save blocks for a short signal of k samples (a power of two >= 4k)."""
    return max(BLOCK_MIN, 1 << (4 * k - 1).bit_length())


def _overlap_save(x, h, start, count, dtype):
    """Outputs start .. start + count - 1 of the full 1-D convolution of x (long) with h (short), both
    contiguous of dtype (Note [overlap-save convolution])."""
    out = _cp.empty(count, dtype)
    if count == 0:
        return out
    cplx = dtype.kind == 'c'
    cdt = numpy.dtype(numpy.complex64 if dtype in (numpy.float32, numpy.complex64) else numpy.complex128)
    n, k = x.shape[0], h.shape[0]
    L = block_len(k)
    step = L - k + 1
    blocks = -(-count // step)
    role = 'complex' if cplx else 'pairs'
    rows = blocks if cplx else -(-blocks // 2)
    i64 = numpy.int64
    hp = _cp.empty(L, cdt)
    _os_launch(os_kernel(dtype, 'complex' if cplx else 'real', 'ca_os_gather'), L, 1,
               (h, hp, i64(k), i64(0), i64(0), i64(L), i64(1)))
    spec = _fft.fft(hp)
    z = _cp.empty((rows, L), cdt)
    _os_launch(os_kernel(dtype, role, 'ca_os_gather'), L, rows,
               (x, z, i64(n), i64(start - (k - 1)), i64(step), i64(L), i64(rows)))
    zf = _fft.fft(z, axis=-1)
    del z
    _os_launch(os_kernel(dtype, role, 'ca_os_mul'), L, rows, (zf, spec, i64(L), i64(rows), numpy.float64(1.0 / L)))
    yb = _fft.ifft(zf, axis=-1, norm='forward')
    del zf
    _os_launch(os_kernel(dtype, role, 'ca_os_extract'), step, rows,
               (yb, out, i64(count), i64(step), i64(L), i64(k - 1), i64(rows)))
    return out


def _fftconv(in1, in2, mode, axes, oa=False):
    in1, in2 = _as_array(in1), _as_array(in2)
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    dtype = _fft_result_dtype(in1, in2)
    if in1.size == 0 or in2.size == 0:
        return _cp.array([], dtype=dtype)
    axes = _init_axes(in1, in2, axes)
    if _swap_needed(mode, in1.shape, in2.shape, axes):
        in1, in2 = in2, in1
    s1, s2 = in1.shape, in2.shape
    # Contiguous operands: correlate hands in reversed (negative-stride) views.
    in1 = _cp.ascontiguousarray(in1.astype(dtype, copy=False))
    in2 = _cp.ascontiguousarray(in2.astype(dtype, copy=False))
    full = [max(a, b) if i not in axes else a + b - 1 for i, (a, b) in enumerate(zip(s1, s2))]
    if in1.ndim == 1 and axes == [0] and 2 * block_len(min(s1[0], s2[0])) <= full[0]:
        start, shape = _crop(full, s1, s2, mode, axes)
        x, h = (in1, in2) if s1[0] >= s2[0] else (in2, in1)
        return _overlap_save(x, h, start[0], shape[0], dtype)
    if not axes:
        ret = in1 * in2
    elif oa and len(axes) == 1 and min(s1[axes[0]], s2[axes[0]]) > 1:
        ret = _overlap_add(in1, in2, axes[0], dtype.kind == 'c')
    else:
        cplx = dtype.kind == 'c'
        fshape = [_next_fast_len(full[a], not cplx) for a in axes]
        ret = _freq_conv(in1, in2, axes, fshape, cplx)
        ret = ret[tuple(slice(0, full[i]) if i in axes else slice(None) for i in range(ret.ndim))]
    start, shape = _crop(full, s1, s2, mode, axes)
    ret = ret[tuple(slice(b, b + n) for b, n in zip(start, shape))]
    return _cp.ascontiguousarray(ret.astype(dtype, copy=False))


def _overlap_add(in1, in2, axis, cplx):
    """Full convolution along one axis by overlap-add: blocks of in1 (the longer input) times one FFT of in2."""
    if in1.shape[axis] < in2.shape[axis]:
        in1, in2 = in2, in1
    n1, k = in1.shape[axis], in2.shape[axis]
    # Block length: about the filter's length rounded to a fast FFT size, which keeps every FFT small.
    nfft = _next_fast_len(max(2 * k, 64), not cplx)
    block = nfft - k + 1
    nb = -(-n1 // block)
    x = _cp.moveaxis(in1, axis, -1)
    h = _cp.moveaxis(in2, axis, -1)
    pad = [(0, 0)] * (x.ndim - 1) + [(0, nb * block - n1)]
    x = _cp.pad(x, pad).reshape(x.shape[:-1] + (nb, block))
    h = h.reshape(h.shape[:-1] + (1, k))
    if cplx:
        blk = _fft.ifft(_fft.fft(x, nfft, axis=-1) * _fft.fft(h, nfft, axis=-1), nfft, axis=-1)
    else:
        blk = _fft.irfft(_fft.rfft(x, nfft, axis=-1) * _fft.rfft(h, nfft, axis=-1), nfft, axis=-1)
    blk = blk[..., :block + k - 1]
    lead = blk.shape[:-2]
    head = blk[..., :block].reshape(lead + (nb * block,))
    tail = blk[..., block:]
    # Each block's tail (k - 1 <= block samples) overlaps the start of the next block.
    tail = _cp.pad(tail, [(0, 0)] * (tail.ndim - 1) + [(0, block - (k - 1))]).reshape(lead + (nb * block,))
    out = _cp.zeros(lead + ((nb + 1) * block,), dtype=head.dtype)
    out[..., :nb * block] = head
    out[..., block:] += tail
    out = out[..., :n1 + k - 1]
    return _cp.moveaxis(out, -1, axis)


def fftconvolve(in1, in2, mode='full', axes=None):
    """Convolve two N-dimensional arrays using FFT (scipy.signal.fftconvolve)."""
    return _fftconv(in1, in2, mode, axes)


def oaconvolve(in1, in2, mode='full', axes=None):
    """Convolve two N-dimensional arrays using the overlap-add method (scipy.signal.oaconvolve)."""
    return _fftconv(in1, in2, mode, axes, oa=True)


def _check_method(method):
    if method not in ('auto', 'direct', 'fft'):
        raise ValueError("acceptable method flags are 'auto', 'direct', or 'fft'")


def _heuristic(in1, in2, mode):
    """'direct' or 'fft' by an operation count (exact integer results always take 'direct')."""
    dt = numpy.result_type(in1.dtype, in2.dtype)
    if dt.kind in 'biu' or in1.ndim == 0:
        return 'direct'
    s1, s2 = in1.shape, in2.shape
    if mode == 'valid' and _swap_needed(mode, s1, s2):
        s1, s2 = s2, s1
    full = [a + b - 1 for a, b in zip(s1, s2)]
    start, out_shape = _crop(full, s1, s2, mode, range(len(s1)))
    direct_ops = math.prod(out_shape) * min(math.prod(s1), math.prod(s2))
    n = math.prod(full)
    fft_ops = 3 * n * max(math.log2(max(n, 2)), 1.0)
    # A direct tap is one fused multiply-add from cache; an FFT point costs several passes over memory.
    return 'fft' if direct_ops > 8 * fft_ops + 2 ** 20 else 'direct'


def choose_conv_method(in1, in2, mode='full', measure=False):
    """Find the fastest convolution/correlation method (scipy.signal.choose_conv_method)."""
    in1, in2 = _as_array(in1), _as_array(in2)
    _check_mode(mode)
    if not measure:
        return _heuristic(in1, in2, mode)
    times = {}
    for method in ('fft', 'direct'):
        convolve(in1, in2, mode=mode, method=method)
        _cp.cuda.get_current_stream().synchronize()
        t0 = time.perf_counter()
        for _ in range(3):
            convolve(in1, in2, mode=mode, method=method)
        _cp.cuda.get_current_stream().synchronize()
        times[method] = (time.perf_counter() - t0) / 3
    chosen = 'fft' if times['fft'] < times['direct'] else 'direct'
    if numpy.result_type(in1.dtype, in2.dtype).kind in 'biu':
        chosen = 'direct'
    return chosen, times


def convolve(in1, in2, mode='full', method='auto'):
    """Convolve two N-dimensional arrays (scipy.signal.convolve)."""
    in1, in2 = _as_array(in1), _as_array(in2)
    _check_mode(mode)
    _check_method(method)
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    dtype = numpy.result_type(in1.dtype, in2.dtype)
    if in1.size == 0 or in2.size == 0:
        return _cp.array([], dtype=dtype)
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    if method == 'auto':
        method = _heuristic(in1, in2, mode)
    if method == 'fft':
        out = _fftconv(in1, in2, mode, None)
        if dtype.kind in 'biu':
            out = _cp.around(out.real if out.dtype.kind == 'c' else out)
        return out.astype(dtype, copy=False)
    return _direct(in1, in2, mode, dtype)


def _reverse_conj(x):
    x = x[(slice(None, None, -1),) * x.ndim]
    return x.conj() if x.dtype.kind == 'c' else x


def correlate(in1, in2, mode='full', method='auto'):
    """Cross-correlate two N-dimensional arrays (scipy.signal.correlate)."""
    in1, in2 = _as_array(in1), _as_array(in2)
    _check_mode(mode)
    _check_method(method)
    if in1.ndim == in2.ndim == 0:
        return in1 * (in2.conj() if in2.dtype.kind == 'c' else in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if in1.size and in2.size and _swap_needed(mode, in1.shape, in2.shape):
        # SciPy's 'valid' correlation with the larger second input: the reversed correlation of the swap.
        out = convolve(in2, _reverse_conj(in1), mode, method)
        return _reverse_conj(out)
    return convolve(in1, _reverse_conj(in2), mode, method)


def correlation_lags(in1_len, in2_len, mode='full'):
    """Lag indices of a 1-D cross-correlation (scipy.signal.correlation_lags)."""
    in1_len, in2_len = int(in1_len), int(in2_len)
    if mode == 'full':
        lags = numpy.arange(-in2_len + 1, in1_len)
    elif mode == 'same':
        full = numpy.arange(-in2_len + 1, in1_len)
        mid, half = full.size // 2, in1_len // 2
        lags = full[mid - half:mid + half + (in1_len % 2)]
    elif mode == 'valid':
        bound = in1_len - in2_len
        lags = numpy.arange(bound + 1) if bound >= 0 else numpy.arange(bound, 1)
    else:
        raise ValueError(f"Mode {mode} is invalid")
    return _cp.asarray(lags)


_BOUNDARIES = {'fill': 'fill', 'pad': 'fill', 'wrap': 'wrap', 'circular': 'wrap', 'symm': 'symm',
               'symmetric': 'symm'}


def _conv2d(in1, in2, mode, boundary, fillvalue, corr=False):
    in1, in2 = _as_array(in1), _as_array(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError('convolve2d inputs must both be 2-D arrays')
    _check_mode(mode)
    try:
        bnd = _BOUNDARIES[boundary]
    except (KeyError, TypeError):
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and "
                         "'symmetric' (or 'symm').") from None
    if numpy.ndim(fillvalue) != 0:
        raise ValueError("fillvalue must be scalar or an array with one element.")
    dtype = numpy.result_type(in1.dtype, in2.dtype)
    if _swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    s1, s2 = in1.shape, in2.shape
    if in1.size == 0 or in2.size == 0:
        full = tuple(max(a + b - 1, 0) for a, b in zip(s1, s2))
        return _cp.zeros(_crop(full, s1, s2, mode, (0, 1))[1], dtype)
    x = in1.astype(dtype, copy=False)
    w = in2.astype(dtype, copy=False)
    full = tuple(a + b - 1 for a, b in zip(s1, s2))
    start, shape = _crop(full, s1, s2, mode, (0, 1))
    if corr and mode == 'same':
        # correlate2d centres 'same' on the reversed kernel: the window mirrored within the full result.
        start = [s2[0] // 2, s2[1] // 2]
    if bnd == 'fill':
        fv = complex(fillvalue) if dtype.kind == 'c' else fillvalue
        fv = numpy.asarray(fv).astype(dtype).item()
        return direct_conv(x, w, shape, start, fill=fv if fv != 0 else None)
    # Extend in1 by the kernel's reach with the boundary rule; the full result is then a 'valid' product.
    pad = [(s2[0] - 1, s2[0] - 1), (s2[1] - 1, s2[1] - 1)]
    xp = _cp.pad(x, pad, mode='wrap' if bnd == 'wrap' else 'symmetric')
    return direct_conv(xp, w, shape, [start[0] + s2[0] - 1, start[1] + s2[1] - 1])


def convolve2d(in1, in2, mode='full', boundary='fill', fillvalue=0):
    """Convolve two 2-dimensional arrays (scipy.signal.convolve2d)."""
    return _conv2d(in1, in2, mode, boundary, fillvalue)


def correlate2d(in1, in2, mode='full', boundary='fill', fillvalue=0):
    """Cross-correlate two 2-dimensional arrays (scipy.signal.correlate2d)."""
    in1, in2 = _as_array(in1), _as_array(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError('correlate2d inputs must both be 2-D arrays')
    swapped = _swap_needed(mode, in1.shape, in2.shape)
    if swapped:
        out = _conv2d(in2, _reverse_conj(in1), mode, boundary, fillvalue, corr=True)
        return _reverse_conj(out)
    return _conv2d(in1, _reverse_conj(in2), mode, boundary, fillvalue, corr=True)
