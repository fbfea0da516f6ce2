// Shape and axis manipulation (views wherever NumPy gives views), splitting, and the shared helpers.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/transfer.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/manip_kernels.hpp"
#include "src/ops/manipulation_internal.hpp"

namespace cuarray {

namespace detail {

array slice_axis(const array& a, int axis, std::int64_t start, std::int64_t stop) {
  shape_t shape = a.shape();
  std::int64_t off = a.offset();
  if (stop > start) off += start * a.strides()[axis];
  shape[axis] = std::max<std::int64_t>(0, stop - start);
  return with_layout(a, std::move(shape), a.strides(), off);
}

array prepend_unit_axes(const array& a, int count) {
  if (count <= 0) return a;
  shape_t shape;
  strides_t strides;
  for (int i = 0; i < count; ++i) {
    shape.push_back(1);
    strides.push_back(0);
  }
  for (int i = 0; i < a.ndim(); ++i) {
    shape.push_back(a.shape()[i]);
    strides.push_back(a.strides()[i]);
  }
  return with_layout(a, std::move(shape), std::move(strides), a.offset());
}

void slice_indices(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                   std::optional<std::int64_t> step, std::int64_t n, std::int64_t& s, std::int64_t& e, std::int64_t& st,
                   std::int64_t& len) {
  st = step.value_or(1);
  if (st == 0) throw value_error("slice step cannot be zero");
  auto clamp = [&](std::optional<std::int64_t> v, bool is_start) -> std::int64_t {
    if (!v) return st > 0 ? (is_start ? 0 : n) : (is_start ? n - 1 : -1);
    std::int64_t x = *v;
    if (x < 0) {
      x += n;
      if (x < 0) x = st > 0 ? 0 : -1;
    } else if (x >= n) {
      x = st > 0 ? n : n - 1;
    }
    return x;
  };
  s = clamp(start, true);
  e = clamp(stop, false);
  if (st > 0) len = e > s ? (e - s + st - 1) / st : 0;
  else len = s > e ? (s - e + (-st) - 1) / (-st) : 0;
}

namespace {

// Extent and byte stride of axes [from, to) taken as one axis, when their strides chain (C order).
bool merge_run(const array& a, int from, int to, std::int64_t& extent, std::int64_t& stride) {
  extent = 1;
  stride = 0;
  int last = -1;
  for (int i = from; i < to; ++i) {
    if (a.shape()[i] == 1) continue;
    if (last >= 0 && a.strides()[last] != a.strides()[i] * a.shape()[i]) return false;
    extent *= a.shape()[i];
    stride = a.strides()[i];
    last = i;
  }
  for (int i = from; i < to; ++i) {
    if (a.shape()[i] == 0) extent = 0;
  }
  return true;
}

bool as_3d(const array& a, int axis, axis_map_layout& l, bool dst) {
  std::int64_t oe, os, ie, is;
  if (!merge_run(a, 0, axis, oe, os) || !merge_run(a, axis + 1, a.ndim(), ie, is)) return false;
  std::int64_t* s = dst ? l.dst_strides : l.src_strides;
  s[0] = os;
  s[1] = a.strides()[axis];
  s[2] = is;
  l.outer = oe;
  l.inner = ie;
  return true;
}

}  // namespace

void axis_map_copy(const array& dst_in, const array& src_in, int axis, std::int64_t m,
                   const std::vector<std::int64_t>& dmap, const std::vector<std::int64_t>& smap) {
  if (m == 0 || dst_in.size() == 0) return;
  array src = src_in;
  if (src.device() != dst_in.device()) src = to_device(src, dst_in.device());
  if (may_overlap(dst_in, src)) src = src.copy(order::C);
  axis_map_layout l;
  if (!as_3d(src, axis, l, false)) {
    src = src.copy(order::C);
    as_3d(src, axis, l, false);
  }
  array dst = dst_in;
  bool staged = false;
  if (!as_3d(dst, axis, l, true)) {
    dst = new_array(dst_in.type(), dst_in.shape(), order::C, dst_in.device());
    dst.assign(dst_in);  // the positions outside the map keep their values
    as_3d(dst, axis, l, true);
    staged = true;
  }
  l.m = m;
  int device = dst.device();
  cudaStream_t s = enter_device(device);
  array maps = new_array(int64, shape_t{static_cast<std::int64_t>(dmap.size() + smap.size())}, order::C, device);
  std::vector<std::int64_t> host(dmap);
  host.insert(host.end(), smap.begin(), smap.end());
  if (!host.empty())
    memcpy_host_to_device(maps.data(), host.data(), host.size() * sizeof(std::int64_t), current_stream(device));
  const auto* base = static_cast<const std::int64_t*>(maps.data());
  launch_axis_map_copy(l, dst.data(), src.data(), dst.itemsize(), dmap.empty() ? nullptr : base,
                       smap.empty() ? nullptr : base + dmap.size(), s);
  if (staged) {
    array target = dst_in;
    target.assign(dst);
  }
}

std::string cast_error_message(dtype from, dtype to, casting rule) {
  static const char* names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  return "Cannot cast array data from dtype('" + std::string(name(from)) + "') to dtype('" + std::string(name(to)) +
         "') according to the rule '" + names[static_cast<int>(rule)] + "'";
}

}  // namespace detail

using detail::slice_axis;
using detail::with_layout;

// ---- shape ------------------------------------------------------------------------------------------------------

namespace {

shape_t resolve_shape(const array& a, const shape_t& shape_in) { return detail::resolve_reshape(a.size(), shape_in); }

bool nocopy_strides(const array& a, const shape_t& new_shape, bool f_order, strides_t& out) {
  return detail::nocopy_reshape_strides(a.shape(), a.strides(), new_shape, f_order, a.itemsize(), out);
}

order resolve_reshape_order(const array& a, order o) {
  if (o == order::K) throw value_error("order 'K' is not permitted for reshaping");
  if (o == order::A) return (a.is_f_contiguous() && !a.is_c_contiguous()) ? order::F : order::C;
  return o;
}

}  // namespace

std::optional<array> reshape_view_if_possible(const array& a, const shape_t& shape_in, order o) {
  shape_t shape = resolve_shape(a, shape_in);
  o = resolve_reshape_order(a, o);
  if (a.size() == 0) return with_layout(a, shape, contiguous_strides(shape, a.itemsize(), o), a.offset());
  strides_t strides;
  if (!nocopy_strides(a, shape, o == order::F, strides)) return std::nullopt;
  return with_layout(a, std::move(shape), std::move(strides), a.offset());
}

array reshape(const array& a, const shape_t& shape_in, order o, std::optional<bool> copy) {
  std::optional<array> v = reshape_view_if_possible(a, shape_in, o);
  o = resolve_reshape_order(a, o);
  if (v && !(copy && *copy)) return *v;
  if (!v && copy && !*copy) throw value_error("Unable to avoid creating a copy while reshaping.");
  shape_t shape = resolve_shape(a, shape_in);
  // Copy in the reading order, then the new shape is a view of that copy.
  array packed = a.copy(o);
  return with_layout(packed, shape, contiguous_strides(shape, a.itemsize(), o), packed.offset());
}

array ravel(const array& a, order o) {
  shape_t flat{a.size()};
  strides_t unit{static_cast<std::int64_t>(a.itemsize())};
  if (o == order::A) o = (a.is_f_contiguous() && !a.is_c_contiguous()) ? order::F : order::C;
  if ((o == order::C && a.is_c_contiguous()) || (o == order::F && a.is_f_contiguous())) {
    return with_layout(a, flat, unit, a.offset());
  }
  if (o == order::K) {
    if (a.is_c_contiguous() || a.is_f_contiguous()) {
      return with_layout(a, flat, unit, a.offset());
    }
    // A dense layout with positive strides in any axis order is one block of memory: a view in memory order.
    std::vector<int> perm(static_cast<std::size_t>(a.ndim()));
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int x, int y) { return std::llabs(a.strides()[x]) > std::llabs(a.strides()[y]); });
    std::int64_t expected = static_cast<std::int64_t>(a.itemsize());
    bool dense = true;
    for (int k = a.ndim() - 1; k >= 0 && dense; --k) {
      int ax = perm[static_cast<std::size_t>(k)];
      if (a.shape()[ax] == 1) continue;
      if (a.strides()[ax] != expected) dense = false;
      expected *= a.shape()[ax];
    }
    if (dense) return with_layout(a, flat, unit, a.offset());
  }
  return flatten(a, o);
}

