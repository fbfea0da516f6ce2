// bincount and the histogram family: edges and estimators on the host (NumPy's code), binning in count_kernels.cu.
#include "cuarray/counting.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "src/core/half.hpp"
#include "src/core/internal.hpp"
#include "src/engine/scan.hpp"
#include "src/kernels/count_kernels.hpp"

namespace cuarray {

// Note [histogram edges]
// NumPy decides a value's bin by comparing it with the edges, so edges that differ from NumPy's in the last bit
// move values between bins. NumPy's edges are np.linspace(first_edge, last_edge, n + 1, dtype=bin_type), and
// linspace computes in the type of its start and stop: float16 or float32 when they are a.min() and a.max() of
// such data (NumPy scalars), float64 for a range (Python floats) or integer data; each ufunc call rounds to that
// type, and the cast to bin_type comes last. We replay that arithmetic on the host, one rounding per NumPy
// operation (a float16/float32 operation is done in double and rounded once, which is exact: double has more
// than twice the precision), so the edges are bit-identical; the binning kernel then compares values with
// those edges exactly (searchsorted 'right', last edge inclusive), as NumPy's corrected index computation does.
// Densities likewise divide as NumPy does and sum the histogram with NumPy's pairwise summation.

namespace detail {

double round_to(double v, dtype t) {
  if (t == float16) return half_to_float(double_to_half(v));
  if (t == float32) return static_cast<double>(static_cast<float>(v));
  return v;
}

namespace {

// Products and sums that the compiler may not fuse into an FMA (one rounding where NumPy has two).
double mul(double a, double b) {
  volatile double r = a * b;
  return r;
}
double add(double a, double b) {
  volatile double r = a + b;
  return r;
}

template <class T> T pairwise(const double* a, std::int64_t n) {
  if (n < 8) {
    T res = 0;
    for (std::int64_t i = 0; i < n; ++i) res += static_cast<T>(a[i]);
    return res;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = static_cast<T>(a[j]);
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += static_cast<T>(a[i + j]);
    }
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += static_cast<T>(a[i]);
    return res;
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise<T>(a, n2) + pairwise<T>(a + n2, n - n2);
}

}  // namespace

std::vector<double> numpy_linspace(double first, double last, std::int64_t num, dtype math) {
  auto r = [math](double v) { return round_to(v, math); };
  std::vector<double> y(static_cast<std::size_t>(std::max<std::int64_t>(num, 0)));
  std::int64_t div = num - 1;
  double delta = r(last - first);
  for (std::int64_t i = 0; i < num; ++i) y[static_cast<std::size_t>(i)] = r(static_cast<double>(i));  // arange
  if (div > 0) {
    double d = r(static_cast<double>(div));  // the Python int div is weak: it takes the type of delta
    double step = r(delta / d);
    if (step == 0) {  // denormal step: NumPy divides first, then multiplies
      for (double& v : y) v = r(mul(r(v / d), delta));
    } else {
      for (double& v : y) v = r(mul(v, step));
    }
  } else {
    for (double& v : y) v = r(mul(v, delta));
  }
  for (double& v : y) v = r(add(v, first));
  if (num > 1) y.back() = last;
  return y;
}

std::complex<double> numpy_cdiv(std::complex<double> a, std::complex<double> b) {
  double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (std::fabs(br) >= std::fabs(bi)) {
    if (br == 0 && bi == 0) return {ar / std::fabs(br), ai / std::fabs(br)};
    double rat = bi / br, scl = 1.0 / add(br, mul(bi, rat));
    return {mul(add(ar, mul(ai, rat)), scl), mul(add(ai, -mul(ar, rat)), scl)};
  }
  double rat = br / bi, scl = 1.0 / add(bi, mul(br, rat));
  return {mul(add(mul(ar, rat), ai), scl), mul(add(mul(ai, rat), -ar), scl)};
}

std::vector<std::complex<double>> numpy_cumulative_histogram(const std::vector<double>& a,
                                                             const std::vector<std::complex<double>>& w,
                                                             const std::vector<double>& edges, dtype t) {
  constexpr std::size_t block = 65536;  // NumPy's BLOCK
  dtype part = t == complex64 ? float32 : t == complex128 ? float64 : t;
  auto r = [part](double v) { return round_to(v, part); };
  std::size_t m = edges.size();
  std::vector<std::complex<double>> cum(m), cw;
  std::vector<std::size_t> order;
  std::vector<double> sorted;
  for (std::size_t b0 = 0; b0 < a.size(); b0 += block) {
    std::size_t len = std::min(block, a.size() - b0);
    order.resize(len);
    for (std::size_t k = 0; k < len; ++k) order[k] = b0 + k;
    // NumPy's sort order: NaN last. Stable, where NumPy's quicksort leaves ties in no promised order.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return std::isnan(a[y]) ? !std::isnan(a[x]) : a[x] < a[y]; });
    sorted.resize(len);
    cw.assign(len + 1, 0.0);
    for (std::size_t k = 0; k < len; ++k) {
      sorted[k] = a[order[k]];
      const std::complex<double>& x = w[order[k]];
      cw[k + 1] = {r(cw[k].real() + x.real()), r(cw[k].imag() + x.imag())};  // sw.cumsum() in t
    }
    auto numbers_end = std::partition_point(sorted.begin(), sorted.end(), [](double v) { return !std::isnan(v); });
    for (std::size_t j = 0; j < m; ++j) {
      // _search_sorted_inclusive: 'left' for all edges but the last, 'right' for the last.
      auto it = j + 1 < m ? std::lower_bound(sorted.begin(), numbers_end, edges[j])
                          : std::upper_bound(sorted.begin(), numbers_end, edges[j]);
      const std::complex<double>& c = cw[static_cast<std::size_t>(it - sorted.begin())];
      cum[j] = {r(cum[j].real() + c.real()), r(cum[j].imag() + c.imag())};
    }
  }
  std::vector<std::complex<double>> n(m ? m - 1 : 0);
  for (std::size_t j = 0; j + 1 < m; ++j) {
    n[j] = {r(cum[j + 1].real() - cum[j].real()), r(cum[j + 1].imag() - cum[j].imag())};
  }
  return n;
}

double numpy_pairwise_sum(const double* v, std::int64_t n, dtype t) {
  if (t == float32) return pairwise<float>(v, n);
  if (t == float16) return round_to(pairwise<float>(v, n), float16);  // NumPy sums float16 in float
  return pairwise<double>(v, n);
}

// NumPy 2.x's add.reduce over a view with non-contiguous rows sums it in runs, each by pairwise summation, added
// in order (found by experiment against NumPy 2.4): the whole when it has one dimension (size-1 dimensions
// dropped) or fits the 8192-element buffer; each row when a row is longer than the buffer; else buffers of the
// most whole trailing blocks that fit, never crossing the next dimension's blocks.
double numpy_view_sum(const std::vector<double>& v, const std::vector<std::int64_t>& shape) {
  constexpr std::int64_t buffer = 8192;
  std::vector<std::int64_t> dims;
  for (std::int64_t d : shape) {
    if (d != 1) dims.push_back(d);
  }
  std::int64_t total = static_cast<std::int64_t>(v.size());
  auto run = [&](std::int64_t from, std::int64_t count) { return numpy_pairwise_sum(v.data() + from, count, float64); };
  if (dims.size() <= 1) return run(0, total);
  double s = 0;
  if (dims.back() > buffer) {
    for (std::int64_t i = 0; i < total; i += dims.back()) s += run(i, dims.back());
    return s;
  }
  std::int64_t inner = 1;
  std::size_t k = dims.size();
  while (k > 0 && inner * dims[k - 1] <= buffer) inner *= dims[--k];
  if (k == 0) return run(0, total);
  std::int64_t per = (buffer / inner) * inner, block = dims[k - 1] * inner;
  for (std::int64_t o = 0; o < total; o += block) {
    for (std::int64_t i = o; i < o + block; i += per) s += run(i, std::min(per, o + block - i));
  }
  return s;
}

}  // namespace detail

using detail::new_array;
using detail::slice_axis;

namespace {

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

// How Python prints a value of dtype `t` (NumPy scalars print the shortest text that reads back the same).
std::string py_text(double v, dtype t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (is_integer(t) || t == bool_) return std::to_string(static_cast<long long>(v));
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    double back = std::strtod(buf, nullptr);
    bool same = t == float16   ? detail::double_to_half(back) == detail::double_to_half(v)
                : t == float32 ? static_cast<float>(back) == static_cast<float>(v)
                               : back == v;
    if (same) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::vector<double> host_doubles(const array& a) {
  std::vector<double> v(static_cast<std::size_t>(a.size()));
  a.astype(float64, order::C, false).copy_to_host(v);
  return v;
}

array device_doubles(const std::vector<double>& v, int device) {
  array a = new_array(float64, shape_t{static_cast<std::int64_t>(v.size())}, order::C, device);
  a.copy_from_host(v);
  return a;
}

// Edges (values of `t`, exactly) as an array of dtype `t`.
array edges_array(const std::vector<double>& v, dtype t, int device) {
  array d = device_doubles(v, device);
  return t == float64 ? d : d.astype(t, order::C, false);
}

// min and max of a contiguous real array as doubles (NaN if any is NaN); one synchronisation. Other dtypes than
// float64 are reduced in their own type (the extremes convert to double as the values would: monotonically),
// which reads the data twice in its width rather than widening every value to float64 first.
std::pair<double, double> min_max(const array& a) {
  if (a.type() != float64) {
    array both = new_array(a.type(), shape_t{2}, order::C, a.device());
    slice_axis(both, 0, 0, 1).assign(amin(a).reshape(shape_t{1}));
    slice_axis(both, 0, 1, 2).assign(amax(a).reshape(shape_t{1}));
    std::vector<double> v(2);
    both.astype(float64, order::C, false).copy_to_host(v);
    return {v[0], v[1]};
  }
  array out = new_array(float64, shape_t{2}, order::C, a.device());
  cudaStream_t s = detail::enter_device(a.device());
  detail::pool_scratch scratch(a.device());
  detail::launch_minmax_f64(static_cast<const double*>(a.data()), a.size(), static_cast<double*>(out.data()), scratch,
                            s);
  std::vector<double> v(2);
  out.copy_to_host(v);
  return {v[0], v[1]};
}

// The outer edges of a histogram and the floating type NumPy's linspace computes the edges in (Note [histogram
// edges]): a.min() and a.max() are NumPy scalars of the data's type, a range is Python floats (float64).
struct outer_range {
  double first, last;
  dtype math;
};

// NumPy's _get_outer_edges over `a` (contiguous real values of dtype `t`).
outer_range outer_edges(const array& a, dtype t, const histogram_range& range) {
  double first, last;
  dtype math = float64;
  if (range) {
    std::tie(first, last) = *range;
    if (first > last) throw value_error("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw value_error("supplied range of [" + py_text(first, float64) + ", " + py_text(last, float64) +
                        "] is not finite");
    }
  } else if (a.size() == 0) {
    first = 0, last = 1;
  } else {
    std::tie(first, last) = min_max(a);
    if (!std::isfinite(first) || !std::isfinite(last)) {
      throw value_error("autodetected range of [" + py_text(first, t) + ", " + py_text(last, t) + "] is not finite");
    }
    if (is_floating(t)) math = t;  // an integer scalar minus 0.5 is float64, as is linspace over integers
  }
  if (first == last) {
    first = detail::round_to(first - 0.5, math);
    last = detail::round_to(last + 0.5, math);
  }
  return {first, last, math};
}

// ---------------------------------------------------------------------------------------------------------
// NumPy's bin-width estimators (_hist_bin_*), on the host over the values in range (never empty).

double ptp(const std::vector<double>& x) {
  auto [lo, hi] = std::minmax_element(x.begin(), x.end());
  return *hi - *lo;
}
double mean(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}
double stddev(const std::vector<double>& x) {
  double m = mean(x), s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(x.size()));
}
// NumPy's percentile, method 'linear', with its lerp.
double percentile(std::vector<double> x, double q) {
  std::sort(x.begin(), x.end());
  double pos = q / 100.0 * static_cast<double>(x.size() - 1);
  std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  std::size_t hi = std::min(lo + 1, x.size() - 1);
  double t = pos - static_cast<double>(lo), a = x[lo], b = x[hi];
  double d = b - a;
  return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

double bin_sqrt(const std::vector<double>& x) { return ptp(x) / std::sqrt(static_cast<double>(x.size())); }
double bin_sturges(const std::vector<double>& x) { return ptp(x) / (std::log2(static_cast<double>(x.size())) + 1.0); }
double bin_rice(const std::vector<double>& x) {
  return ptp(x) / (2.0 * std::pow(static_cast<double>(x.size()), 1.0 / 3));
}
double bin_scott(const std::vector<double>& x) {
  return std::pow(24.0 * std::sqrt(M_PI) / static_cast<double>(x.size()), 1.0 / 3.0) * stddev(x);
}
double bin_fd(const std::vector<double>& x) {
  double iqr = percentile(x, 75) - percentile(x, 25);
  return 2.0 * iqr * std::pow(static_cast<double>(x.size()), -1.0 / 3.0);
}
double bin_doane(const std::vector<double>& x) {
  double n = static_cast<double>(x.size());
  if (x.size() > 2) {
    double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
    double sigma = stddev(x);
    if (sigma > 0.0) {
      double m = mean(x), g1 = 0;
      for (double v : x) g1 += std::pow((v - m) / sigma, 3);
      g1 /= n;
      return ptp(x) / (1.0 + std::log2(n) + std::log2(1.0 + std::fabs(g1) / sg1));
    }
  }
  return 0.0;
}
double bin_stone(const std::vector<double>& x, std::pair<double, double> range) {
  std::size_t n = x.size();
  double ptp_x = ptp(x);
  if (n <= 1 || ptp_x == 0) return 0;
  auto jhat = [&](long nbins) {
    double hh = ptp_x / static_cast<double>(nbins);
    std::vector<double> counts(static_cast<std::size_t>(nbins), 0.0);
    double lo = range.first, width = range.second - range.first;
    for (double v : x) {
      if (!(v >= range.first && v <= range.second)) continue;
      long k = static_cast<long>((v - lo) / width * static_cast<double>(nbins));
      counts[static_cast<std::size_t>(std::clamp(k, 0L, nbins - 1))] += 1;
    }
    double dot = 0;
    for (double c : counts) dot += (c / static_cast<double>(n)) * (c / static_cast<double>(n));
    return (2 - (static_cast<double>(n) + 1) * dot) / hh;
  };
  long upper = std::max(100L, static_cast<long>(std::sqrt(static_cast<double>(n))));
  long best = 1;
  double best_j = jhat(1);
  for (long k = 2; k <= upper; ++k) {
    double j = jhat(k);
    if (j < best_j) best_j = j, best = k;
  }
  return ptp_x / static_cast<double>(best);
}
double bin_auto(const std::vector<double>& x) {
  double fd_bw = bin_fd(x), sturges_bw = bin_sturges(x), sqrt_bw = bin_sqrt(x);
  return std::min(std::max(fd_bw, sqrt_bw / 2), sturges_bw);
}

bool known_rule(const std::string& r) {
  for (const char* k : {"stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"}) {
    if (r == k) return true;
  }
  return false;
}

// The edges of a histogram: the array handed back, and its values as doubles for the binning kernel.
struct edges_plan {
  array edges;
  std::vector<double> values;
  bool explicit_edges = false;    ///< given as an array (NumPy's non-uniform path), not computed
  array device_values = array();  ///< `values` as float64 on the device when computed (one copy serves both)
};

void check_monotonic(const std::vector<double>& e, const std::string& msg) {
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    if (e[i] > e[i + 1]) throw value_error(msg);
  }
}

// NumPy's _get_bin_edges; `a` is the flattened data (contiguous, real), `t` its dtype.
edges_plan bin_edges(const array& a, dtype t, const histogram_bins& bins, const histogram_range& range, bool weighted) {
  if (bins.edges.defined() && bins.edges.ndim() > 0) {
    if (bins.edges.ndim() != 1) throw value_error("`bins` must be 1d, when an array");
    edges_plan p{bins.edges, host_doubles(bins.edges), true};
    check_monotonic(p.values, "`bins` must increase monotonically, when an array");
    return p;
  }
  std::int64_t n = bins.count;
  outer_range outer;
  if (!bins.rule.empty()) {
    if (!known_rule(bins.rule)) throw value_error("'" + bins.rule + "' is not a valid estimator for `bins`");
    if (weighted) throw type_error("Automated estimation of the number of bins is not supported for weighted data");
    outer = outer_edges(a, t, range);
    std::vector<double> x = host_doubles(a);
    if (range) {
      // NumPy compares the data with the (weak) Python floats in the data's own type.
      double lo = is_floating(t) ? detail::round_to(outer.first, t) : outer.first;
      double hi = is_floating(t) ? detail::round_to(outer.last, t) : outer.last;
      std::erase_if(x, [&](double v) { return !(v >= lo && v <= hi); });
    }
    n = 1;
    if (!x.empty()) {
      const std::string& r = bins.rule;
      std::pair<double, double> fl{outer.first, outer.last};
      double width = r == "stone"   ? bin_stone(x, fl)
                     : r == "auto"  ? bin_auto(x)
                     : r == "doane" ? bin_doane(x)
                     : r == "fd"    ? bin_fd(x)
                     : r == "rice"  ? bin_rice(x)
                     : r == "scott" ? bin_scott(x)
                     : r == "sqrt"  ? bin_sqrt(x)
                                    : bin_sturges(x);
      if (width != 0) {
        if (is_integer(t) && width < 1) width = 1;
        // _unsigned_subtract(last_edge, first_edge) rounds in the type of the edges.
        double bins_f = std::ceil(detail::round_to(outer.last - outer.first, outer.math) / width);
        if (std::isnan(bins_f)) throw value_error("cannot convert float NaN to integer");
        n = static_cast<std::int64_t>(bins_f);
      }
    }
  } else {
    if (bins.edges.defined()) n = static_cast<std::int64_t>(host_doubles(bins.edges).at(0));  // a 0-d array
    if (n < 1) throw value_error("`bins` must be positive, when an integer");
    outer = outer_edges(a, t, range);
  }
  dtype bin_type = is_floating(t) ? t : float64;
  edges_plan p{array(), detail::numpy_linspace(outer.first, outer.last, n + 1, outer.math)};
  for (double& v : p.values) v = detail::round_to(v, bin_type);
  for (std::size_t i = 0; i + 1 < p.values.size(); ++i) {
    if (p.values[i] >= p.values[i + 1]) {
      throw value_error("Too many bins for data range. Cannot create " + std::to_string(n) + " finite-sized bins.");
    }
  }
  p.device_values = device_doubles(p.values, a.device());
  p.edges = bin_type == float64 ? p.device_values : p.device_values.astype(bin_type, order::C, false);
  return p;
}

// Counts (uint64 bits in an int64 array) or double sums of `w` over the bins of `layout`: `sample` is n rows of
// layout.ndim C-contiguous float64 values, or, with one dimension, n contiguous values of any real dtype.
array bin_samples(const array& sample, std::int64_t n, const detail::histogram_layout& layout,
                  const std::vector<double>& edges, const array& w, const array& device_edges = array()) {
  int device = sample.device();
  array out = zeros(shape_t{layout.total}, w.defined() ? float64 : int64);
  if (n == 0 || layout.total == 0) return out;
  array e = device_edges.defined() ? device_edges : device_doubles(edges, device);
  array wd = w.defined() ? w.astype(float64, order::C, false) : array();
  cudaStream_t s = detail::enter_device(device);
  if (layout.ndim == 1) {  // any real dtype, read as it is (Note [one-dimensional histogram])
    detail::launch_histogram1d(sample.type(), sample.data(), n, static_cast<const double*>(e.data()), edges.data(),
                               layout.total, wd.defined() ? static_cast<const double*>(wd.data()) : nullptr, out.data(),
                               s);
    return out;
  }
  detail::launch_histogram(static_cast<const double*>(sample.data()), n, layout, static_cast<const double*>(e.data()),
                           wd.defined() ? static_cast<const double*>(wd.data()) : nullptr, out.data(), s);
  return out;
}

// Weighted bins in the weights' dtype (complex: real and imaginary parts binned apart, as NumPy does).
array weighted_bins(const array& sample, std::int64_t n, const detail::histogram_layout& layout,
                    const std::vector<double>& edges, const array& w, const array& device_edges) {
  if (!is_complex(w.type())) {
    return bin_samples(sample, n, layout, edges, w, device_edges).astype(w.type(), order::C, false);
  }
  array re = bin_samples(sample, n, layout, edges, real(w), device_edges);
  array im = bin_samples(sample, n, layout, edges, imag(w), device_edges);
  array c = new_array(complex128, re.shape(), order::C, re.device());
  real(c).assign(re);
  imag(c).assign(im);
  return c.astype(w.type(), order::C, false);
}

// NumPy's pairwise summation of complex values whose parts are of type T (it walks the parts as 2n scalars).
template <class T> std::pair<T, T> complex_pairwise(const std::complex<double>* a, std::int64_t m) {
  std::int64_t n = 2 * m;
  if (n < 8) {
    T rr = 0, ri = 0;
    for (std::int64_t k = 0; k < m; ++k) rr += static_cast<T>(a[k].real()), ri += static_cast<T>(a[k].imag());
    return {rr, ri};
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 4; ++j) r[2 * j] = static_cast<T>(a[j].real()), r[2 * j + 1] = static_cast<T>(a[j].imag());
    std::int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 4; ++j) {
        r[2 * j] += static_cast<T>(a[i / 2 + j].real());
        r[2 * j + 1] += static_cast<T>(a[i / 2 + j].imag());
      }
    }
    T rr = (r[0] + r[2]) + (r[4] + r[6]), ri = (r[1] + r[3]) + (r[5] + r[7]);
    for (; i < n; i += 2) rr += static_cast<T>(a[i / 2].real()), ri += static_cast<T>(a[i / 2].imag());
    return {rr, ri};
  }
  std::int64_t n2 = n / 2;
  n2 -= n2 % 8;
  auto [r1, i1] = complex_pairwise<T>(a, n2 / 2);
  auto [r2, i2] = complex_pairwise<T>(a + n2 / 2, m - n2 / 2);
  return {r1 + r2, i1 + i2};
}

