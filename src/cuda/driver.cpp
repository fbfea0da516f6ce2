// The CUDA driver functions for run-time kernels: a library table (src/cuda/library.hpp) resolved through
// cudaGetDriverEntryPointByVersion instead of dlsym.
#include "src/cuda/driver.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include "cuarray/device.hpp"
#include "cuarray/errors.hpp"
#include "src/cuda/library.hpp"
#include "src/cuda/status.hpp"

namespace cuarray::jit {

namespace {

/// The driver's address of `name` (the runtime's entry-point query: cuarray never links libcuda); throws on the
/// first function the driver lacks, as a driver too old for cuarray is not worth a list.
void* query_entry_point(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
  cudaError_t st = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status);
  if (st != cudaSuccess || status != cudaDriverEntryPointSuccess || !p) {
    (void)cudaGetLastError();
    // A driver without the symbol answers cudaSuccess with a failed query: report it as the missing symbol.
    if (st == cudaSuccess) st = cudaErrorSymbolNotFound;
    throw cuda_error(static_cast<int>(st), detail::status_text(detail::status_source::runtime, st) +
                                               ": cannot resolve CUDA driver function " + name);
  }
  return p;
}

driver_api g_api{};

CUresult dry_launch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,
                    void**) {
  return CUDA_SUCCESS;
}

CUresult dry_launch_ex(const CUlaunchConfig*, CUfunction, void**, void**) { return CUDA_SUCCESS; }

/// The driver's address of `name`, or nullptr where it lacks it (a function cuarray can do without).
void* optional_entry_point(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
  cudaError_t st = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status);
  if (st != cudaSuccess || status != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
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
    const detail::library_symbol table[] = {
        {"cuModuleLoadData", api.cuModuleLoadData},       {"cuModuleUnload", api.cuModuleUnload},
        {"cuModuleGetFunction", api.cuModuleGetFunction}, {"cuModuleGetGlobal", api.cuModuleGetGlobal},
        {"cuLaunchKernel", api.cuLaunchKernel},           {"cuLaunchCooperativeKernel", api.cuLaunchCooperativeKernel},
        {"cuFuncGetAttribute", api.cuFuncGetAttribute},   {"cuFuncSetAttribute", api.cuFuncSetAttribute},
        {"cuGetErrorName", api.cuGetErrorName},           {"cuGetErrorString", api.cuGetErrorString},
    };
    detail::resolve_symbols(table, query_entry_point);
    api.cuLaunchKernelEx = reinterpret_cast<decltype(api.cuLaunchKernelEx)>(optional_entry_point("cuLaunchKernelEx"));
    int version = 0;
    if (cudaDriverGetVersion(&version) != cudaSuccess) {
      (void)cudaGetLastError();
      version = 0;
    }
    api.driver_version = version;
  });
  ready.store(&api, std::memory_order_release);
  return api;
}

void set_dry_launches(bool on) {
  driver();
  static const auto real = g_api.cuLaunchKernel;
  static const auto real_ex = g_api.cuLaunchKernelEx;
  g_api.cuLaunchKernel = on ? dry_launch : real;
  if (real_ex) g_api.cuLaunchKernelEx = on ? dry_launch_ex : real_ex;
}

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* text = nullptr;
  if (driver().cuGetErrorString(r, &text) != CUDA_SUCCESS || !text) text = "";
  throw cuda_error(static_cast<int>(r), detail::status_text(detail::status_source::driver, static_cast<int>(r)) + ": " +
                                            text + " (in " + call + ")");
}

}  // namespace cuarray::jit
