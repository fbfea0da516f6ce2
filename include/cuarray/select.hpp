// Selection by truth value: nonzero, flatnonzero, argwhere, extract and boolean-mask indexing.
#pragma once

#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// NumPy's nonzero: per dimension, the int64 indices of the nonzero elements in C order (value_error for 0-d
/// input, as NumPy 2). Needs the count on the host: one synchronisation.
std::vector<array> nonzero(const array& a);
/// Indices of the nonzero elements of the flattened array.
array flatnonzero(const array& a);
/// NumPy's argwhere: (count, ndim) int64 indices of the nonzero elements (a 0-d input gives (count, 0)).
array argwhere(const array& a);
/// NumPy's extract: the elements of arr.ravel() where condition.ravel() is nonzero (index_error when the
/// condition selects beyond arr's size).
array extract(const array& condition, const array& arr);
/// a[mask] for a bool `mask` whose shape is a's shape or its leading dimensions: the selected elements (or
/// sub-arrays) in C order, shape (count,) + a.shape[mask.ndim:]. index_error when the shapes do not match.
array compress_mask(const array& a, const array& mask);

}  // namespace cuarray
