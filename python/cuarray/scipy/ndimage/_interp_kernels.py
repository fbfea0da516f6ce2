"""Generated CUDA kernels of cuarray.scipy.ndimage's interpolation and Fourier filters: spline prefilter passes,
geometric transforms and Fourier multipliers, one per specialisation, cached."""
import math

import numpy

from cuarray._kernel import RawKernel
from cuarray.scipy.ndimage._util import _CTYPES

# SciPy's boundary codes (_ni_support._extend_mode_to_code for interpolation).
MODE_CODES = {'nearest': 0, 'wrap': 1, 'reflect': 2, 'grid-mirror': 2, 'mirror': 3, 'constant': 4, 'grid-wrap': 5,
              'grid-constant': 6}
NEAREST, WRAP, REFLECT, MIRROR, CONSTANT, GRID_WRAP, GRID_CONSTANT = range(7)

# Poles of the B-spline interpolation filters (roots of the B-spline's z-transform inside the unit circle).
POLES = {
    2: (math.sqrt(8.0) - 3.0,),
    3: (math.sqrt(3.0) - 2.0,),
    4: (math.sqrt(664.0 - math.sqrt(438976.0)) + math.sqrt(304.0) - 19.0,
        math.sqrt(664.0 + math.sqrt(438976.0)) - math.sqrt(304.0) - 19.0),
    5: (math.sqrt(67.5 - math.sqrt(4436.25)) + math.sqrt(26.25) - 6.5,
        math.sqrt(67.5 + math.sqrt(4436.25)) - math.sqrt(26.25) - 6.5),
}


def gain(order):
    g = 1.0
    for z in POLES[order]:
        g *= (1.0 - z) * (1.0 - 1.0 / z)
    return g


def init_family(mode):
    """Which boundary initialisation SciPy's spline prefilter uses for ``mode`` (a code): 'mirror', 'wrap' (the
    periodic one of grid-wrap) or 'reflect' (also nearest, whose input SciPy pads first)."""
    if mode == GRID_WRAP:
        return 'wrap'
    if mode in (NEAREST, REFLECT):
        return 'reflect'
    return 'mirror'


def spline_mode(mode):
    """The rule for taps beyond the edge: constant and wrap have no exact spline extension; SciPy mirrors."""
    return MIRROR if mode in (CONSTANT, WRAP) else mode


def horizon(z, dtype):
    """Terms z**k below this k are all that matter in ``dtype``: |z|**k < 1e-19 (float64) or 1e-10 (float32), far
    below half an ulp of the coefficients they are added to."""
    tol = 1e-10 if numpy.dtype(dtype) == numpy.float32 else 1e-19
    return int(math.ceil(math.log(tol) / math.log(abs(z)))) + 1


