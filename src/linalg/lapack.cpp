// LAPACK-style primitives for cuarray.scipy.linalg: getrf/getrs and potrf/potrs (cuSOLVER), trsm (cuBLAS).
#include "cuarray/linalg_lapack.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/index_funcs.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/ufunc.hpp"
#include "src/core/internal.hpp"
#include "src/kernels/linalg_kernels.hpp"
#include "src/linalg/cublas.hpp"
#include "src/linalg/cusolver.hpp"
#include "src/linalg/decomp_common.hpp"
#include "src/ops/reductions_internal.hpp"

namespace cuarray::linalg::lapack {

namespace cs = ::cuarray::detail::cusolver;
using namespace ::cuarray::linalg::detail;

namespace {

void require_stack(const array& a, const char* what) {
  if (a.ndim() < 2) throw value_error(std::string(what) + ": expected a stack of matrices (..., M, N)");
  cs::type_index(a.type());  // type_error for any dtype cuSOLVER lacks
}

void require_square(const array& a, const char* what) {
  require_stack(a, what);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2]) {
    throw value_error(std::string(what) + ": expected square matrices");
  }
}

// The right-hand sides must match the matrices in batch shape, row count and dtype.
void require_rhs(const array& a, const array& b, const char* what) {
  require_stack(b, what);
  if (b.type() != a.type()) throw type_error(std::string(what) + ": operands of different dtypes");
  if (batch_shape(a) != batch_shape(b) || b.shape()[b.ndim() - 2] != a.shape()[a.ndim() - 1]) {
    throw value_error(std::string(what) + ": right-hand sides do not match the matrices' shape");
  }
}

cublasFillMode_t fill(bool lower) { return lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER; }

// Note [LAPACK solvers by side]: getrs, potrs and trsm (cuarray.scipy.linalg's lu_solve, cho_solve,
// solve_triangular, and its solve and inv) solve on the right side from right_side_min_k right-hand sides on
// (Note [solve by side], src/linalg/decomp_lu.cpp: cuBLAS's right side took 2.8 ms for 16 right-hand sides of
// order 4096 where getrs's left-side pair took 7.5 ms). linalg.solve goes further, to the transposed left side
// with the factors of A^T; lu_solve is handed A's factors, so the right side is its fast form. cuBLAS's forms are
// far from even (tools/diag/trsm_forms23.py), and two cases take the left side: potrs of a lower factor, whose
// left-side pair is among the fast forms, so it stays with cuSOLVER's potrs; and trsm of a C-ordered T with op N,
// which the left side's op T solves from T^T's memory. Stacks of small matrices always take the right side here,
// through trsmBatched (Note [batched small LU], decomp_common.hpp).
//   op(T) X = B  is solved as  X^T op(T)^T = B^T:
// B copied in C order is B^T column-major (k rows, ld k); it is solved in place, and X^T column-major is X in C
// order. cuBLAS applies N, T or C to the memory it is given, which holds T itself (a factor's column-major image,
// as getrf and potrf leave it) or T^T (a triangular matrix in C order, read without a copy; its stored triangle is
// then the other one). op(T)^T is T^T, T or conj(T) for trans 0, 1, 2. cuBLAS has no conjugate without a
// transpose, so where a solve needs conj(T) of T's memory (trans 2, and potrs's pair T, T^H) the whole sequence
// runs on the conjugates,  X^H op(T)^H = B^H:  B's conjugate goes in and X's comes out, two passes over n k
// elements for complex input only. getrs's row interchanges become one row gather, of B by the replayed pivots
// before the solves (trans 0), or of the solution by their inverse after them (trans 1, 2).

/// One triangular solve of a sequence: op(T) for T the `lower` or upper triangle, trans 0/1/2, unit diagonal.
struct tri_solve {
  bool lower;
  int trans;
  bool unit;
};

/// The cuBLAS op (0 N, 1 T, 2 C) that a right-side solve applies to memory holding T (tmem false) or T^T (tmem
/// true), with right-hand sides holding X^T (conj false) or X^H (true), for op(T) of `trans`; -1 where cuBLAS has
/// none (conj(T) of T's memory, T^H of T^T's).
int right_op(int trans, bool tmem, bool conj) {
  static constexpr int table[2][2][3] = {{{1, 0, -1}, {2, -1, 0}}, {{0, 1, 2}, {-1, 2, 1}}};
  return table[tmem ? 1 : 0][conj ? 1 : 0][trans];
}

