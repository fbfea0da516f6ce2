"""Generated CUDA kernels of cuarray.scipy.ndimage's morphology and measurements: binary erosion, grey erosion
with a structuring function, connected-component labelling and the exact Euclidean distance transform."""
import numpy

from cuarray._kernel import RawKernel
from cuarray.scipy.ndimage._util import _CTYPES

# Note [morphology kernels]
# All kernels are grid-stride loops over elements (or over lines for the distance transform), so that any
# grid is correct and the host test harness can run a launch as one thread. Shapes arrive as one
# `long long n<d>` argument per dimension; binary and label kernels read C-contiguous uint8 masks (the
# caller converts input != 0 once), grey kernels read the input through element strides.
#
# Labelling is a lock-free union-find (Playne & Hawick's scheme): L[i] starts at i for foreground pixels;
# each pixel unites itself with its neighbours before it in raster order (the half of the structure SciPy
# looks at), always hooking the larger root under the smaller with atomicMin and retrying when another
# thread moved the root first. Parents only ever decrease, so `find` terminates and the final root of a
# component is its first pixel in raster order; numbering roots by a prefix sum gives SciPy's labels.
#
# The distance transform runs Felzenszwalb-Huttenlocher's lower envelope of parabolas along one axis per
# pass (one thread per line, scratch of n + n + 1 entries per line) and carries the flat index of the
# nearest background element; a final kernel turns features into SciPy's int32 indices and computes the
# distance from them as SciPy does (difference, times sampling, squared, summed in axis order, sqrt).

def _dims(ndim):
    return ", ".join(f"long long n{d}" for d in range(ndim))


def _shape(ndim):
    return ", ".join(f"n{d}" for d in range(ndim))


_COMMON = r"""
#define NDIM {ndim}
#define CA_LOOP(i, total) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (total); \
    i += (long long)blockDim.x * gridDim.x)
"""

_ERODE = _COMMON + r"""
extern "C" __global__ void ca_erode(const unsigned char* __restrict__ x, const unsigned char* __restrict__ m,
    unsigned char* __restrict__ y, const int* __restrict__ offs, int K, int border, int invert, int cit,
    int* changed, long long total, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  CA_LOOP(idx, total) {{
    long long c[NDIM];
    long long r = idx;
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % shape[d]; r /= shape[d]; }}
    const int in = x[idx] != 0;
    int out;
    if (m != 0 && !m[idx]) {{
      out = in;
    }} else if (cit && in == invert) {{
      out = in;  // the structure's centre sees this pixel: nothing can change it
    }} else {{
      // Erosion (invert 0) clears the pixel when a tap is 0; dilation (invert 1) sets it when a tap is 1.
      out = !invert;
      for (int k = 0; k < K; ++k) {{
        long long j = 0;
        bool outside = false;
        for (int d = 0; d < NDIM; ++d) {{
          const long long q = c[d] + offs[k * NDIM + d];
          outside |= q < 0 || q >= shape[d];
          j = j * shape[d] + q;
        }}
        const int v = outside ? border : (x[j] != 0);
        if (v == invert) {{ out = invert; break; }}
      }}
      if (out != in) *changed = 1;
    }}
    y[idx] = (unsigned char)out;
  }}
}}
"""

