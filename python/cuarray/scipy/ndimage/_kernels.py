"""Generated CUDA kernels of cuarray.scipy.ndimage's filters: tiled line filters, rank selection networks and a
generic gather, one per (kind, layout, mode, dtypes, size), cached."""
import numpy

from cuarray._kernel import RawKernel
from cuarray.scipy.ndimage._util import _CTYPES

# Note [ndimage kernels]
# Three families; each thread reads the input through its own strides (views need no copy), maps a coordinate
# that falls outside the array through the boundary rule (ca_map) and converts values to the accumulation type:
# float for float32 in and out (CuPy's choice, within float32 tolerance of SciPy), double otherwise (SciPy
# computes in double); results reach the output type by a C cast, as SciPy's do.
#
# - Line filters (correlate1d and everything built on it: uniform, Gaussian, min/max with a box, sobel...): the
#   input is viewed as (outer, n, inner) around the filtered axis. A block loads a tile of the lines plus the
#   filter's halo into shared memory once, mapping only the halo that leaves the array, so the tap loop reads
#   shared memory and has no boundary test. 'col' tiles hold 32 lines neighbouring in memory (coalesced loads
#   along inner) and each thread slides down CA_R outputs of one line; 'row' tiles hold a segment of one line
#   (the axis innermost, or too few lines side by side for 'col') and give each thread CA_R consecutive outputs
#   (CA_R odd: lanes then hit distinct banks). Lines too short to fill a tile take the generic kernel. Up to
#   _UNROLL_MAX taps the tap loop is unrolled and the weights are a by-value kernel parameter (constant bank
#   operands of the FMAs: no loads, no H2D copy); longer filters loop over the taps with weights in global
#   memory. Each output applies its taps in the generic kernel's order, with the same accumulation type.
# - Rank filters (median, rank, percentile) with a small footprint: a selection network generated for the
#   footprint and rank, in registers (Note [forgetful selection]).
# - Generic: one thread per output decomposes its flat index and gathers its taps; a table of per-tap
#   coordinate offsets (int32, taps x ndim) and, for correlations, the weights of the nonzero taps (SciPy's
#   footprint is weights != 0). Rank filters too large for a network sort their footprint by insertion. This
#   family serves footprints of any shape and the filters too long for the tiles.
#
# Loops over tiles, outputs and tile elements step by gridDim/blockDim, so a kernel computes the same result for
# any launch shape (the CPU tests run them as one thread).

# ca_map(c, n): the in-range coordinate that c stands for, or -1 for cval (mode 'constant').
_MAP = {
    'reflect': "const I p = 2 * n; c %= p; if (c < 0) c += p; return c >= n ? p - 1 - c : c;",
    'mirror': "if (n == 1) return 0; const I p = 2 * n - 2; c %= p; if (c < 0) c += p; return c >= n ? p - c : c;",
    'wrap': "c %= n; return c < 0 ? c + n : c;",
    'nearest': "return c < 0 ? (I)0 : n - 1;",
    'constant': "return (I)-1;",
}

_MAPFN = r"""
template <class I> __device__ __forceinline__ I ca_map(I c, I n) {{
  if (c >= 0 && c < n) return c;
  {map}
}}
"""

# -- generic gather kernels --------------------------------------------------------------------------------
_HEAD = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
typedef {acc_t} acc_t;
#define NDIM {ndim}
{mapfn}
extern "C" __global__ void ca_ndimage(const in_t* __restrict__ x, out_t* __restrict__ y,
    const acc_t* __restrict__ w, const int* __restrict__ offs, long long total, int shift, int rank,
    double cval_d, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  const long long strides[NDIM] = {{{strides}}};
  const acc_t cval = (acc_t)cval_d;
  for (long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x; idx < total;
       idx += (long long)blockDim.x * gridDim.x) {{
    long long c[NDIM];
    long long r = idx;
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % shape[d]; r /= shape[d]; }}
{body}
  }}
}}
"""

# Taps along AXIS: base is the input offset of the line, p the position on it, q0 the first tap's coordinate.
_LINE = r"""
    long long base = 0;
#pragma unroll
    for (int d = 0; d < NDIM; ++d) if (d != {axis}) base += c[d] * strides[d];
    const long long n = shape[{axis}], st = strides[{axis}];
    const long long q0 = c[{axis}] - shift;
    const bool inside = q0 >= 0 && q0 + {K} <= n;
    acc_t s = {init};
