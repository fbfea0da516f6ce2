// Complex transcendental functions of run-time compiled kernels, with NumPy's results (glibc's C99 Annex G).
#pragma once
#include "ca_types.cuh"

// Note [complex math precision]: every function is written once, for double; complex64 converts to double,
// computes and rounds once, which is at least as accurate as NumPy's float routines. Only reciprocal and
// square stay in the element type, because NumPy's loops for them are plain arithmetic in that type.

template <bool B, class R> struct ca_cm_enable_if {};
template <class R> struct ca_cm_enable_if<true, R> { typedef R type; };

typedef ca_complex<double> ca_cm_z;

// NVRTC knows neither __builtin_huge_val nor __builtin_nan.
CA_FN double ca_cm_inf() {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(0x7ff0000000000000LL);
#else
  return __builtin_huge_val();
#endif
}
CA_FN double ca_cm_nan() {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(0x7ff8000000000000LL);
#else
  return __builtin_nan("");
#endif
}
CA_FN double ca_cm_pi_2() { return 1.570796326794896558; }
CA_FN double ca_cm_ln2() { return 0.6931471805599452862; }
// ln 2 split so that k * hi is exact for |k| < 2^20.
CA_FN double ca_cm_ln2_hi() { return 6.93147180369123816490e-01; }
CA_FN double ca_cm_ln2_lo() { return 1.90821492927058770002e-10; }
CA_FN double ca_cm_log2e() { return 1.442695040888963387; }
CA_FN double ca_cm_log10e() { return 0.4342944819032518167; }

// s + e == a + b exactly (Knuth); no products, so FMA contraction cannot break it.
CA_FN void ca_cm_two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// e^x * 2^k2 * (c + i s) without overflow or underflow in e^x alone (cexp, sinh and cosh of large |x|).
CA_FN ca_cm_z ca_cm_exp_cis(double x, double c, double s, int k2) {
  if (fabs(x) < 708 && k2 == 0) {
    double e = exp(x);
    return ca_cm_z(e * c, e * s);
  }
  // Past |x| = 1500 the result is 0 or inf whatever the angle, so clamping keeps k in int range.
  x = x > 1500 ? 1500 : (x < -1500 ? -1500 : x);
  double kd = floor(x * ca_cm_log2e());
  double r = (x - kd * ca_cm_ln2_hi()) - kd * ca_cm_ln2_lo();
  double m = exp(r);
  int k = (int)kd + k2;
  return ca_cm_z(ldexp(m * c, k), ldexp(m * s, k));
}

// log|x + iy| for finite x, y. |z|^2 is carried as an unevaluated sum of doubles, so that neither the rounding
// of hypot nor, near |z| = 1 (where log|z| = log1p(|z|^2 - 1) / 2), cancellation costs more than an ulp.
CA_FN double ca_cm_log_abs(double x, double y) {
  double a = fabs(x), b = fabs(y);
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (a == 0) return -ca_cm_inf();
  if (a > 0x1p+500 || a < 0x1p-500) {
    // |log|z|| > 340 here, so plain arithmetic on the scaled |z|^2 is accurate enough.
    int k;
    a = frexp(a, &k);
    b = ldexp(b, -k);
    return 0.5 * log(a * a + b * b) + k * ca_cm_ln2_lo() + k * ca_cm_ln2_hi();
  }
  double p1 = a * a, p2 = b * b, e1 = fma(a, a, -p1), e2 = fma(b, b, -p2), s, l;
  if (p1 + p2 > 0.5 && p1 + p2 < 2) {
    double s1, l1;
    ca_cm_two_sum(p1, -1.0, s1, l1);
    ca_cm_two_sum(s1, p2, s, l);
    return 0.5 * log1p(s + (l + l1 + e1 + e2));
  }
  ca_cm_two_sum(p1, p2, s, l);
  return 0.5 * (log(s) + (l + e1 + e2) / s);
}

