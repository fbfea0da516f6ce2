// Ahead-of-time kernels of cuarray.random: Philox4x32-10 distributions, integers, gathers for permutations.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "cuarray/dtype.hpp"

namespace cuarray::detail::rng {

/// The distributions with a kernel of their own. The first group makes several outputs per Philox counter;
/// the second loops per output over its own counter's sub-streams (Note [random counters]).
enum class dist : std::uint8_t {
  uniform01,    ///< [0, 1): float32, float64
  normal,       ///< p0 + p1 * N(0, 1): float32, float64
  exponential,  ///< p0 * Exp(1): float32, float64
  uniform,      ///< p0 + (p1 - p0) * U[0, 1): float64
  lognormal,    ///< exp(p0 + p1 * N(0, 1)): float64
  logistic,     ///< p0 + p1 * log(U / (1 - U)): float64
  laplace,      ///< float64
  gumbel,       ///< p0 - p1 * log(-log(U)): float64
  geometric,    ///< p0 = p: int64
  // One counter per output from here on.
  gamma,           ///< p1 * Gamma(p0): float32, float64
  beta,            ///< Beta(p0, p1): float64
  chisquare,       ///< 2 * Gamma(p0 / 2): float64
  binomial,        ///< Binomial(p0, p1): int64
  poisson,         ///< Poisson(p0): int64
  hypergeometric,  ///< Hypergeometric(p0 good, p1 bad, p2 sample): int64
};

/// A parameter: a contiguous float64 array with one value per output, or (ptr null) one value for all.
struct param {
  const double* ptr = nullptr;
  double value = 0;
};

/// Philox counters a call of `d` with n outputs of dtype `t` consumes (Note [random counters]).
std::uint64_t counters_used(dist d, dtype t, std::int64_t n);

/// out[0..n) (contiguous, dtype `t`) drawn from `d` with parameters p[0..2].
void launch_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset, const param* p,
                 cudaStream_t stream);

/// The counters integers() of n outputs uses (Note [integers per counter] in random_misc.cu): n / 4 rounded up
/// when `narrow` (scalar bounds whose range fits 32 bits), else n / 2 rounded up.
std::uint64_t integers_counters(std::int64_t n, bool narrow);

/// out[i] = low[i] + U{0..range[i]} in the unsigned arithmetic of `t`'s width (any integer dtype or bool);
/// low/range null: the scalar values. Uses integers_counters(n, range == nullptr && range_value < 2**32) counters
/// from `offset`.
void launch_integers(void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                     const std::int64_t* low, std::int64_t low_value, const std::uint64_t* range,
                     std::uint64_t range_value, cudaStream_t stream);

/// n random 64-bit words (sort keys of permutations); n / 2 rounded up counters.
void launch_bits(std::uint64_t* out, std::int64_t n, std::uint64_t key, std::uint64_t offset, cudaStream_t stream);

/// Multinomial rows: out (rows x k int64) from n (rows) trials and pvals (rows x k); one counter per row.
void launch_multinomial(std::int64_t* out, std::int64_t rows, std::int64_t k, std::uint64_t key, std::uint64_t offset,
                        const double* n, const double* pvals, cudaStream_t stream);

/// out[r, j, k] = src[r, idx[j] (or idx[r, j] when per_row), k] for C-contiguous (R, J, K) and (R, Js, K)
/// layouts of `itemsize`-byte elements; indices are trusted to lie in [0, Js).
void launch_gather(void* out, const void* src, std::size_t itemsize, std::int64_t rows, std::int64_t cols,
                   std::int64_t src_cols, std::int64_t inner, const std::int64_t* idx, bool per_row,
                   cudaStream_t stream);

/// out[r, :] = mean + z[r, :] @ a for rows x d float64 matrices (z and out C-contiguous, a d x d).
void launch_affine_rows(double* out, const double* z, const double* a, const double* mean, std::int64_t rows,
                        std::int64_t d, cudaStream_t stream);

}  // namespace cuarray::detail::rng
