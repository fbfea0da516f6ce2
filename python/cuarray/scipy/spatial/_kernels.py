"""Generated CUDA kernels of cuarray.scipy.spatial: tiled pairwise distances, Mahalanobis, k-nearest selection."""
import numpy

from cuarray._kernel import RawKernel

# Note [distance tile kernel]
# One kernel body serves every metric: per pair it keeps up to four double accumulators a0..a3, STEP adds one
# feature's contribution (u from the row of A, v from the row of B, w the feature's weight, ra/rb a per-row
# auxiliary value such as a row sum), FIN turns them into the distance r. A block computes a TILE x TILE tile of
# the output; the feature axis is walked in chunks of TILE columns staged in shared memory, so every input
# element is read from global memory once per tile instead of once per pair. pdist runs the same kernel on
# (X, X), skips tiles below the diagonal (a block-uniform test, so __syncthreads stays safe) and writes the
# condensed index. Tiles are visited in a grid-stride loop: host emulation (tests/python/_spatial_host.py)
# compiles TILE=1 and runs one thread, which then walks every pair.
_DIST = r"""
#define TILE {tile}
extern "C" __global__ void ca_dist(const double* __restrict__ A, const double* __restrict__ B,
    const double* __restrict__ W, const double* __restrict__ RA, const double* __restrict__ RB,
    double* __restrict__ out, long long ma, long long mb, long long n, double p, int pdist) {{
  __shared__ double sa[TILE][TILE + 1];
  __shared__ double sb[TILE][TILE + 1];
  __shared__ double sw[TILE];
  const long long ta = (ma + TILE - 1) / TILE, tb = (mb + TILE - 1) / TILE;
  const int ty = threadIdx.y, tx = threadIdx.x;
  for (long long t = blockIdx.x; t < ta * tb; t += gridDim.x) {{
    const long long ti = t / tb, tj = t % tb;
    if (pdist && tj < ti) continue;
    const long long i = ti * TILE + ty, j = tj * TILE + tx;
    const double ra = i < ma ? RA[i] : 0.0, rb = j < mb ? RB[j] : 0.0;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    for (long long k0 = 0; k0 < n; k0 += TILE) {{
      const long long ia = ti * TILE + ty, ib = tj * TILE + ty, k = k0 + tx;
      sa[ty][tx] = (ia < ma && k < n) ? A[ia * n + k] : 0.0;
      sb[ty][tx] = (ib < mb && k < n) ? B[ib * n + k] : 0.0;
      if (ty == 0) sw[tx] = k < n ? W[k] : 0.0;
      __syncthreads();
      const int kmax = n - k0 < TILE ? (int)(n - k0) : TILE;
      for (int kk = 0; kk < kmax; ++kk) {{
        const double u = sa[ty][kk], v = sb[tx][kk], w = sw[kk];
        {step}
      }}
      __syncthreads();
    }}
    if (i < ma && j < mb && (!pdist || j > i)) {{
      double r;
      {fin}
      const long long o = pdist ? ma * i + j - ((i + 2) * (i + 1)) / 2 : i * mb + j;
      out[o] = r;
    }}
  }}
}}
"""

_REL_ENTR = r"""
__device__ __forceinline__ double ca_rel_entr(double x, double y) {
  if (x > 0 && y > 0) return x * log(x / y);
  if (x == 0 && y >= 0) return 0.0;
  return 1.0 / 0.0;
}
"""

# STEP and FIN per metric (Note [distance tile kernel]). Definitions follow scipy.spatial.distance's cdist: a
# zero denominator in canberra's term counts as 0, jaccard of two all-zero rows is 0, cosine/correlation are
# clipped to [0, 2] (NaN kept), yule is 0 when ntf * nft == 0.
_ABS = "const double d = fabs(u - v);"
_PBOX = ("double d = fabs(u - v);"
         "if (w > 0) { d = fmod(d, w); if (d > w - d) d = w - d; }")
