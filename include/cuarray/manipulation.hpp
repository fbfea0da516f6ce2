// Array manipulation: NumPy's shape, axis, joining, splitting and rearranging functions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// Results that NumPy returns as views share `a`'s storage here too (result.storage() == a.storage()); everything
// else is a new array. An axis list of std::nullopt is NumPy's axis=None.

// ---- shape ----------------------------------------------------------------------------------------------------

/// NumPy's reshape: one extent may be -1; a view whenever the strides allow it (not only for contiguous
/// arrays), else a copy in `o` order. `copy`: true always copies, false raises value_error rather than copy.
array reshape(const array& a, const shape_t& shape, order o = order::C, std::optional<bool> copy = std::nullopt);
/// The reshaped view, or nullopt when the strides do not allow one (NumPy's `ndarray.shape = ...`).
std::optional<array> reshape_view_if_possible(const array& a, const shape_t& shape, order o = order::C);
/// 1-D view if possible, else a copy; orders C, F, A and K (K: memory order, a view for any dense layout).
array ravel(const array& a, order o = order::C);
/// A 1-D copy in the given order.
array flatten(const array& a, order o = order::C);
/// Drop unit axes (all when `axis` is nullopt; value_error for a named axis of length other than 1).
array squeeze(const array& a, const std::optional<std::vector<int>>& axis = std::nullopt);
/// Insert unit axes at the positions `axis` of the result (value_error for repeats).
array expand_dims(const array& a, const std::vector<int>& axis);
array atleast_1d(const array& a);
array atleast_2d(const array& a);  ///< (n,) -> (1, n)
array atleast_3d(const array& a);  ///< (n,) -> (1, n, 1), (m, n) -> (m, n, 1)
/// Read-only-in-spirit broadcast view (NumPy's broadcast_to); value_error when the shapes do not broadcast.
array broadcast_to(const array& a, const shape_t& shape);
/// Views of all arrays broadcast to their common shape.
std::vector<array> broadcast_arrays(const std::vector<array>& arrays);
/// NumPy's broadcast_shapes over any number of shapes.
shape_t broadcast_shapes(const std::vector<shape_t>& shapes);
/// NumPy's resize function: a new array of `shape` filled with a's elements (C order) repeated as needed.
array resize(const array& a, const shape_t& shape);

// ---- axes -----------------------------------------------------------------------------------------------------

array transpose(const array& a, const std::optional<std::vector<int>>& axes = std::nullopt);
array permute_dims(const array& a, const std::optional<std::vector<int>>& axes = std::nullopt);
array swapaxes(const array& a, int axis1, int axis2);
array moveaxis(const array& a, const std::vector<int>& source, const std::vector<int>& destination);
array rollaxis(const array& a, int axis, int start = 0);
/// Swap the last two axes (value_error below two dimensions).
array matrix_transpose(const array& a);

// ---- joining --------------------------------------------------------------------------------------------------

/// Options of the joining functions: NumPy's out=, dtype= and casting=.
struct join_options {
  array out;                          ///< written into when defined (shape must match)
  std::optional<dtype> dtype_;        ///< result dtype (not together with out)
  casting rule = casting::same_kind;  ///< checked from each input to the result dtype
};

/// Join along an existing axis (nullopt: flatten every input first); each input is copied once, straight into
/// its slice of the result. Result dtype: NumPy's promotion of the inputs unless given.
array concatenate(const std::vector<array>& arrays, std::optional<int> axis = 0, const join_options& o = {});
/// Join along a new axis (inputs of one shape).
array stack(const std::vector<array>& arrays, int axis = 0, const join_options& o = {});
array vstack(const std::vector<array>& arrays, const join_options& o = {});
array row_stack(const std::vector<array>& arrays, const join_options& o = {});
array hstack(const std::vector<array>& arrays, const join_options& o = {});
array dstack(const std::vector<array>& arrays);
array column_stack(const std::vector<array>& arrays);

/// A nested list of NumPy's block: a leaf array, or a list of blocks.
struct block_item {
  array leaf;
  std::vector<block_item> items;
  bool is_list = false;
  block_item() = default;
  block_item(array a) : leaf(std::move(a)) {}
  static block_item list(std::vector<block_item> v) {
    block_item b;
    b.items = std::move(v);
    b.is_list = true;
    return b;
  }
};
/// NumPy's block: assemble an array from nested lists of blocks (the innermost list joins along the last axis).
array block(const block_item& blocks);

// ---- splitting ------------------------------------------------------------------------------------------------

