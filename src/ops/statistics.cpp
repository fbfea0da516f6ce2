// Order statistics (median, quantiles) on sorted rows, and composite statistics on reductions and small kernels.
#include "cuarray/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/scan.hpp"
#include "cuarray/sorting.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"

namespace cuarray {

namespace {

// Note [order statistics]: the reduced axes are moved last and merged (a (rows, n) C-contiguous copy, as
// NumPy's _ureduce does), each row is sorted (NaN last), and one generated kernel reads the order statistics
// it needs per output element: the middle values (median), or the index arithmetic of NumPy's _quantile
// replayed step by step in q's dtype with the final interpolation in the result dtype. The nan- forms count a
// row's non-NaN values by binary search in the sorted row (they are a prefix), so no reduction is needed.
const char* const k_preamble =
#include "src/ops/statistics_kernels.inc"
    ;

ew::kernel_spec make_spec(const char* name, const char* body) {
  ew::kernel_spec s;
  s.name = name;
  s.body = body;
  s.preamble = k_preamble;
  s.c_order_index = true;  // bodies index raw rows by `i`
  s.id = ew::intern(s);
  return s;
}

// raw0: sorted rows (n = in1); flags in2.
const ew::kernel_spec& median_spec() {
  static const ew::kernel_spec s =
      make_spec("median", "out0 = ca_st_median<decltype(out0)>(raw0 + (long long)i * in1, in1, (int)in2);");
  return s;
}
// raw0: sorted rows (n = in2, rows = in3), raw1: q values; method in4, flags in5. Output (nq, rows).
const ew::kernel_spec& quantile_spec() {
  static const ew::kernel_spec s = make_spec(
      "quantile",
      "out0 = ca_st_quantile<decltype(out0)>(raw0 + ((long long)i % in3) * in2, in2, raw1[(long long)i / in3], "
      "(int)in4, (int)in5);");
  return s;
}
// raw0: rows, raw1: their argsort, raw2: weights (float64), raw3: q values; n = in4, rows = in5, flags in6;
// raw7 (uint8 per row) receives the weight errors.
const ew::kernel_spec& weighted_spec() {
  static const ew::kernel_spec s = make_spec(
      "weighted_quantile",
      "long long r = (long long)i % in5; out0 = ca_st_weighted<decltype(out0)>(raw0 + r * in4, raw1 + r * in4, "
      "raw2 + r * in4, in4, raw3[(long long)i / in5], (int)in6, raw8 + r);");
  return s;
}
// raw0: centred data (p rows of nobs = in2), raw1: weights; p = in3, weighted in4, scale in5.
const ew::kernel_spec& cov_spec() {
  static const ew::kernel_spec s = make_spec(
      "cov",
      "long long r = (long long)i / in3, c = (long long)i % in3; out0 = ca_st_cov<decltype(out0)>(raw0 + r * in2, "
      "raw0 + c * in2, raw1, in2, in4 != 0, in5);");
  return s;
}
// raw0: the long input (n = in2), raw1: the short one (m = in3); n_left in4, length in5, flags in6.
const ew::kernel_spec& correlate_spec() {
  static const ew::kernel_spec s = make_spec(
      "correlate", "out0 = ca_st_correlate<decltype(out0)>(raw0, in2, raw1, in3, in4, in5, (int)in6, (long long)i);");
  return s;
}

constexpr int k_nanskip = 1, k_weak = 2, k_inexact = 4;

ew::operand i64(std::int64_t v) { return ew::operand::of_scalar(scalar::from_int(v), int64); }
ew::operand f64(double v) { return ew::operand::of_scalar(scalar::from_double(v), float64); }
ew::operand raw(const array& a) { return ew::operand::of_raw(a, a.type()); }

ufunc_arg arg_of(const array& a) { return ufunc_arg(a, scalar{}, false); }
ufunc_arg weak_int(std::int64_t v) { return ufunc_arg(array(), scalar::from_int(v), true); }
ufunc_arg weak_float(double v) { return ufunc_arg(array(), scalar::from_double(v), true); }

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

array c_contiguous(const array& a) { return a.is_c_contiguous() ? a : a.copy(order::C); }

// Copy a (small) array to the host as float64 values.
std::vector<double> host_doubles(const array& a) {
  std::vector<double> v(static_cast<std::size_t>(a.size()));
  if (a.size() == 0) return v;
  array d = a.type() == float64 ? a : a.astype(float64);
  d.copy_to_host(v, order::C);
  return v;
}

// Normalised, distinct axes of a reduction (all when absent), as NumPy's normalize_axis_tuple.
std::vector<int> reduced_axes(const axis_list& axis, int ndim) {
  std::vector<int> axes;
  if (!axis) {
    for (int k = 0; k < ndim; ++k) axes.push_back(k);
    return axes;
  }
  return normalize_axis_tuple(*axis, ndim);
}

/// An array viewed as (rows, n): the kept axes first (their shape `kept`), the reduced ones merged last.
struct row_layout {
  array rows;         // (nrows, n), C-contiguous
  shape_t kept;       // result shape without keepdims
  shape_t kept_dims;  // result shape with keepdims
  std::int64_t nrows = 1, n = 1;
};

// The transpose that moves the reduced axes last, as NumPy's _ureduce (kept axes in order, then reduced ones).
std::vector<int> rows_permutation(const std::vector<int>& axes, int ndim) {
  std::vector<bool> red(static_cast<std::size_t>(ndim), false);
  for (int k : axes) red[static_cast<std::size_t>(k)] = true;
  std::vector<int> perm;
  for (int k = 0; k < ndim; ++k)
    if (!red[static_cast<std::size_t>(k)]) perm.push_back(k);
  for (int k = 0; k < ndim; ++k)
    if (red[static_cast<std::size_t>(k)]) perm.push_back(k);
  return perm;
}

row_layout to_rows(const array& a, const std::vector<int>& axes) {
  row_layout r;
  int nd = a.ndim();
  std::vector<bool> red(static_cast<std::size_t>(nd), false);
  for (int k : axes) red[static_cast<std::size_t>(k)] = true;
  r.n = 1;
  for (int k = 0; k < nd; ++k) {
    if (red[static_cast<std::size_t>(k)]) {
      r.n *= a.shape()[k];
      r.kept_dims.push_back(1);
    } else {
      r.kept.push_back(a.shape()[k]);
      r.kept_dims.push_back(a.shape()[k]);
    }
  }
  r.nrows = shape_size(r.kept);
  array t = nd > 0 ? a.transpose(rows_permutation(axes, nd)) : a;
  r.rows = c_contiguous(t.reshape(shape_t{r.nrows, r.n}));
  return r;
}

array sorted_rows(const array& rows) {
  if (rows.size() == 0) return rows;
  return c_contiguous(sort(rows, -1));
}

// The result shape with q's dimensions in front.
shape_t with_prefix(const shape_t& prefix, const shape_t& s) {
  shape_t r = prefix;
  for (auto e : s) r.push_back(e);
  return r;
}

// NumPy writes into `out` (which must have the result's shape) and returns it.
array finish(array result, const array& out) {
  if (!out.defined()) return result;
  if (out.shape() != result.shape()) {
    throw value_error("output array has the wrong shape: expected " + shape_to_string(result.shape()) + ", got " +
                      shape_to_string(out.shape()));
  }
  array o = out;
  o.assign(result);
  return o;
}

dtype median_type(dtype t) { return is_inexact(t) ? t : float64; }

scalar nan_of(dtype t) {
  if (is_complex(t)) return scalar::from_complex({std::nan(""), std::nan("")}, t);
  return scalar::from_double(std::nan(""), t);
}

array median_impl(const array& a_peer, const axis_list& axis, const array& out, bool keepdims, bool skip_nan) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  std::vector<int> axes = reduced_axes(axis, a.ndim());
  if (skip_nan && a.size() == 0) {
    reduce_options o;
    o.axis = axis;
    o.keepdims = keepdims;
    o.out = out;
    return nanmean(a, o);  // NumPy's nanmedian hands empty input to nanmean
  }
  row_layout L = to_rows(a, axes);
  dtype rt = median_type(a.type());
  array r = detail::new_array(rt, shape_t{L.nrows}, order::C, a.device());
  if (L.nrows > 0) {
    if (L.n == 0) {
      r.fill(nan_of(rt));  // the mean of an empty slice
    } else {
      array s = sorted_rows(L.rows);
      int flags = skip_nan ? k_nanskip : 0;
      ew::run(median_spec(), {raw(s), i64(L.n), i64(flags)}, {ew::operand::of(r, rt)}, shape_t{L.nrows});
    }
  }
  return finish(r.reshape_view(keepdims ? L.kept_dims : L.kept), out);
}

// NumPy's method table: the discrete methods take an element; integer q keeps int64 index arithmetic except
// where a method's constants are floats.
bool takes_element(quantile_method m) {
  return m == quantile_method::inverted_cdf || m == quantile_method::closest_observation ||
         m == quantile_method::lower || m == quantile_method::higher || m == quantile_method::nearest;
}
bool float_constants(quantile_method m) {
  return m == quantile_method::closest_observation || m == quantile_method::hazen ||
         m == quantile_method::median_unbiased || m == quantile_method::normal_unbiased ||
         m == quantile_method::midpoint;
}

// The weights of percentile/quantile/average checked as NumPy's _weights_are_valid, and shaped to broadcast
// against `a` (1 on the axes they do not cover).
array weights_for(const array& a, const array& w, const std::vector<int>& axes, bool axis_given) {
  if (a.shape() == w.shape()) return w;
  if (!axis_given) throw type_error("Axis must be specified when shapes of a and weights differ.");
  shape_t want;
  for (int k : axes) want.push_back(a.shape()[k]);
  if (w.shape() != want) {
    throw value_error("Shape of weights must be consistent with shape of a along specified axis.");
  }
  // w's dimensions follow `axes`; transpose them into increasing axis order, then insert unit dimensions.
  std::vector<int> idx(axes.size());
  for (std::size_t k = 0; k < idx.size(); ++k) idx[k] = static_cast<int>(k);
  std::sort(idx.begin(), idx.end(),
            [&](int x, int y) { return axes[static_cast<std::size_t>(x)] < axes[static_cast<std::size_t>(y)]; });
  array t = w.ndim() > 0 ? w.transpose(idx) : w;
  shape_t s;
  std::vector<bool> red(static_cast<std::size_t>(a.ndim()), false);
  for (int k : axes) red[static_cast<std::size_t>(k)] = true;
  for (int k = 0; k < a.ndim(); ++k) s.push_back(red[static_cast<std::size_t>(k)] ? a.shape()[k] : 1);
  return t.reshape(s);
}

bool any_true(const array& b) {
  array r = any(b);
  return r.host_value<bool>();
}

enum class q_scale { quantile, percentile };

array quantile_impl(const array& a_peer, const ufunc_arg& q_in, const quantile_options& o, q_scale scale,
                    bool skip_nan) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  if (is_complex(a.type())) throw type_error("a must be an array of real numbers");
  bool weak = q_in.weak;
  const char* range_msg = scale == q_scale::percentile ? "Percentiles must be in the range [0, 100]"
                                                       : "Quantiles must be in the range [0, 1]";
  // A scalar q is checked on the host, before any device work; an array q is divided and copied back.
  array q;
  std::vector<double> qh;
  if (q_in.is_scalar()) {
    if (is_complex(q_in.value.type)) throw type_error("q must be real, not " + std::string(name(q_in.value.type)));
    qh.push_back(q_in.value.to_double() / (scale == q_scale::percentile ? 100.0 : 1.0));
  } else {
    q = q_in.arr;
    if (is_complex(q.type())) throw type_error("q must be real, not " + std::string(name(q.type())));
    if (scale == q_scale::percentile) q = call_ufunc("true_divide", {arg_of(q), weak_int(100)}, {})[0];
    qh = host_doubles(q);
  }
  for (double v : qh) {
    if (!(v >= 0.0 && v <= 1.0)) throw value_error(range_msg);
  }
  if (o.weights.defined() && o.method != "inverted_cdf") {
    throw value_error("Only method 'inverted_cdf' supports weights. Got: " + o.method + ".");
  }
  std::vector<int> axes = reduced_axes(o.axis, a.ndim());
  array w;
  if (o.weights.defined()) {
    if (is_complex(o.weights.type())) throw type_error("weights must be real numbers");
    w = weights_for(a, o.weights, axes, o.axis.has_value());
  }
  quantile_method method = parse_quantile_method(o.method);
  if (!q.defined()) {
    q = full(shape_t{}, q_in.value, q_in.value.type);
    if (scale == q_scale::percentile) q = call_ufunc("true_divide", {arg_of(q), weak_int(100)}, {})[0];
  }
  if (skip_nan && a.size() == 0) {
    reduce_options ro;
    ro.axis = o.axis;
    ro.keepdims = o.keepdims;
    ro.out = o.out;
    return nanmean(a, ro);  // as NumPy's nan- forms, whatever q is
  }
  if (q.ndim() > 2) throw value_error("q must be a scalar or 1d");

