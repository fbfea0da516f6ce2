// Ahead-of-time kernels behind bincount and the histogram family: min/max reductions and atomic binning.
#pragma once

#include <cuda_runtime_api.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuarray/dtype.hpp"
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

/// histogram() of one-dimensional data (Note [one-dimensional histogram] in count_kernels.cu): n values of dtype
/// `t` (contiguous; any real dtype, bool as uint8) binned over nb bins whose nb + 1 edges are `edges` on the
/// device and `edges_host` on the host (the same values); out[bin] += 1 (uint64 counts, `w` null) or += w[i]
/// (double). `out` zeroed.
void launch_histogram1d(dtype t, const void* x, std::int64_t n, const double* edges, const double* edges_host,
                        std::int64_t nb, const double* w, void* out, cudaStream_t stream);

// Host arithmetic of NumPy's histogram code, replicated rounding by rounding (Note [histogram edges] in
// src/ops/statistics_histograms.cpp); defined there.

/// `v` rounded to the nearest value of `t` when `t` is float16 or float32; unchanged otherwise.
double round_to(double v, dtype t);
/// NumPy's linspace(first, last, num) with its start and stop of floating type `math` (values of that type):
/// the arithmetic NumPy does (`arange(num) * (delta / div) + first`, last element set to `last`), each
/// operation rounded to `math`.
std::vector<double> numpy_linspace(double first, double last, std::int64_t num, dtype math);
/// NumPy's complex division a / b (Smith's method, as its loops compute it).
std::complex<double> numpy_cdiv(std::complex<double> a, std::complex<double> b);
/// NumPy's weighted histogram over explicit edges (its non-uniform path) with weights `w` of floating or
/// complex type `t`: per block of 65536 samples, the weights sorted by sample (NaN last) and cumulated in `t`,
/// read at the edges' insertion points (the last edge inclusive) and added up over the blocks in `t`; a bin is
/// the difference of two such sums, in `t`.
std::vector<std::complex<double>> numpy_cumulative_histogram(const std::vector<double>& a,
                                                             const std::vector<std::complex<double>>& w,
                                                             const std::vector<double>& edges, dtype t);
/// NumPy's pairwise summation of `n` values of `t` (float16, float32 or float64; other types are summed in
/// float64), as add.reduce does over one contiguous run; the result is a value of `t`.
double numpy_pairwise_sum(const double* v, std::int64_t n, dtype t);

/// sum() of a float64 view of `shape` whose rows are not contiguous with each other (histogramdd's
/// hist[1:-1, ..., 1:-1]), `v` its values in C order, summed as NumPy 2.x's buffered add.reduce sums it.
double numpy_view_sum(const std::vector<double>& v, const std::vector<std::int64_t>& shape);

}  // namespace cuarray::detail