/// X = op_last(T)^-1 ... op_first(T)^-1 B for each matrix of the C-ordered stack `mem` (T^T where tmem, else T's
/// column-major image) and right-hand sides `b` (..., n, k), all on the right side (Note [LAPACK solvers by side]).
/// `owned`: b is a C-ordered buffer of dtype t that nothing else holds, solved in place. Returns X in C order.
array solve_right(const array& mem, bool tmem, std::initializer_list<tri_solve> steps, const array& b, dtype t,
                  bool owned) {
  const bool complex = is_complex(t);
  bool conj = false;
  for (const tri_solve& step : steps) conj = conj || (complex && right_op(step.trans, tmem, false) < 0);
  array rhs = conj ? conjugate(b).astype(t, order::C, false) : owned ? b : b.astype(t, order::C, true);
  std::int64_t n = mem.shape()[mem.ndim() - 1], k = b.shape()[b.ndim() - 1];
  for (const tri_solve& step : steps) {
    // For real input trans 2 is trans 1.
    const int op = right_op(complex ? step.trans : std::min(step.trans, 1), tmem, conj);
    if (op < 0) throw std::logic_error("solve_right: no cuBLAS form for this sequence of solves");
    trsm_stack(t, true, tmem ? !step.lower : step.lower, op, step.unit, n, k, mem, rhs, k);
  }
  return conj ? conjugate(rhs) : rhs;
}

// Note [unit-diagonal solves]: cuBLAS's trsm forms with a unit diagonal are 25-40% faster than the same forms
// dividing by the diagonal (tools/diag/trsm_forms23.py, H200, float64, k = 16: left op T 213 against 290-294 µs at
// n = 1000, 327-333 against 566-568 at 2048, 598-611 against 944-959 at 3000; the right side 218-227 against
// 299-306 at 1000). From unit_solve_min_n on, a non-unit solve with right_side_min_k or more right-hand sides
// therefore scales first: T = D U with D = diag(T) and U = D^-1 T (each row divided by its diagonal entry,
// U's diagonal is one), written once in C order (an n^2 pass, 6.5 µs at n = 1000 and 73 at 4096). Then
//   T X = B      is   U X = D^-1 B,
//   T^T X = B    is   U^T Y = B,  X = D^-1 Y,
//   T^H X = B    is   U^H Y = B,  X = conj(D)^-1 Y,
// and for a Cholesky factor L (A = L L^H, or L = U_f^H for an upper one, A = U_f^H U_f)
//   A X = B      is   U U^H Z = D^-1 B,  X = conj(D)^-1 Z.
// Row scaling leaves each equation as it was, divided by one number: the solve is as accurate as the unscaled one.
// A zero on the diagonal makes U's row and D^-1 B (or X) infinite or NaN, so X is not all finite, which the
// callers test to raise LAPACK's error (Note [one read per solve], cuarray/scipy/linalg/_decomp.py).
bool scaled_unit_solve(std::int64_t batch, std::int64_t n, std::int64_t k) {
  return k >= right_side_min_k && n >= unit_solve_min_n() && !use_batched(batch, n);
}

/// `x` (..., n, m) with each row divided by its entry of `d` (..., n), into a new array of order `o`.
array divide_rows(const array& x, const array& d, order o) {
  ufunc_options opt;
  opt.out_order = o;
  return call_ufunc("divide", {ufunc_arg(x), ufunc_arg(expand_dims(d, {-1}))}, opt)[0];
}

/// U = D^-1 T for the triangular T (..., n, n): a new C-ordered stack, whose memory is U^T's column-major image.
array unit_factor(const array& t, const array& d) { return divide_rows(t, d, order::C); }

/// D^-1 B as a left-side trsm takes it: the C-ordered (..., k, n) column-major image of the scaled b (..., n, k).
array scaled_colmajor_rhs(const array& b, const array& d) {
  ufunc_options opt;
  opt.out_order = order::C;
  return call_ufunc("divide", {ufunc_arg(swap_last(b)), ufunc_arg(expand_dims(d, {-2}))}, opt)[0];
}

