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

// Note [integers per counter]
// integers() with one bound pair whose range fits 32 bits (randint's usual call) takes one Philox word per
// output, four outputs per counter; any other call (a 64-bit range, or bounds per element) two words per output,
// two per counter. The first block of a counter (sub-stream 0) is shared by its outputs; an output whose first
// draw Lemire's method rejects (probability below range / 2**32 per word) goes on with words of its own
// sub-streams of the counter, (k + 1) << 32, +1, ... for output k, so no two outputs read the same word. A value
// depends on (key, offset, its index) alone, never on the launch configuration (Note [random counters]).
constexpr int integers_per_counter(bool narrow) { return narrow ? 4 : 2; }

// Lemire's draw in [0, range] for a 64-bit range whose first pair of words (w0, w1) was rejected: the further
// words come from output k's own sub-streams of `counter`.
__device__ unsigned long long interval64_redraw(unsigned long long key, unsigned long long counter, int k,
                                                std::uint32_t w0, std::uint32_t w1, unsigned long long range) {
  element_stream more(key, counter);
  more.sub = (static_cast<std::uint64_t>(k) + 1) << 32;
  const std::uint64_t rng1 = range + 1;
  std::uint64_t x = (static_cast<std::uint64_t>(w0) << 32) | w1;
  const std::uint64_t t = (0ull - rng1) % rng1;
  while (x * rng1 < t) x = more.next64();
  return __umul64hi(x, rng1);
}

// A uniform integer in [0, range] from the first word(s) w0 (and w1 for a 64-bit range) by Lemire's unbiased
// multiply: true with the value in r when the first draw is accepted, false when a redraw must go on.
__device__ inline bool interval_first(std::uint32_t w0, std::uint32_t w1, unsigned long long range,
                                      unsigned long long& r) {
  if (range <= 0xFFFFFFFFull) {
    if (range == 0xFFFFFFFFull) {
      r = w0;
      return true;
    }
    const std::uint32_t rng1 = static_cast<std::uint32_t>(range) + 1;
    const std::uint64_t m = static_cast<std::uint64_t>(w0) * rng1;
    r = m >> 32;
    return static_cast<std::uint32_t>(m) >= rng1 || range == 0;
  }
  const std::uint64_t x = (static_cast<std::uint64_t>(w0) << 32) | w1;
  if (range == ~0ull) {
    r = x;
    return true;
  }
  const std::uint64_t rng1 = range + 1;
  r = __umul64hi(x, rng1);
  return x * rng1 >= rng1;
}

// P values of U, stored with one vector instruction where P * sizeof(U) <= 16.
template <class U, int P> struct alignas(P * sizeof(U)) integers_pack { U v[P]; };

// The wide case of Note [integers per counter] (a 64-bit range, or bounds per element): two outputs per counter,
// two words each, written with one vector store when the output is aligned. Rejected draws are redone after the
// store, out of line, when little else is live.
template <class U>
__global__ void integers_kernel(U* out, long long n, unsigned long long key, unsigned long long offset,
                                const long long* low, long long low_value, const unsigned long long* range,
                                unsigned long long range_value, bool aligned) {
  const long long counters = (n + 1) / 2;
  for (long long c = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; c < counters;
       c += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned long long counter = offset + static_cast<unsigned long long>(c);
    const u32x4 b = block_at(key, counter, 0);
    const long long i = 2 * c;
    integers_pack<U, 2> p;
    unsigned rejected = 0;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long j = i + k;
      p.v[k] = U{};
      if (j < n) {
        unsigned long long r;
        if (!interval_first(word_of(b, 2 * k), word_of(b, 2 * k + 1), range ? range[j] : range_value, r)) {
          rejected |= 1u << k;
        }
        p.v[k] = static_cast<U>(static_cast<unsigned long long>(low ? low[j] : low_value) + r);
      }
    }
    if (aligned && i + 2 <= n) {
      *reinterpret_cast<integers_pack<U, 2>*>(out + i) = p;
    } else {
      for (int k = 0; k < 2; ++k) {
        if (i + k < n) out[i + k] = p.v[k];
      }
    }
    while (rejected != 0) {
      const int k = __ffs(rejected) - 1;
      rejected &= rejected - 1;
      const long long j = i + k;
      const unsigned long long rg = range ? range[j] : range_value;
      const std::uint32_t w0 = word_of(b, 2 * k), w1 = word_of(b, 2 * k + 1);
      const unsigned long long r = rg <= 0xFFFFFFFFull
                                       ? interval32_redraw(key, counter, k, w0, static_cast<std::uint32_t>(rg) + 1)
                                       : interval64_redraw(key, counter, k, w0, w1, rg);
      out[j] = static_cast<U>(static_cast<unsigned long long>(low ? low[j] : low_value) + r);
    }
  }
}

