// Reductions: sum, prod, min/max, argmin/argmax, mean, var/std, any/all, count_nonzero and their NaN-ignoring forms.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray {

/// The axes a reduction folds: all of them when empty (NumPy's axis=None), else a list (negative counts from
/// the end; repeats raise ValueError).
using axis_list = std::optional<std::vector<int>>;

/// NumPy's keyword arguments of a reduction.
struct reduce_options {
  axis_list axis;                 ///< None: every axis
  bool keepdims = false;          ///< keep reduced axes with length 1
  std::optional<dtype> dtype_;    ///< accumulator and result dtype (NumPy's dtype=)
  array out;                      ///< result written here (cast 'unsafe' as NumPy's reductions do)
  std::optional<scalar> initial;  ///< starting value (sum/prod/min/max); min/max of an empty axis need it
  array where;                    ///< bool mask broadcast against the input: only true elements take part
};

/// The result dtype of sum/prod (and nansum/nanprod) without dtype=, as NumPy's add.reduce: bool and small
/// integers widen to int64 / uint64, other types stay.
dtype sum_result_type(dtype t);

/// Note [loop dtype from out]: the dtype a ufunc reduction (`op`: sum, prod, max or min, their nan forms, amax, amin)
/// folds in, as NumPy's ufunc.reduce picks it: dtype= when given; else, with out=, the promotion of out's dtype
/// and the input's (sum of int64 into a float64 out adds in float64, so it does not wrap; min of uint16 with
/// initial=2.5 into a complex out keeps 2.5); else sum_result_type for sum and prod, the input's for max/min.
dtype reduction_loop_type(std::string_view op, dtype in, const std::optional<dtype>& dtype_, const array& out);

/// A built-in reduction as the engine runs it, for code generators that fold their own expressions the same
/// way (fuse): the result and accumulator dtypes, and CUDA C++ over the engine's names (`acc_t`; the combine
/// writes `r` from `a` and `b`; the map writes `m` from the element `x`).
struct reduction_definition {
  dtype result;          ///< NumPy's result dtype (sum of int8: int64)
  dtype accumulator;     ///< the type folded in (float16 folds in float32)
  std::string map;       ///< one element to the accumulator (nansum: NaN to 0)
  std::string combine;   ///< the associative fold of two accumulators
  std::string identity;  ///< the value an empty fold starts from (max: the lowest value of the type)
};

/// The definition of reduction `op` (sum, prod, nansum, nanprod, max, min, nanmax, nanmin, any, all) of an input
/// of type `in` with NumPy's dtype= `dtype_`; value_error for any other name.
reduction_definition builtin_reduction(std::string_view op, dtype in, std::optional<dtype> dtype_ = std::nullopt);

/// Results are arrays: a full reduction gives a 0-d array (CuPy's rule), never a host scalar.
array sum(const array& a, const reduce_options& o = {});
array prod(const array& a, const reduce_options& o = {});
array amax(const array& a, const reduce_options& o = {});  ///< NaN propagates; an empty axis raises ValueError
array amin(const array& a, const reduce_options& o = {});
array any(const array& a, const reduce_options& o = {});  ///< bool result
array all(const array& a, const reduce_options& o = {});
array mean(const array& a,
           const reduce_options& o = {});  ///< float64 for integer input, float16 accumulates in float32
/// Variance and standard deviation (two passes: mean, then squared deviations; complex gives a real result).
array var(const array& a, const reduce_options& o = {}, double ddof = 0);
array std(const array& a, const reduce_options& o = {}, double ddof = 0);

array nansum(const array& a, const reduce_options& o = {});
array nanprod(const array& a, const reduce_options& o = {});
array nanmax(const array& a, const reduce_options& o = {});  ///< all-NaN slices give NaN
array nanmin(const array& a, const reduce_options& o = {});
array nanmean(const array& a, const reduce_options& o = {});
array nanvar(const array& a, const reduce_options& o = {}, double ddof = 0);
array nanstd(const array& a, const reduce_options& o = {}, double ddof = 0);

/// Index (int64) of the first maximum / minimum along `axis` (all axes, flattened, when absent); NaN counts as
/// the extreme value. The nan- forms skip NaN and raise ValueError for an all-NaN slice.
array argmax(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false, const array& out = array());
array argmin(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false, const array& out = array());
array nanargmax(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
                const array& out = array());
array nanargmin(const array& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
                const array& out = array());

/// Number of nonzero elements (int64; `axis` empty: all axes).
array count_nonzero(const array& a, const axis_list& axis = std::nullopt, bool keepdims = false);
/// max - min along the axes.
array ptp(const array& a, const axis_list& axis = std::nullopt, bool keepdims = false, const array& out = array());

}  // namespace cuarray
