// LAPACK-style factor-and-solve primitives (getrf/getrs, potrf/potrs, trsm) that cuarray.scipy.linalg builds on.
#pragma once

#include <vector>

#include "cuarray/array.hpp"

namespace cuarray::linalg::lapack {

// Every function takes stacks (..., M, N) of one dtype among float32, float64, complex64, complex128 (type_error
// otherwise: callers convert first) and returns new arrays; the input is never written. Matrices come back as
// column-major views (the layout cuSOLVER writes). Batch shapes of paired operands must be equal (callers
// broadcast). Nothing here synchronises: `info` stays on the device for the caller to read when it needs it.

struct lu_factors {
  array lu;    ///< (..., M, N): L below the diagonal (unit diagonal implied), U on and above it
  array ipiv;  ///< (..., min(M, N)) int64, LAPACK's 1-based row interchanges
  array info;  ///< (batch,) int32 per matrix: i > 0 when U[i-1, i-1] is exactly zero
};
/// LU factorisation with partial pivoting of every matrix (cusolverDnXgetrf); M and N may differ.
lu_factors getrf(const array& a);

/// Solve op(A) X = B with getrf's factors of square A (..., N, N): trans 0 = A, 1 = A^T, 2 = A^H;
/// b is (..., N, K), ipiv (..., N) int64 1-based. Up to 128 right-hand sides in cuarray's own one-kernel
/// triangular solves, beyond that cuBLAS's trsm or cusolverDnXgetrs (Note [one-kernel triangular solves]).
array getrs(const array& lu, const array& ipiv, const array& b, int trans);

struct cholesky_factors {
  array c;     ///< (..., N, N): the factor in the chosen triangle; the other triangle holds the input's entries
  array info;  ///< (batch,) int32 per matrix: i > 0 when the leading minor of order i is not positive definite
};
/// Cholesky factorisation reading and writing the `lower` (else upper) triangle (cusolverDnXpotrf).
cholesky_factors potrf(const array& a, bool lower);

/// Solve A X = B with potrf's factor c (..., N, N) of triangle `lower`; b (..., N, K). From 2 to 128 right-hand
/// sides in cuarray's one-kernel triangular solves, else cuBLAS's trsm or cusolverDnXpotrs.
array potrs(const array& c, const array& b, bool lower);

/// Solve op(A) X = B for triangular A (..., N, N) read from its `lower` (else upper) triangle, with a unit
/// diagonal assumed when `unit_diagonal`; trans 0/1/2 as getrs; b (..., N, K). From 2 to 128 right-hand sides
/// in cuarray's one-kernel triangular solve, else cuBLAS's trsm.
array trsm(const array& a, const array& b, bool lower, int trans, bool unit_diagonal);

/// Whether every element of `arrays` is finite (SciPy's check_finite): one reduction over each inexact array,
/// read in place, and one synchronisation for all of them.
bool all_finite(const std::vector<array>& arrays);

}  // namespace cuarray::linalg::lapack
