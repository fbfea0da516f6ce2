"""Generated CUDA kernels of cuarray.scipy.signal: direct n-D convolution, median filter, IIR block scan."""
import numpy

from cuarray._kernel import RawKernel, RawModule

# Note [signal kernels]
# Every kernel works on one value type `val_t` (the result dtype: inputs are converted before the launch), so a
# kernel is keyed by (kind, ndim, dtype[, size]). Complex values use the small `ca_cplx` struct below (same
# layout as NumPy's complex64/complex128), whose operators make one kernel body serve real and complex types.
# Arrays reach the kernels C-contiguous; shapes are scalar arguments (NDIM of them per array).

_CTYPES = {'bool': 'bool', 'int8': 'signed char', 'uint8': 'unsigned char', 'int16': 'short',
           'uint16': 'unsigned short', 'int32': 'int', 'uint32': 'unsigned int', 'int64': 'long long',
           'uint64': 'unsigned long long', 'float32': 'float', 'float64': 'double',
           'complex64': 'ca_cplx<float>', 'complex128': 'ca_cplx<double>'}

_PRELUDE = r"""
template <typename R> struct ca_cplx {
  R x, y;
  __device__ ca_cplx() : x(0), y(0) {}
  __device__ ca_cplx(R r) : x(r), y(0) {}
  __device__ ca_cplx(R r, R i) : x(r), y(i) {}
  __device__ ca_cplx operator+(const ca_cplx& o) const { return ca_cplx(x + o.x, y + o.y); }
  __device__ ca_cplx operator-(const ca_cplx& o) const { return ca_cplx(x - o.x, y - o.y); }
  __device__ ca_cplx operator*(const ca_cplx& o) const { return ca_cplx(x * o.x - y * o.y, x * o.y + y * o.x); }
  __device__ ca_cplx& operator+=(const ca_cplx& o) { x += o.x; y += o.y; return *this; }
  __device__ ca_cplx& operator-=(const ca_cplx& o) { x -= o.x; y -= o.y; return *this; }
};
template <typename T> __device__ __forceinline__ T ca_make(double re, double im) { return (T)re; }
template <> __device__ __forceinline__ ca_cplx<float> ca_make(double re, double im) {
  return ca_cplx<float>((float)re, (float)im);
}
template <> __device__ __forceinline__ ca_cplx<double> ca_make(double re, double im) {
  return ca_cplx<double>(re, im);
}
template <typename T> __device__ __forceinline__ bool ca_less(T a, T b) { return a < b; }
"""

# out[o] = sum_k w[k] * x[o + start - k] over the full convolution index o + start; taps that fall outside x
# read `fill` when use_fill (convolve2d's boundary='fill'), else contribute nothing (zero padding).
_CONV = r"""
typedef {val_t} val_t;
#define NDIM {ndim}
extern "C" __global__ void ca_sig_conv(const val_t* __restrict__ x, const val_t* __restrict__ w,
    val_t* __restrict__ y, long long total, long long wsize, double fill_re, double fill_im, int use_fill,
    {dims}) {{
  const long long xs[NDIM] = {{{xs}}};
  const long long ws[NDIM] = {{{ws}}};
  const long long os[NDIM] = {{{os}}};
  const long long st[NDIM] = {{{st}}};
  const val_t fill = ca_make<val_t>(fill_re, fill_im);
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)blockDim.x * gridDim.x) {{
    long long c[NDIM];
    long long r = idx;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % os[d] + st[d]; r /= os[d]; }}
    val_t acc = ca_make<val_t>(0.0, 0.0);
    // The tap's coordinates advance like an odometer (no division per tap).
    long long kk[NDIM];
#pragma unroll
    for (int d = 0; d < NDIM; ++d) kk[d] = 0;
    for (long long k = 0; k < wsize; ++k) {{
      long long off = 0, mul = 1;
      bool inside = true;
#pragma unroll
      for (int d = NDIM - 1; d >= 0; --d) {{
        const long long p = c[d] - kk[d];
        if (p < 0 || p >= xs[d]) inside = false;
        off += p * mul;
        mul *= xs[d];
      }}
      if (inside) acc += w[k] * x[off];
      else if (use_fill) acc += w[k] * fill;
#pragma unroll
      for (int d = NDIM - 1; d >= 0; --d) {{
        if (++kk[d] < ws[d]) break;
        kk[d] = 0;
      }}
    }}
    y[idx] = acc;
  }}
}}
"""

