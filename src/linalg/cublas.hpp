// cuBLAS loaded with dlopen on first use, and the batched GEMM that cuarray's float products run on.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>

#include "cuarray/array.hpp"

namespace cuarray::detail {

/// One operand of a batched GEMM: `batch` matrices of rows x cols at `data`, element strides (not bytes)
/// between rows, columns and matrices. A batch stride of 0 repeats one matrix.
struct gemm_operand {
  const void* data = nullptr;
  std::int64_t rows = 0, cols = 0;
  std::int64_t row_stride = 0, col_stride = 0, batch_stride = 0;
  bool conj = false;  ///< use the complex conjugate of the elements
};

/// Whether cuBLAS can read `m` as it is: one of its strides is 1 and the other a valid leading dimension
/// (conjugation also needs the transposed form, since BLAS has no conjugate-without-transpose).
bool gemm_layout_ok(const gemm_operand& m);

/// C[b] = A[b] @ B[b] for b < batch, all of dtype `t` (float16/32/64, complex64/128), C written densely with
/// the given element strides (one of them 1). Runs on `device`'s current stream; float16 accumulates in float32,
/// float32 uses TF32 only when enabled (Note [tf32]). Requires gemm_layout_ok for A and B.
void cublas_gemm(dtype t, int device, std::int64_t batch, const gemm_operand& a, const gemm_operand& b, void* c,
                 std::int64_t c_row_stride, std::int64_t c_col_stride, std::int64_t c_batch_stride);

/// A workspace the caller lends cuBLAS for one call instead of the pool's (Note [cublas handles]); at least
/// cublas_workspace_bytes(device) bytes, 256-byte aligned.
struct cublas_workspace {
  void* ptr = nullptr;
  std::size_t bytes = 0;
};

/// The workspace cuBLAS is given per call on `device`: 32 MiB on Hopper and newer, 4 MiB before.
std::size_t cublas_workspace_bytes(int device);

/// Solve op(A) X = B (left) or X op(A) = B (right) in place, alpha 1, for a triangular column-major A (n x n,
/// leading dimension lda) and B (n x k left, k x n right; ldb) of dtype `t` (float32/64, complex64/128):
/// cublas<t>trsm on `device`'s current stream, with the caller's workspace `ws` where given. trans 0 = A,
/// 1 = A^T, 2 = A^H.
void cublas_trsm(dtype t, int device, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n,
                 std::int64_t k, const void* a, std::int64_t lda, void* b, std::int64_t ldb,
                 const cublas_workspace* ws = nullptr);

/// C = alpha op(A) op(B) + beta C, column-major, dtype t (float32/64, complex64/128; never TF32), on `device`'s
/// current stream with the caller's workspace. op(A) is m x k, op(B) k x n; trans 0 = N, 1 = T, 2 = C.
void cublas_gemm_scaled(dtype t, int device, int trans_a, int trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        std::complex<double> alpha, const void* a, std::int64_t lda, const void* b, std::int64_t ldb,
                        std::complex<double> beta, void* c, std::int64_t ldc, const cublas_workspace& ws);

/// C = alpha op(A) + beta op(B) (m x n, column-major): cublas<t>geam, which allows C = A in place (op N, same ld).
void cublas_geam(dtype t, int device, int trans_a, int trans_b, std::int64_t m, std::int64_t n,
                 std::complex<double> alpha, const void* a, std::int64_t lda, std::complex<double> beta, const void* b,
                 std::int64_t ldb, void* c, std::int64_t ldc, const cublas_workspace& ws);

/// cublas_trsm for each of `batch` pairs: A_i at a[i], B_i at b[i] (device arrays of device pointers), one
/// cublas<t>trsmBatched call.
void cublas_trsm_batched(dtype t, int device, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n,
                         std::int64_t k, const void* const* a, std::int64_t lda, void* const* b, std::int64_t ldb,
                         std::int64_t batch);

/// LU factorisation with partial pivoting of `batch` square column-major matrices of order n at a[i] (a device
/// array of device pointers), in place: cublas<t>getrfBatched. Pivots (int32, 1-based as LAPACK's) n per matrix
/// at ipiv, info (int32, k > 0: U(k, k) is exactly zero) one per matrix.
void cublas_getrf_batched(dtype t, int device, std::int64_t n, void* const* a, std::int64_t lda, int* ipiv, int* info,
                          std::int64_t batch);

/// Inverses of `batch` LU factorisations of order n (cublas_getrf_batched's matrices at a[i], pivots ipiv) into
/// the column-major matrices at c[i] (ld n): cublas<t>getriBatched. info: int32 per matrix on the device.
void cublas_getri_batched(dtype t, int device, std::int64_t n, const void* const* a, const int* ipiv, void* const* c,
                          int* info, std::int64_t batch);

/// op(A_i) X_i = B_i in place for `batch` LU factorisations of order n (cublas_getrf_batched's, ld n) and the
/// column-major n x k right-hand sides at b[i] (ld n): cublas<t>getrsBatched; trans 0 = A, 1 = A^T, 2 = A^H.
void cublas_getrs_batched(dtype t, int device, int trans, std::int64_t n, std::int64_t k, const void* const* a,
                          const int* ipiv, void* const* b, std::int64_t batch);

/// The loaded library's path (loads it; cuda_error when it cannot be found).
const char* cublas_path();

/// The calling thread's cuBLAS handle of `device` (Note [cublas handles]), pointed at the device's current
/// stream, as an integer: CuPy's Device.cublas_handle.
std::uintptr_t cublas_handle(int device);

}  // namespace cuarray::detail
