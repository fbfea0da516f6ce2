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

template <class I> __device__ __forceinline__ long long index_offset(const index_copy_params& p, long long b) {
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

// Note [row gather]: an index into the outer axis of a C-contiguous array (take(x, rows, 0), x[idx], x[idx] = v)
// moves whole contiguous rows. One warp per (row, chunk of 32 * U vectors) reads the index once and copies the row
// with the widest vector (up to 16 bytes) that the bases, strides and row length allow: no per-element division,
// fully coalesced loads and stores, so the copy runs at the memory bandwidth (bytes read + written). U, the vectors
// a lane has in flight, is the fewest of 1, 2 and 4 that covers the row in one chunk (4 beyond): with 4 for every
// row, a 1 KiB row left half of each lane's loads predicated off and the registers of all four held, and the
// gather of 1 KiB rows ran 2-5% slower than a kernel of two loads a lane (tools/diag/take23.py, H200).
constexpr int row_warps = block / 32;

template <class V, class I, bool Scatter, int U>
__global__ void index_rows_kernel(const __grid_constant__ index_copy_params p, long long row_vecs, long long chunks) {
  const int lane = threadIdx.x & 31;
  const long long warps = static_cast<long long>(gridDim.x) * row_warps;
  const long long units = p.nb * chunks;
  for (long long w = static_cast<long long>(blockIdx.x) * row_warps + (threadIdx.x >> 5); w < units; w += warps) {
    long long b = chunks == 1 ? w : w / chunks;
    long long c = w - b * chunks;
    long long ioff = index_offset<I>(p, b), poff = b * p.p_b;
    const V* src = reinterpret_cast<const V*>(Scatter ? p.p_base + poff : p.i_base + ioff);
    V* dst = reinterpret_cast<V*>(Scatter ? p.i_base + ioff : p.p_base + poff);
    long long k0 = c * (32 * U) + lane;
    V v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (k0 + u * 32 < row_vecs) v[u] = src[k0 + u * 32];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (k0 + u * 32 < row_vecs) {
        if constexpr (Scatter) dst[k0 + u * 32] = v[u];
        else __stcs(dst + k0 + u * 32, v[u]);
      }
    }
  }
}

template <class V, class I, int U>
void launch_rows_unrolled(bool scatter, const index_copy_params& p, long long row_vecs, cudaStream_t s) {
  long long chunks = (row_vecs + 32 * U - 1) / (32 * U);
  long long blocks = std::min<long long>((p.nb * chunks + row_warps - 1) / row_warps, 1LL << 30);
  if (scatter) index_rows_kernel<V, I, true, U><<<static_cast<unsigned>(blocks), block, 0, s>>>(p, row_vecs, chunks);
  else index_rows_kernel<V, I, false, U><<<static_cast<unsigned>(blocks), block, 0, s>>>(p, row_vecs, chunks);
}

template <class V, class I>
void launch_rows(bool scatter, const index_copy_params& p, long long row_bytes, cudaStream_t s) {
  long long row_vecs = row_bytes / static_cast<long long>(sizeof(V));
  if (row_vecs <= 32) launch_rows_unrolled<V, I, 1>(scatter, p, row_vecs, s);
  else if (row_vecs <= 64) launch_rows_unrolled<V, I, 2>(scatter, p, row_vecs, s);
  else launch_rows_unrolled<V, I, 4>(scatter, p, row_vecs, s);
}

// The rows path of Note [row gather] when it applies: one contiguous rest run on both sides, raw indices, rows of
// at least 64 bytes (shorter rows leave most lanes of a warp idle: the element loop is as good there).
template <class I> bool try_rows(std::size_t itemsize, bool scatter, const index_copy_params& p, cudaStream_t s) {
  const auto item = static_cast<std::int64_t>(itemsize);
  if (p.p_constant || p.offsets || p.rest_ndim != 1 || p.rest_i[0] != item || p.rest_p[0] != item) return false;
  const long long row_bytes = p.rest_size * item;
  if (row_bytes < 64) return false;
  // Negative strides keep their alignment in two's complement, so one OR tests every quantity.
  const auto bits = static_cast<std::uint64_t>(row_bytes) | reinterpret_cast<std::uintptr_t>(p.i_base) |
                    reinterpret_cast<std::uintptr_t>(p.p_base) | static_cast<std::uint64_t>(p.p_b) |
                    static_cast<std::uint64_t>(p.stride);
  if ((bits & 15) == 0) launch_rows<uint4, I>(scatter, p, row_bytes, s);
  else if ((bits & 7) == 0) launch_rows<uint2, I>(scatter, p, row_bytes, s);
  else if ((bits & 3) == 0) launch_rows<unsigned, I>(scatter, p, row_bytes, s);
  else if ((bits & 1) == 0) launch_rows<unsigned short, I>(scatter, p, row_bytes, s);
  else launch_rows<unsigned char, I>(scatter, p, row_bytes, s);
  return true;
}

template <class E, class I> void launch_typed(bool scatter, const index_copy_params& p, cudaStream_t s) {
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
    if (p.idx_width == 4) {
      if (!try_rows<int>(itemsize, scatter, p, s)) launch_typed<E, int>(scatter, p, s);
    } else {
      if (!try_rows<long long>(itemsize, scatter, p, s)) launch_typed<E, long long>(scatter, p, s);
    }
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
