// CUB scan templates shared by the scan_*.cu files: value types, operators and the two dispatch shapes.
#pragma once

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>

#include "src/cuda/check.hpp"
#include "src/kernels/scan_kernels.hpp"

namespace cuarray::detail::scan_impl {

struct alignas(8) c64 {
  float re, im;
};
struct alignas(16) c128 {
  double re, im;
};

__host__ __device__ inline c64 operator+(c64 a, c64 b) { return {a.re + b.re, a.im + b.im}; }
__host__ __device__ inline c128 operator+(c128 a, c128 b) { return {a.re + b.re, a.im + b.im}; }

struct mul_op {
  template <class T> __host__ __device__ T operator()(T a, T b) const { return a * b; }
  // NumPy's complex multiply: the plain formula, no special handling of infinities.
  __host__ __device__ c64 operator()(c64 a, c64 b) const {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
  __host__ __device__ c128 operator()(c128 a, c128 b) const {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  }
};

struct add_op {
  template <class T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
};

// Keys of a segmented scan are the flat indices themselves: two belong together when in the same row. No
// key array is read or stored.
struct same_row {
  long long row;
  __host__ __device__ bool operator()(long long a, long long b) const { return a / row == b / row; }
};

template <class F> void dispatch_scan_type(scan_type t, F&& f) {
  switch (t) {
    case scan_type::u64: return f(static_cast<unsigned long long>(0));
    case scan_type::f32: return f(0.0f);
    case scan_type::f64: return f(0.0);
    case scan_type::c64: return f(c64{});
    case scan_type::c128: return f(c128{});
  }
}

template <class T, class Op>
void scan_flat(const void* in, void* out, std::int64_t n, scratch_allocator& scratch, cudaStream_t s) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, src, dst, Op{}, n, s));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(cub::DeviceScan::InclusiveScan(temp, bytes, src, dst, Op{}, n, s));
}

template <class T, class Op>
void scan_rows(const void* in, void* out, std::int64_t n, std::int64_t row, scratch_allocator& scratch,
               cudaStream_t s) {
  const T* src = static_cast<const T*>(in);
  T* dst = static_cast<T*>(out);
  thrust::counting_iterator<long long> keys(0);
  same_row eq{row};
  std::size_t bytes = 0;
  CUARRAY_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, src, dst, Op{}, n, eq, s));
  void* temp = scratch.allocate(bytes);
  CUARRAY_CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, src, dst, Op{}, n, eq, s));
}

}  // namespace cuarray::detail::scan_impl
