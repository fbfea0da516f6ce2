// libcuarray's CUDA runtime as a table of its functions: the Python extension calls the runtime only through
// it, so that the process holds one runtime (Note [one cuda runtime]).
#pragma once

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

// Note [one cuda runtime]: libcuarray links the static CUDA runtime, whose symbols are hidden, so a second
// library linking it too gets a second runtime with its own state: its own last error, its own idea of the
// current device, its own registered kernels. The extension therefore links no runtime of its own and calls
// libcuarray's through this table; a new runtime call in python/src needs its name added here (a direct call
// would leave an undefined symbol and the import would fail; tools/check_one_runtime.sh checks both). The members keep
// the runtime's names, so that a call reads `detail::cudart().cudaMalloc(&p, n)`.
// clang-format off
#define CUARRAY_RUNTIME_FUNCTIONS(X) \
  X(cudaCreateSurfaceObject) \
  X(cudaCreateTextureObject) \
  X(cudaDestroySurfaceObject) \
  X(cudaDestroyTextureObject) \
  X(cudaDeviceCanAccessPeer) \
  X(cudaDeviceDisablePeerAccess) \
  X(cudaDeviceEnablePeerAccess) \
  X(cudaDeviceGetByPCIBusId) \
  X(cudaDeviceGetDefaultMemPool) \
  X(cudaDeviceGetLimit) \
  X(cudaDeviceGetMemPool) \
  X(cudaDeviceGetPCIBusId) \
  X(cudaDeviceSetLimit) \
  X(cudaDeviceSetMemPool) \
  X(cudaEventCreate) \
  X(cudaEventCreateWithFlags) \
  X(cudaEventDestroy) \
  X(cudaEventElapsedTime) \
  X(cudaEventQuery) \
  X(cudaEventRecord) \
  X(cudaEventSynchronize) \
  X(cudaFree) \
  X(cudaFreeArray) \
  X(cudaFreeAsync) \
  X(cudaFreeHost) \
  X(cudaGetDeviceCount) \
  X(cudaGetDeviceProperties) \
  X(cudaGetDriverEntryPointByVersion) \
  X(cudaGetLastError) \
  X(cudaGraphDebugDotPrint) \
  X(cudaGraphDestroy) \
  X(cudaGraphExecDestroy) \
  X(cudaGraphInstantiate) \
  X(cudaGraphLaunch) \
  X(cudaGraphUpload) \
  X(cudaHostAlloc) \
  X(cudaHostRegister) \
  X(cudaHostUnregister) \
  X(cudaIpcCloseMemHandle) \
  X(cudaIpcGetEventHandle) \
  X(cudaIpcGetMemHandle) \
  X(cudaIpcOpenEventHandle) \
  X(cudaIpcOpenMemHandle) \
  X(cudaLaunchHostFunc) \
  X(cudaMalloc) \
  X(cudaMalloc3DArray) \
  X(cudaMallocAsync) \
  X(cudaMallocFromPoolAsync) \
  X(cudaMallocManaged) \
  X(cudaMemAdvise) \
  X(cudaMemGetInfo) \
  X(cudaMemPoolGetAttribute) \
  X(cudaMemPoolSetAttribute) \
  X(cudaMemPoolTrimTo) \
  X(cudaMemPrefetchAsync) \
  X(cudaMemcpy) \
  X(cudaMemcpy2D) \
  X(cudaMemcpy2DAsync) \
  X(cudaMemcpy3DAsync) \
  X(cudaMemcpyAsync) \
  X(cudaMemcpyPeer) \
  X(cudaMemcpyPeerAsync) \
  X(cudaMemset) \
  X(cudaMemsetAsync) \
  X(cudaPointerGetAttributes) \
  X(cudaProfilerStart) \
  X(cudaProfilerStop) \
  X(cudaStreamAddCallback) \
  X(cudaStreamBeginCapture) \
  X(cudaStreamCreate) \
  X(cudaStreamCreateWithFlags) \
  X(cudaStreamCreateWithPriority) \
  X(cudaStreamDestroy) \
  X(cudaStreamEndCapture) \
  X(cudaStreamGetFlags) \
  X(cudaStreamGetPriority) \
  X(cudaStreamIsCapturing) \
  X(cudaStreamQuery) \
  X(cudaStreamSynchronize) \
  X(cudaStreamWaitEvent)
// clang-format on

namespace cuarray::detail {

/// The CUDA runtime functions of libcuarray's runtime, one member per function, named as the function.
struct runtime_table {
#define CUARRAY_RUNTIME_MEMBER(fn) decltype(&::fn) fn;
  CUARRAY_RUNTIME_FUNCTIONS(CUARRAY_RUNTIME_MEMBER)
#undef CUARRAY_RUNTIME_MEMBER
};

/// libcuarray's runtime (Note [one cuda runtime]).
const runtime_table& cudart();

}  // namespace cuarray::detail
