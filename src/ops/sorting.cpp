// NumPy's sort, argsort, lexsort, partition, sort_complex, searchsorted and digitize over CUB radix sorts.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/creation.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/sorting.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/sort_kernels.hpp"
#include "src/ops/sorting_internal.hpp"

namespace cuarray {

// Note [device sort]: a sort along an axis moves that axis last (a contiguous copy when the layout needs one)
// and sorts rows of n elements. One row goes through cub::DeviceRadixSort (onesweep, all key bits once);
// several rows through cub::DeviceSegmentedSort, which sorts each row in place of its segment: small rows in
// warps, large ones with a block-wide radix sort, so no pass is spent on row ids (packing the row index into
// the high key bits would widen 32-bit keys to 64 bits and double every pass). Keys are unsigned integers of
// the dtype's width (Note [sort keys]), so CUB is instantiated for 4 key types: keys only (sort), with int32
// indices (argsort, lexsort; widened to int64 at the end, as 4-byte indices halve the index traffic of each
// pass), and one 8-byte-key / int64-index sort for rows of 2**31 elements or more. Value sorts transform
// keys in place and back; argsorts of complex values and lexsort run one stable pass per key (complex: per
// part and NaN class), each pass reading the key through the permutation of the previous one. One row of the
// common dtypes skips the transforms (Note [native keys]).

// Note [native keys]: CUB's radix sort orders float32/float64 and signed integer keys itself (it flips their
// bits as it loads them) and keeps -0.0 and +0.0 as equal keys (documented; stable among them). So one row
// of those dtypes, or of unsigned integers (whose bits are their keys), is sorted from the input straight into
// the output, with CUB's alternate buffers in its temporary storage: no key transform before and no inverse
// after (12 bytes fewer per float32 element for sort, 4 for argsort, which still writes its indices). These
// sorts count items in 32 bits, for which CUB's onesweep tiles are larger (float32 argsort on sm_90: 384 x 23
// items against 384 x 17 with the 64-bit counts of the transformed-key sorts). CUB differs from NumPy's order
// only on NaNs, which it orders by their bits: NaNs with the sign bit set come before -inf, and NaNs of
// different bit patterns are different keys. One read of the values (launch_nan_scan) summarises the NaNs on
// the device:
// - sort: two kernels move the negative NaNs from the front to the end and return at once when there are
//   none, so the value sort never synchronises. With the scan that is two launches more than the
//   transformed keys take, which only pays from native_sort_min elements.
// - argsort: NumPy puts NaNs last in input order, so the host reads the summary (one synchronisation, after
//   the allocations so that the sort follows at once) and takes the transformed keys when a NaN has the sign
//   bit set or the NaNs differ in bits. The same read writes the indices the sort starts from. Below
//   native_argsort_min elements the synchronisation would cost more than the transform pass it saves, so
//   shorter rows keep the transform.
// Several rows of unsigned integers go through the segmented sort from the input alike. Other dtypes (bool,
// int8, int16, float16, complex) and several rows of floats or signed integers keep the transformed keys:
// native keys would cost more CUB instantiations, i.e. compile time.

namespace detail {

namespace {

using namespace sorting;

array temp_storage(std::size_t bytes, int device) {
  return new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1))}, order::C, device);
}

dtype unsigned_of(int width) {
  switch (width) {
    case 1: return dtype::uint8;
    case 2: return dtype::uint16;
    case 4: return dtype::uint32;
    default: return dtype::uint64;
  }
}

std::vector<key_part> parts_of(dtype t) {
  if (t == dtype::complex64) return {key_part::cplx_packed, key_part::cplx_class};
  if (t == dtype::complex128) return {key_part::cplx_imag, key_part::cplx_real, key_part::cplx_class};
  return {key_part::arg};
}

std::int64_t last_extent(const array& a) { return a.ndim() == 0 ? 1 : a.shape()[a.ndim() - 1]; }

