// The few CUDA driver functions run-time kernels need, obtained through the runtime's entry-point query
// (no link against libcuda, so the library still loads without a driver).
#pragma once

#include <cuda.h>

#include <string>

namespace cuarray::jit {

struct driver_api {
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**);
  CUresult (*cuLaunchCooperativeKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, CUstream, void**);
  CUresult (*cuFuncGetAttribute)(int*, CUfunction_attribute, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int);
  CUresult (*cuGetErrorName)(CUresult, const char**);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  /// nullptr where the driver lacks it (before CUDA 12.0): launches then go through cuLaunchKernel.
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig*, CUfunction, void**, void**);
  /// The driver's CUDA version (12030 for 12.3), read once with the table.
  int driver_version;
};

/// The driver functions (resolved once); throws no_device_error without a driver.
const driver_api& driver();

/// Diagnostics only (tools/diag): while on, cuLaunchKernel and cuLaunchKernelEx are no-ops that report success,
/// so that a loop of calls measures the host's own cost of a call without the driver's (kernels do not run;
/// results are garbage). Not thread-safe against concurrent launches.
void set_dry_launches(bool on);

/// Throws cuda_error for a failed driver call, naming the call.
void check(CUresult r, const char* call);

}  // namespace cuarray::jit