// Note [one-kernel triangular solves]: cuBLAS's blocked trsm enqueues many small kernels; for few right-hand
// sides their host time is the call's time (tools/diag/tri_parts23.py --profile, H200: one trsm of order 1000
// with 16 right-hand sides spent 314 µs enqueueing, as long as its GPU time; CuPy's call takes as long). From 2
// (getrs: 1) to tri_kernel_max_k right-hand sides, trsm, potrs and getrs therefore solve in one kernel per
// triangular factor (src/kernels/tri_solve.cu).
// - Each block owns 32 rows of one 16-column tile of X and draws a ticket that orders it after every block it
//   waits for, so the waits cannot deadlock whatever order the blocks start in.
// - It starts from its rows of B and subtracts each earlier chunk's product L[rows, chunk] X[chunk] as soon as
//   that chunk's flag is set (loading L's block before waiting). Then it multiplies by the inverse of its 32 x 32
//   diagonal block, computed by substitution before its first wait, and publishes its rows: a fence, then the
//   flag. The chain from chunk to chunk is two small products, a fence and a flag, about 3.2 µs (float64,
//   H100): 103 µs at n = 1000.
// - Inverting 32 x 32 diagonal blocks is what MAGMA's trsm does; the error grows with those blocks' condition,
//   not the whole matrix's. A zero on the diagonal makes its reciprocal infinite and X non-finite, as LAPACK's
//   division does, which the callers test (Note [one read per solve], cuarray/scipy/linalg/_decomp.py).
// - Every op(T) is read in place through its strides: T^T and T^H swap them (and conjugate), and an upper op(T)
//   runs with rows and columns reversed, as a lower one. B is read through its strides too, with getrs's row
//   permutation gathered on the way; a sequence (potrs's two factors, getrs's L and U) solves in place in X.
// - The routes, by measurement (tools/diag/tri_kernel23.py, H100, float64, µs for the kernel / cuBLAS): from 2
//   to 128 right-hand sides the kernel is ahead at every order measured (trsm 103 / 252 at n = 1000, k = 16;
//   382 / 1021 at 4096; 958 / 997 at 4096, k = 128, past which its 16-column tiles re-read T from memory). With
//   one right-hand side cuBLAS's solve is ahead for trsm and potrs (78 / 103 at 1000), not for getrs's pair
//   (240 / 269). Past tri_kernel_max_k the cuBLAS routes below (Notes [LAPACK solvers by side] and
//   [unit-diagonal solves]) take over. The two tests, tri_kernel_route and getrs_kernel_route, live in
//   decomp_common.cpp, as linalg.solve takes getrs's too (Note [solve by side], decomp_lu.cpp).

/// The stack as (batch, rows, columns) with strides in elements: a view, or a C-ordered copy where the batch
/// axes do not merge or the strides or address are not whole elements.
array as_stack3(const array& a) {
  const int nd = a.ndim();
  array v = a.reshape(shape_t{batch_count(a), a.shape()[nd - 2], a.shape()[nd - 1]});
  const auto item = static_cast<std::int64_t>(v.itemsize());
  bool whole = reinterpret_cast<std::uintptr_t>(v.data()) % static_cast<std::uintptr_t>(item) == 0;
  for (std::int64_t s : v.strides()) whole = whole && s % item == 0;
  return whole ? v : v.astype(v.type(), order::C, true);
}

/// X = op_last(T)^-1 ... op_first(T)^-1 B for the stacks t (..., n, n) and b (..., n, k) of one dtype, by the
/// one-kernel solve; B's rows gathered first by `rows` ((..., n) int64, C order) where given. X in C order.
array kernel_solve(const array& t, std::initializer_list<tri_solve> steps, const array& b,
                   const array* rows = nullptr) {
  const int device = t.device();
  cudaStream_t stream = ::cuarray::detail::enter_device(device);
  array t3 = as_stack3(t), b3 = as_stack3(b);
  const std::int64_t batch = t3.shape()[0], n = t3.shape()[1], k = b3.shape()[2];
  const auto item = static_cast<std::int64_t>(t3.itemsize());
  array x = ::cuarray::detail::new_array(t.type(), b.shape(), order::C, device);
  const auto bytes = static_cast<std::int64_t>(::cuarray::detail::tri_solve_scratch_bytes(batch, n, k));
  array scratch = ::cuarray::detail::new_array(dtype::uint64, shape_t{(bytes + 7) / 8}, order::C, device);
  bool first = true;
  for (const tri_solve& step : steps) {
    ::cuarray::detail::tri_solve_args a{};
    const std::int64_t rs = t3.strides()[1] / item, cs_ = t3.strides()[2] / item;
    a.t = t3.data();
    a.t_mat = t3.strides()[0] / item;
    a.t_row = step.trans == 0 ? rs : cs_;
    a.t_col = step.trans == 0 ? cs_ : rs;
    a.lower = step.lower == (step.trans == 0);
    a.conj = step.trans == 2 && is_complex(t.type());
    a.unit = step.unit;
    if (first) {
      a.b = b3.data();
      a.b_mat = b3.strides()[0] / item;
      a.b_row = b3.strides()[1] / item;
      a.b_col = b3.strides()[2] / item;
      a.b_rows = rows ? static_cast<const std::int64_t*>(rows->data()) : nullptr;
    } else {
      a.b = x.data();
      a.b_mat = n * k;
      a.b_row = k;
      a.b_col = 1;
    }
    a.x = x.data();
    a.batch = batch;
    a.n = n;
    a.k = k;
    a.itemsize = static_cast<int>(item);
    a.complex = is_complex(t.type());
    ::cuarray::detail::launch_tri_solve(a, scratch.data(), stream);
    first = false;
  }
  return x;
}

}  // namespace