array flatten(const array& a, order o) {
  if (o == order::A) o = (a.is_f_contiguous() && !a.is_c_contiguous()) ? order::F : order::C;
  array c = a.copy(o);  // order K keeps the axis order: the copy is dense and its memory order is K's order
  return with_layout(c, shape_t{a.size()}, strides_t{static_cast<std::int64_t>(a.itemsize())}, c.offset());
}

array squeeze(const array& a, const std::optional<std::vector<int>>& axis) {
  std::vector<bool> drop(static_cast<std::size_t>(a.ndim()), false);
  if (!axis) {
    for (int i = 0; i < a.ndim(); ++i) drop[static_cast<std::size_t>(i)] = a.shape()[i] == 1;
  } else {
    for (int ax : normalize_axis_tuple(*axis, a.ndim())) {
      if (a.shape()[ax] != 1) throw value_error("cannot select an axis to squeeze out which has size not equal to one");
      drop[static_cast<std::size_t>(ax)] = true;
    }
  }
  shape_t shape;
  strides_t strides;
  for (int i = 0; i < a.ndim(); ++i) {
    if (drop[static_cast<std::size_t>(i)]) continue;
    shape.push_back(a.shape()[i]);
    strides.push_back(a.strides()[i]);
  }
  return with_layout(a, std::move(shape), std::move(strides), a.offset());
}