# Note [spline prefilter]
# SciPy's prefilter runs, per line and per pole z, a causal recursion c[i] = x[i] + z c[i-1] and an anticausal
# one a[i] = z (a[i+1] - c[i]), each started by a mode-dependent initial value (a finite sum over the line) and
# scaled once by the gain. The recursions forget their start geometrically (|z| <= 0.43), so a line is cut into
# chunks of CHUNK samples, one thread each, and a chunk's thread starts its recursion `warm` samples before the
# chunk (from zero) instead of waiting for the previous chunk: the dropped term is below z**warm relative, under
# half an ulp (`horizon`). Chunks whose warm-up would reach the line's start (end, for the anticausal pass) run
# from there with SciPy's exact initial value. Each pass reads one buffer and writes another (chunks read their
# neighbours' samples), and the first pass reads the input in its own dtype. Threads take lines' samples with
# the line index fastest where lines are interleaved in memory (every axis but the last), so loads coalesce.
# The initial sums also stop at the horizon; the remaining terms are below the same bound.
_SPLINE = r"""
typedef {src_t} src_t;
typedef {work_t} work_t;
#define CA_INIT_{family}
extern "C" __global__ void ca_spline_causal(const src_t* __restrict__ x, work_t* __restrict__ y, long long outer,
    long long n, long long inner, long long nchunks, long long chunk, double z, double g, long long warm,
    long long kmax) {{
  const long long items = outer * nchunks * inner;
  for (long long it = blockIdx.x * (long long)blockDim.x + threadIdx.x; it < items;
       it += (long long)blockDim.x * gridDim.x) {{
    const long long r = it % inner, q = it / inner, c = q % nchunks, o = q / nchunks;
    const src_t* xl = x + o * n * inner + r;
    work_t* yl = y + o * n * inner + r;
    const long long start = c * chunk, end = start + chunk < n ? start + chunk : n;
    long long i;
    double prev;
    if (start - warm <= 0) {{
      // SciPy's initial value c[0], a sum over the line up to the horizon.
      const long long last = n - 1;
#if defined(CA_INIT_mirror)
      const double zl = pow(z, (double)(n - 1));
      double s = (double)xl[0] + zl * (double)xl[last * inner], zi = z;
      for (long long k = 1; k < n - 1 && k <= kmax; ++k) {{
        s += zi * ((double)xl[k * inner] + zl * (double)xl[(last - k) * inner]);
        zi *= z;
      }}
      prev = s / (1.0 - zl * zl);
#elif defined(CA_INIT_wrap)
      double s = (double)xl[0], zi = z;
      for (long long k = 1; k < n && k <= kmax; ++k) {{
        s += zi * (double)xl[(n - k) * inner];
        zi *= z;
      }}
      prev = s / (1.0 - pow(z, (double)n));
#else
      const double zn = pow(z, (double)n);
      double s = (double)xl[0] + zn * (double)xl[last * inner], zi = z;
      for (long long k = 1; k < n && k <= kmax; ++k) {{
        s += zi * ((double)xl[k * inner] + zn * (double)xl[(last - k) * inner]);
        zi *= z;
      }}
      prev = (double)xl[0] + s * z / (1.0 - zn * zn);
#endif
      if (start == 0) yl[0] = (work_t)(g * prev);
      i = 1;
    }} else {{
      prev = 0.0;
      i = start - warm;
    }}
    work_t p = (work_t)prev;
    const work_t zw = (work_t)z, gw = (work_t)g;
    for (; i < start; ++i) p = (work_t)xl[i * inner] + zw * p;
#pragma unroll 4
    for (; i < end; ++i) {{
      p = (work_t)xl[i * inner] + zw * p;
      yl[i * inner] = gw * p;
    }}
  }}
}}

extern "C" __global__ void ca_spline_anticausal(const src_t* __restrict__ x, work_t* __restrict__ y,
    long long outer, long long n, long long inner, long long nchunks, long long chunk, double z, double g,
    long long warm, long long kmax) {{
  const long long items = outer * nchunks * inner;
  for (long long it = blockIdx.x * (long long)blockDim.x + threadIdx.x; it < items;
       it += (long long)blockDim.x * gridDim.x) {{
    const long long r = it % inner, q = it / inner, c = q % nchunks, o = q / nchunks;
    const src_t* xl = x + o * n * inner + r;
    work_t* yl = y + o * n * inner + r;
    const long long start = c * chunk, end = start + chunk < n ? start + chunk : n;
    const long long last = n - 1;
    long long i;
    double prev;
    if (end - 1 + warm >= last) {{
      // SciPy's initial value a[n-1] from the causal coefficients x.
#if defined(CA_INIT_mirror)
      prev = (z * (double)xl[(last - 1) * inner] + (double)xl[last * inner]) * z / (z * z - 1.0);
#elif defined(CA_INIT_wrap)
      double s = (double)xl[last * inner], zi = z;
      for (long long k = 0; k < last && k < kmax; ++k) {{
        s += zi * (double)xl[k * inner];
        zi *= z;
      }}
      prev = s * z / (pow(z, (double)n) - 1.0);
#else
      prev = (double)xl[last * inner] * z / (z - 1.0);
#endif
      if (end == n) yl[last * inner] = (work_t)(g * prev);
      i = last - 1;
    }} else {{
      prev = 0.0;
      i = end - 1 + warm;
    }}
    work_t p = (work_t)prev;
    const work_t zw = (work_t)z, gw = (work_t)g;
    for (; i >= end; --i) p = zw * (p - (work_t)xl[i * inner]);
#pragma unroll 4
    for (; i >= start; --i) {{
      p = zw * (p - (work_t)xl[i * inner]);
      yl[i * inner] = gw * p;
    }}
  }}
}}
"""

