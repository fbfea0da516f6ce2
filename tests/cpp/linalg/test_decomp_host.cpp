// Host logic of the linalg decompositions: NumPy's dtype rules, the checks made before any device use, views.
#include <gtest/gtest.h>

#include "cuarray/linalg.hpp"
#include "src/linalg/decomp_common.hpp"
#include "src/linalg/svd_polar.hpp"

#include <cmath>
#include <limits>

namespace cuarray::linalg {
namespace {

// An array with a descriptor and no storage: enough for everything that runs before the device is touched.
array shaped(dtype t, shape_t shape) {
  descriptor d;
  d.type = t;
  d.shape = shape;
  d.strides = contiguous_strides(shape, itemsize(t));
  return array(nullptr, d);
}

TEST(LinalgHost, ResultTypeFollowsNumpysCommonType) {
  using detail::result_type;
  EXPECT_EQ(result_type({dtype::float32}), dtype::float32);
  EXPECT_EQ(result_type({dtype::float64}), dtype::float64);
  EXPECT_EQ(result_type({dtype::complex64}), dtype::complex64);
  EXPECT_EQ(result_type({dtype::int32}), dtype::float64);
  EXPECT_EQ(result_type({dtype::bool_}), dtype::float64);
  EXPECT_EQ(result_type({dtype::float32, dtype::int64}), dtype::float64);
  EXPECT_EQ(result_type({dtype::complex64, dtype::float32}), dtype::complex64);
  EXPECT_EQ(result_type({dtype::complex64, dtype::float64}), dtype::complex128);
  EXPECT_EQ(result_type({dtype::float32, dtype::int8}), dtype::float64);
  EXPECT_THROW(result_type({dtype::float16}), type_error);
  EXPECT_THROW(result_type({dtype::float32, dtype::float16}), type_error);
}

TEST(LinalgHost, ShapeChecksRaiseLinAlgErrorBeforeDeviceUse) {
  try {
    inv(shaped(dtype::float64, {3}));
    FAIL();
  } catch (const linalg_error& e) {
    EXPECT_STREQ(e.what(), "1-dimensional array given. Array must be at least two-dimensional");
  }
  try {
    cholesky(shaped(dtype::float64, {2, 3, 4}));
    FAIL();
  } catch (const linalg_error& e) {
    EXPECT_STREQ(e.what(), "Last 2 dimensions of the array must be square");
  }
  EXPECT_THROW(det(shaped(dtype::float32, {2, 3})), linalg_error);
  EXPECT_THROW(eigh(shaped(dtype::float32, {2, 3})), linalg_error);
  EXPECT_THROW(eigh(shaped(dtype::float32, {3, 3}), "X"), value_error);
  EXPECT_THROW(qr(shaped(dtype::float32, {3, 3}), "bogus"), value_error);
  EXPECT_THROW(svd(shaped(dtype::float64, {4})), linalg_error);
  EXPECT_THROW(lstsq(shaped(dtype::float64, {3, 2}), shaped(dtype::float64, {4})), linalg_error);
  EXPECT_THROW(lstsq(shaped(dtype::float64, {2, 3, 2}), shaped(dtype::float64, {3})), linalg_error);
  EXPECT_THROW(tensorinv(shaped(dtype::float64, {2, 2}), 0), value_error);
  // A linalg_error is a value_error, as LinAlgError is a ValueError.
  EXPECT_THROW(inv(shaped(dtype::float64, {3})), value_error);
}

TEST(LinalgHost, NormOrdParsing) {
  EXPECT_EQ(norm_ord::parse("fro").kind, norm_ord::fro);
  EXPECT_EQ(norm_ord::parse("f").kind, norm_ord::fro);
  EXPECT_EQ(norm_ord::parse("nuc").kind, norm_ord::nuc);
  norm_ord bad = norm_ord::parse("abc");
  EXPECT_EQ(bad.kind, norm_ord::invalid);
  EXPECT_EQ(bad.text, "abc");
  EXPECT_EQ(norm_ord(2.0).kind, norm_ord::number);
}

TEST(LinalgHost, ViewsOverTheLastTwoAxes) {
  array a = shaped(dtype::float64, {2, 3, 4});
  array s = detail::swap_last(a);
  EXPECT_EQ(s.shape(), (shape_t{2, 4, 3}));
  EXPECT_EQ(s.strides(), (strides_t{96, 8, 32}));
  array d = detail::diag_view(a);
  EXPECT_EQ(d.shape(), (shape_t{2, 3}));
  EXPECT_EQ(d.strides(), (strides_t{96, 40}));
  array sl = detail::slice_axis(a, -2, 1, 3);
  EXPECT_EQ(sl.shape(), (shape_t{2, 2, 4}));
  EXPECT_EQ(sl.offset(), 32);
  array dr = detail::drop_axis(detail::slice_axis(a, -1, 0, 1), -1);
  EXPECT_EQ(dr.shape(), (shape_t{2, 3}));
  EXPECT_EQ(detail::batch_count(a), 2);
  EXPECT_EQ(detail::matrix_bytes(a), 96);
}

// Note [polar svd]: the host's plan of QDWH steps. Every singular value the start bound covers (l0 <= x <= 1) must
// reach 1 within rounding through the scalar map the steps apply, in the few steps QDWH promises (six from
// l0 = 1e-16).
void expect_plan_converges(double l0, double eps, std::size_t max_steps) {
  std::vector<detail::qdwh_weights> steps = detail::qdwh_plan(l0, eps);
  EXPECT_LE(steps.size(), max_steps) << "l0 = " << l0;
  ASSERT_FALSE(steps.empty());
  for (const detail::qdwh_weights& w : steps) {
    EXPECT_NEAR(w.a + w.b, 1.0 + w.c, 1e-9 * w.c) << "each step maps 1 to 1";
    EXPECT_GT(w.b, 0.0);
  }
  EXPECT_GT(steps.front().c, 100.0) << "a small start begins with QR steps";
  EXPECT_NEAR(steps.back().a, 3.0, 0.05) << "the last steps are Halley's";
  for (int i = 0; i <= 200; ++i) {
    double x = std::exp(std::log(l0) * (1.0 - i / 200.0));  // l0 .. 1, evenly in log
    for (const detail::qdwh_weights& w : steps) x = x * (w.a + w.b * x * x) / (1.0 + w.c * x * x);
    EXPECT_NEAR(x, 1.0, 20 * eps) << "start " << std::exp(std::log(l0) * (1.0 - i / 200.0));
  }
}

TEST(LinalgHost, QdwhPlanTakesEverySingularValueOfItsRangeToOne) {
  const double e64 = std::numeric_limits<double>::epsilon(), e32 = std::numeric_limits<float>::epsilon();
  expect_plan_converges(0.9 * std::sqrt(e64 / 4096), e64, 6);  // svd's start for n = 4096 float64
  expect_plan_converges(1e-16, e64, 6);
  expect_plan_converges(0.9 * std::cbrt(e32 * e32) / std::sqrt(1024.0), e32, 6);
  EXPECT_TRUE(detail::qdwh_plan(1.0, e64).empty());
}

// Note [one-kernel triangular solves]: trsm and potrs take the kernel from 2 right-hand sides (1 in a stack of
// small matrices) to tri_kernel_max_k, and nowhere when the limit is 0; the limit is restored after.
TEST(LinalgHost, TriangularKernelRoute) {
  using detail::tri_kernel_route;
  const std::int64_t limit = detail::tri_kernel_max_k();
  EXPECT_EQ(limit, 128);
  EXPECT_FALSE(tri_kernel_route(1, 1000, 1));
  EXPECT_TRUE(tri_kernel_route(16384, 8, 1));  // a stack of small matrices (Note [batched small LU])
  EXPECT_TRUE(tri_kernel_route(1, 1000, 2));
  EXPECT_TRUE(tri_kernel_route(1, 4096, 128));
  EXPECT_FALSE(tri_kernel_route(1, 4096, 129));
  EXPECT_FALSE(tri_kernel_route(std::int64_t{1} << 40, 1000, 16));  // too many blocks for one launch
  EXPECT_EQ(detail::set_tri_kernel_max_k(0), limit);
  EXPECT_FALSE(tri_kernel_route(1, 1000, 16));
  EXPECT_EQ(detail::set_tri_kernel_max_k(limit), 0);
}

}  // namespace
}  // namespace cuarray::linalg