// A product the GPU compiler may not fuse into an FMA: pow forms its products unfused, as NumPy's npy_cpow and
// glibc's cpow do on x86-64, so that rounding and overflow (inf - inf = nan) come out the same on the GPU.
CA_FN double ca_cm_mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
CA_FN ca_cm_z ca_cm_cmul(ca_cm_z u, ca_cm_z v) {
  return ca_cm_z(ca_cm_mul_rn(u.re, v.re) - ca_cm_mul_rn(u.im, v.im),
                 ca_cm_mul_rn(u.re, v.im) + ca_cm_mul_rn(u.im, v.re));
}
// 1 / v as NumPy's cdiv(1, v) forms it (Smith's algorithm, unfused; the zero terms keep its signed zeros).
CA_FN ca_cm_z ca_cm_cinv(ca_cm_z v) {
  double ar = fabs(v.re), ai = fabs(v.im);
  if (ar >= ai) {
    if (ar == 0 && ai == 0) return ca_cm_z(1 / ar, 0 / ai);
    double rat = v.im / v.re, scl = 1 / (v.re + ca_cm_mul_rn(v.im, rat));
    return ca_cm_z(ca_cm_mul_rn(1 + ca_cm_mul_rn(0.0, rat), scl), ca_cm_mul_rn(0 - rat, scl));
  }
  double rat = v.re / v.im, scl = 1 / (v.im + ca_cm_mul_rn(v.re, rat));
  return ca_cm_z(ca_cm_mul_rn(rat + 0, scl), ca_cm_mul_rn(ca_cm_mul_rn(0.0, rat) - 1, scl));
}

// Complex multiplication with C99 Annex G's recovery of infinities (what cpow's w * log(z) does in glibc).
CA_FN ca_cm_z ca_cm_mul_annex_g(ca_cm_z u, ca_cm_z v) {
  double a = u.re, b = u.im, c = v.re, d = v.im;
  double ac = ca_cm_mul_rn(a, c), bd = ca_cm_mul_rn(b, d), ad = ca_cm_mul_rn(a, d), bc = ca_cm_mul_rn(b, c);
  double x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool again = false;
    if (isinf(a) || isinf(b)) {
      a = copysign(isinf(a) ? 1.0 : 0.0, a);
      b = copysign(isinf(b) ? 1.0 : 0.0, b);
      if (isnan(c)) c = copysign(0.0, c);
      if (isnan(d)) d = copysign(0.0, d);
      again = true;
    }
    if (isinf(c) || isinf(d)) {
      c = copysign(isinf(c) ? 1.0 : 0.0, c);
      d = copysign(isinf(d) ? 1.0 : 0.0, d);
      if (isnan(a)) a = copysign(0.0, a);
      if (isnan(b)) b = copysign(0.0, b);
      again = true;
    }
    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      if (isnan(a)) a = copysign(0.0, a);
      if (isnan(b)) b = copysign(0.0, b);
      if (isnan(c)) c = copysign(0.0, c);
      if (isnan(d)) d = copysign(0.0, d);
      again = true;
    }
    if (again) {
      x = ca_cm_inf() * (a * c - b * d);
      y = ca_cm_inf() * (a * d + b * c);
    }
  }
  return ca_cm_z(x, y);
}

// ---------------------------------------------------------------------------------------------------------
// Double-precision kernels; special values follow C99 Annex G where it fixes them and glibc where it does not.

CA_FN double ca_cm_abs(double x, double y) {
  if (isinf(x) || isinf(y)) return ca_cm_inf();
  return hypot(x, y);
}

CA_FN ca_cm_z ca_cm_exp(double x, double y) {
  if (y == 0) return ca_cm_z(exp(x), y);
  if (isfinite(x)) {
    if (!isfinite(y)) return ca_cm_z(ca_cm_nan(), ca_cm_nan());
    return ca_cm_exp_cis(x, cos(y), sin(y), 0);
  }
  if (isnan(x)) return ca_cm_z(x, ca_cm_nan());
  if (x > 0) {
    if (isfinite(y)) return ca_cm_z(x * cos(y), x * sin(y));
    return ca_cm_z(x, ca_cm_nan());
  }
  if (isfinite(y)) return ca_cm_z(copysign(0.0, cos(y)), copysign(0.0, sin(y)));
  return ca_cm_z(0.0, copysign(0.0, y));
}

