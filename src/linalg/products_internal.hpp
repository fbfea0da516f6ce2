// Shared pieces of the product functions: the batched matrix product every product reduces to.
#pragma once

#include <string>

#include "cuarray/array.hpp"
#include "src/engine/elementwise.hpp"

namespace cuarray::detail {

/// Note [batched matmul]: every product (matmul, dot, tensordot, einsum's pairwise contractions) ends as
/// C[b] = A[b] @ B[b] over a 3-D view A (nb, m, k) and B (nb, k, n) of one dtype, where a batch stride of 0
/// repeats one matrix. Float and complex dtypes go to cuBLAS, reading transposed or strided matrices in place
/// through op flags and leading dimensions (copying only a layout BLAS cannot express); integer and bool
/// dtypes to a generated kernel (products wrap around in the dtype, bool is or-of-ands, as NumPy's loops).
/// `dst`, when defined, is a C-contiguous (nb, m, n) array of that dtype that receives the result.
/// `conj_a` conjugates A (vdot).
array batched_matmul(const array& a, const array& b, const array& dst = array(), bool conj_a = false);

/// The generated kernel of integer (is_bool false) or bool products (Note [integer products]); for tests.
const ew::kernel_spec& int_gemm_spec(bool is_bool);

/// A view of `a` (shape batch..., r, c) with the batch axes merged into one: (nb, r, c), a copy when the
/// batch strides do not chain (a broadcast batch of stride 0 stays a view).
array merge_batch(const array& a);

/// `a` cast to `t` (itself when it already has that dtype).
array as_type(const array& a, dtype t);

/// "dtype('float64')".
std::string dtype_str(dtype t);

/// A view of the diagonals of `a` over (axis1, axis2) (already normalised, distinct), appended as the last axis.
array diagonal_of(const array& a, std::int64_t offset, int axis1, int axis2);

}  // namespace cuarray::detail