  dtype A = a.type();
  auto [vt, rt] = detail::quantile_types(A, q.type(), weak, method, w.defined());

  row_layout L = to_rows(a, axes);
  std::int64_t nq = q.size();
  array r = detail::new_array(rt, shape_t{nq, L.nrows}, order::C, a.device());
  if (r.size() > 0) {
    if (L.n == 0) throw index_error("index -1 is out of bounds for axis 0 with size 0");
    array qk = c_contiguous(q.type() == vt ? q : q.astype(vt)).reshape_view(shape_t{nq});
    int flags = (skip_nan ? k_nanskip : 0) | (weak ? k_weak : 0) | (is_inexact(A) ? k_inexact : 0);
    if (!w.defined()) {
      array s = sorted_rows(L.rows);
      ew::run(quantile_spec(), {raw(s), raw(qk), i64(L.n), i64(L.nrows), i64(static_cast<int>(method)), i64(flags)},
              {ew::operand::of(r, rt)}, r.shape());
    } else {
      // Weights broadcast to a's shape, then laid out as a's rows.
      array wb = w.shape() == a.shape() ? w : w.broadcast_to(a.shape());
      row_layout WL = to_rows(wb, axes);
      array wr = c_contiguous(WL.rows.type() == float64 ? WL.rows : WL.rows.astype(float64, order::C));
      array order_ = c_contiguous(argsort(L.rows, -1));
      array bad = zeros(shape_t{L.nrows}, uint8);
      ew::run(weighted_spec(), {raw(L.rows), raw(order_), raw(wr), raw(qk), i64(L.n), i64(L.nrows), i64(flags)},
              {ew::operand::of(r, rt), ew::operand::of_raw(bad, uint8)}, r.shape());
      std::vector<unsigned char> flags_h(static_cast<std::size_t>(L.nrows));
      bad.copy_to_host(flags_h, order::C);
      unsigned char all = 0;
      for (unsigned char f : flags_h) all |= f;
      if (all & 1) throw value_error("Weights must be non-negative.");
      if (all & 2) throw value_error("Weights included NaN, inf or were all zero.");
    }
  }
  return finish(r.reshape_view(with_prefix(q.shape(), o.keepdims ? L.kept_dims : L.kept)), o.out);
}

}  // namespace

