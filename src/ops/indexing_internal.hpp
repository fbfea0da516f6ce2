// Index-key checks shared by the indexing file and the Python front end.
#pragma once

#include "cuarray/array.hpp"
#include "cuarray/indexing.hpp"

namespace cuarray::detail {

/// NumPy's index parsing of `key` against `a` (its prepare_index), which comes before an assigned value is
/// converted: a second ellipsis, too many indices, an index array of a non-integer dtype, an integer out of
/// range, a boolean index of the wrong shape each raise getitem's index_error. Whether the index arrays broadcast
/// together and whether their values are in range are not checked: NumPy looks at those after the value.
void check_index_key(const array& a, const index_key& key);

}  // namespace cuarray::detail
