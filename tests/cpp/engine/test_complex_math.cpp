// Complex math of run-time compiled kernels, compiled for the host: special values, accuracy against glibc, pow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "src/engine/device/ca_complex_math.cuh"

namespace {

using cd = std::complex<double>;
using z128 = ca_complex128;
using z64 = ca_complex64;

const double inf = std::numeric_limits<double>::infinity();
const double qnan = std::numeric_limits<double>::quiet_NaN();
const double pi = 3.141592653589793;

// NumPy's comparison: a complex number with a nan part is nan as a whole.
bool is_nan(double re, double im) { return std::isnan(re) || std::isnan(im); }

// max(|d re|, |d im|) in ulps of the larger part of `want`; inf where one side is nan or infinities differ.
double ulps(double gr, double gi, double wr, double wi) {
  if (is_nan(gr, gi) || is_nan(wr, wi)) return is_nan(gr, gi) == is_nan(wr, wi) ? 0 : inf;
  double d = 0;
  for (auto [g, w] : {std::pair{gr, wr}, std::pair{gi, wi}}) {
    if (std::isinf(g) || std::isinf(w)) {
      if (g != w) return inf;
    } else {
      d = std::max(d, std::fabs(g - w));
    }
  }
  double m = std::max(std::fabs(wr), std::fabs(wi));
  if (std::isinf(m)) m = std::numeric_limits<double>::max();
  double ulp = std::max(std::nextafter(m, inf) - m, std::numeric_limits<double>::denorm_min());
  return d / ulp;
}
double ulps(z128 got, cd want) { return ulps(got.re, got.im, want.real(), want.imag()); }

float ulps_f(z64 got, cd want) {
  float wr = float(want.real()), wi = float(want.imag());
  if (is_nan(got.re, got.im) || is_nan(wr, wi)) return is_nan(got.re, got.im) == is_nan(wr, wi) ? 0 : inf;
  float m = std::max(std::fabs(wr), std::fabs(wi));
  if (std::isinf(m)) return (got.re == wr && got.im == wi) ? 0 : inf;
  float ulp = std::max(std::nextafter(m, float(inf)) - m, std::numeric_limits<float>::denorm_min());
  return std::max(std::fabs(got.re - wr), std::fabs(got.im - wi)) / ulp;
}

std::string show(double re, double im) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.17g, %.17g)", re, im);
  return buf;
}

