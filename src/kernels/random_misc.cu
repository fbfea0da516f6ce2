// Random integers and bits, the gathers behind permutations and choice, and the dispatch of distributions.
#include <cuda_runtime.h>

#include <cstdint>

#include "src/cuda/check.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/random_kernels.hpp"
#include "src/kernels/random_philox.cuh"

namespace cuarray::detail::rng {

void launch_stream_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                        const param* p, cudaStream_t s);
void launch_element_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                         const param* p, cudaStream_t s);

namespace {

constexpr int block_size = 256;
constexpr long long max_blocks = 65536;

unsigned grid(long long n) {
  long long blocks = (n + block_size - 1) / block_size;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

bool per_counter_stream(dist d) { return d <= dist::geometric; }

// element_stream(key, index).interval(range) with the stream's first block taken directly: the common case
// (no rejection) reads one or two words of it and no local buffer. A rejected draw restarts the stream, which
// replays the same words, so every value is the one element_stream gives.
__device__ inline unsigned long long interval_at(unsigned long long key, unsigned long long index,
                                                 unsigned long long range) {
  if (range == 0) return 0;
  u32x4 b = block_at(key, index, 0);
  if (range <= 0xFFFFFFFFull) {
    if (range == 0xFFFFFFFFull) return b.x;
    std::uint32_t rng1 = static_cast<std::uint32_t>(range) + 1;
    std::uint64_t m = static_cast<std::uint64_t>(b.x) * rng1;
    if (static_cast<std::uint32_t>(m) >= rng1) return m >> 32;
  } else {
    std::uint64_t x = (static_cast<std::uint64_t>(b.x) << 32) | b.y;
    if (range == ~0ull) return x;
    std::uint64_t rng1 = range + 1;
    if (x * rng1 >= rng1) return __umul64hi(x, rng1);
  }
  element_stream s(key, index);
  return s.interval(range);
}

// Four consecutive outputs per thread, each from its own stream index (the values do not depend on the
// grouping), written with one vector store when the output is aligned: the four Philox blocks are independent
// work for the scheduler, and the stores are full sectors.
template <class U> struct alignas(4 * sizeof(U)) integers_pack { U v[4]; };

template <class U>
__global__ void integers_kernel(U* out, long long n, unsigned long long key, unsigned long long offset,
                                const long long* low, long long low_value, const unsigned long long* range,
                                unsigned long long range_value, bool aligned) {
  const long long groups = (n + 3) / 4;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long i = 4 * g;
    integers_pack<U> p;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long j = i + k;
      p.v[k] = U{};
      if (j < n) {
        unsigned long long r = interval_at(key, offset + static_cast<unsigned long long>(j),
                                           range ? range[j] : range_value);
        p.v[k] = static_cast<U>(static_cast<unsigned long long>(low ? low[j] : low_value) + r);
      }
    }
    if (aligned && i + 4 <= n) {
      *reinterpret_cast<integers_pack<U>*>(out + i) = p;
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        if (i + k < n) out[i + k] = p.v[k];
      }
    }
  }
}

__global__ void bits_kernel(unsigned long long* out, long long n, unsigned long long key, unsigned long long offset) {
  long long groups = (n + 1) / 2;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<long long>(gridDim.x) * blockDim.x) {
    u32x4 r = block_at(key, offset + static_cast<unsigned long long>(g), 0);
    out[2 * g] = (static_cast<unsigned long long>(r.x) << 32) | r.y;
    if (2 * g + 1 < n) out[2 * g + 1] = (static_cast<unsigned long long>(r.z) << 32) | r.w;
  }
}

template <class E>
__global__ void gather_kernel(E* out, const E* src, long long rows, long long cols, long long src_cols, long long inner,
                              const long long* idx, bool per_row) {
  long long total = rows * cols * inner;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long k = i % inner, rj = i / inner, j = rj % cols, r = rj / cols;
    long long from = per_row ? idx[rj] : idx[j];
    out[i] = src[(r * src_cols + from) * inner + k];
  }
}

__global__ void affine_rows_kernel(double* out, const double* z, const double* a, const double* mean, long long rows,
                                   long long d) {
  long long total = rows * d;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long r = i / d, c = i % d;
    const double* zr = z + r * d;
    double acc = mean[c];
    for (long long j = 0; j < d; ++j) acc = fma(zr[j], a[j * d + c], acc);
    out[i] = acc;
  }
}

}  // namespace

std::uint64_t counters_used(dist d, dtype t, std::int64_t n) {
  if (n <= 0) return 0;
  if (!per_counter_stream(d)) return static_cast<std::uint64_t>(n);
  std::uint64_t k = t == dtype::float32 ? 4 : 2;
  return (static_cast<std::uint64_t>(n) + k - 1) / k;
}

void launch_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset, const param* p,
                 cudaStream_t s) {
  if (n <= 0) return;
  if (per_counter_stream(d)) launch_stream_dist(d, out, t, n, key, offset, p, s);
  else launch_element_dist(d, out, t, n, key, offset, p, s);
}

void launch_integers(void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                     const std::int64_t* low, std::int64_t low_value, const std::uint64_t* range,
                     std::uint64_t range_value, cudaStream_t s) {
  if (n <= 0) return;
  const auto* lo = reinterpret_cast<const long long*>(low);
  const auto* rg = reinterpret_cast<const unsigned long long*>(range);
  dispatch_bytes(itemsize(t), [&](auto tag) {
    using U = decltype(tag);
    if constexpr (sizeof(U) <= 8) {
      bool aligned = reinterpret_cast<std::uintptr_t>(out) % sizeof(integers_pack<U>) == 0;
      integers_kernel<U><<<grid((n + 3) / 4), block_size, 0, s>>>(static_cast<U*>(out), n, key, offset, lo, low_value,
                                                                  rg, range_value, aligned);
    }
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_bits(std::uint64_t* out, std::int64_t n, std::uint64_t key, std::uint64_t offset, cudaStream_t s) {
  if (n <= 0) return;
  bits_kernel<<<grid((n + 1) / 2), block_size, 0, s>>>(reinterpret_cast<unsigned long long*>(out), n, key, offset);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_gather(void* out, const void* src, std::size_t itemsize, std::int64_t rows, std::int64_t cols,
                   std::int64_t src_cols, std::int64_t inner, const std::int64_t* idx, bool per_row, cudaStream_t s) {
  long long total = rows * cols * inner;
  if (total <= 0) return;
  dispatch_bytes(itemsize, [&](auto tag) {
    using E = decltype(tag);
    gather_kernel<E><<<grid(total), block_size, 0, s>>>(static_cast<E*>(out), static_cast<const E*>(src), rows, cols,
                                                        src_cols, inner, reinterpret_cast<const long long*>(idx),
                                                        per_row);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_affine_rows(double* out, const double* z, const double* a, const double* mean, std::int64_t rows,
                        std::int64_t d, cudaStream_t s) {
  if (rows * d <= 0) return;
  affine_rows_kernel<<<grid(rows * d), block_size, 0, s>>>(out, z, a, mean, rows, d);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail::rng
