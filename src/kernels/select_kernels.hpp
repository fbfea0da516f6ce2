// Ahead-of-time kernels behind nonzero, boolean-mask indexing and extract: counts, CUB selects, gathers.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "src/kernels/scan_kernels.hpp"

namespace cuarray::detail {

/// *d_count = number of nonzero bytes among flags[0..n) (bool arrays may hold any nonzero byte for true).
void launch_count_flags(const unsigned char* flags, std::int64_t n, std::int64_t* d_count, scratch_allocator& scratch,
                        cudaStream_t stream);

/// out <- the elements in[i] with flags[i] != 0, in order; elements of `width` bytes (1, 2, 4, 8 or 16).
/// *d_selected receives their number. One CUB instantiation per width, whatever the dtype.
void launch_select_flagged(std::size_t width, const void* in, const unsigned char* flags, void* out,
                           std::int64_t* d_selected, std::int64_t n, scratch_allocator& scratch, cudaStream_t stream);

/// out <- the indices i (int64) with flags[i] != 0, in order; *d_selected receives their number.
void launch_select_indices(const unsigned char* flags, std::int64_t* out, std::int64_t* d_selected, std::int64_t n,
                           scratch_allocator& scratch, cudaStream_t stream);

/// Flat C-order indices into `shape` (ndim <= 64) to coordinates: out[d * count + k] = coordinate d of flat[k].
void launch_unravel(const std::int64_t* flat, std::int64_t count, int ndim, const std::int64_t* shape,
                    std::int64_t* out, cudaStream_t stream);

/// out row k <- in row rows[k], rows of `row_bytes` bytes; both contiguous.
void launch_gather_rows(const void* in, const std::int64_t* rows, std::int64_t count, std::int64_t row_bytes, void* out,
                        cudaStream_t stream);

}  // namespace cuarray::detail