array row_offsets(std::int64_t rows, std::int64_t n, int device, cudaStream_t s) {
  array off = new_array(dtype::int64, shape_t{rows + 1}, order::C, device);
  launch_row_offsets(static_cast<std::int64_t*>(off.data()), rows, n, s);
  return off;
}

// Sort keys (k0 in, ping-pong with k1); returns the buffer holding the result.
const array& sort_key_buffers(const array& k0, const array& k1, int width, std::int64_t total, std::int64_t n,
                              int device, cudaStream_t s) {
  std::int64_t rows = total / n;
  int sel = 0;
  if (rows == 1) {
    std::size_t bytes = radix_sort_keys(nullptr, 0, k0.data(), k1.data(), width, total, 8 * width, sel, s);
    array tmp = temp_storage(bytes, device);
    radix_sort_keys(tmp.data(), bytes, k0.data(), k1.data(), width, total, 8 * width, sel, s);
  } else {
    array off = row_offsets(rows, n, device, s);
    auto* o = static_cast<const std::int64_t*>(off.data());
    std::size_t bytes = segmented_sort_keys(nullptr, 0, k0.data(), k1.data(), width, total, rows, o, sel, s);
    array tmp = temp_storage(bytes, device);
    segmented_sort_keys(tmp.data(), bytes, k0.data(), k1.data(), width, total, rows, o, sel, s);
  }
  return sel ? k1 : k0;
}

// Float rows shorter than these sort on transformed keys (Note [native keys]). At 3 TB/s the 12 bytes per
// element a value sort saves take about as long as two small launches (~4 us) at 2**20 elements, the 4
// bytes an argsort saves as long as a synchronisation (~10 us) at 2**23.
constexpr std::int64_t native_sort_min = std::int64_t{1} << 20;
constexpr std::int64_t native_argsort_min = std::int64_t{1} << 23;

array nan_summary_buffer(int device) {
  return new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(sizeof(nan_summary))}, order::C, device);
}

// Values of `a` (C-contiguous, native_key_type) sorted along the last axis: one row, or rows of unsigned ints.
array sort_native(const array& a, std::int64_t rows, std::int64_t n, int device, cudaStream_t s) {
  dtype t = a.type();
  std::int64_t total = a.size();
  int w = static_cast<int>(a.itemsize());
  array out = new_array(t, a.shape(), order::C, device);
  if (rows > 1) {
    array off = row_offsets(rows, n, device, s);
    auto* o = static_cast<const std::int64_t*>(off.data());
    std::size_t bytes = segmented_sort_keys_from(nullptr, 0, a.data(), out.data(), w, total, rows, o, s);
    array tmp = temp_storage(bytes, device);
    segmented_sort_keys_from(tmp.data(), bytes, a.data(), out.data(), w, total, rows, o, s);
    return out;
  }
  bool floating = is_floating(t);
  array summary;
  if (floating) {
    summary = nan_summary_buffer(device);
    launch_nan_scan(a.data(), w, total, static_cast<nan_summary*>(summary.data()), nullptr, s);
  }
  std::size_t bytes = radix_sort_native_keys(nullptr, 0, a.data(), out.data(), t, total, s);
  // The temporary storage is free again once the sort ran: the moved NaNs' scratch.
  if (floating) bytes = std::max(bytes, static_cast<std::size_t>(total) * static_cast<std::size_t>(w));
  array tmp = temp_storage(bytes, device);
  radix_sort_native_keys(tmp.data(), bytes, a.data(), out.data(), t, total, s);
  if (floating) {
    launch_move_negative_nans(out.data(), w, total, static_cast<const nan_summary*>(summary.data()), tmp.data(), s);
  }
  return out;
}

