// Ahead-of-time kernels of the foundation: strided copies with casts, fills, and range generators.
#pragma once

#include <cuda_runtime_api.h>

#include <complex>
#include <cstdint>

#include "cuarray/dtype.hpp"

namespace cuarray::detail {

/// Dimensions kept inline in a kernel's parameters before falling back to the 64-dimension variant.
inline constexpr int small_kernel_ndim = 6;

/// An elementwise loop over up to two operands after merging dimensions (see Note [loop layout]).
struct loop_layout {
  int ndim = 0;
  std::int64_t size = 0;
  std::int64_t shape[64];
  std::int64_t dst_strides[64];  ///< bytes
  std::int64_t src_strides[64];  ///< bytes
};

/// dst[...] = cast(src[...]) over a merged layout; src and dst must not overlap partially.
void launch_copy(const loop_layout& layout, void* dst, dtype dst_type, const void* src, dtype src_type,
                 cudaStream_t stream);

/// dst[...] = value, value given as `itemsize` bytes; src_strides of `layout` are ignored.
void launch_fill(const loop_layout& layout, void* dst, std::size_t itemsize, const unsigned char* value,
                 cudaStream_t stream);

/// out[i] = start + i * step in `t`'s arithmetic (NumPy's fill function), contiguous, n elements.
void launch_arange(void* out, dtype t, std::int64_t n, const unsigned char* start, const unsigned char* step,
                   cudaStream_t stream);

/// Parameters of linspace / logspace / geomspace (see creation.cpp for how NumPy's formulas map here).
struct space_params {
  std::complex<double> start, step, delta, stop;
  double div = 1;
  int linear_mode = 0;    ///< 0: start + i*step, 1: start + (i/div)*delta, 2: start + i*delta
  bool set_last = false;  ///< y[n-1] = stop
  bool log = false;       ///< y = base ** y
  std::complex<double> base = 10.0;
  bool geometric = false;  ///< y[0] = first, y[n-1] = last (when set_last), then y *= sign
  std::complex<double> first, last, sign = 1.0;
  bool floor = false;  ///< integer output: floor before the cast
  bool complex_math = false;
};

/// out[i] for the linspace family, n elements, contiguous.
void launch_space(void* out, dtype t, std::int64_t n, const space_params& p, cudaStream_t stream);

}  // namespace cuarray::detail
