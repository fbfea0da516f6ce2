// LU-based linalg: inv, solve, det, slogdet, tensorsolve and tensorinv (cusolverDnXgetrf / Xgetrs, cuBLAS trsm).
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "cuarray/creation.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/linalg_lapack.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/linalg_kernels.hpp"
#include "src/linalg/cublas.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"

namespace cuarray::linalg {

namespace cs = ::cuarray::detail::cusolver;
using namespace detail;

namespace {

/// LU factorisation in place of every matrix of a column-major stack `buf` (..., n, n); pivots (..., n) int64
/// and info (batch,) int32 come back. With `int32_ok`, a stack factored by cuBLAS's getrfBatched (Note [batched
/// small LU]) keeps its int32 pivots, which its getriBatched and getrsBatched take.
/// `pointers`, where given, receives the stack's matrix pointers that the batched route made.
void lu_factor(const array& buf, array& ipiv, array& info, bool int32_ok = false, array* pointers = nullptr) {
  const int device = buf.device();
  std::int64_t n = buf.shape()[buf.ndim() - 1], batch = batch_count(buf);
  shape_t pshape = batch_shape(buf);
  pshape.push_back(n);
  info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  if (batch > 0 && n > 0 && use_batched(batch, n)) {  // Note [batched small LU]
    array piv32 = getrf_batched(buf, info, pointers);
    ipiv = int32_ok ? piv32 : piv32.astype(dtype::int64);
    return;
  }
  ipiv = ::cuarray::detail::new_array(dtype::int64, pshape, order::C, device);
  if (batch == 0 || n == 0) return;
  const cs::api& a = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(buf.type());
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(a.xgetrf_buffer(h.get(), h.params(), n, n, t, buf.data(), n, t, &dev_bytes, &host_bytes),
            "cusolverDnXgetrf_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(a.xgetrf(h.get(), h.params(), n, n, t, matrix_ptr(buf, i), n,
                       static_cast<std::int64_t*>(ipiv.data()) + i * n, t, work.data(), dev_bytes, host_work.data(),
                       host_bytes, static_cast<int*>(info.data()) + i),
              "cusolverDnXgetrf");
  }
}

/// Solve with the factors of lu_factor for the column-major right-hand sides `rhs` (..., k, n) in place.
void lu_solve(const array& lu, const array& ipiv, const array& rhs) {
  std::int64_t n = lu.shape()[lu.ndim() - 1], k = rhs.shape()[rhs.ndim() - 2], batch = batch_count(lu);
  if (batch == 0 || n == 0 || k == 0) return;
  const cs::api& a = cs::get();
  cs::handle h(lu.device());
  cudaDataType t = cs::data_type(lu.type());
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, lu.device());
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(a.xgetrs(h.get(), h.params(), CUBLAS_OP_N, n, k, t, matrix_ptr(lu, i), n,
                       static_cast<const std::int64_t*>(ipiv.data()) + i * n, t, matrix_ptr(rhs, i), n,
                       static_cast<int*>(info.data())),
              "cusolverDnXgetrs");
  }
}

