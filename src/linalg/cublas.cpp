// cuBLAS loaded on first use (src/cuda/library.hpp), and the batched GEMM that cuarray's float products run on.
#include "src/linalg/cublas.hpp"

#include <cublas_v2.h>  // types and enums only: every call goes through the pointers below

#include <algorithm>
#include <climits>
#include <complex>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/products.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::detail {

namespace {

struct cublas_api {
  void* handle = nullptr;
  std::string path, load_error;

  cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
  cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t) = nullptr;
  cublasStatus_t (*set_workspace)(cublasHandle_t, void*, size_t) = nullptr;
  cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t) = nullptr;
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                            cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                            const void*, const void*, cudaDataType, int, long long, const void*,
                                            cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                            long long, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  // cublas{S,D,C,Z}trsm_v2: the four differ only in pointee types, one ABI (as Note [cusolver typed routines]).
  cublasStatus_t (*trsm[4])(cublasHandle_t, cublasSideMode_t, cublasFillMode_t, cublasOperation_t, cublasDiagType_t,
                            int, int, const void*, const void*, int, void*, int) = {};
  // cublas{S,D,C,Z}getrfBatched and trsmBatched (Note [batched small LU], src/linalg/decomp_common.hpp).
  cublasStatus_t (*getrf_batched[4])(cublasHandle_t, int, void* const*, int, int*, int*, int) = {};
  cublasStatus_t (*getri_batched[4])(cublasHandle_t, int, const void* const*, int, const int*, void* const*, int, int*,
                                     int) = {};
  cublasStatus_t (*getrs_batched[4])(cublasHandle_t, cublasOperation_t, int, int, const void* const*, int, const int*,
                                     void* const*, int, int*, int) = {};
  cublasStatus_t (*trsm_batched[4])(cublasHandle_t, cublasSideMode_t, cublasFillMode_t, cublasOperation_t,
                                    cublasDiagType_t, int, int, const void*, const void* const*, int, void* const*, int,
                                    int) = {};
  // cublas{S,D,C,Z}geam (Note [polar svd], src/linalg/svd_polar.cpp).
  cublasStatus_t (*geam[4])(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, const void*, const void*,
                            int, const void*, const void*, int, void*, int) = {};
  // Optional: only for messages.
  const char* (*status_string)(cublasStatus_t) = nullptr;
};

const library_spec cublas_library{"cuBLAS (libcublas)",
                                  "nvidia-cublas-cu12/cu13",
                                  {"libcublas.so.13", "libcublas.so.12", "libcublas.so"},
                                  "CUARRAY_CUBLAS_PATH"};

std::vector<library_symbol> cublas_symbols(cublas_api& a) {
  return {
      {"cublasCreate_v2", a.create},
      {"cublasSetStream_v2", a.set_stream},
      {"cublasSetWorkspace_v2", a.set_workspace},
      {"cublasSetMathMode", a.set_math_mode},
      {"cublasGemmEx", a.gemm_ex},
      {"cublasGemmStridedBatchedEx", a.gemm_strided_batched_ex},
      {"cublasStrsm_v2", a.trsm[0]},
      {"cublasDtrsm_v2", a.trsm[1]},
      {"cublasCtrsm_v2", a.trsm[2]},
      {"cublasZtrsm_v2", a.trsm[3]},
      {"cublasSgetrfBatched", a.getrf_batched[0]},
      {"cublasDgetrfBatched", a.getrf_batched[1]},
      {"cublasCgetrfBatched", a.getrf_batched[2]},
      {"cublasZgetrfBatched", a.getrf_batched[3]},
      {"cublasSgetriBatched", a.getri_batched[0]},
      {"cublasDgetriBatched", a.getri_batched[1]},
      {"cublasCgetriBatched", a.getri_batched[2]},
      {"cublasZgetriBatched", a.getri_batched[3]},
      {"cublasSgetrsBatched", a.getrs_batched[0]},
      {"cublasDgetrsBatched", a.getrs_batched[1]},
      {"cublasCgetrsBatched", a.getrs_batched[2]},
      {"cublasZgetrsBatched", a.getrs_batched[3]},
      {"cublasStrsmBatched", a.trsm_batched[0]},
      {"cublasDtrsmBatched", a.trsm_batched[1]},
      {"cublasCtrsmBatched", a.trsm_batched[2]},
      {"cublasZtrsmBatched", a.trsm_batched[3]},
      {"cublasSgeam", a.geam[0]},
      {"cublasDgeam", a.geam[1]},
      {"cublasCgeam", a.geam[2]},
      {"cublasZgeam", a.geam[3]},
      {"cublasGetStatusString", a.status_string, library_symbol::optional},
  };
}

