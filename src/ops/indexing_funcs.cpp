// Index-producing functions and diagonals/triangles, as views where NumPy's are and run-time compiled kernels elsewhere.
#include "cuarray/index_funcs.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/select.hpp"
#include "src/core/internal.hpp"
#include "src/engine/elementwise.hpp"
#include "src/engine/ufunc.hpp"

namespace cuarray {

namespace {

// Note [index funcs kernels]
// The kernels here are elementwise-engine specs (src/engine/elementwise.hpp). Those that need an element's
// position (triangles, triangle indices, choose) set c_order_index and read `i`, the flat C-order index of
// the iteration shape. Per-call tables (choose's choice pointers and strides, ravel/unravel's dimensions)
// travel as a raw int64 operand; errors found on the device (raise modes) are written to a one-element raw
// output that the host reads back: the only synchronisation, and only where NumPy must raise.
const char* const k_preamble = R"CUDA(
// Elements of rows [0, r) when row t keeps clamp(t + a, 0, m) of its columns; closed form, no loop.
CA_FN long long ca_idx_clamp(long long v, long long lo, long long hi) { return v < lo ? lo : (v > hi ? hi : v); }
CA_FN long long ca_idx_keep_sum(long long r, long long a, long long m) {
  long long t0 = ca_idx_clamp(-a, 0, r);     // rows before t0 keep nothing
  long long t1 = ca_idx_clamp(m - a, t0, r);  // rows from t1 keep all m columns
  return (t1 - t0) * (t0 + t1 - 1 + 2 * a) / 2 + (r - t1) * m;
}
// Elements of rows [0, r) of tril (lower) or triu of an (n, m) matrix, diagonal k.
CA_FN long long ca_idx_tri_prefix(long long r, long long m, long long k, bool lower) {
  return lower ? ca_idx_keep_sum(r, k + 1, m) : r * m - ca_idx_keep_sum(r, k, m);
}
// One coordinate as NumPy's ravel_multi_index_loop treats it: mode 0 wrap, 1 clip, 2 raise (flags `bad`).
CA_FN long long ca_idx_ravel_coord(long long j, long long m, long long mode, bool& bad) {
  if (mode == 2) {
    if (j < 0 || j >= m) { bad = true; return 0; }
  } else if (mode == 0) {
    if (j < 0) {
      j += m;
      if (j < 0) { j = j % m; if (j != 0) j += m; }
    } else if (j >= m) {
      j -= m;
      if (j >= m) j = j % m;
    }
  } else {
    if (j < 0) j = 0;
    else if (j >= m) j = m - 1;
  }
  return j;
}
)CUDA";

constexpr int mode_wrap = 0, mode_clip = 1, mode_raise = 2;  // as the kernels number them

int mode_code(index_mode m) {
  switch (m) {
    case index_mode::wrap: return mode_wrap;
    case index_mode::clip: return mode_clip;
    default: return mode_raise;
  }
}

// Specs built at run time keep their strings here for the life of the process (the engine holds views).
const ew::kernel_spec& make_spec(const std::string& name, const std::string& body, bool c_order) {
  struct entry {
    std::string name, body;
    ew::kernel_spec spec;
  };
  static std::mutex m;
  static auto* store = new std::vector<std::unique_ptr<entry>>();
  std::lock_guard<std::mutex> lock(m);
  for (auto& e : *store) {
    if (e->name == name && e->body == body && e->spec.c_order_index == c_order) return e->spec;
  }
  auto e = std::make_unique<entry>();
  e->name = name;
  e->body = body;
  e->spec.name = e->name;
  e->spec.body = e->body;
  e->spec.preamble = k_preamble;
  e->spec.c_order_index = c_order;
  e->spec.id = ew::intern(e->spec);
  store->push_back(std::move(e));
  return store->back()->spec;
}

// in0 = m, in1 = zero, in2 = rows, in3 = cols, in4 = k. Divisions in the index type: 32-bit ones are several
// times cheaper than 64-bit ones, and the engine picks 32 bits whenever the element count allows.
const ew::kernel_spec& tri_spec(bool lower) {
  static const ew::kernel_spec& l = make_spec(
      "tril",
      "typedef decltype(i) I; I c = i % (I)in3, r = (i / (I)in3) % (I)in2; out0 = ((long long)c - r <= in4) ? in0 : in1;",
      true);
  static const ew::kernel_spec& u = make_spec(
      "triu",
      "typedef decltype(i) I; I c = i % (I)in3, r = (i / (I)in3) % (I)in2; out0 = ((long long)c - r >= in4) ? in0 : in1;",
      true);
  return lower ? l : u;
}

// in0 = rows, in1 = cols, in2 = k (clamped), in3 = lower; out0, out1 = row, column of element i.
const ew::kernel_spec& tri_indices_spec() {
  static const ew::kernel_spec& s = make_spec("tri_indices", R"CUDA(
    long long p = i; bool lower = in3 != 0;
    long long lo = 0, hi = in0 - 1;  // the last row whose prefix count is <= p holds element p
    while (lo < hi) {
      long long mid = (lo + hi + 1) / 2;
      if (ca_idx_tri_prefix(mid, in1, in2, lower) <= p) lo = mid; else hi = mid - 1;
    }
    long long first = lower ? 0 : ca_idx_clamp(lo + in2, 0, in1);
    out0 = lo;
    out1 = first + (p - ca_idx_tri_prefix(lo, in1, in2, lower));
  )CUDA",
                                              true);
  return s;
}

