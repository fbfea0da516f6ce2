// Counting: bincount and the histogram family (histogram, histogram_bin_edges, histogram2d, histogramdd).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// NumPy's bincount: occurrences of each value of the non-negative integer 1-D `x` (int64), or the sums of
/// `weights` (float64); at least `minlength` bins. Reads max(x) on the host: one synchronisation.
array bincount(const array& x, const array& weights = array(), std::int64_t minlength = 0);

/// The `bins` argument of the histogram functions: a number of equal-width bins, explicit edges (1-D,
/// non-decreasing), or the name of one of NumPy's estimators ("auto", "fd", "doane", "scott", "stone",
/// "rice", "sturges", "sqrt").
struct histogram_bins {
  std::int64_t count = 10;
  array edges;
  std::string rule;
  histogram_bins(std::int64_t n = 10) : count(n) {}
  histogram_bins(array e) : edges(std::move(e)) {}
  histogram_bins(std::string r) : rule(std::move(r)) {}
  histogram_bins(const char* r) : rule(r) {}
};

/// The `range` argument: (lower, upper) bounds, as Python floats (weak under NEP 50).
using histogram_range = std::optional<std::pair<double, double>>;

/// NumPy's histogram over the flattened `a`: (counts, edges). Counts are int64, or of the weights' dtype, or
/// float64 (complex128 for complex weights) with `density`; values equal to the last edge fall in the last
/// bin, values outside the edges and NaN are not counted.
std::pair<array, array> histogram(const array& a, const histogram_bins& bins = {}, const histogram_range& range = {},
                                  bool density = false, const array& weights = array());
/// The edges histogram would use.
array histogram_bin_edges(const array& a, const histogram_bins& bins = {}, const histogram_range& range = {},
                          const array& weights = array());
/// NumPy's histogramdd over `sample` (N, D) (a 1-D sample is (N, 1)): float64 counts of shape (nbins_0, ...,)
/// and the edges of each dimension. `bins` and `range` have one entry per dimension, or one for all.
std::pair<array, std::vector<array>> histogramdd(const array& sample, const std::vector<histogram_bins>& bins = {10},
                                                 const std::vector<histogram_range>& range = {}, bool density = false,
                                                 const array& weights = array());
/// histogramdd of D 1-D arrays of equal length (the columns of the sample).
std::pair<array, std::vector<array>> histogramdd(const std::vector<array>& columns,
                                                 const std::vector<histogram_bins>& bins = {10},
                                                 const std::vector<histogram_range>& range = {}, bool density = false,
                                                 const array& weights = array());
/// NumPy's histogram2d: (counts, x edges, y edges); `bins` has one entry for both or one per axis.
std::tuple<array, array, array> histogram2d(const array& x, const array& y,
                                            const std::vector<histogram_bins>& bins = {10},
                                            const std::vector<histogram_range>& range = {}, bool density = false,
                                            const array& weights = array());

}  // namespace cuarray
