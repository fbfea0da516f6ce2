// cuSPARSE loaded on first use (src/cuda/library.hpp), its per-thread handles, and the generic-API products
// and conversions of cuarray/sparse.hpp.
#include <cusparse.h>  // types and enums only: every call goes through the pointers below

#include <climits>
#include <mutex>
#include <string>
#include <vector>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/sparse.hpp"
#include "src/core/internal.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::sparse {

namespace {

using detail::library_symbol;
using st = cusparseStatus_t;
using hd = cusparseHandle_t;

struct cusparse_api {
  void* handle = nullptr;
  std::string path, load_error;

  st (*create)(hd*) = nullptr;
  st (*set_stream)(hd, cudaStream_t) = nullptr;
  st (*create_csr)(cusparseSpMatDescr_t*, int64_t, int64_t, int64_t, void*, void*, void*, cusparseIndexType_t,
                   cusparseIndexType_t, cusparseIndexBase_t, cudaDataType) = nullptr;
  st (*destroy_sp)(cusparseConstSpMatDescr_t) = nullptr;
  st (*create_dnvec)(cusparseDnVecDescr_t*, int64_t, void*, cudaDataType) = nullptr;
  st (*destroy_dnvec)(cusparseConstDnVecDescr_t) = nullptr;
  st (*create_dnmat)(cusparseDnMatDescr_t*, int64_t, int64_t, int64_t, void*, cudaDataType, cusparseOrder_t) = nullptr;
  st (*destroy_dnmat)(cusparseConstDnMatDescr_t) = nullptr;
  st (*spmv_buffer)(hd, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t,
                    const void*, cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t, size_t*) = nullptr;
  st (*spmv)(hd, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t, cusparseConstDnVecDescr_t, const void*,
             cusparseDnVecDescr_t, cudaDataType, cusparseSpMVAlg_t, void*) = nullptr;
  st (*spmm_buffer)(hd, cusparseOperation_t, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t,
                    cusparseConstDnMatDescr_t, const void*, cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t,
                    size_t*) = nullptr;
  st (*spmm)(hd, cusparseOperation_t, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t,
             cusparseConstDnMatDescr_t, const void*, cusparseDnMatDescr_t, cudaDataType, cusparseSpMMAlg_t,
             void*) = nullptr;
  st (*spgemm_create)(cusparseSpGEMMDescr_t*) = nullptr;
  st (*spgemm_destroy)(cusparseSpGEMMDescr_t) = nullptr;
  st (*spgemm_work)(hd, cusparseOperation_t, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t,
                    cusparseConstSpMatDescr_t, const void*, cusparseSpMatDescr_t, cudaDataType, cusparseSpGEMMAlg_t,
                    cusparseSpGEMMDescr_t, size_t*, void*) = nullptr;
  st (*spgemm_compute)(hd, cusparseOperation_t, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t,
                       cusparseConstSpMatDescr_t, const void*, cusparseSpMatDescr_t, cudaDataType, cusparseSpGEMMAlg_t,
                       cusparseSpGEMMDescr_t, size_t*, void*) = nullptr;
  st (*spgemm_copy)(hd, cusparseOperation_t, cusparseOperation_t, const void*, cusparseConstSpMatDescr_t,
                    cusparseConstSpMatDescr_t, const void*, cusparseSpMatDescr_t, cudaDataType, cusparseSpGEMMAlg_t,
                    cusparseSpGEMMDescr_t) = nullptr;
  st (*sp_get_size)(cusparseConstSpMatDescr_t, int64_t*, int64_t*, int64_t*) = nullptr;
  st (*csr_set_pointers)(cusparseSpMatDescr_t, void*, void*, void*) = nullptr;
  st (*csr2csc_buffer)(hd, int, int, int, const void*, const int*, const int*, void*, int*, int*, cudaDataType,
                       cusparseAction_t, cusparseIndexBase_t, cusparseCsr2CscAlg_t, size_t*) = nullptr;
  st (*csr2csc)(hd, int, int, int, const void*, const int*, const int*, void*, int*, int*, cudaDataType,
                cusparseAction_t, cusparseIndexBase_t, cusparseCsr2CscAlg_t, void*) = nullptr;
  // Optional: only for messages.
  const char* (*error_string)(st) = nullptr;
};

const detail::library_spec cusparse_library{"cuSPARSE (libcusparse)",
                                            "nvidia-cusparse-cu12",
                                            {"libcusparse.so.12", "libcusparse.so.11", "libcusparse.so"},
                                            "CUARRAY_CUSPARSE_PATH"};

std::vector<library_symbol> cusparse_symbols(cusparse_api& a) {
  return {
      {"cusparseCreate", a.create},
      {"cusparseSetStream", a.set_stream},
      {"cusparseCreateCsr", a.create_csr},
      {"cusparseDestroySpMat", a.destroy_sp},
      {"cusparseCreateDnVec", a.create_dnvec},
      {"cusparseDestroyDnVec", a.destroy_dnvec},
      {"cusparseCreateDnMat", a.create_dnmat},
      {"cusparseDestroyDnMat", a.destroy_dnmat},
      {"cusparseSpMV_bufferSize", a.spmv_buffer},
      {"cusparseSpMV", a.spmv},
      {"cusparseSpMM_bufferSize", a.spmm_buffer},
      {"cusparseSpMM", a.spmm},
      {"cusparseSpGEMM_createDescr", a.spgemm_create},
      {"cusparseSpGEMM_destroyDescr", a.spgemm_destroy},
      {"cusparseSpGEMM_workEstimation", a.spgemm_work},
      {"cusparseSpGEMM_compute", a.spgemm_compute},
      {"cusparseSpGEMM_copy", a.spgemm_copy},
      {"cusparseSpMatGetSize", a.sp_get_size},
      {"cusparseCsrSetPointers", a.csr_set_pointers},
      {"cusparseCsr2cscEx2_bufferSize", a.csr2csc_buffer},
      {"cusparseCsr2cscEx2", a.csr2csc},
      {"cusparseGetErrorString", a.error_string, library_symbol::optional},
  };
}

cusparse_api load_cusparse() {
  cusparse_api a;
  detail::cuda_library lib = detail::load_library(cusparse_library, cusparse_symbols(a));
  a.handle = lib.handle;
  a.path = lib.path;
  a.load_error = lib.error;
  return a;
}

const cusparse_api& api() {
  static std::once_flag once;
  static cusparse_api loaded;
  std::call_once(once, [] { loaded = load_cusparse(); });
  if (!loaded.handle) throw cuda_error(-1, loaded.load_error);
  return loaded;
}

void check(const cusparse_api& a, st s, const char* call) {
  if (s == CUSPARSE_STATUS_SUCCESS) return;
  // The status's name (Note [status names]), then cuSPARSE's own description of it when it has one.
  std::string what = detail::status_text(detail::status_source::cusparse, static_cast<int>(s));
  const char* text = a.error_string ? a.error_string(s) : nullptr;
  if (text && what != text) what += std::string(": ") + text;
  throw cuda_error(-1, what + " (in " + call + ")");
}

// Note [cusparse handles]: as Note [cublas handles]: one handle per thread and device, created on first use and
// never destroyed, pointed at the current stream before every call; work areas come from the current allocator
// on that stream for one call, so they return to the pool stream-ordered.
hd handle_for(const cusparse_api& a, int device, cudaStream_t stream) {
  thread_local std::vector<hd> handles;
  if (device >= static_cast<int>(handles.size())) handles.resize(static_cast<std::size_t>(device) + 1, nullptr);
  hd& h = handles[static_cast<std::size_t>(device)];
  if (!h) check(a, a.create(&h), "cusparseCreate");
  check(a, a.set_stream(h, stream), "cusparseSetStream");
  return h;
}

cudaDataType value_type(dtype t) {
  switch (t) {
    case dtype::float32: return CUDA_R_32F;
    case dtype::float64: return CUDA_R_64F;
    case dtype::complex64: return CUDA_C_32F;
    case dtype::complex128: return CUDA_C_64F;
    default: throw type_error("cuSPARSE has no routines for dtype " + std::string(name(t)));
  }
}

/// alpha = 1 and beta = 0 or 1 in the bytes of the compute type (pointer mode host).
struct coefficients {
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};
  coefficients(dtype t, bool beta_one) {
    if (t == dtype::float32 || t == dtype::complex64) {
      *reinterpret_cast<float*>(alpha) = 1.0f;
      if (beta_one) *reinterpret_cast<float*>(beta) = 1.0f;
    } else {
      *reinterpret_cast<double*>(alpha) = 1.0;
      if (beta_one) *reinterpret_cast<double*>(beta) = 1.0;
    }
  }
};

