// cuFFT loaded with dlopen, its per-device plan cache, and the execution of one planned layout on the current stream.
#pragma once

#include <cstdint>

#include "src/fft/fft_layout.hpp"

namespace cuarray::detail::fft {

/// Precision of a transform: single (C2C, R2C, C2R) or double (Z2Z, D2Z, Z2D).
enum class precision { single, double_ };

/// Run the transform of `layout` from `in` to `out` (device pointers to the first element; equal for an
/// in-place c2c) on `device`'s current stream, once per index of the layout's host loop. The plan comes from
/// the device's cache (created on a miss), is bound to the stream before each execution, and borrows its
/// work area from the memory pool for this call. `forward` selects the c2c direction.
void execute(int device, const plan_layout& layout, transform_kind kind, precision prec, const void* in, void* out,
             bool forward);

}  // namespace cuarray::detail::fft