cublas_api load_cublas() {
  cublas_api a;
  cuda_library lib = load_library(cublas_library, cublas_symbols(a));
  a.handle = lib.handle;
  a.path = lib.path;
  a.load_error = lib.error;
  return a;
}

const cublas_api& api() {
  static std::once_flag once;
  static cublas_api loaded;
  std::call_once(once, [] { loaded = load_cublas(); });
  if (!loaded.handle) throw cuda_error(-1, loaded.load_error);
  return loaded;
}

void check(const cublas_api& a, cublasStatus_t s, const char* call) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  // The status's name (Note [status names]), then cuBLAS's own description of it when it has one.
  std::string what = status_text(status_source::cublas, static_cast<int>(s));
  const char* text = a.status_string ? a.status_string(s) : nullptr;
  if (text && what != text) what += std::string(": ") + text;
  throw cuda_error(-1, what + " (in " + call + ")");
}

// Note [cublas handles]: one handle per thread and device (a handle must not be used by two threads at once),
// created on first use and never destroyed (destroying at exit could outlive the driver). The stream and the
// workspace are set before every call: the workspace comes from the memory pool on that stream for the call
// alone, so it returns to the pool stream-ordered and the pool's used bytes go back to where they were.
cublasHandle_t handle_for(const cublas_api& a, int device) {
  thread_local std::vector<cublasHandle_t> handles;
  if (device >= static_cast<int>(handles.size())) handles.resize(static_cast<std::size_t>(device) + 1, nullptr);
  cublasHandle_t& h = handles[static_cast<std::size_t>(device)];
  if (!h) {
    check(a, a.create(&h), "cublasCreate");
    // The compute type of each call decides precision; no math mode may widen it.
    check(a, a.set_math_mode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  }
  return h;
}

// cuBLAS's recommended user workspace: 32 MiB on Hopper and newer, 4 MiB before.
std::size_t workspace_bytes(int device) {
  static std::mutex mu;
  static std::vector<int> major;
  std::lock_guard<std::mutex> lock(mu);
  if (device >= static_cast<int>(major.size())) major.resize(static_cast<std::size_t>(device) + 1, 0);
  int& m = major[static_cast<std::size_t>(device)];
  if (m == 0) m = device_attribute(device, cudaDevAttrComputeCapabilityMajor);
  return m >= 9 ? (std::size_t{32} << 20) : (std::size_t{4} << 20);
}

// Column-major views of a row x col matrix for cuBLAS: as stored column-major (op N on X) or row-major (the
// column-major storage of X^T). A stride along an extent-1 axis is never used, so it does not disqualify.
bool colmajor_ok(const gemm_operand& x, std::int64_t& ld) {
  if (x.rows > 1 && x.row_stride != 1) return false;
  if (x.cols > 1 && x.col_stride < std::max<std::int64_t>(1, x.rows)) return false;
  ld = x.cols > 1 ? x.col_stride : std::max<std::int64_t>(1, x.rows);
  return true;
}
bool rowmajor_ok(const gemm_operand& x, std::int64_t& ld) {
  if (x.cols > 1 && x.col_stride != 1) return false;
  if (x.rows > 1 && x.row_stride < std::max<std::int64_t>(1, x.cols)) return false;
  ld = x.rows > 1 ? x.row_stride : std::max<std::int64_t>(1, x.cols);
  return true;
}

// With C row-major, cuBLAS computes C^T = B^T A^T in column-major terms: a row-major operand is passed as is
// (op N), a column-major one transposed (op T, or op C to conjugate).
bool choose_op(const gemm_operand& x, cublasOperation_t& op, std::int64_t& ld) {
  if (!x.conj && rowmajor_ok(x, ld)) {
    op = CUBLAS_OP_N;
    return true;
  }
  if (colmajor_ok(x, ld)) {
    op = x.conj ? CUBLAS_OP_C : CUBLAS_OP_T;
    return true;
  }
  return false;
}

int as_int(std::int64_t v, const char* what) {
  if (v > INT_MAX)
    throw value_error(std::string("matrix product too large for cuBLAS: ") + what + " = " + std::to_string(v));
  return static_cast<int>(v);
}

// The handle of `device` on its current stream, with a pool workspace `ws` for this call (Note [cublas handles]),
// or the caller's workspace `given` where it has one.
cublasHandle_t ready_handle(const cublas_api& api_, int device, array& ws, const cublas_workspace* given = nullptr) {
  cudaStream_t stream = enter_device(device);
  cublasHandle_t h = handle_for(api_, device);
  check(api_, api_.set_stream(h, stream), "cublasSetStream");
  // The handle may still point at an earlier call's workspace, long since returned to the pool.
  if (given != nullptr) {
    check(api_, api_.set_workspace(h, given->ptr, given->bytes), "cublasSetWorkspace");
    return h;
  }
  std::size_t ws_bytes = workspace_bytes(device);
  ws = new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(ws_bytes)}, order::C, device);
  check(api_, api_.set_workspace(h, ws.data(), ws_bytes), "cublasSetWorkspace");
  return h;
}