// in0 = index, in1 = raw table {shape[nd], per choice {address, byte strides[nd]}}, in2 = choices, in3 = nd,
// in4 = mode; out0 = result, raw6 = raise flag.
const ew::kernel_spec& choose_spec(dtype t) {
  static std::array<const ew::kernel_spec*, num_dtypes> specs{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int d = 0; d < num_dtypes; ++d) {
      std::string tn = ew::type_name(static_cast<dtype>(d));
      specs[static_cast<std::size_t>(d)] = &make_spec("choose", R"CUDA(
    long long k = in0;
    if (k < 0 || k >= in2) {
      if (in4 == 0) { k %= in2; if (k < 0) k += in2; }
      else if (in4 == 1) k = k < 0 ? 0 : in2 - 1;
      else { raw6[0] = 1; k = 0; }
    }
    const long long* e = raw1 + in3 + k * (in3 + 1);
    typedef decltype(i) I;
    I rem = i;
    long long off = 0;
    for (int d = (int)in3 - 1; d > 0; --d) {
      I q = rem / (I)raw1[d];
      off += (long long)(rem - q * (I)raw1[d]) * e[1 + d];
      rem = q;
    }
    off += (long long)rem * e[1];
    out0 = ca_load<)CUDA" + tn + ">((const char*)e[0] + off);",
                                                      true);
    }
  });
  return *specs[static_cast<std::size_t>(t)];
}

// Pairs (in2j = condition, in2j+1 = choice) then the fallback in2m: the first true condition's choice.
constexpr int select_group = 4;  // 2 * 4 + 2 operands, within the engine's limit
const ew::kernel_spec& select_spec(int m) {
  static std::array<const ew::kernel_spec*, select_group + 1> specs{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int g = 1; g <= select_group; ++g) {
      std::string body = "out0 = ";
      for (int j = 0; j < g; ++j) body += "in" + std::to_string(2 * j) + " ? in" + std::to_string(2 * j + 1) + " : ";
      body += "in" + std::to_string(2 * g) + ";";
      specs[static_cast<std::size_t>(g)] = &make_spec("select", body, false);
    }
  });
  return *specs[static_cast<std::size_t>(m)];
}

// in0 = running flat index, in1..ing = coordinates, in(g+1) = raw table {dim, stride, mode} per coordinate;
// out0 = flat index, raw(g+3) = raise flag.
constexpr int ravel_group = 7;
const ew::kernel_spec& ravel_spec(int g) {
  static std::array<const ew::kernel_spec*, ravel_group + 1> specs{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int n = 1; n <= ravel_group; ++n) {
      std::string table = "raw" + std::to_string(n + 1), flag = "raw" + std::to_string(n + 3);
      std::string body = "bool bad = false; long long acc = in0;\n";
      for (int j = 0; j < n; ++j) {
        std::string t = table + "[" + std::to_string(3 * j);
        body += "acc += ca_idx_ravel_coord(in" + std::to_string(j + 1) + ", " + t + "], " + t + " + 2], bad) * " + t +
                " + 1];\n";
      }
      body += "if (bad) " + flag + "[0] = 1;\nout0 = acc;";
      specs[static_cast<std::size_t>(n)] = &make_spec("ravel_multi_index", body, false);
    }
  });
  return *specs[static_cast<std::size_t>(g)];
}

// in0 = flat index, in1 = raw table {size, then {dim, stride} per output}; out0..out(g-1) = coordinates,
// raw(g+2) = the smallest C-order position of an index out of range (atomicMin).
constexpr int unravel_group = 8;
const ew::kernel_spec& unravel_spec(int g) {
  static std::array<const ew::kernel_spec*, unravel_group + 1> specs{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int n = 1; n <= unravel_group; ++n) {
      std::string body = "long long v = in0; bool bad = v < 0 || v >= raw1[0];\n";
      body += "if (bad) atomicMin(raw" + std::to_string(n + 2) + ", (unsigned long long)i);\n";
      for (int j = 0; j < n; ++j) {
        std::string d = "raw1[" + std::to_string(1 + 2 * j) + "]", s = "raw1[" + std::to_string(2 + 2 * j) + "]";
        body += "out" + std::to_string(j) + " = bad ? 0 : (v / " + s + ") % " + d + ";\n";
      }
      specs[static_cast<std::size_t>(n)] = &make_spec("unravel_index", body, true);
    }
  });
  return *specs[static_cast<std::size_t>(g)];
}

