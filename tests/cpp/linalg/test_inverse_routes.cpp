// The LU inverse's two routes after getrf (Note [inverse by right solves], src/linalg/decomp_lu.cpp): right-side
// solves from P^T, seeded on the device from the pivots, against getrs on the identity, on matrices whose
// factorisation swaps many rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <random>
#include <vector>

#include "src/linalg/decomp_common.hpp"
#include "tests/cpp/test_util.hpp"

namespace cuarray::linalg {
namespace {

using detail::inv_impl;
using detail::inv_route;

// A stack of `batch` n x n matrices: diagonally dominant ones with their rows shuffled (each matrix its own
// permutation, one of them reversed), so that partial pivoting swaps most rows back. Complex for complex `t`.
array shuffled_stack(dtype t, std::int64_t batch, std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<std::complex<double>> h(static_cast<std::size_t>(batch * n * n));
  for (std::int64_t b = 0; b < batch; ++b) {
    std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    if (b % 2 == 0) std::reverse(perm.begin(), perm.end());
    else std::shuffle(perm.begin(), perm.end(), gen);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        std::complex<double> v(u(gen), is_complex(t) ? u(gen) : 0.0);
        if (j == perm[i]) v += static_cast<double>(2 * n);
        h[static_cast<std::size_t>((b * n + i) * n + j)] = v;
      }
    }
  }
  shape_t shape = batch == 1 ? shape_t{n, n} : shape_t{batch, n, n};
  array c = test::dev(h, dtype::complex128, shape);
  return is_complex(t) ? c.astype(t) : real(c).astype(t);
}

// A 0-d result on the host.
double value(const array& x) { return test::host<double>(x.astype(dtype::float64))[0]; }
double max_abs(const array& x) { return value(amax(absolute(x))); }

TEST(InverseRoutes, RightSolvesMatchGetrsOnTheIdentity) {
  REQUIRE_GPU();
  for (dtype t : {dtype::float32, dtype::float64, dtype::complex64, dtype::complex128}) {
    const double tol = t == dtype::float32 || t == dtype::complex64 ? 1e-4 : 1e-12;
    for (auto [batch, n] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {1, 2}, {3, 5}, {2, 64}, {1, 257}, {4, 300}}) {
      array a = shuffled_stack(t, batch, n, static_cast<unsigned>(n * 7 + batch));
      array right = inv_impl(a, true, inv_route::right_solves);
      array left = inv_impl(a, true, inv_route::identity_solve);
      SCOPED_TRACE(std::string(name(t)) + " batch " + std::to_string(batch) + " n " + std::to_string(n));
      ASSERT_EQ(right.type(), t);
      ASSERT_EQ(right.shape(), a.shape());
      EXPECT_TRUE(right.is_c_contiguous());
      EXPECT_LT(max_abs(subtract(right, left)) / max_abs(left), tol);
      // A inv(A) = I: a wrong pivot order would still give an invertible-looking but wrong matrix.
      shape_t eye_shape = a.shape();
      array eye_n = eye(n, n, 0, t).broadcast_to(eye_shape);
      EXPECT_LT(max_abs(subtract(::cuarray::matmul(a, right), eye_n)), 2 * n * tol);
      // automatic takes the right solves for one matrix of these orders; stacks take the batched routes (Note
      // [batched small LU]), which agree to rounding
      array automatic = inv_impl(a, true);
      if (batch == 1) {
        EXPECT_EQ(max_abs(subtract(automatic, right)), 0.0);
      } else {
        EXPECT_TRUE(automatic.is_c_contiguous());
        EXPECT_LT(max_abs(subtract(automatic, right)) / max_abs(right), tol);
      }
    }
  }
}

TEST(InverseRoutes, SingularInputOnBothRoutes) {
  REQUIRE_GPU();
  for (inv_route route : {inv_route::right_solves, inv_route::identity_solve}) {
    array z = zeros(shape_t{2, 3, 3}, dtype::float64);
    EXPECT_THROW(inv_impl(z, true, route), linalg_error);
    array nan_in = full(shape_t{3, 3}, scalar::from_double(std::nan("")), dtype::float64);
    EXPECT_EQ(value(all(isnan(inv_impl(nan_in, true, route)))), 1.0);
    // cond's errstate(all='ignore'): no exception, non-finite entries
    array x = inv_impl(zeros(shape_t{3, 3}, dtype::float64), false, route);
    EXPECT_EQ(value(all(isfinite(x))), 0.0);
  }
}

}  // namespace
}  // namespace cuarray::linalg
