// Vector and matrix norms (numpy.linalg.norm, vector_norm, matrix_norm) and condition numbers, from reductions and SVD.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "src/linalg/decomp_common.hpp"
#include "src/ops/reductions_internal.hpp"

namespace cuarray::linalg {

using namespace detail;

norm_ord norm_ord::parse(std::string_view s) {
  norm_ord o = of(s == "fro" || s == "f" ? fro : s == "nuc" ? nuc : invalid);
  o.text = std::string(s);
  return o;
}

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

bool is_num(const norm_ord& o, double v) { return o.kind == norm_ord::number && o.value == v; }

std::string ord_text(const norm_ord& o) {
  if (!o.text.empty()) return o.text;
  return o.kind == norm_ord::nuc ? "nuc" : "fro";
}

reduce_options over(std::vector<int> axes, bool keepdims, bool zero_initial, dtype t) {
  reduce_options o = along(std::move(axes), keepdims);
  if (zero_initial) o.initial = scalar::from_double(0.0, t);
  return o;
}

// sqrt(sum |x|^2) over `axes` in one read of x (Note [one-pass norm] in src/ops/reductions.cpp).
array sumsq_root(const array& x, std::vector<int> axes, bool keepdims) {
  const int nd = x.ndim();
  for (int& ax : axes) ax = normalize_axis(ax, nd);
  std::sort(axes.begin(), axes.end());
  red::call c;
  c.in = x;
  c.axes = axes;
  c.out_type = cuarray::detail::sumsq_root_type(x.type());
  array r = red::run(cuarray::detail::sumsq_root_spec(x.type()), c);
  if (keepdims) {
    shape_t s = x.shape();
    for (int ax : axes) s[static_cast<std::size_t>(ax)] = 1;
    r = r.reshape(s);
  }
  return r;
}

array svd_norm(const array& x, int row, int col, bool largest, bool nuclear) {
  array y = moveaxis(x, {row, col}, {-2, -1});
  array s = svdvals(y);
  if (nuclear) return sum(s, along({-1}));
  if (largest) return amax(s, over({-1}, false, true, s.type()));
  return amin(s, along({-1}));
}

}  // namespace

array norm(const array& x_in, const norm_ord& ord, const std::optional<std::vector<int>>& axis, bool keepdims) {
  const int nd = x_in.ndim();
  if (!axis) {
    if (ord.kind == norm_ord::none || (ord.kind == norm_ord::fro && nd == 2) || (is_num(ord, 2) && nd == 1)) {
      std::vector<int> all;
      for (int i = 0; i < nd; ++i) all.push_back(i);
      return sumsq_root(x_in, all, keepdims);
    }
  }
  if (axis && axis->size() == 1 && (ord.kind == norm_ord::none || is_num(ord, 2))) {
    return sumsq_root(x_in, *axis, keepdims);
  }
  array x = is_inexact(x_in.type()) ? x_in : x_in.astype(dtype::float64);
  std::vector<int> axes;
  if (axis) {
    axes = *axis;
  } else {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  }
  dtype rt = real_of(x.type());
  if (axes.size() == 1) {
    if (ord.kind == norm_ord::fro || ord.kind == norm_ord::nuc || ord.kind == norm_ord::invalid) {
      throw value_error("Invalid norm order '" + ord_text(ord) + "' for vectors");
    }
    array absx;
    auto abs_x = [&]() -> const array& {
      if (!absx.defined()) absx = absolute(x);
      return absx;
    };
    if (is_num(ord, inf)) return amax(abs_x(), over(axes, keepdims, true, rt));
    if (is_num(ord, -inf)) return amin(abs_x(), over(axes, keepdims, false, rt));
    if (is_num(ord, 0)) return sum(not_equal(x, 0).astype(rt), over(axes, keepdims, false, rt));
    if (is_num(ord, 1)) return sum(abs_x(), over(axes, keepdims, false, rt));
    array ret = sum(power(abs_x(), ord.value), over(axes, keepdims, false, rt));
    return power(ret, scalar::from_double(1.0 / ord.value, ret.type()));
  }
  if (axes.size() == 2) {
    int row = normalize_axis(axes[0], nd), col = normalize_axis(axes[1], nd);
    if (row == col) throw value_error("Duplicate axes given.");
    array ret;
    if (is_num(ord, 2)) {
      ret = svd_norm(x, row, col, true, false);
    } else if (is_num(ord, -2)) {
      ret = svd_norm(x, row, col, false, false);
    } else if (is_num(ord, 1) || is_num(ord, -1)) {
      int c = col > row ? col - 1 : col;
      array s = sum(absolute(x), along({row}));
      ret = is_num(ord, 1) ? amax(s, over({c}, false, true, rt)) : amin(s, along({c}));
    } else if (is_num(ord, inf) || is_num(ord, -inf)) {
      int r = row > col ? row - 1 : row;
      array s = sum(absolute(x), along({col}));
      ret = is_num(ord, inf) ? amax(s, over({r}, false, true, rt)) : amin(s, along({r}));
    } else if (ord.kind == norm_ord::none || ord.kind == norm_ord::fro) {
      ret = sumsq_root(x, {row, col}, false);
    } else if (ord.kind == norm_ord::nuc) {
      ret = svd_norm(x, row, col, false, true);
    } else {
      throw value_error("Invalid norm order for matrices.");
    }
    if (keepdims) {
      shape_t s = x.shape();
      s[row] = 1;
      s[col] = 1;
      ret = ret.reshape(s);
    }
    return ret;
  }
  throw value_error("Improper number of dimensions to norm.");
}

