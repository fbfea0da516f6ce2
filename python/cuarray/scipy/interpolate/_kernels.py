"""Generated CUDA kernels of cuarray.scipy.interpolate: piecewise-polynomial and B-spline evaluation."""
import numpy

from cuarray._kernel import RawKernel

# Note [interpolate kernels]
# Evaluation runs one thread per (point, column) pair: the point's interval is found by binary search over the
# breakpoints (knots), then the local polynomial is evaluated. Coefficients are float64 and C-contiguous with
# the trailing dimensions flattened into `ncols`; complex coefficients are evaluated as two real launches.
# A point outside the base interval reads NaN unless `extrapolate`; a NaN point reads NaN.

# PPoly: c has shape (k, m, ncols), x has m + 1 breakpoints, ascending (desc = 0) or descending (desc = 1).
# SciPy's interval rule: x[i] <= xp < x[i+1], the last interval closed on the right.
_PPOLY = r"""
extern "C" __global__ void ca_ppoly(const double* __restrict__ bp, const double* __restrict__ c,
    const double* __restrict__ xp, double* __restrict__ out, long long m, long long k, long long ncols,
    long long n, int nu, int extrapolate, int desc) {
  const double nan = 0.0 / 0.0;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n * ncols;
       t += (long long)blockDim.x * gridDim.x) {
    const long long pt = t / ncols, col = t % ncols;
    const double xv = xp[pt];
    const double s0 = desc ? -bp[0] : bp[0], sm = desc ? -bp[m] : bp[m], xs = desc ? -xv : xv;
    if (xv != xv || (!extrapolate && (xs < s0 || xs > sm))) { out[t] = nan; continue; }
    long long lo = 0, hi = m - 1;
    while (lo < hi) {
      const long long mid = (lo + hi + 1) / 2;
      const double b = desc ? -bp[mid] : bp[mid];
      if (b <= xs) lo = mid; else hi = mid - 1;
    }
    const double s = xv - bp[lo];
    double acc = 0.0;
    for (long long j = 0; j < k; ++j) {
      const long long p = k - 1 - j;
      if (p < nu) break;
      double f = 1.0;
      for (long long q = 0; q < nu; ++q) f *= (double)(p - q);
      double pw = 1.0;
      for (long long q = 0; q < p - nu; ++q) pw *= s;
      acc += c[(j * m + lo) * ncols + col] * f * pw;
    }
    out[t] = acc;
  }
}
"""

# BSpline of degree K: knots t (nt), coefficients c (nc >= nt - K - 1 rows, ncols). Derivatives by differencing
# the K + 1 local coefficients, value by de Boor's recursion (Note [interpolate kernels]).
_BSPL = r"""
#define K {k}
extern "C" __global__ void ca_bspline(const double* __restrict__ tk, const double* __restrict__ c,
    const double* __restrict__ xp, double* __restrict__ out, long long nt, long long ncols, long long n,
    int nu, int extrapolate) {{
  const double nan = 0.0 / 0.0;
  const long long nb = nt - K - 1;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n * ncols;
       t += (long long)blockDim.x * gridDim.x) {{
    const long long pt = t / ncols, col = t % ncols;
    const double x = xp[pt];
    if (x != x || (!extrapolate && (x < tk[K] || x > tk[nb]))) {{ out[t] = nan; continue; }}
    long long lo = K, hi = nb - 1;
    while (lo < hi) {{
      const long long mid = (lo + hi + 1) / 2;
      if (tk[mid] <= x) lo = mid; else hi = mid - 1;
    }}
    const long long l = lo;
    double e[K + 1];
    for (int j = 0; j <= K; ++j) e[j] = c[(l - K + j) * ncols + col];
    if (nu > K) {{ out[t] = 0.0; continue; }}
    for (int r = 1; r <= nu; ++r) {{
      const int p = K - r + 1;
      for (int j = K; j >= r; --j) {{
        const double den = tk[l - K + j + p] - tk[l - K + j];
        e[j] = den != 0 ? p * (e[j] - e[j - 1]) / den : 0.0;
      }}
    }}
    const int q = K - nu;
    double* f = e + nu;
    for (int r = 1; r <= q; ++r) {{
      for (int j = q; j >= r; --j) {{
        const double den = tk[l + 1 + j - r] - tk[l - q + j];
        const double a = den != 0 ? (x - tk[l - q + j]) / den : 0.0;
        f[j] = (1.0 - a) * f[j - 1] + a * f[j];
      }}
    }}
    out[t] = f[q];
  }}
}}
"""

THREADS = 256
_cache = {}


def source(key):
    if key[0] == 'ppoly':
        return _PPOLY
    return _BSPL.format(k=key[1])


def entry(key):
    return 'ca_ppoly' if key[0] == 'ppoly' else 'ca_bspline'


def kernel(key):
    k = _cache.get(key)
    if k is None:
        k = _cache[key] = RawKernel(source(key), entry(key))
    return k


def blocks(n):
    return int(max(1, min((n + THREADS - 1) // THREADS, 65535 * 16)))


i64 = numpy.int64
i32 = numpy.int32
