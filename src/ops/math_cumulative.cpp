// cumsum/cumprod on CUB scans (src/kernels/scan_*.cu), diff/ediff1d on their own kernel, gradient on ufuncs.
#include "cuarray/scan.hpp"

#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>

#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/engine/scan.hpp"
#include "src/kernels/diff_kernels.hpp"

namespace cuarray {

using detail::scan_op;
using detail::scan_type;
using detail::slice_axis;

namespace {

// NumPy's accumulator of add/multiply accumulations without dtype=: at least the platform integer.
dtype default_accumulator(dtype t) {
  if (t == bool_ || (is_signed_integer(t) && itemsize(t) < 8)) return int64;
  if (is_unsigned_integer(t) && itemsize(t) < 8) return uint64;
  return t;
}

// See Note [scan accumulators].
scan_type arithmetic_of(dtype t) {
  switch (t) {
    case float16:
    case float32: return scan_type::f32;
    case float64: return scan_type::f64;
    case complex64: return scan_type::c64;
    case complex128: return scan_type::c128;
    default: return scan_type::u64;
  }
}

dtype storage_of(scan_type t) {
  switch (t) {
    case scan_type::u64: return uint64;
    case scan_type::f32: return float32;
    case scan_type::f64: return float64;
    case scan_type::c64: return complex64;
    case scan_type::c128: return complex128;
  }
  return float64;
}

// `x` (axis moved last) as the contiguous input of the scan arithmetic: NumPy first casts the input to the
// result dtype, so bool results test for nonzero first and float16 results round to half first.
array scan_input(const array& x, dtype rt, dtype ct) {
  if (rt == bool_) {
    array b = x.astype(bool_, order::C, false);
    return b.astype(uint64, order::C, true);
  }
  if (ct == uint64) {
    if (x.type() == int64 || x.type() == uint64) return x.astype(x.type(), order::C, false).view(uint64);
    return x.astype(uint64, order::C, false);  // sign extension keeps every narrower sum modulo 2^k
  }
  if (rt == float16 && x.type() != float16) return x.astype(float16, order::C, false).astype(float32, order::C, false);
  return x.astype(ct, order::C, false);
}

enum class nan_mode { keep, as_identity };

array accumulate(const array& a_in_peer, std::optional<int> axis_in, std::optional<dtype> dt, const array& out,
                 scan_op op, nan_mode nans) {
  const array a_in = detail::on_current_device(a_in_peer);  // Note [peer operands]
  array a = a_in;
  int axis;
  if (!axis_in || a.ndim() == 0) {
    if (axis_in) normalize_axis(*axis_in, 1);  // a 0-d array scans as 1-d: axis 0 or -1
    a = a.reshape(shape_t{-1});
    axis = 0;
  } else {
    axis = normalize_axis(*axis_in, a.ndim());
  }
  // Note [loop dtype from out]: without dtype=, an out= sets the loop with the input (NumPy promotes them).
  dtype rt = dt ? *dt : (out.defined() ? promote_types(out.type(), a.type()) : default_accumulator(a.type()));
  if (out.defined() && out.shape() != a.shape()) {
    throw value_error("provided out is the wrong size for the accumulation.");
  }
  if (nans == nan_mode::as_identity && is_inexact(a.type())) {
    // NumPy's _replace_nan: an element with a NaN (either part of a complex) becomes the identity.
    ufunc_arg identity = op == scan_op::sum ? ufunc_arg(0) : ufunc_arg(1);
    a = where(ufunc_arg(isnan(a)), identity, ufunc_arg(a));
  }
  scan_type st = arithmetic_of(rt);
  dtype ct = storage_of(st);
  std::vector<int> perm;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d != axis) perm.push_back(d);
  }
  perm.push_back(axis);
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[static_cast<std::size_t>(perm[i])] = static_cast<int>(i);
  bool axis_last = axis == a.ndim() - 1;
  array xt = axis_last ? a : a.transpose(perm);
  int device = a.device();
  array in = scan_input(xt, rt, ct);
  array scanned = detail::new_array(ct, xt.shape(), order::C, device);
  if (scanned.size() > 0) {
    cudaStream_t s = detail::enter_device(device);
    detail::pool_scratch scratch(device);
    detail::launch_scan(st, op, in.data(), scanned.data(), scanned.size(), xt.shape()[xt.ndim() - 1], scratch, s);
  }
  if (is_integer(rt) && itemsize(rt) == 8) scanned = scanned.view(rt);  // uint64 bits are int64's
  array back = axis_last ? scanned : scanned.transpose(inverse);
  if (out.defined()) {
    array o = out;
    o.assign(back);
    return o;
  }
  if (back.type() == rt && axis_last) return back;
  array r = detail::new_array(rt, a.shape(), order::C, device);
  r.assign(back);
  return r;
}

