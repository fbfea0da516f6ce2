// Index functions in C++ without a GPU: view layouts of diagonal and ix_, argument errors raised before any device
// use, and NVRTC compilation of every kernel variant they generate.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/index_funcs.hpp"
#include "cuarray/memory.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::expect_throw_with;
using cuarray::test::shape_only;

TEST(IndexFuncs, DiagonalViewLayoutMatchesNumpy) {
  array a = shape_only(float32, {2, 3, 4});  // strides 48, 16, 4
  // np.diagonal(x, 1, 2, 0): axis 1 stays, the diagonal runs over (axis 2, axis 0) starting at x[1, :, 0].
  array d = diagonal(a, 1, 2, 0);
  EXPECT_EQ(d.shape(), (shape_t{3, 1}));
  EXPECT_EQ(d.strides(), (strides_t{16, 52}));
  EXPECT_EQ(d.offset(), 48);
  EXPECT_EQ(d.storage(), a.storage());
  array m = shape_only(int64, {5, 7});
  EXPECT_EQ(diagonal(m, 3).shape(), (shape_t{4}));
  EXPECT_EQ(diagonal(m, 3).offset(), 24);
  EXPECT_EQ(diagonal(m, -2).shape(), (shape_t{3}));
  EXPECT_EQ(diagonal(m, -2).offset(), 2 * 56);
  EXPECT_EQ(diagonal(m, 7).shape(), (shape_t{0}));
  EXPECT_EQ(diagonal(m, -5).shape(), (shape_t{0}));
  EXPECT_EQ(diagonal(m, std::numeric_limits<std::int64_t>::min()).shape(), (shape_t{0}));
  EXPECT_EQ(diagonal(m, std::numeric_limits<std::int64_t>::max()).shape(), (shape_t{0}));
  // Negative strides: the diagonal of m[::-1] starts at its first row.
  array r = shape_only(int64, {5, 7}, {-56, 8});
  EXPECT_EQ(diagonal(r, 0).strides(), (strides_t{-48}));
}

TEST(IndexFuncs, DiagonalErrorsMatchNumpy) {
  array a = shape_only(float64, {2, 3, 4});
  expect_throw_with<axis_error>([&] { diagonal(a, 0, 3, 0); },
                                "axis1: axis 3 is out of bounds for array of dimension 3");
  expect_throw_with<axis_error>([&] { diagonal(a, 0, 0, -4); }, "axis2: axis -4 is out of bounds");
  expect_throw_with<value_error>([&] { diagonal(a, 0, 1, -2); }, "axis1 and axis2 cannot be the same");
  expect_throw_with<value_error>([&] { diagonal(shape_only(float64, {3}), 0); }, "at least two dimensions");
  expect_throw_with<value_error>([&] { diag(shape_only(float64, {}), 0); }, "Input must be 1- or 2-d.");
  expect_throw_with<value_error>([&] { fill_diagonal(shape_only(float64, {3}), scalar::from_double(1)); },
                                 "array must be at least 2-d");
  expect_throw_with<value_error>(
      [&] {
    fill_diagonal(shape_only(float64, {3, 3, 2}), scalar::from_double(1));
      },
      "All dimensions of input must be of equal length");
}

TEST(IndexFuncs, IxReturnsViewsAlongTheirOwnAxis) {
  array a = shape_only(int32, {4}, {-8});
  array b = shape_only(int64, {3});
  std::vector<array> r = ix_({a, b});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].shape(), (shape_t{4, 1}));
  EXPECT_EQ(r[0].strides()[0], -8);
  EXPECT_EQ(r[1].shape(), (shape_t{1, 3}));
  EXPECT_EQ(r[1].strides()[1], 8);
  EXPECT_EQ(r[1].storage(), b.storage());
  expect_throw_with<value_error>([&] { ix_({shape_only(int64, {2, 2})}); }, "Cross index must be 1 dimensional");
  expect_throw_with<value_error>([&] { ix_({shape_only(int64, {})}); }, "Cross index must be 1 dimensional");
}