// The stable permutation of one key `a` on its native keys (Note [native keys]); nullopt where the transformed
// keys must be used. One row, or rows of unsigned ints; rows shorter than 2**31.
std::optional<row_perm> argsort_native(const array& a, std::int64_t rows, std::int64_t n, int device, cudaStream_t s) {
  dtype t = a.type();
  std::int64_t total = a.size();
  bool floating = is_floating(t);
  if (floating && total < native_argsort_min) return std::nullopt;
  array p_in = new_array(dtype::int32, a.shape(), order::C, device);
  auto* pi = static_cast<std::int32_t*>(p_in.data());
  array summary;
  if (floating) {
    summary = nan_summary_buffer(device);
    launch_nan_scan(a.data(), static_cast<int>(a.itemsize()), total, static_cast<nan_summary*>(summary.data()), pi, s);
  } else {
    launch_iota(pi, total, n, s);
  }
  array k_out = new_array(t, a.shape(), order::C, device);
  array p_out = new_array(dtype::int32, a.shape(), order::C, device);
  auto* po = static_cast<std::int32_t*>(p_out.data());
  int w = static_cast<int>(a.itemsize());
  array off;
  const std::int64_t* o = nullptr;
  std::size_t bytes;
  if (rows == 1) {
    bytes = radix_sort_native_pairs(nullptr, 0, a.data(), k_out.data(), t, pi, po, total, s);
  } else {
    off = row_offsets(rows, n, device, s);
    o = static_cast<const std::int64_t*>(off.data());
    bytes = segmented_sort_pairs_from(nullptr, 0, a.data(), k_out.data(), w, pi, po, total, rows, o, s);
  }
  array tmp = temp_storage(bytes, device);
  if (floating) {
    nan_summary found{};
    summary.copy_to_host(&found, sizeof found);
    if (found.negative != 0 || !found.one_pattern()) return std::nullopt;
  }
  if (rows == 1) {
    radix_sort_native_pairs(tmp.data(), bytes, a.data(), k_out.data(), t, pi, po, total, s);
  } else {
    segmented_sort_pairs_from(tmp.data(), bytes, a.data(), k_out.data(), w, pi, po, total, rows, o, s);
  }
  return row_perm{p_out};
}

// One row of 2**31 or more elements: 8-byte keys with int64 indices.
row_perm argsort_one_wide_row(const std::vector<array>& keys) {
  const array& k0ref = keys[0];
  int device = k0ref.device();
  cudaStream_t s = enter_device(device);
  std::int64_t total = k0ref.size();
  array p0 = new_array(dtype::int64, k0ref.shape(), order::C, device);
  array p1 = new_array(dtype::int64, k0ref.shape(), order::C, device);
  array* cur = &p0;
  array* other = &p1;
  bool first = true;
  for (const array& key : keys) {
    for (key_part part : parts_of(key.type())) {
      int w = key_width(key.type(), part);
      int end_bit = part == key_part::cplx_class ? 2 : 8 * w;
      array k0 = new_array(dtype::uint64, k0ref.shape(), order::C, device);
      array k1 = new_array(dtype::uint64, k0ref.shape(), order::C, device);
      index_ref perm{first ? nullptr : cur->data(), true};
      launch_make_keys(key.data(), key.type(), part, perm, total, total, k0.data(), 8, first ? cur->data() : nullptr,
                       true, s);
      int sel = 0;
      std::size_t bytes = radix_sort_pairs(nullptr, 0, k0.data(), k1.data(), 8, cur->data(), other->data(), true, total,
                                           end_bit, sel, s);
      array tmp = temp_storage(bytes, device);
      radix_sort_pairs(tmp.data(), bytes, k0.data(), k1.data(), 8, cur->data(), other->data(), true, total, end_bit,
                       sel, s);
      if (sel) std::swap(cur, other);
      first = false;
    }
  }
  return row_perm{*cur};
}

}  // namespace

array c_contiguous(const array& a) { return a.is_c_contiguous() ? a : a.copy(order::C); }

array ravel_c(const array& a) { return c_contiguous(a.reshape(shape_t{-1})); }