array cumulative(const array& x, std::optional<int> axis, std::optional<dtype> dt, const array& out,
                 bool include_initial, scan_op op) {
  if (x.ndim() > 1 && !axis) {
    throw value_error("For arrays which have more than one dimension ``axis`` argument is required.");
  }
  if (!include_initial) return accumulate(x, axis, dt, out, op, nan_mode::keep);
  array r = accumulate(x, axis, dt, array(), op, nan_mode::keep);
  int ax = r.ndim() == 1 ? 0 : normalize_axis(*axis, r.ndim());
  shape_t shape = r.shape();
  shape[ax] += 1;
  if (out.defined() && out.shape() != shape) {
    throw value_error("provided out has shape " + shape_to_string(out.shape()) + ", expected " +
                      shape_to_string(shape));
  }
  array res = out.defined() ? out : detail::new_array(r.type(), shape, order::C, r.device());
  array first = slice_axis(res, ax, 0, 1);
  first.fill(scalar::from_int(op == scan_op::sum ? 0 : 1));
  array rest = slice_axis(res, ax, 1, shape[ax]);
  rest.assign(r);
  return res;
}

}  // namespace

array cumsum(const array& a, std::optional<int> axis, std::optional<dtype> dt, const array& out) {
  return accumulate(a, axis, dt, out, scan_op::sum, nan_mode::keep);
}
array cumprod(const array& a, std::optional<int> axis, std::optional<dtype> dt, const array& out) {
  return accumulate(a, axis, dt, out, scan_op::prod, nan_mode::keep);
}
array nancumsum(const array& a, std::optional<int> axis, std::optional<dtype> dt, const array& out) {
  return accumulate(a, axis, dt, out, scan_op::sum, nan_mode::as_identity);
}
array nancumprod(const array& a, std::optional<int> axis, std::optional<dtype> dt, const array& out) {
  return accumulate(a, axis, dt, out, scan_op::prod, nan_mode::as_identity);
}
array cumulative_sum(const array& x, std::optional<int> axis, std::optional<dtype> dt, const array& out,
                     bool include_initial) {
  return cumulative(x, axis, dt, out, include_initial, scan_op::sum);
}
array cumulative_prod(const array& x, std::optional<int> axis, std::optional<dtype> dt, const array& out,
                      bool include_initial) {
  return cumulative(x, axis, dt, out, include_initial, scan_op::prod);
}

// ---------------------------------------------------------------------------------------------------------
// Differences: NumPy's Python code, step for step, on views and ufuncs; each order of diff over a C-contiguous
// array is one kernel instead of a ufunc over two views (Note [diff kernel]).

