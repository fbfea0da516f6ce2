// Ahead-of-time kernels behind bincount and the histogram family: min/max reductions and atomic binning.
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <limits>

#include "src/cuda/check.hpp"
#include "src/kernels/count_kernels.hpp"

namespace cuarray::detail {

namespace {

template <class T> struct min_max { T lo, hi; };

template <class T> struct to_min_max {
  __host__ __device__ min_max<T> operator()(T v) const { return {v, v}; }
};

// NaN wins, as in NumPy's minimum/maximum reductions.
template <class T> struct min_max_op {
  __host__ __device__ min_max<T> operator()(const min_max<T>& a, const min_max<T>& b) const {
    return {pick(a.lo, b.lo, true), pick(a.hi, b.hi, false)};
  }
  __host__ __device__ static T pick(T x, T y, bool low) {
    if (x != x) return x;
    if (y != y) return y;
    return low ? (y < x ? y : x) : (x < y ? y : x);
  }
};

template <class T>
void minmax(const T* in, std::int64_t n, T* d_out, T lo_init, T hi_init, scratch_allocator& scratch, cudaStream_t s) {
  thrust::transform_iterator<to_min_max<T>, const T*> it(in, to_min_max<T>{});
  auto* out = reinterpret_cast<min_max<T>*>(d_out);
  min_max<T> init{lo_init, hi_init};
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, it, out, n, min_max_op<T>{}, init, s));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, bytes, it, out, n, min_max_op<T>{}, init, s));
}

constexpr int block = 256;
// Bins kept per block in shared memory (8 bytes each): below this, each block counts privately and adds
// its non-zero bins to global memory once, so that hot bins do not serialise on global atomics.
constexpr long long shared_bins = 4096;

int grid_for(long long n) {
  long long blocks = (n + block - 1) / block;
  if (blocks > 2048) blocks = 2048;  // grid-stride loops: fewer blocks, fewer private histograms to merge
  return static_cast<int>(blocks < 1 ? 1 : blocks);
}

// Integer counts are exact whatever the order of the atomics; double weights are summed in whatever order
// the atomics land, so weighted results may differ in the last bits from run to run.
template <bool Weighted> __device__ inline void add_to(void* base, long long j, const double* w, long long i) {
  if constexpr (Weighted) {
    atomicAdd(static_cast<double*>(base) + j, w[i]);
  } else {
    atomicAdd(static_cast<unsigned long long*>(base) + j, 1ULL);
  }
}

template <bool Weighted, bool Shared> __device__ inline void flush(void* smem, void* out, long long total) {
  if constexpr (Shared) {
    __syncthreads();
    for (long long j = threadIdx.x; j < total; j += blockDim.x) {
      if constexpr (Weighted) {
        double v = static_cast<double*>(smem)[j];
        if (v != 0.0) atomicAdd(static_cast<double*>(out) + j, v);
      } else {
        unsigned long long v = static_cast<unsigned long long*>(smem)[j];
        if (v != 0) atomicAdd(static_cast<unsigned long long*>(out) + j, v);
      }
    }
  }
}

template <bool Shared> __device__ inline void* zero_shared(void* smem, long long total) {
  if constexpr (Shared) {
    for (long long j = threadIdx.x; j < total; j += blockDim.x) static_cast<unsigned long long*>(smem)[j] = 0;
    __syncthreads();
  }
  return smem;
}

template <bool Weighted, bool Shared>
__global__ void bincount_kernel(const long long* x, long long n, const double* w, void* out, long long nbins) {
  extern __shared__ unsigned long long smem_bc[];
  void* target = Shared ? zero_shared<Shared>(smem_bc, nbins) : out;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    add_to<Weighted>(target, x[i], w, i);
  }
  flush<Weighted, Shared>(smem_bc, out, nbins);
}

