// Rearranging elements: flip, rot90, roll, tile, repeat, insert, delete, trim_zeros and meshgrid.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/manip_kernels.hpp"
#include "src/ops/indexing_internal.hpp"
#include "src/ops/manipulation_internal.hpp"

namespace cuarray {

using detail::slice_axis;
using detail::with_layout;

array flip(const array& a, const std::optional<std::vector<int>>& axis) {
  std::vector<int> axes;
  if (axis) {
    axes = normalize_axis_tuple(*axis, a.ndim());
  } else {
    axes.resize(static_cast<std::size_t>(a.ndim()));
    std::iota(axes.begin(), axes.end(), 0);
  }
  strides_t strides = a.strides();
  std::int64_t off = a.offset();
  for (int ax : axes) {
    if (a.shape()[ax] > 0) off += (a.shape()[ax] - 1) * strides[ax];
    strides[ax] = -strides[ax];
  }
  return with_layout(a, a.shape(), std::move(strides), off);
}

array fliplr(const array& a) {
  if (a.ndim() < 2) throw value_error("Input must be >= 2-d.");
  return flip(a, std::vector<int>{1});
}

array flipud(const array& a) {
  if (a.ndim() < 1) throw value_error("Input must be >= 1-d.");
  return flip(a, std::vector<int>{0});
}

array rot90(const array& m, std::int64_t k, std::pair<int, int> axes) {
  auto [a0, a1] = axes;
  int n = m.ndim();
  if (a0 == a1 || std::abs(a0 - a1) == n) throw value_error("Axes must be different.");
  if (a0 >= n || a0 < -n || a1 >= n || a1 < -n) {
    throw value_error("Axes=(" + std::to_string(a0) + ", " + std::to_string(a1) +
                      ") out of range for array of ndim=" + std::to_string(n) + ".");
  }
  k = ((k % 4) + 4) % 4;
  if (k == 0) return m;
  if (k == 2) return flip(flip(m, std::vector<int>{a0}), std::vector<int>{a1});
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  int x = a0 < 0 ? a0 + n : a0, y = a1 < 0 ? a1 + n : a1;
  std::swap(perm[static_cast<std::size_t>(x)], perm[static_cast<std::size_t>(y)]);
  if (k == 1) return flip(m, std::vector<int>{a1}).transpose(perm);
  return flip(m.transpose(perm), std::vector<int>{a1});
}

array roll(const array& a, const std::vector<std::int64_t>& shift, const std::optional<std::vector<int>>& axis) {
  if (!axis) {
    array flat = ravel(a);
    return reshape(roll(flat, shift, std::vector<int>{0}), a.shape());
  }
  std::vector<int> axes = normalize_axis_tuple(*axis, a.ndim(), true);
  std::size_t n = std::max(shift.size(), axes.size());
  if ((shift.size() != n && shift.size() != 1) || (axes.size() != n && axes.size() != 1)) {
    throw value_error("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 "
                      "with shape (" +
                      std::to_string(shift.size()) + ",) and arg 1 with shape (" + std::to_string(axes.size()) + ",).");
  }
  std::vector<std::int64_t> shifts(static_cast<std::size_t>(a.ndim()), 0);
  for (std::size_t i = 0; i < n; ++i) {
    shifts[static_cast<std::size_t>(axes[axes.size() == 1 ? 0 : i])] += shift[shift.size() == 1 ? 0 : i];
  }
  array result = empty_like(a);
  if (a.size() == 0) return result;
  // Each rolled axis splits into two blocks; every combination of blocks is one copy.
  std::vector<int> rolled;
  for (int ax = 0; ax < a.ndim(); ++ax) {
    std::int64_t len = a.shape()[ax];
    std::int64_t off = ((shifts[static_cast<std::size_t>(ax)] % len) + len) % len;
    shifts[static_cast<std::size_t>(ax)] = off;
    if (off) rolled.push_back(ax);
  }
  for (std::size_t combo = 0; combo < (std::size_t{1} << rolled.size()); ++combo) {
    array src = a, dst = result;
    for (std::size_t r = 0; r < rolled.size(); ++r) {
      int ax = rolled[r];
      std::int64_t len = a.shape()[ax], off = shifts[static_cast<std::size_t>(ax)];
      if (combo & (std::size_t{1} << r)) {
        src = slice_axis(src, ax, len - off, len);
        dst = slice_axis(dst, ax, 0, off);
      } else {
        src = slice_axis(src, ax, 0, len - off);
        dst = slice_axis(dst, ax, off, len);
      }
    }
    dst.assign(src);
  }
  return result;
}

namespace {

// Note [row copy]: dst (shape, dst strides) <- src (same shape, src strides, 0 along broadcast axes) as a row copy
// when, after dropping unit axes and merging axes that chain on both sides, the innermost axis is contiguous on
// both sides and at least 1 KiB long (a block moves one tile of a row: shorter rows idle most of its threads). Returns false, copying nothing, otherwise.
bool try_rows_copy(const array& dst, const array& src, const shape_t& shape, const strides_t& ds, const strides_t& ss) {
  const auto item = static_cast<std::int64_t>(dst.itemsize());
  std::vector<std::int64_t> n, d, s;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (shape[i] == 1) continue;
    if (!n.empty() && d.back() == ds[i] * shape[i] && s.back() == ss[i] * shape[i]) {
      n.back() *= shape[i];
      d.back() = ds[i];
      s.back() = ss[i];
    } else {
      n.push_back(shape[i]);
      d.push_back(ds[i]);
      s.push_back(ss[i]);
    }
  }
  if (n.empty() || d.back() != item || s.back() != item || n.back() * item < 1024) return false;
  if (n.size() - 1 > static_cast<std::size_t>(detail::rows_max_ndim)) return false;
  detail::rows_copy_layout l;
  l.ndim = static_cast<int>(n.size()) - 1;
  // Rows are independent, so the outer axes may run in any order: broadcast axes (source stride 0) go innermost,
  // so that consecutive blocks copy the same source row and its repeats read it from L2, not from memory again.
  int at = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < l.ndim; ++i) {
      if ((s[i] == 0) != (pass == 1)) continue;
      l.shape[at] = n[i];
      l.dst_strides[at] = d[i];
      l.src_strides[at] = s[i];
      ++at;
    }
  }
  l.row_bytes = n.back() * item;
  cudaStream_t stream = detail::enter_device(dst.device());
  detail::launch_rows_copy(l, dst.data(), src.data(), stream);
  return true;
}

}  // namespace