cusparseIndexType_t index_type(const csr_view& a) {
  dtype p = a.indptr.type(), i = a.indices.type();
  if (p != i || (p != dtype::int32 && p != dtype::int64)) {
    throw type_error("sparse index arrays must both be int32 or both int64, not " + std::string(name(p)) + " and " +
                     std::string(name(i)));
  }
  return p == dtype::int32 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
}

std::int64_t validate(const csr_view& a) {
  if (a.indptr.ndim() != 1 || a.indices.ndim() != 1 || a.data.ndim() != 1) {
    throw value_error("sparse index and data arrays must be 1-D");
  }
  if (a.rows < 0 || a.cols < 0) throw value_error("negative sparse matrix shape");
  if (a.indptr.size() != a.rows + 1) {
    throw value_error("indptr has " + std::to_string(a.indptr.size()) + " entries, expected " +
                      std::to_string(a.rows + 1));
  }
  if (a.indices.size() != a.data.size()) throw value_error("indices and data differ in length");
  if (!a.indptr.is_c_contiguous() || !a.indices.is_c_contiguous() || !a.data.is_c_contiguous()) {
    throw value_error("sparse index and data arrays must be contiguous");
  }
  value_type(a.data.type());
  index_type(a);
  return a.data.size();
}

/// The descriptors of one product, destroyed on every path out.
struct descriptors {
  const cusparse_api& a;
  cusparseSpMatDescr_t sp = nullptr, sp2 = nullptr, sp3 = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  cusparseDnMatDescr_t mx = nullptr, my = nullptr;
  cusparseSpGEMMDescr_t gemm = nullptr;
  explicit descriptors(const cusparse_api& api) : a(api) {}
  ~descriptors() {
    if (sp) a.destroy_sp(sp);
    if (sp2) a.destroy_sp(sp2);
    if (sp3) a.destroy_sp(sp3);
    if (vx) a.destroy_dnvec(vx);
    if (vy) a.destroy_dnvec(vy);
    if (mx) a.destroy_dnmat(mx);
    if (my) a.destroy_dnmat(my);
    if (gemm) a.spgemm_destroy(gemm);
  }
};

