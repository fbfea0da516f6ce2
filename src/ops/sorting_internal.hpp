// Building blocks shared by the sorting and the set-operation files: row sorts, permutations, compaction.
#pragma once

#include <cstdint>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray::detail {

/// `a` itself when C-contiguous, else a C-contiguous copy.
array c_contiguous(const array& a);
/// The flattened (C order), C-contiguous array.
array ravel_c(const array& a);
/// A view of `a` with `axis` moved last (no copy).
array axis_last(const array& a, int axis);

/// A permutation of each row (indices within the row): int32 unless the rows are 2**31 long or more.
struct row_perm {
  array perm;  ///< int32 or int64, shape of the keys
  bool wide() const { return perm.type() == dtype::int64; }
};

/// Stable argsort of C-contiguous arrays of one shape along their last axis, by keys[K-1], then keys[K-2], ...
row_perm argsort_rows(const std::vector<array>& keys);
/// The permutation as int64.
array perm_int64(const row_perm& p);
/// Values of the C-contiguous `a` sorted along the last axis (a new C-contiguous array).
array sort_rows(const array& a);
/// dst[i] = a[row(i), perm[i]] over the C-contiguous `a`.
array gather_rows_by(const array& a, const row_perm& p);

/// The value of a device int64 element (one synchronisation).
std::int64_t read_int64(const array& a, std::int64_t index);

/// Compaction of the rows of the C-contiguous `src` (rows = shape[0]) where `flags` (int64, one per row) is
/// set; `first` receives the row index of each kept row when asked for. Reads the count back (one sync).
/// With consume_flags, the 0/1 `flags` are scanned in place (their buffer becomes the positions) instead of
/// into a copy: one n-element int64 buffer less at the peak of unique and compress.
array select_rows(const array& src, const array& flags, array* first = nullptr, array* pos_out = nullptr,
                  bool consume_flags = false);
/// Elements of the 1-D `a` where the bool `mask` is true.
array compress_1d(const array& a, const array& mask);
/// The two arrays flattened and joined in dtype `t`.
array concat_1d(const array& a, const array& b, dtype t);

}  // namespace cuarray::detail