// ---- helpers ---------------------------------------------------------------------------------------------------

std::string dtype_repr(dtype t) { return "dtype('" + std::string(name(t)) + "')"; }

dtype result_type(const std::vector<const ufunc_arg*>& ops) { return nep50_result_type(ops); }

int device_of(const std::vector<const array*>& arrays) {
  for (const array* a : arrays)
    if (a->defined()) return a->device();
  return current_device();
}

// A view of `a` with its own descriptor (shares the storage).
array view_of(const array& a, shape_t shape, strides_t strides, std::int64_t offset) {
  return array(a.storage(), descriptor{a.type(), std::move(shape), std::move(strides), offset});
}

int normalize_named_axis(int axis, int ndim, const char* what) {
  try {
    return normalize_axis(axis, ndim);
  } catch (const axis_error& e) {
    throw axis_error(std::string(what) + ": " + e.what());
  }
}

// The first `count` elements of `values` (flattened, C order) repeated as needed, as NumPy's flat assignment
// cycles its right-hand side.
array cycled(const array& values, std::int64_t count) {
  array flat = ravel(values);
  if (flat.size() == count) return flat;
  if (flat.size() > count) return view_of(flat, shape_t{count}, flat.strides(), flat.offset());
  return resize(flat, shape_t{count});
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b, bool& overflow) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) overflow = true;
  return r;
}

// Index arrays must cast to int64 with 'same_kind' (NumPy's check): integers and bool.
void check_index_dtype(const array& a) {
  if (!is_integer(a.type()) && !is_bool(a.type())) throw type_error("only int indices permitted");
}

array int64_table(const std::vector<std::int64_t>& v, int device) {
  device_guard g(device);
  return from_host(v.data(), int64, shape_t{static_cast<std::int64_t>(v.size())});
}

array zero_flag(dtype t, const scalar& value, int device) {
  array f = detail::new_array(t, shape_t{1}, order::C, device);
  f.fill(value);
  return f;
}

}  // namespace

// ---- diagonals ------------------------------------------------------------------------------------------------

