// Helpers shared by the manipulation sources: views along one axis, axis lists, index-mapped copies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/manipulation.hpp"

namespace cuarray::detail {

/// A view with another descriptor over the same storage.
inline array with_layout(const array& a, shape_t shape, strides_t strides, std::int64_t offset) {
  return array(a.storage(), descriptor{a.type(), std::move(shape), std::move(strides), offset});
}

/// a[..., start:stop, ...] along `axis`, with 0 <= start <= stop <= extent (a view).
array slice_axis(const array& a, int axis, std::int64_t start, std::int64_t stop);

/// A view of `a` with `count` unit axes in front.
array prepend_unit_axes(const array& a, int count);

/// Python's slice.indices(n) for one clamped slice of a sequence of length n: (start, stop, step, length).
void slice_indices(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                   std::optional<std::int64_t> step, std::int64_t n, std::int64_t& s, std::int64_t& e, std::int64_t& st,
                   std::int64_t& len);

/// dst[..., dmap[j], ...] = src[..., smap[j], ...] along `axis` for j < m, other axes equal; maps live on the
/// host (empty: identity) and are copied to the device. Same dtype; any layouts (packed copies as needed).
void axis_map_copy(const array& dst, const array& src, int axis, std::int64_t m, const std::vector<std::int64_t>& dmap,
                   const std::vector<std::int64_t>& smap);

/// "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'".
std::string cast_error_message(dtype from, dtype to, casting rule);

}  // namespace cuarray::detail
