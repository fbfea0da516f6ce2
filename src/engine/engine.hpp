// The kernel engine as the Python bindings see it: the one private header python/src may include besides
// include/cuarray (and src/cuda/cuda.hpp). It only includes; each line names what the bindings take from it.
#pragma once

#include "src/engine/compile.hpp"        // compile_request/compile (RawModule, _nvrtc checks), nvrtc_version/path
#include "src/engine/elementwise.hpp"    // ew::kernel_spec, operands, run, kernel_source (ufunc, ElementwiseKernel)
#include "src/engine/kernel.hpp"         // device_arch (RawKernel's compile for the current device)
#include "src/engine/reduction.hpp"      // red::spec, red::call, red::run (ReductionKernel)
#include "src/engine/ufunc.hpp"          // ufunc definitions, loop lookup and type resolution (the ufunc type)
#include "src/engine/ufunc_methods.hpp"  // ufunc.reduce, .accumulate, .reduceat and .at
