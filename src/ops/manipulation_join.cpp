// Joining arrays: concatenate, the stack family, block and append; each input is copied once into its slice.
#include <algorithm>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/manip_kernels.hpp"
#include "src/ops/manipulation_internal.hpp"

namespace cuarray {

using detail::slice_axis;

namespace {

dtype join_dtype(const std::vector<array>& arrays, const join_options& o, const char* func) {
  if (o.out.defined() && o.dtype_) {
    throw type_error(std::string(func) + "() only takes `out` or `dtype` as an argument, but both were provided.");
  }
  dtype t = arrays[0].type();
  for (std::size_t i = 1; i < arrays.size(); ++i) t = promote_types(t, arrays[i].type());
  if (o.out.defined()) t = o.out.type();
  if (o.dtype_) t = *o.dtype_;
  for (const array& a : arrays) {
    if (!can_cast(a.type(), t, o.rule)) throw type_error(detail::cast_error_message(a.type(), t, o.rule));
  }
  return t;
}

// Note [batched join] for C-contiguous inputs of the output's dtype into a C-contiguous output: one launch for
// all inputs. Rows shorter than 512 bytes (column_stack of vectors, say) would leave a block nearly idle per row;
// those joins keep one strided copy per input. Returns false, copying nothing, when it does not apply.
bool batched_join(const std::vector<array>& arrays, const array& out, int axis) {
  if (out.size() == 0 || !out.is_c_contiguous()) return false;
  const auto item = static_cast<std::int64_t>(out.itemsize());
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= out.shape()[d];
  for (int d = axis + 1; d < out.ndim(); ++d) inner *= out.shape()[d];
  const std::int64_t pitch = out.shape()[axis] * inner * item;
  std::vector<detail::join_segment> segs;
  std::int64_t at = 0;
  for (const array& a : arrays) {
    const std::int64_t n = a.shape()[axis];
    if (n > 0) {
      if (a.type() != out.type() || !a.is_c_contiguous() || a.device() != out.device()) return false;
      detail::join_segment g;
      g.src = static_cast<const char*>(a.data());
      g.dst = static_cast<char*>(out.data()) + at * inner * item;
      g.row_bytes = n * inner * item;
      g.dst_pitch = pitch;
      g.rows = outer;
      if (outer > 1 && g.row_bytes < 512) return false;
      segs.push_back(g);
    }
    at += n;
  }
  if (segs.size() < 2) return false;
  cudaStream_t s = detail::enter_device(out.device());
  detail::launch_join_copy(segs.data(), static_cast<int>(segs.size()), s);
  return true;
}

}  // namespace

array concatenate(const std::vector<array>& arrays_in, std::optional<int> axis_in, const join_options& o) {
  if (arrays_in.empty()) throw value_error("need at least one array to concatenate");
  std::vector<array> arrays;
  if (!axis_in) {
    for (const array& a : arrays_in) arrays.push_back(ravel(detail::on_current_device(a), order::C));
  } else {
    // Note [peer operands]: every input on the current device, where the result is made.
    for (const array& a : arrays_in) arrays.push_back(detail::on_current_device(a));
  }
  int ndim = arrays[0].ndim();
  if (ndim == 0) throw value_error("zero-dimensional arrays cannot be concatenated");
  int axis = normalize_axis(axis_in.value_or(0), ndim);
  shape_t shape = arrays[0].shape();
  std::int64_t total = 0;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const array& a = arrays[i];
    if (a.ndim() != ndim) {
      throw value_error("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                        std::to_string(ndim) + " dimension(s) and the array at index " + std::to_string(i) + " has " +
                        std::to_string(a.ndim()) + " dimension(s)");
    }
    for (int d = 0; d < ndim; ++d) {
      if (d != axis && a.shape()[d] != shape[d]) {
        throw value_error("all the input array dimensions except for the concatenation axis must match exactly, but "
                          "along dimension " +
                          std::to_string(d) + ", the array at index 0 has size " + std::to_string(shape[d]) +
                          " and the array at index " + std::to_string(i) + " has size " + std::to_string(a.shape()[d]));
      }
    }
    total += a.shape()[axis];
  }
  shape[axis] = total;
  dtype t = join_dtype(arrays, o, "concatenate");
  array out = o.out;
  if (out.defined()) {
    if (out.shape() != shape) throw value_error("Output array is the wrong shape");
  } else {
    // NumPy keeps Fortran order when every input has it; C order otherwise.
    bool all_f = std::all_of(arrays.begin(), arrays.end(),
                             [](const array& a) { return a.is_f_contiguous() && !a.is_c_contiguous(); });
    out = detail::new_array(t, shape, all_f ? order::F : order::C, arrays[0].device());
  }
  if (batched_join(arrays, out, axis)) return out;
  std::int64_t at = 0;
  for (const array& a : arrays) {
    std::int64_t n = a.shape()[axis];
    if (n > 0) {
      array dst = slice_axis(out, axis, at, at + n);
      dst.assign(a);
    }
    at += n;
  }
  return out;
}

