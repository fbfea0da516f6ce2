// Helpers shared by the core's source files: new arrays on a device, loop layouts, launch context.
#pragma once

#include "cuarray/array.hpp"
#include "src/kernels/basic_kernels.hpp"

namespace cuarray::detail {

/// A new, uninitialised array on `device` with the current allocator and that device's current stream.
array new_array(dtype t, const shape_t& shape, const strides_t& strides, int device);
array new_array(dtype t, const shape_t& shape, order o, int device);

/// CuPy's rule for an operation made of several steps (Note [peer operands] in src/cuda/runtime.cpp): `a` itself
/// when it is on the current device; else, once peer access is checked (warning or ValueError as CuPy), a copy on
/// the current device, so that every later step runs on the current device's stream.
array on_current_device(const array& a);

/// Make `device` active for the calling thread and return its current stream.
cudaStream_t enter_device(int device);

/// Note [loop layout]: an elementwise copy or fill may visit elements in any order, so its layout drops
/// size-1 dimensions, orders axes by the destination's stride (largest outermost) and merges neighbours
/// whose strides chain. A C-to-C, F-to-F or broadcast-scalar copy then becomes one flat loop.
loop_layout make_layout(const shape_t& shape, const strides_t& dst_strides, const strides_t& src_strides);

/// NumPy's reshape shape: one negative length is the unknown one; ValueError when the sizes differ.
shape_t resolve_reshape(std::int64_t size, const shape_t& shape);

/// NumPy's _attempt_nocopy_reshape: the strides of `new_shape` over the same memory (C or F order of
/// iteration), or false when no such strides exist and a reshape must copy.
bool nocopy_reshape_strides(const shape_t& old_shape, const strides_t& old_strides, const shape_t& new_shape,
                            bool f_order, std::size_t itemsize, strides_t& out);

/// Whether two arrays' byte ranges intersect.
bool may_overlap(const array& a, const array& b);

}  // namespace cuarray::detail
