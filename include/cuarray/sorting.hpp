// Sorting, searching and set operations: NumPy's sort, argsort, lexsort, partition, searchsorted, unique, isin...
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

// Every sort is stable whatever `kind` says (NumPy allows that: kind only names an algorithm); NaNs sort
// last, complex values in NumPy's order (R+Rj, R+nanj, nan+Rj, nan+nanj). An axis of std::nullopt means
// the flattened array. `kind` is NumPy's: nullopt or a name starting with 'q', 'h', 'm' or 's';
// `stable` is NumPy's keyword, which may not be given together with `kind`. `descending` is NumPy 2.5's (and the
// Array API's): the values in reverse order, NaNs still last, ties still in their input order.

/// A sorted copy of `a` along `axis` (same dtype and shape; 1-D when axis is nullopt).
array sort(const array& a, std::optional<int> axis = -1, std::optional<std::string_view> kind = std::nullopt,
           std::optional<bool> stable = std::nullopt, bool descending = false);
/// ndarray.sort: sort `a` in place along `axis`.
void sort_inplace(const array& a, int axis = -1, std::optional<std::string_view> kind = std::nullopt,
                  std::optional<bool> stable = std::nullopt, bool descending = false);
/// Indices (int64) that sort `a` along `axis`; ties keep their input order.
array argsort(const array& a, std::optional<int> axis = -1, std::optional<std::string_view> kind = std::nullopt,
              std::optional<bool> stable = std::nullopt, bool descending = false);
/// Indices (int64) sorting by the last key, then the one before, ...; keys of one shape, sorted along `axis`.
array lexsort(const std::vector<array>& keys, int axis = -1);
/// NumPy's partition: kth in [-n, n) for the axis length n (value_error otherwise); here a full sort, which
/// satisfies the contract (kth element in place, smaller before, larger after).
array partition(const array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1,
                std::string_view kind = "introselect");
/// ndarray.partition: `a` partitioned in place (here: sorted) along `axis`.
void partition_inplace(const array& a, const std::vector<std::int64_t>& kth, int axis = -1,
                       std::string_view kind = "introselect");
array argpartition(const array& a, const std::vector<std::int64_t>& kth, std::optional<int> axis = -1,
                   std::string_view kind = "introselect");
/// Sorted along the last axis, as complex (complex64 for int8/uint8/int16/uint16 and complex64, else complex128).
array sort_complex(const array& a);

/// Insertion indices (int64, shape of v) of v into the sorted 1-D `a`; `side` "left" or "right"; `sorter`
/// (integers) sorts `a` when given. Both are compared in their common dtype.
array searchsorted(const array& a, const array& v, std::string_view side = "left", const array& sorter = array());
/// Indices of the bins (1-D, monotonic; value_error otherwise) to which each x belongs (NumPy's digitize).
array digitize(const array& x, const array& bins, bool right = false);

/// unique's outputs; those not asked for are undefined arrays.
struct unique_result {
  array values, indices, inverse, counts;
};
/// NumPy 2's unique: sorted unique values (or sub-arrays along `axis`), first indices, inverse (the input's
/// shape when axis is nullopt, else 1-D) and counts. `equal_nan` merges NaNs (axis nullopt only, as NumPy).
unique_result unique(const array& ar, bool return_index = false, bool return_inverse = false,
                     bool return_counts = false, std::optional<int> axis = std::nullopt, bool equal_nan = true);
/// Array API: unique_values, unique_counts (values, counts), unique_inverse (values, inverse), unique_all.
array unique_values(const array& x);
unique_result unique_counts(const array& x);
unique_result unique_inverse(const array& x);
unique_result unique_all(const array& x);

/// Whether each element of `element` is in `test_elements` (shape of `element`); `kind` nullopt, "sort" or
/// "table" (integers and bool only), all computed by sorting and binary search.
array isin(const array& element, const array& test_elements, bool assume_unique = false, bool invert = false,
           std::optional<std::string_view> kind = std::nullopt);
/// isin over the flattened ar1 (1-D result), as CuPy's in1d (NumPy 2.4 removed it).
array in1d(const array& ar1, const array& ar2, bool assume_unique = false, bool invert = false,
           std::optional<std::string_view> kind = std::nullopt);

struct intersect_result {
  array values, indices1, indices2;
};
/// Sorted common values; with `return_indices`, also the first indices into the flattened inputs.
intersect_result intersect1d(const array& ar1, const array& ar2, bool assume_unique = false,
                             bool return_indices = false);
array union1d(const array& ar1, const array& ar2);
array setdiff1d(const array& ar1, const array& ar2, bool assume_unique = false);
array setxor1d(const array& ar1, const array& ar2, bool assume_unique = false);

}  // namespace cuarray