array axis_last(const array& a, int axis) {
  if (axis == a.ndim() - 1) return a;
  std::vector<int> axes;
  for (int i = 0; i < a.ndim(); ++i) {
    if (i != axis) axes.push_back(i);
  }
  axes.push_back(axis);
  return a.transpose(axes);
}

row_perm argsort_rows(const std::vector<array>& keys) {
  const array& ref = keys.at(0);
  int device = ref.device();
  cudaStream_t s = enter_device(device);
  std::int64_t total = ref.size(), n = last_extent(ref);
  if (total == 0) return row_perm{new_array(dtype::int32, ref.shape(), order::C, device)};
  std::int64_t rows = total / n;
  if (n > std::numeric_limits<std::int32_t>::max()) {
    if (rows == 1) return argsort_one_wide_row(keys);
    // Several rows this long do not fit int32 indices: each row alone, through the one-row path.
    array out = new_array(dtype::int64, ref.shape(), order::C, device);
    for (std::int64_t r = 0; r < rows; ++r) {
      std::vector<array> row_keys;
      for (const array& k : keys) {
        descriptor d{k.type(), shape_t{n}, strides_t{static_cast<std::int64_t>(k.itemsize())},
                     k.offset() + r * n * static_cast<std::int64_t>(k.itemsize())};
        row_keys.emplace_back(k.storage(), d);
      }
      array p = argsort_one_wide_row(row_keys).perm;
      descriptor od{dtype::int64, shape_t{n}, strides_t{8}, r * n * 8};
      array(out.storage(), od).assign(p);
    }
    return row_perm{out};
  }
  if (keys.size() == 1 && native_key_type(ref.type(), total) && (rows == 1 || is_unsigned_integer(ref.type()))) {
    if (std::optional<row_perm> p = argsort_native(ref, rows, n, device, s)) return *p;
  }
  array p0 = new_array(dtype::int32, ref.shape(), order::C, device);
  array p1 = new_array(dtype::int32, ref.shape(), order::C, device);
  array* cur = &p0;
  array* other = &p1;
  array offsets;
  if (rows > 1) offsets = row_offsets(rows, n, device, s);
  bool first = true;
  for (const array& key : keys) {
    for (key_part part : parts_of(key.type())) {
      int w = key_width(key.type(), part);
      int end_bit = part == key_part::cplx_class ? 2 : 8 * w;
      array k0 = new_array(unsigned_of(w), ref.shape(), order::C, device);
      array k1 = new_array(unsigned_of(w), ref.shape(), order::C, device);
      index_ref perm{first ? nullptr : cur->data(), false};
      launch_make_keys(key.data(), key.type(), part, perm, total, n, k0.data(), w, first ? cur->data() : nullptr, false,
                       s);
      int sel = 0;
      if (rows == 1) {
        std::size_t bytes = radix_sort_pairs(nullptr, 0, k0.data(), k1.data(), w, cur->data(), other->data(), false,
                                             total, end_bit, sel, s);
        array tmp = temp_storage(bytes, device);
        radix_sort_pairs(tmp.data(), bytes, k0.data(), k1.data(), w, cur->data(), other->data(), false, total, end_bit,
                         sel, s);
      } else {
        auto* o = static_cast<const std::int64_t*>(offsets.data());
        std::size_t bytes = segmented_sort_pairs(nullptr, 0, k0.data(), k1.data(), w, cur->data(), other->data(), total,
                                                 rows, o, sel, s);
        array tmp = temp_storage(bytes, device);
        segmented_sort_pairs(tmp.data(), bytes, k0.data(), k1.data(), w, cur->data(), other->data(), total, rows, o,
                             sel, s);
      }
      if (sel) std::swap(cur, other);
      first = false;
    }
  }
  return row_perm{*cur};
}

array perm_int64(const row_perm& p) {
  if (p.wide()) return p.perm;
  array out = new_array(dtype::int64, p.perm.shape(), order::C, p.perm.device());
  cudaStream_t s = enter_device(p.perm.device());
  launch_widen(static_cast<const std::int32_t*>(p.perm.data()), static_cast<std::int64_t*>(out.data()), p.perm.size(),
               s);
  return out;
}

