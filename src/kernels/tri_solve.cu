// The one-kernel triangular solve of cuarray.scipy.linalg's solve_triangular, cho_solve and lu_solve for few
// right-hand sides (Note [one-kernel triangular solves], src/linalg/lapack.cpp).
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "src/cuda/check.hpp"
#include "src/kernels/linalg_kernels.hpp"

namespace cuarray::detail {

namespace {

constexpr int rows = 32;      // rows of a chunk, one block's share of a matrix
constexpr int cols = 16;      // right-hand sides of a column tile
constexpr int threads = 256;  // 32 rows x 8 lanes of two columns each; 8 warps of two columns in the diagonal step
constexpr int tile_loads = rows * rows / threads;
constexpr int x_loads = rows * cols / threads;
static_assert(threads == rows * cols / 2 && threads / 32 * 2 == cols, "the thread layout below");

struct alignas(8) c64 {
  float re, im;
};
struct alignas(16) c128 {
  double re, im;
};

template <class T> __device__ __forceinline__ T zero() { return T{}; }
template <class T> __device__ __forceinline__ T one();
template <> __device__ __forceinline__ float one<float>() { return 1.0f; }
template <> __device__ __forceinline__ double one<double>() { return 1.0; }
template <> __device__ __forceinline__ c64 one<c64>() { return c64{1.0f, 0.0f}; }
template <> __device__ __forceinline__ c128 one<c128>() { return c128{1.0, 0.0}; }

__device__ __forceinline__ float conj_of(float v) { return v; }
__device__ __forceinline__ double conj_of(double v) { return v; }
__device__ __forceinline__ c64 conj_of(c64 v) { return c64{v.re, -v.im}; }
__device__ __forceinline__ c128 conj_of(c128 v) { return c128{v.re, -v.im}; }

// acc - a b
__device__ __forceinline__ float sub_mul(float acc, float a, float b) { return fmaf(-a, b, acc); }
__device__ __forceinline__ double sub_mul(double acc, double a, double b) { return fma(-a, b, acc); }
__device__ __forceinline__ c64 sub_mul(c64 acc, c64 a, c64 b) {
  return c64{fmaf(-a.re, b.re, fmaf(a.im, b.im, acc.re)), fmaf(-a.re, b.im, fmaf(-a.im, b.re, acc.im))};
}
__device__ __forceinline__ c128 sub_mul(c128 acc, c128 a, c128 b) {
  return c128{fma(-a.re, b.re, fma(a.im, b.im, acc.re)), fma(-a.re, b.im, fma(-a.im, b.re, acc.im))};
}

// a b, and acc + a b
__device__ __forceinline__ float mul(float a, float b) { return a * b; }
__device__ __forceinline__ double mul(double a, double b) { return a * b; }
__device__ __forceinline__ c64 mul(c64 a, c64 b) { return c64{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
__device__ __forceinline__ c128 mul(c128 a, c128 b) {
  return c128{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__device__ __forceinline__ float add_mul(float acc, float a, float b) { return fmaf(a, b, acc); }
__device__ __forceinline__ double add_mul(double acc, double a, double b) { return fma(a, b, acc); }
__device__ __forceinline__ c64 add_mul(c64 acc, c64 a, c64 b) {
  return c64{fmaf(a.re, b.re, fmaf(-a.im, b.im, acc.re)), fmaf(a.re, b.im, fmaf(a.im, b.re, acc.im))};
}
__device__ __forceinline__ c128 add_mul(c128 acc, c128 a, c128 b) {
  return c128{fma(a.re, b.re, fma(-a.im, b.im, acc.re)), fma(a.re, b.im, fma(a.im, b.re, acc.im))};
}

// a / b; complex by Smith's scaling, which keeps |b|^2 from overflowing. A zero b gives infinities or NaN, as
// LAPACK's trsm does (the callers read x's finiteness for the singular case).
__device__ __forceinline__ float divide(float a, float b) { return a / b; }
__device__ __forceinline__ double divide(double a, double b) { return a / b; }
template <class C, class R> __device__ __forceinline__ C complex_divide(C a, C b) {
  if (fabs(b.re) >= fabs(b.im)) {
    const R r = b.im / b.re, d = b.re + b.im * r;
    return C{(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  const R r = b.re / b.im, d = b.im + b.re * r;
  return C{(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
__device__ __forceinline__ c64 divide(c64 a, c64 b) { return complex_divide<c64, float>(a, b); }
__device__ __forceinline__ c128 divide(c128 a, c128 b) { return complex_divide<c128, double>(a, b); }

__device__ __forceinline__ float shuffle(float v, int lane) { return __shfl_sync(0xffffffffu, v, lane); }
__device__ __forceinline__ double shuffle(double v, int lane) { return __shfl_sync(0xffffffffu, v, lane); }
__device__ __forceinline__ c64 shuffle(c64 v, int lane) { return c64{shuffle(v.re, lane), shuffle(v.im, lane)}; }
__device__ __forceinline__ c128 shuffle(c128 v, int lane) { return c128{shuffle(v.re, lane), shuffle(v.im, lane)}; }

// Loads that skip the SM's L1 cache, which does not see other blocks' stores: another chunk's solution.
__device__ __forceinline__ float load_global(const float* p) { return __ldcg(p); }
__device__ __forceinline__ double load_global(const double* p) { return __ldcg(p); }
__device__ __forceinline__ c64 load_global(const c64* p) {
  const float2 v = __ldcg(reinterpret_cast<const float2*>(p));
  return c64{v.x, v.y};
}
__device__ __forceinline__ c128 load_global(const c128* p) {
  const double2 v = __ldcg(reinterpret_cast<const double2*>(p));
  return c128{v.x, v.y};
}

struct params {
  tri_solve_args a;
  long long chunks, tiles;  // per matrix: row chunks, column tiles
  bool reverse, row_fast;
  unsigned long long* sync;
};

// Solves the lower triangular system L X = B of one column tile, 32 rows a block, in the order of the tickets
// the blocks draw (Note [one-kernel triangular solves]): rows i of L, B and X are rows n - 1 - i of op(T), B and
// X where `reverse` (an upper op(T)). The diagonal block is inverted while the block waits, so that the chain
// from chunk to chunk holds two small products and no divisions.
template <class T> __global__ void __launch_bounds__(threads) tri_solve_kernel(params p) {
  __shared__ T ts[rows][rows + 1];  // L's block of the chunk being subtracted
  __shared__ T td[rows][rows + 1];  // L's diagonal block, loaded first: off the chain of waits
  __shared__ T xs[rows][cols];
  __shared__ long long ticket;
  const int tid = static_cast<int>(threadIdx.x);
  if (tid == 0) ticket = static_cast<long long>(atomicAdd(p.sync, 1ULL));
  __syncthreads();
  const long long chunk = ticket % p.chunks, tile = ticket / p.chunks % p.tiles, mat = ticket / p.chunks / p.tiles;
  int* flags = reinterpret_cast<int*>(p.sync + 1) + (mat * p.tiles + tile) * p.chunks;
  const T* t = static_cast<const T*>(p.a.t) + mat * p.a.t_mat;
  const T* b = static_cast<const T*>(p.a.b) + mat * p.a.b_mat;
  T* x = static_cast<T*>(p.a.x) + mat * p.a.n * p.a.k;
  const std::int64_t* b_rows = p.a.b_rows ? p.a.b_rows + mat * p.a.n : nullptr;
  const long long n = p.a.n, k = p.a.k, r0 = chunk * rows, c0 = tile * cols;
  auto row_of = [&](long long i) { return p.reverse ? n - 1 - i : i; };
  // L's 32 x 32 block at rows i0, columns j0; outside the matrix zero, with ones on the diagonal.
  auto load_tile = [&](T(*dst)[rows + 1], long long i0, long long j0) {
#pragma unroll
    for (int q = 0; q < tile_loads; ++q) {
      const int e = tid + threads * q, major = e / rows, minor = e % rows;
      const int ii = p.row_fast ? minor : major, jj = p.row_fast ? major : minor;
      const long long i = i0 + ii, j = j0 + jj;
      T v = i == j ? one<T>() : zero<T>();
      if (i < n && j < n) {
        v = t[row_of(i) * p.a.t_row + row_of(j) * p.a.t_col];
        if (p.a.conj) v = conj_of(v);
      }
      dst[ii][jj] = v;
    }
  };
  load_tile(td, r0, r0);
  __syncthreads();
  const int warp = tid / 32, lane = tid % 32;
  {
    // td becomes L's diagonal block's inverse, before any wait: a warp's four columns by substitution on e_j
    // with the reciprocals of the diagonal, held in registers until every warp has read td.
    const T recip = p.a.unit ? one<T>() : divide(one<T>(), td[lane][lane]);
    T inv[rows / (threads / 32)];
#pragma unroll
    for (int q = 0; q < rows / (threads / 32); ++q) {
      const int col = warp + q * (threads / 32);
      T v = lane == col ? one<T>() : zero<T>();
      for (int m = col; m < rows; ++m) {
        const T ym = mul(shuffle(v, m), shuffle(recip, m));
        if (lane == m) {
          v = ym;
        } else if (lane > m) {
          v = sub_mul(v, td[lane][m], ym);
        }
      }
      inv[q] = v;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < rows / (threads / 32); ++q) td[lane][warp + q * (threads / 32)] = inv[q];
  }
  const int r = tid / (cols / 2), lane8 = tid % (cols / 2);
  T acc[2];
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    const long long i = r0 + r, c = c0 + lane8 + q * (cols / 2);
    acc[q] = zero<T>();
    if (i < n && c < k) {
      const long long src = b_rows ? b_rows[row_of(i)] : row_of(i);
      acc[q] = b[src * p.a.b_row + c * p.a.b_col];
    }
  }
  for (long long j = 0; j < chunk; ++j) {
    load_tile(ts, r0, j * rows);  // L's part does not wait for chunk j's solution
    if (tid == 0) {
      const volatile int* flag = flags + j;
      while (*flag == 0) {
      }
      __threadfence();
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < x_loads; ++q) {
      const int e = tid + threads * q, xr = e / cols, xc = e % cols;
      const long long c = c0 + xc;
      xs[xr][xc] = c < k ? load_global(x + row_of(j * rows + xr) * k + c) : zero<T>();
    }
    __syncthreads();
#pragma unroll 8
    for (int q = 0; q < rows; ++q) {
      const T l = ts[r][q];
      acc[0] = sub_mul(acc[0], l, xs[q][lane8]);
      acc[1] = sub_mul(acc[1], l, xs[q][lane8 + cols / 2]);
    }
    __syncthreads();
  }
  // The diagonal block: X = L_tt^-1 (what is left of B), a product like the updates above.
  xs[r][lane8] = acc[0];
  xs[r][lane8 + cols / 2] = acc[1];
  __syncthreads();
  T out[2] = {zero<T>(), zero<T>()};
#pragma unroll 8
  for (int q = 0; q <= r; ++q) {
    const T l = td[r][q];
    out[0] = add_mul(out[0], l, xs[q][lane8]);
    out[1] = add_mul(out[1], l, xs[q][lane8 + cols / 2]);
  }
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    const long long i = r0 + r, c = c0 + lane8 + q * (cols / 2);
    if (i < n && c < k) x[row_of(i) * k + c] = out[q];
  }
  __threadfence();
  __syncthreads();
  if (tid == 0) atomicExch(flags + chunk, 1);
}

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

}  // namespace

std::size_t tri_solve_scratch_bytes(std::int64_t batch, std::int64_t n, std::int64_t k) {
  return 8 + 4 * static_cast<std::size_t>(batch * ceil_div(n, rows) * ceil_div(k, cols));
}

bool tri_solve_fits(std::int64_t batch, std::int64_t n, std::int64_t k) {
  if (batch <= 0 || n <= 0 || k <= 0) return true;
  const long long chunks = ceil_div(n, rows), tiles = ceil_div(k, cols);
  return batch <= std::numeric_limits<int>::max() / chunks / tiles;
}

void launch_tri_solve(const tri_solve_args& a, void* scratch, cudaStream_t stream) {
  if (a.batch <= 0 || a.n <= 0 || a.k <= 0) return;
  if (!tri_solve_fits(a.batch, a.n, a.k)) throw std::length_error("launch_tri_solve: too many blocks");
  params p;
  p.a = a;
  p.chunks = ceil_div(a.n, rows);
  p.tiles = ceil_div(a.k, cols);
  p.reverse = !a.lower;
  // Coalesced tile loads: consecutive threads take consecutive rows where rows are nearer in memory.
  p.row_fast = (a.t_row < 0 ? -a.t_row : a.t_row) < (a.t_col < 0 ? -a.t_col : a.t_col);
  p.sync = static_cast<unsigned long long*>(scratch);
  CUARRAY_CUDA_CHECK(cudaMemsetAsync(scratch, 0, tri_solve_scratch_bytes(a.batch, a.n, a.k), stream));
  const unsigned blocks = static_cast<unsigned>(a.batch * p.chunks * p.tiles);
  switch (a.complex ? -a.itemsize : a.itemsize) {
    case 4: tri_solve_kernel<float><<<blocks, threads, 0, stream>>>(p); break;
    case 8: tri_solve_kernel<double><<<blocks, threads, 0, stream>>>(p); break;
    case -8: tri_solve_kernel<c64><<<blocks, threads, 0, stream>>>(p); break;
    case -16: tri_solve_kernel<c128><<<blocks, threads, 0, stream>>>(p); break;
    default: throw std::invalid_argument("launch_tri_solve: float32, float64, complex64 or complex128 only");
  }
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