// Equal as NumPy's testing sees it, and with equal signs where a part is zero.
::testing::AssertionResult same(z128 got, double wr, double wi) {
  bool ok = is_nan(got.re, got.im)
                ? is_nan(wr, wi)
                : !is_nan(wr, wi) && got.re == wr && got.im == wi && std::signbit(got.re) == std::signbit(wr) &&
                      std::signbit(got.im) == std::signbit(wi);
  if (ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << show(got.re, got.im) << " (signs " << std::signbit(got.re)
                                       << std::signbit(got.im) << "), want " << show(wr, wi);
}

struct unary_case {
  const char* name;
  z128 (*ours)(z128);
  z64 (*ours64)(z64);
  cd (*ref)(cd);
};

// Functions whose NumPy result is glibc's C99 function.
const std::vector<unary_case>& c99_functions() {
  static const std::vector<unary_case> fns = {
      {"exp", [](z128 z) { return ca_c_exp(z); }, [](z64 z) { return ca_c_exp(z); }, [](cd z) { return std::exp(z); }},
      {"log", [](z128 z) { return ca_c_log(z); }, [](z64 z) { return ca_c_log(z); }, [](cd z) { return std::log(z); }},
      {"sqrt", [](z128 z) { return ca_c_sqrt(z); }, [](z64 z) { return ca_c_sqrt(z); },
       [](cd z) { return std::sqrt(z); }},
      {"sin", [](z128 z) { return ca_c_sin(z); }, [](z64 z) { return ca_c_sin(z); }, [](cd z) { return std::sin(z); }},
      {"cos", [](z128 z) { return ca_c_cos(z); }, [](z64 z) { return ca_c_cos(z); }, [](cd z) { return std::cos(z); }},
      {"tan", [](z128 z) { return ca_c_tan(z); }, [](z64 z) { return ca_c_tan(z); }, [](cd z) { return std::tan(z); }},
      {"sinh", [](z128 z) { return ca_c_sinh(z); }, [](z64 z) { return ca_c_sinh(z); },
       [](cd z) { return std::sinh(z); }},
      {"cosh", [](z128 z) { return ca_c_cosh(z); }, [](z64 z) { return ca_c_cosh(z); },
       [](cd z) { return std::cosh(z); }},
      {"tanh", [](z128 z) { return ca_c_tanh(z); }, [](z64 z) { return ca_c_tanh(z); },
       [](cd z) { return std::tanh(z); }},
      {"asin", [](z128 z) { return ca_c_asin(z); }, [](z64 z) { return ca_c_asin(z); },
       [](cd z) { return std::asin(z); }},
      {"acos", [](z128 z) { return ca_c_acos(z); }, [](z64 z) { return ca_c_acos(z); },
       [](cd z) { return std::acos(z); }},
      {"atan", [](z128 z) { return ca_c_atan(z); }, [](z64 z) { return ca_c_atan(z); },
       [](cd z) { return std::atan(z); }},
      {"asinh", [](z128 z) { return ca_c_asinh(z); }, [](z64 z) { return ca_c_asinh(z); },
       [](cd z) { return std::asinh(z); }},
      {"acosh", [](z128 z) { return ca_c_acosh(z); }, [](z64 z) { return ca_c_acosh(z); },
       [](cd z) { return std::acosh(z); }},
      {"atanh", [](z128 z) { return ca_c_atanh(z); }, [](z64 z) { return ca_c_atanh(z); },
       [](cd z) { return std::atanh(z); }},
      {"log10", [](z128 z) { return ca_c_log10(z); }, [](z64 z) { return ca_c_log10(z); },
       [](cd z) { return std::log(z) * 0.4342944819032518; }},
      {"log2", [](z128 z) { return ca_c_log2(z); }, [](z64 z) { return ca_c_log2(z); },
       [](cd z) { return std::log(z) * 1.4426950408889634; }},
  };
  return fns;
}

// Ordinary arguments: parts uniform in [-6, 6], then magnitudes spread over [1e-12, 1e12], from a fixed generator.
std::vector<cd> ordinary_values() {
  std::mt19937_64 gen(20240611);
  auto unit = [&] { return double(gen() >> 11) * 0x1p-53; };
  std::vector<cd> v;
  for (int i = 0; i < 3000; ++i) {
    double a = 12 * unit() - 6;
    v.emplace_back(a, 12 * unit() - 6);
  }
  for (int i = 0; i < 2000; ++i) {
    double a = std::pow(10.0, 24 * unit() - 12);
    a = unit() < 0.5 ? -a : a;
    double b = std::pow(10.0, 24 * unit() - 12);
    v.emplace_back(a, unit() < 0.5 ? -b : b);
  }
  // Near the unit circle and near +-1, +-i, where log, asin and atanh lose digits without care.
  for (int i = 0; i < 1000; ++i) {
    double t = 2 * pi * unit(), r = 1 + (unit() - 0.5) * 1e-9;
    v.emplace_back(r * std::cos(t), r * std::sin(t));
    const cd units[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    double dx = unit() - 0.5, dy = unit() - 0.5;
    v.push_back(units[i % 4] + cd(dx, dy) * std::pow(10.0, -12 * unit()));
  }
  return v;
}

const std::vector<double>& special_parts() {
  static const std::vector<double> v = {0.0,  -0.0,   0.5,   -0.5,   1.0, -1.0, 2.0,
                                        -2.0, 1e-300, 1e300, -1e300, inf, -inf, qnan};
  return v;
}

}  // namespace

TEST(ComplexMath, Complex128IsWithinFourUlpsOfGlibcOnOrdinaryArguments) {
  std::vector<cd> args = ordinary_values();
  for (const unary_case& f : c99_functions()) {
    double worst = 0;
    cd at;
    for (cd z : args) {
      double e = ulps(f.ours(z128(z.real(), z.imag())), f.ref(z));
      if (e > worst) worst = e, at = z;
    }
    EXPECT_LE(worst, 4.0) << f.name << " at " << show(at.real(), at.imag());
  }
}

TEST(ComplexMath, Complex64IsTheDoubleResultRoundedOnce) {
  // Rounded to float in a loop of its own: GCC 12's SLP vectorizer at -O2 was seen to pass the unrounded double
  // on to the reference when both conversions sat in one loop body.
  std::vector<z64> args;
  for (cd z : ordinary_values()) args.emplace_back(float(z.real()), float(z.imag()));
  for (const unary_case& f : c99_functions()) {
    float worst = 0;
    z64 at{0, 0};
    for (z64 zf : args) {
      float e = ulps_f(f.ours64(zf), f.ref(cd(zf.re, zf.im)));
      if (e > worst) worst = e, at = zf;
    }
    EXPECT_LE(worst, 1.0f) << f.name << " at " << show(at.re, at.im);
  }
}

TEST(ComplexMath, SpecialValueGridMatchesGlibc) {
  // Every pair of special parts: same nan-ness (as NumPy compares) and equal infinite or finite parts. Signs of
  // zeros are checked against C99 Annex G in SpecialValuesFollowC99AnnexG, where the standard fixes them.
  for (const unary_case& f : c99_functions()) {
    for (double re : special_parts()) {
      for (double im : special_parts()) {
        EXPECT_LE(ulps(f.ours(z128(re, im)), f.ref(cd(re, im))), 4.0) << f.name << show(re, im);
      }
    }
  }
}

TEST(ComplexMath, SpecialValuesFollowC99AnnexG) {
  const double pi_2 = pi / 2, pi_4 = pi / 4;
  EXPECT_TRUE(same(ca_c_exp(z128(inf, 0.0)), inf, 0.0));
  EXPECT_TRUE(same(ca_c_exp(z128(-inf, 1.0)), 0.0, 0.0));
  EXPECT_TRUE(same(ca_c_exp(z128(-inf, 2.0)), -0.0, 0.0));
  EXPECT_TRUE(same(ca_c_exp(z128(qnan, -0.0)), qnan, -0.0));
  EXPECT_TRUE(same(ca_c_exp(z128(-0.0, -0.0)), 1.0, -0.0));
  EXPECT_TRUE(same(ca_c_exp(z128(1.0, inf)), qnan, qnan));

  EXPECT_TRUE(same(ca_c_log(z128(-0.0, 0.0)), -inf, pi));
  EXPECT_TRUE(same(ca_c_log(z128(0.0, -0.0)), -inf, -0.0));
  EXPECT_TRUE(same(ca_c_log(z128(-inf, 1.0)), inf, pi));
  EXPECT_TRUE(same(ca_c_log(z128(inf, inf)), inf, pi_4));
  EXPECT_EQ(ca_c_log(z128(-2.0, -0.0)).im, -pi);

  EXPECT_TRUE(same(ca_c_sqrt(z128(-4.0, 0.0)), 0.0, 2.0));
  EXPECT_TRUE(same(ca_c_sqrt(z128(-4.0, -0.0)), 0.0, -2.0));
  EXPECT_TRUE(same(ca_c_sqrt(z128(-0.0, -0.0)), 0.0, -0.0));
  EXPECT_TRUE(same(ca_c_sqrt(z128(qnan, inf)), inf, inf));
  EXPECT_TRUE(same(ca_c_sqrt(z128(-inf, 1.0)), 0.0, inf));
  EXPECT_TRUE(same(ca_c_sqrt(z128(inf, -1.0)), inf, -0.0));

  EXPECT_TRUE(same(ca_c_sinh(z128(inf, 0.0)), inf, 0.0));
  EXPECT_TRUE(same(ca_c_sinh(z128(-0.0, 0.0)), -0.0, 0.0));
  EXPECT_TRUE(same(ca_c_sinh(z128(qnan, -0.0)), qnan, -0.0));
  EXPECT_TRUE(same(ca_c_cosh(z128(-inf, 0.0)), inf, -0.0));
  EXPECT_TRUE(same(ca_c_cosh(z128(0.0, 0.0)), 1.0, 0.0));
  EXPECT_TRUE(same(ca_c_tanh(z128(inf, 1.0)), 1.0, 0.0));
  EXPECT_TRUE(same(ca_c_tanh(z128(-inf, 2.0)), -1.0, -0.0));  // sign of sin(2y)
  EXPECT_TRUE(same(ca_c_tanh(z128(qnan, 0.0)), qnan, 0.0));
  EXPECT_TRUE(same(ca_c_sin(z128(-0.0, 0.0)), -0.0, 0.0));
  EXPECT_TRUE(same(ca_c_cos(z128(0.0, 0.0)), 1.0, -0.0));
  EXPECT_TRUE(same(ca_c_tan(z128(-0.0, -0.0)), -0.0, -0.0));

  EXPECT_TRUE(same(ca_c_asinh(z128(inf, inf)), inf, pi_4));
  EXPECT_TRUE(same(ca_c_asinh(z128(-1.0, inf)), -inf, pi_2));
  EXPECT_TRUE(same(ca_c_asinh(z128(qnan, 0.0)), qnan, 0.0));
  EXPECT_TRUE(same(ca_c_acosh(z128(-inf, 1.0)), inf, pi));
  EXPECT_TRUE(same(ca_c_acosh(z128(-inf, -inf)), inf, -3 * pi_4));
  EXPECT_TRUE(same(ca_c_acosh(z128(0.0, 0.0)), 0.0, pi_2));
  EXPECT_TRUE(same(ca_c_atanh(z128(1.0, 0.0)), inf, 0.0));
  EXPECT_TRUE(same(ca_c_atanh(z128(-inf, 1.0)), -0.0, pi_2));
  EXPECT_TRUE(same(ca_c_atanh(z128(qnan, -inf)), 0.0, -pi_2));
  EXPECT_TRUE(same(ca_c_asin(z128(0.0, -0.0)), 0.0, -0.0));
  EXPECT_TRUE(same(ca_c_acos(z128(-0.0, 0.0)), pi_2, -0.0));
  EXPECT_TRUE(same(ca_c_acos(z128(1.0, inf)), pi_2, -inf));
  EXPECT_TRUE(same(ca_c_acos(z128(-inf, 1.0)), pi, -inf));
  EXPECT_TRUE(same(ca_c_atan(z128(0.0, 1.0)), 0.0, inf));

  // Branch cuts take the side of the signed zero.
  EXPECT_GT(ca_c_asin(z128(2.0, 0.0)).im, 0);
  EXPECT_LT(ca_c_asin(z128(2.0, -0.0)).im, 0);
  EXPECT_GT(ca_c_atanh(z128(2.0, 0.0)).im, 0);
  EXPECT_LT(ca_c_atanh(z128(2.0, -0.0)).im, 0);
  EXPECT_GT(ca_c_acosh(z128(-2.0, 0.0)).im, 0);
  EXPECT_LT(ca_c_acosh(z128(-2.0, -0.0)).im, 0);
}

TEST(ComplexMath, LargeAndTinyArgumentsNeitherOverflowNorLosePrecision) {
  const cd cases[] = {{710.5, 0.5},   {-745.5, 2.0},         {1e308, 1e308}, {-1e308, 1e-308}, {1e-310, 1e-310},
                      {1.0, 1e-300},  {1e-300, 1.0},         {0.3, 800.0},   {-40.0, 3.0},     {1e20, -1e-20},
                      {1e300, 1e300}, {0.999999999, 1e-200}, {1.0, 1e-200},  {-1.0, -1e-200},  {1e-200, 1e200}};
  for (const unary_case& f : c99_functions()) {
    for (cd z : cases) {
      z128 got = f.ours(z128(z.real(), z.imag()));
      EXPECT_LE(ulps(got, f.ref(z)), 4.0) << f.name << show(z.real(), z.imag()) << " got " << show(got.re, got.im);
    }
  }
  // Where e^|x| alone overflows, the scaled product still comes out finite.
  z128 c = ca_c_cosh(z128(710.0, 1.4));
  EXPECT_TRUE(std::isfinite(c.re) && std::isfinite(c.im));
  EXPECT_LE(ulps(ca_c_exp(z128(709.9, 1.5)), std::exp(cd(709.9, 1.5))), 2.0);
  // tan and tanh of a large imaginary (real) part saturate instead of giving inf / inf.
  EXPECT_TRUE(same(ca_c_tan(z128(1.0, 1000.0)), 0.0, 1.0));
  EXPECT_TRUE(same(ca_c_tanh(z128(-1000.0, -1.0)), -1.0, -0.0));
}

TEST(ComplexMath, Log1pExpm1AndExp2AreAccurateWhereNumpysFormulasAreNot) {
  // NumPy computes log1p(z) as log|1 + z| + i arg(1 + z), exp2(z) as exp(z ln 2); these stay to a few ulps.
  for (double x : {1e-10, -3e-7, 2.5e-3}) {
    for (double y : {0.0, 1e-10, -4e-8}) {
      long double lx = x, ly = y;
      long double re = 0.5L * std::log1p(2 * lx + lx * lx + ly * ly), im = std::atan2(ly, 1 + lx);
      EXPECT_LE(ulps(ca_c_log1p(z128(x, y)), cd(double(re), double(im))), 2.0) << show(x, y);
      long double ere = std::expm1(lx) * std::cos(ly) - 2 * std::sin(ly / 2) * std::sin(ly / 2);
      long double eim = std::exp(lx) * std::sin(ly);
      EXPECT_LE(ulps(ca_c_expm1(z128(x, y)), cd(double(ere), double(eim))), 2.0) << show(x, y);
    }
  }
  EXPECT_TRUE(same(ca_c_exp2(z128(10.0, 0.0)), 1024.0, 0.0));
  EXPECT_TRUE(same(ca_c_exp2(z128(-1074.0, 0.0)), std::numeric_limits<double>::denorm_min(), 0.0));
  // 2^z to double precision, from mpmath.
  const cd exp2_cases[][2] = {{{1000.5, 3.0}, {-0x1.609f22cb63f76p+999, 0x1.3c34d7ac10562p+1000}},
                              {{-0.25, 1e5}, {0x1.42c7eca5ad57bp-3, -0x1.a6e8b89486cc2p-1}},
                              {{1023.9, -0.1}, {0x1.dc90d5855b48cp+1023, -0x1.08b02e4322abfp+1020}}};
  for (const auto& c : exp2_cases) {
    EXPECT_LE(ulps(ca_c_exp2(z128(c[0].real(), c[0].imag())), c[1]), 2.0) << show(c[0].real(), c[0].imag());
  }
  // NumPy's expm1 formula overflows to inf * 0 = qnan on the real axis; kept for equal results.
  EXPECT_TRUE(std::isnan(ca_c_expm1(z128(1e10, 0.0)).im));
  EXPECT_TRUE(std::isnan(ca_c_expm1(z64(100.0f, 0.0f)).im));
}

TEST(ComplexMath, PowFollowsNumpysRules) {
  // w == 0 gives 1 whatever z is.
  EXPECT_TRUE(same(ca_c_pow(z128(qnan, qnan), z128(0.0, -0.0)), 1.0, 0.0));
  EXPECT_TRUE(same(ca_c_pow(z128(0.0, 0.0), z128(0.0, 0.0)), 1.0, 0.0));
  // z == 0: 0 for Re w > 0 (NumPy 2.4 ignores Im w here), otherwise qnan.
  EXPECT_TRUE(same(ca_c_pow(z128(-0.0, 0.0), z128(2.5, 0.0)), 0.0, 0.0));
  EXPECT_TRUE(same(ca_c_pow(z128(0.0, -0.0), z128(1.0, 1.0)), 0.0, 0.0));
  EXPECT_TRUE(same(ca_c_pow(z128(0.0, 0.0), z128(-1.0, 0.0)), qnan, qnan));
  EXPECT_TRUE(same(ca_c_pow(z128(0.0, 0.0), z128(0.0, 1.0)), qnan, qnan));
  EXPECT_TRUE(same(ca_c_pow(z128(0.0, 0.0), z128(qnan, 0.0)), qnan, qnan));
  // Integer exponents below 100 in magnitude multiply: (1 + i)^n is exact all the way.
  for (int n = 1; n < 100; ++n) {
    // (1 + i)^n = 2^(n/2) (1, i, -1, -i)[n/2 % 4] for even n, that times (1 + i) for odd n.
    double m = std::ldexp(1.0, n / 2);
    const double unit[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    z128 got = ca_c_pow(z128(1.0, 1.0), z128(double(n), 0.0));
    EXPECT_EQ(got.re, unit[n % 8][0] * m) << n;
    EXPECT_EQ(got.im, unit[n % 8][1] * m) << n;
  }
  // Negative ones take the reciprocal of the positive power by Smith's algorithm.
  z128 r = ca_c_pow(z128(1.0, 1.0), z128(-2.0, 0.0));
  EXPECT_TRUE(same(r, 0.0, -0.5));
  // The unrolled small powers keep infinities: z^1 is z, z^2 is z * z.
  EXPECT_TRUE(same(ca_c_pow(z128(inf, 1.0), z128(1.0, 0.0)), inf, 1.0));
  EXPECT_TRUE(same(ca_c_pow(z128(1e300, 1e300), z128(2.0, 0.0)), qnan, inf));
  // |n| >= 100 and other exponents: exp(w log z), as glibc's cpow.
  z128 big = ca_c_pow(z128(1.0, 1.0), z128(100.0, 0.0));
  EXPECT_NE(big.im, 0.0);
  EXPECT_NEAR(big.re, -std::ldexp(1.0, 50), std::ldexp(1.0, 50) * 1e-13);
  for (cd z : {cd(0.3, -2.0), cd(-4.0, 0.5), cd(1e-3, 7.0)}) {
    for (cd w : {cd(0.5, 0.0), cd(-1.5, 0.25), cd(0.0, 1.0), cd(2.0, 1e-300)}) {
      double cond = 4 + 2 * std::abs(w * std::log(z));
      EXPECT_LE(ulps(ca_c_pow(z128(z.real(), z.imag()), z128(w.real(), w.imag())), std::pow(z, w)), cond)
          << show(z.real(), z.imag()) << "^" << show(w.real(), w.imag());
    }
  }
}

TEST(ComplexMath, ReciprocalSignAbsAndSquareFollowNumpysLoops) {
  EXPECT_TRUE(same(ca_c_reciprocal(z128(0.0, 0.0)), qnan, qnan));
  EXPECT_TRUE(same(ca_c_reciprocal(z128(inf, 0.0)), 0.0, -0.0));
  EXPECT_TRUE(same(ca_c_reciprocal(z128(0.0, 2.0)), 0.0, -0.5));
  EXPECT_TRUE(same(ca_c_reciprocal(z128(4.0, 0.0)), 0.25, -0.0));
  z64 rf = ca_c_reciprocal(z64(3.0f, 4.0f));
  EXPECT_FLOAT_EQ(rf.re, 0.12f);
  EXPECT_FLOAT_EQ(rf.im, -0.16f);

  EXPECT_TRUE(same(ca_c_sign(z128(3.0, -4.0)), 0.6, -0.8));
  EXPECT_TRUE(same(ca_c_sign(z128(-0.0, 0.0)), 0.0, 0.0));
  EXPECT_TRUE(same(ca_c_sign(z128(inf, qnan)), 1.0, 0.0));
  EXPECT_TRUE(same(ca_c_sign(z128(qnan, -inf)), 0.0, -1.0));
  EXPECT_TRUE(same(ca_c_sign(z128(-inf, 5.0)), -1.0, 0.0));
  EXPECT_TRUE(same(ca_c_sign(z128(inf, -inf)), qnan, qnan));
  EXPECT_TRUE(same(ca_c_sign(z128(qnan, 1.0)), qnan, qnan));
  z128 s = ca_c_sign(z128(1e-320, 1e-320));  // scaled: the subnormal parts keep their ratio
  EXPECT_DOUBLE_EQ(s.re, std::sqrt(0.5));

  EXPECT_EQ(ca_c_abs(z128(inf, qnan)), inf);
  EXPECT_EQ(ca_c_abs(z128(qnan, -inf)), inf);
  EXPECT_TRUE(std::isnan(ca_c_abs(z128(qnan, 1.0))));
  EXPECT_EQ(ca_c_abs(z128(3.0, -4.0)), 5.0);
  EXPECT_EQ(ca_c_abs(z64(3e30f, 4e30f)), 5e30f);
  EXPECT_EQ(ca_c_arg(z128(-1.0, -0.0)), -pi);

  EXPECT_TRUE(same(ca_c_square(z128(3.0, 4.0)), -7.0, 24.0));
  EXPECT_TRUE(same(ca_c_square(z128(1e300, 1e300)), -inf, inf));  // fused, as NumPy's SIMD loop
}

TEST(ComplexMath, HandWrittenKernelOverloadsCallTheSameFunctions) {
  // Read through volatile, so that the compiler cannot fold one call at compile time (correctly rounded) and
  // leave the other to the C library.
  volatile double parts[4] = {0.75, -1.25, 0.5, 2.0};
  z128 z(parts[0], parts[1]), w(parts[2], parts[3]);
  EXPECT_TRUE(same(exp(z), ca_c_exp(z).re, ca_c_exp(z).im));
  EXPECT_TRUE(same(log10(z), ca_c_log10(z).re, ca_c_log10(z).im));
  EXPECT_TRUE(same(atanh(z), ca_c_atanh(z).re, ca_c_atanh(z).im));
  EXPECT_TRUE(same(pow(z, w), ca_c_pow(z, w).re, ca_c_pow(z, w).im));
  EXPECT_TRUE(same(pow(z, 2), ca_c_pow(z, z128(2.0)).re, ca_c_pow(z, z128(2.0)).im));
  EXPECT_TRUE(same(pow(2.0, z), ca_c_pow(z128(2.0), z).re, ca_c_pow(z128(2.0), z).im));
  z64 zf{float(parts[0]), float(parts[1])};
  z64 pf = pow(zf, 3);
  EXPECT_EQ(pf.re, ca_c_pow(zf, z64(3.0f)).re);
  EXPECT_EQ(abs(z), ca_c_abs(z));
  EXPECT_EQ(arg(zf), ca_c_arg(zf));
  EXPECT_TRUE(same(proj(z128(-inf, -2.0)), inf, -0.0));
  EXPECT_TRUE(same(proj(z128(qnan, inf)), inf, 0.0));
  EXPECT_TRUE(same(proj(z), z.re, z.im));
  EXPECT_EQ(std::exp(1.0), exp(1.0));  // the real overloads are untouched
}
