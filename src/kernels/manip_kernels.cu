// Ahead-of-time kernels of array manipulation: tiled transposing copies and index-mapped copies along an axis.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "src/cuda/check.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/manip_kernels.hpp"

namespace cuarray::detail {

namespace {

constexpr int tile = 32;
constexpr int tile_rows = 8;  // a 32x8 block moves a 32x32 tile, four elements per thread

// Axis p: the source is contiguous along it; axis q: the destination is. Element (b, p, q) lives at
// src + b*sb + p*itemsize + q*sq and dst + b*db + p*dp + q*itemsize.
struct transpose_arg {
  long long np, nq, nb;
  long long sq, dp, sb, db;
};

template <class T, int Tile>
__global__ void transpose_kernel(char* __restrict__ dst, const char* __restrict__ src, transpose_arg a) {
  __shared__ T buf[Tile][Tile + 1];
  const long long tiles_q = (a.nq + Tile - 1) / Tile, tiles_p = (a.np + Tile - 1) / Tile;
  const long long tiles = tiles_q * tiles_p;
  for (long long b = blockIdx.z; b < a.nb; b += gridDim.z) {
    const char* s = src + b * a.sb;
    char* d = dst + b * a.db;
    for (long long t = blockIdx.x + static_cast<long long>(blockIdx.y) * gridDim.x; t < tiles;
         t += static_cast<long long>(gridDim.x) * gridDim.y) {
      long long p0 = (t % tiles_p) * Tile, q0 = (t / tiles_p) * Tile;
      // Read: consecutive threads step along p, where the source is contiguous.
#pragma unroll
      for (int i = 0; i < Tile; i += tile) {
        long long p = p0 + i + threadIdx.x;
#pragma unroll
        for (int j = 0; j < Tile; j += tile_rows) {
          long long q = q0 + threadIdx.y + j;
          if (p < a.np && q < a.nq) {
            buf[threadIdx.y + j][i + threadIdx.x] = *reinterpret_cast<const T*>(s + p * sizeof(T) + q * a.sq);
          }
        }
      }
      __syncthreads();
      // Write: consecutive threads step along q, where the destination is contiguous.
#pragma unroll
      for (int i = 0; i < Tile; i += tile) {
        long long q = q0 + i + threadIdx.x;
#pragma unroll
        for (int j = 0; j < Tile; j += tile_rows) {
          long long pp = p0 + threadIdx.y + j;
          if (pp < a.np && q < a.nq) {
            *reinterpret_cast<T*>(d + pp * a.dp + q * sizeof(T)) = buf[i + threadIdx.x][threadIdx.y + j];
          }
        }
      }
      __syncthreads();
    }
  }
}

// Note [constant pad].
template <class T>
__global__ void pad_constant_kernel(T* __restrict__ out, const char* __restrict__ in, pad_constant_layout l,
                                    long long rows) {
  const int last = l.ndim - 1;
  const long long row_len = l.out_shape[last], lo = l.before[last], n = l.in_shape[last], sl = l.in_strides[last];
  const T before = *reinterpret_cast<const T*>(l.values[last][0]);
  const T after = *reinterpret_cast<const T*>(l.values[last][1]);
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    long long rem = r, off = 0;
    int outside = -1, side = 0;  // the last outer axis on which the row lies outside the original area
    for (int d = last - 1; d >= 0; --d) {
      long long c = rem % l.out_shape[d] - l.before[d];
      rem /= l.out_shape[d];
      if (outside < 0 && (c < 0 || c >= l.in_shape[d])) {
        outside = d;
        side = c < 0 ? 0 : 1;
      }
      off += c * l.in_strides[d];
    }
    T* orow = out + r * row_len;
    if (outside >= 0) {
      // The last axis still owns its own before/after stretches.
      const T v = *reinterpret_cast<const T*>(l.values[outside][side]);
#pragma unroll 4
      for (long long j = threadIdx.x; j < row_len; j += blockDim.x)
        orow[j] = j < lo ? before : (j - lo >= n ? after : v);
    } else {
      const char* irow = in + off;
#pragma unroll 4
      for (long long j = threadIdx.x; j < row_len; j += blockDim.x) {
        long long ji = j - lo;
        orow[j] = ji < 0 ? before : (ji >= n ? after : *reinterpret_cast<const T*>(irow + ji * sl));
      }
    }
  }
}

template <class T>
__global__ void axis_map_kernel(char* __restrict__ dst, const char* __restrict__ src, axis_map_layout l,
                                const long long* __restrict__ dmap, const long long* __restrict__ smap,
                                long long total) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long k = i % l.inner;
    long long rest = i / l.inner;
    long long j = rest % l.m;
    long long o = rest / l.m;
    long long dj = dmap ? dmap[j] : j, sj = smap ? smap[j] : j;
    *reinterpret_cast<T*>(dst + o * l.dst_strides[0] + dj * l.dst_strides[1] + k * l.dst_strides[2]) =
        *reinterpret_cast<const T*>(src + o * l.src_strides[0] + sj * l.src_strides[1] + k * l.src_strides[2]);
  }
}

}  // namespace