CA_FN ca_cm_z ca_cm_log(double x, double y) {
  double re;
  if (isinf(x) || isinf(y)) re = ca_cm_inf();
  else if (isnan(x) || isnan(y)) re = ca_cm_nan();
  else re = ca_cm_log_abs(x, y);
  return ca_cm_z(re, atan2(y, x));
}

CA_FN ca_cm_z ca_cm_sqrt(double x, double y) {
  if (isinf(y)) return ca_cm_z(ca_cm_inf(), y);
  if (isnan(x)) return ca_cm_z(x, ca_cm_nan());
  if (isinf(x)) {
    if (x > 0) return ca_cm_z(x, isnan(y) ? y : copysign(0.0, y));
    return ca_cm_z(isnan(y) ? y : 0.0, copysign(ca_cm_inf(), y));
  }
  if (isnan(y)) return ca_cm_z(y, y);
  if (x == 0 && y == 0) return ca_cm_z(0.0, y);
  // t = sqrt((|x| + |z|) / 2), scaled by an even power of 2 where |x| + |z| would overflow or be subnormal.
  double ax = fabs(x), ay = fabs(y), m = ax > ay ? ax : ay, t;
  if (m > 0x1p+1020) {
    ax *= 0.25;
    ay *= 0.25;
    t = 2 * sqrt(0.5 * (ax + hypot(ax, ay)));
  } else if (m < 0x1p-1000) {
    ax *= 0x1p+600;
    ay *= 0x1p+600;
    t = 0x1p-300 * sqrt(0.5 * (ax + hypot(ax, ay)));
  } else {
    t = sqrt(0.5 * (ax + hypot(ax, ay)));
  }
  if (x >= 0) return ca_cm_z(t, y / (2 * t));
  return ca_cm_z(fabs(y) / (2 * t), copysign(t, y));
}

CA_FN ca_cm_z ca_cm_sinh(double x, double y) {
  if (y == 0) return ca_cm_z(sinh(x), y);
  if (!isfinite(y)) {
    if (x == 0 || isinf(x)) return ca_cm_z(x, ca_cm_nan());
    return ca_cm_z(ca_cm_nan(), ca_cm_nan());
  }
  double c = cos(y), s = sin(y);
  if (!(fabs(x) > 708) || isinf(x)) return ca_cm_z(sinh(x) * c, cosh(x) * s);
  ca_cm_z r = ca_cm_exp_cis(fabs(x), c, s, -1);
  return ca_cm_z(x < 0 ? -r.re : r.re, r.im);
}

CA_FN ca_cm_z ca_cm_cosh(double x, double y) {
  if (y == 0) return ca_cm_z(cosh(x), isnan(x) ? y : copysign(0.0, x) * y);
  if (!isfinite(y)) {
    if (x == 0) return ca_cm_z(ca_cm_nan(), 0.0);
    if (isinf(x)) return ca_cm_z(ca_cm_inf(), ca_cm_nan());
    return ca_cm_z(ca_cm_nan(), ca_cm_nan());
  }
  double c = cos(y), s = sin(y);
  if (!(fabs(x) > 708) || isinf(x)) return ca_cm_z(cosh(x) * c, sinh(x) * s);
  ca_cm_z r = ca_cm_exp_cis(fabs(x), c, s, -1);
  return ca_cm_z(r.re, x < 0 ? -r.im : r.im);
}

