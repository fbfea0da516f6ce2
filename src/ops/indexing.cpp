// NumPy's indexing (basic views, integer- and boolean-array gathers and scatters) and take/put and friends.
#include "cuarray/indexing.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/kernel.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/select.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/index_kernels.hpp"
#include "src/ops/indexing_internal.hpp"
#include "src/ops/manipulation_internal.hpp"

namespace cuarray {

namespace {

std::string shape_text(const shape_t& s) {
  std::string out = "(";
  int n = static_cast<int>(s.size());
  for (int i = 0; i < n; ++i) out += std::to_string(s[i]) + (n == 1 || i + 1 < n ? "," : "");
  return out + ")";
}

// An index array of one source axis, before broadcasting.
struct advanced_axis {
  int view_axis;          // its axis in the prepared view
  int source_axis;        // its axis in the indexed array (for error messages)
  array idx;              // integer array
  bool in_range = false;  // made here (from a mask): needs no range check
};

// Note [index preparation]: a key is applied in two steps. Integers, slices and None make a strided view of the
// source in which every array-indexed axis is kept whole (`view`); the index arrays then select along those
// axes. NumPy's placement rule needs only whether the advanced entries of the key (arrays, 0-d bools, and
// integers once any array is present) stand next to each other in the key, which `adjacent` records, and how
// many plain view axes come before the first of them (`insert_at`).
struct prepared_key {
  array view;
  std::vector<advanced_axis> advanced;
  bool adjacent = true;
  int insert_at = 0;
};

bool is_integer_type(dtype t) { return is_integer(t); }

// The index array of a 0-d bool: [0] (True) or [] (False) into the unit axis it adds.
array unit_index(bool selected, int device) {
  array idx = detail::new_array(int64, shape_t{selected ? 1 : 0}, order::C, device);
  if (selected) idx.fill(scalar::from_int(0));
  return idx;
}

prepared_key prepare(const array& a, const index_key& key) {
  int consumed = 0, ellipses = 0;
  bool any_array = false;
  for (const index_item& it : key) {
    switch (it.k) {
      case index_item::kind::ellipsis: ++ellipses; break;
      case index_item::kind::newaxis: break;
      case index_item::kind::boolean: any_array = true; break;
      case index_item::kind::array:
        any_array = true;
        if (!it.arr.defined()) throw index_error("an index array is undefined");
        if (it.arr.type() == bool_) consumed += std::max(it.arr.ndim(), 0);
        else if (is_integer_type(it.arr.type())) consumed += 1;
        else throw index_error("arrays used as indices must be of integer (or boolean) type");
        break;
      default: ++consumed;
    }
  }
  if (ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim()) {
    throw index_error("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                      std::to_string(consumed) + " were indexed");
  }
  prepared_key p;
  descriptor d;
  d.type = a.type();
  d.offset = a.offset();
  int axis = 0;
  int first_adv = -1, last_adv = -1, advanced_items = 0;
  auto mark_advanced = [&](int position) {
    if (first_adv < 0) {
      first_adv = position;
      p.insert_at = d.ndim();
    }
    last_adv = position;
    ++advanced_items;
  };
  for (int pos = 0; pos < static_cast<int>(key.size()); ++pos) {
    const index_item& it = key[pos];
    switch (it.k) {
      case index_item::kind::ellipsis:
        for (int k = a.ndim() - consumed; k > 0; --k, ++axis) {
          d.shape.push_back(a.shape()[axis]);
          d.strides.push_back(a.strides()[axis]);
        }
        break;
      case index_item::kind::newaxis:
        d.shape.push_back(1);
        d.strides.push_back(0);
        break;
      case index_item::kind::slice: {
        std::int64_t s, e, st, len;
        detail::slice_indices(it.start, it.stop, it.step, a.shape()[axis], s, e, st, len);
        if (len > 0) d.offset += s * a.strides()[axis];
        d.shape.push_back(len);
        d.strides.push_back(a.strides()[axis] * st);
        ++axis;
        break;
      }
      case index_item::kind::integer: {
        std::int64_t n = a.shape()[axis], i = it.value;
        if (i < -n || i >= n) {
          throw index_error("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                            " with size " + std::to_string(n));
        }
        if (i < 0) i += n;
        d.offset += i * a.strides()[axis];
        if (any_array) mark_advanced(pos);
        ++axis;
        break;
      }
      case index_item::kind::boolean: {
        mark_advanced(pos);
        // A 0-d bool adds a unit axis selected once (True) or never (False).
        p.advanced.push_back({d.ndim(), -1, unit_index(it.value != 0, a.device()), true});
        d.shape.push_back(1);
        d.strides.push_back(0);
        break;
      }
      case index_item::kind::array: {
        mark_advanced(pos);
        const array& arr = it.arr;
        if (arr.type() == bool_) {
          for (int k = 0; k < arr.ndim(); ++k) {
            if (arr.shape()[k] != a.shape()[axis + k]) {
              throw index_error("boolean index did not match indexed array along axis " + std::to_string(axis + k) +
                                "; size of axis is " + std::to_string(a.shape()[axis + k]) +
                                " but size of corresponding boolean axis is " + std::to_string(arr.shape()[k]));
            }
          }
          if (arr.ndim() == 0) {
            // A 0-d bool array acts as a Python bool.
            bool v = arr.host_value<bool>();
            p.advanced.push_back({d.ndim(), -1, unit_index(v, a.device()), true});
            d.shape.push_back(1);
            d.strides.push_back(0);
            break;
          }
          std::vector<array> coords = nonzero(arr);
          for (int k = 0; k < arr.ndim(); ++k, ++axis) {
            p.advanced.push_back({d.ndim(), axis, coords[k], true});
            d.shape.push_back(a.shape()[axis]);
            d.strides.push_back(a.strides()[axis]);
          }
        } else {
          p.advanced.push_back({d.ndim(), axis, arr, false});
          d.shape.push_back(a.shape()[axis]);
          d.strides.push_back(a.strides()[axis]);
          ++axis;
        }
        break;
      }
    }
  }
  for (; axis < a.ndim(); ++axis) {
    d.shape.push_back(a.shape()[axis]);
    d.strides.push_back(a.strides()[axis]);
  }
  p.adjacent = first_adv < 0 || last_adv - first_adv + 1 == advanced_items;
  if (!p.adjacent) p.insert_at = 0;
  p.view = array(a.storage(), std::move(d));
  return p;
}

}  // namespace

void detail::check_index_key(const array& a, const index_key& key) { prepare(a, key); }

array detail::fit_value(array val, const shape_t& result_shape) {
  while (val.ndim() > static_cast<int>(result_shape.size()) && val.shape()[0] == 1) {
    val = val.reshape(shape_t(val.shape().begin() + 1, val.shape().end()));
  }
  shape_t common;
  try {
    common = broadcast_shapes({val.shape(), result_shape});
  } catch (const value_error&) {
    common.clear();
  }
  if (common != result_shape) {
    throw value_error("shape mismatch: value array of shape " + shape_text(val.shape()) +
                      " could not be broadcast to indexing result of shape " + shape_text(result_shape));
  }
  return val;
}

namespace {

// Note [index modes]: by default an out-of-range value in an index array wraps around (CuPy's choice: no
// synchronisation, and never a read or write outside the array); CUARRAY_CHECK_INDEX=1 or mode raise inspects
// the indices first (one synchronisation) and raises NumPy's IndexError.
void check_range(const array& idx, std::int64_t n, int source_axis) {
  if (idx.size() == 0) return;
  std::int64_t lo = amin(idx).astype(int64).host_value<std::int64_t>();
  std::int64_t hi = amax(idx).astype(int64).host_value<std::int64_t>();
  std::int64_t bad = lo < -n ? lo : (hi >= n ? hi : 0);
  if (lo < -n || hi >= n) {
    throw index_error("index " + std::to_string(bad) + " is out of bounds for axis " +
                      std::to_string(std::max(source_axis, 0)) + " with size " + std::to_string(n));
  }
}

// One fused kernel folding k index arrays into byte offsets, per mode and count of arrays.
const elementwise_kernel& offsets_kernel(int k, bool clip) {
  static std::mutex m;
  static std::map<std::pair<int, bool>, elementwise_kernel> cache;
  std::lock_guard<std::mutex> lock(m);
  auto found = cache.find({k, clip});
  if (found != cache.end()) return found->second;
  std::string in, body = "long long o = 0, t;\n";
  for (int j = 0; j < k; ++j) {
    std::string s = std::to_string(j);
    in += "int64 i" + s + ", ";
    body += "t = i" + s + ";\n";
    if (clip) body += "t = t < 0 ? 0 : (t >= n" + s + " ? n" + s + " - 1 : t);\n";
    else body += "if (t < 0 || t >= n" + s + ") { t %= n" + s + "; if (t < 0) t += n" + s + "; }\n";
    body += "o += t * s" + s + ";\n";
  }
  for (int j = 0; j < k; ++j) in += "int64 n" + std::to_string(j) + ", int64 s" + std::to_string(j) + ", ";
  in.resize(in.size() - 2);
  body += "out = o;";
  auto [it,
        _] = cache.emplace(std::pair<int, bool>{k, clip},
                           elementwise_kernel(in, "int64 out", body, clip ? "index_offsets_clip" : "index_offsets"));
  return it->second;
}

// A C-contiguous index array of int32 or int64 (the kernel's two widths).
array index_as_kernel_type(const array& idx) {
  dtype t = idx.type() == int32 ? int32 : int64;
  return idx.astype(t, order::C, false);
}

// The plain side's byte stride for the flattened broadcast dimensions [from, from+nb_dims) of `shape`/`strides`,
// or false when they do not flatten.
bool flat_stride(const shape_t& shape, const strides_t& strides, int from, int count, std::int64_t& out) {
  std::int64_t expect = 0;
  bool have = false;
  for (int j = from + count - 1; j >= from; --j) {
    if (shape[j] == 1) continue;
    if (!have) {
      out = strides[j];
      expect = strides[j] * shape[j];
      have = true;
    } else if (strides[j] != expect) {
      return false;
    } else {
      expect *= shape[j];
    }
  }
  if (!have) out = 0;
  return true;
}

// The loop of Note [index copy] for the prepared key; `plain` has the result's shape (gather: the output; scatter:
// the value broadcast), and its broadcast dimensions flatten (checked by the callers).
struct index_plan {
  prepared_key key;
  shape_t b_shape;         // broadcast shape of the index arrays
  shape_t result_shape;    // NumPy's result shape
  std::vector<int> plain;  // view axes not indexed by arrays, in order
  array index;             // int32/int64 indices (one array) or int64 byte offsets (several), C order, b_shape
  bool offsets = false;
  std::int64_t len = 0, stride = 0;
};

// `value` (for an assignment) is fitted to the result shape before any index is checked against its axis:
// NumPy reports a value of the wrong shape before an out-of-range index.
index_plan plan_advanced(const array& a, prepared_key key, index_mode mode, array* value = nullptr) {
  index_plan plan;
  std::vector<shape_t> shapes;
  for (const advanced_axis& ax : key.advanced) shapes.push_back(ax.idx.shape());
  try {
    plan.b_shape = broadcast_shapes(shapes);
  } catch (const value_error&) {
    std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes";
    for (const shape_t& s : shapes) msg += " " + shape_text(s);
    throw index_error(msg);
  }
  std::int64_t nb = shape_size(plan.b_shape);
  const array& v = key.view;
  std::vector<bool> is_adv(v.ndim(), false);
  for (const advanced_axis& ax : key.advanced) is_adv[ax.view_axis] = true;
  for (int d = 0; d < v.ndim(); ++d) {
    if (!is_adv[d]) plan.plain.push_back(d);
  }
  for (int j = 0; j < static_cast<int>(plan.plain.size()); ++j) {
    if (j == key.insert_at) {
      for (std::int64_t n : plan.b_shape) plan.result_shape.push_back(n);
    }
    plan.result_shape.push_back(v.shape()[plan.plain[j]]);
  }
  if (key.insert_at >= static_cast<int>(plan.plain.size())) {
    for (std::int64_t n : plan.b_shape) plan.result_shape.push_back(n);
  }
  if (value) *value = detail::fit_value(*value, plan.result_shape);
  // NumPy checks no index array whose broadcast shape is empty ("all indices got broadcast away").
  for (const advanced_axis& ax : key.advanced) {
    if (nb == 0) break;
    std::int64_t n = v.shape()[ax.view_axis];
    if (n == 0 && ax.idx.size() > 0) {
      // Nothing is in range of an empty axis: NumPy's IndexError whatever the mode.
      std::int64_t first = ax.idx.astype(int64).host_value<std::int64_t>();
      throw index_error("index " + std::to_string(first) + " is out of bounds for axis " +
                        std::to_string(std::max(ax.source_axis, 0)) + " with size 0");
    }
    if (mode == index_mode::raise && !ax.in_range) check_range(ax.idx, n, ax.source_axis);
  }
  if (nb > 0 && shape_size(plan.result_shape) > 0) {
    if (key.advanced.size() == 1) {
      const advanced_axis& ax = key.advanced[0];
      plan.index = index_as_kernel_type(ax.idx.broadcast_to(plan.b_shape));
      plan.len = v.shape()[ax.view_axis];
      plan.stride = v.strides()[ax.view_axis];
    } else {
      // The offsets kernel takes three operands per index array, so more than three arrays would pass the
      // elementwise engine's operand limit: groups of at most three are folded apart and their offsets summed
      // (each index wraps or clips on its own, so the sum is exact).
      constexpr std::size_t group = 3;
      const std::size_t count = key.advanced.size();
      for (std::size_t g0 = 0; g0 < count; g0 += group) {
        const std::size_t g1 = std::min(count, g0 + group);
        std::vector<ufunc_arg> args;
        for (std::size_t j = g0; j < g1; ++j) {
          args.emplace_back(key.advanced[j].idx.astype(int64, order::K, false).broadcast_to(plan.b_shape));
        }
        for (std::size_t j = g0; j < g1; ++j) {
          args.emplace_back(scalar::from_int(v.shape()[key.advanced[j].view_axis]));
          args.emplace_back(scalar::from_int(v.strides()[key.advanced[j].view_axis]));
        }
        args.emplace_back(detail::new_array(int64, plan.b_shape, order::C, a.device()));
        array part = offsets_kernel(static_cast<int>(g1 - g0), mode == index_mode::clip).call(args)[0];
        plan.index = g0 == 0 ? part : add(plan.index, part);
      }
      plan.offsets = true;
    }
  }
  plan.key = std::move(key);
  return plan;
}

// Runs the loop with the plain side's strides for the result's dimensions; splits rest dimensions beyond the
// kernel's limit over host loops.
void run_plan(const index_plan& plan, const array& plain, bool scatter, const scalar* constant, index_mode mode) {
  const array& v = plan.key.view;
  int b_dims = static_cast<int>(plan.b_shape.size());
  detail::index_copy_params p;
  p.nb = shape_size(plan.b_shape);
  if (p.nb == 0 || shape_size(plan.result_shape) == 0) return;
  if (!flat_stride(plain.shape(), plain.strides(), plan.key.insert_at, b_dims, p.p_b)) {
    throw std::logic_error("index plan: the plain side's index dimensions do not flatten");
  }
  // Rest dimensions: result axis of each plain view axis, dropped when of length 1, merged when both sides chain.
  std::vector<std::int64_t> shape, si, sp;
  for (int j = 0; j < static_cast<int>(plan.plain.size()); ++j) {
    int r = j < plan.key.insert_at ? j : j + b_dims;
    std::int64_t n = v.shape()[plan.plain[j]];
    if (n == 1) continue;
    std::int64_t a_i = v.strides()[plan.plain[j]], a_p = plain.strides()[r];
    if (!shape.empty() && si.back() == a_i * n && sp.back() == a_p * n) {
      shape.back() *= n;
      si.back() = a_i;
      sp.back() = a_p;
    } else {
      shape.push_back(n);
      si.push_back(a_i);
      sp.push_back(a_p);
    }
  }
  p.idx = plan.index.data();
  p.idx_width = static_cast<int>(plan.index.itemsize());
  p.offsets = plan.offsets;
  p.clip = mode == index_mode::clip;
  p.len = plan.len;
  p.stride = plan.stride;
  p.p_constant = constant != nullptr;
  if (constant) std::copy(constant->bytes, constant->bytes + 16, p.constant);
  cudaStream_t s = detail::enter_device(v.device());
  char* i_base = static_cast<char*>(v.data());
  char* p_base = static_cast<char*>(plain.data());
  int extra = std::max(0, static_cast<int>(shape.size()) - detail::index_max_rest);
  // Host loop over the `extra` outermost rest dimensions.
  std::vector<std::int64_t> counter(extra, 0);
  while (true) {
    std::int64_t oi = 0, op = 0;
    for (int d = 0; d < extra; ++d) {
      oi += counter[d] * si[d];
      op += counter[d] * sp[d];
    }
    p.i_base = i_base + oi;
    p.p_base = p_base + op;
    p.rest_ndim = static_cast<int>(shape.size()) - extra;
    p.rest_size = 1;
    for (int d = 0; d < p.rest_ndim; ++d) {
      p.rest_shape[d] = shape[extra + d];
      p.rest_i[d] = si[extra + d];
      p.rest_p[d] = sp[extra + d];
      p.rest_size *= shape[extra + d];
    }
    detail::launch_index_copy(v.itemsize(), scatter, p, s);
    int d = extra - 1;
    for (; d >= 0; --d) {
      if (++counter[d] < shape[d]) break;
      counter[d] = 0;
    }
    if (d < 0) break;
  }
}

bool has_array(const index_key& key) {
  for (const index_item& it : key) {
    if (it.k == index_item::kind::array || it.k == index_item::kind::boolean) return true;
  }
  return false;
}

// The single bool mask `a[mask]` with a's leading dimensions, as a mask over all of a (unit trailing axes).
std::optional<array> whole_mask(const array& a, const index_key& key) {
  if (key.size() != 1 || key[0].k != index_item::kind::array || key[0].arr.type() != bool_) return std::nullopt;
  const array& m = key[0].arr;
  if (m.ndim() == 0 || m.ndim() > a.ndim()) return std::nullopt;
  for (int d = 0; d < m.ndim(); ++d) {
    if (m.shape()[d] != a.shape()[d]) return std::nullopt;  // the general path raises NumPy's error
  }
  shape_t s = m.shape();
  for (int d = m.ndim(); d < a.ndim(); ++d) s.push_back(1);
  return m.reshape(s);
}

void scatter(const array& a, const index_key& key, const array* value, const scalar* constant, index_mode mode) {
  array val = value ? *value : array();
  index_plan plan = plan_advanced(a, prepare(a, key), mode, value ? &val : nullptr);
  if (constant) {
    scalar c = constant->cast(a.type());
    // The plain side is never read: a descriptor without storage gives the loop its (zero) strides.
    descriptor none{a.type(), plan.result_shape, strides_t(plan.result_shape.size(), 0), 0};
    run_plan(plan, array(storage_ptr(), std::move(none)), true, &c, mode);
    return;
  }
  if (shape_size(plan.result_shape) == 0) return;
  if (val.type() != a.type() || detail::may_overlap(val, a)) val = val.astype(a.type(), order::K, true);
  array plain = val.broadcast_to(plan.result_shape);
  std::int64_t unused;
  if (!flat_stride(plain.shape(), plain.strides(), plan.key.insert_at, static_cast<int>(plan.b_shape.size()), unused)) {
    plain = plain.copy(order::C);
  }
  run_plan(plan, plain, true, nullptr, mode);
}

}  // namespace

index_mode default_index_mode() {
  static const index_mode mode = [] {
    const char* v = std::getenv("CUARRAY_CHECK_INDEX");
    return v && *v && std::string(v) != "0" ? index_mode::raise : index_mode::wrap;
  }();
  return mode;
}

index_mode parse_index_mode(std::string_view s) {
  if (s == "wrap") return index_mode::wrap;
  if (s == "clip") return index_mode::clip;
  if (s == "raise") return index_mode::raise;
  throw value_error("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + std::string(s) + "')");
}

array getitem(const array& a_in, const index_key& key, index_mode mode) {
  if (!has_array(key)) return prepare(a_in, key).view;
  const array a = detail::on_current_device(a_in);  // CuPy: a gather lands on the current device
  if (key.size() == 1 && key[0].k == index_item::kind::array && key[0].arr.type() == bool_ && key[0].arr.ndim() > 0) {
    return compress_mask(a, key[0].arr);
  }
  index_plan plan = plan_advanced(a, prepare(a, key), mode);
  array out = detail::new_array(a.type(), plan.result_shape, order::C, a.device());
  run_plan(plan, out, false, nullptr, mode);
  return out;
}

void setitem(const array& a, const index_key& key, const array& value, index_mode mode) {
  if (!has_array(key)) {
    array view = prepare(a, key).view;
    view.assign(value);  // broadcasting, casting and overlap handled there
    return;
  }
  if (key.size() == 1 && value.ndim() > 1) {
    // A lone boolean index as deep as the array (NumPy's boolean-subscript assignment; a Python bool counts for
    // a 0-d array) takes a value of at most one dimension, once the key itself has passed NumPy's parsing.
    const index_item& it = key[0];
    const int bool_ndim = it.k == index_item::kind::boolean                           ? 0
                          : it.k == index_item::kind::array && it.arr.type() == bool_ ? it.arr.ndim()
                                                                                      : -1;
    if (bool_ndim == a.ndim()) {
      prepare(a, key);
      throw type_error("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has " +
                       std::to_string(value.ndim()) + " dimensions");
    }
  }
  if (std::optional<array> mask = whole_mask(a, key)) {
    // a[mask] = v where v broadcasts to the selected rows' shape needs no count: a masked copy.
    int k = key[0].arr.ndim();
    array v = value;
    while (v.ndim() > a.ndim() - k && v.ndim() > 0 && v.shape()[0] == 1)
      v = v.reshape(shape_t(v.shape().begin() + 1, v.shape().end()));
    if (v.ndim() <= a.ndim() - k) {
      shape_t inner(a.shape().begin() + k, a.shape().end());
      try {
        if (broadcast_shapes({v.shape(), inner}) == inner) {
          copyto(a, ufunc_arg(v), casting::unsafe, *mask);
          return;
        }
      } catch (const value_error&) {
        // falls through to the general path, which raises NumPy's message
      }
    }
  }
  scatter(a, key, &value, nullptr, mode);
}

void setitem(const array& a, const index_key& key, const scalar& value, index_mode mode) {
  if (!has_array(key)) {
    array view = prepare(a, key).view;
    view.fill(value.cast(a.type()));
    return;
  }
  if (std::optional<array> mask = whole_mask(a, key)) {
    copyto(a, ufunc_arg(value.cast(a.type())), casting::unsafe, *mask);
    return;
  }
  scatter(a, key, nullptr, &value, mode);
}

// --------------------------------------------------------------------------------------------------------------

namespace {

index_key along(int axis, const array& idx) {
  index_key key(axis, index_item::all());
  key.push_back(index_item::of(idx));
  return key;
}

}  // namespace

array take(const array& a_in, const array& indices_in, std::optional<int> axis, index_mode mode, const array& out) {
  if (!is_integer(indices_in.type())) {
    throw type_error("Cannot cast array data from dtype('" + std::string(name(indices_in.type())) +
                     "') to dtype('int64') according to the rule 'safe'");
  }
  // CuPy: the result is on the current device.
  const array a = detail::on_current_device(a_in), indices = detail::on_current_device(indices_in);
  array src = axis ? a : a.reshape(shape_t{-1});
  int ax = axis ? normalize_axis(*axis, a.ndim()) : 0;
  // NumPy's take (PyArray_TakeFrom): an empty axis refuses a non-empty result in every mode, and the indices
  // are checked in its loop over the axes before `axis` with each index, so none is when those axes are empty.
  shape_t rshape;
  std::int64_t outer = 1;
  for (int d = 0; d < ax; ++d) {
    rshape.push_back(src.shape()[d]);
    outer *= src.shape()[d];
  }
  for (std::int64_t n : indices.shape()) rshape.push_back(n);
  for (int d = ax + 1; d < src.ndim(); ++d) rshape.push_back(src.shape()[d]);
  if (src.shape()[ax] == 0 && shape_size(rshape) != 0) {
    throw index_error("cannot do a non-empty take from an empty axes.");
  }
  array result = outer == 0 ? detail::new_array(a.type(), rshape, order::C, a.device())
                            : getitem(src, along(ax, indices), mode);
  if (!out.defined()) return result;
  if (out.shape() != result.shape()) throw value_error("output array does not match result of ndarray.take");
  array dst = out;
  dst.assign(result);
  return dst;
}

void put(const array& a, const array& ind, const array& v, index_mode mode) {
  if (!is_integer(ind.type())) {
    throw type_error("Cannot cast array data from dtype('" + std::string(name(ind.type())) +
                     "') to dtype('int64') according to the rule 'safe'");
  }
  if (ind.size() == 0 || v.size() == 0) return;
  if (a.size() == 0) throw index_error("cannot replace elements of an empty array");
  array flat_ind = ind.reshape(shape_t{-1});
  array vals = v.reshape(shape_t{-1});
  if (vals.size() != flat_ind.size()) vals = resize(vals, shape_t{flat_ind.size()});
  if (a.is_c_contiguous()) {
    setitem(a.reshape_view(shape_t{a.size()}), index_key{index_item::of(flat_ind)}, vals, mode);
    return;
  }
  array tmp = a.copy(order::C);
  setitem(tmp.reshape_view(shape_t{a.size()}), index_key{index_item::of(flat_ind)}, vals, mode);
  array dst = a;
  dst.assign(tmp);
}

namespace {

// NumPy's _make_along_axis_idx: the full index tuple selecting `indices` along `axis`.
index_key along_axis_key(const array& a, const array& indices, int axis) {
  if (!is_integer(indices.type())) throw index_error("`indices` must be an integer array");
  if (indices.ndim() != a.ndim()) {
    throw value_error("`indices` and `arr` must have the same number of dimensions");
  }
  index_key key;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis) {
      key.push_back(index_item::of(indices));
      continue;
    }
    shape_t s(a.ndim(), 1);
    s[d] = a.shape()[d];
    key.push_back(index_item::of(arange(0, static_cast<double>(a.shape()[d]), 1, int64).reshape(s)));
  }
  return key;
}

}  // namespace

array take_along_axis(const array& a, const array& indices, std::optional<int> axis) {
  if (!axis) {
    if (indices.ndim() != 1) throw value_error("when axis=None, `indices` must have a single dimension.");
    return take_along_axis(a.reshape(shape_t{-1}), indices, 0);
  }
  int ax = normalize_axis(*axis, a.ndim());
  return getitem(a, along_axis_key(a, indices, ax));
}

void put_along_axis(const array& a, const array& indices, const array& values, std::optional<int> axis) {
  if (!axis) {
    if (indices.ndim() != 1) throw value_error("when axis=None, `indices` must have a single dimension.");
    if (!a.is_c_contiguous()) {
      array tmp = a.copy(order::C);
      put_along_axis(tmp, indices, values, axis);
      array dst = a;
      dst.assign(tmp);
      return;
    }
    setitem(a.reshape_view(shape_t{a.size()}), along_axis_key(a.reshape_view(shape_t{a.size()}), indices, 0), values);
    return;
  }
  int ax = normalize_axis(*axis, a.ndim());
  setitem(a, along_axis_key(a, indices, ax), values);
}

array compress(const array& condition, const array& a, std::optional<int> axis, const array& out) {
  if (condition.ndim() != 1) throw value_error("condition must be a 1-d array");
  array src = axis ? a : a.reshape(shape_t{-1});
  int ax = axis ? normalize_axis(*axis, a.ndim()) : 0;
  std::int64_t n = src.shape()[ax];
  array cond = condition;
  if (cond.size() > n) {
    array beyond = flatnonzero(detail::slice_axis(cond, 0, n, cond.size()));
    if (beyond.size() > 0) {
      std::int64_t first = beyond.host_value<std::int64_t>();  // the first one only
      throw index_error("index " + std::to_string(n + first) + " is out of bounds for axis " + std::to_string(ax) +
                        " with size " + std::to_string(n));
    }
    cond = detail::slice_axis(cond, 0, 0, n);
  }
  array idx = flatnonzero(cond);
  return take(src, idx, ax, index_mode::wrap, out);
}

void place(const array& a, const array& mask, const array& vals) {
  if (mask.size() != a.size()) throw value_error("place: mask and data must be the same size");
  array flat_mask = mask.reshape(shape_t{-1});
  array idx = flatnonzero(flat_mask);
  if (idx.size() == 0) return;
  if (vals.size() == 0) throw value_error("Cannot insert from an empty array!");
  put(a, idx, vals, index_mode::wrap);
}

void putmask(const array& a, const array& mask, const array& values) {
  if (mask.size() != a.size()) throw value_error("putmask: mask and data must be the same size");
  if (a.size() == 0 || values.size() == 0) return;
  array m = mask.reshape(a.shape());
  array v = values.shape() == a.shape() ? values : resize(values.reshape(shape_t{-1}), a.shape());
  copyto(a, ufunc_arg(v), casting::unsafe, m.type() == bool_ ? m : m.astype(bool_));
}

}  // namespace cuarray
