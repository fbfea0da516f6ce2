// Host-side layout planning of cuFFT transforms: which strided arrays one batched plan (plus a short loop) can take.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/shape.hpp"

namespace cuarray::detail::fft {

/// What one plan computes; the halved axis of r2c/c2r is the plan's last (innermost) one.
enum class transform_kind { c2c, r2c, c2r };

/// cuFFT's advanced data layout of one plan (element strides), plus the batch dimensions cuFFT's single
/// batch stride cannot express, which the caller walks with a host loop (one execution per index).
struct plan_layout {
  int rank = 0;
  long long n[3] = {0, 0, 0}, inembed[3] = {0, 0, 0}, onembed[3] = {0, 0, 0};
  long long istride = 1, idist = 1, ostride = 1, odist = 1, batch = 1;
  std::vector<std::int64_t> loop_extent, loop_in_stride, loop_out_stride;  ///< elements

  std::int64_t loop_count() const;
  /// The element offsets (input, output) of loop iteration `i` (row-major over loop_extent).
  std::pair<std::int64_t, std::int64_t> loop_offsets(std::int64_t i) const;
};

/// Note [fft layouts]: the layout of a transform over `axes` (plan order, outermost first; for r2c/c2r the last
/// one is the halved axis) reading `in` (shape/strides in bytes, element size in_item) and writing `out`.
/// Within the plan the axes must chain (each stride a multiple of the next one's, by at least that axis's
/// length), all strides positive. The other axes of length > 1 are merged where their strides chain in both
/// arrays; the longest becomes cuFFT's batch and the rest a host loop, which is accepted while its launches
/// cost less than the copy that would make the layout plain (see loop_is_cheap). nullopt: the caller copies.
std::optional<plan_layout> make_plan_layout(const shape_t& in_shape, const strides_t& in_strides, std::size_t in_item,
                                            const shape_t& out_shape, const strides_t& out_strides,
                                            std::size_t out_item, const std::vector<int>& axes, transform_kind kind);

/// Note [fft alignment]: cuFFT's cufftExec* functions require both data pointers aligned to the plan's complex
/// element type (cufftComplex: 8 bytes, cufftDoubleComplex: 16), real sides of R2C/C2R included, and answer
/// CUFFT_INVALID_VALUE otherwise. Whether every execution of `p`'s host loop keeps the pointers so aligned
/// when the first one is: each loop stride, in bytes (elements of in_item/out_item bytes), a multiple of `align`.
bool loop_keeps_alignment(const plan_layout& p, std::size_t in_item, std::size_t out_item, std::size_t align);

/// Whether `loops` executions of `elements_per_exec` complex elements of `item` bytes cost less than copying
/// everything twice (to a plain layout and back).
bool loop_is_cheap(std::int64_t loops, std::int64_t elements_per_exec, std::size_t item);

/// The transform axes split into plans: axes ordered by `strides` (outermost first), split into runs adjacent in
/// that order, each run into chunks of at most three axes from its innermost end. `innermost_axis`, when set,
/// must end the first chunk returned (it is the halved axis of r2c/c2r: a run where it is not the innermost
/// gives it a chunk of its own). Chunks are returned innermost first.
std::vector<std::vector<int>> group_axes(const std::vector<int>& axes, const shape_t& shape, const strides_t& strides,
                                         std::optional<int> innermost_axis = std::nullopt);

/// A text of a layout for the plan cache's listing.
std::string describe(const plan_layout& p, int cufft_type);

}  // namespace cuarray::detail::fft
