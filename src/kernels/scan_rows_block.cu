// Row-wise inclusive scans of many long rows with one block per row (Note [row scan]).
#include <climits>

#include "src/kernels/scan_impl.cuh"

namespace cuarray::detail {

// Note [row scan]
// cumsum/cumprod along a contiguous last axis of many rows (cumsum(x, axis=1) of a large matrix, and any other
// axis after the transpose to last) ran as CUB's scan-by-key over the flat array, which compares the row of
// every pair of neighbours and reached about 40% of the copy bandwidth. Here one block owns a row: it reads
// the row in sub-chunks of 16 bytes per thread (several sub-chunks loaded before the first is scanned, so that
// enough bytes are in flight), scans each sub-chunk in registers, across the warp by shuffles and across the
// block's warps through shared memory, adds the running carry of the row, and writes the sub-chunk back. Every
// element is read once and written once. The first element of a row is never combined with an identity (no
// 0 + -0.0 or (1 + 0j) * (inf j) that would change it): prefixes that do not exist are left out. Rows shorter
// than one sub-chunk, or too few rows to fill the device, stay with CUB.

namespace {

constexpr int row_block = 256;
constexpr int row_warps = row_block / 32;
constexpr int row_unroll = 4;  // sub-chunks in flight per thread

template <class T> __device__ __forceinline__ T shfl_up(T v, int d) { return __shfl_up_sync(0xffffffffu, v, d); }
__device__ __forceinline__ scan_impl::c64 shfl_up(scan_impl::c64 v, int d) {
  return {__shfl_up_sync(0xffffffffu, v.re, d), __shfl_up_sync(0xffffffffu, v.im, d)};
}
__device__ __forceinline__ scan_impl::c128 shfl_up(scan_impl::c128 v, int d) {
  return {__shfl_up_sync(0xffffffffu, v.re, d), __shfl_up_sync(0xffffffffu, v.im, d)};
}

template <class T> struct alignas(16) row_vec { T v[16 / sizeof(T)]; };
template <class T> union row_vec_bits {
  uint4 u;
  row_vec<T> v;
};

template <class T, class Op>
__global__ void __launch_bounds__(row_block)
    scan_rows_block_kernel(const T* __restrict__ in, T* __restrict__ out, long long rows, long long len, int vec) {
  constexpr int IV = static_cast<int>(16 / sizeof(T));  // elements per thread per sub-chunk
  constexpr long long SUB = static_cast<long long>(row_block) * IV;
  __shared__ alignas(16) T totals[2][row_warps];
  const Op op{};
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int buf = 0;
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* src = in + r * len;
    T* dst = out + r * len;
    T carry{};
    bool has_carry = false;
    for (long long base = 0; base < len; base += SUB * row_unroll) {
      T v[row_unroll][IV];
#pragma unroll
      for (int u = 0; u < row_unroll; ++u) {
        const long long i0 = base + u * SUB + static_cast<long long>(threadIdx.x) * IV;
        if (vec && i0 + IV <= len) {
          row_vec_bits<T> b;
          b.u = __ldcs(reinterpret_cast<const uint4*>(src + i0));  // read once: evict first
#pragma unroll
          for (int k = 0; k < IV; ++k) v[u][k] = b.v.v[k];
        } else {
#pragma unroll
          for (int k = 0; k < IV; ++k) v[u][k] = i0 + k < len ? src[i0 + k] : T{};  // padding: only after the row
        }
      }
#pragma unroll
      for (int u = 0; u < row_unroll; ++u) {
        if (base + u * SUB >= len) break;  // block-uniform
#pragma unroll
        for (int k = 1; k < IV; ++k) v[u][k] = op(v[u][k - 1], v[u][k]);
        T incl = v[u][IV - 1];
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
          T y = shfl_up(incl, d);
          if (lane >= d) incl = op(y, incl);
        }
        T excl = shfl_up(incl, 1);
        if (lane == 31) totals[buf][warp] = incl;
        __syncthreads();  // totals[buf] were last read two sub-chunks ago, before the previous barrier
        T tv[row_warps];  // one read of the warp totals per thread, kept in registers for both uses below
#pragma unroll
        for (int w = 0; w < row_warps; ++w) tv[w] = totals[buf][w];
        bool has = has_carry;
        T pre = carry;
#pragma unroll
        for (int w = 0; w < row_warps; ++w) {
          if (w < warp) {
            pre = has ? op(pre, tv[w]) : tv[w];
            has = true;
          }
        }
        if (lane > 0) {
          pre = has ? op(pre, excl) : excl;
          has = true;
        }
        if (has) {
#pragma unroll
          for (int k = 0; k < IV; ++k) v[u][k] = op(pre, v[u][k]);
        }
#pragma unroll
        for (int w = 0; w < row_warps; ++w) {
          carry = has_carry ? op(carry, tv[w]) : tv[w];
          has_carry = true;
        }
        buf ^= 1;
        const long long i0 = base + u * SUB + static_cast<long long>(threadIdx.x) * IV;
        if (vec && i0 + IV <= len) {
          row_vec_bits<T> b;
#pragma unroll
          for (int k = 0; k < IV; ++k) b.v.v[k] = v[u][k];
          *reinterpret_cast<uint4*>(dst + i0) = b.u;
        } else {
#pragma unroll
          for (int k = 0; k < IV; ++k) {
            if (i0 + k < len) dst[i0 + k] = v[u][k];
          }
        }
      }
    }
  }
}

template <class T, class Op>
bool run_rows_block(const void* in, void* out, std::int64_t n, std::int64_t row, cudaStream_t s) {
  constexpr long long IV = static_cast<long long>(16 / sizeof(T));
  const long long rows = n / row;
  // One block per row pays off when the rows fill the device and each has at least one whole sub-chunk.
  if (row < row_block * IV || rows < 512) return false;
  const bool vec = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0 &&
                   (row * static_cast<long long>(sizeof(T))) % 16 == 0;
  const int grid = static_cast<int>(rows < INT_MAX ? rows : INT_MAX);
  scan_rows_block_kernel<T, Op>
      <<<grid, row_block, 0, s>>>(static_cast<const T*>(in), static_cast<T*>(out), rows, row, vec ? 1 : 0);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
  return true;
}

}  // namespace

bool launch_scan_rows_block(scan_type t, scan_op op, const void* in, void* out, std::int64_t n, std::int64_t row,
                            cudaStream_t stream) {
  bool done = false;
  scan_impl::dispatch_scan_type(t, [&](auto z) {
    using T = decltype(z);
    done = op == scan_op::sum ? run_rows_block<T, scan_impl::add_op>(in, out, n, row, stream)
                              : run_rows_block<T, scan_impl::mul_op>(in, out, n, row, stream);
  });
  return done;
}

}  // namespace cuarray::detail
