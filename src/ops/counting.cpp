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
#include "src/core/half.hpp"
#include "src/kernels/count_kernels.hpp"
#include "src/ops/scan_detail.hpp"

namespace cuarray {

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
    bool same = t == float16 ? detail::double_to_half(back) == detail::double_to_half(v)
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
  if (!v.empty()) a.astype(float64, order::C, false).copy_to_host(v.data());
  return v;
}

array device_doubles(const std::vector<double>& v, int device) {
  array a = new_array(float64, shape_t{static_cast<std::int64_t>(v.size())}, order::C, device);
  if (!v.empty()) a.copy_from_host(v.data());
  return a;
}

// min and max of a contiguous float64 array (NaN if any is NaN); one synchronisation.
std::pair<double, double> min_max(const array& a) {
  array out = new_array(float64, shape_t{2}, order::C, a.device());
  cudaStream_t s = detail::enter_device(a.device());
  detail::pool_scratch scratch(a.device());
  detail::launch_minmax_f64(static_cast<const double*>(a.data()), a.size(), static_cast<double*>(out.data()), scratch,
                            s);
  double v[2];
  out.copy_to_host(v);
  return {v[0], v[1]};
}

// NumPy's _get_outer_edges over `a` (contiguous float64 values of dtype `t`).
std::pair<double, double> outer_edges(const array& a, dtype t, const histogram_range& range) {
  double first, last;
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
  }
  if (first == last) first -= 0.5, last += 0.5;
  return {first, last};
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
};

void check_monotonic(const std::vector<double>& e, const std::string& msg) {
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    if (e[i] > e[i + 1]) throw value_error(msg);
  }
}