// A scalar of dtype t's precision at `out` (float, double, cuComplex or cuDoubleComplex).
void put_scalar(dtype t, std::complex<double> v, unsigned char* out) {
  switch (t) {
    case dtype::float32: *reinterpret_cast<float*>(out) = static_cast<float>(v.real()); break;
    case dtype::float64: *reinterpret_cast<double*>(out) = v.real(); break;
    case dtype::complex64:
      reinterpret_cast<float*>(out)[0] = static_cast<float>(v.real());
      reinterpret_cast<float*>(out)[1] = static_cast<float>(v.imag());
      break;
    case dtype::complex128:
      reinterpret_cast<double*>(out)[0] = v.real();
      reinterpret_cast<double*>(out)[1] = v.imag();
      break;
    default: throw type_error("cuBLAS scalar: unsupported dtype " + std::string(name(t)));
  }
}

// What every typed call (trsm, the batched LU routines) prepares: its dtype's index in the {S, D, C, Z} tables,
// alpha = 1 of that type, and the handle on the current stream with the call's workspace.
struct typed_call {
  const cublas_api& lib = api();
  int index = 0;
  alignas(16) unsigned char one[16] = {};
  array ws;
  cublasHandle_t h = nullptr;
  typed_call(dtype t, int device, const char* what, const cublas_workspace* given = nullptr) {
    switch (t) {
      case dtype::float32: index = 0; break;
      case dtype::float64: index = 1; break;
      case dtype::complex64: index = 2; break;
      case dtype::complex128: index = 3; break;
      default: throw type_error(std::string(what) + ": unsupported dtype " + std::string(name(t)));
    }
    put_scalar(t, 1.0, one);
    h = ready_handle(lib, device, ws, given);
  }
};

cublasOperation_t trans_op(int trans) { return trans == 0 ? CUBLAS_OP_N : trans == 1 ? CUBLAS_OP_T : CUBLAS_OP_C; }

}  // namespace

bool gemm_layout_ok(const gemm_operand& m) {
  cublasOperation_t op;
  std::int64_t ld;
  return choose_op(m, op, ld);
}

const char* cublas_path() { return api().path.c_str(); }

