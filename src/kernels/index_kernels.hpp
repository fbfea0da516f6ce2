// Ahead-of-time kernels of advanced indexing: gathers (a[idx]) and scatters (a[idx] = v) through an index array.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cuarray::detail {

/// Dimensions of the non-indexed part one kernel walks (after merging); more are split on the host.
constexpr int index_max_rest = 12;

/// Note [index copy]: every advanced index reduces to a loop over (b, r): b runs over the nb broadcast index
/// positions, r over the remaining ("rest") dimensions. The indexed side's element is at
///   i_base + offset(b) + sum_d r_d * rest_i[d],
/// the plain side's at p_base + b * p_b + sum_d r_d * rest_p[d]. offset(b) is either idx[b] (raw indices into
/// one axis of `len` elements and byte stride `stride`, wrapped or clipped into range) or, with `offsets`,
/// already a byte offset (several index arrays folded into one by the caller). A gather reads the indexed side
/// and writes the plain one; a scatter the reverse, or writes `constant` when `p_constant`.
struct index_copy_params {
  std::int64_t nb = 0;
  int rest_ndim = 0;
  std::int64_t rest_size = 1;
  std::int64_t rest_shape[index_max_rest] = {};
  std::int64_t rest_i[index_max_rest] = {};
  std::int64_t rest_p[index_max_rest] = {};
  std::int64_t p_b = 0;
  const void* idx = nullptr;
  int idx_width = 8;     // 4 (int32) or 8 (int64) bytes
  bool offsets = false;  // idx holds byte offsets (int64), already in range
  bool clip = false;     // out-of-range raw indices clip instead of wrapping
  std::int64_t len = 0, stride = 0;
  char* i_base = nullptr;
  char* p_base = nullptr;
  bool p_constant = false;
  alignas(16) unsigned char constant[16] = {};
};

/// Gather (scatter false) or scatter of elements of `itemsize` bytes (1, 2, 4, 8 or 16) per Note [index copy].
void launch_index_copy(std::size_t itemsize, bool scatter, const index_copy_params& p, cudaStream_t stream);

}  // namespace cuarray::detail
