// Host scalars: NumPy's casts between dtypes, including float16 rounding and integer wraparound.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "cuarray/array.hpp"
#include "src/core/half.hpp"

using namespace cuarray;

namespace {
template <class T> T bits_of(const scalar& s) {
  T v;
  std::memcpy(&v, s.bytes, sizeof(T));
  return v;
}
}  // namespace

TEST(Scalar, IntegerCastsWrapAround) {
  EXPECT_EQ(bits_of<std::int8_t>(scalar::from_int(300, int8)), static_cast<std::int8_t>(44));
  EXPECT_EQ(bits_of<std::uint8_t>(scalar::from_int(-1, uint8)), 255);
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_int(-1, uint64)), std::numeric_limits<std::uint64_t>::max());
}

TEST(Scalar, FloatToIntegerTruncates) {
  EXPECT_EQ(bits_of<std::int32_t>(scalar::from_double(-2.7, int32)), -2);
  EXPECT_EQ(bits_of<std::uint8_t>(scalar::from_double(-1.0, uint8)), 255);
  // NaN to integer is undefined in NumPy; it must simply not crash.
  (void)scalar::from_double(std::nan(""), int64);
}

// Issue 14: NaN, inf and out-of-range values give NumPy's values on x86-64 (Note [float to int casts] in
// src/kernels/basic_kernels.cu), the same as astype's and the ufuncs' kernels.
TEST(Scalar, FloatToIntegerSpecialsFollowNumPyOnX86) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(bits_of<std::int64_t>(scalar::from_double(nan, int64)), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(bits_of<std::int64_t>(scalar::from_double(inf, int64)), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_double(nan, uint64)), std::uint64_t{1} << 63);
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_double(-inf, uint64)), std::uint64_t{1} << 63);
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_double(inf, uint64)), 0u);
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_double(18446744073709551616.0, uint64)), 0u);
  EXPECT_EQ(bits_of<std::uint64_t>(scalar::from_double(-1.0, uint64)), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(bits_of<std::int32_t>(scalar::from_double(nan, int32)), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(bits_of<std::int32_t>(scalar::from_double(3e9, int32)), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(bits_of<std::uint32_t>(scalar::from_double(3e9, uint32)), 3000000000u);
  EXPECT_EQ(bits_of<std::uint32_t>(scalar::from_double(nan, uint32)), 0u);
  EXPECT_EQ(bits_of<std::int8_t>(scalar::from_double(nan, int8)), 0);
  EXPECT_EQ(bits_of<std::int8_t>(scalar::from_double(1e10, int8)), 0);
  EXPECT_EQ(bits_of<std::uint16_t>(scalar::from_double(7e4, uint16)), 4464);
  EXPECT_EQ(bits_of<std::int16_t>(scalar::from_double(-7e4, int16)), -4464);
  EXPECT_EQ(scalar::from_double(nan, float64).to_int64(), std::numeric_limits<std::int64_t>::min());
}

TEST(Scalar, BoolFromAnyNonZero) {
  EXPECT_EQ(bits_of<std::uint8_t>(scalar::from_double(0.5, bool_)), 1);
  EXPECT_EQ(bits_of<std::uint8_t>(scalar::from_complex({0, 1}, bool_)), 1);
  EXPECT_EQ(bits_of<std::uint8_t>(scalar::from_int(0, bool_)), 0);
}

TEST(Scalar, ComplexToRealKeepsRealPart) {
  EXPECT_DOUBLE_EQ(scalar::from_complex({2.5, -1}, float64).to_double(), 2.5);
  auto c = scalar::from_double(3.0, complex64).to_complex();
  EXPECT_EQ(c, std::complex<double>(3.0, 0.0));
}

TEST(Scalar, HalfConversionRoundsToNearestEven) {
  using detail::double_to_half;
  using detail::half_to_float;
  EXPECT_EQ(double_to_half(1.0), 0x3c00);
  EXPECT_EQ(double_to_half(-2.0), 0xc000);
  EXPECT_EQ(double_to_half(65504.0), 0x7bff);
  EXPECT_EQ(double_to_half(65520.0), 0x7c00);                // rounds to infinity
  EXPECT_EQ(double_to_half(1.0 + 1.0 / 2048), 0x3c00);       // tie: even
  EXPECT_EQ(double_to_half(1.0 + 3.0 / 2048), 0x3c02);       // tie: even upward
  EXPECT_EQ(double_to_half(5.960464477539063e-08), 0x0001);  // smallest subnormal
  EXPECT_EQ(double_to_half(2.0e-8), 0x0000);
  EXPECT_TRUE(std::isnan(half_to_float(double_to_half(std::nan("")))));
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    EXPECT_EQ(double_to_half(half_to_float(static_cast<std::uint16_t>(h))), h);
  }
}
