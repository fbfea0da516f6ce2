// Statistics in C++: argument checks that run before any device use (CPU), and small device round trips
// against hand-computed values (skipped without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "cuarray/statistics.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::expect_throw_with;
using cuarray::test::shape_only;

TEST(Statistics, QuantileMethodNamesRoundTrip) {
  const char* names[] = {"inverted_cdf",
                         "averaged_inverted_cdf",
                         "closest_observation",
                         "interpolated_inverted_cdf",
                         "hazen",
                         "weibull",
                         "linear",
                         "median_unbiased",
                         "normal_unbiased",
                         "lower",
                         "higher",
                         "midpoint",
                         "nearest"};
  for (int k = 0; k < 13; ++k) EXPECT_EQ(static_cast<int>(parse_quantile_method(names[k])), k);
  expect_throw_with<value_error>([] { parse_quantile_method("Linear"); }, "'Linear' is not a valid method");
  expect_throw_with<value_error>([] { parse_quantile_method(""); }, "dict_keys(['inverted_cdf', ");
}

TEST(Statistics, QuantileArgumentErrorsNeedNoDevice) {
  array a = shape_only(float64, {3, 4});
  EXPECT_THROW(quantile(shape_only(complex64, {3}), 0.5), type_error);
  expect_throw_with<value_error>([&] { percentile(a, 150.0); }, "Percentiles must be in the range [0, 100]");
  expect_throw_with<value_error>([&] { percentile(a, -1); }, "Percentiles must be in the range [0, 100]");
  expect_throw_with<value_error>([&] { quantile(a, 1.5); }, "Quantiles must be in the range [0, 1]");
  expect_throw_with<value_error>([&] { nanquantile(a, std::nan("")); }, "Quantiles must be in the range [0, 1]");
  quantile_options o;
  o.weights = shape_only(float64, {3, 4});
  expect_throw_with<value_error>([&] { quantile(a, 0.5, o); },
                                 "Only method 'inverted_cdf' supports weights. Got: linear.");
  o.method = "inverted_cdf";
  o.weights = shape_only(float64, {4});
  expect_throw_with<type_error>([&] { quantile(a, 0.5, o); }, "Axis must be specified");
  o.axis = std::vector<int>{0};
  expect_throw_with<value_error>([&] { quantile(a, 0.5, o); }, "Shape of weights must be consistent");
  quantile_options bad_axis;
  bad_axis.axis = std::vector<int>{2};
  EXPECT_THROW(quantile(a, 0.5, bad_axis), axis_error);
  bad_axis.axis = std::vector<int>{1, -1};
  expect_throw_with<value_error>([&] { quantile(a, 0.5, bad_axis); }, "repeated axis");
  quantile_options bad_method;
  bad_method.method = "bogus";
  expect_throw_with<value_error>([&] { quantile(a, 0.5, bad_method); }, "'bogus' is not a valid method");
}

TEST(Statistics, MedianAxisErrorsNeedNoDevice) {
  array a = shape_only(int32, {2, 3});
  EXPECT_THROW(median(a, std::vector<int>{2}), axis_error);
  EXPECT_THROW(nanmedian(a, std::vector<int>{-3}), axis_error);
  expect_throw_with<value_error>([&] { median(a, std::vector<int>{0, 0}); }, "repeated axis");
  EXPECT_THROW(median(shape_only(float64, {}), std::vector<int>{0}), axis_error);
}

TEST(Statistics, AverageWeightShapeErrorsNeedNoDevice) {
  array a = shape_only(float64, {2, 3, 4});
  expect_throw_with<type_error>([&] { average(a, std::nullopt, shape_only(float64, {4})); }, "Axis must be specified");
  expect_throw_with<value_error>([&] { average(a, std::vector<int>{2}, shape_only(float64, {3})); },
                                 "Shape of weights must be consistent");
  expect_throw_with<value_error>(
      [&] {
    average(a, std::vector<int>{0, 2}, shape_only(float64, {4, 2}));
      },
      "Shape of weights must be consistent");
}

TEST(Statistics, CorrelateAndConvolveErrorsNeedNoDevice) {
  array a = shape_only(float64, {4});
  expect_throw_with<value_error>([&] { correlate(a, a, "bad"); }, "mode must be one of 'valid', 'same', or 'full'");
  expect_throw_with<value_error>([&] { correlate(shape_only(float64, {}), a); }, "too small depth");
  expect_throw_with<value_error>([&] { correlate(shape_only(float64, {2, 2}), a); }, "too deep");
  expect_throw_with<value_error>([&] { correlate(shape_only(float64, {0}), a); },
                                 "first array argument cannot be empty");
  expect_throw_with<value_error>([&] { correlate(a, shape_only(float64, {0})); },
                                 "second array argument cannot be empty");
  expect_throw_with<value_error>([&] { convolve(shape_only(float64, {0}), shape_only(float64, {0})); },
                                 "a cannot be empty");
  expect_throw_with<value_error>([&] { convolve(a, shape_only(float64, {0})); }, "v cannot be empty");
}

TEST(Statistics, CovAndTrapezoidErrorsNeedNoDevice) {
  array m = shape_only(float64, {2, 5});
  expect_throw_with<value_error>([&] { cov(m, array(), true, false, 1.5); }, "ddof must be integer");
  expect_throw_with<value_error>([&] { cov(shape_only(float64, {2, 2, 2})); }, "m has more than 2 dimensions");
  expect_throw_with<value_error>([&] { cov(m, shape_only(float64, {1, 1, 5})); }, "y has more than 2 dimensions");
  EXPECT_THROW(trapezoid(shape_only(float64, {})), index_error);
  EXPECT_THROW(trapezoid(shape_only(float64, {3}), array(), 1.0, 1), index_error);
}

TEST(Statistics, DeviceRoundTrip) {
  REQUIRE_GPU();
  std::vector<double> v = {3.0, 1.0, 4.0, 1.0, 5.0, 9.0};
  array a = from_host(v.data(), float64, {2, 3});
  std::vector<double> h(2);
  median(a, std::vector<int>{1}).copy_to_host(h);
  EXPECT_EQ(h, (std::vector<double>{3.0, 5.0}));
  quantile_options o;
  o.axis = std::vector<int>{1};
  quantile(a, 0.25, o).copy_to_host(h);
  EXPECT_EQ(h, (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(median(a).host_value<double>(), 3.5);
  std::vector<double> c(3);
  array x = from_host(std::vector<double>{1, 2, 3}.data(), float64, {3});
  array y = from_host(std::vector<double>{0, 1, 0.5}.data(), float64, {3});
  correlate(x, y, "same").copy_to_host(c);
  EXPECT_EQ(c, (std::vector<double>{2.0, 3.5, 3.0}));
}
