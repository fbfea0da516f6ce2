// cuSOLVER (dense) loaded with dlopen on first use, and a pool of its handles per device.
#pragma once

#include <cusolverDn.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuarray/dtype.hpp"

namespace cuarray::detail::cusolver {

// Note [cusolver typed routines]: the legacy S/D/C/Z routines differ only in the pointee types of their
// pointer parameters, which share one ABI; each family is held as one pointer type over void* and picked by
// dtype (index 0..3 = float32, float64, complex64, complex128), so that one code path serves all four.
using st = cusolverStatus_t;
using dn = cusolverDnHandle_t;

struct api {
  st (*create)(dn*);
  st (*set_stream)(dn, cudaStream_t);
  st (*create_params)(cusolverDnParams_t*);

  // 64-bit generic API (every dtype through cudaDataType).
  st (*xpotrf_buffer)(dn, cusolverDnParams_t, cublasFillMode_t, int64_t, cudaDataType, const void*, int64_t,
                      cudaDataType, size_t*, size_t*);
  st (*xpotrf)(dn, cusolverDnParams_t, cublasFillMode_t, int64_t, cudaDataType, void*, int64_t, cudaDataType, void*,
               size_t, void*, size_t, int*);
  st (*xgetrf_buffer)(dn, cusolverDnParams_t, int64_t, int64_t, cudaDataType, const void*, int64_t, cudaDataType,
                      size_t*, size_t*);
  st (*xgetrf)(dn, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void*, int64_t, int64_t*, cudaDataType, void*,
               size_t, void*, size_t, int*);
  st (*xgetrs)(dn, cusolverDnParams_t, cublasOperation_t, int64_t, int64_t, cudaDataType, const void*, int64_t,
               const int64_t*, cudaDataType, void*, int64_t, int*);
  st (*xpotrs)(dn, cusolverDnParams_t, cublasFillMode_t, int64_t, int64_t, cudaDataType, const void*, int64_t,
               cudaDataType, void*, int64_t, int*);
  st (*xgeqrf_buffer)(dn, cusolverDnParams_t, int64_t, int64_t, cudaDataType, const void*, int64_t, cudaDataType,
                      const void*, cudaDataType, size_t*, size_t*);
  st (*xgeqrf)(dn, cusolverDnParams_t, int64_t, int64_t, cudaDataType, void*, int64_t, cudaDataType, void*,
               cudaDataType, void*, size_t, void*, size_t, int*);
  st (*xsyevd_buffer)(dn, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t, cudaDataType, const void*,
                      int64_t, cudaDataType, const void*, cudaDataType, size_t*, size_t*);
  st (*xsyevd)(dn, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t, cudaDataType, void*, int64_t,
               cudaDataType, void*, cudaDataType, void*, size_t, void*, size_t, int*);
  st (*xgesvd_buffer)(dn, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, cudaDataType, const void*,
                      int64_t, cudaDataType, const void*, cudaDataType, const void*, int64_t, cudaDataType, const void*,
                      int64_t, cudaDataType, size_t*, size_t*);
  st (*xgesvd)(dn, cusolverDnParams_t, signed char, signed char, int64_t, int64_t, cudaDataType, void*, int64_t,
               cudaDataType, void*, cudaDataType, void*, int64_t, cudaDataType, void*, int64_t, cudaDataType, void*,
               size_t, void*, size_t, int*);
  st (*xgesvdp_buffer)(dn, cusolverDnParams_t, cusolverEigMode_t, int, int64_t, int64_t, cudaDataType, const void*,
                       int64_t, cudaDataType, const void*, cudaDataType, const void*, int64_t, cudaDataType,
                       const void*, int64_t, cudaDataType, size_t*, size_t*);
  st (*xgesvdp)(dn, cusolverDnParams_t, cusolverEigMode_t, int, int64_t, int64_t, cudaDataType, void*, int64_t,
                cudaDataType, void*, cudaDataType, void*, int64_t, cudaDataType, void*, int64_t, cudaDataType, void*,
                size_t, void*, size_t, int*, double*);
  // Optional: CUDA >= 12.6 (cuSOLVER 11.7); null when missing.
  st (*xgeev_buffer)(dn, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t, cudaDataType, const void*,
                     int64_t, cudaDataType, const void*, cudaDataType, const void*, int64_t, cudaDataType, const void*,
                     int64_t, cudaDataType, size_t*, size_t*);
  st (*xgeev)(dn, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t, cudaDataType, void*, int64_t,
              cudaDataType, void*, cudaDataType, void*, int64_t, cudaDataType, void*, int64_t, cudaDataType, void*,
              size_t, void*, size_t, int*);

  // Legacy typed routines, Note [cusolver typed routines]; lwork counts elements, not bytes.
  st (*orgqr_buffer[4])(dn, int, int, int, const void*, int, const void*, int*);
  st (*orgqr[4])(dn, int, int, int, void*, int, const void*, void*, int, int*);
  st (*potrf_batched[4])(dn, cublasFillMode_t, int, void**, int, int*, int);
  st (*syevj_batched_buffer[4])(dn, cusolverEigMode_t, cublasFillMode_t, int, const void*, int, const void*, int*,
                                syevjInfo_t, int);
  st (*syevj_batched[4])(dn, cusolverEigMode_t, cublasFillMode_t, int, void*, int, void*, void*, int, int*, syevjInfo_t,
                         int);
  st (*gesvdj_batched_buffer[4])(dn, cusolverEigMode_t, int, int, const void*, int, const void*, const void*, int,
                                 const void*, int, int*, gesvdjInfo_t, int);
  st (*gesvdj_batched[4])(dn, cusolverEigMode_t, int, int, void*, int, void*, void*, int, void*, int, void*, int, int*,
                          gesvdjInfo_t, int);
  st (*create_syevj_info)(syevjInfo_t*);
  st (*syevj_set_sort)(syevjInfo_t, int);
  st (*create_gesvdj_info)(gesvdjInfo_t*);
  st (*gesvdj_set_sort)(gesvdjInfo_t, int);
};

/// The loaded library (loaded once; cuda_error naming what was searched when it cannot be loaded).
const api& get();

/// Throw cuda_error naming `what` unless `status` is CUSOLVER_STATUS_SUCCESS.
void check(cusolverStatus_t status, const char* what);

/// 0..3 for float32, float64, complex64, complex128 (Note [cusolver typed routines]).
int type_index(dtype t);
/// CUDA_R_32F, CUDA_R_64F, CUDA_C_32F or CUDA_C_64F.
cudaDataType data_type(dtype t);

/// The calling thread's own cuSOLVER dense handle of `device` (made on first use, never lent to cuarray's calls),
/// pointed at the device's current stream, as an integer: CuPy's Device.cusolver_handle.
std::uintptr_t device_handle(int device);

/// A cuSOLVER handle (with its params object and Jacobi settings) lent for one call on `device`'s current
/// stream: Note [cusolver handles].
class handle {
public:
  explicit handle(int device);
  ~handle();
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;

  cusolverDnHandle_t get() const { return entry_->h; }
  cusolverDnParams_t params() const { return entry_->params; }
  syevjInfo_t syevj() const { return entry_->syevj; }
  gesvdjInfo_t gesvdj() const { return entry_->gesvdj; }
  cudaStream_t stream() const { return stream_; }

  struct entry {
    cusolverDnHandle_t h = nullptr;
    cusolverDnParams_t params = nullptr;
    syevjInfo_t syevj = nullptr;
    gesvdjInfo_t gesvdj = nullptr;
  };

private:
  int device_;
  cudaStream_t stream_;
  entry* entry_;
};

}  // namespace cuarray::detail::cusolver
