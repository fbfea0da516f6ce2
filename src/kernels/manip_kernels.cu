// Ahead-of-time kernels of array manipulation: tiled transposing copies and index-mapped copies along an axis.
#include <cuda_runtime.h>

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
      for (long long j = threadIdx.x; j < row_len; j += blockDim.x) orow[j] = j < lo ? before : (j - lo >= n ? after : v);
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
  const int tile_size = forced == 32 || forced == 64 ? forced
                        : (itemsize <= 4 && a.np >= 1024 && a.nq >= 1024) ? 64 : 32;
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
    axis_map_kernel<T><<<static_cast<int>(blocks), block, 0, stream>>>(
        static_cast<char*>(dst), static_cast<const char*>(src), l, reinterpret_cast<const long long*>(dmap),
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

}  // namespace cuarray::detail