// The narrow case of Note [integers per counter] (one bound pair, a range below 2**32: randint's call), with
// the bounds as kernel parameters and 32-bit arithmetic, so the common path keeps few registers and enough warps
// overlap their Philox rounds; the rare rejected draws are redone out of the unrolled loop. rng1 = range + 1, 0
// standing for 2**32 (every word is a value). Four 8-byte values per thread are 32 bytes, more than one store
// instruction takes: a warp stages its 128 values in shared memory and writes them as two fully coalesced
// 16-byte-per-lane rows (two 16-byte stores per thread at a 32-byte stride ran at half the write bandwidth).
template <class U>
__global__ void __launch_bounds__(block_size)
    integers_narrow_kernel(U* out, long long n, unsigned long long key, unsigned long long offset,
                           unsigned long long low, std::uint32_t rng1, bool aligned) {
  constexpr bool staged = sizeof(U) == 8;
  __shared__ integers_pack<U, 4> stage[staged ? block_size : 1];
  const long long counters = (n + 3) / 4;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  // Every lane of a warp runs the same number of iterations, so that the staged rows see the whole warp.
  const long long warp_first = first - (threadIdx.x % 32);
  for (long long c0 = warp_first; c0 < counters; c0 += stride) {
    const long long c = c0 + threadIdx.x % 32;
    const bool live = c < counters;
    const unsigned long long counter = offset + static_cast<unsigned long long>(c);
    integers_pack<U, 4> p;
    if (live) {
      const u32x4 b = block_at(key, counter, 0);
      unsigned rejected = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        std::uint64_t r = word_of(b, k);
        if (rng1 != 0) {
          const std::uint64_t m = r * rng1;
          r = m >> 32;
          if (static_cast<std::uint32_t>(m) < rng1) rejected |= 1u << k;
        }
        p.v[k] = static_cast<U>(low + r);
      }
      while (rejected != 0) {
        const int k = __ffs(rejected) - 1;
        rejected &= rejected - 1;
        const U v = static_cast<U>(low + interval32_redraw(key, counter, k, word_of(b, k), rng1));
#pragma unroll
        for (int q = 0; q < 4; ++q) {  // p.v[k] without a dynamic index (which would put p in local memory)
          if (q == k) p.v[q] = v;
        }
      }
    }
    const long long i = 4 * c;
    if constexpr (staged) {
      const long long base = 4 * c0;  // the warp's 128 outputs start here
      if (aligned && base + 128 <= n) {
        const int lane = threadIdx.x % 32, w0 = threadIdx.x - lane;
        stage[threadIdx.x] = p;
        __syncwarp();
        const U* row = reinterpret_cast<const U*>(stage + w0);
        using pair = integers_pack<U, 2>;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          const int e = 64 * half + 2 * lane;  // this lane's two values of the row
          pair q;
          q.v[0] = row[e];
          q.v[1] = row[e + 1];
          *reinterpret_cast<pair*>(out + base + e) = q;
        }
        __syncwarp();
        continue;
      }
    } else if (aligned && live && i + 4 <= n) {
      *reinterpret_cast<integers_pack<U, 4>*>(out + i) = p;
      continue;
    }
    if (live) {
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

std::uint64_t integers_counters(std::int64_t n, bool narrow) {
  if (n <= 0) return 0;
  const auto p = static_cast<std::uint64_t>(integers_per_counter(narrow));
  return (static_cast<std::uint64_t>(n) + p - 1) / p;
}

void launch_integers(void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                     const std::int64_t* low, std::int64_t low_value, const std::uint64_t* range,
                     std::uint64_t range_value, cudaStream_t s) {
  if (n <= 0) return;
  const auto* lo = reinterpret_cast<const long long*>(low);
  const auto* rg = reinterpret_cast<const unsigned long long*>(range);
  const bool narrow = range == nullptr && range_value <= 0xFFFFFFFFull;
  const long long counters = static_cast<long long>(integers_counters(n, narrow));
  dispatch_bytes(itemsize(t), [&](auto tag) {
    using U = decltype(tag);
    if constexpr (sizeof(U) <= 8) {
      if (narrow) {
        bool aligned = reinterpret_cast<std::uintptr_t>(out) % sizeof(integers_pack<U, 4>) == 0;
        integers_narrow_kernel<U><<<grid(counters), block_size, 0, s>>>(static_cast<U*>(out), n, key, offset,
                                                                        static_cast<unsigned long long>(low_value),
                                                                        static_cast<std::uint32_t>(range_value + 1),
                                                                        aligned);
      } else {
        bool aligned = reinterpret_cast<std::uintptr_t>(out) % sizeof(integers_pack<U, 2>) == 0;
        integers_kernel<U><<<grid(counters), block_size, 0, s>>>(static_cast<U*>(out), n, key, offset, lo, low_value,
                                                                 rg, range_value, aligned);
      }
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