array expand_dims(const array& a, const std::vector<int>& axis) {
  int out_ndim = a.ndim() + static_cast<int>(axis.size());
  std::vector<int> axes = normalize_axis_tuple(axis, out_ndim);
  std::vector<bool> is_new(static_cast<std::size_t>(out_ndim), false);
  for (int ax : axes) is_new[static_cast<std::size_t>(ax)] = true;
  shape_t shape;
  strides_t strides;
  int src = 0;
  for (int i = 0; i < out_ndim; ++i) {
    if (is_new[static_cast<std::size_t>(i)]) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[src]);
      strides.push_back(a.strides()[src]);
      ++src;
    }
  }
  return with_layout(a, std::move(shape), std::move(strides), a.offset());
}

array atleast_1d(const array& a) { return a.ndim() >= 1 ? a : detail::prepend_unit_axes(a, 1); }

array atleast_2d(const array& a) { return a.ndim() >= 2 ? a : detail::prepend_unit_axes(a, 2 - a.ndim()); }

array atleast_3d(const array& a) {
  if (a.ndim() >= 3) return a;
  if (a.ndim() == 0) return detail::prepend_unit_axes(a, 3);
  array b = a.ndim() == 1 ? detail::prepend_unit_axes(a, 1) : a;
  return expand_dims(b, {2});
}

