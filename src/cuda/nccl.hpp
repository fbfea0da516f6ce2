// NCCL (multi-GPU collectives) loaded with dlopen on first use: its function table, version and path.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "src/cuda/library.hpp"

namespace cuarray::detail::nccl {

// nccl.h is not included: NCCL is not part of the CUDA toolkit and need not be installed to build cuarray. The
// handles are opaque pointers, the enums int-sized, and the unique id NCCL_UNIQUE_ID_BYTES (128) bytes passed
// by value, as nccl.h declares them.
using result = int;     ///< ncclResult_t
using comm = void*;     ///< ncclComm_t
using data_type = int;  ///< ncclDataType_t
using red_op = int;     ///< ncclRedOp_t
struct unique_id {
  char internal[128];
};
constexpr result success = 0;

/// The NCCL functions cuarray calls, resolved from the loaded library.
struct api {
  result (*get_version)(int*) = nullptr;
  result (*get_unique_id)(unique_id*) = nullptr;
  result (*comm_init_rank)(comm*, int, unique_id, int) = nullptr;
  result (*comm_init_all)(comm*, int, const int*) = nullptr;
  result (*comm_destroy)(comm) = nullptr;
  result (*comm_abort)(comm) = nullptr;
  result (*comm_get_async_error)(comm, result*) = nullptr;
  result (*comm_count)(comm, int*) = nullptr;
  result (*comm_cu_device)(comm, int*) = nullptr;
  result (*comm_user_rank)(comm, int*) = nullptr;
  result (*all_reduce)(const void*, void*, std::size_t, data_type, red_op, comm, cudaStream_t) = nullptr;
  result (*reduce)(const void*, void*, std::size_t, data_type, red_op, int, comm, cudaStream_t) = nullptr;
  result (*broadcast)(const void*, void*, std::size_t, data_type, int, comm, cudaStream_t) = nullptr;
  result (*all_gather)(const void*, void*, std::size_t, data_type, comm, cudaStream_t) = nullptr;
  result (*reduce_scatter)(const void*, void*, std::size_t, data_type, red_op, comm, cudaStream_t) = nullptr;
  result (*send)(const void*, std::size_t, data_type, int, comm, cudaStream_t) = nullptr;
  result (*recv)(void*, std::size_t, data_type, int, comm, cudaStream_t) = nullptr;
  result (*group_start)() = nullptr;
  result (*group_end)() = nullptr;
  const char* (*get_error_string)(result) = nullptr;
};

/// Where NCCL is searched for: libnccl.so.2 in the nvidia-nccl-cu12/cu13 wheels (nvidia/nccl/lib), then the
/// system's places (Note [cuda library search order]); CUARRAY_NCCL_PATH overrides.
const library_spec& library();

/// One search for NCCL, uncached (tests; get() keeps the first answer): `fns` gets the functions, or nulls.
cuda_library load(api& fns);

/// The loaded NCCL (loaded once); throws cuda_error (status -1) naming every place searched when it cannot
/// be found. Needs no GPU.
const api& get();

/// NCCL's version as ncclGetVersion reports it (e.g. 22703 for 2.27.3); loads the library.
int version();

/// Path of the loaded libnccl; loads the library.
std::string path();

/// Throws cuda_error (status -1) for a failed NCCL call: "ncclInvalidArgument: <NCCL's words> (in call)".
void check(result r, const char* call);

}  // namespace cuarray::detail::nccl