array stack(const std::vector<array>& arrays, int axis, const join_options& o) {
  if (arrays.empty()) throw value_error("need at least one array to stack");
  for (const array& a : arrays) {
    if (a.shape() != arrays[0].shape()) throw value_error("all input arrays must have the same shape");
  }
  int ax = normalize_axis(axis, arrays[0].ndim() + 1);
  std::vector<array> expanded;
  for (const array& a : arrays) expanded.push_back(expand_dims(a, {ax}));
  return concatenate(expanded, ax, o);
}

array vstack(const std::vector<array>& arrays, const join_options& o) {
  if (arrays.empty()) throw value_error("need at least one array to concatenate");
  std::vector<array> v;
  for (const array& a : arrays) v.push_back(atleast_2d(a));
  return concatenate(v, 0, o);
}

array row_stack(const std::vector<array>& arrays, const join_options& o) { return vstack(arrays, o); }

array hstack(const std::vector<array>& arrays, const join_options& o) {
  if (arrays.empty()) throw value_error("need at least one array to concatenate");
  std::vector<array> v;
  for (const array& a : arrays) v.push_back(atleast_1d(a));
  return concatenate(v, v[0].ndim() == 1 ? 0 : 1, o);
}

array dstack(const std::vector<array>& arrays) {
  if (arrays.empty()) throw value_error("need at least one array to concatenate");
  std::vector<array> v;
  for (const array& a : arrays) v.push_back(atleast_3d(a));
  return concatenate(v, 2);
}

array column_stack(const std::vector<array>& arrays) {
  if (arrays.empty()) throw value_error("need at least one array to concatenate");
  std::vector<array> v;
  for (const array& a : arrays) v.push_back(a.ndim() < 2 ? atleast_2d(a).transpose() : a);
  return concatenate(v, 1);
}

// ---- block ------------------------------------------------------------------------------------------------------

namespace {

// Depth of the nesting, checking NumPy's rules: no empty lists, every leaf at the same depth.
int block_depth(const block_item& b, const std::string& where, int& max_leaf_ndim) {
  if (!b.is_list) {
    max_leaf_ndim = std::max(max_leaf_ndim, b.leaf.ndim());
    return 0;
  }
  if (b.items.empty()) throw value_error("List at " + where + " cannot be empty");
  int first = -1;
  for (std::size_t i = 0; i < b.items.size(); ++i) {
    std::string here = where + "[" + std::to_string(i) + "]";
    int d = block_depth(b.items[i], here, max_leaf_ndim);
    if (first < 0) first = d;
    else if (d != first) {
      throw value_error("List depths are mismatched. First element was at depth " + std::to_string(first + 1) +
                        ", but there is an element at depth " + std::to_string(d + 1) + " (" + here + ")");
    }
  }
  return first + 1;
}

array block_level(const block_item& b, int level, int depth, int result_ndim) {
  if (!b.is_list) return detail::prepend_unit_axes(b.leaf, result_ndim - b.leaf.ndim());
  std::vector<array> parts;
  for (const block_item& c : b.items) parts.push_back(block_level(c, level + 1, depth, result_ndim));
  if (parts.size() == 1) return parts[0];
  return concatenate(parts, result_ndim - (depth - level));
}

}  // namespace

array block(const block_item& blocks) {
  int max_leaf = 0;
  int depth = block_depth(blocks, "arrays", max_leaf);
  int result_ndim = std::max(depth, max_leaf);
  array r = block_level(blocks, 0, depth, result_ndim);
  // NumPy's block always returns a new array, also for a single leaf.
  if (!blocks.is_list || r.storage() == blocks.items[0].leaf.storage() || depth == 0) return r.copy(order::C);
  bool shares = false;
  std::vector<const block_item*> stack{&blocks};
  while (!stack.empty() && !shares) {
    const block_item* b = stack.back();
    stack.pop_back();
    if (!b->is_list) shares = b->leaf.storage() == r.storage();
    for (const block_item& c : b->items) stack.push_back(&c);
  }
  return shares ? r.copy(order::C) : r;
}

array append(const array& arr, const array& values, std::optional<int> axis) {
  if (!axis) {
    array a = arr.ndim() != 1 ? ravel(arr) : arr;
    return concatenate({a, ravel(values)}, a.ndim() - 1);
  }
  return concatenate({arr, values}, *axis);
}

}  // namespace cuarray