#pragma unroll
    for (int j = 0; j < {K}; ++j) {{
      acc_t v;
      if (inside) {{
        v = (acc_t)x[base + (q0 + j) * st];
      }} else {{
        const long long q = ca_map(q0 + j, n);
        v = q < 0 ? cval : (acc_t)x[base + q * st];
      }}
      {step}
    }}
    y[idx] = (out_t)({result});
"""

# Taps from the offset table: tap k reads coordinate c + offs[k * NDIM + d] (centre and origin included).
_TAPS = r"""
    {decl}
    for (int k = 0; k < {K}; ++k) {{
      long long off = 0;
      bool outside = false;
#pragma unroll
      for (int d = 0; d < NDIM; ++d) {{
        const long long q = ca_map(c[d] + offs[k * NDIM + d], shape[d]);
        outside |= q < 0;
        off += q * strides[d];
      }}
      const acc_t v = outside ? cval : (acc_t)x[off];
      {step}
    }}
    {finish}
    y[idx] = (out_t)({result});
"""

_STEPS = {
    'corr': ("acc_t s = 0;", "s += w[k] * v;", "", "s"),
    'min': ("acc_t s = 0;", "if (k == 0 || v < s) s = v;", "", "s"),
    'max': ("acc_t s = 0;", "if (k == 0 || v > s) s = v;", "", "s"),
    # Insertion sort of the footprint's values; the rank-th smallest is the result.
    'rank': ("acc_t vals[{K}];", "int m = k; while (m > 0 && vals[m - 1] > v) {{ vals[m] = vals[m - 1]; --m; }}"
             " vals[m] = v;", "", "vals[rank]"),
}
_LINE_STEPS = {
    'corr': ("0", "s += w[j] * v;", "s"),
    'uniform': ("0", "s += v;", "s / (acc_t){K}"),
    'min': ("0", "if (j == 0 || v < s) s = v;", "s"),
    'max': ("0", "if (j == 0 || v > s) s = v;", "s"),
}

_cache = {}


def acc_dtype(in_dtype, out_dtype):
    """The accumulation type: float32 when input and output are float32, else float64."""
    if in_dtype == numpy.float32 and out_dtype == numpy.float32:
        return numpy.dtype(numpy.float32)
    return numpy.dtype(numpy.float64)


def source(kind, ndim, mode, in_dtype, out_dtype, K, axis=None):
    """The CUDA source of one generic kernel: kind is 'corr1d', 'uniform1d', 'min1d', 'max1d' (taps along
    ``axis``) or 'corr', 'min', 'max', 'rank' (a tap table)."""
    in_dtype, out_dtype = numpy.dtype(in_dtype), numpy.dtype(out_dtype)
    acc = acc_dtype(in_dtype, out_dtype)
    if kind.endswith('1d'):
        init, step, result = _LINE_STEPS[kind[:-2]]
        body = _LINE.format(axis=axis, K=K, init=init, step=step, result=result.format(K=K))
    else:
        decl, step, finish, result = _STEPS[kind]
        if kind == 'rank':
            step = step.replace("{{", "{").replace("}}", "}")
        body = _TAPS.format(K=K, decl=decl.format(K=K), step=step, finish=finish, result=result)
    return _HEAD.format(in_t=_CTYPES[in_dtype.name], out_t=_CTYPES[out_dtype.name], acc_t=_CTYPES[acc.name],
                        ndim=ndim, mapfn=_MAPFN.format(map=_MAP[mode]),
                        dims=", ".join(f"long long n{d}, long long s{d}" for d in range(ndim)),
                        shape=", ".join(f"n{d}" for d in range(ndim)),
                        strides=", ".join(f"s{d}" for d in range(ndim)), body=body)


def _compiled(key, make_source, name):
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(make_source(), name)
    return k


def get_kernel(kind, ndim, mode, in_dtype, out_dtype, K, axis=None):
    """The compiled generic kernel for this combination (compiled on the first launch, cached here and on
    disk)."""
    key = ('generic', kind, ndim, mode, numpy.dtype(in_dtype).name, numpy.dtype(out_dtype).name, K, axis)
    return _compiled(key, lambda: source(kind, ndim, mode, in_dtype, out_dtype, K, axis), "ca_ndimage")


# -- tiled line filters ------------------------------------------------------------------------------------
ROW_R = 5           # outputs per thread in a row tile (odd: conflict-free shared-memory reads)
ROW_TILES = (ROW_R * 128, ROW_R * 32)   # tile widths (128 or 32 threads); shorter lines take the narrower
COL_R = 8           # outputs per thread down a column tile
COL_TX, COL_TY = 32, 8
COL_TILE = COL_R * COL_TY
_UNROLL_MAX = 64    # longest filter with unrolled taps and weights passed by value
_SMEM_MAX = 40 * 1024

_LINE_OPS = {
    # (step on accumulator a[r] with value v, tap k, weight W; result)
    'corr': ("a[r] += W * v;", "a[r]"),
    'uniform': ("a[r] += v;", "a[r] / (acc_t)CA_K"),
    'min': ("if (k == 0 || v < a[r]) a[r] = v;", "a[r]"),
    'max': ("if (k == 0 || v > a[r]) a[r] = v;", "a[r]"),
}

_LINE_HEAD = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
typedef {acc_t} acc_t;
#define CA_K {K}
#define CA_R {R}
// Weights by value (unrolled taps) or through wp (a tap loop).
struct ca_w {{ acc_t v[{KW}]; }};
{mapfn}
"""