array broadcast_to(const array& a, const shape_t& shape) {
  for (auto d : shape) {
    if (d < 0) throw value_error("all elements of broadcast shape must be non-negative");
  }
  if (shape.size() < a.ndim()) {
    throw value_error("input operand has more dimensions than allowed by the axis remapping");
  }
  for (int i = 0; i < a.ndim(); ++i) {
    std::int64_t have = a.shape()[i], want = shape[shape.size() - a.ndim() + i];
    if (have != want && have != 1) {
      throw value_error("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                        shape_to_string(a.shape()) + "  and requested shape " + shape_to_string(shape));
    }
  }
  return a.broadcast_to(shape);
}

shape_t broadcast_shapes(const std::vector<shape_t>& shapes) {
  shape_t out;
  for (const shape_t& s : shapes) out = broadcast_shapes(out, s);
  return out;
}

std::vector<array> broadcast_arrays(const std::vector<array>& arrays) {
  std::vector<shape_t> shapes;
  for (const array& a : arrays) shapes.push_back(a.shape());
  shape_t shape = broadcast_shapes(shapes);
  std::vector<array> out;
  for (const array& a : arrays) out.push_back(a.shape() == shape ? a : a.broadcast_to(shape));
  return out;
}

array resize(const array& a, const shape_t& shape) {
  std::int64_t n = 1;
  for (auto d : shape) {
    if (d < 0) throw value_error("all elements of `new_shape` must be non-negative");
    n *= d;
  }
  if (a.size() == 0 || n == 0) return zeros(shape, a.type());
  array out = detail::new_array(a.type(), shape, order::C, a.device());
  array flat_src = ravel(a, order::C);
  std::int64_t m = a.size(), full = n / m, rest = n % m;
  auto isz = static_cast<std::int64_t>(a.itemsize());
  if (full > 0) {
    // The whole repeats are one broadcasting copy: (full, m) <- (1, m).
    array dst = with_layout(out, shape_t{full, m}, strides_t{m * isz, isz}, out.offset());
    dst.assign(with_layout(flat_src, shape_t{1, m}, strides_t{0, flat_src.strides()[0]}, flat_src.offset()));
  }
  if (rest > 0) {
    array dst = with_layout(out, shape_t{rest}, strides_t{isz}, out.offset() + full * m * isz);
    dst.assign(slice_axis(flat_src, 0, 0, rest));
  }
  return out;
}

// ---- axes -------------------------------------------------------------------------------------------------------

array transpose(const array& a, const std::optional<std::vector<int>>& axes) {
  return axes ? a.transpose(*axes) : a.transpose();
}

array permute_dims(const array& a, const std::optional<std::vector<int>>& axes) { return transpose(a, axes); }

array swapaxes(const array& a, int axis1, int axis2) {
  int x = normalize_axis(axis1, a.ndim()), y = normalize_axis(axis2, a.ndim());
  std::vector<int> perm(static_cast<std::size_t>(a.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(x)], perm[static_cast<std::size_t>(y)]);
  return a.transpose(perm);
}

array moveaxis(const array& a, const std::vector<int>& source, const std::vector<int>& destination) {
  std::vector<int> src = normalize_axis_tuple(source, a.ndim());
  std::vector<int> dst = normalize_axis_tuple(destination, a.ndim());
  if (src.size() != dst.size()) {
    throw value_error("`source` and `destination` arguments must have the same number of elements");
  }
  std::vector<int> order;
  for (int i = 0; i < a.ndim(); ++i) {
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  }
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t k = 0; k < src.size(); ++k) pairs.emplace_back(dst[k], src[k]);
  std::sort(pairs.begin(), pairs.end());
  for (auto [d, s] : pairs) order.insert(order.begin() + d, s);
  return a.transpose(order);
}

array rollaxis(const array& a, int axis, int start) {
  int n = a.ndim();
  int ax = normalize_axis(axis, n);
  int st = start < 0 ? start + n : start;
  if (!(0 <= st && st < n + 1)) {
    throw axis_error("'start' arg requires " + std::to_string(-n) + " <= start < " + std::to_string(n + 1) + ", but " +
                     std::to_string(start) + " was passed in");
  }
  if (ax < st) --st;
  if (ax == st) return a;
  std::vector<int> perm;
  for (int i = 0; i < n; ++i) {
    if (i != ax) perm.push_back(i);
  }
  perm.insert(perm.begin() + st, ax);
  return a.transpose(perm);
}

array matrix_transpose(const array& a) {
  if (a.ndim() < 2) {
    throw value_error("Input array must be at least 2-dimensional, but it is " + std::to_string(a.ndim()));
  }
  return swapaxes(a, -1, -2);
}