// np.diff(edges) as float64: each difference rounded to the edges' type.
std::vector<double> widths_of(const std::vector<double>& e, dtype t) {
  std::vector<double> d;
  for (std::size_t i = 0; i + 1 < e.size(); ++i) d.push_back(detail::round_to(e[i + 1] - e[i], t));
  return d;
}

// histogram's `n / db / n.sum()`: n of its own dtype, db float64, n.sum() of n's dtype; float64 (complex128).
array histogram_density(const array& n, const std::vector<double>& db) {
  std::size_t total = static_cast<std::size_t>(n.size());
  std::int64_t m = n.size();
  if (is_complex(n.type())) {
    std::vector<std::complex<double>> v(total);
    n.astype(complex128, order::C, false).copy_to_host(v);
    std::complex<double> s;
    if (n.type() == complex64) {
      auto [r, i] = complex_pairwise<float>(v.data(), m);
      s = {r, i};
    } else {
      auto [r, i] = complex_pairwise<double>(v.data(), m);
      s = {r, i};
    }
    for (std::size_t i = 0; i < total; ++i) v[i] = detail::numpy_cdiv(detail::numpy_cdiv(v[i], db[i]), s);
    array out = new_array(complex128, n.shape(), order::C, n.device());
    out.copy_from_host(v);
    return out;
  }
  std::vector<double> v = host_doubles(n);
  double s = 0;
  if (is_floating(n.type())) {
    s = detail::numpy_pairwise_sum(v.data(), m, n.type());
  } else {
    for (double x : v) s += x;  // integer sums are exact
  }
  for (std::size_t i = 0; i < total; ++i) v[i] = v[i] / db[i] / s;
  return device_doubles(v, n.device()).reshape_view(n.shape());
}

