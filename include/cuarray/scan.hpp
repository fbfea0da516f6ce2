// Cumulative sums and products (cumsum, cumprod and their variants) and differences (diff, ediff1d, gradient).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// NumPy's cumsum: running sums along `axis` (none: over the array flattened in C order). The result dtype is
/// `dt`, else `out`'s, else NumPy's accumulator (bool and small integers: int64 / uint64). Written into `out`
/// when given (same shape as the result).
array cumsum(const array& a, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
             const array& out = array());
/// NumPy's cumprod: running products, as cumsum.
array cumprod(const array& a, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
              const array& out = array());
/// cumsum treating NaN as 0 (NumPy's nancumsum; complex values with a NaN part count as 0).
array nancumsum(const array& a, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
                const array& out = array());
/// cumprod treating NaN as 1.
array nancumprod(const array& a, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
                 const array& out = array());
/// NumPy 2's array-API cumulative_sum: `axis` is required beyond one dimension; `include_initial` prepends 0.
array cumulative_sum(const array& x, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
                     const array& out = array(), bool include_initial = false);
/// NumPy 2's cumulative_prod: as cumulative_sum, the initial value being 1.
array cumulative_prod(const array& x, std::optional<int> axis = std::nullopt, std::optional<dtype> dt = std::nullopt,
                      const array& out = array(), bool include_initial = false);

/// NumPy's diff: the n-th discrete difference along `axis` (not_equal for bool); `prepend` / `append` (0-d
/// values broadcast to one slice) are concatenated first.
array diff(const array& a, std::int64_t n = 1, int axis = -1, const std::optional<array>& prepend = std::nullopt,
           const std::optional<array>& append = std::nullopt);
/// NumPy's ediff1d: differences of the flattened array, with `to_begin` / `to_end` (flattened) around them.
array ediff1d(const array& ary, const std::optional<array>& to_end = std::nullopt,
              const std::optional<array>& to_begin = std::nullopt);

/// The sample spacing of one axis of gradient: a uniform step, or the coordinates (1-D, one per sample).
struct gradient_spacing {
  double step = 1.0;
  array coordinates;  ///< defined: coordinate values instead of `step`
  gradient_spacing(double s = 1.0) : step(s) {}
  gradient_spacing(array c) : coordinates(std::move(c)) {}
};
/// NumPy's gradient: second-order central differences inside, first- or second-order (`edge_order`) one-sided
/// at the boundaries, along `axes` (all if none). `spacing`: empty (unit steps), one scalar for every axis, or
/// one entry per axis. One array per axis.
std::vector<array> gradient(const array& f, const std::vector<gradient_spacing>& spacing = {},
                            const std::optional<std::vector<int>>& axes = std::nullopt, int edge_order = 1);

}  // namespace cuarray
