// Ahead-of-time kernels behind bincount and the histogram family: min/max reductions and atomic binning.
#include <cuda_fp16.h>

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

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

// NumPy's bin of v (the last j with e[j] <= v, for e[0] <= v <= e[nb]) from a first guess 0 <= j < nb: one or two
// comparisons where the guess holds (uniform edges), a binary search on the guess's side where it missed
// (uneven or repeated edges).
template <class E> __device__ __forceinline__ long long settle_bin(E v, const E* e, long long j, long long nb) {
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
  return lo;
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
      flat += settle_bin(v, e, j, nb) * a.strides[d];
    }
    if (inside) add_to<Weighted>(target, flat, w, i);
  }
  flush<Weighted, Shared>(smem_h, out, a.total);
}

// Note [one-dimensional histogram]
// histogram() of one-dimensional data bins the values in their own dtype, so the data is read once, with 16-byte
// loads, instead of being copied to float64 first. The bin is NumPy's (the last edge e[j] <= v, the last edge
// inclusive, NaN and values outside the edges dropped), decided by comparisons with the edges, which are exact:
// float32 and float16 data against edges that are all float32 values (NumPy's own edges for such data are) compare
// in float; everything else is widened to double in registers (exact but for 64-bit integers, which round as
// astype(float64) rounds them). The uniform-bin formula only guesses the bin, the edges settle it (one or two
// comparisons; uneven edges fall back to a binary search), so the guess's precision never shows in the result.
// Each block counts in shared memory (32-bit counts: a block never sees 2**31 values, see hist1d_grid) next to a
// shared copy of the edges, and adds its non-zero bins to the global uint64 counts once; a grid of resident
// blocks keeps those merges to a few per bin.

// float16 values are carried as their bits (no cuda_fp16 types in the vector loads).
struct f16_bits {
  unsigned short bits;
};
template <class E> __device__ __forceinline__ E widen(f16_bits h) {
  return static_cast<E>(__half2float(__ushort_as_half(h.bits)));
}
template <class E, class T> __device__ __forceinline__ E widen(T v) { return static_cast<E>(v); }

// floor(g) for 0 <= g < 2**23 (float) or 2**52 (double) by one add rounded down (conversion instructions run at a
// quarter of the add rate or less, and this kernel does one per value).
__device__ __forceinline__ long long floor_index(float g) {
  return __float_as_int(__fadd_rd(g, 8388608.0f)) - 0x4B000000;
}
__device__ __forceinline__ long long floor_index(double g) {
  return __double_as_longlong(__dadd_rd(g, 4503599627370496.0)) - 0x4330000000000000LL;
}

template <class T> struct alignas(16) vec16 { T v[16 / sizeof(T)]; };

struct hist1d_args {
  long long n;           ///< values
  long long head;        ///< values before the first 16-byte boundary, read one by one
  long long nb;          ///< bins (nb + 1 edges)
  const double* edges;   ///< device edges, exact values of NumPy's bin_edges
  double lo, hi, scale;  ///< edges[0], edges[nb], nb / (hi - lo)
  const double* w;       ///< weights (double) or null
  void* out;             ///< uint64 counts or double sums, zeroed
  int edges_shared;      ///< 1: the block copies the edges to shared memory first (always for float edges)
  int edge_bytes;        ///< bytes of shared memory before the counts (the edges, rounded up to 8)
};

// The bin of v, or -1 when NumPy does not count it.
template <class E> __device__ __forceinline__ long long bin_of(E v, const E* e, E lo, E hi, E scale, long long nb) {
  if (!(v >= lo && v <= hi)) return -1;
  E g = (v - lo) * scale;
  long long j = g < static_cast<E>(nb) ? floor_index(g) : nb - 1;  // NaN guesses (infinite edges) too
  return settle_bin(v, e, j, nb);
}

template <bool Weighted, bool Shared> struct hist1d_count { using type = unsigned long long; };
template <> struct hist1d_count<false, true> { using type = unsigned int; };
template <bool Shared> struct hist1d_count<true, Shared> { using type = double; };

template <class T> __device__ __forceinline__ vec16<T> load16(const vec16<T>* p) {
  union {
    uint4 u;
    vec16<T> v;
  } r;
  r.u = __ldcs(reinterpret_cast<const uint4*>(p));  // read once: evict first
  return r.v;
}