void cublas_gemm(dtype t, int device, std::int64_t batch, const gemm_operand& a, const gemm_operand& b, void* c,
                 std::int64_t c_row_stride, std::int64_t c_col_stride, std::int64_t c_batch_stride) {
  const std::int64_t m = a.rows, k = a.cols, n = b.cols;
  if (batch == 0 || m == 0 || n == 0) return;
  if (c_col_stride != 1 && n > 1) throw value_error("cublas_gemm: C must be row-major");
  const cublas_api& api_ = api();
  cublasOperation_t op_a, op_b;
  std::int64_t lda, ldb;
  if (!choose_op(a, op_a, lda) || !choose_op(b, op_b, ldb))
    throw value_error("cublas_gemm: unsupported operand layout");
  std::int64_t ldc = m > 1 ? c_row_stride : std::max<std::int64_t>(1, n);

  cudaDataType dt;
  cublasComputeType_t ct;
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};
  bool tf32 = tf32_enabled();
  switch (t) {
    case dtype::float16:
      dt = CUDA_R_16F, ct = CUBLAS_COMPUTE_32F;
      *reinterpret_cast<float*>(alpha) = 1.0f;
      break;
    case dtype::float32:
      dt = CUDA_R_32F, ct = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      *reinterpret_cast<float*>(alpha) = 1.0f;
      break;
    case dtype::float64:
      dt = CUDA_R_64F, ct = CUBLAS_COMPUTE_64F;
      *reinterpret_cast<double*>(alpha) = 1.0;
      break;
    case dtype::complex64:
      dt = CUDA_C_32F, ct = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      *reinterpret_cast<float*>(alpha) = 1.0f;
      break;
    case dtype::complex128:
      dt = CUDA_C_64F, ct = CUBLAS_COMPUTE_64F;
      *reinterpret_cast<double*>(alpha) = 1.0;
      break;
    default: throw type_error("cublas_gemm: unsupported dtype " + std::string(name(t)));
  }
  array ws;
  cublasHandle_t h = ready_handle(api_, device, ws);

  // Column-major problem: (n x m) = op(B) (n x k) * op(A) (k x m).
  int im = as_int(n, "n"), in = as_int(m, "m"), ik = as_int(std::max<std::int64_t>(k, 0), "k");
  int ilda = as_int(ldb, "ldb"), ildb = as_int(lda, "lda"), ildc = as_int(ldc, "ldc");
  // cuBLAS rejects k = 0 with some algorithms; the caller fills zeros instead (see batched_matmul).
  const auto algo = CUBLAS_GEMM_DEFAULT;
  if (batch == 1) {
    check(api_,
          api_.gemm_ex(h, op_b, op_a, im, in, ik, alpha, b.data, dt, ilda, a.data, dt, ildb, beta, c, dt, ildc, ct,
                       algo),
          "cublasGemmEx");
    return;
  }
  const std::size_t isz = itemsize(t);
  for (std::int64_t done = 0; done < batch;) {
    int count = static_cast<int>(std::min<std::int64_t>(batch - done, INT_MAX));
    const char* pa = static_cast<const char*>(a.data) + done * a.batch_stride * static_cast<std::int64_t>(isz);
    const char* pb = static_cast<const char*>(b.data) + done * b.batch_stride * static_cast<std::int64_t>(isz);
    char* pc = static_cast<char*>(c) + done * c_batch_stride * static_cast<std::int64_t>(isz);
    check(api_,
          api_.gemm_strided_batched_ex(h, op_b, op_a, im, in, ik, alpha, pb, dt, ilda, b.batch_stride, pa, dt, ildb,
                                       a.batch_stride, beta, pc, dt, ildc, c_batch_stride, count, ct, algo),
          "cublasGemmStridedBatchedEx");
    done += count;
  }
}

void cublas_trsm(dtype t, int device, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n,
                 std::int64_t k, const void* a, std::int64_t lda, void* b, std::int64_t ldb,
                 const cublas_workspace* ws) {
  if (n == 0 || k == 0) return;
  typed_call c(t, device, "cublas_trsm", ws);
  check(c.lib,
        c.lib.trsm[c.index](c.h, right ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
                            lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, trans_op(trans),
                            unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, as_int(right ? k : n, "m"),
                            as_int(right ? n : k, "n"), c.one, a, as_int(lda, "lda"), b, as_int(ldb, "ldb")),
        "cublas<t>trsm");
}

void cublas_trsm_batched(dtype t, int device, bool right, bool lower, int trans, bool unit_diagonal, std::int64_t n,
                         std::int64_t k, const void* const* a, std::int64_t lda, void* const* b, std::int64_t ldb,
                         std::int64_t batch) {
  if (n == 0 || k == 0 || batch == 0) return;
  typed_call c(t, device, "cublas_trsm_batched");
  check(c.lib,
        c.lib.trsm_batched[c.index](
            c.h, right ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
            trans_op(trans), unit_diagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, as_int(right ? k : n, "m"),
            as_int(right ? n : k, "n"), c.one, a, as_int(lda, "lda"), b, as_int(ldb, "ldb"), as_int(batch, "batch")),
        "cublas<t>trsmBatched");
}

void cublas_getrf_batched(dtype t, int device, std::int64_t n, void* const* a, std::int64_t lda, int* ipiv, int* info,
                          std::int64_t batch) {
  if (n == 0 || batch == 0) return;
  typed_call c(t, device, "cublas_getrf_batched");
  check(c.lib,
        c.lib.getrf_batched[c.index](c.h, as_int(n, "n"), a, as_int(lda, "lda"), ipiv, info, as_int(batch, "batch")),
        "cublas<t>getrfBatched");
}