cusparseSpMatDescr_t make_csr(const cusparse_api& api, const csr_view& m) {
  cusparseSpMatDescr_t d = nullptr;
  cusparseIndexType_t it = index_type(m);
  check(api,
        api.create_csr(&d, m.rows, m.cols, m.data.size(), m.indptr.data(), m.indices.data(), m.data.data(), it, it,
                       CUSPARSE_INDEX_BASE_ZERO, value_type(m.data.type())),
        "cusparseCreateCsr");
  return d;
}

cusparseOperation_t to_op(operation op) {
  switch (op) {
    case operation::none: return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case operation::transpose: return CUSPARSE_OPERATION_TRANSPOSE;
    default: return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  }
}

/// Checks x and out against op(A) and builds the dense descriptors; returns whether it is a matrix product.
bool dense_operands(descriptors& d, const csr_view& a, const array& x, const array& out, operation op) {
  validate(a);
  dtype t = a.data.type();
  if (x.type() != t || out.type() != t) {
    throw type_error("sparse product operands must share the matrix's dtype " + std::string(name(t)));
  }
  std::int64_t m = op == operation::none ? a.rows : a.cols, k = op == operation::none ? a.cols : a.rows;
  if (x.ndim() != out.ndim() || x.ndim() < 1 || x.ndim() > 2) throw value_error("sparse product: bad operand ndim");
  if (!x.is_c_contiguous() || !out.is_c_contiguous()) throw value_error("sparse product operands must be C-contiguous");
  if (x.shape()[0] != k || out.shape()[0] != m || (x.ndim() == 2 && x.shape()[1] != out.shape()[1])) {
    throw value_error("sparse product: operand extents do not match the matrix");
  }
  cudaDataType vt = value_type(t);
  d.sp = make_csr(d.a, a);
  if (x.ndim() == 1) {
    check(d.a, d.a.create_dnvec(&d.vx, k, x.data(), vt), "cusparseCreateDnVec");
    check(d.a, d.a.create_dnvec(&d.vy, m, out.data(), vt), "cusparseCreateDnVec");
    return false;
  }
  std::int64_t n = x.shape()[1], ld = std::max<std::int64_t>(n, 1);
  check(d.a, d.a.create_dnmat(&d.mx, k, n, ld, x.data(), vt, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat");
  check(d.a, d.a.create_dnmat(&d.my, m, n, ld, out.data(), vt, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat");
  return true;
}

array work_area(std::size_t bytes, int device) {
  return detail::new_array(dtype::uint8, shape_t{static_cast<std::int64_t>(bytes)}, order::C, device);
}

int as_int(std::int64_t v, const char* what) {
  if (v > INT_MAX) throw value_error(std::string("too large for cuSPARSE's 32-bit interface: ") + what);
  return static_cast<int>(v);
}

}  // namespace

const char* cusparse_path() { return api().path.c_str(); }

std::size_t spmm_buffer_size(const csr_view& a, const array& x, const array& out, operation op) {
  const cusparse_api& A = api();
  descriptors d(A);
  bool matrix = dense_operands(d, a, x, out, op);
  if (a.data.size() == 0 || x.size() == 0 || out.size() == 0) return 0;
  int device = a.data.device();
  hd h = handle_for(A, device, detail::enter_device(device));
  coefficients c(a.data.type(), false);
  cudaDataType vt = value_type(a.data.type());
  std::size_t bytes = 0;
  if (matrix) {
    check(A,
          A.spmm_buffer(h, to_op(op), CUSPARSE_OPERATION_NON_TRANSPOSE, c.alpha, d.sp, d.mx, c.beta, d.my, vt,
                        CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
          "cusparseSpMM_bufferSize");
  } else {
    check(A, A.spmv_buffer(h, to_op(op), c.alpha, d.sp, d.vx, c.beta, d.vy, vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
          "cusparseSpMV_bufferSize");
  }
  return bytes;
}

void spmm(const csr_view& a, const array& x, array& out, operation op, bool accumulate) {
  const cusparse_api& A = api();
  descriptors d(A);
  bool matrix = dense_operands(d, a, x, out, op);
  if (out.size() == 0) return;
  if (a.data.size() == 0 || x.size() == 0) {
    // cuSPARSE refuses some empty operands; the product is zero.
    if (!accumulate) out.fill(scalar::from_int(0).cast(out.type()));
    return;
  }
  int device = a.data.device();
  hd h = handle_for(A, device, detail::enter_device(device));
  coefficients c(a.data.type(), accumulate);
  cudaDataType vt = value_type(a.data.type());
  std::size_t bytes = 0;
  if (matrix) {
    check(A,
          A.spmm_buffer(h, to_op(op), CUSPARSE_OPERATION_NON_TRANSPOSE, c.alpha, d.sp, d.mx, c.beta, d.my, vt,
                        CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
          "cusparseSpMM_bufferSize");
    array ws = work_area(bytes, device);
    check(A,
          A.spmm(h, to_op(op), CUSPARSE_OPERATION_NON_TRANSPOSE, c.alpha, d.sp, d.mx, c.beta, d.my, vt,
                 CUSPARSE_SPMM_ALG_DEFAULT, bytes ? ws.data() : nullptr),
          "cusparseSpMM");
  } else {
    check(A, A.spmv_buffer(h, to_op(op), c.alpha, d.sp, d.vx, c.beta, d.vy, vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
          "cusparseSpMV_bufferSize");
    array ws = work_area(bytes, device);
    check(A,
          A.spmv(h, to_op(op), c.alpha, d.sp, d.vx, c.beta, d.vy, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                 bytes ? ws.data() : nullptr),
          "cusparseSpMV");
  }
}

csr_arrays spgemm(const csr_view& a, const csr_view& b) {
  validate(a);
  validate(b);
  if (a.cols != b.rows) throw value_error("spgemm: inner dimensions differ");
  dtype t = a.data.type();
  if (b.data.type() != t) throw type_error("spgemm: operands must share one dtype");
  if (a.indptr.type() != dtype::int32 || b.indptr.type() != dtype::int32) {
    throw type_error("spgemm: cuSPARSE SpGEMM takes int32 indices only");
  }
  int device = a.data.device();
  csr_arrays c;
  c.indptr = detail::new_array(dtype::int32, shape_t{a.rows + 1}, order::C, device);
  if (a.data.size() == 0 || b.data.size() == 0 || a.rows == 0 || b.cols == 0) {
    // cuSPARSE rejects empty operands: the product has no stored entries.
    c.indptr.fill(scalar::from_int(0, dtype::int32));
    c.indices = detail::new_array(dtype::int32, shape_t{0}, order::C, device);
    c.data = detail::new_array(t, shape_t{0}, order::C, device);
    return c;
  }
  const cusparse_api& A = api();
  hd h = handle_for(A, device, detail::enter_device(device));
  descriptors d(A);
  d.sp = make_csr(A, a);
  d.sp2 = make_csr(A, b);
  cudaDataType vt = value_type(t);
  check(A,
        A.create_csr(&d.sp3, a.rows, b.cols, 0, c.indptr.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt),
        "cusparseCreateCsr");
  check(A, A.spgemm_create(&d.gemm), "cusparseSpGEMM_createDescr");
  coefficients co(t, false);
  const auto N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  std::size_t size1 = 0, size2 = 0;
  check(A, A.spgemm_work(h, N, N, co.alpha, d.sp, d.sp2, co.beta, d.sp3, vt, alg, d.gemm, &size1, nullptr),
        "cusparseSpGEMM_workEstimation");
  array buf1 = work_area(size1, device);
  check(A, A.spgemm_work(h, N, N, co.alpha, d.sp, d.sp2, co.beta, d.sp3, vt, alg, d.gemm, &size1, buf1.data()),
        "cusparseSpGEMM_workEstimation");
  check(A, A.spgemm_compute(h, N, N, co.alpha, d.sp, d.sp2, co.beta, d.sp3, vt, alg, d.gemm, &size2, nullptr),
        "cusparseSpGEMM_compute");
  array buf2 = work_area(size2, device);
  check(A, A.spgemm_compute(h, N, N, co.alpha, d.sp, d.sp2, co.beta, d.sp3, vt, alg, d.gemm, &size2, buf2.data()),
        "cusparseSpGEMM_compute");
  int64_t rows = 0, cols = 0, nnz = 0;
  check(A, A.sp_get_size(d.sp3, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  as_int(nnz, "the product's number of stored entries");
  c.indices = detail::new_array(dtype::int32, shape_t{nnz}, order::C, device);
  c.data = detail::new_array(t, shape_t{nnz}, order::C, device);
  check(A, A.csr_set_pointers(d.sp3, c.indptr.data(), c.indices.data(), c.data.data()), "cusparseCsrSetPointers");
  check(A, A.spgemm_copy(h, N, N, co.alpha, d.sp, d.sp2, co.beta, d.sp3, vt, alg, d.gemm), "cusparseSpGEMM_copy");
  return c;
}

csr_arrays csr_transpose(const csr_view& a) {
  std::int64_t nnz = validate(a);
  if (a.indptr.type() != dtype::int32) throw type_error("csr_transpose: cuSPARSE Csr2cscEx2 takes int32 indices only");
  int m = as_int(a.rows, "rows"), n = as_int(a.cols, "cols"), innz = as_int(nnz, "nnz");
  int device = a.data.device();
  csr_arrays c;
  c.indptr = detail::new_array(dtype::int32, shape_t{a.cols + 1}, order::C, device);
  c.indices = detail::new_array(dtype::int32, shape_t{nnz}, order::C, device);
  c.data = detail::new_array(a.data.type(), shape_t{nnz}, order::C, device);
  if (nnz == 0 || m == 0 || n == 0) {
    c.indptr.fill(scalar::from_int(0, dtype::int32));
    return c;
  }
  const cusparse_api& A = api();
  hd h = handle_for(A, device, detail::enter_device(device));
  cudaDataType vt = value_type(a.data.type());
  std::size_t bytes = 0;
  const auto* p = static_cast<const int*>(a.indptr.data());
  const auto* i = static_cast<const int*>(a.indices.data());
  check(A,
        A.csr2csc_buffer(h, m, n, innz, a.data.data(), p, i, c.data.data(), static_cast<int*>(c.indptr.data()),
                         static_cast<int*>(c.indices.data()), vt, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                         CUSPARSE_CSR2CSC_ALG1, &bytes),
        "cusparseCsr2cscEx2_bufferSize");
  array ws = work_area(bytes, device);
  check(A,
        A.csr2csc(h, m, n, innz, a.data.data(), p, i, c.data.data(), static_cast<int*>(c.indptr.data()),
                  static_cast<int*>(c.indices.data()), vt, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                  CUSPARSE_CSR2CSC_ALG1, bytes ? ws.data() : nullptr),
        "cusparseCsr2cscEx2");
  return c;
}

/// The calling thread's cuSPARSE handle of `device` (Note [cusparse handles]), pointed at the device's current
/// stream, as an integer: CuPy's Device.cusparse_handle (public as cuarray::cusparse_handle).
std::uintptr_t cusparse_handle(int device) {
  const cusparse_api& a = api();
  return reinterpret_cast<std::uintptr_t>(handle_for(a, device, detail::enter_device(device)));
}

}  // namespace cuarray::sparse

namespace cuarray {
std::uintptr_t cusparse_handle(int device) { return sparse::cusparse_handle(device); }
}  // namespace cuarray