array tile(const array& a_peer, const std::vector<std::int64_t>& reps_in) {
  const array a = detail::on_current_device(a_peer);  // Note [peer operands]
  int d = static_cast<int>(reps_in.size());
  array c = a.ndim() < d ? detail::prepend_unit_axes(a, d - a.ndim()) : a;
  std::vector<std::int64_t> reps(static_cast<std::size_t>(c.ndim() - d), 1);
  reps.insert(reps.end(), reps_in.begin(), reps_in.end());
  // NumPy repeats only non-empty input, so an empty one takes a negative rep where its dimension is 0 (the
  // result's is 0 too); a negative result dimension fails its final reshape.
  for (int i = 0; i < c.ndim(); ++i) {
    std::int64_t r = reps[static_cast<std::size_t>(i)];
    if (r < 0 && (c.size() != 0 || c.shape()[i] != 0)) throw value_error("negative dimensions are not allowed");
  }
  if (std::all_of(reps.begin(), reps.end(), [](std::int64_t r) { return r == 1; })) return c.copy(order::K);
  shape_t out_shape;
  for (int i = 0; i < c.ndim(); ++i) out_shape.push_back(c.shape()[i] * reps[static_cast<std::size_t>(i)]);
  array out = detail::new_array(c.type(), out_shape, order::C, c.device());
  if (out.size() == 0) return out;
  // The result as (r0, s0, r1, s1, ...) receives the input broadcast along every r axis: one copy.
  shape_t vshape;
  strides_t dst_strides, src_strides;
  for (int i = 0; i < c.ndim(); ++i) {
    std::int64_t r = reps[static_cast<std::size_t>(i)], s = c.shape()[i];
    vshape.push_back(r);
    vshape.push_back(s);
    dst_strides.push_back(s * out.strides()[i]);
    dst_strides.push_back(out.strides()[i]);
    src_strides.push_back(0);
    src_strides.push_back(c.strides()[i]);
  }
  if (try_rows_copy(out, c, vshape, dst_strides, src_strides)) return out;
  array dst = with_layout(out, vshape, dst_strides, out.offset());
  dst.assign(with_layout(c, vshape, src_strides, c.offset()));
  return out;
}

