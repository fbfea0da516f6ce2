// Ahead-of-time kernels around the CUB sorts: key transforms, gathers, searches, unique's flags and scan.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/cuda/check.hpp"
#include "src/kernels/element_bytes.cuh"
#include "src/kernels/sort_kernels.hpp"
#include "src/kernels/sort_keys.hpp"

namespace cuarray::detail::sorting {

namespace sk = sort_keys;

namespace {

constexpr int block_size = 256;

int grid_for(long long n) {
  long long blocks = (n + block_size - 1) / block_size;
  if (blocks > 65536) blocks = 65536;  // grid-stride loops cover the rest
  return static_cast<int>(blocks < 1 ? 1 : blocks);
}

void check_launch() { CUARRAY_CUDA_CHECK(cudaGetLastError()); }

#define CA_GRID_LOOP(i, n)                                                                                             \
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < (n);                           \
       i += static_cast<long long>(gridDim.x) * blockDim.x)

// Bits of one element (complex: of one part) of each dtype.
template <dtype T> struct elem {
  static constexpr bool complex = T == dtype::complex64 || T == dtype::complex128;
  static constexpr bool floating = T == dtype::float16 || T == dtype::float32 || T == dtype::float64 || complex;
  static constexpr int part_bytes = complex ? static_cast<int>(itemsize(T)) / 2 : static_cast<int>(itemsize(T));
  using bits =
      std::conditional_t<part_bytes == 1, unsigned char,
                         std::conditional_t<part_bytes == 2, unsigned short,
                                            std::conditional_t<part_bytes == 4, unsigned int, unsigned long long>>>;
};

template <dtype T> __device__ inline typename elem<T>::bits load_part(const char* base, long long i, int part) {
  using B = typename elem<T>::bits;
  return reinterpret_cast<const B*>(base)[(elem<T>::complex ? 2 * i : i) + part];
}

// The stable-order key of a real element, zero-extended (Note [sort keys]).
template <dtype T> __device__ inline unsigned long long real_key(typename elem<T>::bits x, bool arg) {
  if constexpr (T == dtype::bool_) {
    return x != 0 ? 1u : 0u;
  } else if constexpr (elem<T>::floating) {
    return arg ? sk::float_arg_key(x) : sk::float_sort_key(x);
  } else if constexpr (kind(T) == 'i') {
    return sk::signed_key(x);
  } else {
    return x;
  }
}

template <dtype T> __device__ inline unsigned long long key_at(const char* src, long long j, key_part part) {
  if constexpr (elem<T>::complex) {
    auto re = load_part<T>(src, j, 0), im = load_part<T>(src, j, 1);
    switch (part) {
      case key_part::cplx_real: return sk::complex_part_key(re);
      case key_part::cplx_imag: return sk::complex_part_key(im);
      case key_part::cplx_class: return sk::complex_class(re, im);
      default:  // packed, complex64 only
        return (static_cast<unsigned long long>(sk::complex_part_key(re)) << 32) | sk::complex_part_key(im);
    }
  } else {
    return real_key<T>(load_part<T>(src, j, 0), part == key_part::arg);
  }
}

__device__ inline void store_key(void* keys, long long i, int width, unsigned long long k) {
  switch (width) {
    case 1: static_cast<unsigned char*>(keys)[i] = static_cast<unsigned char>(k); break;
    case 2: static_cast<unsigned short*>(keys)[i] = static_cast<unsigned short>(k); break;
    case 4: static_cast<unsigned int*>(keys)[i] = static_cast<unsigned int>(k); break;
    default: static_cast<unsigned long long*>(keys)[i] = k; break;
  }
}

__device__ inline long long index_at(index_ref r, long long i) {
  return r.wide ? static_cast<const long long*>(r.data)[i] : static_cast<const int*>(r.data)[i];
}

template <dtype T>
__global__ void make_keys_kernel(const char* src, key_part part, index_ref perm, long long total, long long n,
                                 void* keys, int out_width, void* iota, bool iota_wide) {
  CA_GRID_LOOP(i, total) {
    long long r = i % n;
    long long j = perm.data ? i - r + index_at(perm, i) : i;
    store_key(keys, i, out_width, key_at<T>(src, j, part));
    if (iota) {
      if (iota_wide) static_cast<long long*>(iota)[i] = r;
      else static_cast<int*>(iota)[i] = static_cast<int>(r);
    }
  }
}

template <class B> __global__ void keys_to_values_kernel(B* keys, long long total, int how) {
  // how: 0 unsigned or bool (identity), 1 signed (flip the sign bit), 2 float (untwiddle)
  CA_GRID_LOOP(i, total) {
    B k = keys[i];
    if (how == 1) {
      keys[i] = sk::signed_key(k);
    } else if constexpr (sizeof(B) >= 2) {
      keys[i] = sk::float_untwiddle(k);
    }
  }
}

template <class E> __global__ void gather_kernel(const E* src, index_ref idx, long long total, long long n, E* dst) {
  CA_GRID_LOOP(i, total) {
    long long base = n > 0 ? i - i % n : 0;
    dst[i] = src[base + index_at(idx, i)];
  }
}

template <class E>
__global__ void gather_checked_kernel(const E* src, const long long* idx, long long total, long long src_n, E* dst,
                                      int* error) {
  CA_GRID_LOOP(i, total) {
    long long j = idx[i];
    if (j < 0 || j >= src_n) {
      *error = 1;
      j = 0;
    }
    dst[i] = src[j];
  }
}

__global__ void gather_rows_kernel(const unsigned char* src, long long row_bytes, index_ref idx, long long total,
                                   unsigned char* dst) {
  CA_GRID_LOOP(i, total) {
    long long r = i / row_bytes, b = i - r * row_bytes;
    dst[i] = src[index_at(idx, r) * row_bytes + b];
  }
}

// 16-byte loads and stores when both are aligned (`nvec` groups of four), the rest one by one.
__global__ void widen_kernel(const int* in, long long* out, long long total, long long nvec) {
  CA_GRID_LOOP(v, nvec) {
    int4 w = reinterpret_cast<const int4*>(in)[v];
    reinterpret_cast<longlong2*>(out)[2 * v] = make_longlong2(w.x, w.y);
    reinterpret_cast<longlong2*>(out)[2 * v + 1] = make_longlong2(w.z, w.w);
  }
  CA_GRID_LOOP(i, total - 4 * nvec) { out[4 * nvec + i] = in[4 * nvec + i]; }
}

__global__ void row_offsets_kernel(long long* offsets, long long rows, long long n) {
  CA_GRID_LOOP(i, rows + 1) { offsets[i] = i * n; }
}

template <class F> void dispatch_dtype(dtype t, F&& f) {
  switch (t) {
    case dtype::bool_: return f(std::integral_constant<dtype, dtype::bool_>{});
    case dtype::int8: return f(std::integral_constant<dtype, dtype::int8>{});
    case dtype::int16: return f(std::integral_constant<dtype, dtype::int16>{});
    case dtype::int32: return f(std::integral_constant<dtype, dtype::int32>{});
    case dtype::int64: return f(std::integral_constant<dtype, dtype::int64>{});
    case dtype::uint8: return f(std::integral_constant<dtype, dtype::uint8>{});
    case dtype::uint16: return f(std::integral_constant<dtype, dtype::uint16>{});
    case dtype::uint32: return f(std::integral_constant<dtype, dtype::uint32>{});
    case dtype::uint64: return f(std::integral_constant<dtype, dtype::uint64>{});
    case dtype::float16: return f(std::integral_constant<dtype, dtype::float16>{});
    case dtype::float32: return f(std::integral_constant<dtype, dtype::float32>{});
    case dtype::float64: return f(std::integral_constant<dtype, dtype::float64>{});
    case dtype::complex64: return f(std::integral_constant<dtype, dtype::complex64>{});
    case dtype::complex128: return f(std::integral_constant<dtype, dtype::complex128>{});
  }
}

// ---------------------------------------------------------------------------------------------------------
// Order and equality of elements, on bits (searchsorted, isin, unique).

template <dtype T> __device__ inline bool elem_less(const char* a, long long i, const char* b, long long j) {
  if constexpr (elem<T>::complex) {
    return sk::complex_less(load_part<T>(a, i, 0), load_part<T>(a, i, 1), load_part<T>(b, j, 0), load_part<T>(b, j, 1));
  } else {
    return real_key<T>(load_part<T>(a, i, 0), true) < real_key<T>(load_part<T>(b, j, 0), true);
  }
}

template <dtype T> __device__ inline bool part_nan(typename elem<T>::bits x) {
  if constexpr (elem<T>::floating) return sk::float_is_nan(x);
  else return false;
}

// ==, or both NaN when equal_nan (complex: each has a NaN part).
template <dtype T>
__device__ inline bool elem_equal(const char* a, long long i, const char* b, long long j, bool equal_nan) {
  if constexpr (elem<T>::complex) {
    auto ar = load_part<T>(a, i, 0), ai = load_part<T>(a, i, 1);
    auto br = load_part<T>(b, j, 0), bi = load_part<T>(b, j, 1);
    bool an = part_nan<T>(ar) || part_nan<T>(ai), bn = part_nan<T>(br) || part_nan<T>(bi);
    if (an || bn) return equal_nan && an && bn;
    return sk::float_arg_key(ar) == sk::float_arg_key(br) && sk::float_arg_key(ai) == sk::float_arg_key(bi);
  } else {
    auto x = load_part<T>(a, i, 0), y = load_part<T>(b, j, 0);
    if (part_nan<T>(x) || part_nan<T>(y)) return equal_nan && part_nan<T>(x) && part_nan<T>(y);
    return real_key<T>(x, true) == real_key<T>(y, true);
  }
}

template <dtype T>
__global__ void searchsorted_kernel(const char* a, long long na, const char* v, long long nv, bool right,
                                    long long* out) {
  CA_GRID_LOOP(j, nv) {
    long long lo = 0, hi = na;
    while (lo < hi) {
      long long mid = lo + (hi - lo) / 2;
      // left: first a[mid] >= v, i.e. move right while a[mid] < v; right: while !(v < a[mid]).
      bool go_right = right ? !elem_less<T>(v, j, a, mid) : elem_less<T>(a, mid, v, j);
      if (go_right) lo = mid + 1;
      else hi = mid;
    }
    out[j] = lo;
  }
}

template <dtype T>
__global__ void isin_kernel(const char* test, long long nt, const char* x, long long nx, bool invert, bool* out) {
  CA_GRID_LOOP(j, nx) {
    long long lo = 0, hi = nt;
    while (lo < hi) {
      long long mid = lo + (hi - lo) / 2;
      if (elem_less<T>(test, mid, x, j)) lo = mid + 1;
      else hi = mid;
    }
    bool found = lo < nt && elem_equal<T>(test, lo, x, j, false);
    out[j] = found != invert;
  }
}

template <dtype T>
__global__ void boundary_flags_kernel(const char* s, long long rows, long long m, bool equal_nan, long long* flags) {
  CA_GRID_LOOP(i, rows) {
    bool differ = i == 0;
    for (long long c = 0; c < m && !differ; ++c) {
      differ = !elem_equal<T>(s, i * m + c, s, (i - 1) * m + c, equal_nan);
    }
    flags[i] = differ ? 1 : 0;
  }
}

template <dtype T> __global__ void neighbor_mask_kernel(const char* s, long long n, int mode, bool* out) {
  if (mode == 0) {
    CA_GRID_LOOP(i, n - 1) { out[i] = elem_equal<T>(s, i, s, i + 1, false); }
  } else {
    CA_GRID_LOOP(i, n) {
      bool prev = i > 0 && elem_equal<T>(s, i, s, i - 1, false);
      bool next = i + 1 < n && elem_equal<T>(s, i, s, i + 1, false);
      out[i] = !prev && !next;
    }
  }
}

__global__ void compact_kernel(const unsigned char* src, long long row_bytes, const long long* flags,
                               const long long* pos, long long rows, unsigned char* values, long long* first) {
  CA_GRID_LOOP(i, rows) {
    if (flags ? !flags[i] : pos[i] == (i ? pos[i - 1] : 0)) continue;  // no flags: they were scanned in place
    long long k = pos[i] - 1;
    if (first) first[k] = i;
    if (values) {
      for (long long b = 0; b < row_bytes; ++b) values[k * row_bytes + b] = src[i * row_bytes + b];
    }
  }
}

template <class E>
__global__ void compact_typed_kernel(const E* src, const long long* flags, const long long* pos, long long rows,
                                     E* values, long long* first) {
  CA_GRID_LOOP(i, rows) {
    if (flags ? !flags[i] : pos[i] == (i ? pos[i - 1] : 0)) continue;  // no flags: they were scanned in place
    long long k = pos[i] - 1;
    if (first) first[k] = i;
    if (values) values[k] = src[i];
  }
}

__global__ void counts_kernel(const long long* first, long long count, long long rows, long long* counts) {
  CA_GRID_LOOP(k, count) { counts[k] = (k + 1 < count ? first[k + 1] : rows) - first[k]; }
}

__global__ void inverse_kernel(const long long* pos, index_ref perm, long long rows, long long* inverse) {
  CA_GRID_LOOP(i, rows) { inverse[perm.data ? index_at(perm, i) : i] = pos[i] - 1; }
}

// A grid that fills every SM once, each thread striding over the data: per-block results (atomics) stay few
// and blocks that have nothing to do retire at once.
int resident_grid(long long work_items) {
  int device = 0, sms = 0;
  CUARRAY_CUDA_CHECK(cudaGetDevice(&device));
  CUARRAY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  long long blocks = (work_items + block_size - 1) / block_size;
  long long cap = static_cast<long long>(sms) * (2048 / block_size);
  return static_cast<int>(blocks < 1 ? 1 : (blocks < cap ? blocks : cap));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class U>
__device__ inline void note_nan(U x, unsigned long long& negative, unsigned long long& max_inv,
                                unsigned long long& max_bits) {
  if (!sk::float_is_nan(x)) return;
  if (x & sk::float_bits<U>::sign) ++negative;
  unsigned long long b = x;
  max_bits = b > max_bits ? b : max_bits;
  max_inv = ~b > max_inv ? ~b : max_inv;
}

__device__ inline unsigned long long warp_max(unsigned long long v) {
  for (int d = 16; d > 0; d /= 2) {
    unsigned long long o = __shfl_xor_sync(0xffffffffu, v, d);
    v = o > v ? o : v;
  }
  return v;
}

__device__ inline unsigned long long warp_sum(unsigned long long v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// One pass over the values (16-byte loads when `aligned`): the NaN summary, and argsort's indices when asked.
// Launched with block_size threads.
template <class U>
__global__ void nan_scan_kernel(const U* x, long long n, bool aligned, nan_summary* summary, int* iota) {
  constexpr int per_vec = 16 / static_cast<int>(sizeof(U));
  unsigned long long negative = 0, max_inv = 0, max_bits = 0;
  long long nvec = aligned ? n / per_vec : 0;
  long long tid = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long v = tid; v < nvec; v += stride) {
    uint4 w = reinterpret_cast<const uint4*>(x)[v];
    U e[per_vec];
    memcpy(e, &w, sizeof(w));
#pragma unroll
    for (int k = 0; k < per_vec; ++k) note_nan(e[k], negative, max_inv, max_bits);
    if (iota) {
      int b = static_cast<int>(v * per_vec);
      if constexpr (per_vec == 4) {
        reinterpret_cast<int4*>(iota)[v] = make_int4(b, b + 1, b + 2, b + 3);
      } else {
        reinterpret_cast<int2*>(iota)[v] = make_int2(b, b + 1);
      }
    }
  }
  for (long long i = nvec * per_vec + tid; i < n; i += stride) {
    note_nan(x[i], negative, max_inv, max_bits);
    if (iota) iota[i] = static_cast<int>(i);
  }
  negative = warp_sum(negative);
  max_inv = warp_max(max_inv);
  max_bits = warp_max(max_bits);
  __shared__ unsigned long long part[3][block_size / 32];
  int warp = static_cast<int>(threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    part[0][warp] = negative;
    part[1][warp] = max_inv;
    part[2][warp] = max_bits;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long neg = 0, inv = 0, bits = 0;
    for (int w = 0; w < block_size / 32; ++w) {
      neg += part[0][w];
      inv = part[1][w] > inv ? part[1][w] : inv;
      bits = part[2][w] > bits ? part[2][w] : bits;
    }
    if (bits != 0) {  // this block saw a NaN
      if (neg) atomicAdd(reinterpret_cast<unsigned long long*>(&summary->negative), neg);
      atomicMax(reinterpret_cast<unsigned long long*>(&summary->max_inverted), inv);
      atomicMax(reinterpret_cast<unsigned long long*>(&summary->max_bits), bits);
    }
  }
}

// scratch = out rotated left by k = summary->negative, the k wrapped NaNs losing their sign bit.
template <class U>
__global__ void rotate_nans_kernel(const U* out, long long n, const nan_summary* summary, U* scratch) {
  long long k = summary->negative;
  if (k == 0) return;
  CA_GRID_LOOP(i, n) {
    long long j = i + k;
    scratch[i] = j < n ? out[j] : static_cast<U>(out[j - n] & static_cast<U>(~sk::float_bits<U>::sign));
  }
}

template <class U> __global__ void copy_back_kernel(U* out, long long n, const nan_summary* summary, const U* scratch) {
  if (summary->negative == 0) return;
  CA_GRID_LOOP(i, n) { out[i] = scratch[i]; }
}

__global__ void iota_kernel(int* iota, long long total, long long n) {
  CA_GRID_LOOP(i, total) { iota[i] = static_cast<int>(n >= total ? i : i % n); }
}

}  // namespace

int key_width(dtype t, key_part part) {
  switch (part) {
    case key_part::cplx_class: return 1;
    case key_part::cplx_packed: return 8;
    case key_part::cplx_real:
    case key_part::cplx_imag: return static_cast<int>(itemsize(t)) / 2;
    default: return static_cast<int>(itemsize(t));
  }
}

void launch_make_keys(const void* src, dtype t, key_part part, index_ref perm, std::int64_t total, std::int64_t n,
                      void* keys, int out_width, void* iota, bool iota_wide, cudaStream_t stream) {
  if (total <= 0) return;
  dispatch_dtype(t, [&](auto tag) {
    make_keys_kernel<decltype(tag)::value><<<grid_for(total), block_size, 0, stream>>>(
        static_cast<const char*>(src), part, perm, total, n, keys, out_width, iota, iota_wide);
  });
  check_launch();
}

void launch_keys_to_values(void* keys, dtype t, std::int64_t total, cudaStream_t stream) {
  if (total <= 0 || kind(t) == 'b' || kind(t) == 'u') return;
  int how = kind(t) == 'i' ? 1 : 2;
  dispatch_bytes(itemsize(t), [&](auto z) {
    using B = decltype(z);
    if constexpr (std::is_integral_v<B>) {
      keys_to_values_kernel<B><<<grid_for(total), block_size, 0, stream>>>(static_cast<B*>(keys), total, how);
    }
  });
  check_launch();
}

void launch_gather(const void* src, std::size_t isz, index_ref idx, std::int64_t total, std::int64_t n, void* dst,
                   cudaStream_t stream) {
  if (total <= 0) return;
  dispatch_bytes(isz, [&](auto z) {
    using E = decltype(z);
    gather_kernel<E>
        <<<grid_for(total), block_size, 0, stream>>>(static_cast<const E*>(src), idx, total, n, static_cast<E*>(dst));
  });
  check_launch();
}

void launch_gather_checked(const void* src, std::size_t isz, const std::int64_t* idx, std::int64_t total,
                           std::int64_t src_n, void* dst, int* error, cudaStream_t stream) {
  if (total <= 0) return;
  dispatch_bytes(isz, [&](auto z) {
    using E = decltype(z);
    gather_checked_kernel<E><<<grid_for(total), block_size, 0, stream>>>(
        static_cast<const E*>(src), reinterpret_cast<const long long*>(idx), total, src_n, static_cast<E*>(dst), error);
  });
  check_launch();
}

void launch_gather_rows(const void* src, std::size_t row_bytes, index_ref idx, std::int64_t rows, void* dst,
                        cudaStream_t stream) {
  long long total = rows * static_cast<long long>(row_bytes);
  if (total <= 0) return;
  gather_rows_kernel<<<grid_for(total), block_size, 0, stream>>>(static_cast<const unsigned char*>(src),
                                                                 static_cast<long long>(row_bytes), idx, total,
                                                                 static_cast<unsigned char*>(dst));
  check_launch();
}

void launch_widen(const std::int32_t* in, std::int64_t* out, std::int64_t total, cudaStream_t stream) {
  if (total <= 0) return;
  long long nvec = aligned16(in) && aligned16(out) ? total / 4 : 0;
  widen_kernel<<<grid_for(nvec ? nvec : total), block_size, 0, stream>>>(in, reinterpret_cast<long long*>(out), total,
                                                                         nvec);
  check_launch();
}

void launch_nan_scan(const void* src, int width, std::int64_t n, nan_summary* summary, std::int32_t* iota,
                     cudaStream_t stream) {
  CUARRAY_CUDA_CHECK(cudaMemsetAsync(summary, 0, sizeof(nan_summary), stream));
  if (n <= 0) return;
  // The vector loads need `src` and `iota` aligned alike; arrays from the pool are, views may not be.
  bool aligned = aligned16(src) && (iota == nullptr || aligned16(iota));
  int grid = resident_grid(aligned ? n / (16 / width) : n);
  auto* idx = reinterpret_cast<int*>(iota);
  if (width == 4) {
    nan_scan_kernel<unsigned int>
        <<<grid, block_size, 0, stream>>>(static_cast<const unsigned int*>(src), n, aligned, summary, idx);
  } else {
    nan_scan_kernel<unsigned long long>
        <<<grid, block_size, 0, stream>>>(static_cast<const unsigned long long*>(src), n, aligned, summary, idx);
  }
  check_launch();
}

void launch_move_negative_nans(void* out, int width, std::int64_t n, const nan_summary* summary, void* scratch,
                               cudaStream_t stream) {
  if (n <= 0) return;
  // Both kernels read the count first and return when it is 0 (the usual case): a few microseconds in all.
  int grid = resident_grid(n);
  if (width == 4) {
    using U = unsigned int;
    rotate_nans_kernel<U>
        <<<grid, block_size, 0, stream>>>(static_cast<const U*>(out), n, summary, static_cast<U*>(scratch));
    copy_back_kernel<U>
        <<<grid, block_size, 0, stream>>>(static_cast<U*>(out), n, summary, static_cast<const U*>(scratch));
  } else {
    using U = unsigned long long;
    rotate_nans_kernel<U>
        <<<grid, block_size, 0, stream>>>(static_cast<const U*>(out), n, summary, static_cast<U*>(scratch));
    copy_back_kernel<U>
        <<<grid, block_size, 0, stream>>>(static_cast<U*>(out), n, summary, static_cast<const U*>(scratch));
  }
  check_launch();
}

void launch_iota(std::int32_t* iota, std::int64_t total, std::int64_t n, cudaStream_t stream) {
  if (total <= 0) return;
  iota_kernel<<<grid_for(total), block_size, 0, stream>>>(reinterpret_cast<int*>(iota), total, n);
  check_launch();
}

void launch_row_offsets(std::int64_t* offsets, std::int64_t rows, std::int64_t n, cudaStream_t stream) {
  row_offsets_kernel<<<grid_for(rows + 1), block_size, 0, stream>>>(reinterpret_cast<long long*>(offsets), rows, n);
  check_launch();
}

std::size_t inclusive_sum(void* temp, std::size_t temp_bytes, std::int64_t* data, std::int64_t n, cudaStream_t stream) {
  auto* d = reinterpret_cast<long long*>(data);
  std::size_t bytes = temp_bytes;
  CUARRAY_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, d, d, static_cast<long long>(n), stream));
  return bytes;
}

