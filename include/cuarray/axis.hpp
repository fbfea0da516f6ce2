// Axis arguments normalised in one place, with NumPy's rules and messages (one axis, a tuple, a reduction's axes).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace cuarray {

/// Normalise an axis into [0, ndim); throws axis_error "axis X is out of bounds for array of dimension N".
int normalize_axis(std::int64_t axis, int ndim);

/// How a tuple of axes is checked. NumPy has two orders: normalize_axis_tuple and ufunc.reduce range-check
/// every entry before they look for repeats, transpose stops at the first bad entry, whichever kind it is;
/// the repeat messages differ by caller too.
struct axis_rules {
  const char* repeat_message = "repeated axis";  ///< value_error text for a repeated axis
  bool allow_repeats = false;                    ///< keep repeats (sliding_window_view, ...)
  bool check_in_order = false;                   ///< transpose's order: the first bad entry decides the error
  bool sort = false;                             ///< the result ascending (reductions)
};

/// The one normaliser: each entry through normalize_axis, repeats refused per `rules`.
std::vector<int> normalize_axes(const std::vector<int>& axes, int ndim, const axis_rules& rules);

/// NumPy's normalize_axis_tuple: the axes in the order given; axis_error, then value_error "repeated axis".
std::vector<int> normalize_axis_tuple(const std::vector<int>& axes, int ndim, bool allow_duplicate = false);

/// The axes of a ufunc reduction (sum, max, any, ReductionKernel...): all of them when absent, else every entry
/// range-checked, then repeats refused ("duplicate value in 'axis'"), ascending.
std::vector<int> reduction_axes(const std::optional<std::vector<int>>& axis, int ndim);

}  // namespace cuarray