# Median of the zero-padded window of size K (odd) centred on each element (scipy.signal.medfilt).
_MEDIAN = r"""
typedef {val_t} val_t;
#define NDIM {ndim}
#define KSIZE {K}
extern "C" __global__ void ca_sig_median(const val_t* __restrict__ x, val_t* __restrict__ y, long long total,
    {dims}) {{
  const long long xs[NDIM] = {{{xs}}};
  const long long ks[NDIM] = {{{ks}}};
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)blockDim.x * gridDim.x) {{
    long long c[NDIM];
    long long r = idx;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % xs[d]; r /= xs[d]; }}
    val_t v[KSIZE];
    for (int k = 0; k < KSIZE; ++k) {{
      long long kr = k, off = 0, mul = 1;
      bool inside = true;
#pragma unroll
      for (int d = NDIM - 1; d >= 0; --d) {{
        const long long p = c[d] + kr % ks[d] - ks[d] / 2;
        kr /= ks[d];
        if (p < 0 || p >= xs[d]) inside = false;
        off += p * mul;
        mul *= xs[d];
      }}
      v[k] = inside ? x[off] : (val_t)0;
    }}
    // Partial selection sort up to the middle: K is small (a filter window), and only rank K/2 is needed.
    for (int i = 0; i <= KSIZE / 2; ++i) {{
      int m = i;
      for (int j = i + 1; j < KSIZE; ++j) if (ca_less(v[j], v[m])) m = j;
      const val_t t = v[i]; v[i] = v[m]; v[m] = t;
    }}
    y[idx] = v[KSIZE / 2];
  }}
}}
"""

# Note [IIR block scan]
# The all-pole recursion y[n] = w[n] - sum_{k=1..N} a[k] y[n-k] along each row of a (rows, L) array:
# (1) ca_iir_local: every (row, chunk of C samples) runs the recursion with zero initial state, in place.
# (2) The true N outputs preceding each chunk (its carry state s) obey s[c+1] = T[c] + A s[c], with T[c] the
#     chunk's local tail and A[m][q] = h[C-1-m][q] (the table h: h[j*N+q] is the output at position j of a
#     chunk whose only excitation is y[-1-q] = 1). This vector recurrence is itself solved in blocks of G
#     chunks: ca_iir_carry (local states within each group), ca_iir_top (one thread per row over the L/(C*G)
#     groups with A^G), ca_iir_cfix (adds A^i S[g] to the i-th chunk of group g).
# (3) ca_iir_fix: every element adds sum_q h[j, q] * s[q] of its chunk.
# Work is O(L*N) and the longest sequential walk is max(C, G, L/(C*G)) steps.
_IIR = r"""
typedef {val_t} val_t;
#define NORD {N}
extern "C" __global__ void ca_iir_local(val_t* __restrict__ y, const val_t* __restrict__ a, long long rows,
    long long L, long long C, long long nch) {{
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < rows * nch;
       t += (long long)blockDim.x * gridDim.x) {{
    const long long row = t / nch, ch = t % nch;
    val_t* p = y + row * L + ch * C;
    const long long n = (ch + 1) * C <= L ? C : L - ch * C;
    val_t prev[NORD];
#pragma unroll
    for (int k = 0; k < NORD; ++k) prev[k] = ca_make<val_t>(0.0, 0.0);
    val_t ak[NORD];
#pragma unroll
    for (int k = 0; k < NORD; ++k) ak[k] = a[k + 1];
    for (long long j = 0; j < n; ++j) {{
      val_t v = p[j];
#pragma unroll
      for (int k = 0; k < NORD; ++k) v -= ak[k] * prev[k];
#pragma unroll
      for (int k = NORD - 1; k > 0; --k) prev[k] = prev[k - 1];
      prev[0] = v;
      p[j] = v;
    }}
  }}
}}

extern "C" __global__ void ca_iir_carry(const val_t* __restrict__ y, const val_t* __restrict__ h,
    val_t* __restrict__ carry, val_t* __restrict__ sout, long long rows, long long L, long long C, long long nch,
    long long G, long long ng) {{
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < rows * ng;
       t += (long long)blockDim.x * gridDim.x) {{
    const long long row = t / ng, g = t % ng;
    val_t s[NORD];
#pragma unroll
    for (int q = 0; q < NORD; ++q) s[q] = ca_make<val_t>(0.0, 0.0);
    const long long end = (g + 1) * G < nch ? (g + 1) * G : nch;
    for (long long ch = g * G; ch < end; ++ch) {{
#pragma unroll
      for (int q = 0; q < NORD; ++q) carry[(row * nch + ch) * NORD + q] = s[q];
      if (ch + 1 == nch) break;
      // Chunks before the last are full (C >= NORD samples): their last NORD outputs become the carry.
      val_t ns[NORD];
      const val_t* p = y + row * L + ch * C;
#pragma unroll
      for (int m = 0; m < NORD; ++m) {{
        const long long j = C - 1 - m;
        val_t v = p[j];
#pragma unroll
        for (int q = 0; q < NORD; ++q) v += h[j * NORD + q] * s[q];
        ns[m] = v;
      }}
#pragma unroll
      for (int q = 0; q < NORD; ++q) s[q] = ns[q];
    }}
#pragma unroll
    for (int q = 0; q < NORD; ++q) sout[(row * ng + g) * NORD + q] = s[q];
  }}
}}

// Across groups of G chunks: S[g+1] = sout[g] + A^G S[g], one thread per row (ng steps).
extern "C" __global__ void ca_iir_top(const val_t* __restrict__ sout, const val_t* __restrict__ AG,
    val_t* __restrict__ stop, long long rows, long long ng) {{
  for (long long row = blockIdx.x * (long long)blockDim.x + threadIdx.x; row < rows;
       row += (long long)blockDim.x * gridDim.x) {{
    val_t s[NORD];
#pragma unroll
    for (int q = 0; q < NORD; ++q) s[q] = ca_make<val_t>(0.0, 0.0);
    for (long long g = 0; g < ng; ++g) {{
      val_t ns[NORD];
#pragma unroll
      for (int m = 0; m < NORD; ++m) {{
        stop[(row * ng + g) * NORD + m] = s[m];
        val_t v = sout[(row * ng + g) * NORD + m];
#pragma unroll
        for (int q = 0; q < NORD; ++q) v += AG[m * NORD + q] * s[q];
        ns[m] = v;
      }}
#pragma unroll
      for (int q = 0; q < NORD; ++q) s[q] = ns[q];
    }}
  }}
}}

// carry[c] += A^i S[g] for chunk c = g*G + i (P holds A^0..A^(G-1)).
extern "C" __global__ void ca_iir_cfix(val_t* __restrict__ carry, const val_t* __restrict__ P,
    const val_t* __restrict__ stop, long long rows, long long nch, long long G, long long ng) {{
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < rows * nch;
       t += (long long)blockDim.x * gridDim.x) {{
    const long long row = t / nch, ch = t % nch, g = ch / G, i = ch % G;
    if (g == 0) continue;
    const val_t* S = stop + (row * ng + g) * NORD;
    const val_t* Pi = P + i * NORD * NORD;
    val_t* c = carry + t * NORD;
#pragma unroll
    for (int m = 0; m < NORD; ++m) {{
      val_t v = c[m];
#pragma unroll
      for (int q = 0; q < NORD; ++q) v += Pi[m * NORD + q] * S[q];
      c[m] = v;
    }}
  }}
}}

extern "C" __global__ void ca_iir_fix(val_t* __restrict__ y, const val_t* __restrict__ h,
    const val_t* __restrict__ carry, long long rows, long long L, long long C, long long nch) {{
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < rows * L;
       t += (long long)blockDim.x * gridDim.x) {{
    const long long row = t / L, i = t % L, ch = i / C, j = i % C;
    if (ch == 0) continue;
    val_t v = y[t];
    const val_t* s = carry + (row * nch + ch) * NORD;
#pragma unroll
    for (int q = 0; q < NORD; ++q) v += h[j * NORD + q] * s[q];
    y[t] = v;
  }}
}}
"""

