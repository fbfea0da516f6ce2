// Sort keys (Note [sort keys]): unsigned order equals NumPy's sort order, NaN last, -0.0 == +0.0 for argsort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "src/kernels/sort_kernels.hpp"
#include "src/kernels/sort_keys.hpp"

namespace sk = cuarray::detail::sort_keys;

namespace {

std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// NumPy's float order: numeric, NaNs last, -0.0 equal to 0.0.
bool numpy_less(double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; }

const std::vector<double> k_values{-std::numeric_limits<double>::infinity(),
                                   -1e300,
                                   -2.5,
                                   -1.0,
                                   -1e-310,
                                   -0.0,
                                   0.0,
                                   1e-310,
                                   1e-5,
                                   1.0,
                                   3.5,
                                   1e300,
                                   std::numeric_limits<double>::infinity(),
                                   std::nan(""),
                                   -std::nan("")};

}  // namespace

TEST(SortKeys, Float64ArgKeyOrderIsNumpyOrder) {
  for (double a : k_values) {
    for (double b : k_values) {
      bool less = sk::float_arg_key(bits(a)) < sk::float_arg_key(bits(b));
      EXPECT_EQ(less, numpy_less(a, b)) << a << " " << b;
    }
  }
}

TEST(SortKeys, Float32ArgKeyMergesZerosAndNans) {
  EXPECT_EQ(sk::float_arg_key(bits(-0.0f)), sk::float_arg_key(bits(0.0f)));
  EXPECT_EQ(sk::float_arg_key(bits(std::nanf(""))), sk::float_arg_key(bits(-std::nanf("1"))));
  EXPECT_EQ(sk::float_arg_key(bits(std::nanf(""))), 0xFFFFFFFFu);
  EXPECT_LT(sk::float_arg_key(bits(std::numeric_limits<float>::infinity())), 0xFFFFFFFFu);
}

TEST(SortKeys, SortKeyIsInvertibleAndPutsNansLast) {
  for (double d : k_values) {
    float f = static_cast<float>(d);
    std::uint32_t k = sk::float_sort_key(bits(f));
    float back = from_bits(sk::float_untwiddle(k));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(back));
      EXPECT_GT(k, sk::float_sort_key(bits(std::numeric_limits<float>::infinity())));
    } else {
      EXPECT_EQ(bits(back), bits(f));  // the bits come back, -0.0 included
    }
  }
  EXPECT_LT(sk::float_sort_key(bits(-0.0f)), sk::float_sort_key(bits(0.0f)));
}

TEST(SortKeys, Float16Bits) {
  const std::uint16_t neg_inf = 0xFC00, neg_one = 0xBC00, neg_zero = 0x8000, zero = 0, one = 0x3C00, inf = 0x7C00,
                      nan = 0x7E00, neg_nan = 0xFE00;
  std::vector<std::uint16_t> ordered{neg_inf, neg_one, zero, one, inf, nan};
  for (std::size_t i = 0; i + 1 < ordered.size(); ++i) {
    EXPECT_LT(sk::float_arg_key(ordered[i]), sk::float_arg_key(ordered[i + 1]));
  }
  EXPECT_EQ(sk::float_arg_key(neg_zero), sk::float_arg_key(zero));
  EXPECT_EQ(sk::float_arg_key(neg_nan), sk::float_arg_key(nan));
  EXPECT_TRUE(sk::float_is_nan(neg_nan));
  EXPECT_FALSE(sk::float_is_nan(inf));
}

TEST(SortKeys, SignedKeysOrderAsSigned) {
  std::vector<std::int8_t> v{-128, -5, -1, 0, 1, 7, 127};
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    EXPECT_LT(sk::signed_key(static_cast<std::uint8_t>(v[i])), sk::signed_key(static_cast<std::uint8_t>(v[i + 1])));
  }
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(sk::signed_key(static_cast<std::uint64_t>(lo)), 0u);
}

TEST(SortKeys, ComplexOrderIsNumpys) {
  // NumPy's documented order: R + Rj < R + nanj < nan + Rj < nan + nanj, lexicographic inside a class.
  const double n = std::nan("");
  std::vector<std::complex<double>> ordered{{-1, 5}, {1, -2}, {1, 0},  {1, 3}, {2, -9},
                                            {-5, n}, {0, n},  {n, -1}, {n, 4}, {n, n}};
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    for (std::size_t j = 0; j < ordered.size(); ++j) {
      bool less = sk::complex_less(bits(ordered[i].real()), bits(ordered[i].imag()), bits(ordered[j].real()),
                                   bits(ordered[j].imag()));
      EXPECT_EQ(less, i < j) << i << " " << j;
    }
  }
  EXPECT_FALSE(sk::complex_less(bits(-0.0), bits(0.0), bits(0.0), bits(-0.0)));
}

// Note [native keys]: argsort keeps CUB's order on native keys only when every NaN has one bit pattern.
TEST(SortKeys, NanSummaryOnePattern) {
  using cuarray::detail::sorting::nan_summary;
  auto summary_of = [](const std::vector<std::uint64_t>& nans) {
    nan_summary s{0, 0, 0};  // as the device zeroes it, then takes the maxima of ~bits and bits
    for (std::uint64_t b : nans) {
      s.max_inverted = std::max(s.max_inverted, static_cast<std::uint64_t>(~b));
      s.max_bits = std::max(s.max_bits, b);
    }
    return s;
  };
  EXPECT_TRUE(summary_of({}).one_pattern());
  EXPECT_TRUE(summary_of({0x7FC00000u, 0x7FC00000u}).one_pattern());
  EXPECT_TRUE(summary_of({0x7FF8000000000000u}).one_pattern());
  EXPECT_FALSE(summary_of({0x7FC00000u, 0x7FC00001u}).one_pattern());
  EXPECT_FALSE(summary_of({0x7FC00000u, 0xFFC00000u}).one_pattern());
  EXPECT_FALSE(summary_of({0x7FFFFFFFu, 0x7FC00000u, 0x7FFFFFFFu}).one_pattern());
}
