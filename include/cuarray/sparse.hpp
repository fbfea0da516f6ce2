// Sparse matrix primitives over cuSPARSE (the compressed-row kernels behind cuarray.scipy.sparse).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuarray/array.hpp"

namespace cuarray::sparse {

/// A CSR matrix by its three arrays (indptr: rows + 1 entries, indices and data: nnz entries, zero-based).
/// indptr and indices are both int32 or both int64; data is float32/64 or complex64/128; all contiguous.
struct csr_view {
  std::int64_t rows = 0, cols = 0;
  array indptr, indices, data;
};

/// The three arrays of a CSR matrix made by a routine.
struct csr_arrays {
  array indptr, indices, data;
};

/// How the sparse operand enters a product: as it is, transposed, or conjugate-transposed.
enum class operation { none, transpose, conjugate_transpose };

/// Bytes of work area cuSPARSE asks for out = op(A) @ x (x 1-D: SpMV; 2-D C-contiguous: SpMM).
std::size_t spmm_buffer_size(const csr_view& a, const array& x, const array& out, operation op);

/// out = op(A) @ x, or out += op(A) @ x when `accumulate`, on the current stream. x and out have A's dtype and
/// are contiguous (1-D both, or 2-D C-contiguous both) with matching extents; the work area comes from the
/// current allocator (out_of_memory_error when it does not fit, so callers may retry on row blocks).
void spmm(const csr_view& a, const array& x, array& out, operation op, bool accumulate);

/// C = A @ B for CSR A (m x k) and B (k x n) of one dtype, int32 indices (cuSPARSE SpGEMM: work estimation,
/// compute and copy). The result has sorted column indices and no explicit zeros removed.
csr_arrays spgemm(const csr_view& a, const csr_view& b);

/// The CSR arrays of A^T (equivalently, A's CSC arrays) by cuSPARSE's Csr2cscEx2; int32 indices only.
/// Row indices within each column come out sorted.
csr_arrays csr_transpose(const csr_view& a);

/// The loaded library's path (loads it; cuda_error when it cannot be found).
const char* cusparse_path();

/// x with A x = b for a square CSR A (int32 indices; canonical: sorted, no duplicates) by cuSOLVER's sparse QR
/// (cusolverSp<t>csrlsvqr), one solve per column of b. b and x: A's dtype, shape (n,) or (n, k), F-contiguous.
/// Returns -1 when A is nonsingular, else the singularity index cuSOLVER reports (the first j with
/// |R(j,j)| <= tol; 0 for an empty pattern), x being then unspecified. Blocks until the solves finish.
/// value_error when n or nnz exceed int32 (the routine's limit). Note [cusolver sparse symbols].
std::int64_t csrlsvqr(const csr_view& a, const array& b, array& x, double tol, int reorder);

/// Loads libcusolver's sparse routines and cuSPARSE's descriptor call without touching a device; cuda_error
/// naming what is missing.
void load_cusolver_sp();

}  // namespace cuarray::sparse