array repeat(const array& a, std::int64_t repeats, std::optional<int> axis) {
  return repeat(a, std::vector<std::int64_t>{repeats}, axis);
}

array repeat(const array& a_peer, const std::vector<std::int64_t>& repeats, std::optional<int> axis_in) {
  const array a_in = detail::on_current_device(a_peer);  // Note [peer operands]
  array a = axis_in ? a_in : ravel(a_in);
  int axis = axis_in ? normalize_axis(*axis_in, a.ndim()) : 0;
  std::int64_t n = a.shape()[axis];
  if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != n) {
    throw value_error("operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                      std::to_string(repeats.size()) + ",)");
  }
  // NumPy broadcasts repeats to the axis first: along an empty axis none is left to be negative.
  for (auto r : repeats) {
    if (r < 0 && n > 0) throw value_error("repeats may not contain negative values.");
  }
  shape_t shape = a.shape();
  if (repeats.size() == 1) {
    std::int64_t r = repeats[0];
    shape[axis] = n * r;
    array out = detail::new_array(a.type(), shape, order::C, a.device());
    if (out.size() == 0) return out;
    // Repeating along the last axis of a C-contiguous array (or a raveled one) repeats each element in place;
    // one thread writes the r copies of its element, so a large r (few threads, long serial loops) keeps the copy.
    if (a.is_c_contiguous() && axis == a.ndim() - 1 && r * static_cast<std::int64_t>(a.itemsize()) <= 256) {
      detail::launch_repeat_flat(out.data(), a.data(), a.size(), r, a.itemsize(), detail::enter_device(a.device()));
      return out;
    }
    // (…, n, r, …) <- (…, n, 1, …): one broadcasting copy.
    shape_t vshape;
    strides_t ds, ss;
    for (int i = 0; i < a.ndim(); ++i) {
      vshape.push_back(a.shape()[i]);
      ds.push_back(i == axis ? r * out.strides()[i] : out.strides()[i]);
      ss.push_back(a.strides()[i]);
      if (i == axis) {
        vshape.push_back(r);
        ds.push_back(out.strides()[i]);
        ss.push_back(0);
      }
    }
    if (try_rows_copy(out, a, vshape, ds, ss)) return out;
    array dst = with_layout(out, vshape, ds, out.offset());
    dst.assign(with_layout(a, vshape, ss, a.offset()));
    return out;
  }
  std::vector<std::int64_t> smap;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t k = 0; k < repeats[static_cast<std::size_t>(i)]; ++k) smap.push_back(i);
  }
  shape[axis] = static_cast<std::int64_t>(smap.size());
  array out = detail::new_array(a.type(), shape, order::C, a.device());
  detail::axis_map_copy(out, a, axis, shape[axis], {}, smap);
  return out;
}

// ---- insert and delete ------------------------------------------------------------------------------------------

namespace {

order result_order(const array& a) { return a.is_f_contiguous() && !a.is_c_contiguous() ? order::F : order::C; }

}  // namespace