METRICS = {
    'euclidean': (_ABS + "a0 += w * (d * d);", "r = sqrt(a0);"),
    'sqeuclidean': ("const double d = u - v; a0 += w * d * d;", "r = a0;"),
    'cityblock': (_ABS + "a0 += w * d;", "r = a0;"),
    'minkowski': (_ABS + "a0 += w * pow(d, p);", "r = pow(a0, 1.0 / p);"),
    'chebyshev': (_ABS + "if (w > 0 && d > a0) a0 = d;", "r = a0;"),
    'canberra': (_ABS + "const double den = fabs(u) + fabs(v); a0 += w * d / (den + (den == 0));", "r = a0;"),
    'braycurtis': (_ABS + "a0 += w * d; a1 += w * fabs(u + v);", "r = a0 / a1;"),
    'cosine': ("a0 += w * u * v; a1 += w * u * u; a2 += w * v * v;",
               "r = 1.0 - a0 / sqrt(a1 * a2); if (r < 0) r = 0; if (r > 2) r = 2;"),
    'hamming': ("a0 += w * (u != v); a1 += w;", "r = a0 / a1;"),
    'jaccard': ("const bool nz = (u != 0) || (v != 0); a0 += w * (nz && u != v); a1 += w * nz;",
                "r = a1 != 0 ? a0 / a1 : 0.0;"),
    # unweighted dice keeps SciPy's fractional counts for non-boolean data: ntt = sum u v, ntf + nft = sum u(1-v) + (1-u)v.
    'dice': ("a0 += w * u * v; a1 += w * (u * (1 - v) + (1 - u) * v);", "r = a1 / (2 * a0 + a1);"),
    # ... but with weights SciPy counts exact mismatches and pairs of nonzeros.
    'dice_w': ("a0 += w * (u != 0 && v != 0); a1 += w * (u != v);", "r = a1 / (2 * a0 + a1);"),
    'rogerstanimoto': ("a0 += w * ((u != 0) != (v != 0)); a1 += w;", "r = 2 * a0 / (a1 + a0);"),
    'russellrao': ("a0 += w * (u != 0 && v != 0); a1 += w;", "r = (a1 - a0) / a1;"),
    'sokalsneath': ("a0 += w * ((u != 0) != (v != 0)); a1 += w * (u != 0 && v != 0);",
                    "r = 2 * a0 / (a1 + 2 * a0);"),
    'yule': ("const bool bu = u != 0, bv = v != 0; a0 += w * (bu && bv); a1 += w * (bu && !bv);"
             "a2 += w * (!bu && bv); a3 += w * (!bu && !bv);",
             "const double h = a1 * a2; r = h == 0 ? 0.0 : 2 * h / (a0 * a3 + h);"),
    # ra, rb: the rows' sums (each row is normalised to a probability vector first).
    'jensenshannon': ("const double pu = u / ra, pv = v / rb, m = (pu + pv) / 2;"
                      "a0 += ca_rel_entr(pu, m) + ca_rel_entr(pv, m);", "r = sqrt(a0 / 2.0);"),
    # w holds 1 / V.
    'seuclidean': ("const double d = u - v; a0 += d * d * w;", "r = sqrt(a0);"),
    # KDTree's periodic box (w = the box length of the feature, 0 = not periodic): the shorter way around.
    'pbox_euclidean': (_PBOX + "a0 += d * d;", "r = sqrt(a0);"),
    'pbox_cityblock': (_PBOX + "a0 += d;", "r = a0;"),
    'pbox_minkowski': (_PBOX + "a0 += pow(d, p);", "r = pow(a0, 1.0 / p);"),
    'pbox_chebyshev': (_PBOX + "if (d > a0) a0 = d;", "r = a0;"),
    # CuPy's extra metrics (cuVS definitions).
    'hellinger': ("const double d = sqrt(u) - sqrt(v); a0 += d * d;", "r = sqrt(a0) / sqrt(2.0);"),
    'kl_divergence': ("a0 += u == 0 ? 0.0 : u * log(u / v);", "r = a0;"),
}

# (u - v) VI (u - v)^T for one pair per thread; the per-pair cost is O(n^2), as in SciPy's own loop.
_MAHAL = r"""
extern "C" __global__ void ca_mahalanobis(const double* __restrict__ A, const double* __restrict__ B,
    const double* __restrict__ VI, double* __restrict__ out, long long ma, long long mb, long long n) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < ma * mb;
       t += (long long)blockDim.x * gridDim.x) {
    const long long i = t / mb, j = t % mb;
    const double* a = A + i * n;
    const double* b = B + j * n;
    double s = 0.0;
    for (long long k = 0; k < n; ++k) {
      double row = 0.0;
      for (long long l = 0; l < n; ++l) row += VI[k * n + l] * (a[l] - b[l]);
      s += (a[k] - b[k]) * row;
    }
    out[t] = sqrt(s);
  }
}
"""

# Per query row: the k smallest distances of one row of a distance matrix (ties keep the lower index first),
# by insertion into a sorted list of length k held in global scratch; entries above `bound` are skipped.
_KSMALL = r"""
extern "C" __global__ void ca_ksmallest(const double* __restrict__ D, double* __restrict__ dout,
    long long* __restrict__ iout, long long rows, long long cols, long long k, double bound, int strict) {
  for (long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x; r < rows;
       r += (long long)blockDim.x * gridDim.x) {
    double* dd = dout + r * k;
    long long* ii = iout + r * k;
    long long cnt = 0;
    for (long long c = 0; c < cols; ++c) {
      const double v = D[r * cols + c];
      if (!(strict ? v < bound : v <= bound)) continue;
      if (cnt == k && !(v < dd[k - 1])) continue;
      long long pos = cnt < k ? cnt : k - 1;
      while (pos > 0 && dd[pos - 1] > v) {
        dd[pos] = dd[pos - 1];
        ii[pos] = ii[pos - 1];
        --pos;
      }
      dd[pos] = v;
      ii[pos] = c;
      if (cnt < k) ++cnt;
    }
    for (long long q = cnt; q < k; ++q) {
      dd[q] = 1.0 / 0.0;
      ii[q] = cols;
    }
  }
}
"""

TILE = 16
THREADS = 256
_cache = {}


def dist_source(metric, tile=TILE):
    step, fin = METRICS[metric]
    pre = _REL_ENTR if metric == 'jensenshannon' else ''
    return pre + _DIST.format(tile=tile, step=step, fin=fin)


def mahalanobis_source():
    return _MAHAL


def ksmallest_source():
    return _KSMALL


def _get(key, make, name):
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(make(), name)
    return k


def dist_kernel(metric):
    return _get(('dist', metric), lambda: dist_source(metric), 'ca_dist')


def mahalanobis_kernel():
    return _get(('mahal',), mahalanobis_source, 'ca_mahalanobis')


def ksmallest_kernel():
    return _get(('ksmall',), ksmallest_source, 'ca_ksmallest')


def blocks(n, threads=THREADS):
    return int(max(1, min((n + threads - 1) // threads, 65535 * 16)))


def tile_grid(ma, mb):
    nt = ((ma + TILE - 1) // TILE) * ((mb + TILE - 1) // TILE)
    return int(max(1, min(nt, 65535 * 16)))


i64 = numpy.int64
f64 = numpy.float64
i32 = numpy.int32