array gather_rows_by(const array& a, const row_perm& p) {
  array out = new_array(a.type(), a.shape(), order::C, a.device());
  cudaStream_t s = enter_device(a.device());
  launch_gather(a.data(), a.itemsize(), index_ref{p.perm.data(), p.wide()}, a.size(), last_extent(a), out.data(), s);
  return out;
}

array sort_rows(const array& a) {
  if (is_complex(a.type())) return gather_rows_by(a, argsort_rows({a}));
  int device = a.device();
  cudaStream_t s = enter_device(device);
  std::int64_t total = a.size();
  if (total > 0 && native_key_type(a.type(), total)) {
    std::int64_t n = last_extent(a), rows = total / n;
    bool pays = !is_floating(a.type()) || total >= native_sort_min;
    if (pays && (rows == 1 || is_unsigned_integer(a.type()))) return sort_native(a, rows, n, device, s);
  }
  array k0 = new_array(a.type(), a.shape(), order::C, device);
  if (total == 0) return k0;
  int w = static_cast<int>(a.itemsize());
  launch_make_keys(a.data(), a.type(), key_part::sort, index_ref{}, total, last_extent(a), k0.data(), w, nullptr, false,
                   s);
  array k1 = new_array(a.type(), a.shape(), order::C, device);
  array r = sort_key_buffers(k0, k1, w, total, last_extent(a), device, s);
  launch_keys_to_values(r.data(), a.type(), total, s);
  return r;
}

std::int64_t read_int64(const array& a, std::int64_t index) { return a.host_value<std::int64_t>(index); }

array select_rows(const array& src, const array& flags, array* first, array* pos_out, bool consume_flags) {
  int device = src.device();
  cudaStream_t s = enter_device(device);
  std::int64_t rows = flags.size();
  array pos = consume_flags ? flags : flags.copy(order::C);
  if (rows > 0) {
    std::size_t bytes = inclusive_sum(nullptr, 0, static_cast<std::int64_t*>(pos.data()), rows, s);
    array tmp = temp_storage(bytes, device);
    inclusive_sum(tmp.data(), bytes, static_cast<std::int64_t*>(pos.data()), rows, s);
  }
  std::int64_t count = rows ? read_int64(pos, rows - 1) : 0;
  shape_t shape = src.shape();
  shape[0] = count;
  array out = new_array(src.type(), shape, order::C, device);
  std::size_t row_bytes = rows ? src.nbytes() / static_cast<std::size_t>(rows) : 0;
  if (first) *first = new_array(dtype::int64, shape_t{count}, order::C, device);
  launch_compact(src.data(), row_bytes, consume_flags ? nullptr : static_cast<const std::int64_t*>(flags.data()),
                 static_cast<const std::int64_t*>(pos.data()), rows, row_bytes ? out.data() : nullptr,
                 first ? static_cast<std::int64_t*>(first->data()) : nullptr, s);
  if (pos_out) *pos_out = pos;
  return out;
}

array compress_1d(const array& a, const array& mask) {
  return select_rows(c_contiguous(a), mask.astype(dtype::int64, order::C), nullptr, nullptr, true);  // a fresh copy
}

array concat_1d(const array& a, const array& b, dtype t) {
  std::int64_t na = a.size(), nb = b.size();
  array out = new_array(t, shape_t{na + nb}, order::C, a.device());
  std::int64_t isz = static_cast<std::int64_t>(itemsize(t));
  if (na) array(out.storage(), descriptor{t, shape_t{na}, strides_t{isz}, 0}).assign(a.reshape(shape_t{-1}));
  if (nb) array(out.storage(), descriptor{t, shape_t{nb}, strides_t{isz}, na * isz}).assign(b.reshape(shape_t{-1}));
  return out;
}

}  // namespace detail