// NumPy's _get_bin_edges; `a` is the flattened data as contiguous float64, `t` its dtype.
edges_plan bin_edges(const array& a, dtype t, const histogram_bins& bins, const histogram_range& range,
                     bool weighted) {
  if (bins.edges.defined() && bins.edges.ndim() > 0) {
    if (bins.edges.ndim() != 1) throw value_error("`bins` must be 1d, when an array");
    edges_plan p{bins.edges, host_doubles(bins.edges)};
    check_monotonic(p.values, "`bins` must increase monotonically, when an array");
    return p;
  }
  std::int64_t n = bins.count;
  std::pair<double, double> outer;
  if (!bins.rule.empty()) {
    if (!known_rule(bins.rule)) throw value_error("'" + bins.rule + "' is not a valid estimator for `bins`");
    if (weighted) throw type_error("Automated estimation of the number of bins is not supported for weighted data");
    outer = outer_edges(a, t, range);
    std::vector<double> x = host_doubles(a);
    if (range) {
      std::erase_if(x, [&](double v) { return !(v >= outer.first && v <= outer.second); });
    }
    n = 1;
    if (!x.empty()) {
      const std::string& r = bins.rule;
      double width = r == "stone" ? bin_stone(x, outer) : r == "auto" ? bin_auto(x) : r == "doane" ? bin_doane(x)
                   : r == "fd" ? bin_fd(x) : r == "rice" ? bin_rice(x) : r == "scott" ? bin_scott(x)
                   : r == "sqrt" ? bin_sqrt(x) : bin_sturges(x);
      if (width != 0) {
        if (is_integer(t) && width < 1) width = 1;
        double bins_f = std::ceil((outer.second - outer.first) / width);
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
  array e = linspace(outer.first, outer.second, n + 1, true, bin_type);
  edges_plan p{e, host_doubles(e)};
  for (std::size_t i = 0; i + 1 < p.values.size(); ++i) {
    if (!(p.values[i] < p.values[i + 1])) {
      throw value_error("Too many bins for data range. Cannot create " + std::to_string(n) + " finite-sized bins.");
    }
  }
  return p;
}

// Counts (uint64 bits in an int64 array) or double sums of `w` over the bins of `layout`.
array bin_samples(const array& sample, std::int64_t n, const detail::histogram_layout& layout,
                  const std::vector<double>& edges, const array& w) {
  int device = sample.device();
  array out = zeros(shape_t{layout.total}, w.defined() ? float64 : int64);
  if (n == 0 || layout.total == 0) return out;
  array e = device_doubles(edges, device);
  array wd = w.defined() ? w.astype(float64, order::C, false) : array();
  cudaStream_t s = detail::enter_device(device);
  detail::launch_histogram(static_cast<const double*>(sample.data()), n, layout, static_cast<const double*>(e.data()),
                           wd.defined() ? static_cast<const double*>(wd.data()) : nullptr, out.data(), s);
  return out;
}

// Weighted bins in the weights' dtype (complex: real and imaginary parts binned apart, as NumPy does).
array weighted_bins(const array& sample, std::int64_t n, const detail::histogram_layout& layout,
                    const std::vector<double>& edges, const array& w) {
  if (!is_complex(w.type())) return bin_samples(sample, n, layout, edges, w).astype(w.type(), order::C, false);
  array re = bin_samples(sample, n, layout, edges, real(w));
  array im = bin_samples(sample, n, layout, edges, imag(w));
  array c = new_array(complex128, re.shape(), order::C, re.device());
  real(c).assign(re);
  imag(c).assign(im);
  return c.astype(w.type(), order::C, false);
}

// hist / prod(bin widths) / hist.sum(), computed on the host (histograms are small).
array density_of(const array& hist, const std::vector<std::vector<double>>& widths, const shape_t& shape) {
  bool cplx = is_complex(hist.type());
  std::size_t total = static_cast<std::size_t>(hist.size());
  std::vector<std::complex<double>> v(total);
  array h = hist.astype(complex128, order::C, false);
  if (total) h.copy_to_host(v.data());
  std::complex<double> s = 0;
  for (auto x : v) s += x;
  for (std::size_t i = 0; i < total; ++i) {
    std::size_t rest = i;
    for (int d = shape.size() - 1; d >= 0; --d) {
      std::size_t ext = static_cast<std::size_t>(shape[d]);
      v[i] /= widths[static_cast<std::size_t>(d)][rest % ext];
      rest /= ext;
    }
    v[i] /= s;
  }
  array out = new_array(complex128, shape, order::C, hist.device());
  if (total) out.copy_from_host(v.data());
  return cplx ? out : real(out).astype(float64, order::C, true);
}

std::vector<double> diffs(const std::vector<double>& e) {
  std::vector<double> d;
  for (std::size_t i = 0; i + 1 < e.size(); ++i) d.push_back(e[i + 1] - e[i]);
  return d;
}

}  // namespace

array bincount(const array& x, const array& weights, std::int64_t minlength) {
  if (x.ndim() == 0) throw value_error("object of too small depth for desired array");
  if (x.ndim() > 1) throw value_error("object too deep for desired array");
  if (!can_cast_safely(x.type(), int64)) {
    throw type_error("Cannot cast array data from " + dtype_repr(x.type()) + " to dtype('int64') according to the "
                     "rule 'safe'");
  }
  if (minlength < 0) throw value_error("'minlength' must not be negative");
  if (weights.defined()) {
    if (weights.ndim() == 0) throw value_error("object of too small depth for desired array");
    if (weights.ndim() > 1) throw value_error("object too deep for desired array");
    if (!can_cast_safely(weights.type(), float64)) {
      throw type_error("Cannot cast array data from " + dtype_repr(weights.type()) +
                       " to dtype('float64') according to the rule 'safe'");
    }
    if (weights.size() != x.size()) throw value_error("The weights and list don't have the same length.");
  }
  int device = x.device();
  dtype rt = weights.defined() ? float64 : int64;
  if (x.size() == 0) return zeros(shape_t{minlength}, rt);
  array xi = x.astype(int64, order::C, false);
  array mm = new_array(int64, shape_t{2}, order::C, device);
  cudaStream_t s = detail::enter_device(device);
  {
    detail::pool_scratch scratch(device);
    detail::launch_minmax_i64(static_cast<const std::int64_t*>(xi.data()), xi.size(),
                              static_cast<std::int64_t*>(mm.data()), scratch, s);
  }
  std::int64_t lohi[2];
  mm.copy_to_host(lohi);
  if (lohi[0] < 0) throw value_error("'list' argument must have no negative elements");
  std::int64_t nbins = std::max(lohi[1] + 1, minlength);
  array out = zeros(shape_t{nbins}, rt);
  array wd = weights.defined() ? weights.astype(float64, order::C, false) : array();
  s = detail::enter_device(device);
  detail::launch_bincount(static_cast<const std::int64_t*>(xi.data()), xi.size(),
                          wd.defined() ? static_cast<const double*>(wd.data()) : nullptr, out.data(), nbins, s);
  return out;
}

array histogram_bin_edges(const array& a_in, const histogram_bins& bins, const histogram_range& range,
                          const array& weights) {
  array a = a_in.type() == bool_ ? a_in.astype(uint8) : a_in;
  if (is_complex(a.type())) throw type_error("histogram: complex input is not supported");
  if (weights.defined() && weights.shape() != a.shape()) throw value_error("weights should have the same shape as a.");
  array flat = a.reshape(shape_t{-1}).astype(float64, order::C, false);
  return bin_edges(flat, a.type(), bins, range, weights.defined()).edges;
}

std::pair<array, array> histogram(const array& a_in, const histogram_bins& bins, const histogram_range& range,
                                  bool density, const array& weights) {
  array a = a_in.type() == bool_ ? a_in.astype(uint8) : a_in;
  if (is_complex(a.type())) throw type_error("histogram: complex input is not supported");
  if (weights.defined() && weights.shape() != a.shape()) throw value_error("weights should have the same shape as a.");
  array flat = a.reshape(shape_t{-1}).astype(float64, order::C, false);
  edges_plan p = bin_edges(flat, a.type(), bins, range, weights.defined());
  detail::histogram_layout layout;
  std::int64_t m = static_cast<std::int64_t>(p.values.size());
  layout.ndim = 1;
  layout.edge_offsets[0] = 0;
  layout.edge_offsets[1] = m;
  layout.strides[0] = 1;
  layout.total = std::max<std::int64_t>(m - 1, 0);
  array w = weights.defined() ? weights.reshape(shape_t{-1}) : array();
  array n = w.defined() ? weighted_bins(flat, flat.size(), layout, p.values, w)
                        : bin_samples(flat, flat.size(), layout, p.values, array());
  if (density) n = density_of(n, {diffs(p.values)}, n.shape());
  return {n, p.edges};
}

std::pair<array, std::vector<array>> histogramdd(const array& sample_in, const std::vector<histogram_bins>& bins_in,
                                                 const std::vector<histogram_range>& range_in, bool density,
                                                 const array& weights) {
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
    if (!b.rule.empty()) throw type_error("'<' not supported between instances of 'str' and 'int'");
    if (b.edges.defined() && b.edges.ndim() == 1) {
      e = host_doubles(b.edges);
      check_monotonic(e, which + " must be monotonically increasing, when an array");
      edges.push_back(b.edges);
    } else if (b.edges.defined() && b.edges.ndim() > 1) {
      throw value_error(which + " must be a scalar or 1d array");
    } else {
      std::int64_t count = b.edges.defined() ? static_cast<std::int64_t>(host_doubles(b.edges)[0]) : b.count;
      if (count < 1) throw value_error(which + " must be positive, when an integer");
      array column = slice_axis(s, 1, i, i + 1).astype(float64, order::C, false).reshape_view(shape_t{n});
      auto [lo, hi] = outer_edges(column, sample.type(), range[static_cast<std::size_t>(i)]);
      array ed = linspace(lo, hi, count + 1, true, float64);
      e = host_doubles(ed);
      edges.push_back(ed);
    }
    all.insert(all.end(), e.begin(), e.end());
    layout.edge_offsets[i + 1] = static_cast<std::int64_t>(all.size());
    core.push_back(std::max<std::int64_t>(static_cast<std::int64_t>(e.size()) - 1, 0));
    widths.push_back(diffs(e));
  }
  std::int64_t stride = 1;
  for (int i = d - 1; i >= 0; --i) {
    layout.strides[i] = stride;
    stride *= core[i];
  }
  layout.total = stride;
  array hist = bin_samples(s, n, layout, all, weights).astype(float64, order::C, false).reshape_view(core);
  if (density) hist = density_of(hist, widths, core);
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

std::tuple<array, array, array> histogram2d(const array& x, const array& y, const std::vector<histogram_bins>& bins,
                                            const std::vector<histogram_range>& range, bool density,
                                            const array& weights) {
  std::int64_t lx = x.ndim() ? x.shape()[0] : 0, ly = y.ndim() ? y.shape()[0] : 0;
  if (x.ndim() == 0 || y.ndim() == 0) throw type_error("len() of unsized object");
  if (lx != ly) throw value_error("x and y must have the same length.");
  auto [hist, edges] = histogramdd(std::vector<array>{x, y}, bins, range, density, weights);
  return {hist, edges[0], edges[1]};
}

}  // namespace cuarray
