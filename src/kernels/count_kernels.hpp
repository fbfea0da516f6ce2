// Ahead-of-time kernels behind bincount and the histogram family: min/max reductions and atomic binning.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "src/kernels/scan_kernels.hpp"

namespace cuarray::detail {

/// d_out[0] = min, d_out[1] = max of n doubles; NaN when any value is NaN (as NumPy's min and max). n > 0.
void launch_minmax_f64(const double* in, std::int64_t n, double* d_out, scratch_allocator& scratch,
                       cudaStream_t stream);
/// d_out[0] = min, d_out[1] = max of n int64 values. n > 0.
void launch_minmax_i64(const std::int64_t* in, std::int64_t n, std::int64_t* d_out, scratch_allocator& scratch,
                       cudaStream_t stream);

/// out[x[i]] += 1 (uint64 counts, `w` null) or += w[i] (double); every x[i] in [0, nbins); `out` zeroed.
void launch_bincount(const std::int64_t* x, std::int64_t n, const double* w, void* out, std::int64_t nbins,
                     cudaStream_t stream);

/// Binning of histogramdd (histogram is its one-dimensional case): per dimension d, edges
/// edges[edge_offsets[d] .. edge_offsets[d + 1]) and the bin's stride in the output. A value's bin is NumPy's
/// searchsorted(edges, v, 'right') - 1, moved into the last bin when v equals the last edge; values outside
/// the edges or NaN fall outside and are not counted.
struct histogram_layout {
  int ndim = 0;
  std::int64_t edge_offsets[65];
  std::int64_t strides[64];
  std::int64_t total = 0;  ///< number of output bins
};

/// out[bin(sample row i)] += 1 (uint64 counts, `w` null) or += w[i] (double) over n rows of `layout.ndim`
/// doubles (C-contiguous); `out` zeroed.
void launch_histogram(const double* sample, std::int64_t n, const histogram_layout& layout, const double* edges,
                      const double* w, void* out, cudaStream_t stream);

}  // namespace cuarray::detail
