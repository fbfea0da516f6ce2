// Random distributions that loop per output (gamma, beta, binomial, Poisson, hypergeometric, multinomial).
#include <cuda_runtime.h>

#include <cstdint>

#include "src/cuda/check.hpp"
#include "src/kernels/random_kernels.hpp"
#include "src/kernels/random_philox.cuh"

namespace cuarray::detail::rng {

namespace {

// Rejection loops diverge within a warp; smaller blocks keep more independent warps per SM.
constexpr int block_size = 128;
constexpr long long max_blocks = 65536;

__device__ __forceinline__ double param_at(const param& p, long long i) { return p.ptr ? p.ptr[i] : p.value; }

// Integer parameters arrive as float64 (exact below 2^53); the float-to-int conversion saturates.
__device__ __forceinline__ long long as_count(double v) { return static_cast<long long>(v); }

template <dist D, class T>
__global__ void __launch_bounds__(block_size) element_kernel(T* out, long long n, unsigned long long key,
                                                             unsigned long long offset, param p0, param p1, param p2) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    element_stream s(key, offset + static_cast<unsigned long long>(i));
    if constexpr (D == dist::gamma) {
      out[i] = static_cast<T>(param_at(p1, i) * sample_gamma(s, param_at(p0, i)));
    } else if constexpr (D == dist::beta) {
      out[i] = static_cast<T>(sample_beta(s, param_at(p0, i), param_at(p1, i)));
    } else if constexpr (D == dist::chisquare) {
      out[i] = static_cast<T>(2.0 * sample_gamma(s, 0.5 * param_at(p0, i)));
    } else if constexpr (D == dist::binomial) {
      out[i] = static_cast<T>(sample_binomial(s, as_count(param_at(p0, i)), param_at(p1, i)));
    } else if constexpr (D == dist::poisson) {
      out[i] = static_cast<T>(sample_poisson(s, param_at(p0, i)));
    } else {
      out[i] = static_cast<T>(
          sample_hypergeometric(s, as_count(param_at(p0, i)), as_count(param_at(p1, i)), as_count(param_at(p2, i))));
    }
  }
}

__global__ void __launch_bounds__(block_size)
    multinomial_kernel(long long* out, long long rows, long long k, unsigned long long key, unsigned long long offset,
                       const double* n, const double* pvals) {
  for (long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<long long>(gridDim.x) * blockDim.x) {
    element_stream s(key, offset + static_cast<unsigned long long>(r));
    long long left = as_count(n[r]);
    double remaining_p = 1.0;
    const double* p = pvals + r * k;
    long long* o = out + r * k;
    for (long long j = 0; j < k - 1; ++j) {
      long long x = 0;
      if (left > 0 && remaining_p > 0) {
        double q = p[j] / remaining_p;
        x = sample_binomial(s, left, q < 0 ? 0 : (q > 1 ? 1 : q));
      }
      o[j] = x;
      left -= x;
      remaining_p -= p[j];
    }
    if (k > 0) o[k - 1] = left > 0 ? left : 0;
  }
}

unsigned grid(long long n) {
  long long blocks = (n + block_size - 1) / block_size;
  if (blocks > max_blocks) blocks = max_blocks;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

template <dist D, class T>
void launch(void* out, long long n, std::uint64_t key, std::uint64_t offset, const param* p, cudaStream_t s) {
  element_kernel<D, T><<<grid(n), block_size, 0, s>>>(static_cast<T*>(out), n, key, offset, p[0], p[1], p[2]);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_element_dist(dist d, void* out, dtype t, std::int64_t n, std::uint64_t key, std::uint64_t offset,
                         const param* p, cudaStream_t s) {
  switch (d) {
    case dist::gamma:
      return t == dtype::float32 ? launch<dist::gamma, float>(out, n, key, offset, p, s)
                                 : launch<dist::gamma, double>(out, n, key, offset, p, s);
    case dist::beta: return launch<dist::beta, double>(out, n, key, offset, p, s);
    case dist::chisquare: return launch<dist::chisquare, double>(out, n, key, offset, p, s);
    case dist::binomial: return launch<dist::binomial, long long>(out, n, key, offset, p, s);
    case dist::poisson: return launch<dist::poisson, long long>(out, n, key, offset, p, s);
    case dist::hypergeometric: return launch<dist::hypergeometric, long long>(out, n, key, offset, p, s);
    default: break;
  }
}

void launch_multinomial(std::int64_t* out, std::int64_t rows, std::int64_t k, std::uint64_t key, std::uint64_t offset,
                        const double* n, const double* pvals, cudaStream_t s) {
  if (rows <= 0) return;
  multinomial_kernel<<<grid(rows), block_size, 0, s>>>(reinterpret_cast<long long*>(out), rows, k, key, offset, n,
                                                       pvals);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail::rng
