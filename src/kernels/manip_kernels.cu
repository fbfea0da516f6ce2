// Ahead-of-time kernels of array manipulation: tiled transposing copies and index-mapped copies along an axis.
#include <cuda_runtime.h>

#include <cstdint>

#include "src/cuda/check.hpp"
#include "src/kernels/manip_kernels.hpp"

namespace cuarray::detail {

namespace {

// Element types by size only: these kernels move bytes, never convert.
struct alignas(16) item16 {
  unsigned long long a, b;
};

template <class F>
void dispatch_size(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(static_cast<unsigned char>(0));
    case 2: return f(static_cast<unsigned short>(0));
    case 4: return f(0U);
    case 8: return f(0ULL);
    default: return f(item16{});
  }
}

constexpr int tile = 32;
constexpr int tile_rows = 8;  // a 32x8 block moves a 32x32 tile, four elements per thread

// Axis p: the source is contiguous along it; axis q: the destination is. Element (b, p, q) lives at
// src + b*sb + p*itemsize + q*sq and dst + b*db + p*dp + q*itemsize.
struct transpose_arg {
  long long np, nq, nb;
  long long sq, dp, sb, db;
};

template <class T>
__global__ void transpose_kernel(char* __restrict__ dst, const char* __restrict__ src, transpose_arg a) {
  __shared__ T buf[tile][tile + 1];
  const long long tiles_q = (a.nq + tile - 1) / tile, tiles_p = (a.np + tile - 1) / tile;
  const long long tiles = tiles_q * tiles_p;
  for (long long b = blockIdx.z; b < a.nb; b += gridDim.z) {
    const char* s = src + b * a.sb;
    char* d = dst + b * a.db;
    for (long long t = blockIdx.x + static_cast<long long>(blockIdx.y) * gridDim.x; t < tiles;
         t += static_cast<long long>(gridDim.x) * gridDim.y) {
      long long p0 = (t % tiles_p) * tile, q0 = (t / tiles_p) * tile;
      // Read: consecutive threads step along p, where the source is contiguous.
      long long p = p0 + threadIdx.x;
#pragma unroll
      for (int j = 0; j < tile; j += tile_rows) {
        long long q = q0 + threadIdx.y + j;
        if (p < a.np && q < a.nq) {
          buf[threadIdx.y + j][threadIdx.x] = *reinterpret_cast<const T*>(s + p * sizeof(T) + q * a.sq);
        }
      }
      __syncthreads();
      // Write: consecutive threads step along q, where the destination is contiguous.
      long long q = q0 + threadIdx.x;
#pragma unroll
      for (int j = 0; j < tile; j += tile_rows) {
        long long pp = p0 + threadIdx.y + j;
        if (pp < a.np && q < a.nq) {
          *reinterpret_cast<T*>(d + pp * a.dp + q * sizeof(T)) = buf[threadIdx.x][threadIdx.y + j];
        }
      }
      __syncthreads();
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
  long long tiles = ((a.np + tile - 1) / tile) * ((a.nq + tile - 1) / tile);
  // Enough blocks to fill the device several times; the loops in the kernel cover the rest.
  long long gx = tiles < 65535 ? tiles : 65535;
  long long gy = (tiles + gx - 1) / gx;
  if (gy > 64) gy = 64;
  long long gz = a.nb < 65535 ? a.nb : 65535;
  if (gx * gy * gz > (1LL << 22)) gz = 1 + (1LL << 22) / (gx * gy);
  dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
  dim3 block(tile, tile_rows);
  dispatch_size(itemsize, [&](auto t) {
    using T = decltype(t);
    transpose_kernel<T><<<grid, block, 0, stream>>>(static_cast<char*>(dst), static_cast<const char*>(src), a);
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
  dispatch_size(itemsize, [&](auto t) {
    using T = decltype(t);
    axis_map_kernel<T><<<static_cast<int>(blocks), block, 0, stream>>>(
        static_cast<char*>(dst), static_cast<const char*>(src), l, reinterpret_cast<const long long*>(dmap),
        reinterpret_cast<const long long*>(smap), total);
  });
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