/// Views: `sections` equal parts (value_error when they are not equal), or parts split before each index.
std::vector<array> split(const array& a, std::int64_t sections, int axis = 0);
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices, int axis = 0);
/// As split, `sections` parts that may differ in length by one.
std::vector<array> array_split(const array& a, std::int64_t sections, int axis = 0);
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices, int axis = 0);
std::vector<array> hsplit(const array& a, std::int64_t sections);
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> vsplit(const array& a, std::int64_t sections);
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> dsplit(const array& a, std::int64_t sections);
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices);
/// Views of each index along `axis` (NumPy 2.1's unstack).
std::vector<array> unstack(const array& a, int axis = 0);

// ---- rearranging ----------------------------------------------------------------------------------------------

/// Reversed along the axes (all when nullopt): a view with negated strides.
array flip(const array& a, const std::optional<std::vector<int>>& axis = std::nullopt);
array fliplr(const array& a);
array flipud(const array& a);
/// Rotate by 90 degrees k times in the plane of `axes` (a view).
array rot90(const array& a, std::int64_t k = 1, std::pair<int, int> axes = {0, 1});
/// Roll elements by `shift` along the axes (flattened when `axis` is nullopt; shifts broadcast to axes).
array roll(const array& a, const std::vector<std::int64_t>& shift,
           const std::optional<std::vector<int>>& axis = std::nullopt);
/// Repeat the whole array `reps` times along each axis.
array tile(const array& a, const std::vector<std::int64_t>& reps);
/// Repeat each element `repeats` times along `axis` (flattened when nullopt).
array repeat(const array& a, std::int64_t repeats, std::optional<int> axis = std::nullopt);
/// Per-element counts (one per element along the axis, or a single count).
array repeat(const array& a, const std::vector<std::int64_t>& repeats, std::optional<int> axis = std::nullopt);

/// NumPy's pad modes (a callable mode is the Python binding's, run through NumPy on the host).
enum class pad_mode { constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric, wrap, empty };
/// "constant", "edge", ...; value_error "mode 'x' is not supported" otherwise.
pad_mode parse_pad_mode(std::string_view s);

/// Per-axis (before, after) pairs of pad's keywords; values are cast to the array's dtype as NumPy assigns them.
struct pad_options {
  std::vector<std::pair<scalar, scalar>> constant_values;  ///< per axis; empty: zeros
  std::vector<std::pair<scalar, scalar>> end_values;       ///< per axis (linear_ramp); empty: zeros
  /// Per axis (maximum, mean, median, minimum); -1 is None (the whole axis); empty: all None.
  std::vector<std::pair<std::int64_t, std::int64_t>> stat_length;
  bool reflect_odd = false;  ///< reflect_type='odd'
};
/// NumPy's pad: `pad_width` holds one (before, after) pair per axis, none negative.
array pad(const array& a, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
          pad_mode mode = pad_mode::constant, const pad_options& options = {});

/// concatenate((a, values)) along `axis`, or of both flattened when nullopt.
array append(const array& arr, const array& values, std::optional<int> axis = std::nullopt);

/// The `obj` of insert and delete: one index, a slice, or a list of indices (or a bool mask, delete only).
struct index_obj {
  enum kind_t { integer, slice, list, mask } kind = integer;
  std::int64_t index = 0;
  std::optional<std::int64_t> start, stop, step;  ///< slice bounds, NumPy's None as nullopt
  std::vector<std::int64_t> indices;              ///< list; mask: 0/1 per position
  bool list_is_scalar_shaped = false;             ///< a 0-d integer array: inserts like a single index
};
/// NumPy's insert: `values` inserted before the given positions along `axis` (flattened when nullopt);
/// `values` is cast to arr's dtype.
array insert(const array& arr, const index_obj& obj, const array& values, std::optional<int> axis = std::nullopt);
/// NumPy's delete (`delete_`: `delete` is a C++ keyword).
array delete_(const array& arr, const index_obj& obj, std::optional<int> axis = std::nullopt);

/// Strip leading ('f') and/or trailing ('b') zeros; with `axis` (NumPy 2.2) along each of those axes
/// (nullopt: every axis), by bounding box of the nonzero elements.
array trim_zeros(const array& filt, std::string_view trim = "fb",
                 const std::optional<std::vector<int>>& axis = std::nullopt);

/// Coordinate matrices from coordinate vectors; `indexing` "xy" or "ij"; views when sparse or !copy.
std::vector<array> meshgrid(const std::vector<array>& xi, std::string_view indexing = "xy", bool sparse = false,
                            bool copy = true);

}  // namespace cuarray