// Note [solve by side]: after getrf, getrs (CuPy's and PyTorch's route) swaps B's rows and runs two left-side
// triangular solves. cuBLAS's trsm is far from even across its forms (tools/diag/trsm_forms23.py, H200, float64,
// µs of one solve of order 4096 / 1000 with k right-hand sides; L/R the side, lo/up the triangle, N/T op):
//   k = 1:   L lo N unit 220 / 54,   L up N 244 / 62,   L up T 281 / 63,   L lo T unit 292 / 61,   R 1000-2350
//   k = 4:   L lo N unit 1593 / 197, L up N 1006 / 125, L up T 1272 / 466, L lo T unit 814 / 345,  R 1440-2450
//   k = 16:  L lo N unit 4730 / 670, L up N 2813 / 389, L up T 1403 / 311, L lo T unit 927 / 347,  R 1200-1610
//   k = 64:  L lo N unit 900 / 351,  L up N 1389 / 324, L up T 1391 / 299, L lo T unit 912 / 352,  R 1200-1560
// getrs's pair (lo N unit, up N) is the fastest for one right-hand side and, at n = 1000, up to 4 (at n = 4096,
// k = 4, the transposed pair already leads, 2086 µs against 2599); from 8 on it is the slowest but one: the
// transposed pair (up T, lo T unit) takes 2330 µs against getrs's 7540 at k = 16, n = 4096, and the
// right side, this solve's route before, 2790. The transposed pair solves with the factors of A^T, which the
// solve has for free: a's C-ordered copy is A^T to cuSOLVER. From P A^T = L U, A = U^T L^T P, so
//   A X = B:   Z = L^-T (U^-T B),  X = P^T Z,
// the second a gather of Z's rows by the inverse of the replayed pivots (launch_pivot_permutation). Below 8
// right-hand sides the solve keeps getrs's pair on A's column-major copy, with P B gathered first. Orders beyond
// the replay's shared memory keep getrs. The switch (right_side_min_k) lives in decomp_common.hpp, as
// cuarray.scipy.linalg's solvers take it too (Note [LAPACK solvers by side], src/linalg/lapack.cpp).
// All of that is for more right-hand sides than the one-kernel solve takes (Note [one-kernel triangular
// solves], lapack.cpp): up to tri_kernel_max_k of them, the solve factors A's column-major copy and hands the
// factors to lapack::getrs, whose kernel gathers P B as it reads B and solves L and U in one kernel each
// (getrs's pair 631 µs against the kernel's 240 at n = 1000, k = 16, H100).

/// X = A^-1 B, A (..., n, n) of any layout and dtype, B (..., n, k) broadcast to A's batch, by getrf and the
/// two triangular solves that Note [solve by side] picks for k. Returns X, a new stack of dtype t whose matrices
/// each fill one contiguous slab (C order, or the column-major image's transposed view), and the read of getrf's
/// info, started before the solves (Note [info read during the solve], decomp_common.hpp).
array lu_solve_rows(const array& a, const array& b, dtype t, std::unique_ptr<info_read>& check) {
  const int device = a.device();
  std::int64_t n = a.shape()[a.ndim() - 1], k = b.shape()[b.ndim() - 1];
  if (getrs_kernel_route(batch_count(a), n, k, device)) {
    array lu = to_colmajor(a, t), ipiv, info;
    lu_factor(lu, ipiv, info);
    check = std::make_unique<info_read>(info);
    return lapack::getrs(from_colmajor(lu), ipiv, b.astype(t, order::K, false), 0);
  }
  const bool fits = n <= ::cuarray::detail::pivot_seed_max_n(device);
  const bool transposed = fits && k >= right_side_min_k;
  array lu = transposed ? a.astype(t, order::C, true) : to_colmajor(a, t), ipiv, info;
  lu_factor(lu, ipiv, info);
  check = std::make_unique<info_read>(info);
  if (!fits) {
    array rhs = to_colmajor(b, t);
    lu_solve(lu, ipiv, rhs);
    return from_colmajor(rhs);
  }
  array perm = ::cuarray::detail::new_array(dtype::int64, ipiv.shape(), order::C, device);
  cudaStream_t stream = ::cuarray::detail::enter_device(device);
  ::cuarray::detail::launch_pivot_permutation(static_cast<const std::int64_t*>(ipiv.data()),
                                              static_cast<std::int64_t*>(perm.data()), batch_count(lu), n, stream,
                                              transposed);
  if (transposed) {
    array z = to_colmajor(b, t);  // (..., k, n): Z^T in C order
    trsm_stack(t, false, false, 1, false, n, k, lu, z, n);
    trsm_stack(t, false, true, 1, true, n, k, lu, z, n);
    // X = P^T Z: row i of X is row q[i] of Z, column q[i] of z.
    return from_colmajor(z.ndim() == 2 ? take(z, perm, -1)
                                       : take_along_axis(z, expand_dims(perm, std::vector<int>{-2}), -1));
  }
  // P B: rows p[i] of B, each matrix of the stack with its own permutation (one matrix: the row gather).
  array rhs = to_colmajor(gather_rows(b, perm), t);
  trsm_stack(t, false, true, 0, true, n, k, lu, rhs, n);
  trsm_stack(t, false, false, 0, false, n, k, lu, rhs, n);
  return from_colmajor(rhs);
}

