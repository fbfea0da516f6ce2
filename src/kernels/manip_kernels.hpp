// Ahead-of-time kernels of array manipulation: tiled transposing copies and index-mapped copies along an axis.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "src/kernels/basic_kernels.hpp"

namespace cuarray::detail {

/// Note [tiled transpose]: a same-dtype copy whose merged layout (Note [loop layout]) has the destination
/// contiguous along its innermost axis and the source contiguous along another axis reads or writes with a
/// stride of a whole row in the per-element kernel, which costs about a quarter of the copy bandwidth.
/// Staging 32x32 tiles in shared memory (padded by one column against bank conflicts) makes both the reads
/// and the writes coalesced. Returns false, launching nothing, when `layout` is not such a transpose
/// (2-D, or 3-D with one extra outer axis of any strides); the caller then uses the generic kernel.
bool try_launch_transpose_copy(const loop_layout& layout, void* dst, const void* src, std::size_t itemsize,
                               cudaStream_t stream);

/// Index-mapped copy over (outer, m, inner) element blocks with byte strides:
///   dst[o, dmap ? dmap[j] : j, k] = src[o, smap ? smap[j] : j, k]
/// `dmap` / `smap` are device int64 arrays of m entries (or null). Same dtype on both sides; the engine of
/// repeat with per-element counts, delete and insert with index lists.
struct axis_map_layout {
  std::int64_t outer = 1, m = 0, inner = 1;
  std::int64_t dst_strides[3] = {0, 0, 0};  ///< bytes: outer, axis, inner
  std::int64_t src_strides[3] = {0, 0, 0};
};
void launch_axis_map_copy(const axis_map_layout& layout, void* dst, const void* src, std::size_t itemsize,
                          const std::int64_t* dmap, const std::int64_t* smap, cudaStream_t stream);

/// Note [constant pad]: pad(mode='constant') of a C-ordered result in one pass, one block per output row (the
/// last axis): each element is the source element when inside the original area, else the constant of the last
/// axis on which it lies outside (NumPy pads axis after axis, so later axes own the corners), on the side
/// (before/after) where it lies. `in_strides` are the source's byte strides; up to pad_max_ndim axes.
constexpr int pad_max_ndim = 8;
struct pad_constant_layout {
  int ndim = 0;
  std::int64_t out_shape[pad_max_ndim] = {};
  std::int64_t before[pad_max_ndim] = {};
  std::int64_t in_shape[pad_max_ndim] = {};
  std::int64_t in_strides[pad_max_ndim] = {};
  alignas(16) unsigned char values[pad_max_ndim][2][16] = {};  ///< per axis: before, after (the result's dtype)
};
void launch_pad_constant(const pad_constant_layout& layout, void* dst, const void* src, std::size_t itemsize,
                         cudaStream_t stream);

/// Note [batched join]: concatenate/stack of many inputs in one launch instead of one copy per input (each launch
/// of a few MiB costs a launch latency and a tail of idle SMs). Every input is a 2-D byte copy: `rows` rows of
/// `row_bytes` contiguous bytes, read at src + r * row_bytes and written at dst + r * dst_pitch (the output's row
/// of the joined axis and everything inside it). Up to join_max_segments per launch (they travel in the kernel's
/// parameter space); blockIdx.y picks the segment and each thread copies one vector (the kernel's Note in
/// manip_kernels.cu); a segment of one row (every 1-D join and stack) runs no division.
constexpr int join_max_segments = 64;
struct join_segment {
  const char* src = nullptr;
  char* dst = nullptr;
  std::int64_t row_bytes = 0, dst_pitch = 0, rows = 0;
};
/// Copies every segment; all pointers and pitches are those of the caller's arrays (any alignment).
void launch_join_copy(const join_segment* segments, int count, cudaStream_t stream);

/// Note [row copy]: a copy whose innermost merged axis is contiguous on both sides (tile, repeat along an axis
/// with a contiguous inner run) moves whole rows: one block per tile of a row computes the row's two offsets
/// from its outer coordinates (the only divisions), then copies the row with the widest aligned vector.
constexpr int rows_max_ndim = 8;
struct rows_copy_layout {
  int ndim = 0;  ///< outer axes
  std::int64_t shape[rows_max_ndim] = {};
  std::int64_t dst_strides[rows_max_ndim] = {};  ///< bytes
  std::int64_t src_strides[rows_max_ndim] = {};  ///< bytes; 0 along a repeated axis
  std::int64_t row_bytes = 0;
};
void launch_rows_copy(const rows_copy_layout& layout, void* dst, const void* src, cudaStream_t stream);

/// dst[k] = src[k / r] for a contiguous source of n elements and a contiguous destination of n * r: each thread
/// reads one element and writes its r copies (as 16-byte vectors of the replicated element when r * itemsize
/// allows). The kernel of repeat with a scalar count along the last contiguous axis or with axis=None.
void launch_repeat_flat(void* dst, const void* src, std::int64_t n, std::int64_t r, std::size_t itemsize,
                        cudaStream_t stream);

}  // namespace cuarray::detail