lu_factors getrf(const array& a) {
  require_stack(a, "getrf");
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  std::int64_t batch = batch_count(a);
  shape_t pshape = batch_shape(a);
  pshape.push_back(k);
  lu_factors r;
  r.ipiv = ::cuarray::detail::new_array(dtype::int64, pshape, order::C, device);
  r.info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  array buf = to_colmajor(a, a.type());  // (..., N, M) C-ordered: column-major images of the M x N matrices
  r.lu = from_colmajor(buf);
  if (batch == 0) return r;
  if (k == 0) {
    r.info.fill(scalar::from_double(0.0).cast(dtype::int32));
    return r;
  }
  // Note [batched small LU]. Real dtypes only: for complex ones cuBLAS's pivot choice is not LAPACK's, and
  // scipy.linalg's lu and lu_factor show the pivots.
  if (m == n && !is_complex(a.type()) && use_batched(batch, n)) {
    r.ipiv = getrf_batched(buf, r.info).astype(dtype::int64);
    return r;
  }
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(a.type());
  std::int64_t ld = std::max<std::int64_t>(1, m);
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xgetrf_buffer(h.get(), h.params(), m, n, t, buf.data(), ld, t, &dev_bytes, &host_bytes),
            "cusolverDnXgetrf_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xgetrf(h.get(), h.params(), m, n, t, matrix_ptr(buf, i), ld,
                         static_cast<std::int64_t*>(r.ipiv.data()) + i * k, t, work.data(), dev_bytes, host_work.data(),
                         host_bytes, static_cast<int*>(r.info.data()) + i),
              "cusolverDnXgetrf");
  }
  return r;
}

array getrs(const array& lu, const array& ipiv, const array& b, int trans) {
  require_square(lu, "getrs");
  require_rhs(lu, b, "getrs");
  if (trans < 0 || trans > 2) throw value_error("getrs: trans must be 0, 1 or 2");
  std::int64_t n = lu.shape()[lu.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(lu);
  shape_t pshape = batch_shape(lu);
  pshape.push_back(n);
  if (ipiv.type() != dtype::int64 || ipiv.shape() != pshape) {
    throw value_error("getrs: pivots must be int64 of shape (..., N)");
  }
  const int device = lu.device();
  cudaStream_t stream = ::cuarray::detail::enter_device(device);
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(to_colmajor(b, b.type()));
  const dtype dt = lu.type();
  array piv = ipiv.astype(dtype::int64, order::C, false);
  const bool pivots_fit = n <= ::cuarray::detail::pivot_seed_max_n(device);
  const bool one_kernel = getrs_kernel_route(batch, n, k, device);
  if (one_kernel || (pivots_fit && (k >= right_side_min_k || use_batched(batch, n)))) {
    array perm = ::cuarray::detail::new_array(dtype::int64, pshape, order::C, device);
    ::cuarray::detail::launch_pivot_permutation(static_cast<const std::int64_t*>(piv.data()),
                                                static_cast<std::int64_t*>(perm.data()), batch, n, stream, trans != 0);
    // A = P^T L U: X = U^-1 L^-1 (P B), or for trans 1, 2 X = P^T (L^-T U^-T B), conjugated for trans 2.
    if (one_kernel) {
      // Note [one-kernel triangular solves]: P gathered as B is read.
      if (trans == 0) return kernel_solve(lu, {{true, 0, true}, {false, 0, false}}, b, &perm);
      return gather_rows(kernel_solve(lu, {{false, trans, false}, {true, trans, true}}, b), perm);
    }
    array a = colmajor_image(lu, dt);
    if (trans == 0) {
      return solve_right(a, false, {{true, 0, true}, {false, 0, false}},
                         gather_rows(b, perm).astype(dt, order::C, false), dt, true);
    }
    return gather_rows(solve_right(a, false, {{false, trans, false}, {true, trans, true}}, b, dt, false), perm);
  }
  array a = colmajor_image(lu, dt);
  array rhs = to_colmajor(b, b.type());
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(lu.type());
  cublasOperation_t op = trans == 0 ? CUBLAS_OP_N : trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xgetrs(h.get(), h.params(), op, n, k, t, matrix_ptr(a, i), n,
                         static_cast<const std::int64_t*>(piv.data()) + i * n, t, matrix_ptr(rhs, i), n,
                         static_cast<int*>(info.data())),
              "cusolverDnXgetrs");
  }
  return from_colmajor(rhs);
}