void launch_searchsorted(const void* a, std::int64_t na, const void* v, std::int64_t nv, dtype t, bool right,
                         std::int64_t* out, cudaStream_t stream) {
  if (nv <= 0) return;
  dispatch_dtype(t, [&](auto tag) {
    searchsorted_kernel<decltype(tag)::value><<<grid_for(nv), block_size, 0, stream>>>(
        static_cast<const char*>(a), na, static_cast<const char*>(v), nv, right, reinterpret_cast<long long*>(out));
  });
  check_launch();
}

void launch_isin(const void* test, std::int64_t ntest, const void* x, std::int64_t nx, dtype t, bool invert, bool* out,
                 cudaStream_t stream) {
  if (nx <= 0) return;
  dispatch_dtype(t, [&](auto tag) {
    isin_kernel<decltype(tag)::value><<<grid_for(nx), block_size, 0, stream>>>(
        static_cast<const char*>(test), ntest, static_cast<const char*>(x), nx, invert, out);
  });
  check_launch();
}

void launch_boundary_flags(const void* sorted, dtype t, std::int64_t rows, std::int64_t m, bool equal_nan,
                           std::int64_t* flags, cudaStream_t stream) {
  if (rows <= 0) return;
  dispatch_dtype(t, [&](auto tag) {
    boundary_flags_kernel<decltype(tag)::value><<<grid_for(rows), block_size, 0, stream>>>(
        static_cast<const char*>(sorted), rows, m, equal_nan, reinterpret_cast<long long*>(flags));
  });
  check_launch();
}

