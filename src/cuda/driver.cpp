// The CUDA driver functions for run-time kernels, resolved through cudaGetDriverEntryPointByVersion.
#include "src/cuda/driver.hpp"

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
    // A driver without the symbol answers cudaSuccess with a failed query: report it as the missing symbol.
    if (st == cudaSuccess) st = cudaErrorSymbolNotFound;
    throw cuda_error(static_cast<int>(st),
                     std::string(cudaGetErrorName(st)) + ": cannot resolve CUDA driver function " + name);
  }
  fn = reinterpret_cast<F>(p);
}

driver_api g_api{};

CUresult dry_launch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                    void**) {
  return CUDA_SUCCESS;
}

}  // namespace

const driver_api& driver() {
  // Every launch asks for the table: once resolved, one acquire load answers.
  static std::atomic<const driver_api*> ready{nullptr};
  if (const driver_api* p = ready.load(std::memory_order_acquire)) return *p;
  static std::once_flag once;
  driver_api& api = g_api;
  require_device();
  std::call_once(once, [&api] {
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

void set_dry_launches(bool on) {
  driver();
  static const auto real = g_api.cuLaunchKernel;
  g_api.cuLaunchKernel = on ? dry_launch : real;
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
