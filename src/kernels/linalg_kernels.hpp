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

}  // namespace cuarray::detail
