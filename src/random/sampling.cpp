// cuarray::random::generator's integers, permutations, choice and the multivariate distributions.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/random.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/sorting.hpp"
#include "src/random/random_internal.hpp"

namespace cuarray::random {

namespace {

using namespace detail_random;
using i128 = __int128;

// A bound of integers() as exact integers: uint64 values keep their range, floats truncate as NumPy's cast.
std::vector<i128> integer_values(const ufunc_arg& a, const shape_t& shape) {
  if (a.is_scalar()) {
    const scalar& v = a.value;
    if (v.type == uint64) {
      std::uint64_t u;
      std::memcpy(&u, v.bytes, 8);
      return {static_cast<i128>(u)};
    }
    if (is_complex(v.type)) throw type_error("integers() bounds must be real");
    if (is_floating(v.type)) {
      double d = v.to_double();
      if (!std::isfinite(d) || std::fabs(d) >= 0x1p100) throw overflow_error("cannot convert float to integer");
      // Python ints beyond uint64 arrive rounded to a double; any of them is out of every dtype's bounds. 2**64
      // itself (uint64's exclusive high) arrives exact: the binding sends the ints above it that round to it
      // as the next double up.
      if (d == 0x1p64) return {static_cast<i128>(1) << 64};
      if (std::fabs(d) >= 0x1p64) return {static_cast<i128>(d) + (d > 0 ? 1 : -1)};
      return {static_cast<i128>(d)};
    }
    return {static_cast<i128>(v.to_int64())};
  }
  bool u64 = a.arr.type() == uint64;
  if (is_complex(a.arr.type())) throw type_error("integers() bounds must be real");
  array full_a = cuarray::detail::new_array(u64 ? uint64 : int64, shape, order::C, current_device());
  full_a.assign(a.arr);
  std::vector<i128> out(static_cast<std::size_t>(full_a.size()));
  if (u64) {
    std::vector<std::uint64_t> h(out.size());
    full_a.copy_to_host(h);
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = h[i];
  } else {
    std::vector<std::int64_t> h(out.size());
    full_a.copy_to_host(h);
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = h[i];
  }
  return out;
}

shape_t shape_of(const ufunc_arg& a) { return a.is_scalar() ? shape_t{} : a.arr.shape(); }

// out = a gathered along `axis` at the int64 indices `idx` (any shape, C-contiguous): NumPy's take.
array take_axis(const array& a, int axis, const array& idx) {
  array src = a.is_c_contiguous() ? a : a.copy(order::C);
  std::int64_t rows = 1, inner = 1;
  shape_t out_shape;
  for (int i = 0; i < axis; ++i) {
    rows *= a.shape()[i];
    out_shape.push_back(a.shape()[i]);
  }
  for (auto d : idx.shape()) out_shape.push_back(d);
  for (int i = axis + 1; i < a.ndim(); ++i) {
    inner *= a.shape()[i];
    out_shape.push_back(a.shape()[i]);
  }
  array out = cuarray::detail::new_array(a.type(), out_shape, order::C, a.device());
  if (out.size() == 0) return out;
  cudaStream_t s = cuarray::detail::enter_device(out.device());
  cuarray::detail::rng::launch_gather(out.data(), src.data(), a.itemsize(), rows, idx.size(), a.shape()[axis], inner,
                                      static_cast<const std::int64_t*>(idx.data()), false, s);
  return out;
}

// The first k elements of a contiguous 1-D array, as a view.
array prefix(const array& a, std::int64_t k) {
  return array(a.storage(),
               descriptor{a.type(), shape_t{k}, strides_t{static_cast<std::int64_t>(a.itemsize())}, a.offset()});
}

}  // namespace

array generator::integers(const ufunc_arg& low_in, const std::optional<ufunc_arg>& high_in, const size_arg& size,
                          dtype t, bool endpoint) {
  if (!is_integer(t) && !is_bool(t)) throw type_error("Unsupported dtype " + dtype_repr(t) + " for integers");
  // NumPy's order: an empty `size` returns at once (checking nothing but the size), then the bounds, then
  // `size` (Note [random size]) and its broadcast with the bounds.
  if (has_zero_extent(size)) {
    check_size(*size);
    return cuarray::detail::new_array(t, *size, order::C, current_device());
  }
  ufunc_arg low = high_in ? low_in : ufunc_arg(0);
  ufunc_arg high = high_in ? *high_in : low_in;
  shape_t bounds_shape = broadcast_params({shape_of(low), shape_of(high)}, std::nullopt);
  int bits = static_cast<int>(itemsize(t)) * 8;
  i128 tmin = 0, tmax = 1;
  if (is_signed_integer(t)) {
    tmin = -(static_cast<i128>(1) << (bits - 1));
    tmax = (static_cast<i128>(1) << (bits - 1)) - 1;
  } else if (is_unsigned_integer(t)) {
    tmax = (static_cast<i128>(1) << bits) - 1;
  }
  std::vector<i128> lo, hi;
  if (shape_size(bounds_shape) > 0) {
    lo = integer_values(low, bounds_shape);
    hi = integer_values(high, bounds_shape);
  }
  std::size_t count = std::max(lo.size(), hi.size());
  std::string tname(name(t));
  std::vector<std::int64_t> lows(count);
  std::vector<std::uint64_t> ranges(count);
  for (std::size_t i = 0; i < count; ++i) {
    i128 l = lo[lo.size() == 1 ? 0 : i], h = hi[hi.size() == 1 ? 0 : i];
    if (!endpoint) h -= 1;
    if (l < tmin) throw value_error("low is out of bounds for " + tname);
    if (h > tmax) throw value_error("high is out of bounds for " + tname);
    if (l > h) throw value_error(endpoint ? "low > high" : "low >= high");
    lows[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(l));
    ranges[i] = static_cast<std::uint64_t>(h - l);
  }
  shape_t shape = broadcast_params({shape_of(low), shape_of(high)}, size);
  std::int64_t n = shape_size(shape);
  array res = cuarray::detail::new_array(t, shape, order::C, current_device());
  if (n == 0) return res;
  cudaStream_t s = cuarray::detail::enter_device(res.device());
  std::uint64_t offset = take(cuarray::detail::rng::integers_counters(n, count == 1 && ranges[0] <= 0xFFFFFFFFull));
  if (count == 1) {
    cuarray::detail::rng::launch_integers(res.data(), t, n, state_->key, offset, nullptr, lows[0], nullptr, ranges[0],
                                          s);
  } else {
    array dl = from_host(lows.data(), int64, bounds_shape), dr = from_host(ranges.data(), uint64, bounds_shape);
    if (bounds_shape != shape) {  // `size` repeats the bounds
      dl = dl.broadcast_to(shape).copy(order::C);
      dr = dr.broadcast_to(shape).copy(order::C);
    }
    cuarray::detail::rng::launch_integers(res.data(), t, n, state_->key, offset,
                                          static_cast<const std::int64_t*>(dl.data()), 0,
                                          static_cast<const std::uint64_t*>(dr.data()), 0, s);
  }
  return res;
}

array generator::random_raw(std::int64_t n) {
  array res = cuarray::detail::new_array(uint64, shape_t{n}, order::C, current_device());
  if (n == 0) return res;
  cudaStream_t s = cuarray::detail::enter_device(res.device());
  std::uint64_t offset = take((static_cast<std::uint64_t>(n) + 1) / 2);
  cuarray::detail::rng::launch_bits(static_cast<std::uint64_t*>(res.data()), n, state_->key, offset, s);
  return res;
}

array generator::permutation(std::int64_t n) {
  if (n < 0) n = 0;  // NumPy permutes arange(n), empty for negative n
  // Sorting random 64-bit keys: ties (probability about n^2 / 2^65) keep index order, still a permutation.
  return argsort(random_raw(n), 0);
}

array generator::permutation(const array& x, int axis) {
  int ax = normalize_axis(axis, x.ndim());
  return take_axis(x, ax, permutation(x.shape()[ax]));
}

void generator::shuffle(const array& x, int axis) {
  if (x.ndim() == 0) throw type_error("len() of unsized object");  // NumPy's error, whatever the axis
  array shuffled = permutation(x, axis);
  array dst = x;
  dst.assign(shuffled);
}

array generator::permuted(const array& x, std::optional<int> axis, const array& out) {
  if (out.defined() && out.shape() != x.shape()) throw value_error("out must have the same shape as x");
  array res;
  if (!axis) {
    array flat = x.copy(order::C).reshape_view(shape_t{x.size()});
    res = take_axis(flat, 0, permutation(x.size())).reshape_view(x.shape());
  } else {
    int ax = normalize_axis(*axis, x.ndim());
    array moved = moveaxis(x, {ax}, {-1}).copy(order::C);
    std::int64_t len = x.shape()[ax], rows = len ? x.size() / len : 0;
    array keys = random_raw(x.size()).reshape_view(shape_t{rows, len});
    array idx = argsort(keys, -1);
    array shuffled = cuarray::detail::new_array(x.type(), moved.shape(), order::C, x.device());
    if (x.size() > 0) {
      cudaStream_t s = cuarray::detail::enter_device(x.device());
      cuarray::detail::rng::launch_gather(shuffled.data(), moved.data(), x.itemsize(), rows, len, len, 1,
                                          static_cast<const std::int64_t*>(idx.data()), true, s);
    }
    res = moveaxis(shuffled, {-1}, {ax});
  }
  if (out.defined()) {
    array dst = out;
    dst.assign(res);
    return out;
  }
  return res.is_c_contiguous() ? res : res.copy(order::C);
}

array generator::choice(std::int64_t n, const size_arg& size, bool replace, const array& p, bool /*shuffle*/) {
  // NumPy's order: the population, p, then `size` (Note [random size]).
  // NumPy: `pop_size <= 0 and np.prod(size) != 0`, so a negative population with no samples is fine.
  if (n <= 0 && !has_zero_extent(size)) {
    throw value_error("a must be a positive integer unless no samples are taken");
  }
  std::vector<double> ph;
  if (p.defined()) {
    if (is_complex(p.type())) throw type_error("p must be real");
    if (p.ndim() != 1) throw value_error("p must be 1-dimensional");
    if (p.size() != n) throw value_error("a and p must have same size");
    ph = to_host(p);
    double sum = 0;
    for (double v : ph) {
      if (std::isnan(v)) throw value_error("Probabilities contain NaN");
    }
    for (double v : ph) {
      if (v < 0) throw value_error("Probabilities are not non-negative");
      sum += v;
    }
    double atol = std::max(std::sqrt(std::numeric_limits<double>::epsilon()),
                           p.type() == float32 ? std::sqrt(1.1920929e-07) : 0.0);
    if (std::fabs(sum - 1.0) > atol) {
      throw value_error("Probabilities do not sum to 1. See Notes section of docstring for more information.");
    }
  }
  shape_t shape = size ? *size : shape_t{};
  std::int64_t k = check_size(shape);
  if (replace) {
    if (!p.defined()) return integers(ufunc_arg(0), ufunc_arg(n), shape);
    // NumPy's method: the normalised running sum, searched with uniforms (side right).
    std::vector<double> cdf(ph.size());
    double acc = 0;
    for (std::size_t i = 0; i < ph.size(); ++i) cdf[i] = acc += ph[i];
    for (double& c : cdf) c /= acc;
    array dcdf = from_host(cdf.data(), float64, shape_t{n});
    array idx = searchsorted(dcdf, random(shape), "right");
    // A uniform at the top of the last nonzero bucket's rounding could land one past it.
    return minimum(idx, ufunc_arg(n - 1));
  }
  if (k > n) throw value_error("Cannot take a larger sample than population when replace is False");
  array order_;
  if (p.defined()) {
    std::int64_t nonzero = 0;
    for (double v : ph) nonzero += v > 0;
    if (nonzero < k) throw value_error("Fewer non-zero entries in p than size");
    // Successive weighted draws without replacement are the order of the exponential race E_i / p_i.
    array keys = divide(standard_exponential(shape_t{n}), p.astype(float64, order::K, false));
    order_ = argsort(keys, 0);
  } else {
    order_ = permutation(n);
  }
  return prefix(order_, k).reshape(shape);
}

array generator::choice(const array& a, const size_arg& size, bool replace, const array& p, int axis, bool shuffle) {
  if (a.ndim() == 0) {
    if (!is_integer(a.type())) throw value_error("a must be 1-dimensional or an integer");
    std::int64_t n = a.astype(int64).host_value<std::int64_t>();
    return choice(n, size, replace, p, shuffle);
  }
  int ax = normalize_axis(axis, a.ndim());
  std::int64_t pop = a.shape()[ax];
  if (pop == 0 && !has_zero_extent(size)) {
    throw value_error("a cannot be empty unless no samples are taken");
  }
  array idx = choice(pop, size, replace, p, shuffle);
  if (!idx.is_c_contiguous()) idx = idx.copy(order::C);
  return take_axis(a, ax, idx);
}

array generator::multinomial(const ufunc_arg& n, const array& pvals, const size_arg& size) {
  if (pvals.ndim() == 0 || pvals.shape().back() == 0) {
    throw value_error("pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
  }
  std::vector<double> hp = to_host(pvals);
  std::int64_t k = pvals.shape().back();
  for (double v : hp) {
    if (!(v >= 0 && v <= 1)) throw value_error("pvals < 0, pvals > 1 or pvals contains NaNs");
  }
  for (std::size_t r = 0; r < hp.size(); r += k) {
    double sum = 0;
    for (std::int64_t j = 0; j + 1 < k; ++j) sum += hp[r + j];
    if (sum > 1.0 + 1e-12) throw value_error("sum(pvals[:-1]) > 1.0");
  }
  source sn = to_source(n);
  // NumPy parses `size` before the check of n on its path of a 0-d n and a 1-D pvals, after it otherwise.
  if (sn.shape().empty() && pvals.ndim() == 1 && size) check_size(*size);
  check(
      sn, [](double v) { return v < 0; }, "n < 0");
  shape_t pshape;
  for (int i = 0; i + 1 < pvals.ndim(); ++i) pshape.push_back(pvals.shape()[i]);
  shape_t bshape = broadcast_params({sn.shape(), pshape}, size);
  shape_t out_shape = bshape;
  out_shape.push_back(k);
  int dev = current_device();
  array res = cuarray::detail::new_array(int64, out_shape, order::C, dev);
  std::int64_t rows = shape_size(bshape);
  if (res.size() == 0) return res;
  array dn = cuarray::detail::new_array(float64, bshape, order::C, dev);
  if (sn.is_array()) dn.assign(sn.arr);
  else dn.fill(scalar::from_double(sn.value));
  array dp = cuarray::detail::new_array(float64, out_shape, order::C, dev);
  dp.assign(pvals);
  cudaStream_t s = cuarray::detail::enter_device(dev);
  std::uint64_t offset = take(static_cast<std::uint64_t>(rows));
  cuarray::detail::rng::launch_multinomial(static_cast<std::int64_t*>(res.data()), rows, k, state_->key, offset,
                                           static_cast<const double*>(dn.data()), static_cast<const double*>(dp.data()),
                                           s);
  return res;
}

array generator::dirichlet(const array& alpha, const size_arg& size) {
  if (alpha.ndim() == 0) throw type_error("alpha must be a sequence: a 0-d array has no len()");  // as NumPy's len()
  if (alpha.ndim() != 1) throw value_error("alpha must be a one-dimensional array");
  source sa = to_source(alpha);
  check(
      sa, [](double v) { return v < 0; }, "alpha < 0");
  shape_t shape = size ? *size : shape_t{};
  shape.push_back(alpha.shape()[0]);
  array g = gamma(sa.arr, 1.0, shape);
  if (g.size() == 0) return g;
  reduce_options o;
  o.axis = std::vector<int>{-1};
  o.keepdims = true;
  return divide(g, sum(g, o));
}

array generator::multivariate_normal_factor(const array& mean, const array& factor, const size_arg& size) {
  if (mean.ndim() != 1) throw value_error("mean must be 1 dimensional");
  std::int64_t d = mean.shape()[0];
  if (factor.ndim() != 2 || factor.shape()[0] != d || factor.shape()[1] != d) {
    throw value_error("factor must be a square matrix of the mean's length");
  }
  shape_t shape = size ? *size : shape_t{};
  shape.push_back(d);
  array z = standard_normal(shape);
  array out = cuarray::detail::new_array(float64, shape, order::C, z.device());
  if (out.size() == 0) return out;
  array m = mean.astype(float64, order::C, false), f = factor.astype(float64, order::C, false);
  cudaStream_t s = cuarray::detail::enter_device(out.device());
  cuarray::detail::rng::launch_affine_rows(static_cast<double*>(out.data()), static_cast<const double*>(z.data()),
                                           static_cast<const double*>(f.data()), static_cast<const double*>(m.data()),
                                           out.size() / d, d, s);
  return out;
}

array generator::multivariate_normal(const array& mean, const array& cov, const size_arg& size) {
  if (mean.ndim() != 1) throw value_error("mean must be 1 dimensional");
  if (cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1]) throw value_error("cov must be 2 dimensional and square");
  std::int64_t d = mean.shape()[0];
  if (cov.shape()[0] != d) throw value_error("mean and cov must have same length");
  // Cholesky on the host (d is small): x = z @ L^T, so the factor is L^T.
  std::vector<double> c = to_host(cov), l(static_cast<std::size_t>(d * d), 0.0);
  for (std::int64_t i = 0; i < d; ++i) {
    for (std::int64_t j = 0; j <= i; ++j) {
      double acc = c[i * d + j];
      for (std::int64_t q = 0; q < j; ++q) acc -= l[i * d + q] * l[j * d + q];
      if (i == j) {
        if (!(acc > 0)) throw value_error("cov is not positive definite");
        l[i * d + i] = std::sqrt(acc);
      } else {
        l[i * d + j] = acc / l[j * d + j];
      }
    }
  }
  std::vector<double> lt(l.size());
  for (std::int64_t i = 0; i < d; ++i)
    for (std::int64_t j = 0; j < d; ++j) lt[j * d + i] = l[i * d + j];
  return multivariate_normal_factor(mean, from_host(lt.data(), float64, shape_t{d, d}), size);
}

}  // namespace cuarray::random
