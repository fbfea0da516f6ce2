// Helpers shared by the linalg sources: NumPy's dtype and shape rules, column-major working copies, views.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cuarray/array.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/reduction.hpp"

namespace cuarray::linalg::detail {

/// NumPy's _commonType result dtype: float32 / complex64 unless some input is float64, complex128, bool or
/// integer (then float64 / complex128); type_error for float16.
dtype result_type(std::initializer_list<dtype> types);
dtype real_of(dtype t);     ///< complex64 -> float32, complex128 -> float64, real unchanged
dtype complex_of(dtype t);  ///< float32 -> complex64, float64 -> complex128, complex unchanged

/// NumPy's _assert_stacked_2d / _assert_stacked_square (linalg_error with NumPy's messages).
void assert_stacked_2d(const array& a);
void assert_stacked_square(const array& a);

shape_t batch_shape(const array& a);  ///< all but the last two extents
std::int64_t batch_count(const array& a);

/// View with the last two axes swapped.
array swap_last(const array& a);
/// View of a[..., start:stop] along axis `axis` (negative counts from the end).
array slice_axis(const array& a, int axis, std::int64_t start, std::int64_t stop);
/// View of the main diagonals over the last two axes, shape (..., min(M, N)).
array diag_view(const array& a);
/// View that drops a length-1 axis.
array drop_axis(const array& a, int axis);

/// Note [column-major working copy]: cuSOLVER reads and writes column-major matrices. A stack (..., M, N)
/// copied as its swapped view in C order is a C-ordered stack of (N, M) whose every matrix is the column-major
/// image of the (M, N) one, so from_colmajor (the swapped view) reads it back without another copy.
array to_colmajor(const array& a, dtype t);
inline array from_colmajor(const array& buf) { return swap_last(buf); }

/// x with the strict other triangle zeroed (upper: keep the diagonal and above), over the last two axes.
array triangle(const array& x, bool upper);
/// Conjugate of complex input; real input returned as is.
array conj_if_complex(const array& x);
/// Rows perm[..., i] of each matrix of the stack `b` (..., n, k), each matrix with its own permutation `perm`
/// (..., n) int64 (one matrix: the row gather); a new array.
array gather_rows(const array& b, const array& perm);
/// A matrix stack's column-major image without a copy where a's swapped view is already C-contiguous in dtype t
/// (a factor from getrf or potrf), else to_colmajor's copy. Only for reading: it may share a's memory.
array colmajor_image(const array& a, dtype t);

/// Note [solve by side] (src/linalg/decomp_lu.cpp): from this many right-hand sides on, the solvers leave
/// getrs's pair of left-side solves for cuBLAS's forms that hardly grow with their number (the transposed left
/// side, or the right side of the transposed system).
inline constexpr std::int64_t right_side_min_k = 8;
/// The least order (256) whose non-unit triangular solves from right_side_min_k right-hand sides divide by the
/// diagonal first and take cuBLAS's faster unit-diagonal forms (Note [unit-diagonal solves], lapack.cpp).
std::int64_t unit_solve_min_n();
/// Sets unit_solve_min_n (diagnostics and tests compare the two routes); returns the previous value.
std::int64_t set_unit_solve_min_n(std::int64_t n);
/// The most right-hand sides (128) that trsm, potrs and getrs solve in cuarray's own one-kernel triangular solve
/// instead of cuBLAS's (Note [one-kernel triangular solves], lapack.cpp).
std::int64_t tri_kernel_max_k();
/// Sets tri_kernel_max_k (0 sends every solve to cuBLAS; diagnostics and tests); returns the previous value.
std::int64_t set_tri_kernel_max_k(std::int64_t k);
/// Whether trsm and potrs of `batch` matrices of order n with k right-hand sides solve in the one-kernel solve
/// (Note [one-kernel triangular solves], lapack.cpp): from 2 right-hand sides (1 in stacks of small matrices) to
/// tri_kernel_max_k, where its blocks fit one launch.
bool tri_kernel_route(std::int64_t batch, std::int64_t n, std::int64_t k);
/// Whether getrs's pair of solves does (lapack::getrs, and linalg.solve, which factors for it): from one
/// right-hand side, where the pivots' replay also fits `device` (pivot_seed_max_n).
bool getrs_kernel_route(std::int64_t batch, std::int64_t n, std::int64_t k, int device);

/// Note [batched small LU]: a stack of small matrices (inv, solve, det of (..., 8, 8)) costs one cuSOLVER or
/// cuBLAS call per matrix, each a few microseconds of host time and a few launches, so a stack of a thousand
/// took milliseconds where CuPy's and PyTorch's batched routines take tens of microseconds. Stacks of orders up to
/// batched_max_n() go through one batched call instead: cuBLAS's getrfBatched, then getriBatched (inv up to order
/// 32), getrsBatched (solve) or trsmBatched (the rest), and cuSOLVER's potrfBatched (cholesky, to order 128).
/// Larger orders in short stacks keep the loop, whose calls are then long enough to fill the GPU.
/// Orders up to which stacks of two or more matrices may take the batched routines (1024).
std::int64_t batched_max_n();
/// Sets batched_max_n (diagnostics and tests compare the two routes); returns the previous value.
std::int64_t set_batched_max_n(std::int64_t n);
/// A batched call costs about what one matrix of the loop costs times n / 100 (getrfBatched against Xgetrf on an
/// H200, tools/diag/batched23.py: 1.5x at n = 128, 2.9x at 256, 4.4x at 512, 10x at 1024), whatever the batch,
/// so the batched route needs a batch of at least n / 100. (The batched routines count matrices in int.)
inline bool use_batched(std::int64_t batch, std::int64_t n) {
  return batch > 1 && batch <= INT32_MAX && n <= batched_max_n() && 100 * batch >= n;
}
/// The device array (uint64, one per matrix) of pointers to the matrices of the C-contiguous stack `a`.
array matrix_pointers(const array& a);
/// LU with partial pivoting, in place, of the C-contiguous stack `buf` of square column-major images through one
/// getrfBatched call (where use_batched); info (int32, one a matrix) is written. Returns the int32 pivots, and in
/// `pointers`, where given, the stack's matrix pointers.
array getrf_batched(const array& buf, const array& info, array* pointers = nullptr);
/// cublas_trsm for each matrix of the C-contiguous stacks `a` (column-major images, order n, ld n) and `b`
/// (right-hand sides, ld ldb): one batched call where use_batched, else one call per matrix.
void trsm_stack(dtype t, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n, std::int64_t k,
                const array& a, const array& b, std::int64_t ldb);

/// An identity (M, N) stack of batch shape `batch` (a new C-ordered array).
array eye_stack(const shape_t& batch, std::int64_t m, std::int64_t n, dtype t);

/// Device workspace from the memory pool (Note [cusolver workspaces]); at least one byte.
array workspace(std::size_t bytes, int device);
/// cuSOLVER's info values (int32 array) read to the host: one synchronisation (for long ones, a count of the
/// non-zero flags first, and the copy only where there are some).
std::vector<int> read_info(const array& info);

/// Note [info read during the solve]: inv and solve raise NumPy's LinAlgError from getrf's info, which costs a
/// wait for the device. Waiting at the end of the call drained the GPU's queue: the next call's launches then
/// ran with the GPU idle (CuPy skips the check by default). An info_read enqueues the read as soon as getrf
/// has: for long info a count of the flags, then an asynchronous copy of the count (or of short info whole)
/// into a pinned slot of the calling thread, and an event. The caller enqueues its solve and then calls
/// flags(), which waits for that event only, so the host returns while the solve still runs. Where the read
/// cannot start early (synchronisation disallowed, a capturing stream, the thread's slot in use, no pinned
/// memory) flags() reads as read_info does, raising what read_info raises.
class info_read {
public:
  /// Starts reading `info` (int32, contiguous, one flag per matrix) on its device's current stream.
  explicit info_read(array info);
  info_read(const info_read&) = delete;
  info_read& operator=(const info_read&) = delete;
  /// Waits for a read still pending (the slot is then free again).
  ~info_read();
  /// The flags on the host: the early read's, waiting for its event; a later call reads again, as read_info.
  std::vector<int> flags();

private:
  array info_, count_;
  void* event_ = nullptr;  // cudaEvent_t of the pending read, null when none is pending
};
/// Host value of a 0-d bool array (one synchronisation).
bool host_bool(const array& b);
/// Machine epsilon of t's real dtype (float16, float32, else float64).
double eps_of(dtype t);
/// Matrix i of a C-contiguous stack, as a 2-D view.
array matrix_view(const array& stack, std::int64_t i);
/// `s` with `tail` appended (a stack's batch shape and its matrices' extents).
shape_t with_tail(shape_t s, std::initializer_list<std::int64_t> tail);
/// Whether any element of `a` is NaN or infinite (one synchronisation); false for integer input.
bool any_nonfinite(const array& a);

/// Reduction options over `axes` (designated initialisers would leave -Wextra complaining).
inline reduce_options along(std::vector<int> axes, bool keepdims = false) {
  reduce_options o;
  o.axis = std::move(axes);
  o.keepdims = keepdims;
  return o;
}

/// Byte stride between consecutive matrices of a C-contiguous stack.
inline std::int64_t matrix_bytes(const array& a) {
  return a.ndim() < 2 ? 0 : a.shape()[a.ndim() - 1] * a.shape()[a.ndim() - 2] * static_cast<std::int64_t>(a.itemsize());
}
inline void* matrix_ptr(const array& a, std::int64_t i) { return static_cast<char*>(a.data()) + i * matrix_bytes(a); }

/// How inv_impl solves after the LU factorisation (Note [inverse by right solves]): `right_solves` where the
/// device can replay the pivots of that order, else `identity_solve`; tests name a route to compare the two.
enum class inv_route { automatic, right_solves, identity_solve };

/// Inverse of a stack of square matrices (inv); with raise_singular false, singular input gives inf/NaN instead
/// of LinAlgError (cond uses it, as NumPy's errstate(all='ignore')).
array inv_impl(const array& a, bool raise_singular, inv_route route = inv_route::automatic);

}  // namespace cuarray::linalg::detail