CA_FN ca_cm_z ca_cm_tanh(double x, double y) {
  if (y == 0) return ca_cm_z(tanh(x), y);
  if (isinf(x)) return ca_cm_z(copysign(1.0, x), copysign(0.0, isfinite(y) ? sin(y) * cos(y) : y));
  // C11 Annex G (glibc, NumPy, the Array API): tanh(+-0 + i inf) and tanh(+-0 + i nan) keep the real zero.
  if (x == 0 && !isfinite(y)) return ca_cm_z(x, ca_cm_nan());
  if (!isfinite(y) || isnan(x)) return ca_cm_z(ca_cm_nan(), ca_cm_nan());
  double sn = sin(y), c = cos(y);
  // Past |x| = 22, tanh(x) rounds to +-1 and Im = sin(2y) / (cosh(2x) + cos(2y)) is 4 sin y cos y e^(-2|x|).
  if (fabs(x) > 22) return ca_cm_z(copysign(1.0, x), 4 * sn * c * exp(-2 * fabs(x)));
  // tanh z = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): the denominator has no cancellation.
  double s = sinh(x), d = s * s + c * c;
  return ca_cm_z(s * cosh(x) / d, sn * c / d);
}

// For finite x, y >= 0, with A = (|z + 1| + |z - 1|) / 2 (Hull, Fairgrieve and Tang): L = log(A + sqrt(A^2 - 1))
// and D = sqrt(A^2 - x^2), so that asin z = atan2(x, D) + iL and acos z = atan2(D, x) - iL. A - 1 and A - x are
// formed from sums of positive terms, so neither cancels.
CA_FN void ca_cm_asin_parts(double x, double y, double& L, double& D) {
  if (x > 0x1p+60 || y > 0x1p+60) {
    // A = |z| (1 + O(|z|^-2)): below half an ulp here.
    L = ca_cm_log_abs(x, y) + ca_cm_ln2();
    D = y;
    return;
  }
  double r = hypot(x + 1, y), s = hypot(x - 1, y);
  double A = 0.5 * (r + s), rp = r + (x + 1), am1, sq;
  if (x < 1) {
    // A - 1 = y^2 q; y is kept outside the square root so that tiny y does not underflow.
    double q = 0.5 * (1 / rp + 1 / (s + (1 - x)));
    am1 = y * (y * q);
    sq = y * sqrt(q * (A + 1));
  } else {
    // 2 (A - 1) is halved only after the product, so that a subnormal y does not underflow to a zero L.
    double t = y * (y / rp) + (s + (x - 1));
    am1 = 0.5 * t;
    sq = sqrt(t * (0.5 * (A + 1)));
  }
  L = log1p(am1 + sq);
  if (x <= 1) D = sqrt(0.5 * (A + x) * (y * (y / rp) + (s + (1 - x))));
  else D = y * sqrt(0.5 * (A + x) * (1 / rp + 1 / (s + (x - 1))));
}

CA_FN ca_cm_z ca_cm_asinh(double x, double y) {
  if (!isfinite(x) || !isfinite(y)) {
    if (isnan(x)) {
      if (y == 0) return ca_cm_z(x, y);
      if (isinf(y)) return ca_cm_z(y, x);
      return ca_cm_z(ca_cm_nan(), ca_cm_nan());
    }
    if (isnan(y)) return isinf(x) ? ca_cm_z(x, y) : ca_cm_z(ca_cm_nan(), ca_cm_nan());
    return ca_cm_z(copysign(ca_cm_inf(), x), copysign(atan2(fabs(y), fabs(x)), y));
  }
  // asinh(x + iy) = i conj(asin(y + ix)) on the first quadrant, then odd and conjugate-symmetric.
  double L, D;
  ca_cm_asin_parts(fabs(y), fabs(x), L, D);
  return ca_cm_z(copysign(L, x), copysign(atan2(fabs(y), D), y));
}

CA_FN ca_cm_z ca_cm_acosh(double x, double y) {
  if (!isfinite(x) || !isfinite(y)) {
    if (isnan(x)) return isinf(y) ? ca_cm_z(ca_cm_inf(), x) : ca_cm_z(ca_cm_nan(), ca_cm_nan());
    if (isnan(y)) {
      if (isinf(x)) return ca_cm_z(ca_cm_inf(), y);
      // acosh(+-0 + i nan) is nan + i pi/2 (C99 G.6.2.1 leaves the sign open; glibc and NumPy take +), which
      // also gives acos(+-0 + i nan) = pi/2 + i nan.
      if (x == 0) return ca_cm_z(ca_cm_nan(), ca_cm_pi_2());
      return ca_cm_z(ca_cm_nan(), ca_cm_nan());
    }
    return ca_cm_z(ca_cm_inf(), copysign(atan2(fabs(y), x), y));
  }
  double L, D;
  ca_cm_asin_parts(fabs(x), fabs(y), L, D);
  return ca_cm_z(L, copysign(atan2(D, x), y));
}