array diagonal(const array& a, std::int64_t offset, int axis1, int axis2) {
  int nd = a.ndim();
  if (nd < 2) throw value_error("diag requires an array of at least two dimensions");
  int ax1 = normalize_named_axis(axis1, nd, "axis1");
  int ax2 = normalize_named_axis(axis2, nd, "axis2");
  if (ax1 == ax2) throw value_error("axis1 and axis2 cannot be the same");
  std::int64_t n1 = a.shape()[ax1], n2 = a.shape()[ax2], s1 = a.strides()[ax1], s2 = a.strides()[ax2];
  std::int64_t len = 0, off = a.offset();
  if (offset >= 0) {
    len = offset >= n2 ? 0 : std::min(n1, n2 - offset);
    if (len > 0) off += offset * s2;
  } else {
    len = offset <= -n1 ? 0 : std::min(n1 + offset, n2);
    if (len > 0) off += -offset * s1;
  }
  shape_t shape;
  strides_t strides;
  for (int d = 0; d < nd; ++d) {
    if (d == ax1 || d == ax2) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  shape.push_back(std::max<std::int64_t>(len, 0));
  strides.push_back(s1 + s2);
  return view_of(a, std::move(shape), std::move(strides), off);
}

array diag(const array& v, std::int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k).copy(order::C);
  if (v.ndim() != 1) throw value_error("Input must be 1- or 2-d.");
  std::int64_t ak = k < 0 ? -k : k;
  if (k == std::numeric_limits<std::int64_t>::min() || ak > std::numeric_limits<std::int64_t>::max() - v.size()) {
    throw value_error("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  }
  std::int64_t n = v.size() + ak;
  array res = zeros(shape_t{n, n}, v.type());
  diagonal(res, k).assign(v);
  return res;
}

array diagflat(const array& v, std::int64_t k) { return diag(ravel(v), k); }

namespace {

// The views fill_diagonal writes, in the order of the flat positions: Note [fill_diagonal views].
// Note [fill_diagonal views]: NumPy writes a.flat[:end:step] with step = 1 + sum of cumprod(shape[:-1]), the
// flat C-order position of (1, ..., 1). Without wrap (or with all extents equal) those positions are the
// main diagonal. With wrap, a tall 2-D (n0, n1) matrix continues at row n1 + 1: position j lies at row
// j + j / n1, column j % n1, so whole blocks of n1 rows form one 2-D strided view (block stride n1 + 1 rows)
// and a shorter last block one 1-D view.
std::vector<array> diagonal_targets(const array& a, bool wrap) {
  if (a.ndim() < 2) throw value_error("array must be at least 2-d");
  if (a.ndim() > 2) {
    for (int d = 1; d < a.ndim(); ++d) {
      if (a.shape()[d] != a.shape()[0]) throw value_error("All dimensions of input must be of equal length");
    }
  }
  std::vector<array> out;
  if (a.size() == 0) return out;
  std::int64_t n0 = a.shape()[0], n1 = a.shape()[1];
  std::int64_t diag_stride = 0;
  for (std::int64_t s : a.strides()) diag_stride += s;
  if (a.ndim() > 2 || !wrap || n0 <= n1) {
    out.push_back(view_of(a, shape_t{std::min(n0, n1)}, strides_t{diag_stride}, a.offset()));
    return out;
  }
  std::int64_t s0 = a.strides()[0];
  std::int64_t blocks = (n0 + 1) / (n1 + 1);
  out.push_back(view_of(a, shape_t{blocks, n1}, strides_t{s0 * (n1 + 1), diag_stride}, a.offset()));
  std::int64_t r0 = blocks * (n1 + 1);
  std::int64_t rest = std::min(n1, n0 - r0);
  if (rest > 0) out.push_back(view_of(a, shape_t{rest}, strides_t{diag_stride}, a.offset() + r0 * s0));
  return out;
}

}  // namespace

void fill_diagonal(const array& a, const array& val, bool wrap) {
  std::vector<array> targets = diagonal_targets(a, wrap);
  if (val.size() == 0) return;  // NumPy's flat assignment of nothing writes nothing
  if (val.size() == 1) {
    array one = view_of(val, shape_t{}, strides_t{}, val.offset());
    for (array& t : targets) t.assign(one);
    return;
  }
  std::int64_t total = 0;
  for (const array& t : targets) total += t.size();
  array values = cycled(val, total);
  if (detail::may_overlap(values, a)) values = values.copy(order::C);
  std::int64_t start = 0;
  for (array& t : targets) {
    array part = view_of(values, shape_t{t.size()}, values.strides(), values.offset() + start * values.strides()[0]);
    t.assign(reshape(part, t.shape()));
    start += t.size();
  }
}

void fill_diagonal(const array& a, const scalar& val, bool wrap) {
  std::vector<array> targets = diagonal_targets(a, wrap);
  scalar v = val.cast(a.type());
  for (array& t : targets) t.fill(v);
}

// ---- triangles ------------------------------------------------------------------------------------------------

namespace {

array triangle(const array& m, std::int64_t k, bool lower) {
  if (m.ndim() == 0) throw type_error("tri() missing 1 required positional argument: 'N'");
  shape_t shape = m.shape();
  if (m.ndim() == 1) shape = shape_t{m.shape()[0], m.shape()[0]};
  std::int64_t rows = shape[shape.size() - 2], cols = shape[shape.size() - 1];
  dtype t = m.type();
  array out = detail::new_array(t, shape, order::C, m.device());
  ew::run(tri_spec(lower),
          {ew::operand::of(m, t), ew::operand::of_scalar(scalar::from_int(0), t),
           ew::operand::of_scalar(scalar::from_int(rows), int64), ew::operand::of_scalar(scalar::from_int(cols), int64),
           ew::operand::of_scalar(scalar::from_int(k), int64)},
          {ew::operand::of(out, t)}, shape);
  return out;
}

// Host twin of the kernels' ca_idx_keep_sum.
std::int64_t keep_sum(std::int64_t r, std::int64_t a, std::int64_t m) {
  std::int64_t t0 = std::min(std::max(-a, std::int64_t{0}), r);
  std::int64_t t1 = std::min(std::max(m - a, t0), r);
  return (t1 - t0) * (t0 + t1 - 1 + 2 * a) / 2 + (r - t1) * m;
}

std::pair<array, array> triangle_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m_opt,
                                         bool lower) {
  std::int64_t m = m_opt.value_or(n);
  int device = current_device();
  if (n <= 0 || m <= 0) {
    return {detail::new_array(int64, shape_t{0}, order::C, device),
            detail::new_array(int64, shape_t{0}, order::C, device)};
  }
  checked_size(shape_t{n, m});
  // Diagonals beyond the matrix behave as the nearest one outside it; clamping keeps the arithmetic small.
  k = std::clamp(k, -n - 1, m + 1);
  std::int64_t total = lower ? keep_sum(n, k + 1, m) : n * m - keep_sum(n, k, m);
  array rows = detail::new_array(int64, shape_t{total}, order::C, device);
  array cols = detail::new_array(int64, shape_t{total}, order::C, device);
  ew::run(tri_indices_spec(),
          {ew::operand::of_scalar(scalar::from_int(n), int64), ew::operand::of_scalar(scalar::from_int(m), int64),
           ew::operand::of_scalar(scalar::from_int(k), int64), ew::operand::of_scalar(scalar::from_int(lower), int64)},
          {ew::operand::of(rows, int64), ew::operand::of(cols, int64)}, shape_t{total});
  return {rows, cols};
}

std::pair<array, array> triangle_indices_from(const array& arr, std::int64_t k, bool lower) {
  if (arr.ndim() != 2) throw value_error("input array must be 2-d");
  return triangle_indices(arr.shape()[0], k, arr.shape()[1], lower);
}

}  // namespace

array tril(const array& m, std::int64_t k) { return triangle(m, k, true); }
array triu(const array& m, std::int64_t k) { return triangle(m, k, false); }

std::pair<array, array> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return triangle_indices(n, k, m, true);
}
std::pair<array, array> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m) {
  return triangle_indices(n, k, m, false);
}
std::pair<array, array> tril_indices_from(const array& arr, std::int64_t k) {
  return triangle_indices_from(arr, k, true);
}
std::pair<array, array> triu_indices_from(const array& arr, std::int64_t k) {
  return triangle_indices_from(arr, k, false);
}