quantile_method parse_quantile_method(std::string_view name) {
  static const char* const names[] = {"inverted_cdf",
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
  for (int k = 0; k < 13; ++k) {
    if (name == names[k]) return static_cast<quantile_method>(k);
  }
  std::string keys;
  for (int k = 0; k < 13; ++k) keys += std::string(k ? ", '" : "'") + names[k] + "'";
  throw value_error("'" + std::string(name) + "' is not a valid method. Use one of: dict_keys([" + keys + "])");
}

array median(const array& a, const axis_list& axis, const array& out, bool, bool keepdims) {
  return median_impl(a, axis, out, keepdims, false);
}
array nanmedian(const array& a, const axis_list& axis, const array& out, bool, bool keepdims) {
  return median_impl(a, axis, out, keepdims, true);
}
array quantile(const array& a, const ufunc_arg& q, const quantile_options& o) {
  return quantile_impl(a, q, o, q_scale::quantile, false);
}
array percentile(const array& a, const ufunc_arg& q, const quantile_options& o) {
  return quantile_impl(a, q, o, q_scale::percentile, false);
}
array nanquantile(const array& a, const ufunc_arg& q, const quantile_options& o) {
  return quantile_impl(a, q, o, q_scale::quantile, true);
}
array nanpercentile(const array& a, const ufunc_arg& q, const quantile_options& o) {
  return quantile_impl(a, q, o, q_scale::percentile, true);
}

std::pair<array, array> average_returned(const array& a_peer, const axis_list& axis, const array& weights,
                                         bool keepdims) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  std::vector<int> axes = reduced_axes(axis, a.ndim());
  reduce_options ro;
  if (axis) ro.axis = std::vector<int>(axes.begin(), axes.end());
  ro.keepdims = keepdims;
  array avg, scl;
  if (!weights.defined()) {
    avg = mean(a, ro);
    // NumPy divides the sizes in Python, so an empty result raises ZeroDivisionError.
    if (avg.size() == 0) throw zero_division_error("division by zero");
    double ratio = static_cast<double>(a.size()) / static_cast<double>(avg.size());
    scl = full(avg.shape(), scalar::from_double(ratio).cast(avg.type()), avg.type());
  } else {
    array w = weights_for(a, weights, axes, axis.has_value());
    dtype rt = promote_types(a.type(), w.type());
    if (!is_inexact(a.type())) rt = promote_types(rt, float64);
    reduce_options so = ro;
    so.dtype_ = rt;
    scl = sum(w, so);
    if (any_true(call_ufunc("equal", {arg_of(scl), weak_float(0.0)}, {})[0])) {
      throw zero_division_error("Weights sum to zero, can't be normalized");
    }
    ufunc_options mo;
    mo.dtype_ = rt;
    array prod_ = call_ufunc("multiply", {arg_of(a), arg_of(w)}, mo)[0];
    avg = call_ufunc("true_divide", {arg_of(sum(prod_, ro)), arg_of(scl)}, {})[0];
  }
  if (scl.shape() != avg.shape()) scl = scl.broadcast_to(avg.shape()).copy(order::C);
  return {avg, scl};
}