SPLINE_NAMES = ('ca_spline_causal', 'ca_spline_anticausal')


def spline_source(src_dtype, work_dtype, family):
    return _SPLINE.format(src_t=_CTYPES[numpy.dtype(src_dtype).name], work_t=_CTYPES[numpy.dtype(work_dtype).name],
                          family=family)


# Note [ndimage interpolation]
# One thread per output point (grid-stride loop). The point's input coordinates come from a coordinate array
# (map_coordinates), an affine map of the output coordinates (affine_transform, rotate) or a per-axis zoom and
# shift (zoom, shift, diagonal affine_transform), computed in double without contraction into FMAs
# (__dmul_rn/__dadd_rn) so that they round as SciPy's do: whether a point falls outside the input, and which
# sample order 0 picks, must not change by an ulp. Per axis, SciPy's rule follows: the coordinate is folded
# into the input by the mode (constant: outside is cval), the first of order+1 taps is found, the B-spline
# weights are computed once for the axis (in the work type: float for float32 data and output, else double),
# and taps beyond the edge are mapped by the spline's boundary rule (mirror for constant and wrap) or, for
# grid-constant, read as cval. The K**ndim taps are then summed axis by axis (separable weights: each row of
# taps is weighted once). Tap indices are clamped into the line after mapping, so no input, however
# extreme (inf, huge coordinates), reads outside the array. The value is stored as SciPy stores it: rounded
# half away from zero and clamped for integer outputs, C casts otherwise.
_TRANSFORM_HEAD = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
typedef {work_t} work_t;
typedef {idx_t} idx_t;
typedef {coord_t} coord_t;
#define NDIM {ndim}
#define ONDIM {ondim}
#define ORDER {order}
#define K (ORDER + 1)
#define MODE {mode}
#define SPLINE_MODE {spline_mode}
#define CA_NEAREST 0
#define CA_WRAP 1
#define CA_REFLECT 2
#define CA_MIRROR 3
#define CA_CONSTANT 4
#define CA_GRID_WRAP 5
#define CA_GRID_CONSTANT 6

// Where SciPy's map_coordinate puts coordinate `in` of a line of `len` samples (-1: outside, for constant).
template <int M>
__device__ __forceinline__ double ca_fold(double in, long long len) {{
  if (in < 0) {{
    if (M == CA_NEAREST) return 0.0;
    if (M == CA_CONSTANT) return -1.0;
    if (len <= 1) return 0.0;
    if (M == CA_MIRROR) {{
      const long long p = 2 * len - 2;
      in = (double)(p * (long long)(-in / p)) + in;
      return in <= (double)(1 - len) ? in + (double)p : -in;
    }}
    if (M == CA_REFLECT) {{
      const long long p = 2 * len;
      if (in < (double)(-p)) in = (double)(p * (long long)(-in / p)) + in;
      return in < (double)(-len) ? in + (double)p : (in > -1e-15 ? 1e-15 : -in) - 1.0;
    }}
    if (M == CA_WRAP) {{
      const long long p = len - 1;
      return in + (double)(p * ((long long)(-in / p) + 1));
    }}
    if (M == CA_GRID_WRAP) return in + (double)(len * ((long long)((-1.0 - in) / len) + 1));
    return in;
  }}
  if (in > (double)(len - 1)) {{
    if (M == CA_NEAREST) return (double)(len - 1);
    if (M == CA_CONSTANT) return -1.0;
    if (len <= 1) return 0.0;
    if (M == CA_MIRROR) {{
      const long long p = 2 * len - 2;
      in -= (double)(p * (long long)(in / p));
      return in >= (double)len ? (double)p - in : in;
    }}
    if (M == CA_REFLECT) {{
      const long long p = 2 * len;
      in -= (double)(p * (long long)(in / p));
      return in >= (double)len ? (double)p - in - 1.0 : in;
    }}
    if (M == CA_WRAP) {{
      const long long p = len - 1;
      return in - (double)(p * (long long)(in / p));
    }}
    if (M == CA_GRID_WRAP) return in - (double)(len * (long long)(in / len));
  }}
  return in;
}}

