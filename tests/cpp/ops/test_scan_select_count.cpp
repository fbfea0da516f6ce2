// Scans, selection and counting in C++: argument checks that run before any device use (CPU), and small
// device round trips against hand-computed values (skipped without a GPU).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuarray/cuarray.hpp"

using namespace cuarray;

#define REQUIRE_GPU() \
  if (!is_available()) GTEST_SKIP() << "no CUDA device"

namespace {

// An array over no memory: enough for checks that never touch the data (a defined array, so that it counts
// as given where an undefined one means "absent").
array shape_only(dtype t, shape_t shape) {
  strides_t strides = contiguous_strides(shape, itemsize(t));
  return array(make_external_storage(nullptr, 0, 0, {}), descriptor{t, std::move(shape), std::move(strides), 0});
}

template <class T>
std::vector<T> host(const array& a) {
  std::vector<T> h(static_cast<std::size_t>(a.size()));
  if (!h.empty()) a.copy_to_host(h.data());
  return h;
}

}  // namespace

TEST(ScanHost, CumulativeSumNeedsAxisBeyondOneDimension) {
  EXPECT_THROW(cumulative_sum(shape_only(float64, {2, 3})), value_error);
  EXPECT_THROW(cumulative_prod(shape_only(float64, {2, 3}), std::nullopt, std::nullopt, array(), true), value_error);
}

TEST(ScanHost, AxisOutOfRangeIsAxisError) {
  EXPECT_THROW(cumsum(shape_only(float32, {2, 3}), 2), axis_error);
  EXPECT_THROW(cumprod(shape_only(float32, {2, 3}), -3), axis_error);
  EXPECT_THROW(cumsum(shape_only(float32, {}), 1), axis_error);  // a 0-d array scans as 1-d
}

TEST(ScanHost, OutOfWrongShapeIsValueError) {
  EXPECT_THROW(cumsum(shape_only(float32, {4}), std::nullopt, std::nullopt, shape_only(float32, {5})), value_error);
}

TEST(ScanHost, DiffChecks) {
  EXPECT_THROW(diff(shape_only(int32, {4}), -1), value_error);
  EXPECT_THROW(diff(shape_only(int32, {}), 1), value_error);
  EXPECT_THROW(diff(shape_only(int32, {4}), 1, 1), axis_error);
  array a = shape_only(int32, {4});
  EXPECT_EQ(diff(a, 0).shape(), a.shape());  // n = 0 returns the input itself, even for checks that would fail
}

TEST(ScanHost, GradientChecks) {
  EXPECT_THROW(gradient(shape_only(float64, {5}), {}, std::nullopt, 3), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {2}), {}, std::nullopt, 2), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {1.0, 2.0, 3.0}), type_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {}, std::vector<int>{0, -2}), value_error);
  EXPECT_THROW(gradient(shape_only(float64, {3, 3}), {}, std::vector<int>{2}), axis_error);
  EXPECT_TRUE(gradient(shape_only(float64, {})).empty());
}

TEST(SelectHost, ShapeChecks) {
  EXPECT_THROW(nonzero(shape_only(float64, {})), value_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(bool_, {3})), index_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(bool_, {2, 3, 1})), index_error);
  EXPECT_THROW(compress_mask(shape_only(float64, {2, 3}), shape_only(int8, {2, 3})), type_error);
}

TEST(CountingHost, BincountChecks) {
  EXPECT_THROW(bincount(shape_only(int64, {})), value_error);
  EXPECT_THROW(bincount(shape_only(int64, {2, 2})), value_error);
  EXPECT_THROW(bincount(shape_only(float64, {3})), type_error);
  EXPECT_THROW(bincount(shape_only(uint64, {3})), type_error);
  EXPECT_THROW(bincount(shape_only(int64, {3}), array(), -1), value_error);
  EXPECT_THROW(bincount(shape_only(int64, {3}), shape_only(float64, {4})), value_error);
  EXPECT_THROW(bincount(shape_only(int64, {3}), shape_only(complex128, {3})), type_error);
}

TEST(CountingHost, HistogramChecks) {
  EXPECT_THROW(histogram(shape_only(complex64, {3})), type_error);
  EXPECT_THROW(histogram(shape_only(float64, {3}), 10, std::nullopt, false, shape_only(float64, {4})), value_error);
  EXPECT_THROW(histogramdd(shape_only(float64, {3, 2}), {2, 3, 4}), value_error);
  EXPECT_THROW(histogramdd(shape_only(float64, {3, 2}), {2}, {std::nullopt}), value_error);
  EXPECT_THROW(histogram2d(shape_only(float64, {3}), shape_only(float64, {4})), value_error);
}

TEST(ScanDevice, CumsumAndCumprodAlongAxes) {
  REQUIRE_GPU();
  std::vector<std::int32_t> v{1, 2, 3, 4, 5, 6};
  array a = from_host(v.data(), int32, {2, 3});
  EXPECT_EQ(host<std::int64_t>(cumsum(a)), (std::vector<std::int64_t>{1, 3, 6, 10, 15, 21}));
  EXPECT_EQ(host<std::int64_t>(cumsum(a, 0)), (std::vector<std::int64_t>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(host<std::int64_t>(cumprod(a, 1)), (std::vector<std::int64_t>{1, 2, 6, 4, 20, 120}));
  array r = cumsum(a, 1, int8);
  EXPECT_EQ(r.type(), int8);
}

TEST(SelectDevice, NonzeroAndMask) {
  REQUIRE_GPU();
  std::vector<float> v{0, 1, 0, 2, 3, 0};
  array a = from_host(v.data(), float32, {2, 3});
  std::vector<array> nz = nonzero(a);
  ASSERT_EQ(nz.size(), 2u);
  EXPECT_EQ(host<std::int64_t>(nz[0]), (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(host<std::int64_t>(nz[1]), (std::vector<std::int64_t>{1, 0, 1}));
  array m = greater(a, 1.5);
  EXPECT_EQ(host<float>(compress_mask(a, m)), (std::vector<float>{2, 3}));
}

TEST(CountingDevice, BincountAndHistogram) {
  REQUIRE_GPU();
  std::vector<std::int64_t> v{0, 1, 1, 3};
  array x = from_host(v.data(), int64, {4});
  EXPECT_EQ(host<std::int64_t>(bincount(x)), (std::vector<std::int64_t>{1, 2, 0, 1}));
  auto [n, e] = histogram(x, 3);
  EXPECT_EQ(host<std::int64_t>(n), (std::vector<std::int64_t>{3, 0, 1}));
  EXPECT_EQ(e.size(), 4);
}
