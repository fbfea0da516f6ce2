"""CUDA device functions of cuarray.scipy.special's second set of ufuncs (inverses, distributions, integrals,
elliptic, Legendre, Lambert W, Wright's Bessel and the complex gamma family); appended to _device.PREAMBLE."""

# Conventions as in _device.py: double-precision __device__ functions named cas_*; float loops call them and
# round once. Complex code works on ca_complex<double> (ca_types.cuh) and the ca_c_* functions of
# ca_complex_math.cuh. Algorithms are the textbook ones named at each function (series, continued fractions
# evaluated by the modified Lentz method, Carlson's duplication, the AGM, Halley's iteration).
PREAMBLE_MORE = r"""
typedef ca_complex<double> cas_z;
#define CAS_EPS 1.1102230246251565e-16

// ---- inverses of the regularised incomplete gamma and beta functions ----------------------------------------
// A rough normal quantile for 0 < p <= 1/2 (Abramowitz & Stegun 26.2.22): only a starting point.
__device__ double cas_zguess(double p) {
  double t = sqrt(-2.0 * log(p));
  return -(t - (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)));
}
// x with P(a, x) = y (upper false) or Q(a, x) = y (upper true). Halley's iteration on the function whose value
// is given, kept inside a bracket that every step narrows (a step leaving it bisects instead), so that it
// converges from any start; the start is Wilson-Hilferty's cube (a > 1) or the small-x power law.
__device__ double cas_igam_inv(double a, double y, bool upper) {
  double p = upper ? 1.0 - y : y, q = upper ? y : 1.0 - y;
  double lga = lgamma(a), x;
  if (a > 1.0) {
    double z = p < 0.5 ? cas_zguess(p) : -cas_zguess(q);
    double t = 1.0 / (9.0 * a);
    x = a * pow(fmax(1.0 - t + z * sqrt(t), 1e-3), 3.0);
  } else {
    double t = 1.0 - a * (0.253 + a * 0.12);
    if (p < t) x = pow(p / t, 1.0 / a);
    else x = 1.0 - log(q / (1.0 - t));
  }
  if (!(x > 0)) x = 1e-300;
  // small targets: Newton on log F (F = P or Q), well scaled where F and its derivative underflow together
  bool logs = y < 0.1;
  double ly = log(y), sgn = upper ? -1.0 : 1.0;
  double lo = 0.0, hi = cas_inf();
  for (int it = 0; it < 300; ++it) {
    double F = upper ? cas_gammaincc(a, x) : cas_gammainc(a, x);
    double f = sgn * (logs ? log(F) - ly : F - y);  // increasing in x
    if (f == 0) return x;
    if (f < 0) lo = x; else hi = x;
    double d = exp((a - 1.0) * log(x) - x - lga), xn = -1.0;  // dP/dx = -dQ/dx
    if (logs) {
      if (F > 0 && isfinite(f)) xn = x - f * F / d;
    } else if (d > 0 && isfinite(d)) {
      double u = f / d;
      double h = u * ((a - 1.0) / x - 1.0);  // Halley: f''/f' times the Newton step
      if (fabs(h) < 1.0) u = u / (1.0 - 0.5 * h);
      xn = x - u;
    }
    if (!(xn > lo && xn < hi)) {
      // bisection, geometric across wide brackets
      if (isinf(hi)) xn = fmax(4.0 * x, x + 1.0);
      else if (lo == 0) xn = 0.0625 * hi;
      else xn = hi > 4.0 * lo ? sqrt(lo * hi) : 0.5 * (lo + hi);
    }
    if (fabs(xn - x) <= 2.0 * CAS_EPS * xn || (!isinf(hi) && hi - lo <= 2.0 * CAS_EPS * hi)) return xn;
    x = xn;
  }
  return x;
}
__device__ double cas_gammaincinv(double a, double y) {
  if (isnan(a) || isnan(y) || a < 0 || y < 0 || y > 1) return cas_nan();
  if (y == 0) return 0.0;
  if (y == 1) return cas_inf();
  if (a == 0 || isinf(a)) return cas_nan();
  if (a > 1e32) return a;  // relative width 1/sqrt(a) of the distribution is below rounding
  return cas_igam_inv(a, y, false);
}
__device__ double cas_gammainccinv(double a, double y) {
  if (isnan(a) || isnan(y) || a < 0 || y < 0 || y > 1) return cas_nan();
  if (y == 0) return cas_inf();
  if (y == 1) return 0.0;
  if (a == 0 || isinf(a)) return cas_nan();
  if (a > 1e32) return a;
  return cas_igam_inv(a, y, true);
}
// x with I_x(a, b) = y: Halley's iteration bracketed in [0, 1]; the start is the normal approximation of
// Abramowitz & Stegun 26.5.22 for a, b >= 1, else the two power laws near 0 and 1.
__device__ double cas_betaincinv(double a, double b, double y) {
  if (isnan(a) || isnan(b) || isnan(y) || a <= 0 || b <= 0 || y < 0 || y > 1) return cas_nan();
  if (y == 0) return 0.0;
  if (y == 1) return 1.0;
  if (isinf(a) || isinf(b)) return cas_nan();
  double x;
  double lbeta = lgamma(a) + lgamma(b) - lgamma(a + b);
  if (a >= 1 && b >= 1) {
    double z = y < 0.5 ? cas_zguess(y) : -cas_zguess(1.0 - y);
    double al = (z * z - 3.0) / 6.0, h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0));
    double w = z * sqrt(al + h) / h - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (al + 5.0 / 6.0 - 2.0 / (3.0 * h));
    x = a / (a + b * exp(2.0 * w));
  } else {
    double lna = log(a / (a + b)), lnb = log(b / (a + b));
    double t = exp(a * lna - lbeta) / a, u = exp(b * lnb - lbeta) / b;
    if (y < t / (t + u) * 1.0) x = exp((log(a * y) + lbeta) / a);
    else x = -expm1((log(b * (1.0 - y)) + lbeta) / b);
  }
  if (!(x > 0 && x < 1)) x = 0.5;
  bool logs = y < 0.1;
  double ly = log(y);
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < 300; ++it) {
    double F = cas_betainc(a, b, x);
    double f = logs ? log(F) - ly : F - y;
    if (f == 0) return x;
    if (f < 0) lo = x; else hi = x;
    double d = exp((a - 1.0) * log(x) + (b - 1.0) * log1p(-x) - lbeta), xn = -1.0;
    if (logs) {
      if (F > 0 && d > 0 && isfinite(f)) xn = x - f * F / d;
    } else if (d > 0 && isfinite(d)) {
      double u = f / d;
      double hh = u * ((a - 1.0) / x - (b - 1.0) / (1.0 - x));
      if (fabs(hh) < 1.0) u = u / (1.0 - 0.5 * hh);
      xn = x - u;
    }
    if (!(xn > lo && xn < hi)) xn = lo == 0 ? 0.0625 * hi : (hi > 4.0 * lo ? sqrt(lo * hi) : 0.5 * (lo + hi));
    if (fabs(xn - x) <= 2.0 * CAS_EPS * xn || hi - lo <= 2.0 * CAS_EPS * hi) return xn;
    x = xn;
  }
  return x;
}

// ---- distribution functions (Cephes' definitions in terms of the incomplete beta and gamma) ----------------
// SciPy truncates the number of trials n to an integer (its loops cast it), and an infinite n is a domain error.
__device__ double cas_bdtr(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p) || p < 0 || p > 1 || isinf(n)) return cas_nan();
  k = floor(k);
  n = trunc(n);
  if (k < 0 || n < k) return cas_nan();
  if (k == n) return 1.0;
  double dn = n - k;
  if (k == 0) return pow(1.0 - p, dn);
  return cas_betainc(dn, k + 1.0, 1.0 - p);
}
__device__ double cas_bdtrc(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p) || p < 0 || p > 1 || isinf(n)) return cas_nan();
  k = floor(k);
  n = trunc(n);
  if (k < 0) return 1.0;
  if (n < k) return cas_nan();
  if (k == n) return 0.0;
  double dn = n - k;
  if (k == 0) return p < 0.01 ? -expm1(dn * log1p(-p)) : 1.0 - pow(1.0 - p, dn);
  return cas_betainc(k + 1.0, dn, p);
}
__device__ double cas_bdtri(double k, double n, double y) {
  if (isnan(k) || isnan(n) || isnan(y) || y < 0 || y > 1 || isinf(n)) return cas_nan();
  k = floor(k);
  n = trunc(n);
  if (k < 0 || n <= k) return cas_nan();
  double dn = n - k;
  if (k == 0) return y > 0.8 ? -expm1(log1p(y - 1.0) / dn) : 1.0 - pow(y, 1.0 / dn);
  double dk = k + 1.0;
  // the variable whose inverse is nearer 0 is solved for, so that p keeps its relative accuracy
  if (cas_betainc(dn, dk, 0.5) > 0.5) return cas_betaincinv(dk, dn, 1.0 - y);
  return 1.0 - cas_betaincinv(dn, dk, y);
}
__device__ double cas_btdtr(double a, double b, double x) { return cas_betainc(a, b, x); }
__device__ double cas_btdtri(double a, double b, double p) { return cas_betaincinv(a, b, p); }
__device__ double cas_fdtr(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x) || a <= 0 || b <= 0 || x < 0 || isinf(a) || isinf(b)) return cas_nan();
  if (isinf(x)) return 1.0;
  double w = a * x;
  return cas_betainc(0.5 * a, 0.5 * b, w / (b + w));
}
__device__ double cas_fdtrc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x) || a <= 0 || b <= 0 || x < 0 || isinf(a) || isinf(b)) return cas_nan();
  if (isinf(x)) return 0.0;
  double w = b / (b + a * x);
  return cas_betainc(0.5 * b, 0.5 * a, w);
}
__device__ double cas_fdtri(double a, double b, double y) {
  if (isnan(a) || isnan(b) || isnan(y) || a <= 0 || b <= 0 || y < 0 || y > 1 || isinf(a) || isinf(b))
    return cas_nan();
  double w = cas_betaincinv(0.5 * a, 0.5 * b, y);
  if (w <= 0.5) return b * w / (a * (1.0 - w));
  double wc = cas_betaincinv(0.5 * b, 0.5 * a, 1.0 - y);  // 1 - w, accurately
  return b * (1.0 - wc) / (a * wc);
}
__device__ double cas_gdtr(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return cas_nan();
  if (x < 0) return cas_nan();
  return cas_gammainc(b, a * x);
}
__device__ double cas_gdtrc(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return cas_nan();
  if (x < 0) return cas_nan();
  return cas_gammaincc(b, a * x);
}
// n truncated to an integer (SciPy's loops cast it); n <= 0 is a domain error
__device__ double cas_nbdtr(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p) || p < 0 || p > 1 || k < 0 || isinf(n)) return cas_nan();
  k = floor(k);
  n = trunc(n);
  if (n <= 0) return cas_nan();
  return cas_betainc(n, k + 1.0, p);
}
__device__ double cas_nbdtrc(double k, double n, double p) {
  if (isnan(k) || isnan(n) || isnan(p) || p < 0 || p > 1 || k < 0 || isinf(n)) return cas_nan();
  k = floor(k);
  n = trunc(n);
  if (n <= 0) return cas_nan();
  return cas_betainc(k + 1.0, n, 1.0 - p);
}
__device__ double cas_nbdtri(double k, double n, double y) {
  if (isnan(k) || isnan(n) || isnan(y) || y < 0 || y > 1 || k < 0 || isinf(n)) return cas_nan();
  if (y == 0 || y == 1) return y;
  k = floor(k);
  n = trunc(n);
  if (n <= 0) return cas_nan();
  return cas_betaincinv(n, k + 1.0, y);
}
__device__ double cas_pdtr(double k, double m) {
  if (isnan(k) || isnan(m) || k < 0 || m < 0) return cas_nan();
  if (m == 0) return 1.0;
  if (isinf(k)) return 1.0;
  return cas_gammaincc(floor(k) + 1.0, m);
}
__device__ double cas_pdtrc(double k, double m) {
  if (isnan(k) || isnan(m) || k < 0 || m < 0) return cas_nan();
  if (m == 0) return 0.0;
  if (isinf(k)) return 0.0;
  return cas_gammainc(floor(k) + 1.0, m);
}
__device__ double cas_pdtri(double k, double y) {
  if (isnan(k) || isnan(y) || k < 0 || y < 0 || y >= 1 || isinf(k)) return cas_nan();
  return cas_gammainccinv(floor(k) + 1.0, y);
}
__device__ double cas_chdtr(double v, double x) {
  if (isnan(v) || isnan(x) || x < 0) return cas_nan();
  return cas_gammainc(0.5 * v, 0.5 * x);
}
__device__ double cas_chdtrc(double v, double x) {
  if (isnan(v) || isnan(x) || x < 0) return cas_nan();
  return cas_gammaincc(0.5 * v, 0.5 * x);
}
__device__ double cas_chdtri(double v, double y) {
  if (isnan(v) || isnan(y) || y < 0 || y > 1 || v <= 0) return cas_nan();
  return 2.0 * cas_gammainccinv(0.5 * v, y);
}

// ---- exponential integrals -----------------------------------------------------------------------------------
// E1(x), x > 0: its power series -gamma - ln x - sum (-x)^k/(k k!) up to x = 1/2 (it cancels beyond), the
// continued fraction
// E1(x) = e^-x / (x + 1 - 1/(x + 3 - 4/(x + 5 - ...))) beyond.
__device__ double cas_e1_cf(double x, int n) {
  // E_n(x) e^x = 1/(x+n - 1 n/(x+n+2 - 2(n+1)/(x+n+4 - ...))) evaluated backward from a depth at which the
  // tail is below rounding (the backward evaluation is stable; the error of depth N falls like exp(-4 sqrt(N x)))
  int depth = (int)fmin(400.0, 24.0 + 160.0 / x);
  double t = 0.0;
  for (int i = depth; i >= 1; --i) t = -(double)i * (n - 1.0 + i) / (x + n + 2.0 * i + t);
  return 1.0 / (x + n + t);
}
__device__ double cas_exp1(double x) {
  if (isnan(x)) return x;
  if (x < 0) return cas_nan();
  if (x == 0) return cas_inf();
  if (isinf(x)) return 0.0;
  if (x <= 0.5) {
    double t = 1.0, s = 0.0;
    for (int k = 1; k < 60; ++k) {
      t *= -x / k;
      double term = t / k;
      s += term;
      if (fabs(term) < CAS_EPS * 1e-2 * fabs(s)) break;
    }
    return -CAS_EULER - log(x) - s;
  }
  if (x > 746.0) return 0.0;
  return exp(-x) * cas_e1_cf(x, 1);
}
// Ei(x), x > 0: the series gamma + ln x + sum x^k/(k k!) written around Ei's root x0 (Ei(x0) = 0), as
// ln(x/x0) + sum (x^k - x0^k)/(k k!), so that it keeps relative accuracy near x0; the asymptotic series
// e^x/x sum k!/x^k beyond 40. Ei(-x) = -E1(x).
__device__ double cas_expi(double x) {
  if (isnan(x)) return x;
  if (x == 0) return -cas_inf();
  if (x < 0) return -cas_exp1(-x);
  if (isinf(x)) return x;
  if (x <= 50.0) {
    const double x0 = 0.3725074107813666, x0lo = 1.3140183414386028e-17;
    double d = (x - x0) - x0lo;
    double D = 0.0, q = 1.0, fac = 1.0, s = 0.0;  // D_k = x^k - x0^k, q = x0^(k-1)
    for (int k = 1; k < 200; ++k) {
      D = x * D + d * q;
      q *= x0;
      fac *= k;
      double term = D / (k * fac);
      s += term;
      if (fabs(term) < 1e-18 * fabs(s)) break;
    }
    return (fabs(d) < 0.5 * x0 ? log1p(d / x0) : log(x) - log(x0)) + s;  // (x/x0 would lose subnormal bits)
  }
  if (x > 709.782712893384) return cas_inf();  // SciPy's overflow point (e^x itself)
  // asymptotic series, summed while its terms decrease (the smallest one, at k ~ x, is ~e^-x)
  double t = 1.0, s = 1.0;
  for (int k = 1; k < 100; ++k) {
    double tn = t * k / x;
    if (tn >= t) break;
    t = tn;
    s += t;
    if (t < 1e-18 * s) break;
  }
  double e = exp(0.5 * x);  // split so that e^x/x does not overflow before the division
  return e * (e / x * s);
}
// E_n(x) for integer n >= 0: e^-x/x for n = 0; the power series (Abramowitz & Stegun 5.1.12) for x <= 1;
// the continued fraction beyond.
__device__ double cas_expn(double nd, double x) {
  if (isnan(nd) || isnan(x)) return cas_nan();
  if (nd < 0 || x < 0) return cas_nan();
  if (nd > 2147483647.0) return cas_nan();
  int n = (int)nd;
  if (x == 0) return n < 2 ? cas_inf() : 1.0 / (n - 1.0);
  if (isinf(x)) return 0.0;
  if (n == 0) return exp(-x) / x;
  if (x > 1.0) {
    if (x > 709.782712893384) return 0.0;  // SciPy's (Cephes') underflow point
    return exp(-x) * cas_e1_cf(x, n);
  }
  if (n == 1) return cas_exp1(x);
  // E_n(x) = (-x)^(n-1)/(n-1)! (psi(n) - ln x) - sum_{k != n-1} (-x)^k / ((k - n + 1) k!)
  double s = 1.0 / (n - 1.0), t = 1.0;  // the k = 0 term (-1/(1-n))
  double psi = -CAS_EULER, pre = 1.0;
  for (int k = 1; k < n; ++k) psi += 1.0 / k;
  for (int k = 1; k < n - 1 && k < 400; ++k) {
    t *= -x / k;
    s -= t / (k - n + 1.0);
  }
  // (-x)^(n-1)/(n-1)!
  if (n - 1 < 400) {
    pre = t * (-x) / (n - 1.0);
    if (n - 1 == 1) pre = -x;
  } else {
    pre = 0.0;
  }
  double r = pre * (psi - log(x)) + s;
  // the tail k >= n
  double tk = pre;
  for (int k = n; k < n + 200; ++k) {
    tk *= -x / k;
    double term = tk / (k - n + 1.0);
    r -= term;
    if (fabs(term) < CAS_EPS * 1e-2 * fabs(r)) break;
  }
  return r;
}

// ---- sine/cosine and hyperbolic sine/cosine integrals ---------------------------------------------------------
// Si, Ci: their power series for x <= 4; beyond, E1(ix) = -Ci(x) + i (Si(x) - pi/2) by the complex continued
// fraction of E1 (the same recurrence as cas_e1_cf).
__device__ void cas_sici(double x, double* si, double* ci) {
  if (isnan(x)) { *si = x; *ci = x; return; }
  double sgn = x < 0 ? -1.0 : 1.0;
  double ax = fabs(x);
  if (ax == 0) { *si = x; *ci = -cas_inf(); return; }
  if (isinf(ax)) { *si = sgn * 0.5 * CAS_PI; *ci = x > 0 ? 0.0 : cas_nan(); return; }
  if (ax <= 4.0) {
    double x2 = ax * ax, t = ax, s = ax, c = 0.0, tc = 1.0;
    for (int k = 1; k < 40; ++k) {
      t *= -x2 / ((2.0 * k) * (2.0 * k + 1.0));
      s += t / (2.0 * k + 1.0);
      tc *= -x2 / ((2.0 * k - 1.0) * (2.0 * k));
      c += tc / (2.0 * k);
      if (fabs(t) < 1e-18 * fabs(s) && fabs(tc) < 1e-18) break;
    }
    *si = sgn * s;
    *ci = CAS_EULER + log(ax) + c;
    return;
  }
  const double big = 1e300;
  cas_z b(1.0, ax), c(big, 0.0), d = cas_z(1.0, 0.0) / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    double an = -(double)i * i;
    b = b + 2.0;
    d = cas_z(1.0, 0.0) / (d * an + b);
    c = b + cas_z(an, 0.0) / c;
    cas_z del = c * d;
    h = h * del;
    if (fabs(del.re - 1.0) + fabs(del.im) < CAS_EPS) break;
  }
  double cs, sn;
  sincos(ax, &sn, &cs);
  h = h * cas_z(cs, -sn);
  *ci = -h.re;
  *si = sgn * (0.5 * CAS_PI + h.im);
}
// Shi, Chi: their power series for x <= 8 (Chi written around its root, as Ei); beyond,
// Shi = (Ei(x) + E1(x))/2 and Chi = (Ei(x) - E1(x))/2.
__device__ void cas_shichi(double x, double* shi, double* chi) {
  if (isnan(x)) { *shi = x; *chi = x; return; }
  double sgn = x < 0 ? -1.0 : 1.0, ax = fabs(x);
  if (ax == 0) { *shi = x; *chi = -cas_inf(); return; }
  if (ax <= 8.0) {
    double x2 = ax * ax, t = ax, s = ax, c = 0.0, tc = 1.0;
    for (int k = 1; k < 60; ++k) {
      t *= x2 / ((2.0 * k) * (2.0 * k + 1.0));
      s += t / (2.0 * k + 1.0);
      tc *= x2 / ((2.0 * k - 1.0) * (2.0 * k));
      c += tc / (2.0 * k);
      if (t < 1e-18 * s && tc < 1e-18 * c) break;
    }
    *shi = sgn * s;
    *chi = CAS_EULER + log(ax) + c;
    return;
  }
  double ei = cas_expi(ax), e1 = cas_exp1(ax);
  *shi = sgn * 0.5 * (ei + e1);
  *chi = 0.5 * (ei - e1);
}

// ---- elliptic integrals and functions ---------------------------------------------------------------------------
// Carlson's R_F and R_D by duplication (Carlson 1995), stopped once the spread is below the truncation bound.
__device__ double cas_rf(double x, double y, double z) {
  double A0 = (x + y + z) / 3.0, A = A0;
  double Q = 380.0 * fmax(fmax(fabs(A0 - x), fabs(A0 - y)), fabs(A0 - z));
  for (int i = 0; i < 60 && Q >= fabs(A); ++i) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    double lam = sx * sy + sx * sz + sy * sz;
    A = 0.25 * (A + lam); x = 0.25 * (x + lam); y = 0.25 * (y + lam); z = 0.25 * (z + lam);
    Q *= 0.25;
  }
  double X = 1.0 - x / A, Y = 1.0 - y / A, Z = -(X + Y);
  double E2 = X * Y - Z * Z, E3 = X * Y * Z;
  return (1.0 - E2 / 10.0 + E3 / 14.0 + E2 * E2 / 24.0 - 3.0 * E2 * E3 / 44.0) / sqrt(A);
}
__device__ double cas_rd(double x, double y, double z) {
  double A0 = (x + y + 3.0 * z) / 5.0, A = A0;
  double Q = 580.0 * fmax(fmax(fabs(A0 - x), fabs(A0 - y)), fabs(A0 - z));
  double sum = 0.0, fac = 1.0;
  for (int i = 0; i < 60 && Q >= fabs(A); ++i) {
    double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
    double lam = sx * sy + sx * sz + sy * sz;
    sum += fac / (sz * (z + lam));
    fac *= 0.25;
    A = 0.25 * (A + lam); x = 0.25 * (x + lam); y = 0.25 * (y + lam); z = 0.25 * (z + lam);
    Q *= 0.25;
  }
  double X = 1.0 - x / A, Y = 1.0 - y / A, Z = -(X + Y) / 3.0;
  double XY = X * Y, Z2 = Z * Z;
  double E2 = XY - 6.0 * Z2, E3 = (3.0 * XY - 8.0 * Z2) * Z, E4 = 3.0 * (XY - Z2) * Z2, E5 = XY * Z2 * Z;
  double s = 1.0 - 3.0 * E2 / 14.0 + E3 / 6.0 + 9.0 * E2 * E2 / 88.0 - 3.0 * E4 / 22.0 - 9.0 * E2 * E3 / 52.0
             + 3.0 * E5 / 26.0;
  return fac * s / (A * sqrt(A)) + 3.0 * sum;
}
__device__ double cas_ellipe_complete(double m) {
  if (m == 1.0) return 1.0;
  if (m == -cas_inf()) return cas_inf();
  return cas_rf(0.0, 1.0 - m, 1.0) - m / 3.0 * cas_rd(0.0, 1.0 - m, 1.0);
}
// F(phi|m) and E(phi|m): phi reduced to r within pi/2 of a multiple n pi; F(phi) = F(r) + 2 n K(m). The
// argument 1 - m sin^2 r is formed as cos^2 r + (1 - m) sin^2 r for m <= 1 (no cancellation near m = 1).
__device__ double cas_ellip_delta(double s, double c, double m) {
  return m <= 1.0 ? c * c + (1.0 - m) * s * s : 1.0 - m * s * s;
}
__device__ double cas_ellipkinc(double phi, double m) {
  if (isnan(phi) || isnan(m) || m > 1.0) return cas_nan();  // SciPy's domain: m <= 1
  if (m == -cas_inf()) return isinf(phi) ? cas_nan() : 0.0;
  if (isinf(phi)) return m == 1.0 ? phi : (m < 1.0 ? phi : cas_nan());
  if (phi == 0) return phi;
  double n = rint(phi / CAS_PI), r = phi - n * CAS_PI;
  double s, c;
  sincos(r, &s, &c);
  double delta = cas_ellip_delta(s, c, m);
  if (delta < 0) return cas_nan();
  double f = s * cas_rf(c * c, delta, 1.0);
  if (n != 0) {
    if (m >= 1.0) return m == 1.0 ? copysign(cas_inf(), phi) : cas_nan();
    f += 2.0 * n * cas_ellipk(m);
  }
  return f;
}
__device__ double cas_ellipeinc(double phi, double m) {
  if (isnan(phi) || isnan(m) || m > 1.0) return cas_nan();
  if (m == -cas_inf()) return isinf(phi) ? cas_nan() : cas_inf();
  if (isinf(phi)) return m <= 1.0 ? phi : cas_nan();
  if (phi == 0) return phi;
  double n = rint(phi / CAS_PI), r = phi - n * CAS_PI;
  double s, c;
  sincos(r, &s, &c);
  double delta = cas_ellip_delta(s, c, m);
  if (delta < 0) return cas_nan();
  double c2 = c * c;
  double e = s * cas_rf(c2, delta, 1.0) - m * s * s * s / 3.0 * cas_rd(c2, delta, 1.0);
  if (n != 0) {
    if (m > 1.0) return cas_nan();
    e += 2.0 * n * cas_ellipe_complete(m);
  }
  return e;
}
// Jacobi sn, cn, dn and the amplitude by the descending AGM (Abramowitz & Stegun 16.4), with the expansions
// 16.13 (m near 0) and 16.15 (m near 1) at the ends.
__device__ void cas_ellipj(double u, double m, double* sn, double* cn, double* dn, double* ph) {
  if (isnan(u) || isnan(m) || m < 0 || m > 1) { *sn = *cn = *dn = *ph = cas_nan(); return; }
  if (isinf(u)) { *sn = *cn = *dn = *ph = cas_nan(); return; }
  if (m < 1e-9) {
    double s, c;
    sincos(u, &s, &c);
    double a = 0.25 * m * (u - s * c);
    *sn = s - a * c;
    *cn = c + a * s;
    *ph = u - a;
    *dn = 1.0 - 0.5 * m * s * s;
    return;
  }
  if (m >= 0.9999999999) {
    double m1 = 1.0 - m;
    double ch = cosh(u), th = tanh(u), sech = 1.0 / ch;
    double w = sinh(u) * ch;
    *sn = th + 0.25 * m1 * (w - u) * sech * sech;
    *ph = 2.0 * atan(exp(u)) - 0.5 * CAS_PI + 0.25 * m1 * (w - u) * sech;
    *cn = sech - 0.25 * m1 * (w - u) * th * sech;
    *dn = sech + 0.25 * m1 * (w + u) * th * sech;
    return;
  }
  double a[10], c[10];
  a[0] = 1.0;
  double b = sqrt(1.0 - m);
  c[0] = sqrt(m);
  double twon = 1.0;
  int i = 0;
  while (fabs(c[i] / a[i]) > CAS_EPS && i < 8) {
    double ai = a[i];
    ++i;
    c[i] = 0.5 * (ai - b);
    double t = sqrt(ai * b);
    a[i] = 0.5 * (ai + b);
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u, prev = phi;
  do {
    double t = c[i] * sin(phi) / a[i];
    prev = phi;
    phi = 0.5 * (asin(t) + phi);
  } while (--i);
  double s, co;
  sincos(phi, &s, &co);
  *sn = s;
  *cn = co;
  // cn / cos(phi1 - phi0) (A&S 16.4.4) loses accuracy near cn = 0, where dn^2 = (1 - m) + m cn^2 does not
  *dn = fabs(co) > 0.25 ? co / cos(prev - phi) : sqrt((1.0 - m) + m * co * co);
  *ph = phi;
}

// ---- spherical Bessel y_n (real argument) ------------------------------------------------------------------------
// Upward recurrence y_{k+1} = (2k+1)/x y_k - y_{k-1} from y_0 = -cos x / x, y_1 = -cos x/x^2 - sin x/x (stable
// for y, whose magnitude grows with k); y_n(-x) = (-1)^(n+1) y_n(x).
__device__ double cas_sph_yn(long long n, double x, bool deriv) {
  if (isnan(x)) return x;
  if (n < 0) return cas_nan();
  if (x == 0) return deriv ? cas_inf() : -cas_inf();
  if (isinf(x)) return 0.0;
  double ax = fabs(x);
  double s, c;
  sincos(ax, &s, &c);
  double y0 = -c / ax, y1 = (y0 - s) / ax;
  long long top = deriv ? n + 1 : n;
  double ya = y0, yb = y1;
  if (top == 0) yb = y0;
  for (long long k = 1; k < top && !isinf(yb); ++k) {
    double yc = (2.0 * k + 1.0) / ax * yb - ya;
    ya = yb;
    yb = yc;
  }
  double r;
  if (!deriv) {
    r = (n == 0) ? y0 : yb;
    if (x < 0 && (n % 2 == 0)) r = -r;  // (-1)^(n+1)
    return r;
  }
  // y_n' = n/x y_n - y_{n+1}; the recurrence above ran to n+1: ya = y_n, yb = y_{n+1}
  r = n / ax * ya - yb;
  if (x < 0 && (n % 2 == 1)) r = -r;  // the derivative has parity (-1)^n
  return r;
}

// ---- associated Legendre functions --------------------------------------------------------------------------------
// Non-integer degree, m >= 0. Right of x = -0.5: the hypergeometric series in z = (1 - x)/2 <= 3/4 (DLMF 14.3.1):
// P_v^m(x) = (-1)^m Gamma(v+m+1)/(Gamma(v-m+1) 2^m m!) (1-x^2)^(m/2) 2F1(m-v, m+v+1; m+1; z).
__device__ double cas_lpmv_right(int m, double v, double x) {
  double z = 0.5 * (1.0 - x);
  double a = m - v, bb = m + v + 1.0, cc = m + 1.0;
  double t = 1.0, s = 1.0;
  for (int k = 0; k < 100000; ++k) {
    t *= (a + k) * (bb + k) / ((cc + k) * (k + 1.0)) * z;
    s += t;
    if (fabs(t) < CAS_EPS * 0.1 * fabs(s)) break;
  }
  double w = pow((1.0 - x) * (1.0 + x), 0.5 * m);
  // (-1)^m Gamma(v+m+1) / (Gamma(v-m+1) 2^m m!) = (-1)^m prod_{k=1}^{m} (v+k)(v-k+1) / (2^m m!)
  double pre = 1.0;
  for (int k = 1; k <= m; ++k) pre *= -(v + k) * (v - k + 1.0) / (2.0 * k);
  return pre * w * s;
}
// Left of x = -0.5 that series (z > 3/4, divergent at x = -1) is replaced by its continuation to 1 - z = (1+x)/2
// < 1/4. There c - a - b = -m is an integer, the degenerate case with logarithms (A&S 15.3.10 for m = 0, 15.3.12
// for m >= 1); with the gamma factors combined through the reflection formula (a - m = -v, b - m = v + 1):
//   P = (1-x^2)^(m/2) [ -(m-1)! sin(pi v)/(pi 2^m) w^-m sum_{n<m} (-v)_n (v+1)_n / (n! (1-m)_n) w^n
//       + sin(pi v)/pi prod_{k<=m} (v+k)(v-k+1)/2 sum_n (a)_n (b)_n / (n! (n+m)!) w^n
//         (ln w - psi(n+1) - psi(n+m+1) + psi(a+n) + psi(b+n)) ],  w = (1+x)/2, a = m-v, b = m+v+1.
__device__ double cas_lpmv_left(int m, double v, double x) {
  double w = 0.5 * (1.0 + x);
  double a = m - v, b = m + v + 1.0;
  double sv = sin(CAS_PI * v) / CAS_PI, lw = log(w);
  double fin = 0.0;
  if (m > 0) {
    double t = 1.0, fact = 1.0;
    for (int n = 0; n < m; ++n) {
      fin += t;
      if (n < m - 1) t *= (a - m + n) * (b - m + n) / ((n + 1.0) * (1.0 - m + n)) * w;
    }
    for (int k = 2; k < m; ++k) fact *= k;
    fin *= -fact * sv / (pow(2.0, m) * pow(w, m));
  }
  double pref = 1.0, t = 1.0;
  for (int k = 1; k <= m; ++k) {
    pref *= (v + k) * (v - k + 1.0) / 2.0;
    t /= k;
  }
  // The digammas by psi(y+1) = psi(y) + 1/y, except psi(a+n) left of 1, where a+n may pass close to a pole of
  // psi and the recurrence would carry that pole's large value (b = m + v + 1 > 0 as v > -1).
  double p1 = -CAS_EULER, pm = -CAS_EULER, pa = cas_digamma(a), pb = cas_digamma(b);
  for (int k = 1; k <= m; ++k) pm += 1.0 / k;
  double acc = 0.0;
  for (int n = 0; n < 100000; ++n) {
    if (a + n < 1.0) pa = cas_digamma(a + n);
    double term = t * (lw - p1 - pm + pa + pb);
    acc += term;
    if (n > 2 && fabs(term) < 1e-17 * fabs(acc) && fabs(t) < 1e-17 * fabs(acc)) break;
    t *= (a + n) * (b + n) / ((n + 1.0) * (n + m + 1.0)) * w;
    p1 += 1.0 / (n + 1.0);
    pm += 1.0 / (n + m + 1.0);
    pa += 1.0 / (a + n);
    pb += 1.0 / (b + n);
  }
  return pow((1.0 - x) * (1.0 + x), 0.5 * m) * (fin + sv * pref * acc);
}
// P_v^m(x) with the Condon-Shortley phase. Integer degree: the upward recurrence in the degree from P_m^m.
// Otherwise the hypergeometric series (DLMF 14.3.1): P_v^m(x) = (-1)^m Gamma(v+m+1)/(Gamma(v-m+1) 2^m m!)
// (1-x^2)^(m/2) 2F1(m-v, m+v+1; m+1; (1-x)/2).
__device__ double cas_lpmv(double md, double v, double x) {
  if (isnan(md) || isnan(v) || isnan(x)) return cas_nan();
  if (md != floor(md) || fabs(x) > 1.0) return cas_nan();
  if (v < 0) v = -v - 1.0;
  double sgnm = 1.0;
  int m = (int)fabs(md);
  bool neg = md < 0;
  if (v == floor(v) && v < 1e5) {
    int nv = (int)v;
    if (m > nv) return neg ? cas_nan() : 0.0;  // SciPy's NaN for P_v^-m with m > v
    // P_m^m = (-1)^m (2m-1)!! (1-x^2)^(m/2)
    double w = sqrt((1.0 - x) * (1.0 + x)), p = 1.0;
    for (int k = 1; k <= m; ++k) p *= -(2.0 * k - 1.0) * w;
    double r = p;
    if (nv > m) {
      double p1 = x * (2.0 * m + 1.0) * p, p0 = p;
      for (int l = m + 2; l <= nv; ++l) {
        double p2 = ((2.0 * l - 1.0) * x * p1 - (l + m - 1.0) * p0) / (l - m);
        p0 = p1; p1 = p2;
      }
      r = p1;
    }
    if (neg) {
      // P_v^-m = (-1)^m (v-m)!/(v+m)! P_v^m
      double f = 1.0;
      for (int k = nv - m + 1; k <= nv + m; ++k) f /= k;
      r *= (m & 1 ? -1.0 : 1.0) * f;
    }
    return r;
  }
  if (x == 1.0) return m == 0 ? 1.0 : 0.0;
  if (x == -1.0) return m == 0 ? -cas_inf() : cas_nan();
  double r = sgnm * (x < -0.5 ? cas_lpmv_left(m, v, x) : cas_lpmv_right(m, v, x));
  if (neg) {
    // P_v^-m = (-1)^m Gamma(v-m+1)/Gamma(v+m+1) P_v^m
    double f = 1.0;
    for (int k = 1; k <= m; ++k) f /= (v + k) * (v - k + 1.0);
    r *= (m & 1 ? -1.0 : 1.0) * f;
  }
  return r;
}
// Y_n^m(theta, phi): the fully normalised associated Legendre function by its stable three-term recurrence,
// times e^{i m phi}; Y_n^-m = (-1)^m conj(Y_n^m).
__device__ cas_z cas_sph_harm_y(long long n, long long m, double theta, double phi) {
  if (isnan(theta) || isnan(phi)) return cas_z(cas_nan(), cas_nan());
  long long am = m < 0 ? -m : m;
  if (n < 0 || am > n) return cas_z(0.0, 0.0);
  double x = cos(theta), sn = fabs(sin(theta));
  // Pbar_m^m = (-1)^m sqrt((2m+1)/(4 pi) prod_{k<=m} (2k-1)/(2k)) sin^m
  double p = sqrt(1.0 / (4.0 * CAS_PI));
  for (long long k = 1; k <= am; ++k) p *= -sqrt((2.0 * k + 1.0) / (2.0 * k)) * sn;
  double r = p;
  if (n > am) {
    double p0 = p, p1 = sqrt(2.0 * am + 3.0) * x * p;
    for (long long l = am + 2; l <= n; ++l) {
      double dl = (double)l, dm = (double)am;
      double al = sqrt((4.0 * dl * dl - 1.0) / (dl * dl - dm * dm));
      double bl = sqrt(((dl - 1.0) * (dl - 1.0) - dm * dm) / (4.0 * (dl - 1.0) * (dl - 1.0) - 1.0));
      double p2 = al * (x * p1 - bl * p0);
      p0 = p1; p1 = p2;
    }
    r = p1;
  }
  double s, c;
  sincos((double)am * phi, &s, &c);
  cas_z y(r * c, r * s);
  if (m < 0) {
    y = cas_z(y.re, -y.im);
    if (am & 1) y = cas_z(-y.re, -y.im);
  }
  return y;
}

// ---- Lambert W ---------------------------------------------------------------------------------------------------------
// Branch k of W(z): Halley's iteration from the branch-point series (near -1/e), the asymptotic
// log z + 2 pi i k - log(log z + 2 pi i k) (far), or z itself (k = 0, small |z|); stopped at |dw| < tol |w|.
__device__ cas_z cas_lambertw(cas_z z, long long k, double tol) {
  if (isnan(z.re) || isnan(z.im)) return cas_z(cas_nan(), cas_nan());
  if (isinf(z.re) || isinf(z.im)) {
    if (z.re == cas_inf() && z.im == 0 && k == 0) return z;
    cas_z lz = ca_c_log(z);
    return cas_z(cas_inf(), lz.im + 2.0 * CAS_PI * k);
  }
  if (z.re == 0 && z.im == 0) {
    if (k == 0) return z;
    return cas_z(-cas_inf(), 0.0);
  }
  if (z.re == 1 && z.im == 0 && k == 0) return cas_z(0.5671432904097838, 0.0);
  const double rme = 0.36787944117144233;  // 1/e
  cas_z w;
  cas_z zp = z + rme;
  double dbp = ca_c_abs(zp);
  if (k == 0 && dbp < 1.0) {
    cas_z p = ca_c_sqrt(cas_z(2.0 * 2.718281828459045, 0.0) * zp);
    w = cas_z(-1.0, 0.0) + p - p * p / 3.0 + p * p * p * (11.0 / 72.0);
  } else if ((k == -1 && z.im >= 0 && dbp < 0.25) || (k == 1 && z.im < 0 && dbp < 0.25)) {
    // W_-1 from above the real axis and W_1 from below meet W_0 at -1/e: the series with the other sign of p
    cas_z p = ca_c_sqrt(cas_z(2.0 * 2.718281828459045, 0.0) * zp);
    w = cas_z(-1.0, 0.0) - p - p * p / 3.0 - p * p * p * (11.0 / 72.0);
  } else if (k == 0 && ca_c_abs(z) < 3.0) {
    w = ca_c_log1p(z);  // W(z) ~ log(1 + z) on the principal branch away from -1/e
  } else {
    cas_z l = ca_c_log(z) + cas_z(0.0, 2.0 * CAS_PI * k);
    w = l - ca_c_log(l);
  }
  for (int it = 0; it < 100; ++it) {
    cas_z ew = ca_c_exp(w);
    cas_z wew = w * ew;
    cas_z f = wew - z;
    cas_z wp1 = w + 1.0;
    cas_z den = ew * wp1 - (w + 2.0) * f / (wp1 * 2.0);
    cas_z wn = w - f / den;
    if (ca_c_abs(wn - w) <= tol * ca_c_abs(wn)) return wn;
    w = wn;
    if (isnan(w.re)) break;
  }
  return w;
}

// ---- Wright's generalised Bessel function --------------------------------------------------------------------------
// Phi(a, b; x) = sum_k x^k / (k! Gamma(a k + b)) for a, b, x >= 0: e^x / Gamma(b) for a = 0; the terms directly
// (running x^k/k! times 1/Gamma) for x <= 20; beyond, each term as exp(log term - log of the largest term),
// the largest one found by walking up (the log terms are concave in k).
__device__ double cas_wright_bessel(double a, double b, double x) {
  if (isnan(a) || isnan(b) || isnan(x)) return cas_nan();
  if (a < 0 || b < 0 || x < 0) return cas_nan();
  if (isinf(x)) return isinf(a) || isinf(b) ? cas_nan() : cas_inf();
  if (isinf(a) || isinf(b)) return cas_nan();
  if (x == 0) return cas_rgamma(b);
  if (a == 0) return exp(x) * cas_rgamma(b);
  if (x <= 20.0) {
    double t = 1.0, s = cas_rgamma(b);
    for (int k = 1; k < 500; ++k) {
      t *= x / k;
      double term = t * cas_rgamma(a * k + b);
      s += term;
      if (term < 1e-18 * s && (a * k + b) > 1.0 && t < 1.0) break;
    }
    return s;
  }
  double lx = log(x);
  double kmax = 0.0, lmax = -cas_inf();
  for (int k = 0; k < 100000; ++k) {
    double l = k * lx - lgamma(k + 1.0) - lgamma(a * k + b);
    if (l < lmax) break;
    lmax = l; kmax = k;
  }
  double s = 0.0;
  for (int dir = -1; dir <= 1; dir += 2) {
    for (int j = (dir < 0 ? 0 : 1); j < 200000; ++j) {
      double k = kmax + dir * j;
      if (k < 0) break;
      double g = a * k + b;
      if (g <= 0 && g == floor(g)) continue;
      double l = k * lx - lgamma(k + 1.0) - lgamma(g);
      double term = exp(l - lmax);
      s += term;
      if (term < 1e-18 * s) break;
    }
  }
  if (lmax > 700.0) return exp(lmax + log(s));
  return exp(lmax) * s;
}

// ---- complex gamma family --------------------------------------------------------------------------------------------
// log Gamma(z) on the principal branch (cut on the negative real axis; log Gamma(z+1) = log Gamma(z) + log z):
// the Taylor series around 1 and 2 near those zeros (radius 0.6), Stirling's series for |z| >= 17 in the right half plane,
// the recurrence up to there for Re z >= -20, and the reflection formula further left, whose 2 pi i multiple is
// fixed by Stirling's leading term (within pi/2 + 1/(12|z|) of the true imaginary part there).
__device__ cas_z cas_c_lgamma_stirling(cas_z z) {
  const double B[9] = {1.0 / 12.0, -1.0 / 360.0, 1.0 / 1260.0, -1.0 / 1680.0, 1.0 / 1188.0,
                       -691.0 / 360360.0, 1.0 / 156.0, -3617.0 / 122400.0, 43867.0 / 244188.0};
  cas_z iz = cas_z(1.0, 0.0) / z, iz2 = iz * iz;
  cas_z s(0.0, 0.0);
  for (int k = 8; k >= 0; --k) s = s * iz2 + B[k];
  s = s * iz;
  return (z - 0.5) * ca_c_log(z) - z + 0.91893853320467274178 + s;
}
// log Gamma(1 + w) = (w - log(1 + w)) - gamma w + S(w) and log Gamma(2 + w) = (1 - gamma) w + S(w), with
// S(w) = sum_(k>=2) (zeta(k) - 1) (-w)^k / k converging like (|w|/2)^k (zeta(k) - 1 computed with mpmath).
__device__ cas_z cas_c_lgamma_s(cas_z w) {
  const double Z[40] = {0.6449340668482264, 0.2020569031595943, 0.08232323371113819, 0.03692775514336993, 0.01734306198444914, 0.008349277381922827, 0.00407735619794434, 0.0020083928260822143, 0.0009945751278180853, 0.0004941886041194645, 0.0002460865533080483, 0.00012271334757848915, 6.124813505870483e-05, 3.058823630702049e-05, 1.528225940865187e-05, 7.637197637899763e-06, 3.81729326499984e-06, 1.908212716553939e-06, 9.539620338727962e-07, 4.769329867878064e-07, 2.38450502727733e-07, 1.1921992596531106e-07, 5.960818905125948e-08, 2.980350351465228e-08, 1.4901554828365043e-08, 7.45071178983543e-09, 3.725334024788457e-09, 1.862659723513049e-09, 9.313274324196682e-10, 4.656629065033784e-10, 2.3283118336765053e-10, 1.164155017270052e-10, 5.820772087902701e-11, 2.9103850444971e-11, 1.4551921891041985e-11, 7.275959835057482e-12, 3.637979547378651e-12, 1.818989650307066e-12, 9.094947840263888e-13, 4.547473783042154e-13};
  cas_z s(0.0, 0.0);
  for (int k = 41; k >= 2; --k) s = s * w + ((k & 1) ? -Z[k - 2] : Z[k - 2]) / k;
  return s * w * w;
}
__device__ cas_z cas_c_loggamma(cas_z z) {
  double x = z.re, y = z.im;
  if (isnan(x) || isnan(y)) return cas_z(cas_nan(), cas_nan());
  if (y == 0 && x <= 0 && x == floor(x)) return cas_z(cas_nan(), cas_nan());
  if (isinf(x) || isinf(y)) {
    if (x == cas_inf() && y == 0) return cas_z(cas_inf(), 0.0);
    return cas_z(cas_nan(), cas_nan());
  }
  if (y == 0 && x > 0) return cas_z(lgamma(x), 0.0);
  cas_z w1 = z - 1.0, w2 = z - 2.0;
  if (ca_c_abs(w2) < 0.6) return w2 * (1.0 - CAS_EULER) + cas_c_lgamma_s(w2);
  if (ca_c_abs(w1) < 0.6) return (w1 - ca_c_log1p(w1)) - w1 * CAS_EULER + cas_c_lgamma_s(w1);
  if (x < -20.0) {
    // log Gamma(z) = log pi - log sin(pi z) - log Gamma(1 - z) + 2 pi i n
    cas_z sp = ca_c_sin(z * CAS_PI);
    cas_z r = cas_z(1.1447298858494002, 0.0) - ca_c_log(sp) - cas_c_loggamma(cas_z(1.0, 0.0) - z);
    double est = ((z - 0.5) * ca_c_log(z) - z).im;
    double n = rint((est - r.im) / (2.0 * CAS_PI));
    return cas_z(r.re, r.im + 2.0 * CAS_PI * n);
  }
  if (ca_c_abs(z) >= 17.0 && x >= 0) return cas_c_lgamma_stirling(z);
  int shift = 0;
  cas_z zz = z;
  while (ca_c_abs(zz) < 17.0 || zz.re < 0) { zz = zz + 1.0; ++shift; }
  cas_z acc(0.0, 0.0);
  for (int k = 0; k < shift; ++k) acc = acc + ca_c_log(z + (double)k);
  return cas_c_lgamma_stirling(zz) - acc;
}
__device__ cas_z cas_c_gamma(cas_z z) {
  if (z.im == 0 && z.re <= 0 && z.re == floor(z.re)) return cas_z(cas_nan(), cas_nan());
  if (z.im == 0) return cas_z(cas_gamma(z.re), 0.0);
  return ca_c_exp(cas_c_loggamma(z));
}
__device__ cas_z cas_c_rgamma(cas_z z) {
  if (z.im == 0 && z.re <= 0 && z.re == floor(z.re)) return cas_z(0.0, 0.0);
  if (z.im == 0) return cas_z(cas_rgamma(z.re), 0.0);
  return ca_c_exp(-cas_c_loggamma(z));
}
// psi(z): reflection psi(1-z) - pi cot(pi z) for Re z < 0, the recurrence up to |z| >= 10, then the
// asymptotic series log z - 1/(2z) - sum B_2k/(2k z^2k).
__device__ cas_z cas_c_digamma(cas_z z) {
  if (isnan(z.re) || isnan(z.im)) return cas_z(cas_nan(), cas_nan());
  if (z.im == 0) return cas_z(cas_digamma(z.re), 0.0);
  if (z.re < 0) {
    cas_z pz = z * CAS_PI;
    return cas_c_digamma(cas_z(1.0, 0.0) - z) - CAS_PI * ca_c_cos(pz) / ca_c_sin(pz);
  }
  cas_z acc(0.0, 0.0);
  while (ca_c_abs(z) < 10.0) { acc = acc - cas_z(1.0, 0.0) / z; z = z + 1.0; }
  const double b[8] = {0.08333333333333333, -0.008333333333333333, 0.003968253968253968, -0.004166666666666667,
                       0.007575757575757576, -0.021092796092796094, 0.08333333333333333, -0.4432598039215686};
  cas_z iz2 = cas_z(1.0, 0.0) / (z * z), s(0.0, 0.0);
  for (int k = 7; k >= 0; --k) s = s * iz2 + b[k];
  return acc + ca_c_log(z) - cas_z(0.5, 0.0) / z - s * iz2;
}
"""
