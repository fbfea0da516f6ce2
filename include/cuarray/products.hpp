// Matrix and tensor products: matmul, dot, vdot, inner, outer, tensordot, kron, cross, einsum, trace and friends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// Result dtypes are NumPy's: the promoted dtype of the operands (bool products are logical or-of-ands). Float
// products run on cuBLAS (float16 on tensor cores, accumulating in float32); integer and bool products on
// cuarray's own kernels. Float32 keeps full float32 precision unless TF32 is enabled (Note [tf32]).

/// NumPy's matmul (the `@` operator): stacks of matrices broadcast against each other; a 1-D first operand is a
/// row vector and a 1-D second operand a column vector, their axis removed from the result.
array matmul(const array& a, const array& b);
/// matmul with NumPy's out=, dtype= and casting= (the gufunc keywords).
array matmul(const array& a, const array& b, const array& out, std::optional<dtype> dtype_ = std::nullopt,
             casting rule = casting::same_kind);

/// NumPy's dot: scalar (0-d) times array, 1-D inner product, matrix product, and for N-D the sum over a's last
/// axis and b's second-to-last. `out` must be C-contiguous with the exact result dtype, as NumPy requires.
array dot(const array& a, const array& b, const array& out = array());
/// Dot product of the flattened inputs, conjugating the first when complex (a 0-d array).
array vdot(const array& a, const array& b);
/// Sum product over the last axes of both.
array inner(const array& a, const array& b);
/// Outer product of the flattened inputs.
array outer(const array& a, const array& b, const array& out = array());
/// NumPy's vecdot: conj(a) . b along `axis` with the other axes broadcast.
array vecdot(const array& a, const array& b, int axis = -1, const array& out = array());

/// tensordot with integer `axes`: the last `axes` axes of a against the first `axes` of b.
array tensordot(const array& a, const array& b, std::int64_t axes = 2);
/// tensordot with two lists of axes summed in pairs.
array tensordot(const array& a, const array& b, const std::vector<int>& axes_a, const std::vector<int>& axes_b);

/// Kronecker product (block matrix of products).
array kron(const array& a, const array& b);
/// Cross product of 3-element vectors (NumPy 2.5: 2-element ones are a value_error) along the given axes;
/// `axis`, when given, overrides all three.
array cross(const array& a, const array& b, int axisa = -1, int axisb = -1, int axisc = -1,
            std::optional<int> axis = std::nullopt);

/// Sum along diagonals over (axis1, axis2); integer results accumulate as sum does (int64 for small ints).
array trace(const array& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1,
            std::optional<dtype> dtype_ = std::nullopt, const array& out = array());

/// NumPy's einsum `optimize=`: false, true / "greedy", "optimal", or an explicit path (list of operand tuples).
struct einsum_optimize {
  enum kind_t { none, greedy, optimal, explicit_path } kind = greedy;
  std::vector<std::vector<int>> path;  ///< for explicit_path
  double memory_limit = -1;            ///< largest intermediate (elements); negative: the largest operand or result
  einsum_optimize() = default;
  einsum_optimize(kind_t k) : kind(k) {}
  einsum_optimize(bool b) : kind(b ? greedy : none) {}
  /// "greedy", "optimal", or value_error.
  static einsum_optimize parse(std::string_view s);
};

/// einsum's keywords: out=, dtype=, order=, casting=, optimize=.
struct einsum_options {
  array out;
  std::optional<dtype> dtype_;
  order out_order = order::K;
  casting rule = casting::safe;
  /// NumPy's default, optimize=False, runs the greedy path here: every contraction is pairwise through GEMMs,
  /// and a naive order could build huge intermediates.
  einsum_optimize optimize = einsum_optimize::none;
};

/// NumPy's einsum: explicit ("ij,jk->ik") and implicit ("ij,jk") modes, ellipsis broadcasting, repeated indices
/// (diagonals), summed indices, any number of operands.
array einsum(std::string_view subscripts, const std::vector<array>& operands, const einsum_options& options = {});

/// NumPy's einsum_path: the contraction path (["einsum_path", (0, 1), ...] as pairs of operand positions) and
/// NumPy's printed report. `optimize` none is treated as greedy, as NumPy does for einsum_path.
std::pair<std::vector<std::vector<int>>, std::string>
einsum_path(std::string_view subscripts, const std::vector<shape_t>& shapes, const einsum_optimize& optimize = {});

/// Note [tf32]: float32 GEMMs may use TF32 tensor cores (about 10 mantissa bits) only when enabled, per thread;
/// the initial state comes from the environment variable CUARRAY_TF32=1.
bool tf32_enabled();
/// Enable or disable TF32 for this thread; returns the previous setting.
bool set_tf32_enabled(bool enabled);

namespace linalg {
/// numpy.linalg.matrix_power: a square matrix (or stack) to an integer power (negative: of linalg::inv(a));
/// linalg_error (cuarray/linalg.hpp) for non-square input, as NumPy's LinAlgError. n == 1 returns `a` itself.
array matrix_power(const array& a, std::int64_t n);
/// numpy.linalg.multi_dot: a chain of products in the cheapest order (first may be 1-D, last may be 1-D);
/// linalg_error for other non-2-D arrays.
array multi_dot(const std::vector<array>& arrays, const array& out = array());
/// numpy.linalg.matmul: matmul without keywords.
array matmul(const array& a, const array& b);
/// numpy.linalg.outer: outer product of two 1-D arrays (value_error otherwise).
array outer(const array& a, const array& b);
/// numpy.linalg.tensordot.
array tensordot(const array& a, const array& b, std::int64_t axes = 2);
array tensordot(const array& a, const array& b, const std::vector<int>& axes_a, const std::vector<int>& axes_b);
/// numpy.linalg.vecdot: as cuarray::vecdot.
array vecdot(const array& a, const array& b, int axis = -1);
/// numpy.linalg.cross: 3-element vectors only (value_error otherwise).
array cross(const array& a, const array& b, int axis = -1);
/// numpy.linalg.diagonal: a view of diagonals over the last two axes.
array diagonal(const array& a, std::int64_t offset = 0);
/// numpy.linalg.trace: trace over the last two axes.
array trace(const array& a, std::int64_t offset = 0, std::optional<dtype> dtype_ = std::nullopt);
}  // namespace linalg

}  // namespace cuarray