// ---- splitting --------------------------------------------------------------------------------------------------

namespace {

int split_axis(const array& a, int axis) {
  // NumPy reads ary.shape[axis] first: a bad axis is Python's IndexError on the shape tuple.
  if (axis < -a.ndim() || axis >= a.ndim()) throw index_error("tuple index out of range");
  return axis < 0 ? axis + a.ndim() : axis;
}

std::vector<array> split_at(const array& a, const std::vector<std::int64_t>& points, int axis) {
  std::vector<array> out;
  std::int64_t n = a.shape()[axis];
  auto clamp = [n](std::int64_t x) {
    if (x < 0) x += n;
    return std::clamp<std::int64_t>(x, 0, n);
  };
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    std::int64_t s = clamp(points[i]), e = clamp(points[i + 1]);
    out.push_back(slice_axis(a, axis, s, std::max(s, e)));
  }
  return out;
}

std::vector<std::int64_t> section_points(std::int64_t n, std::int64_t sections) {
  if (sections <= 0) throw value_error("number sections must be larger than 0.");
  std::int64_t each = n / sections, extras = n % sections;
  std::vector<std::int64_t> points{0};
  for (std::int64_t i = 0; i < sections; ++i) points.push_back(points.back() + each + (i < extras ? 1 : 0));
  return points;
}

std::vector<std::int64_t> index_points(std::int64_t n, const std::vector<std::int64_t>& indices) {
  std::vector<std::int64_t> points{0};
  points.insert(points.end(), indices.begin(), indices.end());
  points.push_back(n);
  return points;
}

}  // namespace

std::vector<array> array_split(const array& a, std::int64_t sections, int axis) {
  int ax = split_axis(a, axis);
  return split_at(a, section_points(a.shape()[ax], sections), ax);
}

std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices, int axis) {
  int ax = split_axis(a, axis);
  return split_at(a, index_points(a.shape()[ax], indices), ax);
}

std::vector<array> split(const array& a, std::int64_t sections, int axis) {
  int ax = split_axis(a, axis);
  if (sections <= 0) throw value_error("number sections must be larger than 0.");
  if (a.shape()[ax] % sections != 0) throw value_error("array split does not result in an equal division");
  return array_split(a, sections, ax);
}

std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices, int axis) {
  return array_split(a, indices, axis);
}

std::vector<array> hsplit(const array& a, std::int64_t sections) {
  if (a.ndim() == 0) throw value_error("hsplit only works on arrays of 1 or more dimensions");
  return split(a, sections, a.ndim() > 1 ? 1 : 0);
}
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices) {
  if (a.ndim() == 0) throw value_error("hsplit only works on arrays of 1 or more dimensions");
  return split(a, indices, a.ndim() > 1 ? 1 : 0);
}
std::vector<array> vsplit(const array& a, std::int64_t sections) {
  if (a.ndim() < 2) throw value_error("vsplit only works on arrays of 2 or more dimensions");
  return split(a, sections, 0);
}
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices) {
  if (a.ndim() < 2) throw value_error("vsplit only works on arrays of 2 or more dimensions");
  return split(a, indices, 0);
}
std::vector<array> dsplit(const array& a, std::int64_t sections) {
  if (a.ndim() < 3) throw value_error("dsplit only works on arrays of 3 or more dimensions");
  return split(a, sections, 2);
}
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices) {
  if (a.ndim() < 3) throw value_error("dsplit only works on arrays of 3 or more dimensions");
  return split(a, indices, 2);
}

std::vector<array> unstack(const array& a, int axis) {
  if (a.ndim() == 0) throw value_error("Input array must be at least 1-d.");
  int ax = normalize_axis(axis, a.ndim());
  std::vector<array> out;
  for (std::int64_t i = 0; i < a.shape()[ax]; ++i)
    out.push_back(squeeze(slice_axis(a, ax, i, i + 1), std::vector<int>{ax}));
  return out;
}

}  // namespace cuarray
