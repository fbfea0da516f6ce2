// The one table of status-code names of the CUDA runtime, the driver and every run-time loaded library.
#pragma once

#include <string>

namespace cuarray::detail {

// Note [status names]: every error path names a failed status by its enumerator, from this one table, so that a
// message reads the same whichever library or file raised it and can be searched for in NVIDIA's documentation;
// the runtime and the driver already name their codes themselves (cudaGetErrorName, cuGetErrorName), and the
// table asks them. A library's own description (cublasGetStatusString...) may follow the name.

/// Whose status code a number is.
enum class status_source { runtime, driver, nvrtc, cublas, cusolver, cufft, cusparse, nccl };

/// The enumerator's name of `status` (e.g. "CUBLAS_STATUS_NOT_INITIALIZED", "cudaErrorInvalidValue",
/// "CUDA_ERROR_NOT_FOUND"), or null when `source` has no such code. The runtime's and the driver's names come
/// from cudaGetErrorName and cuGetErrorName (the driver must be loaded: a driver status exists only then).
const char* status_name(status_source source, int status);

/// status_name, or the library's own words for a code the table does not know: "cuSOLVER error",
/// "unknown cuFFT error", "cuBLAS status 42", ...
std::string status_text(status_source source, int status);

/// The runtime's description of `status` (cudaGetErrorString), e.g. "invalid argument".
const char* runtime_status_string(int status);

/// "cudaErrorInvalidValue: invalid argument": the runtime's name and description, as every CUDA error reads.
std::string runtime_status_message(int status);

}  // namespace cuarray::detail
