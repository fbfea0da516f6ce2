// svd's polar route (Note [polar svd]): QDWH's polar decomposition, then the eigendecomposition of its
// Hermitian factor.
#pragma once

#include <cstdint>
#include <vector>

#include "cuarray/array.hpp"

namespace cuarray::linalg::detail {

/// One QDWH step's weights (Note [polar svd]): X <- X (a I + b X^H X) (I + c X^H X)^-1.
struct qdwh_weights {
  double a, b, c;
};
/// The steps that carry the lower bound l0 (0 < l0 <= 1) of X_0's singular values to 1 within 10 eps (at most 20).
std::vector<qdwh_weights> qdwh_plan(double l0, double eps);

/// The smallest order N = min(m, n) that takes the polar route (Note [polar svd]); smaller ones take Xgesvdp.
std::int64_t polar_svd_min_n();
/// Sets polar_svd_min_n (tests and diagnostics compare the routes); returns the previous value.
std::int64_t set_polar_svd_min_n(std::int64_t n);

/// The conditioning the polar route keeps: a matrix with s_min <= tau * s_max (real dtype rt) is redone by QR
/// iteration (Note [polar svd]).
double polar_svd_tau(dtype rt);

/// Note [polar svd] for each matrix of `a` (finite, no empty axis), given `w`: the C-contiguous stack of the
/// column-major images (..., N, M) of their tall forms T (A where `tall`, else A^H; M >= N). Writes the
/// singular values, descending, into `s` (..., N); allocates `ubuf` (..., N, M: U column-major, M x N) and
/// `vbuf` (..., N, N: V column-major). Overwrites `w`. Sets `redo[i]` where matrix i needs another route
/// (a cuSOLVER info flag; a zero matrix); the caller also checks the conditioning (Note [gesvdp fallback]).
/// out_of_memory_error where its buffers do not fit, with none of them left allocated.
void polar_svd(const array& a, bool tall, const array& w, const array& s, array& ubuf, array& vbuf,
               std::vector<char>& redo);

}  // namespace cuarray::linalg::detail
