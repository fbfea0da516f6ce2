// NumPy's pad: every mode of numpy.lib._arraypad_impl, axis by axis, as slice copies and fills on the device.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/sorting.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/manip_kernels.hpp"
#include "src/ops/manipulation_internal.hpp"

namespace cuarray {

using detail::slice_axis;
using detail::with_layout;

pad_mode parse_pad_mode(std::string_view s) {
  static const std::pair<const char*, pad_mode> modes[] = {
      {"constant", pad_mode::constant}, {"edge", pad_mode::edge},       {"linear_ramp", pad_mode::linear_ramp},
      {"maximum", pad_mode::maximum},   {"mean", pad_mode::mean},       {"median", pad_mode::median},
      {"minimum", pad_mode::minimum},   {"reflect", pad_mode::reflect}, {"symmetric", pad_mode::symmetric},
      {"wrap", pad_mode::wrap},         {"empty", pad_mode::empty}};
  for (auto& [n, m] : modes) {
    if (s == n) return m;
  }
  throw value_error("mode '" + std::string(s) + "' is not supported");
}

namespace {

using pair64 = std::pair<std::int64_t, std::int64_t>;

// Reverse along one axis (a view).
array reversed(const array& a, int axis) { return flip(a, std::vector<int>{axis}); }

// Fold `x` along `axis` to length 1 by pairwise application of a binary ufunc (NumPy's pairwise order for
// sums); NaN propagates through maximum and minimum as in amax / amin.
array fold_axis(array x, int axis, const char* op) {
  std::int64_t n = x.shape()[axis];
  while (n > 1) {
    std::int64_t h = n / 2;
    array r = call_ufunc(op, std::vector<array>{slice_axis(x, axis, 0, h), slice_axis(x, axis, h, 2 * h)})[0];
    if (n % 2) {
      array first = slice_axis(r, axis, 0, 1);
      first.assign(call_ufunc(op, std::vector<array>{first, slice_axis(x, axis, 2 * h, n)})[0]);
    }
    x = r;
    n = h;
  }
  return x;
}

// The dtype NumPy's mean computes and returns: float64 for bool and integers, the input's otherwise
// (float16 accumulates in float32).
dtype mean_dtype(dtype t) { return is_inexact(t) ? t : float64; }

array chunk_mean(const array& chunk, int axis) {
  dtype rt = mean_dtype(chunk.type());
  dtype acc = rt == float16 ? float32 : rt;
  std::int64_t n = chunk.shape()[axis];
  shape_t s = chunk.shape();
  s[axis] = 1;
  if (n == 0) return full(s, std::numeric_limits<double>::quiet_NaN(), rt);
  array sum = fold_axis(chunk.astype(acc, order::K), axis, "add");
  array m = divide(sum, static_cast<double>(n));
  return m.type() == rt ? m : m.astype(rt);
}

array chunk_median(const array& chunk, int axis) {
  std::int64_t n = chunk.shape()[axis];
  shape_t s = chunk.shape();
  s[axis] = 1;
  if (n == 0) return full(s, std::numeric_limits<double>::quiet_NaN(), mean_dtype(chunk.type()));
  array sorted = sort(chunk, axis);
  array mid = slice_axis(sorted, axis, (n - 1) / 2, n / 2 + 1);  // one or two middle values
  array med = chunk_mean(mid, axis);
  if (is_inexact(chunk.type())) {
    // NaN sorts last: a slice holding one has a NaN median.
    array last = slice_axis(sorted, axis, n - 1, n);
    med = where(isnan(last), last.astype(med.type()), med);
  }
  return med;
}

array chunk_stat(const array& chunk, int axis, pad_mode mode) {
  switch (mode) {
    case pad_mode::maximum: return fold_axis(chunk, axis, "maximum");
    case pad_mode::minimum: return fold_axis(chunk, axis, "minimum");
    case pad_mode::mean: return chunk_mean(chunk, axis);
    default: return chunk_median(chunk, axis);
  }
}

// NumPy's _get_stats then _set_pad_area.
void pad_stat(array& roi, int axis, pair64 width, pair64 length, pad_mode mode, dtype t) {
  std::int64_t left_index = width.first, right_index = roi.shape()[axis] - width.second;
  std::int64_t max_length = right_index - left_index;
  std::int64_t ll = length.first, rl = length.second;
  if (ll < 0 || max_length < ll) ll = max_length;
  if (rl < 0 || max_length < rl) rl = max_length;
  if ((ll == 0 || rl == 0) && (mode == pad_mode::maximum || mode == pad_mode::minimum)) {
    throw value_error("stat_length of 0 yields no value for padding");
  }
  auto stat = [&](std::int64_t s, std::int64_t e) {
    array v = chunk_stat(slice_axis(roi, axis, s, e), axis, mode);
    if (is_integer(t) && is_inexact(v.type())) v = around(v);
    return v;
  };
  array left = stat(left_index, left_index + ll);
  array right = (ll == max_length && rl == max_length) ? left : stat(right_index - rl, right_index);
  if (width.first > 0) slice_axis(roi, axis, 0, width.first).assign(left);
  if (width.second > 0) slice_axis(roi, axis, roi.shape()[axis] - width.second, roi.shape()[axis]).assign(right);
}

// NumPy's _get_linear_ramps: linspace(end_value, edge, width, endpoint=False) along `axis`, then reversed on
// the right. Computed in float64 (complex128 for complex arrays), floored for integer arrays.
array linear_ramp(const array& edge, const scalar& end_value, std::int64_t width, int axis, dtype t) {
  dtype ct = is_complex(t) ? complex128 : float64;
  array e = edge.astype(ct, order::K);
  scalar start = end_value.cast(ct);
  array delta = subtract(e, start);
  array step = divide(delta, static_cast<double>(width));
  shape_t is(edge.ndim(), 1);
  is[axis] = width;
  array idx = reshape(arange(0.0, static_cast<double>(width), 1.0, ct == complex128 ? float64 : ct), is);
  array y = add(multiply(idx, step), start);
  if (is_integer(t)) y = floor(y);  // NumPy floors for integer dtypes only (bool: nonzero is true)
  return y;
}

// NumPy's _set_reflect_both: one round of reflection; returns the pad widths still to fill.
pair64 set_reflect_both(array& padded, int axis, pair64 width, bool odd, std::int64_t original_period,
                        bool include_edge) {
  auto [left_pad, right_pad] = width;
  std::int64_t len = padded.shape()[axis];
  std::int64_t old_length = len - right_pad - left_pad;
  std::int64_t edge_offset;
  if (include_edge) {
    old_length = old_length / original_period * original_period;
    edge_offset = 1;
  } else {
    old_length = ((old_length - 1) / (original_period - 1)) * (original_period - 1) + 1;
    edge_offset = 0;
    old_length -= 1;
  }
  if (left_pad > 0) {
    std::int64_t chunk_length = std::min(old_length, left_pad);
    std::int64_t stop = left_pad - edge_offset, start = stop + chunk_length;
    // slice(start, stop, -1): indices start, start-1, ..., stop+1.
    array chunk = reversed(slice_axis(padded, axis, stop + 1, start + 1), axis);
    if (odd) {
      array edge = slice_axis(padded, axis, left_pad, left_pad + 1);
      chunk = subtract(multiply(edge, 2), chunk);
    }
    slice_axis(padded, axis, left_pad - chunk_length, left_pad).assign(chunk);
    left_pad -= chunk_length;
  }
  if (right_pad > 0) {
    std::int64_t chunk_length = std::min(old_length, right_pad);
    std::int64_t start = -right_pad + edge_offset - 2, stop = start - chunk_length;
    // slice(start, stop, -1) with negative positions: indices len+start down to len+stop+1.
    std::int64_t hi = len + start, lo = len + stop;
    array chunk = reversed(slice_axis(padded, axis, lo + 1, hi + 1), axis);
    if (odd) {
      array edge = slice_axis(padded, axis, len - right_pad - 1, len - right_pad);
      chunk = subtract(multiply(edge, 2), chunk);
    }
    std::int64_t s = len - right_pad;
    slice_axis(padded, axis, s, s + chunk_length).assign(chunk);
    right_pad -= chunk_length;
  }
  return {left_pad, right_pad};
}

// NumPy's _set_wrap_both.
pair64 set_wrap_both(array& padded, int axis, pair64 width, std::int64_t original_period) {
  auto [left_pad, right_pad] = width;
  std::int64_t len = padded.shape()[axis];
  std::int64_t period = len - right_pad - left_pad;
  period = period / original_period * original_period;
  std::int64_t new_left = 0, new_right = 0;
  if (left_pad > 0) {
    std::int64_t slice_end = left_pad + period, slice_start = slice_end - std::min(period, left_pad);
    array chunk = slice_axis(padded, axis, slice_start, slice_end);
    if (left_pad > period) {
      slice_axis(padded, axis, left_pad - period, left_pad).assign(chunk);
      new_left = left_pad - period;
    } else {
      slice_axis(padded, axis, 0, left_pad).assign(chunk);
    }
  }
  if (right_pad > 0) {
    std::int64_t slice_start = len - right_pad - period, slice_end = slice_start + std::min(period, right_pad);
    array chunk = slice_axis(padded, axis, slice_start, slice_end);
    if (right_pad > period) {
      slice_axis(padded, axis, len - right_pad, len - right_pad + period).assign(chunk);
      new_right = right_pad - period;
    } else {
      slice_axis(padded, axis, len - right_pad, len).assign(chunk);
    }
  }
  return {new_left, new_right};
}

}  // namespace

array pad(const array& a_peer, const std::vector<pair64>& pad_width, pad_mode mode, const pad_options& opt) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  int nd = a.ndim();
  if (static_cast<int>(pad_width.size()) != nd) {
    throw value_error("pad_width must have one (before, after) pair per axis");
  }
  for (auto [b, e] : pad_width) {
    if (b < 0 || e < 0) throw value_error("index can't contain negative values");
  }
  shape_t shape;
  for (int i = 0; i < nd; ++i) shape.push_back(a.shape()[i] + pad_width[i].first + pad_width[i].second);
  order o = a.is_f_contiguous() && !a.is_c_contiguous() ? order::F : order::C;
  array padded = detail::new_array(a.type(), shape, o, a.device());
  if (mode == pad_mode::constant && o == order::C && nd >= 1 && nd <= detail::pad_max_ndim && shape[nd - 1] >= 32) {
    // Note [constant pad]: one pass over the result instead of a strided copy and one fill per side.
    detail::pad_constant_layout l;
    l.ndim = nd;
    scalar zero = scalar::from_int(0);
    for (int i = 0; i < nd; ++i) {
      l.out_shape[i] = shape[i];
      l.before[i] = pad_width[i].first;
      l.in_shape[i] = a.shape()[i];
      l.in_strides[i] = a.strides()[i];
      auto [lv, rv] = opt.constant_values.empty() ? std::make_pair(zero, zero) : opt.constant_values[i];
      scalar b = lv.cast(a.type()), e = rv.cast(a.type());
      std::copy(b.bytes, b.bytes + 16, l.values[i][0]);
      std::copy(e.bytes, e.bytes + 16, l.values[i][1]);
    }
    detail::launch_pad_constant(l, padded.data(), a.data(), a.itemsize(), detail::enter_device(a.device()));
    return padded;
  }
  // The original area, as NumPy's original_area_slice.
  array center = padded;
  for (int i = 0; i < nd; ++i) center = slice_axis(center, i, pad_width[i].first, pad_width[i].first + a.shape()[i]);
  if (a.size() > 0) center.assign(a);
  if (mode == pad_mode::empty || padded.size() == 0) return padded;
  if (mode != pad_mode::constant && a.size() == 0) {
    for (int i = 0; i < nd; ++i) {
      if (a.shape()[i] == 0 && (pad_width[i].first || pad_width[i].second)) {
        throw value_error("can't extend empty axis " + std::to_string(i) +
                          " using modes other than 'constant' or 'empty'");
      }
    }
    return padded;
  }
  // NumPy's _view_roi: axes after `axis` restricted to the original area, so that corners are filled once.
  auto roi_for = [&](int axis) {
    array r = padded;
    for (int i = axis + 1; i < nd; ++i) r = slice_axis(r, i, pad_width[i].first, pad_width[i].first + a.shape()[i]);
    return r;
  };
  auto left_area = [&](const array& r, int axis) { return slice_axis(r, axis, 0, pad_width[axis].first); };
  auto right_area = [&](const array& r, int axis) {
    std::int64_t len = r.shape()[axis];
    return slice_axis(r, axis, len - pad_width[axis].second, len);
  };
  auto edges = [&](const array& r, int axis, array& l, array& rt) {
    std::int64_t li = pad_width[axis].first, ri = r.shape()[axis] - pad_width[axis].second;
    l = slice_axis(r, axis, li, li + 1);
    rt = slice_axis(r, axis, ri - 1, ri);
  };
  for (int axis = 0; axis < nd; ++axis) {
    pair64 w = pad_width[axis];
    if (w.first == 0 && w.second == 0 && mode != pad_mode::constant) continue;
    array roi = roi_for(axis);
    switch (mode) {
      case pad_mode::constant: {
        scalar zero = scalar::from_int(0).cast(a.type());
        auto [lv, rv] = opt.constant_values.empty() ? std::make_pair(zero, zero) : opt.constant_values[axis];
        if (w.first) left_area(roi, axis).fill(lv);
        if (w.second) right_area(roi, axis).fill(rv);
        break;
      }
      case pad_mode::edge: {
        array l, r;
        edges(roi, axis, l, r);
        if (w.first) left_area(roi, axis).assign(l);
        if (w.second) right_area(roi, axis).assign(r);
        break;
      }
      case pad_mode::linear_ramp: {
        array l, r;
        edges(roi, axis, l, r);
        scalar zero = scalar::from_int(0);
        auto [lv, rv] = opt.end_values.empty() ? std::make_pair(zero, zero) : opt.end_values[axis];
        if (w.first) left_area(roi, axis).assign(linear_ramp(l, lv, w.first, axis, a.type()));
        if (w.second) right_area(roi, axis).assign(reversed(linear_ramp(r, rv, w.second, axis, a.type()), axis));
        break;
      }
      case pad_mode::maximum:
      case pad_mode::minimum:
      case pad_mode::mean:
      case pad_mode::median: {
        pair64 len = opt.stat_length.empty() ? pair64{-1, -1} : opt.stat_length[axis];
        pad_stat(roi, axis, w, len, mode, a.type());
        break;
      }
      case pad_mode::reflect:
      case pad_mode::symmetric: {
        if (a.shape()[axis] == 1) {
          // NumPy's legacy behaviour: a singleton axis is extended with its edge value.
          array l, r;
          edges(padded, axis, l, r);
          if (w.first) left_area(padded, axis).assign(l);
          if (w.second) right_area(padded, axis).assign(r);
          break;
        }
        while (w.first > 0 || w.second > 0) {
          w = set_reflect_both(roi, axis, w, opt.reflect_odd, a.shape()[axis], mode == pad_mode::symmetric);
        }
        break;
      }
      case pad_mode::wrap: {
        std::int64_t period = padded.shape()[axis] - w.second - w.first;
        while (w.first > 0 || w.second > 0) w = set_wrap_both(roi, axis, w, period);
        break;
      }
      case pad_mode::empty: break;
    }
  }
  return padded;
}

}  // namespace cuarray
