// cuarray::random::generator: NumPy's argument rules (broadcasting, checks, dtypes) around the Philox kernels.
#include "cuarray/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/sorting.hpp"
#include "src/core/internal.hpp"
#include "src/random/random_internal.hpp"

namespace cuarray::random {

namespace {

using namespace detail_random;

constexpr double poisson_lam_max = 9223372006484770816.0;  // NumPy's int64 max - 10 * sqrt(int64 max)

}  // namespace

std::uint64_t key_from_seed(std::uint64_t seed) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

generator::generator(std::uint64_t seed) : state_(std::make_shared<philox_state>()) {
  state_->key = key_from_seed(seed);
}

generator::generator(std::shared_ptr<philox_state> state) : state_(std::move(state)) {
  if (!state_) throw value_error("generator: null state");
}

std::uint64_t generator::take(std::uint64_t counters) {
  std::uint64_t at = state_->counter;
  state_->counter += counters;
  return at;
}

// The common path of the distributions: broadcast, allocate (or check `out`), take counters, launch.
namespace {
struct draw_request {
  dist d;
  dtype t;
  std::vector<source> params;
  size_arg size;
  array out;
};
}  // namespace

static array run_draw(generator& g, std::uint64_t (generator::*take)(std::uint64_t), const draw_request& r);

array generator::random(const size_arg& size, dtype t, const array& out) {
  check_float_dtype(t, "random");
  check_out(out, t, size);
  return run_draw(*this, &generator::take, {dist::uniform01, t, {}, size, out});
}

array generator::standard_normal(const size_arg& size, dtype t, const array& out) {
  check_float_dtype(t, "standard_normal");
  check_out(out, t, size);
  return run_draw(*this, &generator::take, {dist::normal, t, {{array(), 0.0}, {array(), 1.0}}, size, out});
}

array generator::standard_exponential(const size_arg& size, dtype t, std::string_view method, const array& out) {
  check_float_dtype(t, "standard_exponential");
  (void)method;  // NumPy takes any method but "zig" as "inv"; both are the inversion method here
  check_out(out, t, size);
  return run_draw(*this, &generator::take, {dist::exponential, t, {{array(), 1.0}}, size, out});
}

array generator::standard_gamma(const ufunc_arg& shape, const size_arg& size, dtype t, const array& out) {
  check_float_dtype(t, "standard_gamma");
  check_out(out, t, size);
  source k = to_source(shape);
  check(
      k, [](double v) { return v < 0; }, "shape < 0");
  return run_draw(*this, &generator::take, {dist::gamma, t, {k, {array(), 1.0}}, size, out});
}

namespace {
source checked(const ufunc_arg& a, bool (*bad)(double), const char* msg) {
  source s = to_source(a);
  check(s, bad, msg);
  return s;
}
bool negative(double v) { return v < 0; }
bool non_positive(double v) { return v <= 0; }
}  // namespace

array generator::uniform(const ufunc_arg& low, const ufunc_arg& high, const size_arg& size) {
  source lo = to_source(low), hi = to_source(high);
  if (!lo.is_array() && !hi.is_array()) {
    double d = hi.value - lo.value;
    if (!std::isfinite(d)) throw overflow_error("high - low range exceeds valid bounds");
    if (d < 0) throw value_error("high - low < 0");
  } else {
    array diff = subtract(hi.is_array() ? ufunc_arg(hi.arr) : ufunc_arg(hi.value),
                          lo.is_array() ? ufunc_arg(lo.arr) : ufunc_arg(lo.value));
    for (double d : to_host(diff)) {
      if (!std::isfinite(d)) throw overflow_error("Range exceeds valid bounds");
      if (d < 0) throw value_error("high - low < 0");
    }
  }
  return run_draw(*this, &generator::take, {dist::uniform, float64, {lo, hi}, size, array()});
}

array generator::normal(const ufunc_arg& loc, const ufunc_arg& scale, const size_arg& size) {
  source l = to_source(loc), s = checked(scale, negative, "scale < 0");
  return run_draw(*this, &generator::take, {dist::normal, float64, {l, s}, size, array()});
}

array generator::exponential(const ufunc_arg& scale, const size_arg& size) {
  return run_draw(*this, &generator::take,
                  {dist::exponential, float64, {checked(scale, negative, "scale < 0")}, size, array()});
}

array generator::gamma(const ufunc_arg& shape, const ufunc_arg& scale, const size_arg& size) {
  source k = checked(shape, negative, "shape < 0"), s = checked(scale, negative, "scale < 0");
  return run_draw(*this, &generator::take, {dist::gamma, float64, {k, s}, size, array()});
}

array generator::beta(const ufunc_arg& a, const ufunc_arg& b, const size_arg& size) {
  source sa = checked(a, non_positive, "a <= 0"), sb = checked(b, non_positive, "b <= 0");
  return run_draw(*this, &generator::take, {dist::beta, float64, {sa, sb}, size, array()});
}

array generator::chisquare(const ufunc_arg& df, const size_arg& size) {
  return run_draw(*this, &generator::take,
                  {dist::chisquare, float64, {checked(df, non_positive, "df <= 0")}, size, array()});
}

array generator::lognormal(const ufunc_arg& mean, const ufunc_arg& sigma, const size_arg& size) {
  source m = to_source(mean), s = checked(sigma, negative, "sigma < 0");
  return run_draw(*this, &generator::take, {dist::lognormal, float64, {m, s}, size, array()});
}

array generator::logistic(const ufunc_arg& loc, const ufunc_arg& scale, const size_arg& size) {
  source l = to_source(loc), s = checked(scale, negative, "scale < 0");
  return run_draw(*this, &generator::take, {dist::logistic, float64, {l, s}, size, array()});
}

array generator::laplace(const ufunc_arg& loc, const ufunc_arg& scale, const size_arg& size) {
  source l = to_source(loc), s = checked(scale, negative, "scale < 0");
  return run_draw(*this, &generator::take, {dist::laplace, float64, {l, s}, size, array()});
}

array generator::gumbel(const ufunc_arg& loc, const ufunc_arg& scale, const size_arg& size) {
  source l = to_source(loc), s = checked(scale, negative, "scale < 0");
  return run_draw(*this, &generator::take, {dist::gumbel, float64, {l, s}, size, array()});
}

array generator::binomial(const ufunc_arg& n, const ufunc_arg& p, const size_arg& size) {
  source sn = checked(n, negative, "n < 0");
  source sp = checked(
      p, [](double v) { return !(v >= 0 && v <= 1); }, "p < 0, p > 1 or p is NaN");
  return run_draw(*this, &generator::take, {dist::binomial, int64, {sn, sp}, size, array()});
}

array generator::poisson(const ufunc_arg& lam, const size_arg& size) {
  source l = checked(
      lam, [](double v) { return !(v >= 0); }, "lam < 0 or lam is NaN");
  check(
      l, [](double v) { return v >= poisson_lam_max; }, "lam value too large");
  return run_draw(*this, &generator::take, {dist::poisson, int64, {l}, size, array()});
}

array generator::geometric(const ufunc_arg& p, const size_arg& size) {
  source sp = checked(
      p, [](double v) { return !(v > 0 && v <= 1); }, "p <= 0, p > 1 or p contains NaNs");
  return run_draw(*this, &generator::take, {dist::geometric, int64, {sp}, size, array()});
}

array generator::hypergeometric(const ufunc_arg& ngood, const ufunc_arg& nbad, const ufunc_arg& nsample,
                                const size_arg& size) {
  source g = to_source(ngood), b = to_source(nbad), s = to_source(nsample);
  // NumPy's order of checks: the size limit, then the sum, then each sign.
  constexpr double max = 1e9;
  check(
      g, [](double v) { return v >= max; }, "both ngood and nbad must be less than 1000000000");
  check(
      b, [](double v) { return v >= max; }, "both ngood and nbad must be less than 1000000000");
  // The checks run over the parameters' own broadcast: `size` is parsed after them (Note [random size]).
  shape_t shape = broadcast_params({g.shape(), b.shape(), s.shape()}, std::nullopt);
  {
    std::int64_t n = shape_size(shape);
    auto host_of = [&](const source& x) {
      if (!x.is_array()) return std::vector<double>(static_cast<std::size_t>(n), x.value);
      array full_x = detail::new_array(float64, shape, order::C, current_device());
      full_x.assign(x.arr);
      return to_host(full_x);
    };
    std::vector<double> hg = host_of(g), hb = host_of(b), hs = host_of(s);
    for (std::int64_t i = 0; i < n; ++i) {
      if (std::floor(hg[i]) + std::floor(hb[i]) < std::floor(hs[i])) throw value_error("ngood + nbad < nsample");
    }
    for (std::int64_t i = 0; i < n; ++i) {
      if (hg[i] < 0) throw value_error("ngood < 0");
      if (hb[i] < 0) throw value_error("nbad < 0");
      if (hs[i] < 0) throw value_error("nsample < 0");
    }
  }
  return run_draw(*this, &generator::take, {dist::hypergeometric, int64, {g, b, s}, size, array()});
}

// The callers checked `out` against dtype and size first (check_out), then the parameters, as NumPy does.
static array run_draw(generator& g, std::uint64_t (generator::*take)(std::uint64_t), const draw_request& r) {
  std::vector<shape_t> shapes;
  for (const auto& p : r.params) shapes.push_back(p.shape());
  size_arg size = r.size;
  if (!size && r.out.defined()) size = r.out.shape();
  shape_t shape = broadcast_params(shapes, size);
  array res = prepare_out(r.out, r.t, shape);
  std::int64_t n = res.size();
  if (n == 0) return res;
  cudaStream_t stream = detail::enter_device(res.device());
  std::vector<array> keep;
  param p[3];
  for (std::size_t i = 0; i < r.params.size() && i < 3; ++i) p[i] = to_param(r.params[i], shape, res.device(), keep);
  std::uint64_t offset = (g.*take)(detail::rng::counters_used(r.d, r.t, n));
  detail::rng::launch_dist(r.d, res.data(), r.t, n, g.state()->key, offset, p, stream);
  return res;
}

}  // namespace cuarray::random