/// LinAlgError for a matrix of the stack `a` (..., n, n) whose factorisation met an exact zero pivot.
/// LAPACK's getrf flags only exact zeros, so NumPy turns NaN input into NaN output; cuSOLVER also flags
/// NaN pivots, so flagged matrices with a non-finite entry are let through and their solutions, which the
/// flagged factorisation leaves partly finite, are set to NaN (`solutions`: a new stack whose matrices each fill
/// one contiguous slab, in order from its offset: C order, or a column-major image's transposed view).
void raise_if_singular(info_read& check, const array& a, const array& solutions) {
  std::vector<int> flags = check.flags();
  std::vector<unsigned char> nonfinite;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flags[i] <= 0) continue;
    if (nonfinite.empty()) {
      nonfinite.resize(flags.size());
      if (is_inexact(a.type())) {
        array bad = any(logical_not(isfinite(a)), along({-2, -1})).astype(dtype::uint8).reshape(shape_t{-1});
        bad.copy_to_host(nonfinite);
      }
    }
    if (!nonfinite[i]) throw linalg_error("Singular matrix");
    std::int64_t per = solutions.size() / static_cast<std::int64_t>(flags.size());
    const auto item = static_cast<std::int64_t>(solutions.itemsize());
    descriptor d{solutions.type(), shape_t{per}, strides_t{item},
                 solutions.offset() + static_cast<std::int64_t>(i) * per * item};
    array(solutions.storage(), std::move(d)).fill(scalar::from_double(std::nan("")).cast(solutions.type()));
  }
}

}  // namespace

namespace detail {

// Stacks of orders up to this invert through cuBLAS's getriBatched; larger ones through the seed and two
// trsmBatched calls below, which tools/diag/batched23.py found 1.1-3x faster from order 64 on (H200).
constexpr std::int64_t getri_max_n = 32;

// Note [inverse by right solves]: with P A = L U, inv(A) = U^-1 L^-1 P. getrs on the identity (CuPy's and
// PyTorch's route) swaps the identity's rows and runs two left-side triangular solves on n right-hand sides:
// 7.1-7.5 ms of a 19.4-20.2 ms inverse of 4096² float64 on an H200. cuBLAS's right-side trsm is 1.1-1.2x faster
// than its left side (tools/diag/inv23.py), so the inverse solves for its transpose,
//   inv(A)^T = P^T L^-T U^-T:   B = P^T, then B <- B L^-T, then B <- B U^-T,
// two right-side solves (5.5 ms there, 0.78 ms at n = 1000 against getrs's 0.93-1.29 ms). B is column-major, so
// its memory is inv(A) in C order: the result needs no transposed view. B = P^T starts as zeros with a one per
// column, placed by launch_pivot_seed from the pivots without a synchronisation. The transposes are plain ones
// for complex input too, since (X Y)^T = Y^T X^T. Orders too large for the seed's shared memory (8 bytes an
// order: beyond about 20,000 on an A100, 29,000 on an H100) keep getrs.
array inv_impl(const array& a, bool raise_singular, inv_route route) {
  assert_stacked_square(a);
  dtype t = result_type({a.type()});
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1];
  shape_t batch = batch_shape(a);
  if (a.size() == 0) return empty(a.shape(), t);
  if (route == inv_route::automatic && n <= getri_max_n && use_batched(batch_count(a), n)) {
    // A stack of small matrices (Note [batched small LU]): getrfBatched and getriBatched on a's C-ordered copy,
    // which cuBLAS reads as A^T, so the inverses it writes column-major, inv(A^T), are inv(A) in C order.
    array lu = a.astype(t, order::C, true), ipiv, info, pa;
    lu_factor(lu, ipiv, info, true, &pa);  // the batched route, so int32 pivots and pa
    std::optional<info_read> check;
    if (raise_singular) check.emplace(info);
    array x = ::cuarray::detail::new_array(t, a.shape(), order::C, device);
    array status = ::cuarray::detail::new_array(dtype::int32, shape_t{batch_count(x)}, order::C, device);
    array px = matrix_pointers(x);
    ::cuarray::detail::cublas_getri_batched(t, device, n, static_cast<const void* const*>(pa.data()),
                                            static_cast<const int*>(ipiv.data()), static_cast<void* const*>(px.data()),
                                            static_cast<int*>(status.data()), batch_count(x));
    if (raise_singular) raise_if_singular(*check, a, x);
    return x;
  }
  array lu = to_colmajor(a, t), ipiv, info;
  lu_factor(lu, ipiv, info);
  std::optional<info_read> check;  // cond's inverse reads no flags: NumPy ignores singularity there
  if (raise_singular) check.emplace(info);
  if (route == inv_route::automatic) {
    route = n <= ::cuarray::detail::pivot_seed_max_n(device) ? inv_route::right_solves : inv_route::identity_solve;
  }
  if (route == inv_route::identity_solve) {
    array x = eye_stack(batch, n, n, t);  // the identity is its own column-major image
    lu_solve(lu, ipiv, x);
    if (raise_singular) raise_if_singular(*check, a, x);
    return from_colmajor(x);
  }
  shape_t shape = batch;
  shape.push_back(n);
  shape.push_back(n);
  array x = zeros(shape, t);
  const scalar one = scalar::from_double(1.0, t);
  cudaStream_t stream = ::cuarray::detail::enter_device(device);
  ::cuarray::detail::launch_pivot_seed(static_cast<const std::int64_t*>(ipiv.data()), x.data(), batch_count(x), n,
                                       x.itemsize(), one.bytes, stream);
  trsm_stack(t, true, true, 1, true, n, n, lu, x, n);
  trsm_stack(t, true, false, 1, false, n, n, lu, x, n);
  if (raise_singular) raise_if_singular(*check, a, x);
  return x;
}

}  // namespace detail

