// Ahead-of-time kernels of the LU inverse and solve: getrf's row swaps replayed into the permutation that the
// right-side solves start from (Note [inverse by right solves], src/linalg/decomp_lu.cpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuarray::detail {

/// Largest order n whose pivots launch_pivot_seed and launch_pivot_permutation can replay on `device` (its shared memory holds 8 n bytes);
/// 0 when the device cannot be queried.
std::int64_t pivot_seed_max_n(int device);

/// For each of `batch` LU factorisations P A = L U of order n (getrf's 1-based pivots `ipiv`, n per matrix, in a
/// contiguous stack), writes the one of P^T's column j at row p[j] into the zero-filled column-major n x n
/// matrices `b` (elements of `itemsize` 4, 8 or 16 bytes; `one` is the bytes of 1 in that dtype): with B's zeros,
/// b becomes P^T. p is the permutation that getrf's row swaps, replayed in order, make of 0..n-1 ((P A)[i] =
/// A[p[i]]). Requires n <= pivot_seed_max_n(current device).
void launch_pivot_seed(const std::int64_t* ipiv, void* b, std::int64_t batch, std::int64_t n, std::size_t itemsize,
                       const unsigned char* one, cudaStream_t stream);

/// The same replay writing p itself: perm (batch x n, int64) with (P A)[i] = A[p[i]] for each factorisation, or
/// with `inverse` its inverse q (q[p[i]] = i, so (P^T X)[i] = X[q[i]]). Requires n <= pivot_seed_max_n(current
/// device).
void launch_pivot_permutation(const std::int64_t* ipiv, std::int64_t* perm, std::int64_t batch, std::int64_t n,
                              cudaStream_t stream, bool inverse = false);

/// out[i] = base + i * stride_bytes for i < batch: the device array of matrix pointers that cuBLAS's and
/// cuSOLVER's batched routines take (Note [batched small LU], src/linalg/decomp_common.hpp).
void launch_matrix_pointers(const void* base, std::int64_t stride_bytes, std::int64_t batch, void** out,
                            cudaStream_t stream);

/// One triangular solve op(T) X = B for each of `batch` matrices, by launch_tri_solve (Note [one-kernel triangular
/// solves], src/linalg/lapack.cpp). Strides are in elements and may be negative or (b_mat) zero.
struct tri_solve_args {
  const void* t;  ///< op(T)(i, j) of matrix m is t[m t_mat + i t_row + j t_col] (conjugated if conj)
  std::int64_t t_mat, t_row, t_col;
  bool lower;     ///< op(T) is lower triangular; else upper
  bool conj;      ///< op(T) is the conjugate of what t holds (trans 2 of complex T)
  bool unit;      ///< op(T)'s diagonal is taken as ones, unread
  const void* b;  ///< B(i, c) of matrix m is b[m b_mat + r b_row + c b_col], r = b_rows[m n + i] or i
  std::int64_t b_mat, b_row, b_col;
  const std::int64_t* b_rows;  ///< optional row gather of B (getrs's pivots), n per matrix
  void* x;                     ///< X, C-ordered (batch, n, k); may be b itself when b is that buffer
  std::int64_t batch, n, k;
  int itemsize;  ///< 4 or 8 (float32, float64), or 8 or 16 with complex
  bool complex;
};

/// Bytes of the zeroed scratch that launch_tri_solve takes (a ticket counter and one flag per block).
std::size_t tri_solve_scratch_bytes(std::int64_t batch, std::int64_t n, std::int64_t k);
/// Whether the solve's blocks fit one launch (fewer than 2^31).
bool tri_solve_fits(std::int64_t batch, std::int64_t n, std::int64_t k);
/// Enqueues the solve on `stream`: zeroes `scratch` (tri_solve_scratch_bytes) and launches one kernel.
void launch_tri_solve(const tri_solve_args& a, void* scratch, cudaStream_t stream);

}  // namespace cuarray::detail
