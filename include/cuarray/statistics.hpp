// Order statistics and composite statistics: median, quantiles, average, trapezoid, cov, corrcoef, correlate.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

/// A division by a zero sum of weights (Python: ZeroDivisionError, as NumPy's average raises).
struct zero_division_error : std::domain_error {
  using std::domain_error::domain_error;
};

/// NumPy's quantile methods, in NumPy's order (H&F 1-9, then lower, higher, midpoint, nearest).
enum class quantile_method {
  inverted_cdf,
  averaged_inverted_cdf,
  closest_observation,
  interpolated_inverted_cdf,
  hazen,
  weibull,
  linear,
  median_unbiased,
  normal_unbiased,
  lower,
  higher,
  midpoint,
  nearest,
};

/// A method by NumPy's name; value_error with NumPy's message otherwise.
quantile_method parse_quantile_method(std::string_view name);

/// NumPy's keywords of percentile/quantile and their nan- forms.
struct quantile_options {
  axis_list axis;                 ///< None: the flattened array
  array out;                      ///< result written here (its shape must be the result's)
  bool overwrite_input = false;   ///< accepted; the input is never modified (NumPy allows either)
  std::string method = "linear";  ///< one of NumPy's 13 method names
  bool keepdims = false;
  array weights;  ///< inverted_cdf only: a's shape, or the reduced axes' shape
};

/// Median along the axes (mean of the two middle values for an even count): float64 for integer and bool
/// input, the input's dtype for inexact ones; a slice containing NaN gives NaN; an empty slice gives NaN.
array median(const array& a, const axis_list& axis = std::nullopt, const array& out = array(),
             bool overwrite_input = false, bool keepdims = false);
/// Median ignoring NaN (an all-NaN slice gives NaN; empty input gives nanmean's result, as NumPy).
array nanmedian(const array& a, const axis_list& axis = std::nullopt, const array& out = array(),
                bool overwrite_input = false, bool keepdims = false);

/// Quantiles for q in [0, 1] (value_error otherwise): result shape q.shape + the reduced shape. `q` is weak
/// (a C++ number, like a Python int/float) or strong (an array or a typed scalar): as in NumPy, that and
/// q's dtype decide the result dtype of the interpolating methods. Real input only (type_error for complex).
array quantile(const array& a, const ufunc_arg& q, const quantile_options& o = {});
/// quantile(a, q / 100) with q in [0, 100].
array percentile(const array& a, const ufunc_arg& q, const quantile_options& o = {});
/// The same ignoring NaN (an all-NaN slice gives NaN).
array nanquantile(const array& a, const ufunc_arg& q, const quantile_options& o = {});
array nanpercentile(const array& a, const ufunc_arg& q, const quantile_options& o = {});

/// NumPy's average: mean without weights; else sum(a * w) / sum(w) in result_type(a, w) (float64 at least
/// for integer and bool a). Weights of a's shape, or of the reduced axes' shape. zero_division_error when a
/// sum of weights is zero.
array average(const array& a, const axis_list& axis = std::nullopt, const array& weights = array(),
              bool keepdims = false);
/// average with returned=True: (average, sum of weights broadcast to the average's shape).
std::pair<array, array> average_returned(const array& a, const axis_list& axis = std::nullopt,
                                         const array& weights = array(), bool keepdims = false);

/// Integral by the trapezoidal rule along `axis`, with sample points `x` (1-D or y's shape) or spacing dx.
array trapezoid(const array& y, const array& x = array(), const ufunc_arg& dx = 1.0, int axis = -1);

/// Covariance matrix of the variables (rows, or columns when !rowvar) of m and y, with NumPy's ddof, bias,
/// fweights (integer frequencies) and aweights; squeezed as NumPy's (0-d for one variable).
array cov(const array& m, const array& y = array(), bool rowvar = true, bool bias = false,
          std::optional<double> ddof = std::nullopt, const array& fweights = array(), const array& aweights = array(),
          std::optional<dtype> dtype_ = std::nullopt);
/// Pearson correlation coefficients (cov normalised by the standard deviations, clipped to [-1, 1]).
array corrcoef(const array& x, const array& y = array(), bool rowvar = true,
               std::optional<dtype> dtype_ = std::nullopt);

/// Cross-correlation of two 1-D arrays, c[k] = sum_n a[n + k] * conj(v[n]); mode "valid", "same" or "full".
array correlate(const array& a, const array& v, std::string_view mode = "valid");
/// Discrete linear convolution of two 1-D arrays; mode "full", "same" or "valid".
array convolve(const array& a, const array& v, std::string_view mode = "full");

namespace detail {
/// The run-time compiled kernels behind these functions (name, body, preamble), for tests that compile them.
struct statistics_kernel {
  std::string name, body, preamble;
};
std::vector<statistics_kernel> statistics_kernels();
/// (index arithmetic dtype, result dtype) of a quantile of `a` for q of dtype `q` (after percentile's
/// division by 100), weak when q was a Python int/float; type_error where NumPy's interpolation of bool fails.
std::pair<dtype, dtype> quantile_types(dtype a, dtype q, bool weak, quantile_method method, bool weighted);
}  // namespace detail

}  // namespace cuarray