# Register tiling: thread computes CA_R consecutive outputs; SRC(j) is the j-th input of its window.
_TAPS_UNROLLED = r"""
        acc_t a[CA_R];
#pragma unroll
        for (int r = 0; r < CA_R; ++r) a[r] = 0;
#pragma unroll
        for (int j = 0; j < CA_R + CA_K - 1; ++j) {{
          const acc_t v = {src};
#pragma unroll
          for (int r = 0; r < CA_R; ++r) {{
            const int k = j - r;
            if (k >= 0 && k < CA_K) {{
#define W w.v[k]
              {step}
#undef W
            }}
          }}
        }}
"""

_TAPS_LOOP = r"""
        acc_t a[CA_R];
#pragma unroll
        for (int r = 0; r < CA_R; ++r) a[r] = 0;
        for (int k = 0; k < CA_K; ++k) {{
          const acc_t wk = wp ? wp[k] : (acc_t)0;
#pragma unroll
          for (int r = 0; r < CA_R; ++r) {{
            const int j = r + k;
            const acc_t v = {src};
#define W wk
            {step}
#undef W
          }}
        }}
"""

_ROW = r"""
#define CA_TW {TW}
extern "C" __global__ void ca_ndimage_row(const in_t* __restrict__ x, out_t* __restrict__ y, const ca_w w,
    const acc_t* __restrict__ wp, long long outer, long long n, long long inner, long long so, long long sn,
    long long si, int shift, double cval_d) {{
  __shared__ acc_t s_in[CA_TW + CA_K - 1];
  __shared__ acc_t s_out[CA_TW];
  const acc_t cval = (acc_t)cval_d;
  const long long segs = (n + CA_TW - 1) / CA_TW;
  for (long long t = blockIdx.x; t < outer * inner * segs; t += gridDim.x) {{
    const long long line = t / segs, o = line / inner, i = line - o * inner;
    const long long q0 = (t - line * segs) * CA_TW;
    const in_t* xl = x + o * so + i * si;
    // s_in[e] holds the line's input at q0 - shift + e.
    for (int e = threadIdx.x; e < CA_TW + CA_K - 1; e += blockDim.x) {{
      const long long p = ca_map(q0 - shift + e, n);
      s_in[e] = p < 0 ? cval : (acc_t)xl[p * sn];
    }}
    __syncthreads();
    for (int g = threadIdx.x; g < CA_TW / CA_R; g += blockDim.x) {{
{taps}
#pragma unroll
      for (int r = 0; r < CA_R; ++r) s_out[g * CA_R + r] = {result};
    }}
    __syncthreads();
    out_t* yl = y + o * n * inner + i;
    for (int e = threadIdx.x; e < CA_TW && q0 + e < n; e += blockDim.x) yl[(q0 + e) * inner] = (out_t)s_out[e];
    // The next tile writes s_in after all threads passed the barrier above (their reads of s_in are done),
    // and s_out after its first barrier, which every thread reaches only once its stores here are done.
  }}
}}
"""

