// The CUDA layer as the Python bindings see it: run-time loaded libraries, the driver, NVRTC, error checks.
// Only includes; python/src includes this instead of the separate headers of src/cuda.
#pragma once

#include "src/cuda/check.hpp"          // CUARRAY_CUDA_CHECK, throw_cuda_error (runtime status to exception)
#include "src/cuda/driver.hpp"         // jit::driver, set_dry_launches (launch-cost diagnostics)
#include "src/cuda/library.hpp"        // loaded_cuda_libraries (cuda_library_paths)
#include "src/cuda/nvrtc.hpp"          // nvrtc_version, nvrtc_path
#include "src/cuda/runtime_table.hpp"  // cudart(): libcuarray's runtime, the only one (Note [one cuda runtime])
#include "src/cuda/status.hpp"         // status names of the runtime and every library