void cublas_getri_batched(dtype t, int device, std::int64_t n, const void* const* a, const int* ipiv, void* const* c,
                          int* info, std::int64_t batch) {
  if (n == 0 || batch == 0) return;
  typed_call call(t, device, "cublas_getri_batched");
  const int in = as_int(n, "n");
  check(call.lib, call.lib.getri_batched[call.index](call.h, in, a, in, ipiv, c, in, info, as_int(batch, "batch")),
        "cublas<t>getriBatched");
}

void cublas_getrs_batched(dtype t, int device, int trans, std::int64_t n, std::int64_t k, const void* const* a,
                          const int* ipiv, void* const* b, std::int64_t batch) {
  if (n == 0 || k == 0 || batch == 0) return;
  typed_call c(t, device, "cublas_getrs_batched");
  const int in = as_int(n, "n");
  int info = 0;  // argument checks only, on the host
  check(c.lib,
        c.lib.getrs_batched[c.index](c.h, trans_op(trans), in, as_int(k, "nrhs"), a, in, ipiv, b, in, &info,
                                     as_int(batch, "batch")),
        "cublas<t>getrsBatched");
  if (info != 0) throw value_error("cublas<t>getrsBatched: invalid argument " + std::to_string(-info));
}

void cublas_gemm_scaled(dtype t, int device, int trans_a, int trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                        std::complex<double> alpha, const void* a, std::int64_t lda, const void* b, std::int64_t ldb,
                        std::complex<double> beta, void* c, std::int64_t ldc, const cublas_workspace& ws) {
  if (m == 0 || n == 0) return;
  typed_call call(t, device, "cublas_gemm_scaled", &ws);
  alignas(16) unsigned char al[16] = {}, be[16] = {};
  put_scalar(t, alpha, al);
  put_scalar(t, beta, be);
  // Indexed like the {S, D, C, Z} tables. Never TF32: the factorisations built on this need the dtype's own
  // precision.
  constexpr cudaDataType types[4] = {CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F};
  constexpr cublasComputeType_t computes[4] = {CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_64F, CUBLAS_COMPUTE_32F,
                                               CUBLAS_COMPUTE_64F};
  const cudaDataType dt = types[call.index];
  const cublasComputeType_t ct = computes[call.index];
  check(call.lib,
        call.lib.gemm_ex(call.h, trans_op(trans_a), trans_op(trans_b), as_int(m, "m"), as_int(n, "n"),
                         as_int(std::max<std::int64_t>(k, 0), "k"), al, a, dt, as_int(lda, "lda"), b, dt,
                         as_int(ldb, "ldb"), be, c, dt, as_int(ldc, "ldc"), ct, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

void cublas_geam(dtype t, int device, int trans_a, int trans_b, std::int64_t m, std::int64_t n,
                 std::complex<double> alpha, const void* a, std::int64_t lda, std::complex<double> beta, const void* b,
                 std::int64_t ldb, void* c, std::int64_t ldc, const cublas_workspace& ws) {
  if (m == 0 || n == 0) return;
  typed_call call(t, device, "cublas_geam", &ws);
  alignas(16) unsigned char al[16] = {}, be[16] = {};
  put_scalar(t, alpha, al);
  put_scalar(t, beta, be);
  check(call.lib,
        call.lib.geam[call.index](call.h, trans_op(trans_a), trans_op(trans_b), as_int(m, "m"), as_int(n, "n"), al, a,
                                  as_int(lda, "lda"), be, b, as_int(ldb, "ldb"), c, as_int(ldc, "ldc")),
        "cublas<t>geam");
}

std::size_t cublas_workspace_bytes(int device) { return workspace_bytes(device); }

std::uintptr_t cublas_handle(int device) {
  const cublas_api& a = api();
  cudaStream_t stream = enter_device(device);
  cublasHandle_t h = handle_for(a, device);
  check(a, a.set_stream(h, stream), "cublasSetStream");
  return reinterpret_cast<std::uintptr_t>(h);
}

}  // namespace cuarray::detail

namespace cuarray {
std::uintptr_t cublas_handle(int device) { return detail::cublas_handle(device); }
}  // namespace cuarray
