// The public cuFFT plan (cuarray::fft_plan): parameter and operand errors, and one batched c2c and r2c execution
// against cuarray::fft::fft of the same data (skipped without a GPU), as C++ callers use it.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::expect_throw_with;

TEST(FftPlan, ParameterErrors) {
  REQUIRE_GPU();
  expect_throw_with<value_error>([] { fft_plan({}, cufft_type::c2c, 1); }, "1 to 3 dimensions");
  expect_throw_with<value_error>([] { fft_plan({0}, cufft_type::c2c, 1); }, "Invalid number of FFT data points");
  expect_throw_with<value_error>([] { fft_plan({8}, cufft_type::c2c, 0); }, "batch must be positive");
  fft_embedding bad{{8, 8}, {8}, 1, 8, 1, 8};
  expect_throw_with<value_error>([&] { fft_plan({8}, cufft_type::c2c, 1, bad); }, "one entry per transformed");
}

TEST(FftPlan, BatchedC2CAndR2CMatchFft) {
  REQUIRE_GPU();
  std::vector<std::complex<float>> h(2 * 8);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = {static_cast<float>(i % 5) - 2.0f, static_cast<float>(i % 3)};
  array x = from_host(h.data(), complex64, {2, 8});
  fft_plan p({8}, cufft_type::c2c, 2);
  EXPECT_EQ(p.input_type(), complex64);
  EXPECT_EQ(p.output_type(), complex64);
  array y = empty({2, 8}, complex64);
  p.execute(x, y, -1);
  std::vector<std::complex<float>> got(16), want(16);
  y.copy_to_host(got);
  fft::fft(x).copy_to_host(want);
  for (int i = 0; i < 16; ++i) EXPECT_LT(std::abs(got[i] - want[i]), 1e-4f) << i;

  std::vector<double> r(3 * 6);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<double>((i * 7) % 11) - 5.0;
  array xr = from_host(r.data(), float64, {3, 6});
  fft_plan pr({6}, cufft_type::d2z, 3);
  array yr = empty({3, 4}, complex128);
  pr.execute(xr, yr, -1);
  std::vector<std::complex<double>> gr(12), wr(12);
  yr.copy_to_host(gr);
  fft::rfft(xr).copy_to_host(wr);
  for (int i = 0; i < 12; ++i) EXPECT_LT(std::abs(gr[i] - wr[i]), 1e-10) << i;

  // Operands the plan cannot take: wrong dtype, too few elements, a non-contiguous view.
  expect_throw_with<value_error>([&] { p.execute(xr, y, -1); }, "dtype mismatch");
  array small = empty({8}, complex64);
  expect_throw_with<value_error>([&] { p.execute(x, small, -1); }, "fewer than the plan reaches");
  expect_throw_with<value_error>([&] { p.execute(x, y, 0); }, "direction must be");
  EXPECT_FALSE(fft_plan::has_current());
  p.make_current();
  EXPECT_TRUE(fft_plan::has_current());
  fft_plan::clear_current();
  EXPECT_FALSE(fft_plan::has_current());
}
