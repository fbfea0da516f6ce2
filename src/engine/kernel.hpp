// Loading compiled code on a device and launching kernels from it.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/engine/compile.hpp"

namespace cuarray::jit {

/// `name` from `code`, loaded on `device` (which must be active); modules stay loaded for the process.
CUfunction get_function(const std::shared_ptr<const compile_result>& code, const std::string& name, int device);

/// Compute capability of a device as 80, 90, ... (cached).
int device_arch(int device);

/// Number of multiprocessors of a device (cached).
int device_sm_count(int device);

/// Bytes of a device's L2 cache (cached).
std::int64_t device_l2_bytes(int device);

/// cuLaunchKernel with an error check.
void launch(CUfunction f, unsigned grid, unsigned block, unsigned shared_mem, CUstream stream, void** args);
/// Whether kernels that begin with griddepcontrol.wait go out with programmatic dependent launch on `device`
/// now (Note [programmatic dependent launch] in kernel.cpp).
bool dependent_launch_enabled(int device);
/// launch() allowing the kernel to begin before its predecessor in the stream has ended (programmatic stream
/// serialisation): only for kernels that run griddepcontrol.wait before any global memory access. Falls back to
/// launch() where the driver lacks cuLaunchKernelEx.
void launch_dependent(CUfunction f, unsigned grid, unsigned block, unsigned shared_mem, CUstream stream, void** args);
/// The same with a two-dimensional grid.
void launch_2d(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned block, unsigned shared_mem, CUstream stream,
               void** args);

}  // namespace cuarray::jit