cholesky_factors potrf(const array& a, bool lower) {
  require_square(a, "potrf");
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  std::int64_t n = a.shape()[a.ndim() - 1], batch = batch_count(a);
  cholesky_factors r;
  r.info = ::cuarray::detail::new_array(dtype::int32, shape_t{batch}, order::C, device);
  array buf = to_colmajor(a, a.type());
  r.c = from_colmajor(buf);
  if (batch == 0) return r;
  if (n == 0) {
    r.info.fill(scalar::from_double(0.0).cast(dtype::int32));
    return r;
  }
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType t = cs::data_type(a.type());
  size_t dev_bytes = 0, host_bytes = 0;
  cs::check(api.xpotrf_buffer(h.get(), h.params(), fill(lower), n, t, buf.data(), n, t, &dev_bytes, &host_bytes),
            "cusolverDnXpotrf_bufferSize");
  array work = workspace(dev_bytes, device);
  std::vector<unsigned char> host_work(host_bytes);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xpotrf(h.get(), h.params(), fill(lower), n, t, matrix_ptr(buf, i), n, t, work.data(), dev_bytes,
                         host_work.data(), host_bytes, static_cast<int*>(r.info.data()) + i),
              "cusolverDnXpotrf");
  }
  return r;
}

array potrs(const array& c, const array& b, bool lower) {
  require_square(c, "potrs");
  require_rhs(c, b, "potrs");
  std::int64_t n = c.shape()[c.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(c);
  const int device = c.device();
  ::cuarray::detail::enter_device(device);
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(to_colmajor(b, b.type()));
  const dtype t = c.type();
  if (tri_kernel_route(batch, n, k)) {
    // Note [one-kernel triangular solves]: A = L L^H: X = L^-H (L^-1 B); A = U^H U: X = U^-1 (U^-H B).
    if (lower) return kernel_solve(c, {{true, 0, false}, {true, 2, false}}, b);
    return kernel_solve(c, {{false, 2, false}, {false, 0, false}}, b);
  }
  if (scaled_unit_solve(batch, n, k)) {
    // Note [unit-diagonal solves]: L = c's lower triangle, or U_f^H for an upper factor; L = D U.
    array l = lower ? c : conj_if_complex(swap_last(c));
    array d = diagonal(l, 0, -2, -1);
    array u = unit_factor(l, d);
    array rhs = scaled_colmajor_rhs(b, d);
    trsm_stack(t, false, false, 1, true, n, k, u, rhs, n);  // U Y = D^-1 B: op T of U^T's memory
    array z = solve_right(u, true, {{true, 2, true}}, from_colmajor(rhs), t, false);  // U^H Z = Y
    return divide_rows(z, conj_if_complex(d), order::C);
  }
  array a = colmajor_image(c, t);
  // potrs's two left-side solves of a lower factor are among cuBLAS's fast forms (tools/diag/trsm_forms23.py,
  // H200, float64, n = 1000 / 4096, k = 16: left 604 / 3096 µs, right 650 / 3149; k = 64: 632 / 2787 against
  // 628 / 3097), those of an upper factor are not (700 / 4216 against 617 / 3159 at k = 16).
  if ((k >= right_side_min_k && !lower) || use_batched(batch, n)) {
    // A = L L^H: X = L^-H (L^-1 B); A = U^H U: X = U^-1 (U^-H B).
    if (lower) return solve_right(a, false, {{true, 0, false}, {true, 2, false}}, b, t, false);
    return solve_right(a, false, {{false, 2, false}, {false, 0, false}}, b, t, false);
  }
  array rhs = to_colmajor(b, b.type());
  const cs::api& api = cs::get();
  cs::handle h(device);
  cudaDataType ct = cs::data_type(t);
  array info = ::cuarray::detail::new_array(dtype::int32, shape_t{1}, order::C, device);
  for (std::int64_t i = 0; i < batch; ++i) {
    cs::check(api.xpotrs(h.get(), h.params(), fill(lower), n, k, ct, matrix_ptr(a, i), n, ct, matrix_ptr(rhs, i), n,
                         static_cast<int*>(info.data())),
              "cusolverDnXpotrs");
  }
  return from_colmajor(rhs);
}

array trsm(const array& a, const array& b, bool lower, int trans, bool unit_diagonal) {
  require_square(a, "trsm");
  require_rhs(a, b, "trsm");
  if (trans < 0 || trans > 2) throw value_error("trsm: trans must be 0, 1 or 2");
  std::int64_t n = a.shape()[a.ndim() - 1], k = b.shape()[b.ndim() - 1], batch = batch_count(a);
  const int device = a.device();
  ::cuarray::detail::enter_device(device);
  if (batch == 0 || n == 0 || k == 0) return from_colmajor(to_colmajor(b, b.type()));
  if (tri_kernel_route(batch, n, k)) return kernel_solve(a, {{lower, trans, unit_diagonal}}, b);
  if (!unit_diagonal && scaled_unit_solve(batch, n, k)) {
    // Note [unit-diagonal solves]: T = D U, U in C order (its memory is U^T column-major).
    array d = diagonal(a, 0, -2, -1);
    array u = unit_factor(a, d);
    if (trans == 0) {
      // U X = D^-1 B: the left side's op T of U^T's memory, as for a C-ordered T below.
      array rhs = scaled_colmajor_rhs(b, d);
      trsm_stack(a.type(), false, !lower, 1, true, n, k, u, rhs, n);
      return from_colmajor(rhs);
    }
    array y = solve_right(u, true, {{lower, trans, true}}, b, a.type(), false);
    return divide_rows(y, trans == 2 ? conj_if_complex(d) : d, order::C);
  }
  if (k >= right_side_min_k || use_batched(batch, n)) {
    // a's memory as it is where it holds T's column-major image, else T^T in C order (a copy only if neither).
    const bool tmem = !(swap_last(a).is_c_contiguous());
    array mem = tmem ? a.astype(a.type(), order::C, false) : swap_last(a);
    if (tmem && trans == 0 && !use_batched(batch, n)) {
      // T X = B from T^T's memory: the left side's op T, one of cuBLAS's fast forms (Note [solve by side]:
      // 1403 / 311 µs non-unit and 928 / 310 unit at n = 4096 / 1000, k = 16, against the right side's
      // 1587 / 311 and 1576 / 409).
      array rhs = to_colmajor(b, b.type());
      trsm_stack(a.type(), false, !lower, 1, unit_diagonal, n, k, mem, rhs, n);
      return from_colmajor(rhs);
    }
    return solve_right(mem, tmem, {{lower, trans, unit_diagonal}}, b, a.type(), false);
  }
  array rhs = to_colmajor(b, b.type());
  trsm_stack(a.type(), false, lower, trans, unit_diagonal, n, k, colmajor_image(a, a.type()), rhs, n);
  return from_colmajor(rhs);
}

bool all_finite(const std::vector<array>& arrays) {
  std::vector<array> flags;
  for (const array& a : arrays) {
    if (is_inexact(a.type()) && a.size() != 0) flags.push_back(::cuarray::detail::all_finite(a));
  }
  if (flags.empty()) return true;
  if (flags.size() == 1) return host_bool(flags[0]);
  std::vector<unsigned char> host(flags.size());
  stack(flags).copy_to_host(host);  // bool is one byte, 0 or 1
  return std::all_of(host.begin(), host.end(), [](unsigned char f) { return f != 0; });
}

}  // namespace cuarray::linalg::lapack