array vector_norm(const array& x_in, const std::optional<std::vector<int>>& axis, bool keepdims, const norm_ord& ord) {
  shape_t shape = x_in.shape();
  const int nd = x_in.ndim();
  array x = x_in;
  int ax = 0;
  std::vector<int> reduced;
  if (ord.kind == norm_ord::none || is_num(ord, 2)) {
    // The 2-norm reads x_in in place over any axes (no ravel or transpose copy).
    if (!axis) {
      for (int i = 0; i < nd; ++i) reduced.push_back(i);
    } else {
      reduced = normalize_axis_tuple(*axis, nd);
    }
    return sumsq_root(x_in, reduced, keepdims);
  }
  if (!axis) {
    x = ravel(x_in);
    for (int i = 0; i < nd; ++i) reduced.push_back(i);
  } else if (axis->size() == 1) {
    ax = (*axis)[0];
    reduced.push_back(normalize_axis(ax, nd));
  } else {
    // Several axes: moved to the front and merged into one (NumPy's own route).
    reduced = normalize_axis_tuple(*axis, nd);
    std::vector<int> perm = reduced;
    shape_t merged{1};
    for (int k : reduced) merged[0] *= shape[k];
    for (int i = 0; i < nd; ++i) {
      if (std::find(reduced.begin(), reduced.end(), i) == reduced.end()) perm.push_back(i), merged.push_back(shape[i]);
    }
    x = x_in.transpose(perm).reshape(merged);
  }
  array res = norm(x, ord, std::vector<int>{ax}, false);
  if (keepdims) {
    for (int k : reduced) shape[k] = 1;
    res = res.reshape(shape);
  }
  return res;
}

array matrix_norm(const array& x, bool keepdims, const norm_ord& ord) {
  return norm(x, ord, std::vector<int>{-2, -1}, keepdims);
}

array cond(const array& x, const norm_ord& p) {
  if (x.size() == 0) {
    std::int64_t tail = 1;
    for (int i = std::max(0, x.ndim() - 2); i < x.ndim(); ++i) tail *= x.shape()[i];
    if (tail == 0) throw linalg_error("cond is not defined on empty arrays");
  }
  array r;
  if (p.kind == norm_ord::none || is_num(p, 2) || is_num(p, -2)) {
    array s = svdvals(x);
    std::int64_t k = s.shape()[s.ndim() - 1];
    array first = drop_axis(slice_axis(s, -1, 0, 1), -1), last = drop_axis(slice_axis(s, -1, k - 1, k), -1);
    r = is_num(p, -2) ? divide(last, first) : divide(first, last);
  } else {
    assert_stacked_square(x);
    dtype rt = real_of(result_type({x.type()}));
    array invx = inv_impl(x, false);  // NumPy ignores singularity here: the NaN below becomes inf
    r = multiply(norm(x, p, std::vector<int>{-2, -1}), norm(invx, p, std::vector<int>{-2, -1}))
            .astype(rt, order::K, false);
  }
  // NaN from a singular matrix means an infinite condition number; NaN in the input stays NaN.
  array x_nan = is_inexact(x.type()) ? any(isnan(x), along({-2, -1})) : zeros(r.shape(), dtype::bool_);
  return where(logical_and(isnan(r), logical_not(x_nan)), inf, r).astype(r.type(), order::K, false);
}

}  // namespace cuarray::linalg
