// Ahead-of-time kernels of the LU inverse and solve (Notes [inverse by right solves] and [solve by side],
// src/linalg/decomp_lu.cpp; Note [LAPACK solvers by side], src/linalg/lapack.cpp): getrf's row swaps replayed
// into P^T, p or p's inverse.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "src/cuda/check.hpp"
#include "src/kernels/linalg_kernels.hpp"

namespace cuarray::detail {

namespace {

constexpr int block = 256;
constexpr std::size_t default_shared = 48 * 1024;  // dynamic shared memory a block gets without opting in

// What a replay writes for each j: the one of P^T's column j (inv) or p[j] itself (solve).
template <class W> struct seed_out {
  W* b;
  W one;
  __device__ void operator()(long long m, long long n, long long j, int pj) const { b[(m * n + j) * n + pj] = one; }
  void advance(long long matrices, long long n) { b += matrices * n * n; }
};
struct perm_out {
  long long* p;
  bool inverse;
  __device__ void operator()(long long m, long long n, long long j, int pj) const {
    if (inverse) {
      p[m * n + pj] = j;
    } else {
      p[m * n + j] = pj;
    }
  }
  void advance(long long matrices, long long n) { p += matrices * n; }
};

// One block a matrix. The pivots come into shared memory with coalesced loads; one thread replays the swaps,
// which depend on each other (a swap may move what an earlier one placed), on a shared copy of 0..n-1; then the
// block writes the result. The replay is serial, n steps of shared-memory loads and stores, little next to the
// solves' n^2 k multiply-adds that follow.
template <class Out>
__global__ void __launch_bounds__(block) pivot_replay_kernel(const long long* ipiv, long long n, Out out) {
  extern __shared__ int shared[];
  int* perm = shared;
  int* piv = shared + n;
  const long long m = blockIdx.x;
  const long long* src = ipiv + m * n;
  for (long long i = threadIdx.x; i < n; i += block) {
    perm[i] = static_cast<int>(i);
    piv[i] = static_cast<int>(src[i] - 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < static_cast<int>(n); ++i) {
      const int k = piv[i];
      if (k != i && k >= 0 && k < n) {
        const int t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
      }
    }
  }
  __syncthreads();
  for (long long j = threadIdx.x; j < n; j += block) out(m, n, j, perm[j]);
}

template <class Out>
void launch_replay(const std::int64_t* ipiv, std::int64_t batch, std::int64_t n, Out out, cudaStream_t stream) {
  if (batch <= 0 || n <= 0) return;
  const std::size_t bytes = 8 * static_cast<std::size_t>(n);
  auto kernel = pivot_replay_kernel<Out>;
  if (bytes > default_shared) {
    CUARRAY_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
  constexpr std::int64_t max_blocks = (1LL << 31) - 1;
  for (std::int64_t start = 0; start < batch; start += max_blocks) {
    const std::int64_t count = std::min(batch - start, max_blocks);
    kernel<<<static_cast<unsigned>(count), block, bytes, stream>>>(reinterpret_cast<const long long*>(ipiv) + start * n,
                                                                   n, out);
    out.advance(count, n);
  }
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

template <class W>
void launch_seed(const std::int64_t* ipiv, void* b, std::int64_t batch, std::int64_t n, const unsigned char* one,
                 cudaStream_t stream) {
  seed_out<W> out{static_cast<W*>(b), {}};
  std::memcpy(&out.one, one, sizeof(W));
  launch_replay(ipiv, batch, n, out, stream);
}

__global__ void matrix_pointers_kernel(const char* base, long long stride, long long batch, void** out) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < batch) out[i] = const_cast<char*>(base) + i * stride;
}

}  // namespace

void launch_matrix_pointers(const void* base, std::int64_t stride_bytes, std::int64_t batch, void** out,
                            cudaStream_t stream) {
  if (batch <= 0) return;
  const std::int64_t blocks = (batch + block - 1) / block;  // batch < 2^31 matrices: cuBLAS's counts are int
  matrix_pointers_kernel<<<static_cast<unsigned>(blocks), block, 0, stream>>>(static_cast<const char*>(base),
                                                                              stride_bytes, batch, out);
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

std::int64_t pivot_seed_max_n(int device) {
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return static_cast<std::int64_t>(std::max<int>(optin, 0)) / 8;
}

void launch_pivot_seed(const std::int64_t* ipiv, void* b, std::int64_t batch, std::int64_t n, std::size_t itemsize,
                       const unsigned char* one, cudaStream_t stream) {
  switch (itemsize) {
    case 4: launch_seed<unsigned>(ipiv, b, batch, n, one, stream); break;
    case 8: launch_seed<unsigned long long>(ipiv, b, batch, n, one, stream); break;
    case 16: launch_seed<uint4>(ipiv, b, batch, n, one, stream); break;
    default: throw std::logic_error("launch_pivot_seed: element size must be 4, 8 or 16 bytes");
  }
}

void launch_pivot_permutation(const std::int64_t* ipiv, std::int64_t* perm, std::int64_t batch, std::int64_t n,
                              cudaStream_t stream, bool inverse) {
  launch_replay(ipiv, batch, n, perm_out{reinterpret_cast<long long*>(perm), inverse}, stream);
}

}  // namespace cuarray::detail