template <bool Weighted, bool Shared>
__global__ void histogram_kernel(const double* sample, long long n, histogram_layout a, const double* edges,
                                 const double* w, void* out) {
  extern __shared__ unsigned long long smem_h[];
  void* target = Shared ? zero_shared<Shared>(smem_h, a.total) : out;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long flat = 0;
    bool inside = true;
    for (int d = 0; d < a.ndim && inside; ++d) {
      double v = sample[i * a.ndim + d];
      const double* e = edges + a.edge_offsets[d];
      long long m = a.edge_offsets[d + 1] - a.edge_offsets[d];
      // NumPy's bin: the last j with e[j] <= v (searchsorted 'right' - 1), v == the last edge in the last bin;
      // NaN and values outside [e[0], e[m-1]] fall outside.
      long long nb = m - 1;
      if (nb < 1 || !(v >= e[0]) || !(v <= e[nb])) {
        inside = false;
        break;
      }
      // Guess the bin as if the edges were uniform (exact for linspace edges up to rounding), then settle it
      // against the edges themselves: one or two loads for uniform bins instead of a ~log2(m) dependent
      // search; uneven edges fall back to a binary search on the side of the guess where the answer lies.
      double g = (v - e[0]) / (e[nb] - e[0]) * static_cast<double>(nb);
      long long j = g >= 0 ? (g < static_cast<double>(nb) ? static_cast<long long>(g) : nb - 1) : 0;
      long long lo = j, hi = j;
      if (v < e[j]) {
        lo = 0;
        hi = j - 1;
      } else if (j + 1 < nb && v >= e[j + 1]) {
        lo = j + 1;
        hi = nb - 1;
      }
      while (lo < hi) {
        long long mid = (lo + hi + 1) >> 1;
        if (e[mid] <= v) lo = mid;
        else hi = mid - 1;
      }
      flat += lo * a.strides[d];
    }
    if (inside) add_to<Weighted>(target, flat, w, i);
  }
  flush<Weighted, Shared>(smem_h, out, a.total);
}

}  // namespace

void launch_minmax_f64(const double* in, std::int64_t n, double* d_out, scratch_allocator& scratch, cudaStream_t s) {
  double inf = std::numeric_limits<double>::infinity();
  minmax(in, n, d_out, inf, -inf, scratch, s);
}

void launch_minmax_i64(const std::int64_t* in, std::int64_t n, std::int64_t* d_out, scratch_allocator& scratch,
                       cudaStream_t s) {
  minmax(reinterpret_cast<const long long*>(in), n, reinterpret_cast<long long*>(d_out),
         std::numeric_limits<long long>::max(), std::numeric_limits<long long>::min(), scratch, s);
}

void launch_bincount(const std::int64_t* x, std::int64_t n, const double* w, void* out, std::int64_t nbins,
                     cudaStream_t s) {
  if (n <= 0 || nbins <= 0) return;
  auto xs = reinterpret_cast<const long long*>(x);
  bool shared = nbins <= shared_bins;
  std::size_t smem = shared ? static_cast<std::size_t>(nbins) * 8 : 0;
  int grid = grid_for(n);
  if (w) {
    if (shared) bincount_kernel<true, true><<<grid, block, smem, s>>>(xs, n, w, out, nbins);
    else bincount_kernel<true, false><<<grid, block, 0, s>>>(xs, n, w, out, nbins);
  } else {
    if (shared) bincount_kernel<false, true><<<grid, block, smem, s>>>(xs, n, w, out, nbins);
    else bincount_kernel<false, false><<<grid, block, 0, s>>>(xs, n, w, out, nbins);
  }
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_histogram(const double* sample, std::int64_t n, const histogram_layout& layout, const double* edges,
                      const double* w, void* out, cudaStream_t s) {
  if (n <= 0 || layout.total <= 0) return;
  bool shared = layout.total <= shared_bins;
  std::size_t smem = shared ? static_cast<std::size_t>(layout.total) * 8 : 0;
  int grid = grid_for(n);
  if (w) {
    if (shared) histogram_kernel<true, true><<<grid, block, smem, s>>>(sample, n, layout, edges, w, out);
    else histogram_kernel<true, false><<<grid, block, 0, s>>>(sample, n, layout, edges, w, out);
  } else {
    if (shared) histogram_kernel<false, true><<<grid, block, smem, s>>>(sample, n, layout, edges, w, out);
    else histogram_kernel<false, false><<<grid, block, 0, s>>>(sample, n, layout, edges, w, out);
  }
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
