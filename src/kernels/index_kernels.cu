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

template <class E, class I>
void launch_typed(bool scatter, const index_copy_params& p, cudaStream_t s) {
  long long total = p.nb * p.rest_size;
  long long blocks = std::min<long long>((total + block * unroll - 1) / (block * unroll), 1LL << 30);
  bool rest = p.rest_size != 1 || p.rest_ndim != 0;
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