_GREY = _COMMON + r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
__device__ __forceinline__ long long ca_map(long long c, long long n) {{
  if (c >= 0 && c < n) return c;
  {map}
}}
extern "C" __global__ void ca_grey(const in_t* __restrict__ x, out_t* __restrict__ y, const double* __restrict__ s,
    const int* __restrict__ offs, int K, double cval, long long total, {dims}, {strides}) {{
  const long long shape[NDIM] = {{{shape}}};
  const long long strides[NDIM] = {{{strides_list}}};
  CA_LOOP(idx, total) {{
    long long c[NDIM];
    long long r = idx;
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % shape[d]; r /= shape[d]; }}
    double res = 0;
    for (int k = 0; k < K; ++k) {{
      long long off = 0;
      bool outside = false;
      for (int d = 0; d < NDIM; ++d) {{
        const long long q = ca_map(c[d] + offs[k * NDIM + d], shape[d]);
        outside |= q < 0;
        off += q * strides[d];
      }}
      double v = outside ? cval : (double)x[off];
      v = {MIN} ? v - s[k] : v + s[k];
      if (k == 0 || ({MIN} ? v < res : v > res)) res = v;
    }}
    y[idx] = (out_t)res;
  }}
}}
"""

_LABEL = _COMMON + r"""
typedef {idx_t} idx_t;
__device__ __forceinline__ idx_t ca_find(idx_t* L, idx_t a) {{
  // Volatile: other threads hook roots concurrently; a stale parent is still an ancestor, never wrong.
  volatile idx_t* V = L;
  idx_t p = V[a];
  while (p != a) {{ a = p; p = V[a]; }}
  return a;
}}
extern "C" __global__ void ca_label_init(const unsigned char* __restrict__ x, idx_t* L, long long total) {{
  CA_LOOP(i, total) L[i] = x[i] ? (idx_t)i : (idx_t)-1;
}}
extern "C" __global__ void ca_label_union(const unsigned char* __restrict__ x, idx_t* L,
    const int* __restrict__ offs, int K, long long total, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  CA_LOOP(idx, total) {{
    if (!x[idx]) continue;
    long long c[NDIM];
    long long r = idx;
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = r % shape[d]; r /= shape[d]; }}
    for (int k = 0; k < K; ++k) {{
      long long j = 0;
      bool outside = false;
      for (int d = 0; d < NDIM; ++d) {{
        const long long q = c[d] + offs[k * NDIM + d];
        outside |= q < 0 || q >= shape[d];
        j = j * shape[d] + q;
      }}
      if (outside || !x[j]) continue;
      idx_t a = (idx_t)idx, b = (idx_t)j;
      while (true) {{
        a = ca_find(L, a);
        b = ca_find(L, b);
        if (a == b) break;
        if (a < b) {{ const idx_t t = a; a = b; b = t; }}
        const idx_t old = atomicMin(&L[a], b);
        if (old == a) break;  // a was still a root: now hooked under b
        a = old;              // another thread hooked a first: retry from its new parent
      }}
    }}
  }}
}}
extern "C" __global__ void ca_label_flatten(idx_t* L, long long* roots, long long total) {{
  CA_LOOP(i, total) {{
    const idx_t l = L[i];
    roots[i] = l == (idx_t)i;
    if (l >= 0) L[i] = ca_find(L, (idx_t)i);
  }}
}}
extern "C" __global__ void ca_label_number(const idx_t* __restrict__ L, const long long* __restrict__ ids,
    {out_t}* __restrict__ y, long long total) {{
  CA_LOOP(i, total) y[i] = ({out_t})(L[i] >= 0 ? ids[L[i]] : 0);
}}
"""

_EDT = _COMMON + r"""
__device__ __forceinline__ double ca_inf() {{
  union {{ unsigned long long u; double d; }} c;
  c.u = 0x7ff0000000000000ULL;
  return c.d;
}}
#define CA_INF ca_inf()
extern "C" __global__ void ca_edt_pass(const double* __restrict__ f, const long long* __restrict__ ft,
    double* __restrict__ g, long long* __restrict__ gt, long long* __restrict__ vbuf, double* __restrict__ zbuf,
    int axis, double w, long long nlines, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  long long cstride[NDIM];
  cstride[NDIM - 1] = 1;
  for (int d = NDIM - 2; d >= 0; --d) cstride[d] = cstride[d + 1] * shape[d + 1];
  const long long n = shape[axis], st = cstride[axis];
  CA_LOOP(line, nlines) {{
    long long r = line, base = 0;
    for (int d = NDIM - 1; d >= 0; --d) {{
      if (d == axis) continue;
      base += (r % shape[d]) * cstride[d];
      r /= shape[d];
    }}
    long long* v = vbuf + line * n;
    double* z = zbuf + line * (n + 1);
    long long k = -1;
    for (long long q = 0; q < n; ++q) {{
      const double fq = f[base + q * st];
      if (fq == CA_INF) continue;  // no feature yet on this line position: not a parabola
      const double hq = fq + w * (double)q * (double)q;
      double s = -CA_INF;
      while (k >= 0) {{
        const long long p = v[k];
        s = (hq - (f[base + p * st] + w * (double)p * (double)p)) / (2.0 * w * (double)(q - p));
        if (s <= z[k]) --k; else break;
      }}
      if (k < 0) s = -CA_INF;
      ++k;
      v[k] = q;
      z[k] = s;
      z[k + 1] = CA_INF;
    }}
    long long j = 0;
    for (long long q = 0; q < n; ++q) {{
      const long long o = base + q * st;
      if (k < 0) {{ g[o] = CA_INF; gt[o] = -1; continue; }}
      while (z[j + 1] < (double)q) ++j;
      const long long p = v[j];
      const double dq = (double)(q - p);
      g[o] = f[base + p * st] + w * dq * dq;
      gt[o] = ft ? ft[base + p * st] : base + p * st;
    }}
  }}
}}
extern "C" __global__ void ca_edt_final(const long long* __restrict__ ft, double* __restrict__ dist,
    int* __restrict__ ind, const double* __restrict__ samp, long long total, {dims}) {{
  const long long shape[NDIM] = {{{shape}}};
  CA_LOOP(idx, total) {{
    long long c[NDIM], fc[NDIM];
    long long r = idx, fr = ft[idx];
    for (int d = NDIM - 1; d >= 0; --d) {{
      c[d] = r % shape[d]; r /= shape[d];
      fc[d] = fr % shape[d]; fr /= shape[d];
    }}
    if (ft[idx] < 0) {{  // no background anywhere: SciPy's features are (-1, 0, ..., 0)
      for (int d = 0; d < NDIM; ++d) fc[d] = d == 0 ? -1 : 0;
    }}
    double acc = 0;
    for (int d = 0; d < NDIM; ++d) {{
      double t = (double)(fc[d] - c[d]);
      if (samp) t *= samp[d];
      acc = d == 0 ? t * t : acc + t * t;
      if (ind) ind[d * total + idx] = (int)fc[d];
    }}
    if (dist) dist[idx] = sqrt(acc);
  }}
}}
"""

# The boundary rules of the grey kernel (SciPy's filter modes, grid-* folded into the plain ones by the caller);
# kept here, apart from the filters' templated ones, so the two kernel families can change independently.
_MAP = {
    'reflect': "const long long p = 2 * n; c %= p; if (c < 0) c += p; return c >= n ? p - 1 - c : c;",
    'mirror': "if (n == 1) return 0; const long long p = 2 * n - 2; c %= p; if (c < 0) c += p;"
              " return c >= n ? p - c : c;",
    'wrap': "c %= n; return c < 0 ? c + n : c;",
    'nearest': "return c < 0 ? 0 : n - 1;",
    'constant': "return -1;",
}

_cache = {}


def erode_source(ndim):
    return _ERODE.format(ndim=ndim, dims=_dims(ndim), shape=_shape(ndim))


def grey_source(ndim, mode, in_dtype, out_dtype, minimum):
    return _GREY.format(ndim=ndim, dims=_dims(ndim), shape=_shape(ndim), map=_MAP[mode],
                        in_t=_CTYPES[numpy.dtype(in_dtype).name], out_t=_CTYPES[numpy.dtype(out_dtype).name],
                        strides=", ".join(f"long long s{d}" for d in range(ndim)),
                        strides_list=", ".join(f"s{d}" for d in range(ndim)), MIN=1 if minimum else 0)


def label_source(ndim, idx_dtype, out_dtype):
    return _LABEL.format(ndim=ndim, dims=_dims(ndim), shape=_shape(ndim), idx_t=_CTYPES[numpy.dtype(idx_dtype).name],
                         out_t=_CTYPES[numpy.dtype(out_dtype).name])


def edt_source(ndim):
    return _EDT.format(ndim=ndim, dims=_dims(ndim), shape=_shape(ndim))


LABEL_NAMES = ('ca_label_init', 'ca_label_union', 'ca_label_flatten', 'ca_label_number')
EDT_NAMES = ('ca_edt_pass', 'ca_edt_final')


def _get(key, make_source, names):
    ks = _cache.get(key)
    if ks is None:
        src = make_source()
        ks = _cache[key] = tuple(RawKernel(src, n) for n in names)
    return ks


def erode_kernel(ndim):
    return _get(('erode', ndim), lambda: erode_source(ndim), ('ca_erode',))[0]


def grey_kernel(ndim, mode, in_dtype, out_dtype, minimum):
    key = ('grey', ndim, mode, numpy.dtype(in_dtype).name, numpy.dtype(out_dtype).name, bool(minimum))
    return _get(key, lambda: grey_source(ndim, mode, in_dtype, out_dtype, minimum), ('ca_grey',))[0]


def label_kernels(ndim, idx_dtype, out_dtype):
    key = ('label', ndim, numpy.dtype(idx_dtype).name, numpy.dtype(out_dtype).name)
    return _get(key, lambda: label_source(ndim, idx_dtype, out_dtype), LABEL_NAMES)


def edt_kernels(ndim):
    return _get(('edt', ndim), lambda: edt_source(ndim), EDT_NAMES)