// B-spline weights of the K taps for offset t from the first tap's anchor (t in [0, 1) for odd orders,
// [-0.5, 0.5) for even ones): w[j] = B(t - j + ORDER / 2) for the centred B-spline B of degree ORDER.
__device__ __forceinline__ void ca_weights(work_t t, work_t* w) {{
#if ORDER == 0
  w[0] = (work_t)1;
#elif ORDER == 1
  w[0] = (work_t)1 - t;
  w[1] = t;
#elif ORDER == 2
  const work_t a = (work_t)0.5 - t, b = (work_t)0.5 + t;
  w[0] = (work_t)0.5 * a * a;
  w[1] = (work_t)0.75 - t * t;
  w[2] = (work_t)0.5 * b * b;
#elif ORDER == 3
  const work_t s = (work_t)1 - t, t2 = t * t, s2 = s * s;
  w[0] = s2 * s / (work_t)6;
  w[1] = (work_t)(2.0 / 3.0) - t2 * ((work_t)1 - (work_t)0.5 * t);
  w[2] = (work_t)(2.0 / 3.0) - s2 * ((work_t)1 - (work_t)0.5 * s);
  w[3] = t2 * t / (work_t)6;
#elif ORDER == 4
  // |u| <= 1/2: 115/192 - 5/8 u^2 + 1/4 u^4; 1/2 <= |u| <= 3/2: 55/96 + 5/24 u - 5/4 u^2 + 5/6 u^3 - 1/6 u^4;
  // 3/2 <= |u| <= 5/2: (5/2 - |u|)^4 / 24.
  const work_t a = (work_t)0.5 - t, b = (work_t)0.5 + t, u = (work_t)1 + t, v = (work_t)1 - t, t2 = t * t;
  const work_t a2 = a * a, b2 = b * b;
  w[0] = a2 * a2 / (work_t)24;
  w[1] = (work_t)(55.0 / 96.0) + u * ((work_t)(5.0 / 24.0) + u * ((work_t)-1.25 + u * ((work_t)(5.0 / 6.0) -
         u / (work_t)6)));
  w[2] = (work_t)(115.0 / 192.0) + t2 * ((work_t)-0.625 + (work_t)0.25 * t2);
  w[3] = (work_t)(55.0 / 96.0) + v * ((work_t)(5.0 / 24.0) + v * ((work_t)-1.25 + v * ((work_t)(5.0 / 6.0) -
         v / (work_t)6)));
  w[4] = b2 * b2 / (work_t)24;
#else
  // |u| <= 1: 11/20 - u^2/2 + u^4/4 - |u|^5/12; 1 <= |u| <= 2: 17/40 + 5/8 u - 7/4 u^2 + 5/4 u^3 - 3/8 u^4 +
  // u^5/24; 2 <= |u| <= 3: (3 - |u|)^5 / 120.
  const work_t s = (work_t)1 - t, u = (work_t)1 + t, v = (work_t)2 - t, t2 = t * t, s2 = s * s;
  w[0] = s2 * s2 * s / (work_t)120;
  w[1] = (work_t)0.425 + u * ((work_t)0.625 + u * ((work_t)-1.75 + u * ((work_t)1.25 + u * ((work_t)-0.375 +
         u / (work_t)24))));
  w[2] = (work_t)0.55 + t2 * ((work_t)-0.5 + t2 * ((work_t)0.25 - t / (work_t)12));
  w[3] = (work_t)0.55 + s2 * ((work_t)-0.5 + s2 * ((work_t)0.25 - s / (work_t)12));
  w[4] = (work_t)0.425 + v * ((work_t)0.625 + v * ((work_t)-1.75 + v * ((work_t)1.25 + v * ((work_t)-0.375 +
         v / (work_t)24))));
  w[5] = t2 * t2 * t / (work_t)120;
#endif
}}

