// Status-code names of the CUDA runtime, the driver, NVRTC, cuBLAS, cuSOLVER, cuFFT, cuSPARSE and NCCL.
#include "src/cuda/status.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <span>

#include "src/cuda/driver.hpp"

namespace cuarray::detail {

namespace {

struct named {
  int code;
  const char* name;
};

// By value rather than by the libraries' enumerators: the headers of CUDA 12 and 13 differ (cuFFT 12 dropped
// CUFFT_PARSE_ERROR and added CUFFT_NVRTC_FAILURE), while the codes, once given, never change meaning, and
// NCCL's and NVRTC's headers need not be installed to build cuarray.
constexpr named nvrtc_names[] = {
    {0, "NVRTC_SUCCESS"},
    {1, "NVRTC_ERROR_OUT_OF_MEMORY"},
    {2, "NVRTC_ERROR_PROGRAM_CREATION_FAILURE"},
    {3, "NVRTC_ERROR_INVALID_INPUT"},
    {4, "NVRTC_ERROR_INVALID_PROGRAM"},
    {5, "NVRTC_ERROR_INVALID_OPTION"},
    {6, "NVRTC_ERROR_COMPILATION"},
    {7, "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"},
    {8, "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION"},
    {9, "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
    {10, "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID"},
    {11, "NVRTC_ERROR_INTERNAL_ERROR"},
    {12, "NVRTC_ERROR_TIME_FILE_WRITE_FAILED"},
    {13, "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED"},
    {14, "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED"},
    {15, "NVRTC_ERROR_PCH_CREATE"},
    {16, "NVRTC_ERROR_CANCELLED"},
    {17, "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED"},
};

constexpr named cublas_names[] = {
    {0, "CUBLAS_STATUS_SUCCESS"},           {1, "CUBLAS_STATUS_NOT_INITIALIZED"}, {3, "CUBLAS_STATUS_ALLOC_FAILED"},
    {7, "CUBLAS_STATUS_INVALID_VALUE"},     {8, "CUBLAS_STATUS_ARCH_MISMATCH"},   {11, "CUBLAS_STATUS_MAPPING_ERROR"},
    {13, "CUBLAS_STATUS_EXECUTION_FAILED"}, {14, "CUBLAS_STATUS_INTERNAL_ERROR"}, {15, "CUBLAS_STATUS_NOT_SUPPORTED"},
    {16, "CUBLAS_STATUS_LICENSE_ERROR"},
};

constexpr named cusolver_names[] = {
    {0, "CUSOLVER_STATUS_SUCCESS"},
    {1, "CUSOLVER_STATUS_NOT_INITIALIZED"},
    {2, "CUSOLVER_STATUS_ALLOC_FAILED"},
    {3, "CUSOLVER_STATUS_INVALID_VALUE"},
    {4, "CUSOLVER_STATUS_ARCH_MISMATCH"},
    {5, "CUSOLVER_STATUS_MAPPING_ERROR"},
    {6, "CUSOLVER_STATUS_EXECUTION_FAILED"},
    {7, "CUSOLVER_STATUS_INTERNAL_ERROR"},
    {8, "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
    {9, "CUSOLVER_STATUS_NOT_SUPPORTED"},
    {10, "CUSOLVER_STATUS_ZERO_PIVOT"},
    {11, "CUSOLVER_STATUS_INVALID_LICENSE"},
    {12, "CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED"},
    {13, "CUSOLVER_STATUS_IRS_PARAMS_INVALID"},
    {14, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC"},
    {15, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE"},
    {16, "CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER"},
    {20, "CUSOLVER_STATUS_IRS_INTERNAL_ERROR"},
    {21, "CUSOLVER_STATUS_IRS_NOT_SUPPORTED"},
    {22, "CUSOLVER_STATUS_IRS_OUT_OF_RANGE"},
    {23, "CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES"},
    {25, "CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED"},
    {26, "CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED"},
    {30, "CUSOLVER_STATUS_IRS_MATRIX_SINGULAR"},
    {31, "CUSOLVER_STATUS_INVALID_WORKSPACE"},
};

constexpr named cufft_names[] = {
    {0x0, "CUFFT_SUCCESS"},
    {0x1, "CUFFT_INVALID_PLAN"},
    {0x2, "CUFFT_ALLOC_FAILED"},
    {0x3, "CUFFT_INVALID_TYPE"},
    {0x4, "CUFFT_INVALID_VALUE"},
    {0x5, "CUFFT_INTERNAL_ERROR"},
    {0x6, "CUFFT_EXEC_FAILED"},
    {0x7, "CUFFT_SETUP_FAILED"},
    {0x8, "CUFFT_INVALID_SIZE"},
    {0x9, "CUFFT_UNALIGNED_DATA"},
    {0xA, "CUFFT_INCOMPLETE_PARAMETER_LIST"},  // cuFFT 11 (CUDA 12) only
    {0xB, "CUFFT_INVALID_DEVICE"},
    {0xC, "CUFFT_PARSE_ERROR"},  // cuFFT 11 only
    {0xD, "CUFFT_NO_WORKSPACE"},
    {0xE, "CUFFT_NOT_IMPLEMENTED"},
    {0xF, "CUFFT_LICENSE_ERROR"},  // cuFFT 11 only
    {0x10, "CUFFT_NOT_SUPPORTED"},
    {0x11, "CUFFT_MISSING_DEPENDENCY"},  // cuFFT 12 (CUDA 13) on
    {0x12, "CUFFT_NVRTC_FAILURE"},
    {0x13, "CUFFT_NVJITLINK_FAILURE"},
    {0x14, "CUFFT_NVSHMEM_FAILURE"},
};

constexpr named cusparse_names[] = {
    {0, "CUSPARSE_STATUS_SUCCESS"},
    {1, "CUSPARSE_STATUS_NOT_INITIALIZED"},
    {2, "CUSPARSE_STATUS_ALLOC_FAILED"},
    {3, "CUSPARSE_STATUS_INVALID_VALUE"},
    {4, "CUSPARSE_STATUS_ARCH_MISMATCH"},
    {5, "CUSPARSE_STATUS_MAPPING_ERROR"},
    {6, "CUSPARSE_STATUS_EXECUTION_FAILED"},
    {7, "CUSPARSE_STATUS_INTERNAL_ERROR"},
    {8, "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED"},
    {9, "CUSPARSE_STATUS_ZERO_PIVOT"},
    {10, "CUSPARSE_STATUS_NOT_SUPPORTED"},
    {11, "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES"},
};

constexpr named nccl_names[] = {
    {0, "ncclSuccess"},         {1, "ncclUnhandledCudaError"}, {2, "ncclSystemError"}, {3, "ncclInternalError"},
    {4, "ncclInvalidArgument"}, {5, "ncclInvalidUsage"},       {6, "ncclRemoteError"}, {7, "ncclInProgress"},
};

const char* find(std::span<const named> table, int code) {
  for (const named& n : table) {
    if (n.code == code) return n.name;
  }
  return nullptr;
}

}  // namespace

const char* status_name(status_source source, int status) {
  switch (source) {
    case status_source::runtime: {
      // The runtime answers every code, known or not ("cudaErrorUnknown" is a real code): ask it.
      return cudaGetErrorName(static_cast<cudaError_t>(status));
    }
    case status_source::driver: {
      const char* name = nullptr;
      if (jit::driver().cuGetErrorName(static_cast<CUresult>(status), &name) != CUDA_SUCCESS) return nullptr;
      return name;
    }
    case status_source::nvrtc: return find(nvrtc_names, status);
    case status_source::cublas: return find(cublas_names, status);
    case status_source::cusolver: return find(cusolver_names, status);
    case status_source::cufft: return find(cufft_names, status);
    case status_source::cusparse: return find(cusparse_names, status);
    case status_source::nccl: return find(nccl_names, status);
  }
  return nullptr;
}

std::string status_text(status_source source, int status) {
  if (const char* name = status_name(source, status)) return name;
  switch (source) {
    case status_source::runtime: return "cudaError " + std::to_string(status);
    case status_source::driver: return "CUDA_ERROR";
    case status_source::nvrtc: return "NVRTC error " + std::to_string(status);
    case status_source::cublas: return "cuBLAS status " + std::to_string(status);
    case status_source::cusolver: return "cuSOLVER error";
    case status_source::cufft: return "unknown cuFFT error";
    case status_source::cusparse: return "cuSPARSE status " + std::to_string(status);
    case status_source::nccl: return "NCCL error " + std::to_string(status);
  }
  return "status " + std::to_string(status);
}

const char* runtime_status_string(int status) { return cudaGetErrorString(static_cast<cudaError_t>(status)); }

std::string runtime_status_message(int status) {
  return std::string(status_text(status_source::runtime, status)) + ": " + runtime_status_string(status);
}

}  // namespace cuarray::detail