TEST(IndexFuncs, ArgumentErrorsNeedNoDevice) {
  array i = shape_only(int64, {2});
  expect_throw_with<value_error>([&] { ravel_multi_index({i}, {2, 4}); }, "must be a sequence of length 2");
  expect_throw_with<value_error>(
      [&] {
    ravel_multi_index({i, i}, {2, 4}, {index_mode::clip, index_mode::wrap, index_mode::raise});
      },
      "list of clipmodes has wrong length (3 instead of 2)");
  expect_throw_with<value_error>(
      [&] {
    ravel_multi_index({i, i}, {2, 4}, {index_mode::raise}, order::A);
      },
      "only 'C' or 'F' order is permitted");
  std::int64_t big = std::int64_t{1} << 40;
  expect_throw_with<value_error>([&] { ravel_multi_index({i, i}, {big, big}); }, "invalid dims");
  expect_throw_with<type_error>(
      [&] {
    ravel_multi_index({i, shape_only(float32, {2})}, {2, 4});
      },
      "only int indices permitted");
  expect_throw_with<type_error>([&] { unravel_index(shape_only(float64, {2}), {2, 3}); }, "only int indices permitted");
  expect_throw_with<value_error>([&] { unravel_index(i, {2, 3}, order::K); }, "only 'C' or 'F' order is permitted");
  expect_throw_with<value_error>([&] { unravel_index(i, {big, big}); }, "dimensions are too large");

  expect_throw_with<value_error>([&] { choose(i, {}); }, "0-length sequence.");
  expect_throw_with<value_error>([&] { choose(i, std::vector<ufunc_arg>(64, ufunc_arg(1))); },
                                 "at most 64 array objects");
  expect_throw_with<type_error>(
      [&] { choose(shape_only(uint64, {2}), {ufunc_arg(1)}); },
      "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
  expect_throw_with<type_error>([&] { choose(shape_only(float32, {2}), {ufunc_arg(1)}); }, "rule 'safe'");
  expect_throw_with<type_error>([&] { choose(i, {ufunc_arg(1)}, shape_only(int64, {3})); },
                                "choose: invalid shape for output array.");
  expect_throw_with<value_error>([&] { choose(i, {ufunc_arg(shape_only(float32, {3}))}); }, "");

  expect_throw_with<value_error>([&] { select({}, {}); }, "select with an empty condition list is not possible");
  expect_throw_with<value_error>(
      [&] {
    select({shape_only(bool_, {2})}, {ufunc_arg(1), ufunc_arg(2)});
      },
      "list of cases must be same length as list of conditions");
  expect_throw_with<type_error>(
      [&] {
    select({shape_only(bool_, {2}), i}, {ufunc_arg(1), ufunc_arg(2)});
      },
      "invalid entry 1 in condlist: should be boolean ndarray");

  expect_throw_with<type_error>([&] { tril(shape_only(float64, {})); }, "tri() missing 1 required positional argument");
  expect_throw_with<value_error>([&] { tril_indices_from(shape_only(float64, {3})); }, "input array must be 2-d");
  expect_throw_with<value_error>([&] { triu_indices_from(shape_only(float64, {2, 2, 2})); }, "input array must be 2-d");
  expect_throw_with<value_error>([&] { indices({2, -1}); }, "negative dimensions are not allowed");
  expect_throw_with<type_error>([&] { indices({2, 3}, bool_); }, "at most length 2");
}

TEST(IndexFuncs, EveryKernelCompilesWithNvrtc) {
  std::string source = "#include \"ca_ufuncs.cuh\"\n";
  std::vector<detail::index_funcs_kernel> kernels = detail::index_funcs_kernels();
  ASSERT_FALSE(kernels.empty());
  // Each kernel in its own namespace: each defines its own layout struct and repeats the preamble.
  for (const auto& k : kernels) source += "namespace " + k.name + "_ns {\n" + k.source + "}\n";
  test::expect_compiles("index function kernels", source, "index_funcs_kernels.cu");
}
