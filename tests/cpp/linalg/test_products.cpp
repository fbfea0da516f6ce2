// Products in C++: argument checks that run before any device use, einsum_path (host only), the TF32 switch,
// and NVRTC compilation of the integer product kernels (no GPU needed for any of these).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuarray/cuarray.hpp"
#include "cuarray/products.hpp"
#include "src/engine/compile.hpp"
#include "src/engine/elementwise.hpp"
#include "src/linalg/products_internal.hpp"
#include "tests/cpp/test_util.hpp"

using namespace cuarray;
using cuarray::test::expect_throw_with;
using cuarray::test::shape_only;

TEST(Products, MatmulErrorsNeedNoDevice) {
  array a = shape_only(float64, {2, 3}), b = shape_only(float64, {4, 5});
  expect_throw_with<value_error>(
      [&] { matmul(a, b); }, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                             "(n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)");
  expect_throw_with<value_error>([&] { matmul(shape_only(float64, {}), b); },
                                 "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                                 "signature (n?,k),(k,m?)->(n?,m?) requires 1)");
  expect_throw_with<value_error>(
      [&] {
    matmul(shape_only(float64, {2, 2, 3}), shape_only(float64, {3, 3, 4}));
      },
      "operands could not be broadcast together with remapped shapes [original->remapped]: "
      "(2,2,3)->(2,newaxis,newaxis) (3,3,4)->(3,newaxis,newaxis)  and requested shape (2,4)");
  expect_throw_with<type_error>(
      [&] {
    matmul(a, shape_only(float64, {3, 2}), array(), int32);
      },
      "Cannot cast ufunc 'matmul' input 0 from dtype('float64') to dtype('int32') with "
      "casting rule 'same_kind'");
  expect_throw_with<type_error>(
      [&] {
    matmul(a, shape_only(float64, {3, 2}), shape_only(int64, {2, 2}));
      },
      "Cannot cast ufunc 'matmul' output from dtype('float64') to dtype('int64')");
  expect_throw_with<value_error>(
      [&] {
    matmul(a, shape_only(float64, {3, 2}), shape_only(float64, {2, 3}));
      },
      "matmul: Output operand 0 has a mismatch in its core dimension 1");
}

TEST(Products, OtherProductErrorsNeedNoDevice) {
  array a = shape_only(float32, {2, 3}), b = shape_only(float32, {4, 5});
  expect_throw_with<value_error>([&] { dot(a, b); }, "shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)");
  expect_throw_with<value_error>(
      [&] {
    dot(a, shape_only(float32, {3, 2}), shape_only(float64, {2, 2}));
      },
      "output array is not acceptable");
  expect_throw_with<value_error>([&] { inner(a, b); }, "shapes (2,3) and (5,4) not aligned: 3 (dim 1) != 5 (dim 0)");
  expect_throw_with<value_error>([&] { vdot(a, b); }, "different lengths");
  expect_throw_with<value_error>([&] { vecdot(shape_only(float32, {3}), shape_only(float32, {4})); },
                                 "vecdot: Input operand 1 has a mismatch in its core dimension 0");
  EXPECT_THROW(vecdot(a, a, 2), axis_error);
  expect_throw_with<value_error>([&] { tensordot(a, b, 1); }, "shape-mismatch for sum");
  expect_throw_with<value_error>([&] { tensordot(a, b, {0, 0}, {0, 1}); }, "duplicate axes are not allowed");
  EXPECT_THROW(tensordot(a, b, {5}, {0}), index_error);
  expect_throw_with<value_error>(
      [&] { cross(shape_only(float64, {4}), shape_only(float64, {3})); },
      "must be (arrays of) 3-dimensional vectors, but they are 4 and 3 dimensional instead.");
  // NumPy 2.5 removed 2-element vectors.
  expect_throw_with<value_error>(
      [&] {
    cross(shape_only(float64, {5, 3}), shape_only(float64, {2}));
      },
      "but they are 3 and 2 dimensional instead.");
  expect_throw_with<value_error>(
      [&] {
    cross(shape_only(float64, {2, 3}), shape_only(float64, {3}), 0);
      },
      "but they are 2 and 3 dimensional instead.");
  expect_throw_with<axis_error>([&] { cross(shape_only(float64, {3}), shape_only(float64, {3}), 1); }, "axisa: ");
  expect_throw_with<value_error>([&] { trace(shape_only(float64, {3})); }, "diag requires an array of at least two");
  expect_throw_with<value_error>([&] { trace(a, 0, 1, -1); }, "axis1 and axis2 cannot be the same");
  expect_throw_with<axis_error>([&] { trace(a, 0, 2, 1); }, "axis1: axis 2 is out of bounds");
  expect_throw_with<value_error>([&] { linalg::matrix_power(a, 2); }, "Last 2 dimensions of the array must be square");
  expect_throw_with<value_error>([&] { linalg::multi_dot({a}); }, "Expecting at least two arrays.");
  expect_throw_with<value_error>([&] { linalg::outer(a, a); }, "Input arrays must be one-dimensional");
  expect_throw_with<value_error>(
      [&] {
    linalg::cross(shape_only(float32, {2, 2}), a);
      },
      "must be (arrays of) 3-dimensional vectors, but they are 2 and 3 dimensional instead.");
}

