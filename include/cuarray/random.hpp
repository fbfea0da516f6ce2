// Random numbers: NumPy's Generator API over a Philox4x32-10 counter-based generator run by our own kernels.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>

#include "cuarray/array.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray::random {

/// A Philox4x32-10 stream: a 64-bit key and the next unused 64-bit counter. Every call takes a range of
/// counters known on the host and moves `counter` past it, so that the numbers of a seed never depend on
/// the launch configuration or the device, and two calls never reuse a counter.
struct philox_state {
  std::uint64_t key = 0;
  std::uint64_t counter = 0;
};

/// The key of generator(seed): SplitMix64 of the seed (the Python package derives its keys from NumPy's
/// SeedSequence instead; see python/cuarray/random).
std::uint64_t key_from_seed(std::uint64_t seed);

/// `size` of NumPy's distributions: nullopt is NumPy's None (the broadcast shape of the parameters; a 0-d
/// array when all are scalars, as CuPy returns).
using size_arg = std::optional<shape_t>;

/// Note [random size]: NumPy checks the parameters of a distribution before it looks at `size`, so a size
/// that is not a shape reaches the generator unchecked: a negative extent raises value_error ("negative
/// dimensions are not allowed") and an extent equal to `invalid_size_dim` (a size that is not a sequence
/// of integers, such as Python's 1.5) raises type_error, both where NumPy parses `size`.
inline constexpr std::int64_t invalid_size_dim = std::numeric_limits<std::int64_t>::min();
/// The type_error's message for such a size (the Python front end replaces it with one naming the object).
inline constexpr const char* invalid_size_message = "expected a sequence of integers or a single integer";

/// NumPy's numpy.random.Generator. Parameters may be numbers or arrays (broadcast together and with
/// `size`), converted to float64 as NumPy does ('safe' casting: complex is a type_error). Invalid parameter
/// values raise value_error with NumPy's messages; checking an array parameter reads it back (a sync).
/// Results are float64 (integers: int64) unless a `t` is taken.
class generator {
public:
  explicit generator(std::uint64_t seed = 0);
  /// A generator drawing from (and advancing) a shared state.
  explicit generator(std::shared_ptr<philox_state> state);
  const std::shared_ptr<philox_state>& state() const { return state_; }

  /// [0, 1): float32 (24 random bits) or float64 (53 bits). `out`: a C-contiguous array of dtype `t`.
  array random(const size_arg& size = std::nullopt, dtype t = float64, const array& out = array());
  array standard_normal(const size_arg& size = std::nullopt, dtype t = float64, const array& out = array());
  /// `method` "zig" or "inv" (both give the inversion method here; as NumPy, any other value means "inv").
  array standard_exponential(const size_arg& size = std::nullopt, dtype t = float64, std::string_view method = "zig",
                             const array& out = array());
  array standard_gamma(const ufunc_arg& shape, const size_arg& size = std::nullopt, dtype t = float64,
                       const array& out = array());
  /// Integers in [low, high) ([low, high] with `endpoint`); no `high`: [0, low). Any integer dtype or bool.
  array integers(const ufunc_arg& low, const std::optional<ufunc_arg>& high = std::nullopt,
                 const size_arg& size = std::nullopt, dtype t = int64, bool endpoint = false);

  array uniform(const ufunc_arg& low = 0.0, const ufunc_arg& high = 1.0, const size_arg& size = std::nullopt);
  array normal(const ufunc_arg& loc = 0.0, const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  array exponential(const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  array gamma(const ufunc_arg& shape, const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  array beta(const ufunc_arg& a, const ufunc_arg& b, const size_arg& size = std::nullopt);
  array chisquare(const ufunc_arg& df, const size_arg& size = std::nullopt);
  array lognormal(const ufunc_arg& mean = 0.0, const ufunc_arg& sigma = 1.0, const size_arg& size = std::nullopt);
  array logistic(const ufunc_arg& loc = 0.0, const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  array laplace(const ufunc_arg& loc = 0.0, const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  array gumbel(const ufunc_arg& loc = 0.0, const ufunc_arg& scale = 1.0, const size_arg& size = std::nullopt);
  /// int64 results; integer parameters are taken through float64 (exact below 2^53).
  array binomial(const ufunc_arg& n, const ufunc_arg& p, const size_arg& size = std::nullopt);
  array poisson(const ufunc_arg& lam = 1.0, const size_arg& size = std::nullopt);
  array geometric(const ufunc_arg& p, const size_arg& size = std::nullopt);
  array hypergeometric(const ufunc_arg& ngood, const ufunc_arg& nbad, const ufunc_arg& nsample,
                       const size_arg& size = std::nullopt);
  /// Counts (int64, shape size + (k,) or broadcast(n, pvals[..., :-1]) + (k,)) of n trials over pvals' k
  /// categories.
  array multinomial(const ufunc_arg& n, const array& pvals, const size_arg& size = std::nullopt);
  /// Samples (shape size + (k,)) of a Dirichlet distribution with concentrations alpha (1-D, >= 0).
  array dirichlet(const array& alpha, const size_arg& size = std::nullopt);
  /// mean + z @ factor with z standard normal of shape size + (d,): the engine of multivariate_normal, whose
  /// factorisation of cov (d x d, small) runs on the host.
  array multivariate_normal_factor(const array& mean, const array& factor, const size_arg& size = std::nullopt);
  /// multivariate_normal with a host Cholesky factorisation of cov (value_error when not positive definite).
  array multivariate_normal(const array& mean, const array& cov, const size_arg& size = std::nullopt);

  /// A random permutation of arange(n) (int64).
  array permutation(std::int64_t n);
  /// A copy of `x` with its slices along `axis` permuted (0-d: value_error as NumPy's).
  array permutation(const array& x, int axis = 0);
  /// Permute `x` in place along `axis`.
  void shuffle(const array& x, int axis = 0);
  /// Each slice along `axis` shuffled independently (nullopt: the flattened array); into `out` when given.
  array permuted(const array& x, std::optional<int> axis = std::nullopt, const array& out = array());
  /// NumPy's choice from arange(n) (`a` an integer) or from `a` along `axis`; `p` 1-D probabilities or
  /// undefined. Without replacement: a permutation prefix, or exponential keys E / p sorted (with p).
  array choice(std::int64_t n, const size_arg& size = std::nullopt, bool replace = true, const array& p = array(),
               bool shuffle = true);
  array choice(const array& a, const size_arg& size = std::nullopt, bool replace = true, const array& p = array(),
               int axis = 0, bool shuffle = true);

  /// n random 64-bit words as uint64 (the keys behind permutations).
  array random_raw(std::int64_t n);

private:
  std::uint64_t take(std::uint64_t counters);
  std::shared_ptr<philox_state> state_;
};

}  // namespace cuarray::random
