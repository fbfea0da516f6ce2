// Ahead-of-time kernels behind nonzero, boolean-mask indexing and extract: counts, CUB selects, gathers.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <stdexcept>

#include "src/cuda/check.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/select_kernels.hpp"

namespace cuarray::detail {

namespace {

// A bool byte may hold any value (views of uint8 data): normalise before CUB counts or offsets with it.
struct is_set {
  __host__ __device__ bool operator()(unsigned char b) const { return b != 0; }
};
struct as_count {
  __host__ __device__ long long operator()(unsigned char b) const { return b != 0 ? 1 : 0; }
};

using flag_iterator = thrust::transform_iterator<is_set, const unsigned char*>;

template <class T, class In>
void select(In in, const unsigned char* flags, T* out, std::int64_t* d_selected, std::int64_t n,
            scratch_allocator& scratch, cudaStream_t s) {
  flag_iterator f(flags, is_set{});
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, in, f, out, d_selected, n, s));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(cub::DeviceSelect::Flagged(temp, bytes, in, f, out, d_selected, n, s));
}

constexpr int block = 256;

int grid_for(long long n) {
  long long blocks = (n + block - 1) / block;
  if (blocks > 65536) blocks = 65536;  // grid-stride loops cover the rest
  return static_cast<int>(blocks < 1 ? 1 : blocks);
}

struct unravel_arg {
  int ndim;
  long long shape[64];
};

__global__ void unravel_kernel(const long long* flat, long long count, unravel_arg a, long long* out) {
  for (long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long i = flat[k];
    for (int d = a.ndim - 1; d >= 0; --d) {
      long long q = i / a.shape[d];
      out[d * count + k] = i - q * a.shape[d];
      i = q;
    }
  }
}

template <class T>
__global__ void gather_rows_kernel(const T* in, const long long* rows, long long count, long long row_len, T* out) {
  long long total = count * row_len;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long k = i / row_len, j = i - k * row_len;
    out[i] = in[rows[k] * row_len + j];
  }
}

}  // namespace

void launch_count_flags(const unsigned char* flags, std::int64_t n, std::int64_t* d_count, scratch_allocator& scratch,
                        cudaStream_t s) {
  thrust::transform_iterator<as_count, const unsigned char*> in(flags, as_count{});
  auto* out = reinterpret_cast<long long*>(d_count);
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in, out, n, s));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(cub::DeviceReduce::Sum(temp, bytes, in, out, n, s));
}

void launch_select_flagged(std::size_t width, const void* in, const unsigned char* flags, void* out,
                           std::int64_t* d_selected, std::int64_t n, scratch_allocator& scratch, cudaStream_t s) {
  switch (width) {
    case 1:
      return select(static_cast<const unsigned char*>(in), flags, static_cast<unsigned char*>(out), d_selected, n,
                    scratch, s);
    case 2:
      return select(static_cast<const unsigned short*>(in), flags, static_cast<unsigned short*>(out), d_selected, n,
                    scratch, s);
    case 4:
      return select(static_cast<const unsigned int*>(in), flags, static_cast<unsigned int*>(out), d_selected, n,
                    scratch, s);
    case 8:
      return select(static_cast<const unsigned long long*>(in), flags, static_cast<unsigned long long*>(out),
                    d_selected, n, scratch, s);
    case 16:
      return select(static_cast<const bytes16*>(in), flags, static_cast<bytes16*>(out), d_selected, n, scratch, s);
    default: throw std::logic_error("launch_select_flagged: unsupported element width");
  }
}

void launch_select_indices(const unsigned char* flags, std::int64_t* out, std::int64_t* d_selected, std::int64_t n,
                           scratch_allocator& scratch, cudaStream_t s) {
  thrust::counting_iterator<long long> idx(0);
  select(idx, flags, reinterpret_cast<long long*>(out), d_selected, n, scratch, s);
}

void launch_unravel(const std::int64_t* flat, std::int64_t count, int ndim, const std::int64_t* shape,
                    std::int64_t* out, cudaStream_t s) {
  if (count <= 0) return;
  unravel_arg a;
  a.ndim = ndim;
  for (int d = 0; d < ndim; ++d) a.shape[d] = shape[d];
  unravel_kernel<<<grid_for(count), block, 0, s>>>(reinterpret_cast<const long long*>(flat), count, a,
                                                   reinterpret_cast<long long*>(out));
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

void launch_gather_rows(const void* in, const std::int64_t* rows, std::int64_t count, std::int64_t row_bytes, void* out,
                        cudaStream_t s) {
  if (count <= 0 || row_bytes <= 0) return;
  auto r = reinterpret_cast<const long long*>(rows);
  // The widest unit that divides the row and both addresses (pool blocks are 512-byte aligned).
  auto aligned = [&](std::int64_t w) {
    return row_bytes % w == 0 && reinterpret_cast<std::uintptr_t>(in) % w == 0 &&
           reinterpret_cast<std::uintptr_t>(out) % w == 0;
  };
  auto run = [&](auto unit) {
    using T = decltype(unit);
    long long len = row_bytes / static_cast<long long>(sizeof(T));
    gather_rows_kernel<T>
        <<<grid_for(count * len), block, 0, s>>>(static_cast<const T*>(in), r, count, len, static_cast<T*>(out));
  };
  if (aligned(16)) run(bytes16{});
  else if (aligned(8)) run(0ULL);
  else if (aligned(4)) run(0U);
  else if (aligned(2)) run(static_cast<unsigned short>(0));
  else run(static_cast<unsigned char>(0));
  CUARRAY_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cuarray::detail
