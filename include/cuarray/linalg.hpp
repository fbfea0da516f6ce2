// numpy.linalg's decompositions, solvers, determinants and norms on cuSOLVER (loaded on first use).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

/// A linear-algebra failure: a singular matrix, one not positive definite, no convergence (Python:
/// numpy.linalg.LinAlgError, itself a ValueError).
struct linalg_error : value_error {
  using value_error::value_error;
};

namespace linalg {

// Every function takes stacks of matrices (..., M, N) wherever NumPy does, and computes as NumPy does in
// dtype: float32/complex64 stay, float64/complex128 stay, bool and integers become float64, float16 raises
// type_error ("array type float16 is unsupported in linalg"). Results are new arrays; matrices may come back
// in column-major layout (the layout cuSOLVER writes), which NumPy's semantics do not fix. Checking cuSOLVER's
// `info` for the errors NumPy raises costs one synchronisation per call.

struct svd_result {
  array U, S, Vh;  ///< U: (..., M, M|K), S: (..., K) real, Vh: (..., N|K, N); U, Vh undefined without compute_uv
};
struct qr_result {
  array Q, R;  ///< mode "r": only R; mode "raw": Q holds NumPy's h (..., N, M) and R holds tau (..., K)
};
struct eig_result {
  array eigenvalues, eigenvectors;  ///< eigenvectors undefined for the *vals forms
};
struct slogdet_result {
  array sign, logabsdet;
};
struct lstsq_result {
  array x, residuals;
  std::int64_t rank = 0;
  array s;
};

/// Singular value decomposition. Note [svd algorithm]: cuSOLVER's polar-decomposition SVD (Xgesvdp) for one
/// matrix at a time, QR-iteration Xgesvd for full_matrices of a non-square matrix and where Xgesvdp's vectors are
/// unreliable (rank-deficient input), Jacobi gesvdjBatched for stacks of matrices up to 32 x 32. `hermitian`
/// goes through eigh as NumPy does. NaN or inf input raises linalg_error("SVD did not converge") as NumPy's.
svd_result svd(const array& a, bool full_matrices = true, bool compute_uv = true, bool hermitian = false);
/// Singular values only (svd with compute_uv=false).
array svdvals(const array& x);

/// mode: "reduced", "complete", "r", "raw" (and NumPy's deprecated "economic"); value_error otherwise.
qr_result qr(const array& a, std::string_view mode = "reduced");
/// Lower-triangular L with A = L L^H (upper: U with A = U^H U, read from A's upper triangle).
array cholesky(const array& a, bool upper = false);

/// Hermitian eigen-decomposition from the `UPLO` triangle ("L" or "U"): ascending real eigenvalues.
eig_result eigh(const array& a, std::string_view UPLO = "L");
array eigvalsh(const array& a, std::string_view UPLO = "L");
/// General eigen-decomposition (cusolverDnXgeev, CUDA >= 12.6; cuda_error where it is missing, see
/// has_device_eig). Real input is computed in complex arithmetic; results are complex always, as NumPy >= 2.5.
eig_result eig(const array& a);
array eigvals(const array& a);
/// Whether this cuSOLVER has Xgeev (the Python binding computes eig on the host with NumPy otherwise).
bool has_device_eig();

/// Inverse through LU (getrf, then getrs against the identity); linalg_error("Singular matrix").
array inv(const array& a);
/// Solve a x = b: b is a vector (M,) when 1-D, else (..., M, K); batch dimensions broadcast.
array solve(const array& a, const array& b);
array det(const array& a);
slogdet_result slogdet(const array& a);
/// rcond: nullopt is NumPy's 1e-15 (rtol=None callers pass default_rtol(a)); may be an array broadcast
/// against the stack.
array pinv(const array& a, const std::optional<ufunc_arg>& rcond = std::nullopt, bool hermitian = false);
/// max(M, N) * eps of a's dtype (float64's for non-float input): NumPy's rtol=None of pinv and matrix_rank.
double default_rtol(const array& a);
/// Least squares through the SVD (NumPy's gelsd semantics): a (M, N), b (M,) or (M, K); rcond nullopt is
/// eps(float64) * max(M, N) as NumPy's.
lstsq_result lstsq(const array& a, const array& b, std::optional<double> rcond = std::nullopt);
/// Number of singular values above tol (or rtol * largest; default max(M, N) * eps * largest). Input below
/// two dimensions gives a 0-d int64 array holding 0 or 1 (NumPy's int(not all(A == 0))).
array matrix_rank(const array& A, const std::optional<ufunc_arg>& tol = std::nullopt, bool hermitian = false,
                  const std::optional<ufunc_arg>& rtol = std::nullopt);

array tensorsolve(const array& a, const array& b, const std::optional<std::vector<int>>& axes = std::nullopt);
array tensorinv(const array& a, int ind = 2);

/// A norm order: NumPy's ord=None, a number (inf and -inf included), "fro" ("f"), "nuc", or another string, which
/// the norms reject with NumPy's message for vectors or matrices.
struct norm_ord {
  enum kind_t { none, number, fro, nuc, invalid } kind = none;
  double value = 0;
  std::string text;  ///< the string as given
  norm_ord() = default;
  norm_ord(double v) : kind(number), value(v) {}
  static norm_ord parse(std::string_view s);
  static norm_ord of(kind_t k) {
    norm_ord o;
    o.kind = k;
    return o;
  }
};
/// numpy.linalg.norm: axis nullopt (all axes) or one or two axes.
array norm(const array& x, const norm_ord& ord = {}, const std::optional<std::vector<int>>& axis = std::nullopt,
           bool keepdims = false);
array vector_norm(const array& x, const std::optional<std::vector<int>>& axis = std::nullopt, bool keepdims = false,
                  const norm_ord& ord = norm_ord(2.0));
array matrix_norm(const array& x, bool keepdims = false, const norm_ord& ord = norm_ord::of(norm_ord::fro));
/// Condition number in the norm `p` (none, +-2 through singular values, else norm(x) * norm(inv(x))).
array cond(const array& x, const norm_ord& p = {});

}  // namespace linalg
}  // namespace cuarray