CA_FN ca_cm_z ca_cm_atanh(double x, double y) {
  if (!isfinite(x) || !isfinite(y)) {
    if (isnan(x))
      return isinf(y) ? ca_cm_z(copysign(0.0, x), copysign(ca_cm_pi_2(), y)) : ca_cm_z(ca_cm_nan(), ca_cm_nan());
    if (isnan(y)) return (isinf(x) || x == 0) ? ca_cm_z(copysign(0.0, x), y) : ca_cm_z(ca_cm_nan(), ca_cm_nan());
    return ca_cm_z(copysign(0.0, x), copysign(ca_cm_pi_2(), y));
  }
  double ax = fabs(x), ay = fabs(y), re, im;
  if (ax > 0x1p+500 || ay > 0x1p+500) {
    // atanh z = atanh(1/z) +- i pi/2, and atanh(1/z) = 1/z to double precision here.
    double m = ax > ay ? ax : ay, xs = ax / m, ys = ay / m;
    re = xs / (xs * xs + ys * ys) / m;
    im = ca_cm_pi_2();
  } else {
    double t = 1 - ax;
    if (ax == 1 && ay < 0x1p-500) re = 0.5 * (ca_cm_ln2() - log(ay));  // (1 - x)^2 + y^2 would underflow
    else re = 0.25 * log1p(4 * ax / (t * t + ay * ay));
    im = 0.5 * atan2(2 * ay, fma(-ay, ay, t * (1 + ax)));
  }
  return ca_cm_z(copysign(re, x), copysign(im, y));
}

CA_FN ca_cm_z ca_cm_pow(ca_cm_z z, ca_cm_z w) {
  if (w.re == 0 && w.im == 0) return ca_cm_z(1.0, 0.0);
  if (z.re == 0 && z.im == 0) {
    // NumPy 2.4 returns 0 for any w with a positive real part, whatever its imaginary part.
    if (w.re > 0) return ca_cm_z(0.0, 0.0);
    return ca_cm_z(ca_cm_nan(), ca_cm_nan());
  }
  if (w.im == 0 && w.re > -100 && w.re < 100 && (double)(int)w.re == w.re) {
    // NumPy's own sequence of products, so that rounding, overflow and infinities match it.
    int n = (int)w.re;
    if (n == 1) return z;
    if (n == 2) return ca_cm_cmul(z, z);
    if (n == 3) return ca_cm_cmul(z, ca_cm_cmul(z, z));
    int m = n < 0 ? -n : n, mask = 1;
    ca_cm_z acc(1.0, 0.0), p = z;
    for (;;) {
      if (m & mask) acc = ca_cm_cmul(acc, p);
      mask <<= 1;
      if (m < mask) break;
      p = ca_cm_cmul(p, p);
    }
    return n < 0 ? ca_cm_cinv(acc) : acc;
  }
  ca_cm_z l = ca_cm_log(z.re, z.im);
  ca_cm_z e = ca_cm_mul_annex_g(w, l);
  return ca_cm_exp(e.re, e.im);
}