// ---- index grids and conversions -------------------------------------------------------------------------------

namespace {

void check_grid(const shape_t& dimensions, dtype t) {
  for (std::int64_t d : dimensions) {
    if (d < 0) throw value_error("negative dimensions are not allowed");
  }
  for (std::int64_t d : dimensions) {
    if (t == bool_ && d > 2) {
      throw type_error("arange() is only supported for booleans when the result has at most length 2.");
    }
  }
}

// 0, 1, ..., d - 1 in int64, shaped (1, ..., d, ..., 1) with d at `axis` of `nd`.
array axis_range(std::int64_t d, int axis, int nd) {
  shape_t shape(nd, 1);
  shape[axis] = d;
  return arange(std::int64_t{0}, d, std::int64_t{1}, int64).reshape_view(shape);
}

}  // namespace

array indices(const shape_t& dimensions, dtype t) {
  check_grid(dimensions, t);
  int nd = dimensions.size();
  shape_t shape{nd};
  for (std::int64_t d : dimensions) shape.push_back(d);
  array res = detail::new_array(t, shape, order::C, current_device());
  if (res.size() == 0) return res;
  strides_t inner(res.strides().begin() + 1, res.strides().end());
  for (int i = 0; i < nd; ++i) {
    view_of(res, dimensions, inner, res.offset() + i * res.strides()[0]).assign(axis_range(dimensions[i], i, nd));
  }
  return res;
}

std::vector<array> indices_sparse(const shape_t& dimensions, dtype t) {
  check_grid(dimensions, t);
  int nd = dimensions.size();
  std::vector<array> out;
  for (int i = 0; i < nd; ++i) {
    array r = axis_range(dimensions[i], i, nd);
    out.push_back(t == int64 ? r : r.astype(t));
  }
  return out;
}

std::vector<array> ix_(const std::vector<array>& args) {
  std::vector<array> out;
  int nd = static_cast<int>(args.size());
  for (int k = 0; k < nd; ++k) {
    array a = args[static_cast<std::size_t>(k)];
    if (a.ndim() != 1) throw value_error("Cross index must be 1 dimensional");
    if (a.type() == bool_) a = nonzero(a)[0];
    shape_t shape(nd, 1);
    strides_t strides(nd, 0);
    shape[k] = a.size();
    strides[k] = a.strides()[0];
    out.push_back(view_of(a, std::move(shape), std::move(strides), a.offset()));
  }
  return out;
}