namespace {

using detail::argsort_rows;
using detail::axis_last;
using detail::c_contiguous;
using detail::row_perm;

void check_kind(std::optional<std::string_view> kind, std::optional<bool> stable) {
  if (kind && stable) {
    throw value_error("`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
  }
  if (!kind) return;
  char c = kind->empty() ? '\0' : (*kind)[0];
  if (c != 'q' && c != 'h' && c != 'm' && c != 's') {
    throw value_error("sort kind must be one of 'quick', 'heap', or 'stable' (got '" + std::string(*kind) + "')");
  }
}

// `a` (flattened for axis nullopt) with the sort axis moved last, C-contiguous; `axis` gets the normalised one.
array prepare(const array& a, std::optional<int> axis_in, int& axis) {
  if (!axis_in) {
    axis = 0;
    return detail::ravel_c(a);
  }
  axis = normalize_axis(*axis_in, a.ndim());
  return c_contiguous(axis_last(a, axis));
}

// A result laid out as rows along the last axis, moved back to `axis` (a view).
array move_back(const array& r, int axis) {
  int nd = r.ndim();
  if (axis == nd - 1) return r;
  std::vector<int> axes;
  for (int i = 0, k = 0; i < nd; ++i) axes.push_back(i == axis ? nd - 1 : k++);
  return r.transpose(axes);
}

// NumPy returns sort's result in the input's memory order ('K'), argsort's in C order.
array in_layout_of(const array& like, const array& view, bool keep_order) {
  if (view.is_c_contiguous() && (!keep_order || like.is_c_contiguous() || like.ndim() <= 1)) return view;
  array out = detail::new_array(view.type(), view.shape(),
                                keep_order ? strides_like(view.shape(), like.strides(), view.itemsize())
                                           : contiguous_strides(view.shape(), view.itemsize()),
                                view.device());
  out.assign(view);
  return out;
}

std::vector<array> keys_along(const std::vector<array>& keys, int axis) {
  std::vector<array> out;
  for (const array& k : keys) out.push_back(c_contiguous(axis_last(k, axis)));
  return out;
}

// NumPy checks kth only when the array has elements (an empty one takes any kth, negative or beyond the
// axis), and names the kth it has wrapped once.
void check_kth(const std::vector<std::int64_t>& kth, std::int64_t n, std::int64_t size) {
  if (size == 0) return;
  for (std::int64_t k : kth) {
    std::int64_t w = k < 0 ? k + n : k;
    if (w < 0 || w >= n) {
      throw value_error("kth(=" + std::to_string(w) + ") out of bounds (" + std::to_string(n) + ")");
    }
  }
}

void check_select_kind(std::string_view kind) {
  if (kind != "introselect") {
    throw value_error("select kind must be 'introselect' (got '" + std::string(kind) + "')");
  }
}

dtype searchsorted_common(const array& a, const array& v) { return promote_types(a.type(), v.type()); }

}  // namespace

// Note [descending sorts]: NumPy 2.5's descending order is the reverse of the ascending one for the values but
// not for NaNs, which still go last (complex NaN classes in the ascending order, R+nanj < nan+Rj < nan+nanj,
// each class descending on its non-NaN part), and a stable descending sort keeps ties (-0.0 and +0.0 among
// them) in their input order. That is exactly the stable ascending argsort of an order-reversing key: -x for
// floats and complex (a NaN stays NaN, whatever its sign, and the argsort keys make every NaN the largest and
// both zeros equal), ~x for integers (no overflow, unlike -x) and !x for bool. Values are gathered through that
// permutation, so the output holds the input's bits.
static array descending_key(const array& c) {
  dtype t = c.type();
  const char* op = t == dtype::bool_ ? "logical_not" : is_inexact(t) ? "negative" : "invert";
  return c_contiguous(call_ufunc(op, {ufunc_arg(c)}, ufunc_options{})[0]);
}

// Values of the C-contiguous `c` sorted along its last axis, in either direction (a new C-contiguous array).
static array sorted_rows(const array& c, bool descending) {
  if (!descending) return detail::sort_rows(c);
  return detail::gather_rows_by(c, argsort_rows({descending_key(c)}));
}

array sort(const array& a_in, std::optional<int> axis_in, std::optional<std::string_view> kind,
           std::optional<bool> stable, bool descending) {
  check_kind(kind, stable);
  const array a = detail::on_current_device(a_in);  // CuPy: the result is on the current device
  int axis;
  array c = prepare(a, axis_in, axis);
  array r = sorted_rows(c, descending);
  if (!axis_in) return r;
  return in_layout_of(a, move_back(r, axis), true);
}

void sort_inplace(const array& a, int axis_in, std::optional<std::string_view> kind, std::optional<bool> stable,
                  bool descending) {
  check_kind(kind, stable);
  int axis = normalize_axis(axis_in, a.ndim());
  array c = c_contiguous(axis_last(a, axis));
  array r = sorted_rows(c, descending);
  array target = a;
  target.assign(move_back(r, axis));
}

array argsort(const array& a_in, std::optional<int> axis_in, std::optional<std::string_view> kind,
              std::optional<bool> stable, bool descending) {
  check_kind(kind, stable);
  const array a = detail::on_current_device(a_in);  // CuPy: the result is on the current device
  if (a.ndim() == 0 && axis_in) {
    // NumPy argsorts a 0-d array as a 1-element 1-D one.
    normalize_axis(*axis_in, 1);
    return zeros(shape_t{1}, dtype::int64);
  }
  int axis;
  array c = prepare(a, axis_in, axis);
  array r = detail::perm_int64(argsort_rows({descending ? descending_key(c) : c}));
  if (!axis_in) return r;
  return in_layout_of(a, move_back(r, axis), false);
}

array lexsort(const std::vector<array>& keys, int axis_in) {
  if (keys.empty()) throw type_error("need sequence of keys with len > 0 in lexsort");
  const shape_t& shape = keys[0].shape();
  for (const array& k : keys) {
    if (k.shape() != shape) throw value_error("all keys need to be the same shape");
  }
  if (keys[0].ndim() == 0) {
    normalize_axis(axis_in, 1);
    return zeros(shape_t{}, dtype::int64);
  }
  int axis = normalize_axis(axis_in, keys[0].ndim());
  array r = detail::perm_int64(argsort_rows(keys_along(keys, axis)));
  return in_layout_of(keys[0], move_back(r, axis), false);
}

array partition(const array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis_in,
                std::string_view kind) {
  check_select_kind(kind);
  if (axis_in) {
    int axis = normalize_axis(*axis_in, a.ndim());
    check_kth(kth, a.shape()[axis], a.size());
  } else {
    check_kth(kth, a.size(), a.size());
  }
  return sort(a, axis_in);
}

void partition_inplace(const array& a, const std::vector<std::int64_t>& kth, int axis_in, std::string_view kind) {
  check_select_kind(kind);
  int axis = normalize_axis(axis_in, a.ndim());
  check_kth(kth, a.shape()[axis], a.size());
  sort_inplace(a, axis);
}

array argpartition(const array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis_in,
                   std::string_view kind) {
  check_select_kind(kind);
  if (a.ndim() == 0 && axis_in) {
    normalize_axis(*axis_in, 1);
    check_kth(kth, 1, 1);
    return zeros(shape_t{1}, dtype::int64);
  }
  if (axis_in) {
    int axis = normalize_axis(*axis_in, a.ndim());
    check_kth(kth, a.shape()[axis], a.size());
  } else {
    check_kth(kth, a.size(), a.size());
  }
  return argsort(a, axis_in);
}

array sort_complex(const array& a) {
  dtype t = a.type();
  dtype ct = is_complex(t)                                                                        ? t
             : (t == dtype::int8 || t == dtype::uint8 || t == dtype::int16 || t == dtype::uint16) ? dtype::complex64
                                                                                                  : dtype::complex128;
  array c = a.ndim() == 0 ? a : a.astype(ct, order::C, false);
  if (a.ndim() == 0) normalize_axis(-1, 0);  // NumPy: axis -1 is out of bounds for a 0-d array
  return sort(c, -1);
}

array searchsorted(const array& a, const array& v, std::string_view side, const array& sorter) {
  bool right;
  if (side == "left") right = false;
  else if (side == "right") right = true;
  else throw value_error("search side must be 'left' or 'right' (got '" + std::string(side) + "')");
  if (a.ndim() != 1) {
    throw value_error(a.ndim() == 0 ? "object of too small depth for desired array"
                                    : "object too deep for desired array");
  }
  dtype t = searchsorted_common(a, v);
  int device = a.device();
  array ac = a.astype(t, order::C, false);
  if (sorter.defined()) {
    if (!is_integer(sorter.type())) {
      throw type_error("Cannot cast array data from dtype('" + std::string(name(sorter.type())) +
                       "') to dtype('int64') according to the rule 'safe'");
    }
    if (sorter.ndim() != 1 || sorter.size() != a.size()) throw value_error("sorter.size must equal a.size");
    array idx = sorter.astype(dtype::int64, order::C, false);
    array sorted = detail::new_array(t, a.shape(), order::C, device);
    array err = zeros(shape_t{}, dtype::int32);
    cudaStream_t s = detail::enter_device(device);
    detail::sorting::launch_gather_checked(ac.data(), ac.itemsize(), static_cast<const std::int64_t*>(idx.data()),
                                           a.size(), a.size(), sorted.data(), static_cast<int*>(err.data()), s);
    std::int32_t bad = err.host_value<std::int32_t>();
    if (bad) throw value_error("Sorter index out of range.");
    ac = sorted;
  }
  array vc = v.astype(t, order::C, false);
  array out = detail::new_array(dtype::int64, v.shape(), order::C, device);
  cudaStream_t s = detail::enter_device(device);
  detail::sorting::launch_searchsorted(ac.data(), ac.size(), vc.data(), vc.size(), t, right,
                                       static_cast<std::int64_t*>(out.data()), s);
  return out;
}

array digitize(const array& x, const array& bins, bool right) {
  if (is_complex(x.type())) throw type_error("x may not be complex");
  if (bins.ndim() != 1) {
    throw value_error(bins.ndim() == 0 ? "object of too small depth for desired array"
                                       : "object too deep for desired array");
  }
  // NumPy's _monotonicity over the bins as float64, on the host: one synchronisation, bins are usually short.
  std::int64_t n = bins.size();
  std::vector<double> b(static_cast<std::size_t>(n));
  bins.astype(dtype::float64, order::C, false).copy_to_host(b);
  int mono = 1;
  std::int64_t i = 1;
  while (i < n && b[i] == b[0]) ++i;
  if (i < n) {
    double last = b[0], next = b[i];
    bool increasing = last < next;
    mono = increasing ? 1 : -1;
    for (++i; i < n; ++i) {
      last = next;
      next = b[i];
      if (increasing ? last > next : last < next) {
        mono = 0;
        break;
      }
    }
  }
  if (mono == 0) throw value_error("bins must be monotonically increasing or decreasing");
  std::string_view side = right ? "left" : "right";
  if (mono == 1) return searchsorted(bins, x, side);
  descriptor d{bins.type(), bins.shape(), strides_t{-bins.strides()[0]}, bins.offset() + (n - 1) * bins.strides()[0]};
  array reversed(bins.storage(), d);
  array r = searchsorted(reversed, x, side);
  ufunc_options opts;
  opts.out.push_back(r);
  return call_ufunc("subtract", {ufunc_arg(n), ufunc_arg(r)}, opts)[0];
}

}  // namespace cuarray
