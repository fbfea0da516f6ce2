// Turning CUDA runtime status codes into cuarray::cuda_error exceptions.
#pragma once

#include <cuda_runtime_api.h>

namespace cuarray::detail {

/// Throws cuda_error (no_device_error for a missing driver or device) describing `status`.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call);

}  // namespace cuarray::detail

#define CUARRAY_CUDA_CHECK(expr)                                                                                       \
  do {                                                                                                                 \
    cudaError_t cuarray_status_ = (expr);                                                                              \
    if (cuarray_status_ != cudaSuccess) ::cuarray::detail::throw_cuda_error(cuarray_status_, #expr);                   \
  } while (0)