// T: the data's element type; E: the type of the comparisons (float or double).
template <class T, class E, bool Weighted, bool Shared>
__global__ void __launch_bounds__(block) histogram1d_kernel(const T* x, hist1d_args a) {
  using count_t = typename hist1d_count<Weighted, Shared>::type;
  extern __shared__ double smem_1d[];
  const E* e = nullptr;
  if (a.edges_shared) {
    E* se = reinterpret_cast<E*>(smem_1d);
    for (long long j = threadIdx.x; j <= a.nb; j += blockDim.x) se[j] = static_cast<E>(a.edges[j]);  // exact
    e = se;
  } else {
    if constexpr (std::is_same_v<E, double>) e = a.edges;  // the host asks for float edges only in shared memory
  }
  count_t* bins = static_cast<count_t*>(a.out);
  if constexpr (Shared) {
    bins = reinterpret_cast<count_t*>(reinterpret_cast<char*>(smem_1d) + a.edge_bytes);
    for (long long j = threadIdx.x; j < a.nb; j += blockDim.x) bins[j] = 0;
  }
  if (Shared || a.edges_shared) __syncthreads();
  const E lo = static_cast<E>(a.lo), hi = static_cast<E>(a.hi), scale = static_cast<E>(a.scale);
  const long long nb = a.nb;
  auto put = [&](E v, long long i) {
    long long j = bin_of(v, e, lo, hi, scale, nb);
    if (j < 0) return;
    if constexpr (Weighted) {
      atomicAdd(bins + j, a.w[i]);
    } else {
      atomicAdd(bins + j, static_cast<count_t>(1));
    }
  };
  constexpr int V = static_cast<int>(16 / sizeof(T));
  const long long nvec = (a.n - a.head) / V;
  const long long tid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const vec16<T>* xv = reinterpret_cast<const vec16<T>*>(x + a.head);
  long long k = tid;
  // Two 16-byte loads in flight per thread before any is binned.
  for (; k + stride < nvec; k += 2 * stride) {
    vec16<T> p = load16(xv + k);
    vec16<T> q = load16(xv + k + stride);
#pragma unroll
    for (int r = 0; r < V; ++r) put(widen<E>(p.v[r]), a.head + k * V + r);
#pragma unroll
    for (int r = 0; r < V; ++r) put(widen<E>(q.v[r]), a.head + (k + stride) * V + r);
  }
  for (; k < nvec; k += stride) {
    vec16<T> p = load16(xv + k);
#pragma unroll
    for (int r = 0; r < V; ++r) put(widen<E>(p.v[r]), a.head + k * V + r);
  }
  // The values before the first boundary and after the last whole vector.
  const long long tail_start = a.head + nvec * V;
  const long long loose = a.head + (a.n - tail_start);
  for (long long r = tid; r < loose; r += stride) {
    long long i = r < a.head ? r : tail_start + (r - a.head);
    put(widen<E>(x[i]), i);
  }
  if constexpr (Shared) {
    __syncthreads();
    for (long long j = threadIdx.x; j < a.nb; j += blockDim.x) {
      count_t v = bins[j];
      if constexpr (Weighted) {
        if (v != 0.0) atomicAdd(static_cast<double*>(a.out) + j, v);
      } else {
        if (v != 0) atomicAdd(static_cast<unsigned long long*>(a.out) + j, static_cast<unsigned long long>(v));
      }
    }
  }
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

namespace {

// Blocks that fit on the device at once (at least enough that no block counts 2**31 values in 32 bits).
template <class K> int hist1d_grid(K kernel, std::size_t smem, long long n) {
  int device = 0, sms = 0, per_sm = 0;
  CUARRAY_CUDA_CHECK(cudaGetDevice(&device));
  CUARRAY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUARRAY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  long long grid = static_cast<long long>(sms) * (per_sm < 1 ? 1 : per_sm);
  long long needed = (n + block - 1) / block;
  long long floor_for_counts = (n >> 31) + 1;
  if (grid > needed) grid = needed;
  if (grid < floor_for_counts) grid = floor_for_counts;
  return static_cast<int>(grid < 1 ? 1 : grid);
}

template <class T, class E, bool Weighted, bool Shared>
void run_hist1d(const void* x, const hist1d_args& a, std::size_t smem, cudaStream_t s) {
  auto kernel = histogram1d_kernel<T, E, Weighted, Shared>;
  int grid = hist1d_grid(kernel, smem, a.n);
  kernel<<<grid, block, smem, s>>>(static_cast<const T*>(x), a);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

constexpr std::size_t smem_budget = 48 * 1024;  // what every device gives a block without opting in

template <class T, class E> void dispatch_hist1d(const void* x, hist1d_args a, cudaStream_t s) {
  // Note [one-dimensional histogram]: counts in shared memory up to shared_bins bins, the edges beside them
  // while both fit.
  bool weighted = a.w != nullptr;
  bool shared = a.nb <= shared_bins;
  std::size_t count_bytes = shared ? static_cast<std::size_t>(a.nb) * (weighted ? 8 : 4) : 0;
  std::size_t edge_bytes = (static_cast<std::size_t>(a.nb + 1) * sizeof(E) + 7) / 8 * 8;
  a.edges_shared = count_bytes + edge_bytes <= smem_budget ? 1 : 0;
  a.edge_bytes = a.edges_shared ? static_cast<int>(edge_bytes) : 0;
  std::size_t smem = count_bytes + static_cast<std::size_t>(a.edge_bytes);
  if (weighted) {
    shared ? run_hist1d<T, E, true, true>(x, a, smem, s) : run_hist1d<T, E, true, false>(x, a, smem, s);
  } else {
    shared ? run_hist1d<T, E, false, true>(x, a, smem, s) : run_hist1d<T, E, false, false>(x, a, smem, s);
  }
}

// Whether float32/float16 data can be binned in float: every edge a float32 value (NumPy's edges for such data
// are), few enough bins for the float guess, and the float edges fit in shared memory beside the counts.
bool float_edges(const double* e, long long nb, bool weighted) {
  if (nb >= (1LL << 23)) return false;
  std::size_t count_bytes = nb <= shared_bins ? static_cast<std::size_t>(nb) * (weighted ? 8 : 4) : 0;
  if (count_bytes + (static_cast<std::size_t>(nb + 1) * 4 + 7) / 8 * 8 > smem_budget) return false;
  for (long long j = 0; j <= nb; ++j) {
    if (static_cast<double>(static_cast<float>(e[j])) != e[j]) return false;  // NaN edges too: double compares
  }
  return true;
}

}  // namespace

void launch_histogram1d(dtype t, const void* x, std::int64_t n, const double* edges, const double* edges_host,
                        std::int64_t nb, const double* w, void* out, cudaStream_t s) {
  if (n <= 0 || nb <= 0) return;
  hist1d_args a{};
  a.n = n;
  a.nb = nb;
  a.edges = edges;
  a.lo = edges_host[0];
  a.hi = edges_host[nb];
  a.scale = static_cast<double>(nb) / (a.hi - a.lo);
  a.w = w;
  a.out = out;
  std::size_t size = itemsize(t);
  auto addr = reinterpret_cast<std::uintptr_t>(x);
  long long head = addr % size != 0 ? n : static_cast<long long>(((16 - addr % 16) % 16) / size);
  a.head = head < n ? head : n;  // a misaligned element pointer cannot be read by vectors at all
  bool narrow = (t == dtype::float32 || t == dtype::float16) && float_edges(edges_host, nb, w != nullptr);
  switch (t) {
    case dtype::bool_:
    case dtype::uint8: return dispatch_hist1d<unsigned char, double>(x, a, s);
    case dtype::int8: return dispatch_hist1d<signed char, double>(x, a, s);
    case dtype::int16: return dispatch_hist1d<short, double>(x, a, s);
    case dtype::uint16: return dispatch_hist1d<unsigned short, double>(x, a, s);
    case dtype::int32: return dispatch_hist1d<int, double>(x, a, s);
    case dtype::uint32: return dispatch_hist1d<unsigned int, double>(x, a, s);
    case dtype::int64: return dispatch_hist1d<long long, double>(x, a, s);
    case dtype::uint64: return dispatch_hist1d<unsigned long long, double>(x, a, s);
    case dtype::float16:
      return narrow ? dispatch_hist1d<f16_bits, float>(x, a, s) : dispatch_hist1d<f16_bits, double>(x, a, s);
    case dtype::float32:
      return narrow ? dispatch_hist1d<float, float>(x, a, s) : dispatch_hist1d<float, double>(x, a, s);
    case dtype::float64: return dispatch_hist1d<double, double>(x, a, s);
    default: throw std::invalid_argument("launch_histogram1d: complex data has no bins");
  }
}

}  // namespace cuarray::detail