array ravel_multi_index(const std::vector<array>& multi_index, const shape_t& dims,
                        const std::vector<index_mode>& modes_in, order o) {
  int nd = dims.size();
  if (static_cast<int>(multi_index.size()) != nd) {
    throw value_error("parameter multi_index must be a sequence of length " + std::to_string(nd));
  }
  std::vector<index_mode> modes = modes_in;
  if (modes.size() == 1) modes.assign(static_cast<std::size_t>(nd), modes_in[0]);
  if (static_cast<int>(modes.size()) != nd) {
    throw value_error("list of clipmodes has wrong length (" + std::to_string(modes_in.size()) + " instead of " +
                      std::to_string(nd) + ")");
  }
  if (o != order::C && o != order::F) throw value_error("only 'C' or 'F' order is permitted");
  std::vector<std::int64_t> strides(static_cast<std::size_t>(nd));
  bool overflow = false;
  std::int64_t s = 1;
  for (int k = 0; k < nd; ++k) {
    int d = o == order::C ? nd - 1 - k : k;
    strides[static_cast<std::size_t>(d)] = s;
    s = checked_mul(s, dims[d], overflow);
  }
  if (overflow) {
    throw value_error("invalid dims: array size defined by dims is larger than the maximum possible size.");
  }
  std::vector<shape_t> shapes;
  for (const array& c : multi_index) {
    check_index_dtype(c);
    shapes.push_back(c.shape());
  }
  shape_t shape = broadcast_shapes(shapes);
  std::vector<const array*> ptrs;
  for (const array& c : multi_index) ptrs.push_back(&c);
  int device = device_of(ptrs);
  array out = detail::new_array(int64, shape, order::C, device);
  if (out.size() == 0) return out;
  for (std::int64_t d : dims) {
    if (d == 0) throw value_error("cannot unravel if shape has zero entries (is empty).");
  }
  if (nd == 0) {
    out.fill(scalar::from_int(0));
    return out;
  }
  bool any_raise = std::find(modes.begin(), modes.end(), index_mode::raise) != modes.end();
  array flag = zero_flag(int32, scalar::from_int(0, int32), device);
  for (int first = 0; first < nd; first += ravel_group) {
    int g = std::min(ravel_group, nd - first);
    std::vector<std::int64_t> table;
    for (int j = first; j < first + g; ++j) {
      table.push_back(dims[j]);
      table.push_back(strides[static_cast<std::size_t>(j)]);
      table.push_back(mode_code(modes[static_cast<std::size_t>(j)]));
    }
    std::vector<ew::operand> ins;
    ins.push_back(first == 0 ? ew::operand::of_scalar(scalar::from_int(0), int64) : ew::operand::of(out, int64));
    for (int j = first; j < first + g; ++j)
      ins.push_back(ew::operand::of(multi_index[static_cast<std::size_t>(j)], int64));
    ins.push_back(ew::operand::of_raw(int64_table(table, device), int64));
    ew::run(ravel_spec(g), ins, {ew::operand::of(out, int64), ew::operand::of_raw(flag, int32)}, shape);
  }
  if (any_raise) {
    if (flag.host_value<std::int32_t>()) throw value_error("invalid entry in coordinates array");
  }
  return out;
}

std::vector<array> unravel_index(const array& idx, const shape_t& shape, order o) {
  check_index_dtype(idx);
  if (o != order::C && o != order::F) throw value_error("only 'C' or 'F' order is permitted");
  int nd = shape.size();
  // NumPy's PyArray_OverflowMultiplyList: 0 as soon as an extent is 0, else the checked product.
  bool overflow = false;
  std::int64_t size = 1;
  for (std::int64_t d : shape) {
    if (d == 0) {
      size = 0;
      overflow = false;
      break;
    }
    size = checked_mul(size, d, overflow);
  }
  if (overflow) {
    throw value_error("dimensions are too large; arrays and shapes with a total size greater than 'intp' are not "
                      "supported.");
  }
  // Partial products: a zero extent can leave the others' product unchecked, but then every index fails.
  std::vector<std::int64_t> strides(static_cast<std::size_t>(nd));
  std::int64_t s = 1;
  bool ignored = false;
  for (int k = 0; k < nd; ++k) {
    int d = o == order::C ? nd - 1 - k : k;
    strides[static_cast<std::size_t>(d)] = s;
    s = checked_mul(s, shape[d], ignored);
  }
  std::vector<array> out;
  for (int d = 0; d < nd; ++d) out.push_back(detail::new_array(int64, idx.shape(), order::C, idx.device()));
  if (idx.size() == 0) return out;
  array first_bad = zero_flag(uint64, scalar::from_uint(std::numeric_limits<std::uint64_t>::max()), idx.device());
  // A 0-d shape still needs the range check (every index but 0 is out of bounds).
  for (int first = 0; first < std::max(nd, 1); first += unravel_group) {
    int g = std::min(unravel_group, nd - first);
    std::vector<std::int64_t> table{size};
    std::vector<ew::operand> outs;
    array scratch;
    if (g <= 0) {  // nothing to compute but the check: one throwaway output
      g = 1;
      table.push_back(1);
      table.push_back(1);
      scratch = detail::new_array(int64, idx.shape(), order::C, idx.device());
      outs.push_back(ew::operand::of(scratch, int64));
    } else {
      for (int j = first; j < first + g; ++j) {
        table.push_back(shape[j]);
        table.push_back(strides[static_cast<std::size_t>(j)]);
        outs.push_back(ew::operand::of(out[static_cast<std::size_t>(j)], int64));
      }
    }
    outs.push_back(ew::operand::of_raw(first_bad, uint64));
    ew::run(unravel_spec(g),
            {ew::operand::of(idx, int64), ew::operand::of_raw(int64_table(table, idx.device()), int64)}, outs,
            idx.shape());
    if (first == 0) {
      std::uint64_t pos = first_bad.host_value<std::uint64_t>();
      if (pos != std::numeric_limits<std::uint64_t>::max()) {
        // The offending value itself, read from its position (C order) in `idx`.
        std::int64_t off = idx.offset(), rem = static_cast<std::int64_t>(pos);
        for (int d = idx.ndim() - 1; d >= 0; --d) {
          off += (rem % idx.shape()[d]) * idx.strides()[d];
          rem /= idx.shape()[d];
        }
        std::int64_t v = view_of(idx, shape_t{}, strides_t{}, off).astype(int64).host_value<std::int64_t>();
        throw value_error("index " + std::to_string(v) + " is out of bounds for array with size " +
                          std::to_string(size));
      }
    }
  }
  return out;
}