array inv(const array& a) { return inv_impl(a, true); }

array solve(const array& a, const array& b) {
  assert_stacked_square(a);
  dtype t = result_type({a.type(), b.type()});
  ::cuarray::detail::enter_device(a.device());
  std::int64_t m = a.shape()[a.ndim() - 1];
  bool vector = b.ndim() == 1;
  // NumPy's gufunc signatures (m,m),(m)->(m) and (m,m),(m,n)->(m,n).
  std::string fn = vector ? "solve1" : "solve", sig = vector ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  if (!vector && b.ndim() < 2) {
    throw value_error(fn + ": Input operand 1 does not have enough dimensions (has " + std::to_string(b.ndim()) +
                      ", gufunc core with signature " + sig + " requires 2)");
  }
  std::int64_t bm_rows = b.shape()[vector ? 0 : b.ndim() - 2];
  if (bm_rows != m) {
    throw value_error(fn + ": Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " + sig +
                      " (size " + std::to_string(bm_rows) + " is different from " + std::to_string(m) + ")");
  }
  array bm = vector ? b.reshape(shape_t{m, 1}) : b;
  shape_t ab = batch_shape(a), bb = batch_shape(bm);
  shape_t batch = broadcast_shapes(ab, bb);
  std::int64_t k = bm.shape()[bm.ndim() - 1];
  shape_t ashape = batch, bshape = batch;
  ashape.push_back(m), ashape.push_back(m);
  bshape.push_back(m), bshape.push_back(k);
  array x;
  if (shape_size(bshape) == 0) {
    x = zeros(bshape, t);
    if (m > 0 && shape_size(batch) > 0) {
      // No right-hand sides (k == 0): LAPACK's gesv, which NumPy calls per matrix, still factors A and
      // reports a singular one.
      array lu = to_colmajor(a.broadcast_to(ashape), t), ipiv, info;
      lu_factor(lu, ipiv, info);
      info_read check(info);
      raise_if_singular(check, a.broadcast_to(ashape), x);
    }
  } else {
    if (use_batched(shape_size(batch), m)) {
      // A stack of small systems (Note [batched small LU]): getrfBatched on a's C-ordered copy, which cuBLAS reads
      // as A^T, then getrsBatched with its transpose, (A^T)^T X = B, for all the stack at once.
      array lu = a.broadcast_to(ashape).astype(t, order::C, true), ipiv, info, pa;
      lu_factor(lu, ipiv, info, true, &pa);  // the batched route, so int32 pivots and pa
      info_read check(info);
      array rhs = to_colmajor(bm.broadcast_to(bshape), t);
      array pb = matrix_pointers(rhs);
      ::cuarray::detail::cublas_getrs_batched(t, a.device(), 1, m, k, static_cast<const void* const*>(pa.data()),
                                              static_cast<const int*>(ipiv.data()),
                                              static_cast<void* const*>(pb.data()), batch_count(rhs));
      raise_if_singular(check, a.broadcast_to(ashape), rhs);
      return vector ? drop_axis(from_colmajor(rhs), -1) : from_colmajor(rhs);
    }
    std::unique_ptr<info_read> check;
    x = lu_solve_rows(a.broadcast_to(ashape), bm.broadcast_to(bshape), t, check);
    raise_if_singular(*check, a.broadcast_to(ashape), x);
  }
  return vector ? drop_axis(x, -1) : x;
}