namespace {

// Whether diff_contiguous takes `a`: C-contiguous and aligned to its itemsize (an unaligned view goes to the ufunc).
bool diff_kernel_takes(const array& a) {
  return a.is_c_contiguous() && reinterpret_cast<std::uintptr_t>(a.data()) % itemsize(a.type()) == 0;
}

// One order of diff along `axis` of a C-contiguous array in one kernel (Note [diff kernel]).
array diff_contiguous(const array& a, int axis) {
  shape_t shape = a.shape();
  std::int64_t len = shape[axis];
  shape[axis] = len > 0 ? len - 1 : 0;
  array out = detail::new_array(a.type(), shape, order::C, a.device());
  if (out.size() == 0) return out;
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (int d = axis + 1; d < a.ndim(); ++d) inner *= shape[d];
  cudaStream_t s = detail::enter_device(a.device());
  detail::launch_diff(a.type(), a.data(), out.data(), outer, len, inner, s);
  return out;
}

}  // namespace

array diff(const array& a_in_peer, std::int64_t n, int axis_in, const std::optional<array>& prepend,
           const std::optional<array>& append) {
  const array a_in = detail::on_current_device(a_in_peer);  // Note [peer operands]
  if (n == 0) return a_in;
  if (n < 0) throw value_error("order must be non-negative but got " + std::to_string(n));
  if (a_in.ndim() == 0) throw value_error("diff requires input that is at least one dimensional");
  int axis = normalize_axis(axis_in, a_in.ndim());
  array a = a_in;
  if (prepend || append) {
    std::vector<array> parts;
    auto edge = [&](const array& v) {
      if (v.ndim() != 0) return v;
      shape_t s = a_in.shape();
      s[axis] = 1;
      return v.broadcast_to(s);
    };
    if (prepend) parts.push_back(edge(*prepend));
    parts.push_back(a_in);
    if (append) parts.push_back(edge(*append));
    a = detail::concatenate_axis(parts, axis);
  }
  const char* op = a.type() == bool_ ? "not_equal" : "subtract";
  for (std::int64_t k = 0; k < n; ++k) {
    if (diff_kernel_takes(a)) {
      a = diff_contiguous(a, axis);  // Note [diff kernel]: the kernel's results are the ufunc's
      continue;
    }
    std::int64_t len = a.shape()[axis];
    std::int64_t m = len > 0 ? len - 1 : 0;
    array hi = slice_axis(a, axis, len - m, len), lo = slice_axis(a, axis, 0, m);
    a = call_ufunc(op, std::vector<array>{hi, lo})[0];
  }
  return a;
}

array ediff1d(const array& ary_in_peer, const std::optional<array>& to_end, const std::optional<array>& to_begin) {
  const array ary_in = detail::on_current_device(ary_in_peer);  // Note [peer operands]
  array ary = ary_in.reshape(shape_t{-1});
  std::int64_t len = ary.size(), l_diff = len > 0 ? len - 1 : 0;
  array hi = slice_axis(ary, 0, len - l_diff, len), lo = slice_axis(ary, 0, 0, l_diff);
  if (!to_begin && !to_end) {
    // bool goes to subtract, which refuses it as NumPy does; the rest is diff's kernel (Note [diff kernel]).
    if (ary.type() != bool_ && diff_kernel_takes(ary)) {
      return diff_contiguous(ary, 0);
    }
    return subtract(hi, lo);
  }
  auto check = [&](const std::optional<array>& v, const char* what) {
    if (v && !can_cast(v->type(), ary.type(), casting::same_kind)) {
      throw type_error(std::string("dtype of `") + what +
                       "` must be compatible with input `ary` under the `same_kind` rule.");
    }
  };
  check(to_begin, "to_begin");
  check(to_end, "to_end");
  std::int64_t l_begin = to_begin ? to_begin->size() : 0, l_end = to_end ? to_end->size() : 0;
  array result = detail::new_array(ary.type(), shape_t{l_diff + l_begin + l_end}, order::C, ary.device());
  if (l_begin > 0) slice_axis(result, 0, 0, l_begin).assign(to_begin->reshape(shape_t{-1}));
  if (l_end > 0) slice_axis(result, 0, l_begin + l_diff, l_begin + l_diff + l_end).assign(to_end->reshape(shape_t{-1}));
  ufunc_options opts;
  opts.out.push_back(slice_axis(result, 0, l_begin, l_begin + l_diff));
  call_ufunc("subtract", {ufunc_arg(hi), ufunc_arg(lo)}, opts);
  return result;
}