TEST(Products, EinsumParseErrorsNeedNoDevice) {
  array m = shape_only(float64, {3, 4}), sq = shape_only(float64, {3, 3});
  expect_throw_with<value_error>([&] { einsum("ij,jk", {m, m}); }, "does not match previous terms");
  expect_throw_with<value_error>([&] { einsum("ij,jk", {m}); }, "fewer operands provided");
  expect_throw_with<value_error>([&] { einsum("ij", {m, m}); }, "more operands provided");
  expect_throw_with<value_error>([&] { einsum("ijk", {m}); }, "too many subscripts for operand 0");
  expect_throw_with<value_error>([&] { einsum("i", {m}); }, "no '...' ellipsis provided");
  expect_throw_with<value_error>([&] { einsum("ij->ix", {m}); }, "output subscript 'x' which never appeared");
  expect_throw_with<value_error>([&] { einsum("ij->ii", {m}); }, "output subscript 'i' multiple times");
  expect_throw_with<value_error>([&] { einsum("ii", {m}); }, "collapsing index 'i' don't match (3 != 4)");
  expect_throw_with<value_error>([&] { einsum("i2", {sq}); }, "invalid subscript '2'");
  expect_throw_with<value_error>([&] { einsum("i..j", {sq}); }, "that is not part of an '...'");
  expect_throw_with<value_error>([&] { einsum("...i->i", {m}); }, "output has more dimensions");
  expect_throw_with<value_error>([&] { einsum("ij->j->i", {m}); }, "proper '->'");
  expect_throw_with<type_error>([&] { einsum("ij", {m}, {.dtype_ = int32}); }, "according to the rule 'safe'");
}

TEST(Products, EinsumPathMatchesNumpyExamples) {
  // numpy.einsum_path's docstring examples.
  auto [p1, r1] = einsum_path("ij,jk,kl->il", {{2, 2}, {2, 5}, {5, 2}}, einsum_optimize::greedy);
  EXPECT_EQ(p1, (std::vector<std::vector<int>>{{1, 2}, {0, 1}}));
  EXPECT_NE(r1.find("  Complete contraction:  ij,jk,kl->il\n"), std::string::npos) << r1;
  EXPECT_NE(r1.find("   3                   kl,jk->jl                                ij,jl->il"), std::string::npos)
      << r1;
  auto [p2, r2] = einsum_path("ea,fb,abcd,gc,hd->efgh", {{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}},
                              einsum_optimize::greedy);
  EXPECT_EQ(p2, (std::vector<std::vector<int>>{{0, 2}, {0, 3}, {0, 2}, {0, 1}}));
  auto [p3, r3] = einsum_path("ea,fb,abcd,gc,hd->efgh", {{10, 10}, {10, 10}, {10, 10, 10, 10}, {10, 10}, {10, 10}},
                              einsum_optimize::optimal);
  EXPECT_EQ(p3.size(), 4u);
  auto [p4, r4] = einsum_path("ij,jk,kl->il", {{2, 2}, {2, 5}, {5, 2}}, einsum_optimize::none);
  EXPECT_EQ(p4, (std::vector<std::vector<int>>{{0, 1, 2}}));
  einsum_optimize bad(einsum_optimize::explicit_path);
  bad.path = {{0, 1}};
  EXPECT_THROW(einsum_path("ij,jk,kl->il", {{2, 2}, {2, 5}, {5, 2}}, bad), value_error);
  EXPECT_THROW(einsum_optimize::parse("fastest"), value_error);
}

TEST(Products, Tf32SwitchIsPerThreadState) {
  bool previous = set_tf32_enabled(true);
  EXPECT_TRUE(tf32_enabled());
  EXPECT_TRUE(set_tf32_enabled(false));
  EXPECT_FALSE(tf32_enabled());
  set_tf32_enabled(previous);
}

TEST(Products, IntegerProductKernelsCompileWithNvrtc) {
  std::string source = "#include \"ca_ufuncs.cuh\"\n";
  int k = 0;
  for (dtype t : {bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64}) {
    std::vector<ew::operand_layout> in(10), out(1);
    in[0] = {t, t, false, true};
    in[1] = {t, t, false, true};
    for (int i = 2; i < 10; ++i) in[i] = {int64, int64, true, false};
    in[5] = {complex128, complex128, true, false};
    out[0] = {t, t, false, false};
    for (int ndim : {0, 3}) {
      for (bool index64 : {false, true}) {
        std::string name = "int_gemm_" + std::to_string(k++);
        source += "namespace " + name + "_ns {\n" +
                  ew::kernel_source(detail::int_gemm_spec(t == bool_), in, out, ndim, index64, false, false, name) +
                  "}\n";
      }
    }
  }
  test::expect_compiles("integer and bool GEMM kernels", source, "int_gemm_kernels.cu");
}