// histogramdd's density: s = hist.sum(), then hist / dedges[0] / dedges[1] ... (in that order), then / s.
array histogramdd_density(const array& hist, const std::vector<std::vector<double>>& widths, const shape_t& shape) {
  std::vector<double> v = host_doubles(hist);
  double s = detail::numpy_view_sum(v, std::vector<std::int64_t>(shape.begin(),
                                                                 shape.end()));  // hist[1:-1, ..., 1:-1].sum()
  std::size_t nd = shape.size();
  std::vector<std::size_t> idx(nd, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t d = 0; d < nd; ++d) v[i] /= widths[d][idx[d]];
    v[i] /= s;
    for (std::size_t d = nd; d-- > 0;) {  // next C-order index
      if (++idx[d] < static_cast<std::size_t>(shape[d])) break;
      idx[d] = 0;
    }
  }
  return device_doubles(v, hist.device()).reshape_view(shape);
}

}  // namespace

array bincount(const array& x_peer, const array& weights, std::int64_t minlength) {
  const array x = detail::on_current_device(x_peer);  // Note [peer operands]
  if (x.ndim() == 0) throw value_error("object of too small depth for desired array");
  if (x.ndim() > 1) throw value_error("object too deep for desired array");
  // NumPy force-casts any integer input to intp (uint64 wraps, so values >= 2**63 read as negative below) and
  // asks a 'safe' cast of anything else.
  if (!is_integer(x.type()) && !can_cast_safely(x.type(), int64)) {
    throw type_error("Cannot cast array data from " + dtype_repr(x.type()) +
                     " to dtype('int64') according to the "
                     "rule 'safe'");
  }
  if (minlength < 0) throw value_error("'minlength' must not be negative");
  // NumPy answers an empty list before it looks at the weights: intp zeros, weights unchecked.
  if (x.size() == 0) return zeros(shape_t{minlength}, int64);
  int device = x.device();
  array xi = x.astype(int64, order::C, false);
  array mm = new_array(int64, shape_t{2}, order::C, device);
  cudaStream_t s = detail::enter_device(device);
  {
    detail::pool_scratch scratch(device);
    detail::launch_minmax_i64(static_cast<const std::int64_t*>(xi.data()), xi.size(),
                              static_cast<std::int64_t*>(mm.data()), scratch, s);
  }
  std::vector<std::int64_t> lohi(2);
  mm.copy_to_host(lohi);
  if (lohi[0] < 0) throw value_error("'list' argument must have no negative elements");
  if (weights.defined()) {
    if (weights.ndim() == 0) throw value_error("object of too small depth for desired array");
    if (weights.ndim() > 1) throw value_error("object too deep for desired array");
    if (!can_cast_safely(weights.type(), float64)) {
      throw type_error("Cannot cast array data from " + dtype_repr(weights.type()) +
                       " to dtype('float64') according to the rule 'safe'");
    }
    if (weights.size() != x.size()) throw value_error("The weights and list don't have the same length.");
  }
  std::int64_t nbins = std::max(lohi[1] + 1, minlength);
  array out = zeros(shape_t{nbins}, weights.defined() ? float64 : int64);
  array wd = weights.defined() ? weights.astype(float64, order::C, false) : array();
  s = detail::enter_device(device);
  detail::launch_bincount(static_cast<const std::int64_t*>(xi.data()), xi.size(),
                          wd.defined() ? static_cast<const double*>(wd.data()) : nullptr, out.data(), nbins, s);
  return out;
}