array average(const array& a, const axis_list& axis, const array& weights, bool keepdims) {
  return average_returned(a, axis, weights, keepdims).first;
}

array trapezoid(const array& y_peer, const array& x, const ufunc_arg& dx, int axis) {
  const array y = detail::on_current_device(y_peer);  // Note [peer operands]
  int nd = y.ndim();
  ufunc_arg d = dx;
  // NumPy indexes Python lists with `axis`, so an axis out of range is an IndexError there.
  auto list_axis = [&](int n) {
    if (axis < -n || axis >= n) throw index_error("list assignment index out of range");
    return axis < 0 ? axis + n : axis;
  };
  if (x.defined()) {
    if (x.ndim() == 1) {
      array dd = diff(x);
      shape_t s(nd, 1);
      s[list_axis(nd)] = dd.shape()[0];
      d = arg_of(dd.reshape(s));
    } else {
      d = arg_of(diff(x, 1, axis));
    }
  }
  int ax = list_axis(nd);
  auto slice = [&](std::int64_t start, std::int64_t stop) {
    descriptor desc = y.desc();
    std::int64_t len = desc.shape[ax];
    start = std::min(start, len);
    stop = std::max(start, std::min(stop, len));
    desc.offset += start * desc.strides[ax];
    desc.shape[ax] = stop - start;
    return array(y.storage(), std::move(desc));
  };
  std::int64_t len = y.shape()[ax];
  array s = call_ufunc("add", {arg_of(slice(1, len)), arg_of(slice(0, len - 1))}, {})[0];
  array p = call_ufunc("multiply", {d, arg_of(s)}, {})[0];
  array h = call_ufunc("true_divide", {arg_of(p), weak_float(2.0)}, {})[0];
  reduce_options ro;
  ro.axis = std::vector<int>{axis};
  return sum(h, ro);
}

