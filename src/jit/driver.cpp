// The CUDA driver functions for run-time kernels, resolved through cudaGetDriverEntryPointByVersion.
#include "src/jit/driver.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::jit {

namespace {

template <class F>
void resolve(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
  cudaError_t st = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status);
  if (st != cudaSuccess || status != cudaDriverEntryPointSuccess || !p) {
    (void)cudaGetLastError();
    throw cuda_error(static_cast<int>(st), std::string("cannot resolve CUDA driver function ") + name);
  }
  fn = reinterpret_cast<F>(p);
}

}  // namespace

const driver_api& driver() {
  // Every launch asks for the table: once resolved, one acquire load answers.
  static std::atomic<const driver_api*> ready{nullptr};
  if (const driver_api* p = ready.load(std::memory_order_acquire)) return *p;
  static driver_api api{};
  static std::once_flag once;
  require_device();
  std::call_once(once, [] {
    resolve("cuModuleLoadData", api.cuModuleLoadData);
    resolve("cuModuleUnload", api.cuModuleUnload);
    resolve("cuModuleGetFunction", api.cuModuleGetFunction);
    resolve("cuModuleGetGlobal", api.cuModuleGetGlobal);
    resolve("cuLaunchKernel", api.cuLaunchKernel);
    resolve("cuLaunchCooperativeKernel", api.cuLaunchCooperativeKernel);
    resolve("cuFuncGetAttribute", api.cuFuncGetAttribute);
    resolve("cuFuncSetAttribute", api.cuFuncSetAttribute);
    resolve("cuGetErrorName", api.cuGetErrorName);
    resolve("cuGetErrorString", api.cuGetErrorString);
  });
  ready.store(&api, std::memory_order_release);
  return api;
}

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = "CUDA_ERROR";
  const char* text = "";
  driver().cuGetErrorName(r, &name);
  driver().cuGetErrorString(r, &text);
  throw cuda_error(static_cast<int>(r), std::string(name) + ": " + text + " (in " + call + ")");
}

}  // namespace cuarray::jit
