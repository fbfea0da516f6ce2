// Ahead-of-time kernels of advanced indexing: one gather/scatter loop per element width (Note [index copy]).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "src/cuda/check.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/index_kernels.hpp"

namespace cuarray::detail {

namespace {

constexpr int block = 256;
constexpr int unroll = 4;  // elements per thread per step: four independent loads in flight (random gathers)

template <class I>
__device__ __forceinline__ long long index_offset(const index_copy_params& p, long long b) {
  // Streaming loads and stores (evict first) for the index and the plain side: L2 keeps the gathered rows.
  long long i = static_cast<long long>(__ldcs(static_cast<const I*>(p.idx) + b));
  if (p.offsets) return i;
  if (i < 0 || i >= p.len) {
    if (p.clip) {
      i = i < 0 ? 0 : p.len - 1;
    } else {
      i %= p.len;
      if (i < 0) i += p.len;
    }
  }
  return i * p.stride;
}

template <class E, class I, bool Scatter, bool Rest>
__global__ void index_copy_kernel(const __grid_constant__ index_copy_params p) {
  const long long total = p.nb * p.rest_size;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; base < total;
       base += unroll * step) {
    E v[unroll];
    long long dst[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      long long e = base + u * step;
      if (e >= total) break;
      long long b = Rest ? e / p.rest_size : e;
      long long ioff = index_offset<I>(p, b), poff = b * p.p_b;
      if constexpr (Rest) {
        long long r = e - b * p.rest_size;
        for (int d = p.rest_ndim - 1; d >= 0; --d) {
          long long c = r % p.rest_shape[d];
          r /= p.rest_shape[d];
          ioff += c * p.rest_i[d];
          poff += c * p.rest_p[d];
        }
      }
      if constexpr (Scatter) {
        v[u] = p.p_constant ? *reinterpret_cast<const E*>(p.constant) : *reinterpret_cast<const E*>(p.p_base + poff);
        dst[u] = ioff;
      } else {
        v[u] = *reinterpret_cast<const E*>(p.i_base + ioff);
        dst[u] = poff;
      }
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      if (base + u * step >= total) break;
      E* at = reinterpret_cast<E*>((Scatter ? p.i_base : p.p_base) + dst[u]);
      if constexpr (Scatter || sizeof(E) == 16) *at = v[u];
      else __stcs(at, v[u]);
    }
  }
}

// Note [flat gather]: out[b] = src[idx[b]] with contiguous idx and out, the shape of x[idx] on a 1-D x: eight
// consecutive elements per thread, the indices read and the results written as 16-byte vectors, and eight
// random reads in flight per thread (the gather is bound by DRAM sectors fetched, so in-flight reads count).
template <class E, class I>
__global__ void flat_gather_kernel(const __grid_constant__ index_copy_params p) {
  constexpr int k = 8;
  static_assert(sizeof(I) * k % 16 == 0 && sizeof(E) * k % 8 == 0, "vector widths");
  const long long n = p.nb;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x * k;
  for (long long base = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * k; base < n; base += step) {
    if (base + k <= n) {
      union { uint4 v[sizeof(I) * k / 16]; I i[k]; } idx;
#pragma unroll
      for (int u = 0; u < static_cast<int>(sizeof(I) * k / 16); ++u) {
        idx.v[u] = __ldcs(reinterpret_cast<const uint4*>(static_cast<const I*>(p.idx) + base) + u);
      }
      union { E e[k]; unsigned long long w[sizeof(E) * k / 8]; } out;
#pragma unroll
      for (int u = 0; u < k; ++u) {
        long long i = idx.i[u];
        if (i < 0 || i >= p.len) {
          if (p.clip) {
            i = i < 0 ? 0 : p.len - 1;
          } else {
            i %= p.len;
            if (i < 0) i += p.len;
          }
        }
        out.e[u] = *reinterpret_cast<const E*>(p.i_base + i * p.stride);
      }
      unsigned long long* o = reinterpret_cast<unsigned long long*>(reinterpret_cast<E*>(p.p_base) + base);
#pragma unroll
      for (int u = 0; u < static_cast<int>(sizeof(E) * k / 8); ++u) __stcs(o + u, out.w[u]);
    } else {
      for (long long b = base; b < n; ++b) {
        *reinterpret_cast<E*>(p.p_base + b * sizeof(E)) = *reinterpret_cast<const E*>(p.i_base + index_offset<I>(p, b));
      }
    }
  }
}

template <class E, class I>
void launch_typed(bool scatter, const index_copy_params& p, cudaStream_t s) {
  long long total = p.nb * p.rest_size;
  bool rest = p.rest_size != 1 || p.rest_ndim != 0;
  if constexpr (sizeof(E) <= 8) {
    auto aligned = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
    if (!scatter && !rest && !p.offsets && p.p_b == static_cast<long long>(sizeof(E)) && aligned(p.idx) &&
        aligned(p.p_base) && total >= 8 * block) {
      long long b = std::min<long long>((total + 8 * block - 1) / (8 * block), 1LL << 30);
      flat_gather_kernel<E, I><<<static_cast<unsigned>(b), block, 0, s>>>(p);
      return;
    }
  }
  long long blocks = std::min<long long>((total + block * unroll - 1) / (block * unroll), 1LL << 30);
  auto go = [&](auto kernel) { kernel<<<static_cast<unsigned>(blocks), block, 0, s>>>(p); };
  if (scatter) rest ? go(index_copy_kernel<E, I, true, true>) : go(index_copy_kernel<E, I, true, false>);
  else rest ? go(index_copy_kernel<E, I, false, true>) : go(index_copy_kernel<E, I, false, false>);
}

}  // namespace

void launch_index_copy(std::size_t itemsize, bool scatter, const index_copy_params& p, cudaStream_t s) {
  if (p.nb <= 0 || p.rest_size <= 0) return;
  dispatch_bytes(itemsize, [&](auto e) {
    using E = decltype(e);
    if (p.idx_width == 4) launch_typed<E, int>(scatter, p, s);
    else launch_typed<E, long long>(scatter, p, s);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