// ---- selection by index ---------------------------------------------------------------------------------------

array select(const std::vector<array>& condlist, const std::vector<ufunc_arg>& choicelist, const ufunc_arg& default_) {
  if (condlist.size() != choicelist.size()) {
    throw value_error("list of cases must be same length as list of conditions");
  }
  if (condlist.empty()) throw value_error("select with an empty condition list is not possible");
  std::vector<const ufunc_arg*> ops;
  for (const ufunc_arg& c : choicelist) ops.push_back(&c);
  ops.push_back(&default_);
  dtype rt = result_type(ops);
  std::vector<shape_t> shapes;
  for (const array& c : condlist) shapes.push_back(c.shape());
  shape_t cond_shape = broadcast_shapes(shapes);
  shapes.clear();
  for (const ufunc_arg* c : ops) shapes.push_back(c->is_scalar() ? shape_t{} : c->arr.shape());
  shape_t choice_shape = broadcast_shapes(shapes);
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    if (condlist[i].type() != bool_) {
      throw type_error("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
    }
  }
  shape_t shape = broadcast_shapes(cond_shape, choice_shape);
  std::vector<const array*> arrays;
  for (const array& c : condlist) arrays.push_back(&c);
  array out = detail::new_array(rt, shape, order::C, device_of(arrays));
  auto operand = [&](const ufunc_arg& a) {
    return a.is_scalar() ? ew::operand::of_scalar(a.value, rt) : ew::operand::of(a.arr, rt);
  };
  // Groups from the last: each kernel picks among its pairs or keeps what the later groups chose (Note
  // [index funcs kernels]); the default seeds the first.
  int n = static_cast<int>(condlist.size());
  bool first = true;
  for (int end = n; end > 0; end -= select_group) {
    int begin = std::max(0, end - select_group);
    std::vector<ew::operand> ins;
    for (int j = begin; j < end; ++j) {
      ins.push_back(ew::operand::of(condlist[static_cast<std::size_t>(j)], bool_));
      ins.push_back(operand(choicelist[static_cast<std::size_t>(j)]));
    }
    ins.push_back(first ? operand(default_) : ew::operand::of(out, rt));
    ew::run(select_spec(end - begin), ins, {ew::operand::of(out, rt)}, shape);
    first = false;
  }
  return out;
}