array histogram_bin_edges(const array& a_in_peer, const histogram_bins& bins, const histogram_range& range,
                          const array& weights) {
  const array a_in = detail::on_current_device(a_in_peer);  // Note [peer operands]
  array a = a_in.type() == bool_ ? a_in.astype(uint8) : a_in;
  if (is_complex(a.type())) throw type_error("histogram: complex input is not supported");
  if (weights.defined() && weights.shape() != a.shape()) throw value_error("weights should have the same shape as a.");
  array flat = a.reshape(shape_t{-1}).astype(a.type(), order::C, false);
  return bin_edges(flat, a.type(), bins, range, weights.defined()).edges;
}

std::pair<array, array> histogram(const array& a_in_peer, const histogram_bins& bins, const histogram_range& range,
                                  bool density, const array& weights) {
  const array a_in = detail::on_current_device(a_in_peer);  // Note [peer operands]
  array a = a_in.type() == bool_ ? a_in.astype(uint8) : a_in;
  if (is_complex(a.type())) throw type_error("histogram: complex input is not supported");
  if (weights.defined() && weights.shape() != a.shape()) throw value_error("weights should have the same shape as a.");
  // The data stays in its dtype: the binning kernel widens each value in registers (Note [one-dimensional
  // histogram]); the host paths below (estimators, weighted explicit edges) convert what they copy.
  array flat = a.reshape(shape_t{-1}).astype(a.type(), order::C, false);
  edges_plan p = bin_edges(flat, a.type(), bins, range, weights.defined());
  detail::histogram_layout layout;
  std::int64_t m = static_cast<std::int64_t>(p.values.size());
  layout.ndim = 1;
  layout.edge_offsets[0] = 0;
  layout.edge_offsets[1] = m;
  layout.strides[0] = 1;
  layout.total = std::max<std::int64_t>(m - 1, 0);
  array w = weights.defined() ? weights.reshape(shape_t{-1}) : array();
  array n;
  if (w.defined() && p.explicit_edges && is_inexact(w.type())) {
    // NumPy bins floating weights over explicit edges by differences of cumulative sums in the weights' type,
    // whose rounding a direct sum does not reproduce: replay it on the host.
    std::vector<std::complex<double>> wv(static_cast<std::size_t>(w.size()));
    w.astype(complex128, order::C, false).copy_to_host(wv);
    std::vector<std::complex<double>> h = detail::numpy_cumulative_histogram(host_doubles(flat), wv, p.values,
                                                                             w.type());
    array c = new_array(complex128, shape_t{static_cast<std::int64_t>(h.size())}, order::C, flat.device());
    c.copy_from_host(h);
    n = (is_complex(w.type()) ? c : real(c)).astype(w.type(), order::C, false);
  } else {
    n = w.defined() ? weighted_bins(flat, flat.size(), layout, p.values, w, p.device_values)
                    : bin_samples(flat, flat.size(), layout, p.values, array(), p.device_values);
  }
  if (density) n = histogram_density(n, widths_of(p.values, p.edges.type()));
  return {n, p.edges};
}

