"""Generated CUDA kernels of cuarray.scipy.spatial.Delaunay and the 2-D scattered interpolators: point location,
linear and Clough-Tocher evaluation, global gradient estimation."""
import numpy

from cuarray._kernel import RawKernel

# Note [triangle location]
# Every query point is located by one thread. The walk starts at the triangle that a uniform grid over the
# bounding box assigns to the point's cell (Delaunay._grid, built on the host), then follows SciPy's directed
# walk: for k = 0, 1, 2 compute the barycentric coordinate c[k] from the simplex's transform; below -eps move
# to neighbour k (none: the point is outside the convex hull, -1); above 1 + eps, or NaN (a degenerate
# simplex), give up and search every simplex. A walk longer than 1 + nsimplex / 4 steps also falls back to the
# full search, which is SciPy's brute force (a simplex with a NaN transform is replaced by a check of its
# neighbours with the wider eps_broad towards it). Points outside the bounding box widened by eps, and NaN
# points, read -1, as in SciPy. Sums are written in SciPy's order and the kernels are compiled without FMA
# contraction (--fmad=false), so results agree with SciPy's to rounding of the same operations.
_SRC = r"""
#define CA_TRI_ARGS const double* __restrict__ P, const int* __restrict__ S, const int* __restrict__ N, \
    const double* __restrict__ T, long long ns, const int* __restrict__ cell, const double* __restrict__ geo, \
    int gx, int gy

struct ca_tri {
  const double* P; const int* S; const int* N; const double* T; long long ns; const int* cell;
  const double* geo; int gx; int gy;
};

__device__ __forceinline__ void ca_tri_bary(const double* tr, double x, double y, double* c) {
  c[0] = tr[0] * (x - tr[4]) + tr[1] * (y - tr[5]);
  c[1] = tr[2] * (x - tr[4]) + tr[3] * (y - tr[5]);
  c[2] = 1.0 - c[0] - c[1];
}

__device__ __forceinline__ int ca_tri_inside(const double* tr, double x, double y, double* c, double eps) {
  ca_tri_bary(tr, x, y, c);
  for (int k = 0; k < 3; ++k)
    if (!(-eps <= c[k] && c[k] <= 1 + eps)) return 0;
  return 1;
}

__device__ int ca_tri_brute(const ca_tri& d, double x, double y, double eps, double eps_broad, double* c) {
  for (long long s = 0; s < d.ns; ++s) {
    const double* tr = d.T + 6 * s;
    if (tr[0] == tr[0]) {
      if (ca_tri_inside(tr, x, y, c, eps)) return (int)s;
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      const int nb = d.N[3 * s + k];
      if (nb == -1) continue;
      const double* tn = d.T + 6 * (long long)nb;
      if (tn[0] != tn[0]) continue;
      ca_tri_bary(tn, x, y, c);
      int ok = 1;
      for (int m = 0; m < 3; ++m) {
        const double lo = d.N[3 * (long long)nb + m] == s ? -eps_broad : -eps;
        if (!(lo <= c[m] && c[m] <= 1 + eps)) { ok = 0; break; }
      }
      if (ok) return nb;
    }
  }
  return -1;
}

__device__ int ca_tri_locate(const ca_tri& d, double x, double y, double eps, double eps_broad, int brute,
                             double* c) {
  if (x < d.geo[0] - eps || x > d.geo[2] + eps || y < d.geo[1] - eps || y > d.geo[3] + eps) return -1;
  if (d.ns <= 0 || x != x || y != y) return -1;
  if (brute) return ca_tri_brute(d, x, y, eps, eps_broad, c);
  double fx = (x - d.geo[4]) * d.geo[6], fy = (y - d.geo[5]) * d.geo[7];
  if (!(fx >= 0)) fx = 0;
  if (fx > d.gx - 1) fx = d.gx - 1;
  if (!(fy >= 0)) fy = 0;
  if (fy > d.gy - 1) fy = d.gy - 1;
  long long s = d.cell[(long long)fy * d.gx + (long long)fx];
  if (s < 0 || s >= d.ns) s = 0;
  for (long long step = 0; step < 1 + d.ns / 4; ++step) {
    const double* tr = d.T + 6 * s;
    int inside = 1;
    for (int k = 0; k < 3; ++k) {
      if (k < 2) c[k] = tr[2 * k] * (x - tr[4]) + tr[2 * k + 1] * (y - tr[5]);
      else c[2] = 1.0 - c[0] - c[1];
      if (c[k] < -eps) {
        const int m = d.N[3 * s + k];
        if (m == -1) return -1;
        s = m;
        inside = -1;
        break;
      }
      if (!(c[k] <= 1 + eps)) inside = 0;
    }
    if (inside == -1) continue;
    if (inside == 1) return (int)s;
    break;
  }
  return ca_tri_brute(d, x, y, eps, eps_broad, c);
}

extern "C" __global__ void ca_tri_find(CA_TRI_ARGS, const double* __restrict__ xq, long long nq, double eps,
                                       double eps_broad, int brute, int* __restrict__ out) {
  const ca_tri d = {P, S, N, T, ns, cell, geo, gx, gy};
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nq;
       i += (long long)blockDim.x * gridDim.x) {
    double c[3];
    out[i] = ca_tri_locate(d, xq[2 * i], xq[2 * i + 1], eps, eps_broad, brute, c);
  }
}

// Barycentric interpolation of nv real columns; a complex column is two real ones (cplx: odd columns hold the
// imaginary parts, so they take fill_im).
extern "C" __global__ void ca_tri_linear(CA_TRI_ARGS, const double* __restrict__ xq, long long nq, double eps,
                                         double eps_broad, const double* __restrict__ vals, long long nv,
                                         double fill_re, double fill_im, int cplx, double* __restrict__ out) {
  const ca_tri d = {P, S, N, T, ns, cell, geo, gx, gy};
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nq;
       i += (long long)blockDim.x * gridDim.x) {
    double c[3];
    const int s = ca_tri_locate(d, xq[2 * i], xq[2 * i + 1], eps, eps_broad, 0, c);
    for (long long k = 0; k < nv; ++k) {
      if (s == -1) { out[i * nv + k] = (cplx && (k & 1)) ? fill_im : fill_re; continue; }
      double acc = 0.0;
      for (int j = 0; j < 3; ++j) acc = acc + c[j] * vals[(long long)S[3 * (long long)s + j] * nv + k];
      out[i * nv + k] = acc;
    }
  }
}

// Note [Clough-Tocher patch]
// The cubic Bezier ordinates of the three micro-triangles follow from the vertex values and gradients; the
// cross-boundary derivative on each edge is taken along the line between this triangle's centroid and the
// neighbour's (half the direction to the opposite vertex on the hull), which keeps the interpolant C1 and
// affine invariant. The point is evaluated with extended barycentric coordinates (b - min b, 3 min b).
__device__ double ca_tri_ct(const ca_tri& d, long long s, const double* b, const double* f, const double* df) {
  const long long v0 = d.S[3 * s], v1 = d.S[3 * s + 1], v2 = d.S[3 * s + 2];
  const double e12x = d.P[2 * v1] - d.P[2 * v0], e12y = d.P[2 * v1 + 1] - d.P[2 * v0 + 1];
  const double e23x = d.P[2 * v2] - d.P[2 * v1], e23y = d.P[2 * v2 + 1] - d.P[2 * v1 + 1];
  const double e31x = d.P[2 * v0] - d.P[2 * v2], e31y = d.P[2 * v0 + 1] - d.P[2 * v2 + 1];
  const double f1 = f[0], f2 = f[1], f3 = f[2];
  const double df12 = +(df[0] * e12x + df[1] * e12y), df21 = -(df[2] * e12x + df[3] * e12y);
  const double df23 = +(df[2] * e23x + df[3] * e23y), df32 = -(df[4] * e23x + df[5] * e23y);
  const double df31 = +(df[4] * e31x + df[5] * e31y), df13 = -(df[0] * e31x + df[1] * e31y);
  const double c3000 = f1, c0300 = f2, c0030 = f3;
  const double c2100 = (df12 + 3 * c3000) / 3, c2010 = (df13 + 3 * c3000) / 3;
  const double c1200 = (df21 + 3 * c0300) / 3, c0210 = (df23 + 3 * c0300) / 3;
  const double c1020 = (df31 + 3 * c0030) / 3, c0120 = (df32 + 3 * c0030) / 3;
  const double c2001 = (c2100 + c2010 + c3000) / 3;
  const double c0201 = (c1200 + c0300 + c0210) / 3;
  const double c0021 = (c1020 + c0120 + c0030) / 3;
  double g[3];
  for (int k = 0; k < 3; ++k) {
    const long long t = d.N[3 * s + k];
    if (t == -1) { g[k] = -1.0 / 2; continue; }
    const long long a = d.S[3 * t], bb = d.S[3 * t + 1], cc = d.S[3 * t + 2];
    const double yx = (d.P[2 * a] + d.P[2 * bb] + d.P[2 * cc]) / 3;
    const double yy = (d.P[2 * a + 1] + d.P[2 * bb + 1] + d.P[2 * cc + 1]) / 3;
    double c[3];
    ca_tri_bary(d.T + 6 * s, yx, yy, c);
    const int p = (k + 2) % 3, q = (k + 1) % 3;
    g[k] = (2 * c[p] + c[q] - 1) / (2 - 3 * c[p] - 3 * c[q]);
  }
  const double c0111 = (g[0] * (-c0300 + 3 * c0210 - 3 * c0120 + c0030) +
                        (-c0300 + 2 * c0210 - c0120 + c0021 + c0201)) / 2;
  const double c1011 = (g[1] * (-c0030 + 3 * c1020 - 3 * c2010 + c3000) +
                        (-c0030 + 2 * c1020 - c2010 + c2001 + c0021)) / 2;
  const double c1101 = (g[2] * (-c3000 + 3 * c2100 - 3 * c1200 + c0300) +
                        (-c3000 + 2 * c2100 - c1200 + c2001 + c0201)) / 2;
  const double c1002 = (c1101 + c1011 + c2001) / 3;
  const double c0102 = (c1101 + c0111 + c0201) / 3;
  const double c0012 = (c1011 + c0111 + c0021) / 3;
  const double c0003 = (c1002 + c0102 + c0012) / 3;
  double mn = b[0];
  for (int k = 0; k < 3; ++k) if (b[k] < mn) mn = b[k];
  const double b1 = b[0] - mn, b2 = b[1] - mn, b3 = b[2] - mn, b4 = 3 * mn;
  return (b1 * b1 * b1 * c3000 + 3 * (b1 * b1) * b2 * c2100 + 3 * (b1 * b1) * b3 * c2010 +
          3 * (b1 * b1) * b4 * c2001 + 3 * b1 * (b2 * b2) * c1200 +
          6 * b1 * b2 * b4 * c1101 + 3 * b1 * (b3 * b3) * c1020 + 6 * b1 * b3 * b4 * c1011 +
          3 * b1 * (b4 * b4) * c1002 + b2 * b2 * b2 * c0300 + 3 * (b2 * b2) * b3 * c0210 +
          3 * (b2 * b2) * b4 * c0201 + 3 * b2 * (b3 * b3) * c0120 + 6 * b2 * b3 * b4 * c0111 +
          3 * b2 * (b4 * b4) * c0102 + b3 * b3 * b3 * c0030 + 3 * (b3 * b3) * b4 * c0021 +
          3 * b3 * (b4 * b4) * c0012 + b4 * b4 * b4 * c0003);
}

// grad has shape (npoints, nv, 2); columns as in ca_tri_linear.
extern "C" __global__ void ca_tri_clough(CA_TRI_ARGS, const double* __restrict__ xq, long long nq, double eps,
                                         double eps_broad, const double* __restrict__ vals,
                                         const double* __restrict__ grad, long long nv, double fill_re,
                                         double fill_im, int cplx, double* __restrict__ out) {
  const ca_tri d = {P, S, N, T, ns, cell, geo, gx, gy};
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nq;
       i += (long long)blockDim.x * gridDim.x) {
    double c[3];
    const int s = ca_tri_locate(d, xq[2 * i], xq[2 * i + 1], eps, eps_broad, 0, c);
    for (long long k = 0; k < nv; ++k) {
      if (s == -1) { out[i * nv + k] = (cplx && (k & 1)) ? fill_im : fill_re; continue; }
      double f[3], df[6];
      for (int j = 0; j < 3; ++j) {
        const long long v = S[3 * (long long)s + j];
        f[j] = vals[v * nv + k];
        df[2 * j] = grad[(v * nv + k) * 2];
        df[2 * j + 1] = grad[(v * nv + k) * 2 + 1];
      }
      out[i * nv + k] = ca_tri_ct(d, s, c, f, df);
    }
  }
}

// Note [global gradient estimation]
// SciPy's Gauss-Seidel minimisation of the curvature of the Clough-Tocher interpolant along the edges (Nielson;
// Renka & Cline): a sweep updates the vertices in index order, each from the newest gradients of its
// neighbours, so the sweep is inherently sequential. One thread runs one value column through all its sweeps,
// exactly as SciPy does (same order, same stopping rule: the largest relative change below tol), so the
// estimates match SciPy's to rounding rather than to the tolerance. iters[k] is the sweep count, or 0 when
// maxiter sweeps did not converge. The max(a, b) below keeps a when b is NaN, like Cython's max.
extern "C" __global__ void ca_tri_gradients(const double* __restrict__ P, const int* __restrict__ indptr,
                                            const int* __restrict__ indices, long long npts,
                                            const double* __restrict__ vals, long long nv, int maxiter,
                                            double tol, double* __restrict__ grad, int* __restrict__ iters) {
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < nv;
       k += (long long)blockDim.x * gridDim.x) {
    for (long long i = 0; i < npts; ++i) {
      grad[(i * nv + k) * 2] = 0.0;
      grad[(i * nv + k) * 2 + 1] = 0.0;
    }
    int done = 0;
    for (int it = 0; it < maxiter; ++it) {
      double err = 0;
      for (long long i = 0; i < npts; ++i) {
        double q0 = 0, q1 = 0, q3 = 0, s0 = 0, s1 = 0;
        const double f1 = vals[i * nv + k];
        for (int j = indptr[i]; j < indptr[i + 1]; ++j) {
          const long long i2 = indices[j];
          const double ex = P[2 * i2] - P[2 * i], ey = P[2 * i2 + 1] - P[2 * i + 1];
          const double L = sqrt(ex * ex + ey * ey);
          const double L3 = L * L * L;
          const double f2 = vals[i2 * nv + k];
          const double df2 = -ex * grad[(i2 * nv + k) * 2] - ey * grad[(i2 * nv + k) * 2 + 1];
          q0 += 4 * ex * ex / L3;
          q1 += 4 * ex * ey / L3;
          q3 += 4 * ey * ey / L3;
          s0 += (6 * (f1 - f2) - 2 * df2) * ex / L3;
          s1 += (6 * (f1 - f2) - 2 * df2) * ey / L3;
        }
        const double q2 = q1;
        const double det = q0 * q3 - q1 * q2;
        const double r0 = (q3 * s0 - q1 * s1) / det;
        const double r1 = (-q2 * s0 + q0 * s1) / det;
        const double a0 = fabs(grad[(i * nv + k) * 2] + r0), a1 = fabs(grad[(i * nv + k) * 2 + 1] + r1);
        double change = a1 > a0 ? a1 : a0;
        grad[(i * nv + k) * 2] = -r0;
        grad[(i * nv + k) * 2 + 1] = -r1;
        const double m0 = fabs(r0), m1 = fabs(r1);
        const double mr = m1 > m0 ? m1 : m0;
        change /= (mr > 1.0 ? mr : 1.0);
        err = change > err ? change : err;
      }
      if (err < tol) { done = it + 1; break; }
    }
    iters[k] = done;
  }
}
"""

NAMES = ('ca_tri_find', 'ca_tri_linear', 'ca_tri_clough', 'ca_tri_gradients')
OPTIONS = ('--fmad=false',)
THREADS = 128
_cache = {}


def source():
    return _SRC


def kernel(name):
    k = _cache.get(name)
    if k is None:
        k = _cache[name] = RawKernel(_SRC, name, options=OPTIONS)
    return k


def blocks(n):
    return int(max(1, min((n + THREADS - 1) // THREADS, 65535 * 16)))


i64 = numpy.int64
i32 = numpy.int32
f64 = numpy.float64