_COL = r"""
#define CA_TX {TX}
#define CA_TY {TY}
#define CA_TA (CA_TY * CA_R)
extern "C" __global__ void ca_ndimage_col(const in_t* __restrict__ x, out_t* __restrict__ y, const ca_w w,
    const acc_t* __restrict__ wp, long long outer, long long n, long long inner, long long so, long long sn,
    long long si, int shift, double cval_d) {{
  __shared__ acc_t s_in[CA_TA + CA_K - 1][CA_TX];
  const acc_t cval = (acc_t)cval_d;
  const long long segs = (n + CA_TA - 1) / CA_TA, cols = (inner + CA_TX - 1) / CA_TX;
  for (long long t = blockIdx.x; t < outer * segs * cols; t += gridDim.x) {{
    const long long o = t / (segs * cols);
    const long long rest = t - o * segs * cols;
    const long long seg = rest / cols;
    const long long q0 = seg * CA_TA, i0 = (rest - seg * cols) * CA_TX;
    const in_t* xo = x + o * so;
    // s_in[e][c] holds line i0 + c at position q0 - shift + e.
    for (int e = threadIdx.y * blockDim.x + threadIdx.x; e < (CA_TA + CA_K - 1) * CA_TX;
         e += blockDim.x * blockDim.y) {{
      const int row = e / CA_TX, c = e % CA_TX;
      acc_t v = cval;  // lines past the end are never stored
      if (i0 + c < inner) {{
        const long long p = ca_map(q0 - shift + row, n);
        if (p >= 0) v = (acc_t)xo[p * sn + (i0 + c) * si];
      }}
      s_in[row][c] = v;
    }}
    __syncthreads();
    for (int ty = threadIdx.y; ty < CA_TY; ty += blockDim.y) {{
      for (int tx = threadIdx.x; tx < CA_TX; tx += blockDim.x) {{
{taps}
        const long long i = i0 + tx;
#pragma unroll
        for (int r = 0; r < CA_R; ++r) {{
          const long long q = q0 + ty * CA_R + r;
          if (q < n && i < inner) y[(o * n + q) * inner + i] = (out_t)({result});
        }}
      }}
    }}
    __syncthreads();  // the next tile overwrites s_in
  }}
}}
"""


def line_layout(shape, strides, axis):
    """(outer, so, n, sn, inner, si): the array as lines along ``axis`` (element strides), the dimensions
    before and after the axis each merged into one; None when they do not merge."""
    def merge(dims):
        dims = [(m, s) for m, s in dims if m != 1]
        if not dims:
            return 1, 0
        m, s = dims[-1]
        for m2, s2 in reversed(dims[:-1]):
            if s2 != s * m:
                return None
            m *= m2
        return m, s
    outer = merge(list(zip(shape[:axis], strides[:axis])))
    inner = merge(list(zip(shape[axis + 1:], strides[axis + 1:])))
    if outer is None or inner is None:
        return None
    return outer[0], outer[1], shape[axis], strides[axis], inner[0], inner[1]


def line_variant(outer, n, inner, K, acc):
    """('row', tile width) or ('col', tile height): the tiles for lines of n along the axis, inner lines side by
    side in memory; None when no tile keeps enough of its work (lines too short) or the filter is too long for
    them, and the generic kernel serves."""
    size = numpy.dtype(acc).itemsize
    col_fits = (COL_TILE + K - 1) * COL_TX * size <= _SMEM_MAX
    if inner >= 16 and n >= 16 and col_fits:
        return 'col', COL_TILE
    for tw in ROW_TILES:
        if n >= tw // 2 and (2 * tw + K) * size <= _SMEM_MAX:
            return 'row', tw
    return None


def weights_by_value(K):
    return K <= _UNROLL_MAX


def line_source(variant, kind, mode, in_dtype, out_dtype, K, tile=None):
    """The CUDA source of a tiled line filter: variant 'row' (``tile`` one of ROW_TILES) or 'col', kind
    'corr1d', 'uniform1d', 'min1d' or 'max1d' (Note [ndimage kernels])."""
    in_dtype, out_dtype = numpy.dtype(in_dtype), numpy.dtype(out_dtype)
    acc = acc_dtype(in_dtype, out_dtype)
    step, result = _LINE_OPS[kind[:-2]]
    unrolled = weights_by_value(K)
    if variant == 'row':
        R, src = ROW_R, "s_in[g * CA_R + j]"
    else:
        R, src = COL_R, "s_in[ty * CA_R + j][tx]"
    taps = (_TAPS_UNROLLED if unrolled else _TAPS_LOOP).format(src=src, step=step)
    head = _LINE_HEAD.format(in_t=_CTYPES[in_dtype.name], out_t=_CTYPES[out_dtype.name], acc_t=_CTYPES[acc.name],
                             K=K, R=R, KW=K if unrolled and kind == 'corr1d' else 1,
                             mapfn=_MAPFN.format(map=_MAP[mode]))
    if variant == 'row':
        return head + _ROW.format(TW=tile or ROW_TILES[0], taps=taps, result=result)
    return head + _COL.format(TX=COL_TX, TY=COL_TY, taps=taps, result=result)


