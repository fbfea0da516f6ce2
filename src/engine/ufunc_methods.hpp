// ufunc.reduce, .accumulate, .reduceat and .at (binary ufuncs).
#pragma once

#include <optional>

#include "cuarray/reduction.hpp"
#include "src/engine/ufunc.hpp"

namespace cuarray {

/// The dtype= a ufunc method runs with (Note [loop dtype from out], cuarray/reduction.hpp): `dt` when given;
/// else, with `out`, the promotion of out's dtype and the input's `in` where the ufunc has a loop of that one
/// type (add.reduce of int64 into a float64 out adds in float64, as NumPy); else none (the input's loop, its
/// result cast into out: logical_or into a float out).
std::optional<dtype> ufunc_method_loop_dtype(const ufunc_def& u, dtype in, const std::optional<dtype>& dt,
                                             const array& out);
/// NumPy's ufunc.reduce: associative ufuncs in a parallel tree, others folded in order per output.
array ufunc_reduce(const ufunc_def& u, const array& a, const reduce_options& o);
/// ufunc.accumulate along `axis` (add and multiply through the scans; others fold each row in order).
array ufunc_accumulate(const ufunc_def& u, const array& a, int axis, const std::optional<dtype>& dt, const array& out);
/// ufunc.reduceat: reductions over a[indices[i]:indices[i+1]] along `axis`.
array ufunc_reduceat(const ufunc_def& u, const array& a, const array& indices, int axis, const std::optional<dtype>& dt,
                     const array& out);
/// ufunc.at: unbuffered in-place a[indices] = u(a[indices], b), repeated indices applied in order.
void ufunc_at(const ufunc_def& u, array& a, const array& indices, const std::optional<ufunc_arg>& b);

}  // namespace cuarray
