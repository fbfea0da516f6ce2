// Helpers shared by the core's source files: new arrays on a device, loop layouts, launch context.
#pragma once

#include "cuarray/array.hpp"
#include "src/kernels/basic_kernels.hpp"

namespace cuarray::detail {

/// A new, uninitialised array on `device` with the current allocator and that device's current stream.
array new_array(dtype t, const shape_t& shape, const strides_t& strides, int device);
array new_array(dtype t, const shape_t& shape, order o, int device);

/// Make `device` active for the calling thread and return its current stream.
cudaStream_t enter_device(int device);

/// Note [loop layout]: an elementwise copy or fill may visit elements in any order, so its layout drops
/// size-1 dimensions, orders axes by the destination's stride (largest outermost) and merges neighbours
/// whose strides chain. A C-to-C, F-to-F or broadcast-scalar copy then becomes one flat loop.
loop_layout make_layout(const shape_t& shape, const strides_t& dst_strides, const strides_t& src_strides);

/// Whether two arrays' byte ranges intersect.
bool may_overlap(const array& a, const array& b);

}  // namespace cuarray::detail