namespace {

// array(m, ndmin=2, dtype=t): 0-d and 1-D inputs become one row.
array as_rows(const array& m, dtype t) {
  array x = m.type() == t ? m : m.astype(t);
  if (x.ndim() == 0) return x.reshape(shape_t{1, 1});
  if (x.ndim() == 1) return x.reshape(shape_t{1, x.shape()[0]});
  return x;
}

// fweights/aweights: float64 on the host, checked as NumPy's cov checks them.
std::vector<double> cov_weights(const array& wts, std::int64_t nobs, const char* which, bool integer) {
  array w = wts.type() == float64 ? wts : wts.astype(float64);
  std::vector<double> h = host_doubles(w);
  std::string kind = which;
  if (integer) {
    for (double v : h) {
      if (!(v == std::nearbyint(v))) throw type_error("fweights must be integer");
    }
  }
  if (w.ndim() > 1) throw std::runtime_error("cannot handle multidimensional " + kind);
  if (w.ndim() == 0) throw index_error("tuple index out of range");
  if (w.shape()[0] != nobs) throw std::runtime_error("incompatible numbers of samples and " + kind);
  for (double v : h) {
    if (v < 0) throw value_error(kind + " cannot be negative");
  }
  return h;
}

}  // namespace

array cov(const array& m_peer, const array& y, bool rowvar, bool bias, std::optional<double> ddof_in,
          const array& fweights, const array& aweights, std::optional<dtype> dtype_) {
  const array m = detail::on_current_device(m_peer);  // Note [peer operands]
  if (ddof_in && *ddof_in != std::trunc(*ddof_in)) throw value_error("ddof must be integer");
  if (m.ndim() > 2) throw value_error("m has more than 2 dimensions");
  if (y.defined() && y.ndim() > 2) throw value_error("y has more than 2 dimensions");
  dtype t = dtype_ ? *dtype_ : promote_types(y.defined() ? promote_types(m.type(), y.type()) : m.type(), float64);
  array X = as_rows(m, t);
  if (!rowvar && m.ndim() != 1) X = X.transpose();
  if (X.shape()[0] == 0) return zeros(shape_t{0, 0}, float64);
  if (y.defined()) {
    array Y = as_rows(y, t);
    if (!rowvar && Y.shape()[0] != 1) Y = Y.transpose();
    if (Y.shape()[1] != X.shape()[1]) {
      throw value_error("all the input array dimensions except for the concatenation axis must match exactly, but "
                        "along dimension 1, the array at index 0 has size " +
                        std::to_string(X.shape()[1]) + " and the array at index 1 has size " +
                        std::to_string(Y.shape()[1]));
    }
    array Z = detail::new_array(t, shape_t{X.shape()[0] + Y.shape()[0], X.shape()[1]}, order::C, m.device());
    descriptor top = Z.desc(), bottom = Z.desc();
    top.shape[0] = X.shape()[0];
    bottom.shape[0] = Y.shape()[0];
    bottom.offset += X.shape()[0] * Z.strides()[0];
    array(Z.storage(), top).assign(X);
    array(Z.storage(), bottom).assign(Y);
    X = Z;
  }
  if (!is_inexact(t)) {
    throw type_error("Cannot cast ufunc 'subtract' output from dtype('float64') to " + dtype_repr(t) +
                     " with casting rule 'same_kind'");
  }
  double ddof = ddof_in ? *ddof_in : (bias ? 0.0 : 1.0);
  std::int64_t p = X.shape()[0], nobs = X.shape()[1];
  std::vector<double> w, aw;
  bool weighted = fweights.defined() || aweights.defined();
  if (fweights.defined()) w = cov_weights(fweights, nobs, "fweights", true);
  if (aweights.defined()) {
    aw = cov_weights(aweights, nobs, "aweights", false);
    if (w.empty() && !fweights.defined()) w = aw;
    else
      for (std::size_t k = 0; k < w.size(); ++k) w[k] *= aw[k];
  }
  // The averages and NumPy's normalisation (average(X, axis=1, weights=w, returned=True) and fact).
  array avg;
  double fact;
  dtype rt = weighted ? promote_types(t, float64) : t;
  array wdev;
  if (!weighted) {
    reduce_options ro;
    ro.axis = std::vector<int>{1};
    avg = mean(X, ro);
    fact = static_cast<double>(nobs) - ddof;
  } else {
    double w_sum = 0;
    for (double v : w) w_sum += v;
    if (w_sum == 0.0) throw zero_division_error("Weights sum to zero, can't be normalized");
    wdev = from_host(w.data(), float64, shape_t{nobs});
    ufunc_options mo;
    mo.dtype_ = rt;
    reduce_options ro;
    ro.axis = std::vector<int>{1};
    array s = sum(call_ufunc("multiply", {arg_of(X), arg_of(wdev)}, mo)[0], ro);
    avg = call_ufunc("true_divide", {arg_of(s), ufunc_arg(scalar::from_double(w_sum).cast(rt))}, {})[0];
    if (ddof == 0) {
      fact = w_sum;
    } else if (!aweights.defined()) {
      fact = w_sum - ddof;
    } else {
      double swa = 0;
      for (std::size_t k = 0; k < w.size(); ++k) swa += w[k] * aw[k];
      fact = w_sum - ddof * swa / w_sum;
    }
  }
  if (fact <= 0) fact = 0.0;  // NumPy warns "Degrees of freedom <= 0 for slice"
  // X -= avg[:, None] in X's dtype, then X X^H in rt.
  array Xc = detail::new_array(t, X.shape(), order::C, m.device());
  ufunc_options so;
  so.out.push_back(Xc);
  call_ufunc("subtract", {arg_of(X), arg_of(avg.reshape(shape_t{p, 1}))}, so);
  if (rt != t) Xc = Xc.astype(rt, order::C);
  if (!wdev.defined()) wdev = zeros(shape_t{1}, float64);
  array c = detail::new_array(rt, shape_t{p, p}, order::C, m.device());
  double scale = 1.0 / fact;
  ew::run(cov_spec(), {raw(Xc), raw(wdev), i64(nobs), i64(p), i64(weighted ? 1 : 0), f64(scale)},
          {ew::operand::of(c, rt)}, c.shape());
  if (p == 1) return c.reshape_view(shape_t{});
  return c;
}