_cache = {}
IIR_NAMES = ('ca_iir_local', 'ca_iir_carry', 'ca_iir_top', 'ca_iir_cfix', 'ca_iir_fix')
THREADS = 256


def ctype(dtype):
    dtype = numpy.dtype(dtype)
    try:
        return _CTYPES[dtype.name]
    except KeyError:
        raise TypeError(f"cuarray.scipy.signal: dtype {dtype} is not supported") from None


def _dims(names, ndim):
    return ', '.join(f'long long {n}{d}' for n in names for d in range(ndim))


def _list(name, ndim):
    return ', '.join(f'{name}{d}' for d in range(ndim))


def conv_source(ndim, dtype):
    return _PRELUDE + _CONV.format(val_t=ctype(dtype), ndim=ndim, dims=_dims(('xs', 'ws', 'os', 'st'), ndim),
                                   xs=_list('xs', ndim), ws=_list('ws', ndim), os=_list('os', ndim),
                                   st=_list('st', ndim))


def median_source(ndim, dtype, K):
    return _PRELUDE + _MEDIAN.format(val_t=ctype(dtype), ndim=ndim, K=K, dims=_dims(('xs', 'ks'), ndim),
                                     xs=_list('xs', ndim), ks=_list('ks', ndim))


def iir_source(N, dtype):
    return _PRELUDE + _IIR.format(val_t=ctype(dtype), N=N)


def _get(key, make, name):
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(make(), name)
    return k


def conv_kernel(ndim, dtype):
    dtype = numpy.dtype(dtype)
    return _get(('conv', ndim, dtype), lambda: conv_source(ndim, dtype), 'ca_sig_conv')


def median_kernel(ndim, dtype, K):
    dtype = numpy.dtype(dtype)
    return _get(('median', ndim, dtype, K), lambda: median_source(ndim, dtype, K), 'ca_sig_median')


def iir_kernels(N, dtype):
    dtype = numpy.dtype(dtype)
    key = ('iir', N, dtype)
    ks = _cache.get(key)
    if ks is None:
        m = RawModule(code=iir_source(N, dtype))
        ks = _cache[key] = tuple(m.get_function(n) for n in IIR_NAMES)
    return ks


def blocks(n):
    return int(max(1, min((n + THREADS - 1) // THREADS, 65535 * 8)))
