// Indexing: NumPy's basic and advanced (integer- and boolean-array) indexing, and the functions built on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// One entry of an index tuple, `a[i, 2:5, None, ..., idx, mask]`.
struct index_item {
  enum class kind { integer, slice, newaxis, ellipsis, array, boolean };
  kind k = kind::ellipsis;
  std::int64_t value = 0;                         ///< integer: the index; boolean: 0 or 1 (a 0-d bool)
  std::optional<std::int64_t> start, stop, step;  ///< slice: Python's slice fields (nullopt is None)
  array arr;                                      ///< array: integer or bool array

  static index_item at(std::int64_t i) { return {kind::integer, i, {}, {}, {}, {}}; }
  static index_item slice(std::optional<std::int64_t> start = std::nullopt,
                          std::optional<std::int64_t> stop = std::nullopt,
                          std::optional<std::int64_t> step = std::nullopt) {
    return {kind::slice, 0, start, stop, step, {}};
  }
  static index_item all() { return slice(); }
  static index_item newaxis() { return {kind::newaxis, 0, {}, {}, {}, {}}; }
  static index_item ellipsis() { return {kind::ellipsis, 0, {}, {}, {}, {}}; }
  static index_item of(array a) { return {kind::array, 0, {}, {}, {}, std::move(a)}; }
  static index_item boolean(bool b) { return {kind::boolean, b ? 1 : 0, {}, {}, {}, {}}; }
};
using index_key = std::vector<index_item>;

/// How an index array treats values outside [-n, n): Note [index modes].
enum class index_mode {
  wrap,   ///< taken modulo n (CuPy's indexing; no synchronisation)
  clip,   ///< clamped to [0, n-1] (NumPy's mode='clip': negative indices clip to 0 too)
  raise,  ///< index_error as NumPy's, after one synchronisation to inspect the indices
};

/// The mode of `a[idx]` and `a[idx] = v`: wrap, or raise when the environment sets CUARRAY_CHECK_INDEX=1 (read
/// once at the first call).
index_mode default_index_mode();

/// NumPy's `a[key]`: a view when the key holds only integers, slices, None and Ellipsis; otherwise a new array
/// (C order) whose shape follows NumPy's rule for where the broadcast index dimensions go. index_error for
/// malformed or out-of-range keys, as NumPy.
array getitem(const array& a, const index_key& key, index_mode mode = default_index_mode());
/// NumPy's `a[key] = value`: `value` is cast to a's dtype (unsafe casting, as NumPy's assignment) and broadcast
/// to the indexed shape; value_error when it does not broadcast. Duplicate indices write one of their values.
void setitem(const array& a, const index_key& key, const array& value, index_mode mode = default_index_mode());
void setitem(const array& a, const index_key& key, const scalar& value, index_mode mode = default_index_mode());

/// "wrap", "clip" or "raise" (value_error otherwise, with NumPy's message).
index_mode parse_index_mode(std::string_view s);

/// NumPy's take (axis nullopt: the flattened array). The result has shape
/// a.shape[:axis] + indices.shape + a.shape[axis+1:].
array take(const array& a, const array& indices, std::optional<int> axis = std::nullopt,
           index_mode mode = index_mode::raise, const array& out = array());
/// NumPy's put: a.flat[ind] = v, with v repeated when shorter than ind.
void put(const array& a, const array& ind, const array& v, index_mode mode = index_mode::raise);
/// NumPy's take_along_axis: indices have a's ndim and broadcast with a off `axis` (nullopt: flattened a).
array take_along_axis(const array& a, const array& indices, std::optional<int> axis);
/// NumPy's put_along_axis.
void put_along_axis(const array& a, const array& indices, const array& values, std::optional<int> axis);
/// NumPy's compress: the slices along `axis` (nullopt: flattened) where the 1-D condition is true.
array compress(const array& condition, const array& a, std::optional<int> axis = std::nullopt,
               const array& out = array());
/// NumPy's place: a[mask] = vals with vals repeated as needed (value_error when vals is empty and the mask
/// selects something).
void place(const array& a, const array& mask, const array& vals);
/// NumPy's putmask: a.flat[n] = values.flat[n % values.size] where mask.flat[n].
void putmask(const array& a, const array& mask, const array& values);

}  // namespace cuarray