array corrcoef(const array& x_peer, const array& y, bool rowvar, std::optional<dtype> dtype_) {
  const array x = detail::on_current_device(x_peer);  // Note [peer operands]
  array c = cov(x, y, rowvar, false, std::nullopt, array(), array(), dtype_);
  if (c.ndim() == 0) return call_ufunc("true_divide", {arg_of(c), arg_of(c)}, {})[0];
  std::int64_t p = c.shape()[0];
  array d = c.diagonal_view(0).copy(order::C);
  array sd = call_ufunc("sqrt", {arg_of(real(d))}, {})[0];
  ufunc_options io;
  io.out.push_back(c);
  call_ufunc("true_divide", {arg_of(c), arg_of(sd.reshape(shape_t{p, 1}))}, io);
  call_ufunc("true_divide", {arg_of(c), arg_of(sd.reshape(shape_t{1, p}))}, io);
  clip(real(c), weak_int(-1), weak_int(1), real(c));
  if (is_complex(c.type())) clip(imag(c), weak_int(-1), weak_int(1), imag(c));
  return c;
}

namespace {

int parse_mode(std::string_view mode) {
  if (mode == "valid") return 0;
  if (mode == "same") return 1;
  if (mode == "full") return 2;
  throw value_error("mode must be one of 'valid', 'same', or 'full' (got '" + std::string(mode) + "')");
}

// NumPy's _pyarray_correlate: the longer input slides over the shorter one; `conj_second` conjugates the
// second argument (correlate), `reverse_second` reads it backwards (convolve).
array correlate_impl(const array& a_peer, const array& v_peer, int mode, bool conj_second, bool reverse_second) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  const array v = detail::on_current_device(v_peer);  // Note [peer operands]
  dtype rt = promote_types(a.type(), v.type());
  std::int64_t n1 = a.shape()[0], n2 = v.shape()[0];
  if (n1 == 0) throw value_error("first array argument cannot be empty");
  if (n2 == 0) throw value_error("second array argument cannot be empty");
  bool inverted = n1 < n2;
  array L = c_contiguous(a.type() == rt ? a : a.astype(rt, order::C));
  array S = c_contiguous(v.type() == rt ? v : v.astype(rt, order::C));
  int flags = 0;
  bool cj = conj_second && is_complex(rt);
  if (inverted) {
    std::swap(L, S);
    std::swap(n1, n2);
    flags |= 4 | (cj ? 1 : 0);
  } else {
    flags |= cj ? 2 : 0;
  }
  if (reverse_second) flags |= 8;
  std::int64_t n_left = 0, len = n1;
  if (mode == 0) len = n1 - n2 + 1;
  else if (mode == 1) n_left = n2 / 2;
  else {
    n_left = n2 - 1;
    len = n1 + n2 - 1;
  }
  array r = detail::new_array(rt, shape_t{len}, order::C, a.device());
  ew::run(correlate_spec(), {raw(L), raw(S), i64(n1), i64(n2), i64(n_left), i64(len), i64(flags)},
          {ew::operand::of(r, rt)}, r.shape());
  return r;
}