namespace {

// A gradient axis's spacing after NumPy's preprocessing: a uniform step, or the coordinate differences.
struct axis_spacing {
  bool uniform = true;
  double step = 1.0;
  std::vector<double> dx;
};

axis_spacing spacing_of(const gradient_spacing& g, std::int64_t extent) {
  axis_spacing s;
  if (!g.coordinates.defined() || g.coordinates.ndim() == 0) {
    s.step = g.step;
    if (g.coordinates.defined()) {
      s.step = g.coordinates.astype(float64, order::C, false).host_value<double>();
    }
    return s;
  }
  const array& c = g.coordinates;
  if (c.ndim() != 1) throw value_error("distances must be either scalars or 1d");
  if (c.shape()[0] != extent) {
    throw value_error("when 1d, distances must match the length of the corresponding dimension");
  }
  if (is_complex(c.type())) throw type_error("gradient: complex coordinates are not supported");
  // The differences in the coordinates' own precision, as NumPy's diff (integers become float64 first).
  std::vector<double> v(static_cast<std::size_t>(extent));
  if (c.type() == float32 || c.type() == float16) {
    std::vector<float> f(v.size());
    c.astype(float32, order::C, false).copy_to_host(f);
    for (std::size_t i = 1; i < f.size(); ++i) s.dx.push_back(static_cast<double>(f[i] - f[i - 1]));
  } else {
    c.astype(float64, order::C, false).copy_to_host(v);
    for (std::size_t i = 1; i < v.size(); ++i) s.dx.push_back(v[i] - v[i - 1]);
  }
  bool same = !s.dx.empty();
  for (double d : s.dx) same = same && d == s.dx[0];
  if (same) {
    s.step = s.dx[0];
    s.dx.clear();
  } else {
    s.uniform = false;
  }
  return s;
}

// A float64 array of `values` shaped to broadcast along `axis` of an ndim-dimensional array.
array along_axis(const std::vector<double>& values, int axis, int ndim, int device) {
  shape_t shape(ndim, 1);
  shape[axis] = static_cast<std::int64_t>(values.size());
  array a = detail::new_array(float64, shape, order::C, device);
  a.copy_from_host(values);
  return a;
}

ufunc_arg w(double v) { return ufunc_arg(v); }

// a * x + b * y + c * z with weak (Python float) coefficients or arrays that broadcast.
array combine3(const ufunc_arg& ca, const array& x, const ufunc_arg& cb, const array& y, const ufunc_arg& cc,
               const array& z) {
  array t = multiply(ca, x);
  t = add(t, multiply(cb, y));
  return add(t, multiply(cc, z));
}

}  // namespace