slogdet_result slogdet(const array& a) {
  assert_stacked_square(a);
  dtype t = result_type({a.type()});
  dtype rt = real_of(t);
  ::cuarray::detail::enter_device(a.device());
  std::int64_t n = a.shape()[a.ndim() - 1];
  shape_t batch = batch_shape(a);
  if (n == 0 || shape_size(batch) == 0) return {ones(batch, t), zeros(batch, rt)};
  array lu = to_colmajor(a, t), ipiv, info;
  lu_factor(lu, ipiv, info, true);  // only the swaps' count is read from the pivots
  array d = diag_view(lu);
  array absd = absolute(d);
  // The permutation's sign: one swap per pivot that is not its own row (1-based pivots).
  array swaps = count_nonzero(not_equal(ipiv, arange(std::int64_t{1}, n + 1)), std::vector<int>{-1});
  array singular = any(equal(absd, 0), along({-1}));
  array logdet = sum(log(absd), along({-1}));
  array sign;
  if (is_complex(t)) {
    array unit = where(equal(absd, 0), 0, divide(d, absd));
    sign = prod(unit, along({-1}));
    sign = where(equal(remainder(swaps, 2), 1), negative(sign), sign);
  } else {
    // NumPy flips the sign per negative pivot, so a NaN pivot leaves it alone (sign 1, logdet NaN).
    array negatives = add(swaps, count_nonzero(less(d, 0), std::vector<int>{-1}));
    sign = where(equal(remainder(negatives, 2), 1), scalar::from_double(-1.0, t), scalar::from_double(1.0, t));
  }
  sign = where(singular, scalar::from_double(0.0, t), sign).astype(t, order::K, false);
  return {sign, logdet.astype(rt, order::K, false)};
}

array det(const array& a) {
  slogdet_result r = slogdet(a);
  // NumPy's det is sign * exp(logdet) as well, so overflow and NaN behave alike.
  return multiply(r.sign, exp(r.logabsdet)).astype(r.sign.type(), order::K, false);
}

array tensorinv(const array& a, int ind) {
  if (ind <= 0) throw value_error("Invalid ind argument.");
  shape_t old = a.shape(), invshape;
  if (ind > a.ndim()) ind = a.ndim();
  std::int64_t p = 1;
  for (int i = ind; i < a.ndim(); ++i) invshape.push_back(old[i]), p *= old[i];
  for (int i = 0; i < ind; ++i) invshape.push_back(old[i]);
  array ia = inv(a.reshape(shape_t{p, -1}));
  return ia.reshape(invshape);
}

array tensorsolve(const array& a, const array& b, const std::optional<std::vector<int>>& axes) {
  array at = a;
  int an = a.ndim();
  if (axes) {
    std::vector<int> all_axes;
    for (int i = 0; i < an; ++i) all_axes.push_back(i);
    for (int k : *axes) {
      auto it = std::find(all_axes.begin(), all_axes.end(), k);
      if (it == all_axes.end()) throw value_error("list.remove(x): x not in list");
      all_axes.erase(it);
      all_axes.push_back(k);
    }
    at = a.transpose(all_axes);
  }
  // Python's a.shape[-(an - b.ndim):] is the whole shape when the two ranks agree.
  int skip = an - b.ndim();
  shape_t oldshape;
  int first = skip == 0 ? 0 : std::max(0, an - skip);
  for (int i = first; i < an; ++i) oldshape.push_back(at.shape()[i]);
  std::int64_t p = shape_size(oldshape);
  if (at.size() != p * p) {
    throw linalg_error(
        "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  }
  array res = solve(at.reshape(shape_t{p, p}), b.reshape(shape_t{-1}));
  return res.reshape(oldshape);
}

}  // namespace cuarray::linalg