void check_1d(const array& x) {
  if (x.ndim() > 1) throw value_error("object too deep for desired array");
}

}  // namespace

array correlate(const array& a, const array& v, std::string_view mode) {
  int md = parse_mode(mode);
  for (const array* x : {&a, &v}) {
    if (x->ndim() == 0) throw value_error("object of too small depth for desired array");
    check_1d(*x);
  }
  return correlate_impl(a, v, md, true, false);
}

array convolve(const array& a_in, const array& v_in, std::string_view mode) {
  array a = a_in.ndim() == 0 ? a_in.reshape(shape_t{1}) : a_in;
  array v = v_in.ndim() == 0 ? v_in.reshape(shape_t{1}) : v_in;
  if (v.ndim() == 1 && a.ndim() == 1 && v.shape()[0] > a.shape()[0]) std::swap(a, v);
  if (a.ndim() == 1 && a.shape()[0] == 0) throw value_error("a cannot be empty");
  if (v.ndim() == 1 && v.shape()[0] == 0) throw value_error("v cannot be empty");
  int md = parse_mode(mode);
  check_1d(a);
  check_1d(v);
  return correlate_impl(a, v, md, false, true);
}

namespace detail {

std::pair<dtype, dtype> quantile_types(dtype a, dtype q, bool weak, quantile_method method, bool weighted) {
  // q's type in the index arithmetic (NumPy's virtual index dtype): integer q stays int64 unless the
  // method's constants are floats.
  dtype vt = q;
  if (is_integer(vt) || is_bool(vt)) vt = float_constants(method) ? float64 : int64;
  bool takes = weighted || takes_element(method) || (method == quantile_method::linear && vt == int64);
  if (!takes && is_bool(a)) {
    throw type_error("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                     "operator, or the logical_xor function instead.");
  }
  // Taken elements keep a's dtype; NumPy's _lerp promotes a with gamma (a weak Python float when q was one).
  if (takes) return {vt, a};
  if (weak) return {vt, is_inexact(a) ? a : float64};
  return {vt, promote_types(a, vt)};
}

std::vector<statistics_kernel> statistics_kernels() {
  std::vector<statistics_kernel> k;
  for (const ew::kernel_spec* s :
       {&median_spec(), &quantile_spec(), &weighted_spec(), &cov_spec(), &correlate_spec()}) {
    k.push_back(statistics_kernel{std::string(s->name), std::string(s->body), std::string(s->preamble)});
  }
  return k;
}

}  // namespace detail

}  // namespace cuarray
