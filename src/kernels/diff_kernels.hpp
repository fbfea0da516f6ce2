// Ahead-of-time kernel of diff: adjacent differences along one axis of a C-contiguous array in one pass.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuarray/dtype.hpp"

namespace cuarray::detail {

/// Note [diff kernel]: NumPy's diff is `a[1:] - a[:-1]` (not_equal for bool). Two views of one array, one of
/// them an element off 16-byte alignment, keep the elementwise engine on its scalar loop; this kernel reads the
/// input once instead, with 16-byte loads where it can. `x` is C-contiguous of shape (outer, len, inner) around
/// the axis (len >= 1), `out` C-contiguous of shape (outer, len - 1, inner), both of dtype `t` (any dtype):
///   out[o, j, k] = x[o, j + 1, k] - x[o, j, k]
/// in NumPy's arithmetic of `t` (integers wrap, float16 rounds a float32 difference, bool is not_equal).
void launch_diff(dtype t, const void* x, void* out, std::int64_t outer, std::int64_t len, std::int64_t inner,
                 cudaStream_t stream);

}  // namespace cuarray::detail
