// The table of libcuarray's CUDA runtime functions (Note [one cuda runtime]).
#include "src/cuda/runtime_table.hpp"

namespace cuarray::detail {

namespace {

// Addresses of functions only: constant-initialised, so the table is ready before any static constructor runs.
const runtime_table table = {
#define CUARRAY_RUNTIME_ADDRESS(fn) &::fn,
    CUARRAY_RUNTIME_FUNCTIONS(CUARRAY_RUNTIME_ADDRESS)
#undef CUARRAY_RUNTIME_ADDRESS
};

}  // namespace

const runtime_table& cudart() { return table; }

}  // namespace cuarray::detail