bool try_launch_transpose_copy(const loop_layout& l, void* dst, const void* src, std::size_t itemsize,
                               cudaStream_t stream) {
  if (l.ndim != 2 && l.ndim != 3) return false;
  const long long isz = static_cast<long long>(itemsize);
  const int q = l.ndim - 1, p = l.ndim - 2;  // make_layout sorts by destination stride: q is innermost
  if (l.dst_strides[q] != isz || l.src_strides[p] != isz) return false;
  // Tiny tiles do not pay for the shared-memory round trip.
  if (l.shape[p] < 16 || l.shape[q] < 16) return false;
  transpose_arg a{l.shape[p], l.shape[q], 1, l.src_strides[q], l.dst_strides[p], 0, 0};
  if (l.ndim == 3) {
    a.nb = l.shape[0];
    a.sb = l.src_strides[0];
    a.db = l.dst_strides[0];
  }
  // Note [transpose tile]: 64x64 tiles (16 elements per thread in flight) for elements of up to 4 bytes on
  // large matrices; 32x32 otherwise (shared memory, and small matrices need the blocks).
  static const int forced = [] {
    const char* v = std::getenv("CUARRAY_TRANSPOSE_TILE");
    return v ? std::atoi(v) : 0;
  }();
  const int tile_size = forced == 32 || forced == 64                      ? forced
                        : (itemsize <= 4 && a.np >= 1024 && a.nq >= 1024) ? 64
                                                                          : 32;
  long long tiles = ((a.np + tile_size - 1) / tile_size) * ((a.nq + tile_size - 1) / tile_size);
  // Enough blocks to fill the device several times; the loops in the kernel cover the rest.
  long long gx = tiles < 65535 ? tiles : 65535;
  long long gy = (tiles + gx - 1) / gx;
  if (gy > 64) gy = 64;
  long long gz = a.nb < 65535 ? a.nb : 65535;
  if (gx * gy * gz > (1LL << 22)) gz = 1 + (1LL << 22) / (gx * gy);
  dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
  dim3 block(tile, tile_rows);
  dispatch_bytes(itemsize, [&](auto t) {
    using T = decltype(t);
    if constexpr (sizeof(T) <= 4) {
      if (tile_size == 64) {
        transpose_kernel<T, 64><<<grid, block, 0, stream>>>(static_cast<char*>(dst), static_cast<const char*>(src), a);
        return;
      }
    }
    transpose_kernel<T, tile><<<grid, block, 0, stream>>>(static_cast<char*>(dst), static_cast<const char*>(src), a);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
  return true;
}

void launch_axis_map_copy(const axis_map_layout& l, void* dst, const void* src, std::size_t itemsize,
                          const std::int64_t* dmap, const std::int64_t* smap, cudaStream_t stream) {
  long long total = l.outer * l.m * l.inner;
  if (total == 0) return;
  constexpr int block = 256;
  long long blocks = (total + block - 1) / block;
  if (blocks > 65536) blocks = 65536;
  dispatch_bytes(itemsize, [&](auto t) {
    using T = decltype(t);
    axis_map_kernel<T><<<static_cast<int>(blocks), block, 0, stream>>>(static_cast<char*>(dst),
                                                                       static_cast<const char*>(src), l,
                                                                       reinterpret_cast<const long long*>(dmap),
                                                                       reinterpret_cast<const long long*>(smap), total);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_pad_constant(const pad_constant_layout& l, void* dst, const void* src, std::size_t itemsize,
                         cudaStream_t stream) {
  long long rows = 1;
  for (int d = 0; d + 1 < l.ndim; ++d) rows *= l.out_shape[d];
  if (rows == 0 || l.out_shape[l.ndim - 1] == 0) return;
  long long blocks = rows < (1LL << 20) ? rows : (1LL << 20);
  dispatch_bytes(itemsize, [&](auto t) {
    using T = decltype(t);
    pad_constant_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(static_cast<T*>(dst),
                                                                              static_cast<const char*>(src), l, rows);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

namespace {

constexpr int join_block = 256;
constexpr int join_unroll = 4;
constexpr long long join_tile_bytes = 16LL * join_block * join_unroll;  // 16 KiB per block (rows copies)

// One tile of `bytes`: U vectors of type V a thread, read once (evict first) and written once.
template <class V, int U> __device__ __forceinline__ void join_tile(const char* src, char* dst, long long bytes) {
  const long long n = bytes / static_cast<long long>(sizeof(V));
  const V* s = reinterpret_cast<const V*>(src);
  V* d = reinterpret_cast<V*>(dst);
  V v[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = threadIdx.x + u * join_block;
    if (k < n) v[u] = __ldcs(s + k);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    long long k = threadIdx.x + u * join_block;
    if (k < n) __stcs(d + k, v[u]);
  }
}

// Calls f(V{}) with the widest vector type (16, 8, 4, 2 or 1 bytes) that `bits` (addresses, lengths and
// pitches ORed together) allows. Note [copy kernels per vector type]: each kernel is instantiated per type and
// chosen on the host; one kernel switching over the width at run time needed 110 to 194 registers for the sum of
// its branches, so one or two blocks fitted on a multiprocessor and the copies ran at 0.6-0.8 of the bandwidth.
template <class F> void dispatch_vector(std::uint64_t bits, F&& f) {
  if ((bits & 15) == 0) f(uint4{});
  else if ((bits & 7) == 0) f(uint2{});
  else if ((bits & 3) == 0) f(0u);
  else if ((bits & 1) == 0) f(static_cast<unsigned short>(0));
  else f(static_cast<unsigned char>(0));
}

struct join_args {
  join_segment seg[join_max_segments];
  int count;
};

// Note [batched join]: blockIdx.y picks the segment, and the x blocks stride over its vectors, one vector a thread
// per step: when the grid covers the segment (the usual case) each thread copies one vector and exits, which on
// an H200 joined 64 inputs of 4 MiB at 0.97 of cudaMemcpy's bandwidth (a block per 16 KiB tile with a search for
// its segment: 0.92). A segment of several rows finds its row with one division per vector. Load and store are
// plain ones. A streaming (evict-first) store cost 0.15-0.4% against PyTorch's cat when both joined the same
// inputs into the same output, in each of 8 placements of them on an H200 (tools/diag/join_lean23.py
// placements; on an H100 it cost 0-0.2%); block size (128 to 512), the loop and the index width moved the time
// by 0.2% or less, in no consistent direction. Grids capped at 2-8 waves with loops of 1-4 vectors a thread were
// 3-15% slower (tools/diag/join_forms23.py). The loop is not unrolled: unrolled by four, it began with its trip
// count, a 64-bit division in every thread, and the join measured 0.994-0.996x torch.cat on the same memory on
// an H200 (1.000-1.0007x without it).
template <class V> __global__ void __launch_bounds__(join_block) join_kernel(const __grid_constant__ join_args a) {
  const join_segment& g = a.seg[blockIdx.y];
  const long long row_vecs = g.row_bytes / static_cast<long long>(sizeof(V));
  const long long total = row_vecs * g.rows;
  const V* src = reinterpret_cast<const V*>(g.src);
  const long long step = static_cast<long long>(gridDim.x) * join_block;
#pragma unroll 1
  for (long long k = static_cast<long long>(blockIdx.x) * join_block + threadIdx.x; k < total; k += step) {
    long long row = g.rows == 1 ? 0 : k / row_vecs;
    V* dst = reinterpret_cast<V*>(g.dst + row * g.dst_pitch);
    dst[k - row * row_vecs] = src[k];
  }
}

}  // namespace

void launch_join_copy(const join_segment* segments, int count, cudaStream_t stream) {
  // The x blocks per segment: enough for one vector a thread in the largest segment, capped so that segments
  // much smaller than the largest do not launch many empty blocks (beyond the cap, threads loop).
  constexpr long long max_x_blocks = 4096;
  for (int start = 0; start < count; start += join_max_segments) {
    join_args a{};
    a.count = 0;
    std::uint64_t bits = 0;
    long long widest = 0;
    for (int i = start; i < count && i < start + join_max_segments; ++i) {
      const join_segment& g = segments[i];
      if (g.rows <= 0 || g.row_bytes <= 0) continue;
      bits |= reinterpret_cast<std::uintptr_t>(g.src) | reinterpret_cast<std::uintptr_t>(g.dst) |
              static_cast<std::uint64_t>(g.row_bytes) | static_cast<std::uint64_t>(g.dst_pitch);
      widest = std::max<long long>(widest, g.rows * g.row_bytes);
      a.seg[a.count++] = g;
    }
    if (a.count == 0) continue;
    dispatch_vector(bits, [&](auto v) {
      using V = decltype(v);
      long long vecs = widest / static_cast<long long>(sizeof(V));
      long long x = std::min<long long>((vecs + join_block - 1) / join_block, max_x_blocks);
      join_kernel<V><<<dim3(static_cast<unsigned>(x), static_cast<unsigned>(a.count)), join_block, 0, stream>>>(a);
    });
    CUARRAY_CUDA_CHECK(cudaGetLastError());
  }
}

namespace {

template <class V>
__global__ void __launch_bounds__(join_block)
    rows_copy_kernel(const __grid_constant__ rows_copy_layout l, char* dst, const char* src, long long tiles_per_row,
                     long long blocks) {
  const long long tile_bytes = join_tile_bytes / 16 * static_cast<long long>(sizeof(V));
  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {
    long long row = tiles_per_row == 1 ? blk : blk / tiles_per_row;
    long long off = (blk - row * tiles_per_row) * tile_bytes;
    long long d_off = 0, s_off = 0, r = row;
    for (int d = l.ndim - 1; d >= 0; --d) {
      long long c = r % l.shape[d];
      r /= l.shape[d];
      d_off += c * l.dst_strides[d];
      s_off += c * l.src_strides[d];
    }
    long long bytes = l.row_bytes - off < tile_bytes ? l.row_bytes - off : tile_bytes;
    join_tile<V, join_unroll>(src + s_off + off, dst + d_off + off, bytes);
  }
}

template <class E>
__global__ void repeat_flat_kernel(E* __restrict__ dst, const E* __restrict__ src, long long n, long long r,
                                   bool vectors) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    E v = src[i];
    E* out = dst + i * r;
    if (vectors) {
      union {
        E e[16 / sizeof(E)];
        uint4 q;
      } u;
#pragma unroll
      for (int j = 0; j < static_cast<int>(16 / sizeof(E)); ++j) u.e[j] = v;
      uint4* q = reinterpret_cast<uint4*>(out);
      const long long nq = r * static_cast<long long>(sizeof(E)) / 16;
      for (long long j = 0; j < nq; ++j) __stcs(q + j, u.q);
    } else {
      for (long long j = 0; j < r; ++j) out[j] = v;
    }
  }
}

}  // namespace

void launch_rows_copy(const rows_copy_layout& l, void* dst, const void* src, cudaStream_t stream) {
  long long rows = 1;
  for (int d = 0; d < l.ndim; ++d) rows *= l.shape[d];
  if (rows <= 0 || l.row_bytes <= 0) return;
  std::uint64_t bits = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) |
                       static_cast<std::uint64_t>(l.row_bytes);
  for (int d = 0; d < l.ndim; ++d) {
    bits |= static_cast<std::uint64_t>(l.dst_strides[d]) | static_cast<std::uint64_t>(l.src_strides[d]);
  }
  dispatch_vector(bits, [&](auto v) {
    using V = decltype(v);
    long long tile_bytes = join_tile_bytes / 16 * static_cast<long long>(sizeof(V));
    long long tiles = (l.row_bytes + tile_bytes - 1) / tile_bytes;
    long long blocks = rows * tiles;
    unsigned grid = static_cast<unsigned>(std::min<long long>(blocks, 1LL << 30));
    rows_copy_kernel<V>
        <<<grid, join_block, 0, stream>>>(l, static_cast<char*>(dst), static_cast<const char*>(src), tiles, blocks);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_repeat_flat(void* dst, const void* src, std::int64_t n, std::int64_t r, std::size_t itemsize,
                        cudaStream_t stream) {
  if (n <= 0 || r <= 0) return;
  const bool vectors = (r * static_cast<std::int64_t>(itemsize)) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
  const int threads = 256;
  unsigned grid = static_cast<unsigned>(std::min<long long>((n + threads - 1) / threads, 1LL << 30));
  dispatch_bytes(itemsize, [&](auto e) {
    using E = decltype(e);
    repeat_flat_kernel<E>
        <<<grid, threads, 0, stream>>>(static_cast<E*>(dst), static_cast<const E*>(src), n, r, vectors);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