void launch_neighbor_mask(const void* sorted, dtype t, std::int64_t n, int mode, bool* out, cudaStream_t stream) {
  if (n <= 0) return;
  dispatch_dtype(t, [&](auto tag) {
    neighbor_mask_kernel<decltype(tag)::value>
        <<<grid_for(n), block_size, 0, stream>>>(static_cast<const char*>(sorted), n, mode, out);
  });
  check_launch();
}

void launch_compact(const void* src, std::size_t row_bytes, const std::int64_t* flags, const std::int64_t* pos,
                    std::int64_t rows, void* values, std::int64_t* first, cudaStream_t stream) {
  if (rows <= 0) return;
  auto* f = reinterpret_cast<const long long*>(flags);
  auto* p = reinterpret_cast<const long long*>(pos);
  auto* fi = reinterpret_cast<long long*>(first);
  if (row_bytes == 1 || row_bytes == 2 || row_bytes == 4 || row_bytes == 8 || row_bytes == 16 || !values) {
    dispatch_bytes(values ? row_bytes : 1, [&](auto z) {
      using E = decltype(z);
      compact_typed_kernel<E><<<grid_for(rows), block_size, 0, stream>>>(static_cast<const E*>(src), f, p, rows,
                                                                         static_cast<E*>(values), fi);
    });
  } else {
    compact_kernel<<<grid_for(rows), block_size, 0, stream>>>(static_cast<const unsigned char*>(src),
                                                              static_cast<long long>(row_bytes), f, p, rows,
                                                              static_cast<unsigned char*>(values), fi);
  }
  check_launch();
}

void launch_counts(const std::int64_t* first, std::int64_t count, std::int64_t rows, std::int64_t* counts,
                   cudaStream_t stream) {
  if (count <= 0) return;
  counts_kernel<<<grid_for(count), block_size, 0, stream>>>(reinterpret_cast<const long long*>(first), count, rows,
                                                            reinterpret_cast<long long*>(counts));
  check_launch();
}

void launch_inverse(const std::int64_t* pos, index_ref perm, std::int64_t rows, std::int64_t* inverse,
                    cudaStream_t stream) {
  if (rows <= 0) return;
  inverse_kernel<<<grid_for(rows), block_size, 0, stream>>>(reinterpret_cast<const long long*>(pos), perm, rows,
                                                            reinterpret_cast<long long*>(inverse));
  check_launch();
}

}  // namespace cuarray::detail::sorting
