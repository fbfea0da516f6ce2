// Index-key checks and the assigned value's fit, shared by the indexing file, insert and the Python front end.
#pragma once

#include "cuarray/array.hpp"
#include "cuarray/indexing.hpp"

namespace cuarray::detail {

/// NumPy's index parsing of `key` against `a` (its prepare_index), which comes before an assigned value is
/// converted: a second ellipsis, too many indices, an index array of a non-integer dtype, an integer out of
/// range, a boolean index of the wrong shape each raise getitem's index_error. Whether the index arrays broadcast
/// together and whether their values are in range are not checked: NumPy looks at those after the value.
void check_index_key(const array& a, const index_key& key);

/// A value assigned through index arrays, fitted to the indexing result's shape as NumPy does: its leading unit
/// dimensions dropped first (a (1, 2, 3) value fills a result of shape (2, 3)), then it must broadcast to the
/// result, else value_error "shape mismatch: value array of shape ... could not be broadcast to indexing result
/// of shape ...". Returns the value with those dimensions dropped, not yet broadcast.
array fit_value(array val, const shape_t& result_shape);

}  // namespace cuarray::detail