std::vector<array> gradient(const array& f_in_peer, const std::vector<gradient_spacing>& spacing,
                            const std::optional<std::vector<int>>& axes_in, int edge_order) {
  const array f_in = detail::on_current_device(f_in_peer);  // Note [peer operands]
  array f = f_in;
  int nd = f.ndim();
  std::vector<int> axes;
  if (!axes_in) {
    for (int d = 0; d < nd; ++d) axes.push_back(d);
  } else {
    axes = normalize_axis_tuple(*axes_in, nd);
  }
  std::size_t len_axes = axes.size();
  std::vector<gradient_spacing> given;
  auto scalar_spacing = [](const gradient_spacing& g) { return !g.coordinates.defined() || g.coordinates.ndim() == 0; };
  if (spacing.empty()) {
    given.assign(len_axes, gradient_spacing(1.0));
  } else if (spacing.size() == 1 && scalar_spacing(spacing[0])) {
    given.assign(len_axes, spacing[0]);
  } else if (spacing.size() == len_axes) {
    given = spacing;
  } else {
    throw type_error("invalid number of arguments");
  }
  std::vector<axis_spacing> dx;
  for (std::size_t i = 0; i < len_axes; ++i) dx.push_back(spacing_of(given[i], f.shape()[axes[i]]));
  if (edge_order > 2) throw value_error("'edge_order' greater than 2 not supported");

  dtype otype = f.type();
  if (!is_inexact(otype)) {
    if (is_integer(otype)) f = f.astype(float64);
    otype = float64;
  }
  std::vector<array> outvals;
  for (std::size_t i = 0; i < len_axes; ++i) {
    int axis = axes[i];
    const axis_spacing& s = dx[i];
    std::int64_t n = f.shape()[axis];
    // Orders other than 1 take NumPy's second-order branch, which reads three samples.
    if (n < edge_order + 1 || (edge_order != 1 && n < 3)) {
      throw value_error("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                        "elements are required.");
    }
    array out = detail::new_array(otype, f.shape(), strides_like(f.shape(), f.strides(), itemsize(otype)), f.device());
    auto sl = [&](const array& a, std::int64_t lo, std::int64_t hi) { return slice_axis(a, axis, lo, hi); };
    // Interior: second-order central differences.
    if (s.uniform) {
      sl(out, 1, n - 1).assign(divide(subtract(sl(f, 2, n), sl(f, 0, n - 2)), w(2.0 * s.step)));
    } else {
      std::vector<double> ca, cb, cc;
      for (std::int64_t k = 0; k + 1 < static_cast<std::int64_t>(s.dx.size()); ++k) {
        double dx1 = s.dx[static_cast<std::size_t>(k)], dx2 = s.dx[static_cast<std::size_t>(k + 1)];
        ca.push_back(-(dx2) / (dx1 * (dx1 + dx2)));
        cb.push_back((dx2 - dx1) / (dx1 * dx2));
        cc.push_back(dx1 / (dx2 * (dx1 + dx2)));
      }
      if (n > 2) {
        sl(out, 1, n - 1)
            .assign(combine3(along_axis(ca, axis, nd, f.device()), sl(f, 0, n - 2),
                             along_axis(cb, axis, nd, f.device()), sl(f, 1, n - 1),
                             along_axis(cc, axis, nd, f.device()), sl(f, 2, n)));
      }
    }
    if (edge_order == 1) {
      double dx0 = s.uniform ? s.step : s.dx.front(), dxn = s.uniform ? s.step : s.dx.back();
      sl(out, 0, 1).assign(divide(subtract(sl(f, 1, 2), sl(f, 0, 1)), w(dx0)));
      sl(out, n - 1, n).assign(divide(subtract(sl(f, n - 1, n), sl(f, n - 2, n - 1)), w(dxn)));
    } else {
      double a, b, c;
      if (s.uniform) {
        a = -1.5 / s.step, b = 2.0 / s.step, c = -0.5 / s.step;
      } else {
        double dx1 = s.dx[0], dx2 = s.dx[1];
        a = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2));
        b = (dx1 + dx2) / (dx1 * dx2);
        c = -dx1 / (dx2 * (dx1 + dx2));
      }
      sl(out, 0, 1).assign(combine3(w(a), sl(f, 0, 1), w(b), sl(f, 1, 2), w(c), sl(f, 2, 3)));
      if (s.uniform) {
        a = 0.5 / s.step, b = -2.0 / s.step, c = 1.5 / s.step;
      } else {
        double dx1 = s.dx[s.dx.size() - 2], dx2 = s.dx.back();
        a = dx2 / (dx1 * (dx1 + dx2));
        b = -(dx2 + dx1) / (dx1 * dx2);
        c = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2));
      }
      sl(out, n - 1, n).assign(combine3(w(a), sl(f, n - 3, n - 2), w(b), sl(f, n - 2, n - 1), w(c), sl(f, n - 1, n)));
    }
    outvals.push_back(std::move(out));
  }
  return outvals;
}

}  // namespace cuarray
