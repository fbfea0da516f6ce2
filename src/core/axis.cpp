// The axis normaliser every routine and binding uses, so that range and repeat errors read as NumPy's.
#include "cuarray/axis.hpp"

#include <algorithm>
#include <string>

#include "cuarray/errors.hpp"

namespace cuarray {

int normalize_axis(std::int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw axis_error("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                     std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const std::vector<int>& axes, int ndim, const axis_rules& rules) {
  std::vector<int> out;
  out.reserve(axes.size());
  if (!rules.check_in_order) {
    for (int ax : axes) out.push_back(normalize_axis(ax, ndim));
  }
  std::vector<bool> seen(static_cast<std::size_t>(std::max(ndim, 0)), false);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    int k = rules.check_in_order ? normalize_axis(axes[i], ndim) : out[i];
    if (!rules.allow_repeats && seen[static_cast<std::size_t>(k)]) throw value_error(rules.repeat_message);
    seen[static_cast<std::size_t>(k)] = true;
    if (rules.check_in_order) out.push_back(k);
  }
  if (rules.sort) std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> normalize_axis_tuple(const std::vector<int>& axes, int ndim, bool allow_duplicate) {
  axis_rules r;
  r.allow_repeats = allow_duplicate;
  return normalize_axes(axes, ndim, r);
}

std::vector<int> reduction_axes(const std::optional<std::vector<int>>& axis, int ndim) {
  if (!axis) {
    std::vector<int> all(static_cast<std::size_t>(std::max(ndim, 0)));
    for (int i = 0; i < ndim; ++i) all[static_cast<std::size_t>(i)] = i;
    return all;
  }
  axis_rules r;
  r.repeat_message = "duplicate value in 'axis'";
  r.sort = true;
  return normalize_axes(*axis, ndim, r);
}

}  // namespace cuarray