CA_FN ca_cm_z ca_cm_exp2(double x, double y) {
  // Where a part is not finite, NumPy's exp(z ln 2) gives the special values.
  if (!isfinite(x) || !isfinite(y) || y == 0) {
    if (y == 0) return ca_cm_z(exp2(x), y);
    return ca_cm_exp(x * ca_cm_ln2(), y * ca_cm_ln2());
  }
  // 2^x cis(y ln 2), with the angle y ln 2 = th + tl carried to about twice double precision; the second-order
  // terms of cis(th + tl) keep this exact to double precision while |tl| < 1e-5.
  double th = y * ca_cm_ln2(), c = cos(th), s = sin(th);
  if (fabs(th) < 1e10) {
    double tl = fma(y, ca_cm_ln2(), -th) + y * 2.319046813846299558e-17, h = 1 - 0.5 * tl * tl;
    double c1 = c * h - tl * s;
    s = s * h + tl * c;
    c = c1;
  }
  double xc = x > 2200 ? 2200 : (x < -2200 ? -2200 : x);
  double n = floor(xc), f = exp2(xc - n);
  return ca_cm_z(ldexp(f * c, (int)n), ldexp(f * s, (int)n));
}

CA_FN ca_cm_z ca_cm_expm1(double x, double y) {
  // Past x = 708 e^x is scaled as in cexp; y == 0 keeps NumPy's e^x * 0 = nan on overflow.
  if (isfinite(x) && x > 708 && isfinite(y) && y != 0) {
    ca_cm_z e = ca_cm_exp(x, y);
    return ca_cm_z(e.re - 1, e.im);
  }
  // NumPy's formula; Re = expm1(x) cos y - 2 sin^2(y/2) = e^x cos y - 1 without cancellation at small z.
  double a = sin(y / 2);
  return ca_cm_z(expm1(x) * cos(y) - 2 * a * a, exp(x) * sin(y));
}

CA_FN ca_cm_z ca_cm_log1p(double x, double y) {
  double u = x + 1;
  if (!isfinite(x) || !isfinite(y)) return ca_cm_z(log(ca_cm_abs(u, y)), atan2(y, u));
  double re, h2 = u * u + y * y;
  if (h2 > 0.25 && h2 < 4) {
    // |1 + z|^2 - 1 = 2x + x^2 + y^2, summed exactly enough to keep its relative precision near 0.
    double p1 = x * x, p2 = y * y, e1 = fma(x, x, -p1), e2 = fma(y, y, -p2);
    double s1, l1, s2, l2;
    ca_cm_two_sum(2 * x, p1, s1, l1);
    ca_cm_two_sum(s1, p2, s2, l2);
    re = 0.5 * log1p(s2 + (l1 + l2 + e1 + e2));
  } else {
    re = ca_cm_log_abs(u, y);
  }
  return ca_cm_z(re, atan2(y, u));
}

CA_FN ca_cm_z ca_cm_sign(double x, double y) {
  // NumPy divides by hypot(x, y), which is inf when a part is inf even beside a nan.
  if (isinf(x)) return isinf(y) ? ca_cm_z(ca_cm_nan(), ca_cm_nan()) : ca_cm_z(x > 0 ? 1.0 : -1.0, 0.0);
  if (isinf(y)) return ca_cm_z(0.0, y > 0 ? 1.0 : -1.0);
  if (isnan(x) || isnan(y)) return ca_cm_z(ca_cm_nan(), ca_cm_nan());
  if (x == 0 && y == 0) return ca_cm_z(0.0, 0.0);
  double m = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
  if (m > 0x1p+1000) {
    x *= 0x1p-600;
    y *= 0x1p-600;
  } else if (m < 0x1p-1000) {
    x *= 0x1p+600;
    y *= 0x1p+600;
  }
  double h = hypot(x, y);
  return ca_cm_z(x / h, y / h);
}

// ---------------------------------------------------------------------------------------------------------
// ca_c_*: complex64 and complex128 (see Note [complex math precision]).

template <class T> CA_FN T ca_c_abs(ca_complex<T> z) { return T(ca_cm_abs(double(z.re), double(z.im))); }
template <class T> CA_FN T ca_c_arg(ca_complex<T> z) { return T(atan2(double(z.im), double(z.re))); }

#define CA_CM_UNARY(name)                                                                                              \
  template <class T> CA_FN ca_complex<T> ca_c_##name(ca_complex<T> z) {                                                \
    return ca_complex<T>(ca_cm_##name(double(z.re), double(z.im)));                                                    \
  }