array delete_(const array& arr_in_peer, const index_obj& obj, std::optional<int> axis_in) {
  const array arr_in = detail::on_current_device(arr_in_peer);  // Note [peer operands]
  array arr = axis_in ? arr_in : (arr_in.ndim() != 1 ? ravel(arr_in) : arr_in);
  int axis = axis_in ? normalize_axis(*axis_in, arr.ndim()) : arr.ndim() - 1;
  order o = result_order(arr);
  std::int64_t n = arr.shape()[axis];
  std::vector<char> keep(static_cast<std::size_t>(n), 1);
  switch (obj.kind) {
    case index_obj::slice: {
      std::int64_t s, e, st, len;
      detail::slice_indices(obj.start, obj.stop, obj.step, n, s, e, st, len);
      for (std::int64_t k = 0; k < len; ++k) keep[static_cast<std::size_t>(s + k * st)] = 0;
      break;
    }
    case index_obj::integer: {
      std::int64_t i = obj.index;
      if (i < -n || i >= n) {
        throw index_error("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                          " with size " + std::to_string(n));
      }
      keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = 0;
      break;
    }
    case index_obj::mask:
      if (static_cast<std::int64_t>(obj.indices.size()) != n) {
        throw value_error("boolean array argument obj to delete must be one dimensional and match the axis length "
                          "of " +
                          std::to_string(n));
      }
      for (std::int64_t i = 0; i < n; ++i)
        keep[static_cast<std::size_t>(i)] = !obj.indices[static_cast<std::size_t>(i)];
      break;
    case index_obj::list:
      for (std::int64_t i : obj.indices) {
        if (i < -n || i >= n) {
          throw index_error("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                            " with size " + std::to_string(n));
        }
        keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = 0;
      }
      break;
  }
  std::vector<std::int64_t> kept;
  for (std::int64_t i = 0; i < n; ++i) {
    if (keep[static_cast<std::size_t>(i)]) kept.push_back(i);
  }
  shape_t shape = arr.shape();
  shape[axis] = static_cast<std::int64_t>(kept.size());
  array out = detail::new_array(arr.type(), shape, o, arr.device());
  if (out.size() == 0) return out;
  // Few runs of kept positions (one index, a slice of step 1): one copy per run; else one gather.
  std::vector<std::pair<std::int64_t, std::int64_t>> runs;
  for (std::size_t j = 0; j < kept.size(); ++j) {
    if (!runs.empty() && runs.back().second == kept[j]) ++runs.back().second;
    else runs.emplace_back(kept[j], kept[j] + 1);
  }
  if (runs.size() <= 4) {
    std::int64_t at = 0;
    for (auto [s, e] : runs) {
      array dst = slice_axis(out, axis, at, at + (e - s));
      dst.assign(slice_axis(arr, axis, s, e));
      at += e - s;
    }
    return out;
  }
  detail::axis_map_copy(out, arr, axis, shape[axis], {}, kept);
  return out;
}

array insert(const array& arr_in_peer, const index_obj& obj, const array& values_in, std::optional<int> axis_in) {
  const array arr_in = detail::on_current_device(arr_in_peer);  // Note [peer operands]
  array arr = axis_in ? arr_in : (arr_in.ndim() != 1 ? ravel(arr_in) : arr_in);
  int axis = axis_in ? normalize_axis(*axis_in, arr.ndim()) : arr.ndim() - 1;
  order o = result_order(arr);
  std::int64_t n = arr.shape()[axis];
  array values = values_in.type() == arr.type() ? values_in : values_in.astype(arr.type(), order::K);
  std::vector<std::int64_t> indices;
  bool scalar_index = false;
  switch (obj.kind) {
    case index_obj::integer:
      indices = {obj.index};
      scalar_index = true;
      break;
    case index_obj::slice: {
      std::int64_t s, e, st, len;
      detail::slice_indices(obj.start, obj.stop, obj.step, n, s, e, st, len);
      for (std::int64_t k = 0; k < len; ++k) indices.push_back(s + k * st);
      break;
    }
    case index_obj::mask:
      for (std::size_t i = 0; i < obj.indices.size(); ++i) {
        if (obj.indices[i]) indices.push_back(static_cast<std::int64_t>(i));
      }
      break;
    case index_obj::list:
      indices = obj.indices;
      scalar_index = obj.list_is_scalar_shaped;
      break;
  }
  if (indices.size() == 1) {
    std::int64_t index = indices[0];
    if (index < -n || index > n) {
      throw index_error("index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
                        " with size " + std::to_string(n));
    }
    if (index < 0) index += n;
    // NumPy: values = array(values, ndmin=arr.ndim), moved to `axis` when the index is a scalar.
    array v = values.ndim() < arr.ndim() ? detail::prepend_unit_axes(values, arr.ndim() - values.ndim()) : values;
    if (scalar_index) v = moveaxis(v, {0}, {axis});
    std::int64_t numnew = v.shape()[axis];
    shape_t shape = arr.shape();
    shape[axis] += numnew;
    array out = detail::new_array(arr.type(), shape, o, arr.device());
    // The values' assignment first: it checks their shape even where the result is empty (NumPy's ValueError).
    slice_axis(out, axis, index, index + numnew).assign(v);
    if (out.size() == 0) return out;
    slice_axis(out, axis, 0, index).assign(slice_axis(arr, axis, 0, index));
    slice_axis(out, axis, index + numnew, shape[axis]).assign(slice_axis(arr, axis, index, n));
    return out;
  }
  for (auto& i : indices) {
    if (i < -n || i > n) {
      throw index_error("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                        " with size " + std::to_string(n + static_cast<std::int64_t>(indices.size())));
    }
    if (i < 0) i += n;
  }
  std::int64_t numnew = static_cast<std::int64_t>(indices.size());
  std::vector<std::size_t> perm(indices.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](std::size_t x, std::size_t y) { return indices[x] < indices[y]; });
  for (std::size_t k = 0; k < perm.size(); ++k) indices[perm[k]] += static_cast<std::int64_t>(k);
  shape_t shape = arr.shape();
  shape[axis] += numnew;
  std::vector<char> is_new(static_cast<std::size_t>(shape[axis]), 0);
  for (auto i : indices) is_new[static_cast<std::size_t>(i)] = 1;
  std::vector<std::int64_t> old_positions;
  for (std::int64_t j = 0; j < shape[axis]; ++j) {
    if (!is_new[static_cast<std::size_t>(j)]) old_positions.push_back(j);
  }
  array out = detail::new_array(arr.type(), shape, o, arr.device());
  shape_t vshape = shape;
  vshape[axis] = numnew;
  // NumPy assigns the values through the index array: their shape is checked even where the result is empty.
  array v = detail::fit_value(values, vshape);
  if (out.size() == 0) return out;
  if (v.shape() != vshape) v = v.broadcast_to(vshape);
  // Later duplicates win, as NumPy's assignment through an index array.
  detail::axis_map_copy(out, v, axis, numnew, indices, {});
  detail::axis_map_copy(out, arr, axis, n, old_positions, {});
  return out;
}

// ---- trim_zeros and meshgrid ------------------------------------------------------------------------------------

array trim_zeros(const array& filt, std::string_view trim_in, const std::optional<std::vector<int>>& axis) {
  std::string trim(trim_in);
  for (auto& ch : trim) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (trim != "fb" && trim != "bf" && trim != "f" && trim != "b") {
    throw value_error("unexpected character(s) in `trim`: '" + std::string(trim_in) + "'");
  }
  int nd = filt.ndim();
  std::vector<int> axes;
  if (axis) {
    axes = normalize_axis_tuple(*axis, nd);
  } else {
    for (int i = 0; i < nd; ++i) axes.push_back(i);
  }
  if (axes.empty()) return filt;
  // The bounding box of the nonzero elements, from a host copy of the mask (one byte per element).
  array mask = not_equal(filt, 0);
  std::vector<unsigned char> host(static_cast<std::size_t>(mask.size()));
  mask.copy_to_host(host, order::C);
  std::vector<std::int64_t> lo(static_cast<std::size_t>(nd), -1), hi(static_cast<std::size_t>(nd), -1);
  bool any = false;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(nd), 0);
  for (std::int64_t flat = 0; flat < mask.size(); ++flat) {
    if (host[static_cast<std::size_t>(flat)]) {
      std::int64_t rest = flat;
      for (int d = nd - 1; d >= 0; --d) {
        idx[static_cast<std::size_t>(d)] = rest % filt.shape()[d];
        rest /= filt.shape()[d];
      }
      for (int d = 0; d < nd; ++d) {
        auto i = idx[static_cast<std::size_t>(d)];
        auto& l = lo[static_cast<std::size_t>(d)];
        auto& h = hi[static_cast<std::size_t>(d)];
        if (!any || i < l) l = i;
        if (!any || i > h) h = i;
      }
      any = true;
    }
  }
  bool front = trim.find('f') != std::string::npos, back = trim.find('b') != std::string::npos;
  array r = filt;
  for (int d : axes) {
    std::int64_t s = 0, e = filt.shape()[d];
    if (!any) {
      s = e = 0;
    } else {
      if (front) s = lo[static_cast<std::size_t>(d)];
      if (back) e = hi[static_cast<std::size_t>(d)] + 1;
      if (e < s) e = s;
    }
    r = slice_axis(r, d, s, e);
  }
  return r;
}

std::vector<array> meshgrid(const std::vector<array>& xi, std::string_view indexing, bool sparse, bool copy) {
  if (indexing != "xy" && indexing != "ij") throw value_error("Valid values for `indexing` are 'xy' and 'ij'.");
  int nd = static_cast<int>(xi.size());
  std::vector<array> out;
  for (int i = 0; i < nd; ++i) {
    shape_t s(nd, 1);
    int pos = i;
    if (indexing == "xy" && nd > 1 && i < 2) pos = 1 - i;
    s[pos] = -1;
    out.push_back(reshape(xi[static_cast<std::size_t>(i)], s));
  }
  if (!sparse) out = broadcast_arrays(out);
  if (copy) {
    for (auto& a : out) a = a.copy(order::C);
  }
  return out;
}

}  // namespace cuarray