def line_kernel(variant, kind, mode, in_dtype, out_dtype, K, tile=None):
    key = ('line', variant, kind, mode, numpy.dtype(in_dtype).char, numpy.dtype(out_dtype).char, K, tile)
    return _compiled(key, lambda: line_source(variant, kind, mode, in_dtype, out_dtype, K, tile),
                     "ca_ndimage_" + variant)


# -- rank filters: selection networks --------------------------------------------------------------------------
# Note [forgetful selection]
# The rank-th smallest of K values, read one at a time into a buffer of B values with U still unread: the
# buffer's minimum has at most U values below it, so when rank > U it lies below the answer and can be dropped
# (rank decreases); the buffer's maximum has B - 1 values below it, so when B - 1 > rank it lies above the
# answer and can be dropped. Reading values until a drop is possible and then dropping the minimum and/or the
# maximum after each new value keeps about K / 2 + 2 values for a median (rank + 2 for a small rank): every
# step is a compare-exchange on registers, fixed at generation time, so the network is straight-line code.
# One pass that drops both pairs the buffer up (lo_i <= hi_i), takes the minimum along the lo's and the maximum
# along the hi's (a leftover odd value joins the min chain and its survivor the max chain: every other survivor
# of the min chain is at most its pair's hi).
# Each thread computes two outputs next to each other along one axis: the values their footprints share are
# read and selected once, and the two buffers part only for each output's own values.
NET_MAX_BUFFER = 48
NET_MAX_OPS = 8000

_KEY_TYPES = {'float32': 'float', 'float64': 'double', 'int32': 'int', 'uint32': 'unsigned int',
              'int64': 'long long', 'uint64': 'unsigned long long'}

# ca_lo/ca_hi: the compare-exchange. Floats order NaN above everything (NumPy's sort order), so a NaN in the
# footprint is one value like the others; -0.0 and 0.0 compare equal.
_LOHI = {
    'float': r"""
__device__ __forceinline__ float ca_lo(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ float ca_hi(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return (b > a || b != b) ? b : a;
#endif
}
""",
    'double': r"""
__device__ __forceinline__ double ca_lo(double a, double b) { return (b < a || a != a) ? b : a; }
__device__ __forceinline__ double ca_hi(double a, double b) { return (b > a || b != b) ? b : a; }
""",
    'int': r"""
template <class T> __device__ __forceinline__ T ca_lo(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T ca_hi(T a, T b) { return b < a ? a : b; }
""",
}


def rank_domain(in_dtype):
    """The type the network compares in (a key of _KEY_TYPES): the input's own (integers of up to 32 bits
    widened to 32), as SciPy's rank filters compare."""
    in_dtype = numpy.dtype(in_dtype)
    if in_dtype.kind == 'f':
        return in_dtype.name
    if in_dtype.itemsize == 8:
        return 'int64' if in_dtype.kind == 'i' else 'uint64'
    return 'uint32' if in_dtype == numpy.uint32 else 'int32'


_cval_cache = {}


def rank_cval(in_dtype, cval):
    """cval as the network's kernel argument: converted to the input's type first, as SciPy's rank filters do
    (-3.5 becomes 253 for uint8)."""
    in_dtype = numpy.dtype(in_dtype)
    key = (in_dtype.char, cval if isinstance(cval, (int, float)) and cval == cval else None)
    v = _cval_cache.get(key) if key[1] is not None else None
    if v is None:
        with numpy.errstate(all='ignore'):
            v = numpy.asarray(cval, dtype=numpy.float64).astype(in_dtype)
        v = numpy.dtype(rank_domain(in_dtype)).type(v)
        if key[1] is not None and len(_cval_cache) < 256:
            _cval_cache[key] = v
    return v