CA_CM_UNARY(exp)
CA_CM_UNARY(exp2)
CA_CM_UNARY(log)
CA_CM_UNARY(log1p)
CA_CM_UNARY(sqrt)
CA_CM_UNARY(sinh)
CA_CM_UNARY(cosh)
CA_CM_UNARY(tanh)
CA_CM_UNARY(asinh)
CA_CM_UNARY(acosh)
CA_CM_UNARY(atanh)
CA_CM_UNARY(sign)
#undef CA_CM_UNARY

template <class T> CA_FN ca_complex<T> ca_c_expm1(ca_complex<T> z) {
  ca_cm_z r = ca_cm_expm1(double(z.re), double(z.im));
  // NumPy's float loop makes e^x * sin(0) = inf * 0 = nan once e^x overflows float.
  if constexpr (ca_same<T, float>::value) {
    if (z.im == 0 && isinf(float(exp(double(z.re))))) r.im = ca_cm_nan();
  }
  return ca_complex<T>(r);
}
template <class T> CA_FN ca_complex<T> ca_c_log2(ca_complex<T> z) {
  ca_cm_z l = ca_cm_log(double(z.re), double(z.im));
  return ca_complex<T>(ca_cm_z(l.re * ca_cm_log2e(), l.im * ca_cm_log2e()));
}
template <class T> CA_FN ca_complex<T> ca_c_log10(ca_complex<T> z) {
  ca_cm_z l = ca_cm_log(double(z.re), double(z.im));
  return ca_complex<T>(ca_cm_z(l.re * ca_cm_log10e(), l.im * ca_cm_log10e()));
}

template <class T> CA_FN ca_complex<T> ca_c_pow(ca_complex<T> z, ca_complex<T> w) {
  return ca_complex<T>(ca_cm_pow(ca_cm_z(z), ca_cm_z(w)));
}

// The circular functions through the hyperbolic ones: sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz),
// and likewise for the inverses, as C99 defines their special values.
template <class T> CA_FN ca_complex<T> ca_c_sin(ca_complex<T> z) {
  ca_cm_z r = ca_cm_sinh(-double(z.im), double(z.re));
  return ca_complex<T>(ca_cm_z(r.im, -r.re));
}
template <class T> CA_FN ca_complex<T> ca_c_cos(ca_complex<T> z) {
  return ca_complex<T>(ca_cm_cosh(-double(z.im), double(z.re)));
}
template <class T> CA_FN ca_complex<T> ca_c_tan(ca_complex<T> z) {
  ca_cm_z r = ca_cm_tanh(-double(z.im), double(z.re));
  return ca_complex<T>(ca_cm_z(r.im, -r.re));
}
template <class T> CA_FN ca_complex<T> ca_c_asin(ca_complex<T> z) {
  ca_cm_z r = ca_cm_asinh(-double(z.im), double(z.re));
  return ca_complex<T>(ca_cm_z(r.im, -r.re));
}
template <class T> CA_FN ca_complex<T> ca_c_acos(ca_complex<T> z) {
  // acos z = |Im acosh z| - i sign(y) Re acosh z.
  double y = double(z.im);
  ca_cm_z r = ca_cm_acosh(double(z.re), y);
  return ca_complex<T>(ca_cm_z(fabs(r.im), -copysign(r.re, y)));
}
template <class T> CA_FN ca_complex<T> ca_c_atan(ca_complex<T> z) {
  // atan(+-inf + iy) = +-pi/2 + i copysign(0, y) for every y, NaN too (glibc's choice where C99 leaves the zero's
  // sign open, so NumPy's). Through atanh(-y + ix) that sign would ride on the sign of a negated NaN, which the
  // device does not keep (PTX leaves it unspecified), so answer from y's own sign bit.
  if (isinf(z.re)) return ca_complex<T>(ca_cm_z(copysign(ca_cm_pi_2(), double(z.re)), signbit(z.im) ? -0.0 : 0.0));
  ca_cm_z r = ca_cm_atanh(-double(z.im), double(z.re));
  return ca_complex<T>(ca_cm_z(r.im, -r.re));
}