array choose(const array& a, const std::vector<ufunc_arg>& choices, const array& out_in, index_mode mode) {
  if (choices.empty()) throw value_error("0-length sequence.");
  if (choices.size() > 63) throw value_error("Need at least 0 and at most 64 array objects.");
  if (!can_cast_safely(a.type(), int64)) {
    throw type_error("Cannot cast array data from " + dtype_repr(a.type()) +
                     " to dtype('int64') according to the rule 'safe'");
  }
  std::vector<const ufunc_arg*> ops;
  for (const ufunc_arg& c : choices) ops.push_back(&c);
  dtype rt = result_type(ops);
  std::vector<shape_t> shapes;
  for (const ufunc_arg& c : choices) shapes.push_back(c.is_scalar() ? shape_t{} : c.arr.shape());
  shapes.push_back(a.shape());
  shape_t shape = broadcast_shapes(shapes);
  if (out_in.defined() && out_in.shape() != shape) throw type_error("choose: invalid shape for output array.");
  int device = a.device();

  // Each choice as an array of the result dtype (weak scalars wrap, as NumPy's conversion to the common type).
  std::vector<array> arrays;
  for (const ufunc_arg& c : choices) {
    if (c.is_scalar()) {
      device_guard g(device);
      arrays.push_back(full(shape_t{}, c.value.cast(rt), rt));
    } else {
      arrays.push_back(c.arr.type() == rt ? c.arr : c.arr.astype(rt));
    }
  }
  bool direct = out_in.defined() && out_in.type() == rt && !detail::may_overlap(out_in, a);
  for (const array& c : arrays) direct = direct && !detail::may_overlap(out_in, c);
  array out = direct ? out_in : detail::new_array(rt, shape, order::C, device);
  if (out.size() != 0) {
    // The table: the C-order iteration shape and each choice's broadcast strides over it, with extents of 1
    // dropped and neighbouring axes merged where every choice's strides chain (same-shape C-contiguous
    // choices leave one axis: one division per element).
    std::vector<array> views;
    for (const array& c : arrays) views.push_back(c.broadcast_to(shape));
    shape_t ext;
    std::vector<strides_t> st(views.size());
    for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
      if (shape[d] == 1) continue;
      bool chain = !ext.empty();
      for (std::size_t c = 0; c < views.size() && chain; ++c) {
        chain = st[c].back() == views[c].strides()[d] * shape[d];
      }
      if (chain) {
        ext[ext.size() - 1] *= shape[d];
        for (std::size_t c = 0; c < views.size(); ++c) st[c][st[c].size() - 1] = views[c].strides()[d];
        continue;
      }
      ext.push_back(shape[d]);
      for (std::size_t c = 0; c < views.size(); ++c) st[c].push_back(views[c].strides()[d]);
    }
    if (ext.empty()) {  // a single element
      ext.push_back(1);
      for (auto& s : st) s.push_back(0);
    }
    auto nd = static_cast<std::int64_t>(ext.size());
    std::vector<std::int64_t> table(ext.begin(), ext.end());
    for (std::size_t c = 0; c < views.size(); ++c) {
      table.push_back(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(views[c].data())));
      table.insert(table.end(), st[c].begin(), st[c].end());
    }
    array flag = zero_flag(int32, scalar::from_int(0, int32), device);
    int code = mode_code(mode);
    ew::run(choose_spec(rt),
            {ew::operand::of(a, int64), ew::operand::of_raw(int64_table(table, device), int64),
             ew::operand::of_scalar(scalar::from_int(static_cast<std::int64_t>(arrays.size())), int64),
             ew::operand::of_scalar(scalar::from_int(nd), int64),
             ew::operand::of_scalar(scalar::from_int(code), int64)},
            {ew::operand::of(out, rt), ew::operand::of_raw(flag, int32)}, shape);
    if (code == mode_raise) {
      if (flag.host_value<std::int32_t>()) throw value_error("invalid entry in choice array");
    }
  }
  if (!out_in.defined() || direct) return out;
  array o = out_in;
  o.assign(out);
  return o;
}

namespace detail {

std::vector<index_funcs_kernel> index_funcs_kernels() {
  using L = ew::operand_layout;
  auto arr = [](dtype s, dtype c) { return L{s, c, false, false}; };
  auto sc = [](dtype c) { return L{c, c, true, false}; };
  auto raw = [](dtype c) { return L{c, c, false, true}; };
  std::vector<index_funcs_kernel> k;
  auto add = [&](const char* what, const ew::kernel_spec& s, std::vector<L> in, std::vector<L> out, int ndim) {
    std::string name = std::string("cuarray_") + what + "_" + std::to_string(k.size());
    k.push_back({name, ew::kernel_source(s, in, out, ndim, false, false, false, name)});
  };
  for (int d = 0; d < num_dtypes; ++d) {
    dtype t = static_cast<dtype>(d);
    for (bool lower : {true, false}) {
      add("tri", tri_spec(lower), {arr(t, t), sc(t), sc(int64), sc(int64), sc(int64)}, {arr(t, t)}, 2);
    }
    add("choose", choose_spec(t), {arr(int8, int64), raw(int64), sc(int64), sc(int64), sc(int64)},
        {arr(t, t), raw(int32)}, 1);
    add("select", select_spec(2), {arr(bool_, bool_), arr(t, t), arr(bool_, bool_), sc(t), sc(t)}, {arr(t, t)}, 0);
  }
  add("tri_indices", tri_indices_spec(), {sc(int64), sc(int64), sc(int64), sc(int64)},
      {arr(int64, int64), arr(int64, int64)}, 0);
  for (int g = 1; g <= select_group; ++g) {
    std::vector<L> in;
    for (int j = 0; j < g; ++j) {
      in.push_back(arr(bool_, bool_));
      in.push_back(arr(float32, float64));
    }
    in.push_back(arr(float64, float64));
    add("select", select_spec(g), in, {arr(float64, float64)}, 1);
  }
  for (int g = 1; g <= ravel_group; ++g) {
    std::vector<L> in{sc(int64)};
    for (int j = 0; j < g; ++j) in.push_back(arr(j % 2 ? uint8 : int64, int64));
    in.push_back(raw(int64));
    add("ravel", ravel_spec(g), in, {arr(int64, int64), raw(int32)}, 2);
  }
  for (int g = 1; g <= unravel_group; ++g) {
    std::vector<L> out;
    for (int j = 0; j < g; ++j) out.push_back(arr(int64, int64));
    out.push_back(raw(uint64));
    add("unravel", unravel_spec(g), {arr(int32, int64), raw(int64)}, out, 1);
  }
  return k;
}

}  // namespace detail

}  // namespace cuarray