std::pair<array, std::vector<array>> histogramdd(const array& sample_in_peer,
                                                 const std::vector<histogram_bins>& bins_in,
                                                 const std::vector<histogram_range>& range_in, bool density,
                                                 const array& weights) {
  const array sample_in = detail::on_current_device(sample_in_peer);  // Note [peer operands]
  if (sample_in.ndim() > 2) throw value_error("too many values to unpack (expected 2)");
  array sample = sample_in.ndim() == 2 ? sample_in : sample_in.reshape(shape_t{-1, 1});
  if (is_complex(sample.type())) throw type_error("histogramdd: complex input is not supported");
  std::int64_t n = sample.shape()[0];
  int d = static_cast<int>(sample.shape()[1]);
  if (d > 64) throw value_error("histogramdd: at most 64 dimensions are supported");
  std::vector<histogram_bins> bins = bins_in.size() == 1 ? std::vector<histogram_bins>(d, bins_in[0]) : bins_in;
  if (static_cast<int>(bins.size()) != d) {
    throw value_error("The dimension of bins must be equal to the dimension of the sample x.");
  }
  std::vector<histogram_range> range = range_in.empty() ? std::vector<histogram_range>(d) : range_in;
  if (static_cast<int>(range.size()) != d) throw value_error("range argument must have one entry per dimension");
  if (weights.defined()) {
    if (weights.ndim() != 1 || weights.size() != n) {
      throw value_error("The weights and list don't have the same length.");
    }
    if (!can_cast_safely(weights.type(), float64)) {
      throw type_error("Cannot cast array data from " + dtype_repr(weights.type()) +
                       " to dtype('float64') according to the rule 'safe'");
    }
  }
  array s = sample.astype(float64, order::C, false);
  detail::histogram_layout layout;
  layout.ndim = d;
  layout.edge_offsets[0] = 0;
  std::vector<array> edges;
  std::vector<double> all;
  std::vector<std::vector<double>> widths;
  shape_t core;
  for (int i = 0; i < d; ++i) {
    const histogram_bins& b = bins[static_cast<std::size_t>(i)];
    std::string which = "`bins[" + std::to_string(i) + "]`";
    std::vector<double> e;
    dtype edge_type = float64;
    if (!b.rule.empty()) throw type_error("'<' not supported between instances of 'str' and 'int'");
    if (b.edges.defined() && b.edges.ndim() == 1) {
      e = host_doubles(b.edges);
      check_monotonic(e, which + " must be monotonically increasing, when an array");
      edges.push_back(b.edges);
      edge_type = b.edges.type();
    } else if (b.edges.defined() && b.edges.ndim() > 1) {
      throw value_error(which + " must be a scalar or 1d array");
    } else {
      std::int64_t count = b.edges.defined() ? static_cast<std::int64_t>(host_doubles(b.edges)[0]) : b.count;
      if (count < 1) throw value_error(which + " must be positive, when an integer");
      array column = slice_axis(s, 1, i, i + 1).astype(float64, order::C, false).reshape_view(shape_t{n});
      outer_range outer = outer_edges(column, sample.type(), range[static_cast<std::size_t>(i)]);
      // np.linspace(smin, smax, n + 1): edges of the type it computes in (Note [histogram edges]).
      e = detail::numpy_linspace(outer.first, outer.last, count + 1, outer.math);
      edge_type = outer.math;
      edges.push_back(edges_array(e, edge_type, s.device()));
    }
    all.insert(all.end(), e.begin(), e.end());
    layout.edge_offsets[i + 1] = static_cast<std::int64_t>(all.size());
    core.push_back(std::max<std::int64_t>(static_cast<std::int64_t>(e.size()) - 1, 0));
    widths.push_back(widths_of(e, edge_type));
  }
  std::int64_t stride = 1;
  for (int i = d - 1; i >= 0; --i) {
    layout.strides[i] = stride;
    stride *= core[i];
  }
  layout.total = stride;
  array hist = bin_samples(s, n, layout, all, weights).astype(float64, order::C, false).reshape_view(core);
  if (density) hist = histogramdd_density(hist, widths, core);
  return {hist, edges};
}