__device__ __forceinline__ out_t ca_store(work_t v) {{
  double t = (double)v;
{store}
}}

// The matrix and offset, or zooms and shifts, by value: no device copy per call.
struct ca_params {{ double v[{nprm}]; }};

extern "C" __global__ void ca_transform(const in_t* __restrict__ x, out_t* __restrict__ y,
    const coord_t* __restrict__ crd, const ca_params prm, long long total, long long npts,
    double cval, double nprepad, long long bstride, {dims}) {{
  const long long n[NDIM > 0 ? NDIM : 1] = {{{shape}}};
  const long long s[NDIM > 0 ? NDIM : 1] = {{{strides}}};
  const long long on[ONDIM] = {{{oshape}}};
  const work_t cw = (work_t)cval;
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < total;
       p += (long long)blockDim.x * gridDim.x) {{
#if BATCH
    const long long b = p / npts, q = p - b * npts;
    const in_t* xb = x + b * bstride;
#else
    const long long q = p;
    const in_t* xb = x;
#endif
{outcoords}
    work_t w[NDIM][K];
    idx_t off[NDIM][K];
#if MODE == CA_GRID_CONSTANT
    bool ok[NDIM][K];
#endif
    bool outside = false;
#pragma unroll
    for (int d = 0; d < NDIM; ++d) {{
      double cc = __dadd_rn({coord}, nprepad);
#if MODE == CA_NEAREST || MODE == CA_GRID_CONSTANT
      // Far outside, every tap is the edge sample (nearest) or cval (grid-constant): bound the coordinate so
      // that the tap indices stay finite; NaN passes through.
      const double lo = -(ORDER + 2.0), hi = (double)n[d] + ORDER + 2.0;
      if (cc < lo) cc = lo;
      else if (cc > hi) cc = hi;
#else
      cc = ca_fold<MODE>(cc, n[d]);
      if (!(cc > -1.0)) {{
        outside = true;
        break;
      }}
#endif
      const double fl = floor((ORDER & 1) ? cc : cc + 0.5);
      const long long first = (long long)fl - ORDER / 2;
      ca_weights((work_t)(cc - fl), w[d]);
      if (first >= 0 && first <= n[d] - 1 - ORDER) {{
#pragma unroll
        for (int j = 0; j < K; ++j) {{
          off[d][j] = (idx_t)((first + j) * s[d]);
#if MODE == CA_GRID_CONSTANT
          ok[d][j] = true;
#endif
        }}
      }} else {{
#pragma unroll
        for (int j = 0; j < K; ++j) {{
          long long m = first + j;
#if MODE == CA_GRID_CONSTANT
          ok[d][j] = m >= 0 && m < n[d];
          if (!ok[d][j]) m = 0;
#else
          m = (long long)ca_fold<SPLINE_MODE>((double)m, n[d]);
#endif
          m = m < 0 ? 0 : (m >= n[d] ? n[d] - 1 : m);
          off[d][j] = (idx_t)(m * s[d]);
        }}
      }}
    }}
    work_t t;
    if (outside) {{
      t = cw;
    }} else {{
{sum}
    }}
    y[p] = ca_store(t);
  }}
}}
"""


def _store_code(out_dtype):
    dt = numpy.dtype(out_dtype)
    if dt.kind == 'b':
        # SciPy's C cast to npy_bool (an unsigned char) keeps the truncated value's low byte.
        return "  return (out_t)(t >= 1.0 || t <= -1.0);"
    if dt.kind == 'u':
        mx = float(numpy.iinfo(dt).max)
        return (f"  t = t > 0 ? t + 0.5 : 0.0;\n  if (t > {mx!r}) t = {mx!r};\n"
                f"  return t >= {mx + 1.0!r} ? (out_t){numpy.iinfo(dt).max}ULL : (out_t)t;")
    if dt.kind == 'i':
        mx, mn = numpy.iinfo(dt).max, numpy.iinfo(dt).min
        return (f"  t = t > 0 ? t + 0.5 : t - 0.5;\n  if (t > {float(mx)!r}) t = {float(mx)!r};\n"
                f"  if (t < {float(mn)!r}) t = {float(mn)!r};\n"
                f"  return t >= {float(mx)!r} ? (out_t){mx}LL : (out_t)t;")
    return "  return (out_t)t;"


def _sum_code(ndim):
    """Nested loops over the taps, innermost axis last; each level weights the sum of the level below."""
    gc = "#if MODE == CA_GRID_CONSTANT\n"
    lines = []
    ind = "      "
    lines.append(f"{ind}work_t a0 = 0;")
    for d in range(ndim):
        lines.append(f"{ind}#pragma unroll")
        lines.append(f"{ind}for (int i{d} = 0; i{d} < K; ++i{d}) {{")
        ind += "  "
        prev_off = f"o{d - 1} + " if d else ""
        lines.append(f"{ind}const idx_t o{d} = {prev_off}off[{d}][i{d}];")
        prev_ok = f"k{d - 1} && " if d else ""
        lines.append(gc + f"{ind}const bool k{d} = {prev_ok}ok[{d}][i{d}];\n#endif")
        if d < ndim - 1:
            lines.append(f"{ind}work_t a{d + 1} = 0;")
    inner = ndim - 1
    lines.append(gc + f"{ind}const work_t v = k{inner} ? (work_t)xb[o{inner}] : cw;\n#else\n"
                 f"{ind}const work_t v = (work_t)xb[o{inner}];\n#endif")
    lines.append(f"{ind}a{inner} += w[{inner}][i{inner}] * v;")
    for d in range(ndim - 1, 0, -1):
        ind = ind[:-2]
        lines.append(f"{ind}}}")
        lines.append(f"{ind}a{d - 1} += w[{d - 1}][i{d - 1}] * a{d};")
    lines.append(f"{ind[:-2]}}}")
    lines.append("      t = a0;")
    return "\n".join(lines)


def transform_source(kind, ndim, ondim, order, mode, in_dtype, out_dtype, work_dtype, coord_dtype=None,
                     idx64=False, batch=False, has_zoom=False, has_shift=False, grid_mode=False):
    """The CUDA source of one transform kernel. kind: 'map' (coordinates array crd, (ndim, npts)), 'affine'
    (prm = matrix (ndim x ondim) then offset) or 'zoomshift' (prm = zoom[ndim] then shift[ndim])."""
    nprm = {'map': 1, 'affine': ndim * ondim + ndim, 'zoomshift': 2 * ndim}[kind]
    if kind == 'map':
        coord = "(double)crd[d * npts + q]"
        outcoords = ""
    else:
        decomp = ["    long long oc[ONDIM];", "    {", "      long long rem = q;", "#pragma unroll",
                  "      for (int e = ONDIM - 1; e >= 0; --e) { oc[e] = rem % on[e]; rem /= on[e]; }", "    }"]
        outcoords = "\n".join(decomp)
        if kind == 'affine':
            # SciPy's order: offset first, then each output coordinate's term, left to right.
            outcoords += ("\n    double ic[NDIM];\n#pragma unroll\n    for (int h = 0; h < NDIM; ++h) {\n"
                          "      double a = prm.v[NDIM * ONDIM + h];\n#pragma unroll\n"
                          "      for (int e = 0; e < ONDIM; ++e) a = __dadd_rn(a, __dmul_rn((double)oc[e], "
                          "prm.v[h * ONDIM + e]));\n      ic[h] = a;\n    }")
        else:
            steps = ["      double a = (double)oc[h];"]
            if has_shift:
                steps.append("      a = __dadd_rn(a, prm.v[NDIM + h]);")
            if has_zoom:
                if grid_mode:
                    steps.append("      a = __dadd_rn(__dmul_rn(__dadd_rn(a, 0.5), prm.v[h]), -0.5);")
                else:
                    steps.append("      a = __dmul_rn(a, prm.v[h]);")
            outcoords += ("\n    double ic[NDIM];\n#pragma unroll\n    for (int h = 0; h < NDIM; ++h) {\n" +
                          "\n".join(steps) + "\n      ic[h] = a;\n    }")
        coord = "ic[d]"
    dims = ", ".join([f"long long n{d}, long long s{d}" for d in range(ndim)] +
                     [f"long long on{d}" for d in range(ondim)])
    src = _TRANSFORM_HEAD.format(
        in_t=_CTYPES[numpy.dtype(in_dtype).name], out_t=_CTYPES[numpy.dtype(out_dtype).name],
        work_t=_CTYPES[numpy.dtype(work_dtype).name], idx_t="long long" if idx64 else "int",
        coord_t=_CTYPES[numpy.dtype(coord_dtype).name] if coord_dtype is not None else "double",
        ndim=ndim, ondim=ondim, order=order, mode=mode, spline_mode=spline_mode(mode), nprm=nprm,
        store=_store_code(out_dtype), dims=dims, shape=", ".join(f"n{d}" for d in range(ndim)),
        strides=", ".join(f"s{d}" for d in range(ndim)), oshape=", ".join(f"on{d}" for d in range(ondim)),
        outcoords=outcoords, coord=coord, sum=_sum_code(ndim))
    return f"#define BATCH {int(bool(batch))}\n" + src


# Note [ndimage Fourier filters]
# SciPy's Fourier filters multiply each element by a factor built from per-axis tables of its frequency index
# (0, 1, ..., -n/2..-1 for a full transform; 0..len-1 along an rfft axis of length n). The tables are computed
# on the host exactly as SciPy does (they are small) and concatenated into one array; the kernel looks each
# axis up, combines (product, or the ellipsoid's radius, or the shift's phase sum) and scales the input in
# double, storing to the output type.
_FOURIER = r"""
typedef {in_t} in_t;
typedef {out_t} out_t;
#define NDIM {ndim}
#define KIND_{kind}
#define IN_COMPLEX {in_complex}
#define OUT_COMPLEX {out_complex}
extern "C" __global__ void ca_fourier(const in_t* __restrict__ x, out_t* __restrict__ y,
    const double* __restrict__ tab, long long total, {dims}) {{
  const long long n[NDIM] = {{{shape}}};
  const long long s[NDIM] = {{{strides}}};
  const long long base[NDIM] = {{{bases}}};
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < total;
       p += (long long)blockDim.x * gridDim.x) {{
    long long rem = p, src = 0;
    double f;
#if defined(KIND_shift)
    f = 0.0;
#elif defined(KIND_ellipsoid)
    f = 0.0;
#else
    f = 1.0;
#endif
    long long c[NDIM];
#pragma unroll
    for (int d = NDIM - 1; d >= 0; --d) {{ c[d] = rem % n[d]; rem /= n[d]; src += c[d] * s[d]; }}
#pragma unroll
    for (int d = 0; d < NDIM; ++d) {{
#if defined(KIND_product)
      f *= tab[base[d] + c[d]];
#else
      f += tab[base[d] + c[d]];
#endif
    }}
#if defined(KIND_ellipsoid)
#if NDIM == 1
    f = f != 0.0 ? sin(f) / f : 1.0;
#elif NDIM == 2
    f = sqrt(f);
    f = f > 0.0 ? 2.0 * j1(f) / f : 1.0;
#else
    {{
      const double r = sqrt(f);
      f = r > 0.0 ? 3.0 * (sin(r) - r * cos(r)) / (r * r * r) : 1.0;
    }}
#endif
#endif
    const in_t v = x[src];
#if defined(KIND_shift)
    double sn, cs;
    sincos(f, &sn, &cs);
#if IN_COMPLEX
    y[p].x = (double)v.x * cs - (double)v.y * sn;
    y[p].y = (double)v.x * sn + (double)v.y * cs;
#else
    y[p].x = (double)v * cs;
    y[p].y = (double)v * sn;
#endif
#else
#if IN_COMPLEX
    y[p].x = (double)v.x * f;
    y[p].y = (double)v.y * f;
#elif OUT_COMPLEX
    y[p].x = f * (double)v;
    y[p].y = 0;
#else
    y[p] = (out_t)(f * (double)v);
#endif
#endif
  }}
}}
"""

_COMPLEX_CTYPES = {'complex64': 'float2', 'complex128': 'double2'}


def _ctype(dt):
    dt = numpy.dtype(dt)
    return _COMPLEX_CTYPES.get(dt.name) or _CTYPES[dt.name]


def fourier_source(kind, ndim, in_dtype, out_dtype):
    """kind: 'product' (gaussian, uniform), 'ellipsoid' or 'shift'."""
    in_dtype, out_dtype = numpy.dtype(in_dtype), numpy.dtype(out_dtype)
    return _FOURIER.format(in_t=_ctype(in_dtype), out_t=_ctype(out_dtype), ndim=ndim, kind=kind,
                           in_complex=int(in_dtype.kind == 'c'), out_complex=int(out_dtype.kind == 'c'),
                           dims=", ".join([f"long long n{d}, long long s{d}, long long b{d}" for d in range(ndim)]),
                           shape=", ".join(f"n{d}" for d in range(ndim)),
                           strides=", ".join(f"s{d}" for d in range(ndim)),
                           bases=", ".join(f"b{d}" for d in range(ndim)))


_cache = {}


def _get(key, make_source, name):
    k = _cache.get((key, name))
    if k is None:
        k = _cache[(key, name)] = RawKernel(make_source(), name)
    return k


def spline_kernels(src_dtype, work_dtype, family):
    key = ('spline', numpy.dtype(src_dtype).name, numpy.dtype(work_dtype).name, family)
    return tuple(_get(key, lambda: spline_source(src_dtype, work_dtype, family), nm) for nm in SPLINE_NAMES)


def params(kind, ndim, ondim, values=None):
    """The kernel's parameter struct (ca_params) as a NumPy structured scalar, passed by value."""
    n = {'map': 1, 'affine': ndim * ondim + ndim, 'zoomshift': 2 * ndim}[kind]
    p = numpy.zeros((), dtype=[('v', numpy.float64, (n,))])
    if values is not None:
        p['v'] = numpy.asarray(values, numpy.float64).ravel()
    return p[()]


def transform_kernel(kind, ndim, ondim, order, mode, in_dtype, out_dtype, work_dtype, coord_dtype=None,
                     idx64=False, batch=False, has_zoom=False, has_shift=False, grid_mode=False):
    key = ('transform', kind, ndim, ondim, order, mode, numpy.dtype(in_dtype).name, numpy.dtype(out_dtype).name,
           numpy.dtype(work_dtype).name, None if coord_dtype is None else numpy.dtype(coord_dtype).name, idx64,
           batch, has_zoom, has_shift, grid_mode)
    return _get(key, lambda: transform_source(kind, ndim, ondim, order, mode, in_dtype, out_dtype, work_dtype,
                                              coord_dtype, idx64, batch, has_zoom, has_shift, grid_mode),
                'ca_transform')


def fourier_kernel(kind, ndim, in_dtype, out_dtype):
    key = ('fourier', kind, ndim, numpy.dtype(in_dtype).name, numpy.dtype(out_dtype).name)
    return _get(key, lambda: fourier_source(kind, ndim, in_dtype, out_dtype), 'ca_fourier')