def pair_axis(offs, shape):
    """The axis along which a thread takes two outputs (None: one output): the non-innermost axis where the
    footprint is widest, so that neighbouring threads stay on neighbouring elements."""
    offs = numpy.asarray(offs).reshape(-1, len(shape))
    ndim = len(shape)
    ext = (offs.max(axis=0) - offs.min(axis=0) + 1).tolist() if len(offs) else [1] * ndim
    cands = [d for d in range(ndim) if ext[d] > 1 and shape[d] > 1]
    if not cands:
        return None
    outer = [d for d in cands if d != ndim - 1]
    return max(outer, key=lambda d: (ext[d], d)) if outer else ndim - 1


class _Net:
    """Straight-line code of a selection network over named values (each compare-exchange makes new names)."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.max_buffer = 0
        self.memo = {}

    def value(self, expr):
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"    const ca_key_t {name} = {expr};")
        return name

    def ce(self, a, b):
        # The two outputs' passes often pair the same shared values: one compare-exchange serves both.
        if (a, b) not in self.memo:
            self.memo[(a, b)] = self.value(f"ca_lo({a}, {b})"), self.value(f"ca_hi({a}, {b})")
        return self.memo[(a, b)]

    def drop_min(self, buf):
        cur, out = buf[0], []
        for c in buf[1:]:
            cur, s = self.ce(cur, c)
            out.append(s)
        return out

    def drop_max(self, buf):
        cur, out = buf[0], []
        for c in buf[1:]:
            s, cur = self.ce(cur, c)
            out.append(s)
        return out

    def drop_both(self, buf):
        los, his = [], []
        for i in range(0, len(buf) - 1, 2):
            lo, hi = self.ce(buf[i], buf[i + 1])
            los.append(lo)
            his.append(hi)
        if len(buf) % 2:
            los.append(buf[-1])
        kept = self.drop_min(los)
        if len(buf) % 2:
            # the odd value's survivor is the last of the min chain: it may be the maximum
            his.append(kept.pop())
        return kept + self.drop_max(his)

    def select(self, buf, loads, unread, rank):
        """Read ``loads`` (expressions) into ``buf``, dropping what the rule allows; (buf, unread, rank)."""
        for expr in loads:
            buf = buf + [self.value(expr)]
            unread -= 1
            self.max_buffer = max(self.max_buffer, len(buf))
            while True:
                lo, hi = rank > unread, len(buf) - 1 > rank
                if lo and hi:
                    buf = self.drop_both(buf)
                    rank -= 1
                elif lo:
                    buf = self.drop_min(buf)
                    rank -= 1
                elif hi:
                    buf = self.drop_max(buf)
                else:
                    break
        return buf, unread, rank


_RANK = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
typedef {ca_key_t} ca_key_t;
typedef {ca_idx_t} ca_idx_t;
{lohi}
{mapfn}
extern "C" __global__ void ca_ndimage_rank(const in_t* __restrict__ x, out_t* __restrict__ y, long long total,
    const ca_key_t cv, {dims}) {{
  for (ca_idx_t t = (ca_idx_t)blockIdx.x * (ca_idx_t)blockDim.x + (ca_idx_t)threadIdx.x; t < (ca_idx_t)total;
       t += (ca_idx_t)blockDim.x * (ca_idx_t)gridDim.x) {{
    ca_idx_t r = t;
{coords}
{maps}
{net}
    const ca_idx_t yo = {yoff};
    y[yo] = (out_t)({res0});
{store1}
  }}
}}
"""


def rank_network(offs, rank, shape):
    """(pair axis, the network's code, its result names, the coordinates each axis reads) for a rank filter
    with tap offsets ``offs`` (K x ndim ints), or None when the network would be too large."""
    offs = [tuple(int(v) for v in o) for o in offs]
    ndim = len(shape)
    pa = pair_axis(offs, shape)
    wa = set(offs)
    if pa is None:
        shared, own = sorted(wa), [[]]
    else:
        wb = {tuple(v + (d == pa) for d, v in enumerate(o)) for o in offs}
        shared, own = sorted(wa & wb), [sorted(wa - wb), sorted(wb - wa)]
    coords = [sorted({p[d] for part in [shared] + own for p in part}) for d in range(ndim)]
    index = [{v: i for i, v in enumerate(c)} for c in coords]

    def load(p):
        return "LD(" + ", ".join(f"{d}_{index[d][p[d]]}" for d in range(ndim)) + ")"

    net = _Net()
    buf, unread, r = net.select([], [load(p) for p in shared], len(offs), rank)
    results = []
    for part in own:
        b, _, _ = net.select(buf, [load(p) for p in part], unread, r)
        if len(b) != 1:
            raise AssertionError("selection network did not end with one value")
        results.append(b[0])
    if net.max_buffer > NET_MAX_BUFFER or net.count > NET_MAX_OPS:
        return None
    return pa, net.lines, results, coords