std::pair<array, std::vector<array>> histogramdd(const std::vector<array>& columns,
                                                 const std::vector<histogram_bins>& bins,
                                                 const std::vector<histogram_range>& range, bool density,
                                                 const array& weights) {
  if (columns.empty()) throw value_error("histogramdd: the sample has no dimensions");
  std::int64_t n = columns[0].size();
  dtype t = columns[0].type();
  for (const array& c : columns) {
    if (c.ndim() != 1 || c.size() != n) {
      throw value_error("setting an array element with a sequence. The requested array has an inhomogeneous shape");
    }
    t = promote_types(t, c.type());
  }
  std::int64_t d = static_cast<std::int64_t>(columns.size());
  array s = new_array(t, shape_t{n, d}, order::C, columns[0].device());
  for (std::int64_t j = 0; j < d; ++j) {
    slice_axis(s, 1, j, j + 1).reshape(shape_t{n}).assign(columns[static_cast<std::size_t>(j)]);
  }
  return histogramdd(s, bins, range, density, weights);
}

std::tuple<array, array, array> histogram2d(const array& x_peer, const array& y_peer,
                                            const std::vector<histogram_bins>& bins,
                                            const std::vector<histogram_range>& range, bool density,
                                            const array& weights) {
  const array x = detail::on_current_device(x_peer);  // Note [peer operands]
  const array y = detail::on_current_device(y_peer);  // Note [peer operands]
  std::int64_t lx = x.ndim() ? x.shape()[0] : 0, ly = y.ndim() ? y.shape()[0] : 0;
  if (x.ndim() == 0 || y.ndim() == 0) throw type_error("len() of unsized object");
  if (lx != ly) throw value_error("x and y must have the same length.");
  auto [hist, edges] = histogramdd(std::vector<array>{x, y}, bins, range, density, weights);
  return {hist, edges[0], edges[1]};
}

}  // namespace cuarray