// NumPy's reciprocal loop, in the element type.
template <class T> CA_FN ca_complex<T> ca_c_reciprocal(ca_complex<T> z) {
  T a = z.re, b = z.im;
  if (fabs(b) <= fabs(a)) {
    T r = b / a, d = a + b * r;
    return ca_complex<T>(T(1) / d, -r / d);
  }
  T r = a / b, d = a * r + b;
  return ca_complex<T>(r / d, T(-1) / d);
}
// Fused as NumPy's SIMD loop fuses it on x86-64 with FMA (so (1e300 + 1e300j)**2 is -inf + inf j there too).
template <class T> CA_FN ca_complex<T> ca_c_square(ca_complex<T> z) {
  return ca_complex<T>(fma(z.re, z.re, -(z.im * z.im)), fma(z.re, z.im, z.im * z.re));
}

// ---------------------------------------------------------------------------------------------------------
// The complex math of hand-written kernels, spelled as CuPy's (thrust's) complex API.

template <class T> CA_FN ca_complex<T> exp(ca_complex<T> z) { return ca_c_exp(z); }
template <class T> CA_FN ca_complex<T> log(ca_complex<T> z) { return ca_c_log(z); }
template <class T> CA_FN ca_complex<T> log10(ca_complex<T> z) { return ca_c_log10(z); }
template <class T> CA_FN ca_complex<T> sqrt(ca_complex<T> z) { return ca_c_sqrt(z); }
template <class T> CA_FN ca_complex<T> sin(ca_complex<T> z) { return ca_c_sin(z); }
template <class T> CA_FN ca_complex<T> cos(ca_complex<T> z) { return ca_c_cos(z); }
template <class T> CA_FN ca_complex<T> tan(ca_complex<T> z) { return ca_c_tan(z); }
template <class T> CA_FN ca_complex<T> sinh(ca_complex<T> z) { return ca_c_sinh(z); }
template <class T> CA_FN ca_complex<T> cosh(ca_complex<T> z) { return ca_c_cosh(z); }
template <class T> CA_FN ca_complex<T> tanh(ca_complex<T> z) { return ca_c_tanh(z); }
template <class T> CA_FN ca_complex<T> asin(ca_complex<T> z) { return ca_c_asin(z); }
template <class T> CA_FN ca_complex<T> acos(ca_complex<T> z) { return ca_c_acos(z); }
template <class T> CA_FN ca_complex<T> atan(ca_complex<T> z) { return ca_c_atan(z); }
template <class T> CA_FN ca_complex<T> asinh(ca_complex<T> z) { return ca_c_asinh(z); }
template <class T> CA_FN ca_complex<T> acosh(ca_complex<T> z) { return ca_c_acosh(z); }
template <class T> CA_FN ca_complex<T> atanh(ca_complex<T> z) { return ca_c_atanh(z); }
template <class T> CA_FN T abs(ca_complex<T> z) { return ca_c_abs(z); }
template <class T> CA_FN T arg(ca_complex<T> z) { return ca_c_arg(z); }
template <class T> CA_FN ca_complex<T> proj(ca_complex<T> z) {
  if (isinf(z.re) || isinf(z.im)) return ca_complex<T>(T(ca_cm_inf()), copysign(T(0), z.im));
  return z;
}
template <class T> CA_FN ca_complex<T> pow(ca_complex<T> z, ca_complex<T> w) { return ca_c_pow(z, w); }
template <class T, class U>
CA_FN typename ca_cm_enable_if<ca_is_int<U> || ca_is_float<U>, ca_complex<T>>::type pow(ca_complex<T> z, U w) {
  return ca_c_pow(z, ca_complex<T>(T(w), T(0)));
}
template <class T, class U>
CA_FN typename ca_cm_enable_if<ca_is_int<U> || ca_is_float<U>, ca_complex<T>>::type pow(U z, ca_complex<T> w) {
  return ca_c_pow(ca_complex<T>(T(z), T(0)), w);
}