def rank_source(offs, rank, shape, mode, domain, in_dtype, out_dtype, idx64):
    """The CUDA source of a rank filter's selection network (Note [forgetful selection]); None when the
    footprint is too large for one."""
    made = rank_network(offs, rank, shape)
    if made is None:
        return None
    pa, lines, results, coords = made
    ndim = len(shape)
    ca_key_t = _KEY_TYPES[domain]
    constant = mode == 'constant'
    # Coordinates of the thread's (first) output: the last axis varies fastest between threads.
    cl = []
    for d in range(ndim - 1, -1, -1):
        ext = f"(((ca_idx_t)n{d} + 1) / 2)" if d == pa else f"(ca_idx_t)n{d}"
        val = f"r % {ext}" if d > 0 else "r"
        cl.append(f"    const ca_idx_t c{d} = {'2 * ' if d == pa else ''}({val});")
        if d > 0:
            cl.append(f"    r /= {ext};")
    ml = []
    for d in range(ndim):
        for i, v in enumerate(coords[d]):
            ml.append(f"    const ca_idx_t m{d}_{i} = ca_map<ca_idx_t>(c{d} + ({v}), (ca_idx_t)n{d});")
            ml.append(f"    const ca_idx_t p{d}_{i} = m{d}_{i} * (ca_idx_t)s{d};")
    # LD(i0, i1, ...) stands for the value at the mapped coordinates; expand it here.
    body = []
    for line in lines:
        while "LD(" in line:
            a = line.index("LD(")
            b = line.index(")", a)
            parts = line[a + 3:b].split(", ")
            addr = " + ".join(f"p{q}" for q in parts)
            expr = f"(ca_key_t)x[{addr}]"
            if constant:
                ok = " && ".join(f"m{q} >= 0" for q in parts)
                expr = f"(({ok}) ? {expr} : cv)"
            line = line[:a] + expr + line[b + 1:]
        body.append(line)
    yoff = "c0"
    for d in range(1, ndim):
        yoff = f"({yoff}) * (ca_idx_t)n{d} + c{d}"
    store1 = ""
    if pa is not None:
        step = " * ".join(f"(ca_idx_t)n{d}" for d in range(pa + 1, ndim)) or "1"
        store1 = f"    if (c{pa} + 1 < (ca_idx_t)n{pa}) y[yo + {step}] = (out_t)({results[1]});"
    lohi = _LOHI['int'] if ca_key_t not in ('float', 'double') else _LOHI[ca_key_t]
    return _RANK.format(in_t=_CTYPES[numpy.dtype(in_dtype).name], out_t=_CTYPES[numpy.dtype(out_dtype).name],
                        ca_key_t=ca_key_t, ca_idx_t="long long" if idx64 else "int", lohi=lohi,
                        mapfn=_MAPFN.format(map=_MAP[mode]),
                        dims=", ".join(f"long long n{d}, long long s{d}" for d in range(ndim)),
                        coords="\n".join(cl), maps="\n".join(ml), net="\n".join(body), yoff=yoff,
                        res0=results[0], store1=store1)


def rank_kernel(offs, rank, shape, mode, domain, in_dtype, out_dtype, idx64):
    """The compiled selection network, or None when the footprint is too large for one (the generic kernel
    serves it). The network depends on the shape only through the pair axis."""
    offs = numpy.ascontiguousarray(offs, dtype=numpy.int64).reshape(-1, len(shape))
    pa = pair_axis(offs, shape)
    key = ('rank', offs.tobytes(), offs.shape, rank, pa, mode, domain, numpy.dtype(in_dtype).char,
           numpy.dtype(out_dtype).char, idx64)
    if key in _cache:
        return _cache[key]
    src = rank_source(offs.tolist(), rank, shape, mode, domain, in_dtype, out_dtype, idx64)
    _cache[key] = None if src is None else RawKernel(src, "ca_ndimage_rank")
    return _cache[key]
